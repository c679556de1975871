import { describe, expect, it } from "vitest";
import type Stripe from "stripe";
import { stripeErrorOf, stripeSandbox } from "./fixtures";

const DAY = 86400;

describe("products, prices and coupons", () => {
  it("creates a product with one-off and recurring prices and a coupon", async () => {
    const { stripe } = await stripeSandbox();
    const product = await stripe.products.create({ name: "Team plan", metadata: { tier: "team" } });
    expect(product).toMatchObject({ object: "product", active: true, name: "Team plan" });
    const oneOff = await stripe.prices.create({ product: product.id, currency: "usd", unit_amount: 4900 });
    expect(oneOff).toMatchObject({ type: "one_time", recurring: null });
    expect(String(oneOff.unit_amount_decimal)).toBe("4900");
    const yearly = await stripe.prices.create({
      product: product.id,
      currency: "usd",
      unit_amount: 49000,
      recurring: { interval: "year" },
    });
    expect(yearly).toMatchObject({ type: "recurring", recurring: { interval: "year", interval_count: 1, usage_type: "licensed" } });
    const prices = await stripe.prices.list({ product: product.id, type: "recurring" });
    expect(prices.data.map((p) => p.id)).toEqual([yearly.id]);
    const coupon = await stripe.coupons.create({ id: "SPRING25", percent_off: 25, duration: "once" });
    expect(coupon).toMatchObject({ id: "SPRING25", object: "coupon", valid: true });
    const noProduct = await stripeErrorOf(stripe.prices.create({ product: "prod_ghost", currency: "usd", unit_amount: 100 }));
    expect(noProduct).toMatchObject({ statusCode: 404, param: "product" });
    const updated = await stripe.products.update(product.id, { active: false });
    expect(updated.active).toBe(false);
    expect((await stripe.products.list({ active: false })).data.map((p) => p.id)).toEqual([product.id]);
  });
});

