// Subscriptions beyond the common path, as Stripe's subscription guides use them through
// stripe-node: paused collection, prorations, cancellation with a final invoice, trials that end
// without a card, and default_incomplete's confirmation secret.
import type Stripe from "stripe";
import { describe, expect, it } from "vitest";
import { stripeErrorOf, stripeSandbox } from "./fixtures";

const DAY = 86400;
const START = 1_780_000_000;

/** A customer with a card on a test clock, subscribed to the $20/month price. */
async function onClock(stripe: Stripe, params: Partial<Stripe.SubscriptionCreateParams> = {}) {
  const clock = await stripe.testHelpers.testClocks.create({ frozen_time: START });
  const customer = await stripe.customers.create({ email: "depth@example.com", test_clock: clock.id });
  const pm = await stripe.paymentMethods.attach("pm_card_visa", { customer: customer.id });
  await stripe.customers.update(customer.id, { invoice_settings: { default_payment_method: pm.id } });
  const sub = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: "price_pro_monthly" }], ...params });
  return { clock, customer, sub };
}

describe("pause_collection decides what the invoices of a pause become", () => {
  it("voids them with behavior=void, and collects again once cleared", async () => {
    const { stripe } = await stripeSandbox();
    const { clock, sub } = await onClock(stripe);
    const paused = await stripe.subscriptions.update(sub.id, { pause_collection: { behavior: "void" } });
    expect(paused.pause_collection).toEqual({ behavior: "void", resumes_at: null });
    await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: START + 35 * DAY });
    const [during] = (await stripe.invoices.list({ subscription: sub.id, limit: 1 })).data;
    expect(during).toMatchObject({ billing_reason: "subscription_cycle", status: "void", amount_paid: 0 });
    const resumed = await stripe.subscriptions.update(sub.id, { pause_collection: "" });
    expect(resumed.pause_collection).toBeNull();
    await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: START + 65 * DAY });
    const [after] = (await stripe.invoices.list({ subscription: sub.id, limit: 1 })).data;
    expect(after).toMatchObject({ status: "paid", amount_paid: 2000 });
  });

  it("keeps them as drafts with behavior=keep_as_draft", async () => {
    const { stripe } = await stripeSandbox();
    const { clock, sub } = await onClock(stripe);
    await stripe.subscriptions.update(sub.id, { pause_collection: { behavior: "keep_as_draft" } });
    await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: START + 35 * DAY });
    const [during] = (await stripe.invoices.list({ subscription: sub.id, limit: 1 })).data;
    expect(during).toMatchObject({ status: "draft", auto_advance: false });
  });
});

describe("changing items mid-period prorates them", () => {
  it("leaves prorations pending by default and invoices them at once with always_invoice", async () => {
    const { stripe } = await stripeSandbox();
    const { clock, sub } = await onClock(stripe);
    const item = sub.items.data[0];
    const half = Math.floor((item.current_period_start + item.current_period_end) / 2);
    await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: half });
    await stripe.subscriptions.update(sub.id, { items: [{ id: item.id, quantity: 2 }], proration_date: half });
    const pending = await stripe.invoiceItems.list({ pending: true });
    const amounts = pending.data.map((i) => [i.proration, i.amount]).sort();
    expect(amounts).toEqual([
      [true, -1000],
      [true, 2000],
    ]);
    const now = await stripe.subscriptions.update(sub.id, {
      items: [{ id: item.id, quantity: 3 }],
      proration_behavior: "always_invoice",
      proration_date: half,
      expand: ["latest_invoice"],
    });
    const inv = now.latest_invoice as Stripe.Invoice;
    // The earlier prorations (+1000) and this change (−2000 + 3000) are invoiced together.
    expect(inv).toMatchObject({ billing_reason: "subscription_update", status: "paid", total: 2000 });
    expect((await stripe.invoiceItems.list({ pending: true })).data).toHaveLength(0);
  });
});

