// A subscription's items written on their own endpoints, as Stripe's reference offers them beside
// a subscription update (docs.stripe.com/api/subscription_items): add a price as a new item,
// change an item's quantity with its prorations, delete an item but never the last one.
import type Stripe from "stripe";
import { describe, expect, it } from "vitest";
import { stripeErrorOf, stripeSandbox } from "./fixtures";

const START = 1_780_000_000;

/** A customer with a card on a test clock, subscribed to the $20/month price, and a $5/month add-on price. */
async function subscribed(stripe: Stripe) {
  const clock = await stripe.testHelpers.testClocks.create({ frozen_time: START });
  const customer = await stripe.customers.create({ email: "items@example.com", test_clock: clock.id });
  const pm = await stripe.paymentMethods.attach("pm_card_visa", { customer: customer.id });
  await stripe.customers.update(customer.id, { invoice_settings: { default_payment_method: pm.id } });
  const sub = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: "price_pro_monthly" }] });
  const product = await stripe.products.create({ name: "Extra seats" });
  const addOn = await stripe.prices.create({ product: product.id, currency: "usd", unit_amount: 500, recurring: { interval: "month" } });
  return { clock, customer, sub, addOn };
}

describe("subscription items are written on their own endpoints", () => {
  it("adds a price as an item, changes its quantity, and deletes it, each reflected on the subscription", async () => {
    const { stripe } = await stripeSandbox();
    const { sub, addOn } = await subscribed(stripe);
    const added = await stripe.subscriptionItems.create({ subscription: sub.id, price: addOn.id, quantity: 2, proration_behavior: "none" });
    expect(added).toMatchObject({ object: "subscription_item", subscription: sub.id, quantity: 2, price: { id: addOn.id } });
    expect(added.id).toMatch(/^si_/);
    const listed = await stripe.subscriptionItems.list({ subscription: sub.id });
    expect(listed.data.map((i) => i.id)).toContain(added.id);

    const changed = await stripe.subscriptionItems.update(added.id, { quantity: 5, metadata: { seats: "5" }, proration_behavior: "none" });
    expect(changed).toMatchObject({ id: added.id, quantity: 5, metadata: { seats: "5" } });
    expect((await stripe.subscriptionItems.retrieve(added.id)).quantity).toBe(5);

    expect(await stripe.subscriptionItems.del(added.id, { proration_behavior: "none" })).toEqual({
      id: added.id,
      object: "subscription_item",
      deleted: true,
    });
    const after = await stripe.subscriptions.retrieve(sub.id);
    expect(after.items.data.map((i) => i.id)).toEqual([sub.items.data[0].id]);
    const updates = (await stripe.events.list({ type: "customer.subscription.updated" })).data;
    expect(updates.length).toBeGreaterThanOrEqual(3);
  });

  it("prorates an added item by default, as a subscription update would", async () => {
    const { stripe } = await stripeSandbox();
    const { clock, sub, addOn } = await subscribed(stripe);
    const item = sub.items.data[0];
    const half = Math.floor((item.current_period_start + item.current_period_end) / 2);
    await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: half });
    await stripe.subscriptionItems.create({ subscription: sub.id, price: addOn.id, proration_date: half });
    const pending = await stripe.invoiceItems.list({ pending: true });
    expect(pending.data.map((i) => [i.proration, i.amount])).toEqual([[true, 250]]);
  });

  it("refuses the last item, an unknown item or subscription, and changes nothing", async () => {
    const { stripe } = await stripeSandbox();
    const { sub } = await subscribed(stripe);
    const only = sub.items.data[0].id;
    const last = await stripeErrorOf(stripe.subscriptionItems.del(only));
    expect(last).toMatchObject({ statusCode: 400, type: "StripeInvalidRequestError" });
    expect((await stripe.subscriptions.retrieve(sub.id)).items.data.map((i) => i.id)).toEqual([only]);
    const missing = await stripeErrorOf(stripe.subscriptionItems.update("si_missing", { quantity: 2 }));
    expect(missing).toMatchObject({ statusCode: 404, code: "resource_missing", param: "id" });
    const noSub = await stripeErrorOf(stripe.subscriptionItems.create({ subscription: "sub_missing", price: "price_pro_monthly" }));
    expect(noSub).toMatchObject({ statusCode: 404, code: "resource_missing", param: "subscription" });
    const noPrice = await stripeErrorOf(stripe.subscriptionItems.create({ subscription: sub.id }));
    expect(noPrice).toMatchObject({ statusCode: 400, code: "parameter_missing", param: "price" });
  });
});