describe("subscriptions", () => {
  it("creates an active subscription whose first invoice is paid by the customer's card", async () => {
    const { stripe } = await stripeSandbox();
    const sub = await stripe.subscriptions.create({
      customer: "cus_bob",
      items: [{ price: "price_pro_monthly", quantity: 2 }],
      expand: ["latest_invoice"],
    });
    expect(sub.status).toBe("active");
    const item = sub.items.data[0];
    expect(item.price).toMatchObject({ id: "price_pro_monthly", object: "price" });
    expect(item.current_period_end - item.current_period_start).toBeGreaterThanOrEqual(28 * DAY);
    expect(sub).not.toHaveProperty("current_period_end");
    const invoice = sub.latest_invoice as Stripe.Invoice;
    expect(invoice).toMatchObject({
      status: "paid",
      amount_due: 4000,
      amount_paid: 4000,
      billing_reason: "subscription_create",
      parent: { subscription_details: { subscription: sub.id } },
    });
    expect(invoice).not.toHaveProperty("subscription");
    expect(invoice.lines.data[0]).toMatchObject({ amount: 4000, quantity: 2, pricing: { price_details: { price: "price_pro_monthly" } } });
    const charges = await stripe.charges.list({ customer: "cus_bob", limit: 1 });
    expect(charges.data[0]).toMatchObject({ amount: 4000, status: "succeeded" });
    // Basil-era invoices reach their PaymentIntent through invoice payments.
    const withPayments = await stripe.invoices.retrieve(invoice.id, { expand: ["payments.data.payment.payment_intent"] });
    const payment = withPayments.payments?.data[0];
    expect(payment).toMatchObject({ object: "invoice_payment", status: "paid", amount_paid: 4000, invoice: invoice.id });
    expect(payment?.payment.payment_intent).toMatchObject({
      object: "payment_intent",
      status: "succeeded",
      latest_charge: charges.data[0].id,
    });
    const listed = await stripe.invoicePayments.list({ invoice: invoice.id });
    expect(listed.data.map((p) => p.id)).toEqual([String(payment?.id)]);
    expect((await stripe.invoices.retrieve(invoice.id)).payments).toBeUndefined();
  });

  it("refuses a customer without a card, a one-off price and a missing price", async () => {
    const { stripe } = await stripeSandbox();
    const bare = await stripe.customers.create({ email: "nocard@example.com" });
    const noCard = await stripeErrorOf(stripe.subscriptions.create({ customer: bare.id, items: [{ price: "price_pro_monthly" }] }));
    expect(noCard.statusCode).toBe(400);
    expect(noCard.message).toMatch(/no attached payment source or default payment method/);
    const oneOff = await stripe.prices.create({ product: "prod_pro", currency: "usd", unit_amount: 100 });
    const notRecurring = await stripeErrorOf(stripe.subscriptions.create({ customer: "cus_bob", items: [{ price: oneOff.id }] }));
    expect(notRecurring).toMatchObject({ param: "items[0][price]" });
    const ghost = await stripeErrorOf(stripe.subscriptions.create({ customer: "cus_bob", items: [{ price: "price_ghost" }] }));
    expect(ghost).toMatchObject({ statusCode: 404, param: "items[0][price]", message: "No such price: 'price_ghost'" });
    expect((await stripe.subscriptions.list({ customer: bare.id })).data).toHaveLength(0);
  });

  it("updates quantity and cancel_at_period_end, cancels, and refuses to resume an active one", async () => {
    const { stripe } = await stripeSandbox();
    const sub = await stripe.subscriptions.retrieve("sub_alice");
    const updated = await stripe.subscriptions.update(sub.id, {
      items: [{ id: sub.items.data[0].id, quantity: 3 }],
      cancel_at_period_end: true,
      metadata: { seats: "3" },
    });
    expect(updated.items.data[0].quantity).toBe(3);
    expect(updated.cancel_at_period_end).toBe(true);
    const resume = await stripeErrorOf(stripe.subscriptions.resume(sub.id));
    expect(resume.statusCode).toBe(400);
    const canceled = await stripe.subscriptions.cancel(sub.id);
    expect(canceled).toMatchObject({ status: "canceled", cancellation_details: { reason: "cancellation_requested" } });
    expect((await stripe.subscriptions.list({ status: "canceled" })).data.map((s) => s.id)).toEqual(["sub_alice"]);
    const events = await stripe.events.list({ type: "customer.subscription.deleted" });
    expect(events.data[0].data.object).toMatchObject({ id: "sub_alice", status: "canceled" });
  });

  it("resumes a paused subscription", async () => {
    const { stripe } = await stripeSandbox({
      customers: [{ id: "cus_p", email: "p@example.com", invoice_settings: { default_payment_method: "pm_p" } }],
      payment_methods: [{ id: "pm_p", type: "card", customer: "cus_p", card: { brand: "visa", last4: "4242" } }],
      products: [{ id: "prod_x", name: "X" }],
      prices: [{ id: "price_x", product: "prod_x", currency: "usd", unit_amount: 1000, recurring: { interval: "month" } }],
      subscriptions: [{ id: "sub_p", customer: "cus_p", status: "paused", items: [{ price: "price_x" }] }],
    });
    const resumed = await stripe.subscriptions.resume("sub_p");
    expect(resumed.status).toBe("active");
    const invoices = await stripe.invoices.list({ subscription: "sub_p" });
    expect(invoices.data[0]).toMatchObject({ status: "paid", amount_paid: 1000 });
  });

  it("applies a coupon to the first invoice", async () => {
    const { stripe } = await stripeSandbox();
    await stripe.coupons.create({ id: "HALF", percent_off: 50, duration: "once" });
    const sub = await stripe.subscriptions.create({
      customer: "cus_carol",
      items: [{ price: "price_pro_monthly" }],
      discounts: [{ coupon: "HALF" }],
      expand: ["latest_invoice"],
    });
    expect(sub.latest_invoice as Stripe.Invoice).toMatchObject({ subtotal: 2000, total: 1000, amount_paid: 1000 });
  });
});

