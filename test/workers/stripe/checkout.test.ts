// Checkout Sessions and Payment Links through stripe-node, as Stripe's Checkout quickstart uses
// them; completion through the twin's test helper (stripe.rawRequest), which does what a customer
// paying on the hosted page makes Stripe do.
import { describe, expect, it } from "vitest";
import type Stripe from "stripe";
import { stripeTwin } from "../../../durable-objects/twins/stripe";
import { parseStripeSeed } from "../../../durable-objects/twins/stripe/seed";
import { twinFetch } from "../helpers";
import { inTwinWorld } from "../kit/world";
import { stripeErrorOf, stripeSandbox } from "./fixtures";

const seed = {
  customers: [{ id: "cus_buyer", email: "buyer@example.com", name: "Buyer" }],
  products: [
    { id: "prod_mug", name: "Mug" },
    { id: "prod_pro", name: "Pro plan" },
  ],
  prices: [
    { id: "price_mug", product: "prod_mug", currency: "usd", unit_amount: 1500 },
    { id: "price_pro", product: "prod_pro", currency: "usd", unit_amount: 2000, recurring: { interval: "month" } },
  ],
};

const complete = (stripe: Stripe, id: string, params: Record<string, string> = {}) =>
  stripe.rawRequest("POST", `/v1/test_helpers/checkout/sessions/${id}/complete`, params) as Promise<Stripe.Checkout.Session>;

describe("a payment-mode Checkout Session sells one-off prices", () => {
  it("creates with line items and amounts, lists its line items, and completes into a paid PaymentIntent", async () => {
    const { stripe } = await stripeSandbox(seed);
    const session = await stripe.checkout.sessions.create({
      mode: "payment",
      line_items: [{ price: "price_mug", quantity: 2 }],
      success_url: "https://shop.example/ok",
      client_reference_id: "order-7",
      metadata: { order: "7" },
    });
    expect(session).toMatchObject({
      object: "checkout.session",
      mode: "payment",
      status: "open",
      payment_status: "unpaid",
      amount_subtotal: 3000,
      amount_total: 3000,
      currency: "usd",
      payment_intent: null,
      client_reference_id: "order-7",
      metadata: { order: "7" },
    });
    expect(session.id).toMatch(/^cs_test_/);
    expect(session.url).toContain(session.id);
    expect(session.line_items).toBeUndefined();
    const items = await stripe.checkout.sessions.listLineItems(session.id);
    expect(items.data).toEqual([
      expect.objectContaining({
        object: "item",
        quantity: 2,
        amount_total: 3000,
        description: "Mug",
        price: expect.objectContaining({ id: "price_mug" }),
      }),
    ]);
    const expanded = await stripe.checkout.sessions.retrieve(session.id, { expand: ["line_items.data.price.product"] });
    expect(expanded.line_items?.data[0]?.price?.product).toMatchObject({ id: "prod_mug", object: "product" });

    const done = await complete(stripe, session.id, { email: "guest@example.com" });
    expect(done).toMatchObject({ status: "complete", payment_status: "paid", customer_details: { email: "guest@example.com" } });
    const pi = await stripe.paymentIntents.retrieve(String(done.payment_intent));
    expect(pi).toMatchObject({ status: "succeeded", amount: 3000, currency: "usd" });
    const completed = await stripe.events.list({ type: "checkout.session.completed" });
    expect(completed.data[0]?.data.object).toMatchObject({ id: session.id, status: "complete" });
    expect((await stripe.checkout.sessions.list({ payment_intent: pi.id })).data.map((s) => s.id)).toEqual([session.id]);
    expect((await stripe.checkout.sessions.list({ status: "complete" })).data).toHaveLength(1);
  });

  it("a declined card leaves the session open and answers StripeCardError", async () => {
    const { stripe } = await stripeSandbox(seed);
    const session = await stripe.checkout.sessions.create({ mode: "payment", line_items: [{ price: "price_mug", quantity: 1 }] });
    const err = await stripeErrorOf(complete(stripe, session.id, { payment_method: "pm_card_chargeDeclined" }));
    expect(err).toMatchObject({ statusCode: 402, code: "card_declined" });
    expect((await stripe.checkout.sessions.retrieve(session.id)).status).toBe("open");
  });

  it("takes price_data for an inline price", async () => {
    const { stripe } = await stripeSandbox(seed);
    const session = await stripe.checkout.sessions.create({
      mode: "payment",
      line_items: [{ price_data: { currency: "eur", unit_amount: 999, product_data: { name: "Sticker" } }, quantity: 3 }],
    });
    expect(session).toMatchObject({ amount_total: 2997, currency: "eur" });
  });
});

