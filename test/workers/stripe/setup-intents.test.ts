// Saving a card for later with SetupIntents, through stripe-node, as Stripe's "save and reuse"
// guide does it: create for a customer, confirm with a test card, find the card attached.
import { describe, expect, it } from "vitest";
import Stripe from "stripe";
import { stripeErrorOf, stripeSandbox } from "./fixtures";

const seed = { customers: [{ id: "cus_save", email: "save@example.com" }] };
const noRedirects = { enabled: true, allow_redirects: "never" } as const;

describe("a SetupIntent saves a card to its customer", () => {
  it("creates, confirms with pm_card_visa, attaches the card and emits Stripe's events", async () => {
    const { stripe } = await stripeSandbox(seed);
    const si = await stripe.setupIntents.create({
      customer: "cus_save",
      automatic_payment_methods: noRedirects,
      metadata: { plan: "pro" },
    });
    expect(si).toMatchObject({
      object: "setup_intent",
      status: "requires_payment_method",
      customer: "cus_save",
      usage: "off_session",
      metadata: { plan: "pro" },
      automatic_payment_methods: { enabled: true, allow_redirects: "never" },
    });
    expect(si.id).toMatch(/^seti_/);
    expect(si.client_secret).toMatch(new RegExp(`^${si.id}_secret_`));
    const done = await stripe.setupIntents.confirm(si.id, { payment_method: "pm_card_visa" });
    expect(done.status).toBe("succeeded");
    const pm = await stripe.paymentMethods.retrieve(String(done.payment_method));
    expect(pm).toMatchObject({ customer: "cus_save", card: { last4: "4242" } });
    const saved = await stripe.customers.listPaymentMethods("cus_save");
    expect(saved.data.map((m) => m.id)).toEqual([pm.id]);
    const types = (await stripe.events.list({ limit: 10 })).data.map((e) => e.type);
    expect(types).toEqual(expect.arrayContaining(["setup_intent.created", "setup_intent.succeeded", "payment_method.attached"]));
    // The saved card then pays off-session, as the guide's second step does.
    const pi = await stripe.paymentIntents.create({
      amount: 2500,
      currency: "usd",
      customer: "cus_save",
      payment_method: pm.id,
      off_session: true,
      confirm: true,
    });
    expect(pi.status).toBe("succeeded");
  });

  it("retrieves, updates, lists by customer and by payment method", async () => {
    const { stripe } = await stripeSandbox(seed);
    const a = await stripe.setupIntents.create({ customer: "cus_save", automatic_payment_methods: noRedirects });
    const b = await stripe.setupIntents.create({ automatic_payment_methods: noRedirects });
    expect((await stripe.setupIntents.retrieve(a.id)).id).toBe(a.id);
    const updated = await stripe.setupIntents.update(b.id, { payment_method: "pm_card_mastercard", description: "spare card" });
    expect(updated).toMatchObject({ status: "requires_confirmation", description: "spare card" });
    expect((await stripe.setupIntents.list({ customer: "cus_save" })).data.map((s) => s.id)).toEqual([a.id]);
    expect((await stripe.setupIntents.list({ payment_method: String(updated.payment_method) })).data.map((s) => s.id)).toEqual([b.id]);
    expect((await stripe.setupIntents.list()).data.map((s) => s.id)).toEqual([b.id, a.id]);
    const missing = await stripeErrorOf(stripe.setupIntents.retrieve("seti_nope"));
    expect(missing).toMatchObject({ statusCode: 404, code: "resource_missing", param: "id", message: "No such setupintent: 'seti_nope'" });
  });
});