describe("cancelling with prorate and invoice_now", () => {
  it("credits the unused time on a final invoice, to the customer's balance", async () => {
    const { stripe } = await stripeSandbox();
    const { clock, customer, sub } = await onClock(stripe);
    const item = sub.items.data[0];
    const half = Math.floor((item.current_period_start + item.current_period_end) / 2);
    await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: half });
    const canceled = await stripe.subscriptions.cancel(sub.id, { prorate: true, invoice_now: true, expand: ["latest_invoice"] });
    expect(canceled.status).toBe("canceled");
    const final = canceled.latest_invoice as Stripe.Invoice;
    expect(final.total).toBe(-1000);
    expect(final).toMatchObject({ status: "paid", amount_due: 0, ending_balance: -1000 });
    expect(((await stripe.customers.retrieve(customer.id)) as Stripe.Customer).balance).toBe(-1000);
  });
});

describe("trials", () => {
  it("end by cancelling when trial_settings say so and there is no payment method", async () => {
    const { stripe } = await stripeSandbox();
    const clock = await stripe.testHelpers.testClocks.create({ frozen_time: START });
    const customer = await stripe.customers.create({ test_clock: clock.id });
    const sub = await stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: "price_pro_monthly" }],
      trial_period_days: 14,
      trial_settings: { end_behavior: { missing_payment_method: "cancel" } },
    });
    expect(sub).toMatchObject({ status: "trialing", trial_end: START + 14 * DAY });
    expect(sub.trial_settings?.end_behavior.missing_payment_method).toBe("cancel");
    await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: START + 15 * DAY });
    expect(await stripe.subscriptions.retrieve(sub.id)).toMatchObject({ status: "canceled", ended_at: START + 14 * DAY });
  });

  it("become active and invoiced at trial_end when a card is on file", async () => {
    const { stripe } = await stripeSandbox();
    const { clock, sub } = await onClock(stripe, { trial_end: START + 7 * DAY });
    expect(sub.status).toBe("trialing");
    await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: START + 8 * DAY });
    const after = await stripe.subscriptions.retrieve(sub.id, { expand: ["latest_invoice"] });
    expect(after.status).toBe("active");
    expect(after.latest_invoice as Stripe.Invoice).toMatchObject({ status: "paid", amount_paid: 2000 });
  });
});

describe("payment_behavior=default_incomplete", () => {
  it("leaves the subscription incomplete with the first invoice's confirmation secret", async () => {
    const { stripe } = await stripeSandbox();
    const customer = await stripe.customers.create({ email: "new@example.com" });
    const sub = await stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: "price_pro_monthly" }],
      payment_behavior: "default_incomplete",
      payment_settings: { save_default_payment_method: "on_subscription" },
      expand: ["latest_invoice.confirmation_secret"],
    });
    expect(sub.status).toBe("incomplete");
    const invoice = sub.latest_invoice as Stripe.Invoice;
    expect(invoice.status).toBe("open");
    expect(invoice.confirmation_secret).toMatchObject({ type: "payment_intent", client_secret: expect.stringMatching(/^pi_.+_secret_/) });
    const [payment] = (await stripe.invoicePayments.list({ invoice: invoice.id })).data;
    const pi = await stripe.paymentIntents.retrieve(String(payment.payment.payment_intent));
    expect(pi).toMatchObject({
      status: "requires_payment_method",
      amount: 2000,
      client_secret: invoice.confirmation_secret?.client_secret,
    });
  });
});

/** A default_incomplete subscription for a new customer, with the first invoice's PaymentIntent id. */
async function awaitingFirstPayment(stripe: Stripe) {
  const customer = await stripe.customers.create({ email: "guide@example.com" });
  const sub = await stripe.subscriptions.create({
    customer: customer.id,
    items: [{ price: "price_pro_monthly" }],
    payment_behavior: "default_incomplete",
    payment_settings: { save_default_payment_method: "on_subscription" },
    expand: ["latest_invoice.confirmation_secret"],
  });
  const invoice = sub.latest_invoice as Stripe.Invoice;
  const [payment] = (await stripe.invoicePayments.list({ invoice: invoice.id })).data;
  return { customer, sub, invoice, piId: String(payment.payment.payment_intent) };
}