describe("test clocks", () => {
  it("advance a subscription through two renewals, each invoiced and paid", async () => {
    const { stripe } = await stripeSandbox();
    const start = 1_780_000_000;
    const clock = await stripe.testHelpers.testClocks.create({ frozen_time: start, name: "renewals" });
    expect(clock).toMatchObject({ object: "test_helpers.test_clock", status: "ready", frozen_time: start });
    const c = await stripe.customers.create({ email: "clock@example.com", test_clock: clock.id });
    expect(c.created).toBe(start);
    // `pm_card_visa` becomes a new PaymentMethod on attach; it is then made the default.
    const pm = await stripe.paymentMethods.attach("pm_card_visa", { customer: c.id });
    await stripe.customers.update(c.id, { invoice_settings: { default_payment_method: pm.id } });
    const sub = await stripe.subscriptions.create({ customer: c.id, items: [{ price: "price_pro_monthly" }] });
    expect(sub.created).toBe(start);
    const firstEnd = sub.items.data[0].current_period_end;
    // Two steps: Stripe advances a clock at most two billing intervals (here two months) per call.
    await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: start + 35 * DAY });
    const advanced = await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: start + 65 * DAY });
    expect(advanced.frozen_time).toBe(start + 65 * DAY);
    const renewed = await stripe.subscriptions.retrieve(sub.id);
    expect(renewed.status).toBe("active");
    expect(renewed.items.data[0].current_period_start).toBeGreaterThan(firstEnd);
    const invoices = await stripe.invoices.list({ subscription: sub.id });
    expect(invoices.data.map((i) => [i.billing_reason, i.status, i.amount_paid])).toEqual([
      ["subscription_cycle", "paid", 2000],
      ["subscription_cycle", "paid", 2000],
      ["subscription_create", "paid", 2000],
    ]);
    expect(invoices.data[1].created).toBe(firstEnd);
    const tooEarly = await stripeErrorOf(stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: start }));
    expect(tooEarly.statusCode).toBe(400);
  });

  it("ends a subscription set to cancel at period end when the clock passes it", async () => {
    const { stripe } = await stripeSandbox();
    const clock = await stripe.testHelpers.testClocks.create({ frozen_time: 1_780_000_000 });
    const c = await stripe.customers.create({ test_clock: clock.id });
    const pm = await stripe.paymentMethods.attach("pm_card_visa", { customer: c.id });
    const sub = await stripe.subscriptions.create({
      customer: c.id,
      default_payment_method: pm.id,
      items: [{ price: "price_pro_monthly" }],
      cancel_at_period_end: true,
    });
    await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: 1_780_000_000 + 40 * DAY });
    expect((await stripe.subscriptions.retrieve(sub.id)).status).toBe("canceled");
  });
});

describe("invoices", () => {
  it("creates a draft, adds lines, finalizes and pays it; voids another", async () => {
    const { stripe } = await stripeSandbox();
    const draft = await stripe.invoices.create({ customer: "cus_carol", description: "Consulting" });
    expect(draft).toMatchObject({ status: "draft", total: 0, customer: "cus_carol", customer_email: "carol@example.com" });
    const withLines = await stripe.invoices.addLines(draft.id, {
      lines: [
        { amount: 12000, description: "Setup" },
        { pricing: { price: "price_pro_monthly" }, quantity: 1 },
      ],
    });
    expect(withLines).toMatchObject({ subtotal: 14000, total: 14000, amount_due: 14000 });
    const open = await stripe.invoices.finalizeInvoice(draft.id);
    expect(open.status).toBe("open");
    expect(open.number).toMatch(/-0001$/);
    const paid = await stripe.invoices.pay(draft.id);
    expect(paid).toMatchObject({ status: "paid", amount_paid: 14000, amount_remaining: 0 });
    const again = await stripeErrorOf(stripe.invoices.pay(draft.id));
    expect(again.statusCode).toBe(400);
    const other = await stripe.invoices.create({ customer: "cus_carol" });
    await stripe.invoices.addLines(other.id, { lines: [{ amount: 500 }] });
    await stripe.invoices.finalizeInvoice(other.id);
    const voided = await stripe.invoices.voidInvoice(other.id);
    expect(voided.status).toBe("void");
    const lines = await stripe.invoices.listLineItems(draft.id);
    expect(lines.data).toHaveLength(2);
    expect((await stripe.invoices.list({ customer: "cus_carol", status: "paid" })).data.map((i) => i.id)).toEqual([draft.id]);
    const found = await stripe.invoices.search({ query: "total>10000" });
    expect(found.data.map((i) => i.id)).toEqual([draft.id]);
  });
});
