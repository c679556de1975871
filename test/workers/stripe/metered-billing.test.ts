// Usage-based billing as Stripe's guide builds it (docs.stripe.com/billing/subscriptions/
// usage-based): a metered price bound to a billing meter, usage reported as meter events, the
// running usage on the preview invoice and the period's usage billed, in arrears, on the invoice
// made at the period's end (a test clock advanced past it).
import type Stripe from "stripe";
import { describe, expect, it } from "vitest";
import { stripeErrorOf, stripeSandbox } from "./fixtures";

const DAY = 86400;

/** A customer with a card on a test clock frozen now, subscribed to a metered price at 5 cents a unit. */
async function meteredSubscription(stripe: Stripe, formula: "sum" | "count" | "last") {
  const now = Math.floor(Date.now() / 1000);
  const meter = await stripe.billing.meters.create({ display_name: "Tokens", event_name: "tokens", default_aggregation: { formula } });
  const product = await stripe.products.create({ name: "Tokens" });
  const price = await stripe.prices.create({
    product: product.id,
    currency: "usd",
    unit_amount: 5,
    recurring: { interval: "month", usage_type: "metered", meter: meter.id },
  });
  const clock = await stripe.testHelpers.testClocks.create({ frozen_time: now });
  const customer = await stripe.customers.create({ email: "usage@example.com", test_clock: clock.id });
  const pm = await stripe.paymentMethods.attach("pm_card_visa", { customer: customer.id });
  await stripe.customers.update(customer.id, { invoice_settings: { default_payment_method: pm.id } });
  const sub = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }], expand: ["latest_invoice"] });
  const report = (value: string, timestamp = now) =>
    stripe.billing.meterEvents.create({ event_name: "tokens", payload: { stripe_customer_id: customer.id, value }, timestamp });
  return { now, meter, price, clock, customer, sub, report };
}

const meteredLine = (inv: Stripe.Invoice, price: string) => inv.lines.data.find((l) => l.pricing?.price_details?.price === price);

describe("a metered price bills its meter's usage in arrears", () => {
  it("bills nothing at first, shows the running usage on the preview, and bills the period's sum at its end", async () => {
    const { stripe } = await stripeSandbox();
    const { now, price, clock, sub, report } = await meteredSubscription(stripe, "sum");
    expect(price.recurring).toMatchObject({ usage_type: "metered", meter: expect.stringMatching(/^mtr_/) });
    expect(sub.items.data[0].quantity).toBeUndefined();
    const first = sub.latest_invoice as Stripe.Invoice;
    expect(first).toMatchObject({ billing_reason: "subscription_create", amount_due: 0, status: "paid" });
    expect(meteredLine(first, price.id)).toMatchObject({ quantity: 0, amount: 0 });

    await report("120");
    await report("30", now + 60);
    await stripe.billing.meterEvents.create({ event_name: "tokens", payload: { stripe_customer_id: "cus_someone_else", value: "999" } });
    const preview = await stripe.invoices.createPreview({ subscription: sub.id });
    const item = sub.items.data[0];
    expect(meteredLine(preview, price.id)).toMatchObject({
      quantity: 150,
      amount: 750,
      period: { start: item.current_period_start, end: item.current_period_end },
    });

    await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: item.current_period_end + DAY });
    const [renewal] = (await stripe.invoices.list({ subscription: sub.id, limit: 1 })).data;
    expect(renewal).toMatchObject({ billing_reason: "subscription_cycle", status: "paid", amount_paid: 750 });
    expect(meteredLine(renewal, price.id)).toMatchObject({
      quantity: 150,
      amount: 750,
      period: { start: item.current_period_start, end: item.current_period_end },
    });
  });

  it("dates a test-clock customer's usage on its clock, so usage is reported for the period the clock moved into", async () => {
    const { stripe } = await stripeSandbox();
    const { now, price, clock, sub, report } = await meteredSubscription(stripe, "sum");
    const item = sub.items.data[0];
    const later = item.current_period_end + DAY;
    await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: later });
    // The clock's moment is weeks past the wall clock, yet within the meter's window for this customer.
    const event = await report("9", later);
    expect(event.timestamp).toBe(later);
    // Five days before the wall clock is more than 35 days before the customer's clock.
    expect(await stripeErrorOf(report("1", now - 5 * DAY))).toMatchObject({ statusCode: 400, param: "timestamp" });
    const current = await stripe.subscriptions.retrieve(sub.id);
    const preview = await stripe.invoices.createPreview({ subscription: sub.id });
    expect(meteredLine(preview, price.id)).toMatchObject({
      quantity: 9,
      amount: 45,
      period: { start: current.items.data[0].current_period_start },
    });
  });

  it("bills the meter's last value for a last meter", async () => {
    const { stripe } = await stripeSandbox();
    const { now, price, clock, sub, report } = await meteredSubscription(stripe, "last");
    await report("40");
    await report("7", now + 120);
    const item = sub.items.data[0];
    await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: item.current_period_end + DAY });
    const [renewal] = (await stripe.invoices.list({ subscription: sub.id, limit: 1 })).data;
    expect(meteredLine(renewal, price.id)).toMatchObject({ quantity: 7, amount: 35 });
  });

  it("refuses a quantity on a metered item, and a meter that does not exist", async () => {
    const { stripe } = await stripeSandbox();
    const { price, customer } = await meteredSubscription(stripe, "count");
    const quantity = await stripeErrorOf(stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id, quantity: 3 }] }));
    expect(quantity).toMatchObject({ statusCode: 400, param: "items[0][quantity]" });
    const noMeter = await stripeErrorOf(
      stripe.prices.create({
        product: String(price.product),
        currency: "usd",
        unit_amount: 5,
        recurring: { interval: "month", usage_type: "metered", meter: "mtr_missing" },
      }),
    );
    expect(noMeter).toMatchObject({ statusCode: 404, code: "resource_missing", param: "recurring[meter]" });
  });

  it("refuses a metered price without a meter, as Stripe has since 2025-03-31.basil, and creates nothing", async () => {
    const { stripe } = await stripeSandbox();
    const product = await stripe.products.create({ name: "API calls" });
    const legacy = await stripeErrorOf(
      stripe.prices.create({
        product: product.id,
        currency: "usd",
        unit_amount: 5,
        recurring: { interval: "month", usage_type: "metered" },
      }),
    );
    expect(legacy).toMatchObject({
      statusCode: 400,
      type: "StripeInvalidRequestError",
      code: "parameter_missing",
      param: "recurring[meter]",
    });
    expect((await stripe.prices.list({ product: product.id })).data).toHaveLength(0);
  });
});