describe("confirming default_incomplete's first PaymentIntent settles the subscription", () => {
  it("pays the invoice and activates the subscription with the card as its default", async () => {
    const { stripe } = await stripeSandbox();
    const { sub, invoice, piId } = await awaitingFirstPayment(stripe);
    const pi = await stripe.paymentIntents.confirm(piId, { payment_method: "pm_card_visa", return_url: "https://example.com/done" });
    expect(pi.status).toBe("succeeded");
    expect(await stripe.invoices.retrieve(invoice.id)).toMatchObject({ status: "paid", amount_paid: 2000, attempt_count: 1 });
    const after = await stripe.subscriptions.retrieve(sub.id);
    expect(after.status).toBe("active");
    expect(after.default_payment_method).toBe(pi.payment_method);
    const [payment] = (await stripe.invoicePayments.list({ invoice: invoice.id })).data;
    expect(payment).toMatchObject({ status: "paid", amount_paid: 2000 });
    const types = (await stripe.events.list({ limit: 20 })).data.map((e) => e.type);
    expect(types).toEqual(expect.arrayContaining(["invoice.paid", "invoice.payment_succeeded", "customer.subscription.updated"]));
    const [updated] = (await stripe.events.list({ type: "customer.subscription.updated", limit: 1 })).data;
    expect(updated.data.previous_attributes).toMatchObject({ status: "incomplete" });
  });

  it("leaves the subscription incomplete when the card is declined", async () => {
    const { stripe } = await stripeSandbox();
    const { sub, invoice, piId } = await awaitingFirstPayment(stripe);
    const err = await stripeErrorOf(
      stripe.paymentIntents.confirm(piId, { payment_method: "pm_card_chargeDeclined", return_url: "https://example.com/done" }),
    );
    expect(err).toMatchObject({ type: "StripeCardError", code: "card_declined" });
    expect((await stripe.paymentIntents.retrieve(piId)).status).toBe("requires_payment_method");
    expect(await stripe.invoices.retrieve(invoice.id)).toMatchObject({ status: "open", amount_paid: 0, attempt_count: 1 });
    expect((await stripe.subscriptions.retrieve(sub.id)).status).toBe("incomplete");
    const [failed] = (await stripe.events.list({ type: "invoice.payment_failed", limit: 1 })).data;
    expect((failed.data.object as Stripe.Invoice).id).toBe(invoice.id);
    const retried = await stripe.paymentIntents.confirm(piId, { payment_method: "pm_card_visa", return_url: "https://example.com/done" });
    expect(retried.status).toBe("succeeded");
    expect((await stripe.subscriptions.retrieve(sub.id)).status).toBe("active");
  });
});

describe("paying default_incomplete's first invoice confirms the intent it awaits", () => {
  it("charges the same PaymentIntent, with one invoice payment, and activates the subscription", async () => {
    const { stripe } = await stripeSandbox();
    const { customer, sub, invoice, piId } = await awaitingFirstPayment(stripe);
    const pm = await stripe.paymentMethods.attach("pm_card_visa", { customer: customer.id });
    const paid = await stripe.invoices.pay(invoice.id, { payment_method: pm.id });
    expect(paid).toMatchObject({ status: "paid", amount_paid: 2000 });
    const payments = (await stripe.invoicePayments.list({ invoice: invoice.id })).data;
    expect(payments).toHaveLength(1);
    expect(payments[0]).toMatchObject({ status: "paid", payment: { payment_intent: piId } });
    expect((await stripe.paymentIntents.retrieve(piId)).status).toBe("succeeded");
    expect((await stripe.subscriptions.retrieve(sub.id)).status).toBe("active");
  });
});