describe("authentication and decline test cards", () => {
  it("asks for authentication with pm_card_authenticationRequired, then succeeds once confirmed again", async () => {
    const { stripe } = await stripeSandbox(seed);
    const si = await stripe.setupIntents.create({
      customer: "cus_save",
      payment_method: "pm_card_authenticationRequired",
      confirm: true,
      automatic_payment_methods: noRedirects,
    });
    expect(si.status).toBe("requires_action");
    expect(si.next_action?.type).toBe("use_stripe_sdk");
    expect((await stripe.customers.listPaymentMethods("cus_save")).data).toHaveLength(0);
    const done = await stripe.setupIntents.confirm(si.id);
    expect(done.status).toBe("succeeded");
    expect((await stripe.customers.listPaymentMethods("cus_save")).data).toHaveLength(1);
  });

  it("pm_card_authenticationRequiredOnSetup (4000 0025 0000 3155) authenticates once on setup, then pays off-session", async () => {
    const { stripe } = await stripeSandbox(seed);
    const si = await stripe.setupIntents.create({
      customer: "cus_save",
      payment_method: "pm_card_authenticationRequiredOnSetup",
      confirm: true,
      automatic_payment_methods: noRedirects,
    });
    expect(si.status).toBe("requires_action");
    expect(si.next_action?.type).toBe("use_stripe_sdk");
    const pmId = String(si.payment_method);
    expect(await stripe.paymentMethods.retrieve(pmId)).toMatchObject({ card: { last4: "3155", brand: "visa" } });
    // Before it is set up, the customer away cannot authenticate: the payment is declined.
    const early = await stripeErrorOf(
      stripe.paymentIntents.create({ amount: 900, currency: "usd", payment_method: pmId, off_session: true, confirm: true }),
    );
    expect(early).toMatchObject({ statusCode: 402, code: "authentication_required" });
    const done = await stripe.setupIntents.confirm(si.id);
    expect(done.status).toBe("succeeded");
    const pi = await stripe.paymentIntents.create({
      amount: 2500,
      currency: "usd",
      customer: "cus_save",
      payment_method: pmId,
      off_session: true,
      confirm: true,
    });
    expect(pi).toMatchObject({ status: "succeeded", amount_received: 2500 });
    // On-session, a one-time payment with it still asks for authentication.
    const onSession = await stripe.paymentIntents.create({
      amount: 2500,
      currency: "usd",
      customer: "cus_save",
      payment_method: pmId,
      confirm: true,
      automatic_payment_methods: noRedirects,
    });
    expect(onSession.status).toBe("requires_action");
  });

  it("refuses a declining card with StripeCardError and keeps last_setup_error", async () => {
    const { stripe } = await stripeSandbox(seed);
    const si = await stripe.setupIntents.create({ customer: "cus_save", automatic_payment_methods: noRedirects });
    const err = await stripeErrorOf(stripe.setupIntents.confirm(si.id, { payment_method: "pm_card_chargeDeclined" }));
    expect(err).toBeInstanceOf(Stripe.errors.StripeCardError);
    expect(err).toMatchObject({ statusCode: 402, code: "card_declined", decline_code: "generic_decline" });
    const stored = await stripe.setupIntents.retrieve(si.id);
    expect(stored).toMatchObject({ status: "requires_payment_method", last_setup_error: { code: "card_declined" } });
    expect((await stripe.customers.listPaymentMethods("cus_save")).data).toHaveLength(0);
  });
});

describe("SetupIntent refusals are Stripe's and change nothing", () => {
  it("requires return_url when redirects are allowed (the default), cancels, and refuses to confirm a canceled one", async () => {
    const { stripe } = await stripeSandbox(seed);
    const si = await stripe.setupIntents.create({ customer: "cus_save" });
    expect(si.automatic_payment_methods).toEqual({ allow_redirects: "always", enabled: true });
    const noUrl = await stripeErrorOf(stripe.setupIntents.confirm(si.id, { payment_method: "pm_card_visa" }));
    expect(noUrl.message).toMatch(/^A `return_url` must be specified because this Setup Intent/);
    expect((await stripe.setupIntents.retrieve(si.id)).status).toBe("requires_payment_method");
    const canceled = await stripe.setupIntents.cancel(si.id, { cancellation_reason: "abandoned" });
    expect(canceled).toMatchObject({ status: "canceled", cancellation_reason: "abandoned" });
    const again = await stripeErrorOf(
      stripe.setupIntents.confirm(si.id, { payment_method: "pm_card_visa", return_url: "https://x.example/r" }),
    );
    expect(again).toMatchObject({ statusCode: 400, code: "setup_intent_unexpected_state" });
    const cancelTwice = await stripeErrorOf(stripe.setupIntents.cancel(si.id));
    expect(cancelTwice).toMatchObject({ code: "setup_intent_unexpected_state" });
  });

  it("refuses a card attached to another customer and an unknown customer", async () => {
    const { stripe } = await stripeSandbox({ customers: [{ id: "cus_save" }, { id: "cus_other" }] });
    const theirs = await stripe.paymentMethods.attach("pm_card_visa", { customer: "cus_other" });
    const err = await stripeErrorOf(
      stripe.setupIntents.create({
        customer: "cus_save",
        payment_method: theirs.id,
        confirm: true,
        automatic_payment_methods: noRedirects,
      }),
    );
    expect(err).toMatchObject({ statusCode: 400, param: "payment_method" });
    const nobody = await stripeErrorOf(stripe.setupIntents.create({ customer: "cus_nobody" }));
    expect(nobody).toMatchObject({ statusCode: 404, code: "resource_missing", param: "customer" });
  });
});