describe("subscription and setup modes complete as Stripe's guides expect", () => {
  it("subscription mode makes the customer, the active Subscription and its paid invoice", async () => {
    const { stripe } = await stripeSandbox(seed);
    const session = await stripe.checkout.sessions.create({
      mode: "subscription",
      line_items: [{ price: "price_pro", quantity: 1 }],
      customer_email: "new@example.com",
      subscription_data: { metadata: { source: "checkout" } },
    });
    expect(session.amount_total).toBe(2000);
    const done = await complete(stripe, session.id);
    expect(done).toMatchObject({ status: "complete", payment_status: "paid" });
    const customer = (await stripe.customers.retrieve(String(done.customer))) as Stripe.Customer;
    expect(customer.email).toBe("new@example.com");
    const sub = await stripe.subscriptions.retrieve(String(done.subscription));
    expect(sub).toMatchObject({ status: "active", customer: customer.id, metadata: { source: "checkout" } });
    expect((await stripe.customers.listPaymentMethods(customer.id)).data).toHaveLength(1);
  });

  it("setup mode saves the card to the customer through a SetupIntent", async () => {
    const { stripe } = await stripeSandbox(seed);
    const session = await stripe.checkout.sessions.create({ mode: "setup", customer: "cus_buyer", currency: "usd" });
    expect(session).toMatchObject({ mode: "setup", amount_total: null, payment_status: "no_payment_required" });
    const done = await complete(stripe, session.id, { payment_method: "pm_card_mastercard" });
    const si = await stripe.setupIntents.retrieve(String(done.setup_intent));
    expect(si).toMatchObject({ status: "succeeded", customer: "cus_buyer" });
    expect((await stripe.customers.listPaymentMethods("cus_buyer")).data[0]?.card?.brand).toBe("mastercard");
  });
});

describe("Checkout refusals are Stripe's and change nothing", () => {
  it("refuses a recurring price in payment mode, a subscription without one, and line items in setup mode", async () => {
    const { stripe } = await stripeSandbox(seed);
    const recurring = await stripeErrorOf(
      stripe.checkout.sessions.create({ mode: "payment", line_items: [{ price: "price_pro", quantity: 1 }] }),
    );
    expect(recurring).toMatchObject({ statusCode: 400, param: "line_items[0][price]" });
    const oneOff = await stripeErrorOf(
      stripe.checkout.sessions.create({ mode: "subscription", line_items: [{ price: "price_mug", quantity: 1 }] }),
    );
    expect(oneOff).toMatchObject({ statusCode: 400, param: "line_items" });
    const setup = await stripeErrorOf(
      stripe.checkout.sessions.create({ mode: "setup", line_items: [{ price: "price_mug", quantity: 1 }] }),
    );
    expect(setup).toMatchObject({ statusCode: 400, param: "line_items" });
    const missing = await stripeErrorOf(stripe.checkout.sessions.create({ mode: "payment" }));
    expect(missing).toMatchObject({ code: "parameter_missing", param: "line_items" });
    const badEmail = await stripeErrorOf(
      stripe.checkout.sessions.create({ mode: "payment", line_items: [{ price: "price_mug", quantity: 1 }], customer_email: "nope" }),
    );
    expect(badEmail).toMatchObject({ code: "email_invalid", param: "customer_email" });
    const unknownPrice = await stripeErrorOf(
      stripe.checkout.sessions.create({ mode: "payment", line_items: [{ price: "price_nope", quantity: 1 }] }),
    );
    expect(unknownPrice).toMatchObject({ statusCode: 404, code: "resource_missing", param: "line_items[0][price]" });
    expect((await stripe.checkout.sessions.list()).data).toHaveLength(0);
  });

  it("expires an open session (checkout.session.expired) and refuses to expire or complete it again", async () => {
    const { stripe } = await stripeSandbox(seed);
    const session = await stripe.checkout.sessions.create({ mode: "payment", line_items: [{ price: "price_mug", quantity: 1 }] });
    const expired = await stripe.checkout.sessions.expire(session.id);
    expect(expired).toMatchObject({ status: "expired", url: null });
    expect((await stripe.events.list({ type: "checkout.session.expired" })).data).toHaveLength(1);
    expect(await stripeErrorOf(stripe.checkout.sessions.expire(session.id))).toMatchObject({ statusCode: 400 });
    expect(await stripeErrorOf(complete(stripe, session.id))).toMatchObject({ statusCode: 400 });
    expect(await stripeErrorOf(stripe.checkout.sessions.retrieve("cs_test_nope"))).toMatchObject({
      statusCode: 404,
      code: "resource_missing",
    });
  });
});