describe("create_preview shows a change's prorations before it is made", () => {
  it("previews the next invoice with the prorations and the next period, writing nothing", async () => {
    const { stripe } = await stripeSandbox();
    const { clock, sub } = await onClock(stripe);
    const item = sub.items.data[0];
    const half = Math.floor((item.current_period_start + item.current_period_end) / 2);
    await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: half });
    const change = { items: [{ id: item.id, quantity: 2 }], proration_date: half };
    const preview = await stripe.invoices.createPreview({ subscription: sub.id, subscription_details: change });
    expect(preview.id).toMatch(/^upcoming_in_/);
    expect(preview.billing_reason).toBe("upcoming");
    const prorations = preview.lines.data.filter((l) => l.parent?.invoice_item_details?.proration).map((l) => l.amount);
    expect(prorations.sort((a, b) => a - b)).toEqual([-1000, 2000]);
    const next = preview.lines.data.find((l) => l.parent?.subscription_item_details?.subscription_item === item.id);
    expect(next).toMatchObject({ amount: 4000, period: { start: item.current_period_end } });
    expect(preview.total).toBe(5000);
    const now = await stripe.invoices.createPreview({
      subscription: sub.id,
      subscription_details: { ...change, proration_behavior: "always_invoice" },
    });
    expect(now).toMatchObject({ billing_reason: "subscription_update", total: 1000 });
    expect((await stripe.invoiceItems.list()).data).toHaveLength(0);
    expect((await stripe.invoices.list({ subscription: sub.id })).data).toHaveLength(1);
  });

  it("previews a customer's pending items and extra items", async () => {
    const { stripe } = await stripeSandbox();
    await stripe.invoiceItems.create({ customer: "cus_carol", amount: 800, currency: "usd" });
    const preview = await stripe.invoices.createPreview({ customer: "cus_carol", invoice_items: [{ amount: 200, currency: "usd" }] });
    expect(preview).toMatchObject({ customer: "cus_carol", total: 1000, amount_due: 1000 });
    expect(preview.lines.data.every((l) => l.id.startsWith("il_tmp_"))).toBe(true);
  });
});

// Older clients (python3-stripe 5.0.0's Invoice.upcoming) still call GET /v1/invoices/upcoming,
// which stripe-node 23 has no method for: reached here with stripe.rawRequest.
describe("GET /v1/invoices/upcoming answers the older clients' preview", () => {
  type Upcoming = Stripe.Invoice & { lastResponse?: unknown };
  // stripe-node's rawRequest takes a GET's parameters in its path, bracket-encoded as Stripe reads them.
  const get = (stripe: Stripe, path: string, params: Record<string, unknown>) => {
    const q = new URLSearchParams();
    const add = (key: string, v: unknown) => {
      if (v !== null && typeof v === "object") for (const [k, inner] of Object.entries(v)) add(`${key}[${k}]`, inner);
      else q.append(key, String(v));
    };
    for (const [k, v] of Object.entries(params)) add(k, v);
    return stripe.rawRequest("GET", `${path}?${q.toString()}`);
  };
  it("answers the customer's upcoming invoice, without an id, as create_preview computes it", async () => {
    const { stripe } = await stripeSandbox();
    await stripe.invoiceItems.create({ customer: "cus_carol", amount: 800, currency: "usd" });
    const invoicesBefore = (await stripe.invoices.list({ customer: "cus_carol" })).data.length;
    const upcoming = (await stripe.rawRequest("GET", "/v1/invoices/upcoming?customer=cus_carol")) as unknown as Upcoming;
    const preview = await stripe.invoices.createPreview({ customer: "cus_carol" });
    expect(upcoming).toMatchObject({ object: "invoice", customer: "cus_carol", total: preview.total, amount_due: preview.amount_due });
    expect(upcoming.total).toBe(800);
    expect("id" in upcoming).toBe(false);
    expect(upcoming.lines.url).toBe("/v1/invoices/upcoming/lines?customer=cus_carol");
    // Nothing was written.
    expect((await stripe.invoices.list({ customer: "cus_carol" })).data).toHaveLength(invoicesBefore);
    expect((await stripe.invoiceItems.list({ customer: "cus_carol" })).data[0].invoice).toBeNull();
    const lines = (await get(stripe, "/v1/invoices/upcoming/lines", { customer: "cus_carol", limit: 1 })) as unknown as {
      object: string;
      data: Stripe.InvoiceLineItem[];
      has_more: boolean;
      url: string;
    };
    expect(lines).toMatchObject({ object: "list", has_more: false, url: "/v1/invoices/upcoming/lines" });
    expect(lines.data.map((l) => l.amount)).toEqual([800]);
  });

  it("previews a subscription change named the older way (subscription_items, subscription_proration_date)", async () => {
    const { stripe } = await stripeSandbox();
    const { clock, sub } = await onClock(stripe);
    const item = sub.items.data[0];
    const half = Math.floor((item.current_period_start + item.current_period_end) / 2);
    await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: half });
    const upcoming = (await get(stripe, "/v1/invoices/upcoming", {
      subscription: sub.id,
      subscription_items: [{ id: item.id, quantity: 2 }],
      subscription_proration_date: half,
    })) as unknown as Upcoming;
    const preview = await stripe.invoices.createPreview({
      subscription: sub.id,
      subscription_details: { items: [{ id: item.id, quantity: 2 }], proration_date: half },
    });
    expect(upcoming.total).toBe(5000);
    expect(upcoming.total).toBe(preview.total);
    expect(upcoming.lines.data.map((l) => l.amount).sort((a, b) => a - b)).toEqual(
      preview.lines.data.map((l) => l.amount).sort((a, b) => a - b),
    );
    const pages = (await get(stripe, "/v1/invoices/upcoming/lines", {
      subscription: sub.id,
      subscription_items: [{ id: item.id, quantity: 2 }],
      subscription_proration_date: half,
      limit: 2,
    })) as unknown as { data: Stripe.InvoiceLineItem[]; has_more: boolean };
    expect(pages.data).toHaveLength(2);
    expect(pages.has_more).toBe(true);
  });

  it("previews the next invoice among the customer's subscriptions when no subscription is named", async () => {
    const { stripe } = await stripeSandbox();
    const { customer, sub } = await onClock(stripe);
    const item = sub.items.data[0];
    const upcoming = (await stripe.rawRequest("GET", `/v1/invoices/upcoming?customer=${customer.id}`)) as unknown as Upcoming;
    expect(upcoming).toMatchObject({ total: 2000, billing_reason: "upcoming", parent: { subscription_details: { subscription: sub.id } } });
    expect(upcoming.lines.data[0]).toMatchObject({ amount: 2000, period: { start: item.current_period_end } });
    const preview = await stripe.invoices.createPreview({ customer: customer.id });
    expect(preview).toMatchObject({ total: 2000, parent: { subscription_details: { subscription: sub.id } } });
  });

  it("refuses as Stripe does: no customer, an unknown customer, an unknown parameter", async () => {
    const { stripe } = await stripeSandbox();
    const missing = await stripeErrorOf(stripe.rawRequest("GET", "/v1/invoices/upcoming"));
    expect(missing).toMatchObject({ statusCode: 400, code: "parameter_missing", param: "customer" });
    const unknown = await stripeErrorOf(stripe.rawRequest("GET", "/v1/invoices/upcoming?customer=cus_nope"));
    expect(unknown).toMatchObject({ statusCode: 404, code: "resource_missing", param: "customer" });
    const odd = await stripeErrorOf(stripe.rawRequest("GET", "/v1/invoices/upcoming?customer=cus_carol&planet=mars"));
    expect(odd).toMatchObject({ statusCode: 400, code: "parameter_unknown", param: "planet" });
  });
});

// What fidelity.ts names in place of the unbuilt DELETE /v1/subscriptions/{id}/discount.
describe('a subscription\'s discounts are cleared with discounts: ""', () => {
  it("removes the coupon the subscription carried", async () => {
    const { stripe } = await stripeSandbox();
    await stripe.coupons.create({ id: "CLEARME", percent_off: 20, duration: "forever" });
    const { sub } = await onClock(stripe, { discounts: [{ coupon: "CLEARME" }] });
    expect(sub.discounts).toHaveLength(1);
    const cleared = await stripe.subscriptions.update(sub.id, { discounts: "" });
    expect(cleared.discounts).toEqual([]);
  });
});