describe("Payment Links sell prices from a shareable url", () => {
  it("creates, retrieves, lists line items, deactivates and lists by active", async () => {
    const { stripe } = await stripeSandbox(seed);
    const link = await stripe.paymentLinks.create({
      line_items: [{ price: "price_mug", quantity: 1 }],
      metadata: { campaign: "spring" },
      after_completion: { type: "redirect", redirect: { url: "https://shop.example/thanks" } },
    });
    expect(link).toMatchObject({
      object: "payment_link",
      active: true,
      currency: "usd",
      metadata: { campaign: "spring" },
      after_completion: { type: "redirect", redirect: { url: "https://shop.example/thanks" } },
    });
    expect(link.id).toMatch(/^plink_/);
    expect(link.url).toMatch(/^https:\/\/buy\.stripe\.com\//);
    expect((await stripe.paymentLinks.retrieve(link.id)).id).toBe(link.id);
    const items = await stripe.paymentLinks.listLineItems(link.id);
    expect(items.data).toEqual([expect.objectContaining({ quantity: 1, amount_total: 1500 })]);
    const off = await stripe.paymentLinks.update(link.id, { active: false });
    expect(off.active).toBe(false);
    const other = await stripe.paymentLinks.create({ line_items: [{ price: "price_pro", quantity: 1 }] });
    expect((await stripe.paymentLinks.list({ active: true })).data.map((l) => l.id)).toEqual([other.id]);
    expect((await stripe.paymentLinks.list()).data.map((l) => l.id)).toEqual([other.id, link.id]);
    const noQuantity = await stripeErrorOf(
      stripe.paymentLinks.create({ line_items: [{ price: "price_mug" } as Stripe.PaymentLinkCreateParams.LineItem] }),
    );
    expect(noQuantity).toMatchObject({ code: "parameter_missing", param: "line_items[0][quantity]" });
  });
});

describe("sessions, links and SetupIntents are part of the world export", () => {
  it("exports what the calls made, and the export seeds a world that exports the same", async () => {
    const { sandbox, stripe } = await stripeSandbox(seed);
    const link = await stripe.paymentLinks.create({ line_items: [{ price: "price_mug", quantity: 2 }] });
    const session = await stripe.checkout.sessions.create({
      mode: "subscription",
      line_items: [{ price: "price_pro", quantity: 1 }],
      customer: "cus_buyer",
    });
    await complete(stripe, session.id);
    const si = await stripe.setupIntents.create({
      customer: "cus_buyer",
      automatic_payment_methods: { enabled: true, allow_redirects: "never" },
    });
    const state = await (await twinFetch(sandbox, "/_pome/state", {}, "stripe")).json<Record<string, Record<string, unknown>[]>>();
    expect(state.payment_links?.map((l) => l.id)).toEqual([link.id]);
    expect(state.checkout_sessions?.[0]).toMatchObject({ id: session.id, status: "complete", mode: "subscription" });
    expect(state.setup_intents?.map((s) => s.id)).toEqual([si.id]);
    const parsed = parseStripeSeed(state);
    expect(parsed.ok ? [] : parsed.issues).toEqual([]);
    if (!parsed.ok) return;
    await inTwinWorld(stripeTwin, parsed.seed, (w) => expect(w.exportState()).toEqual(parsed.seed));
  });
});
