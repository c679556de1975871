// Subscription schedules through stripe-node, as Stripe's schedules guide uses them: phases of
// prices that the test clock advances, a schedule made from a subscription, cancel and release.
import type Stripe from "stripe";
import { describe, expect, it } from "vitest";
import { stripeErrorOf, stripeSandbox } from "./fixtures";

const DAY = 86400;
const START = 1_780_000_000;

async function clockCustomer(stripe: Stripe) {
  const clock = await stripe.testHelpers.testClocks.create({ frozen_time: START });
  const customer = await stripe.customers.create({ email: "sched@example.com", test_clock: clock.id });
  const pm = await stripe.paymentMethods.attach("pm_card_visa", { customer: customer.id });
  await stripe.customers.update(customer.id, { invoice_settings: { default_payment_method: pm.id } });
  return { clock, customer };
}

describe("a schedule of phases drives its subscription as the clock passes them", () => {
  it("starts now, moves to the next phase's price, then releases the subscription", async () => {
    const { stripe } = await stripeSandbox();
    const { clock, customer } = await clockCustomer(stripe);
    const premium = await stripe.prices.create({
      product: "prod_pro",
      currency: "usd",
      unit_amount: 5000,
      recurring: { interval: "month" },
    });
    const sched = await stripe.subscriptionSchedules.create({
      customer: customer.id,
      start_date: "now",
      end_behavior: "release",
      phases: [
        { items: [{ price: "price_pro_monthly", quantity: 1 }], duration: { interval: "month", interval_count: 1 } },
        { items: [{ price: premium.id, quantity: 1 }], duration: { interval: "month", interval_count: 1 } },
      ],
    });
    expect(sched).toMatchObject({ object: "subscription_schedule", status: "active", end_behavior: "release" });
    expect(sched.phases).toHaveLength(2);
    expect(sched.phases[0].start_date).toBe(START);
    const subId = String(sched.subscription);
    const sub = await stripe.subscriptions.retrieve(subId);
    expect(sub).toMatchObject({ status: "active", schedule: sched.id });
    expect(sub.items.data[0].price.id).toBe("price_pro_monthly");

    const boundary = sched.phases[0].end_date;
    await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: boundary + DAY });
    const moved = await stripe.subscriptionSchedules.retrieve(sched.id);
    expect(moved.current_phase).toEqual({ start_date: boundary, end_date: sched.phases[1].end_date });
    const during = await stripe.subscriptions.retrieve(subId);
    expect(during.items.data.map((i) => i.price.id)).toEqual([premium.id]);
    const [renewal] = (await stripe.invoices.list({ subscription: subId, limit: 1 })).data;
    expect(renewal).toMatchObject({ billing_reason: "subscription_cycle", amount_paid: 5000 });

    await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: sched.phases[1].end_date + DAY });
    const done = await stripe.subscriptionSchedules.retrieve(sched.id);
    expect(done).toMatchObject({ status: "released", released_subscription: subId });
    expect(await stripe.subscriptions.retrieve(subId)).toMatchObject({ status: "active", schedule: null });
    const events = await stripe.events.list({ type: "subscription_schedule.*" });
    expect(events.data.map((e) => e.type)).toEqual(["subscription_schedule.released", "subscription_schedule.created"]);
  });

  it("a schedule that starts later creates its subscription when the clock reaches it", async () => {
    const { stripe } = await stripeSandbox();
    const { clock, customer } = await clockCustomer(stripe);
    const sched = await stripe.subscriptionSchedules.create({
      customer: customer.id,
      start_date: START + 10 * DAY,
      phases: [{ items: [{ price: "price_pro_monthly" }], iterations: 2 } as Stripe.SubscriptionScheduleCreateParams.Phase],
    });
    expect(sched).toMatchObject({ status: "not_started", subscription: null });
    expect((await stripe.subscriptionSchedules.list({ customer: customer.id, scheduled: true })).data).toHaveLength(1);
    await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: START + 11 * DAY });
    const started = await stripe.subscriptionSchedules.retrieve(sched.id);
    expect(started.status).toBe("active");
    const sub = await stripe.subscriptions.retrieve(String(started.subscription));
    expect(sub).toMatchObject({ status: "active", start_date: START + 10 * DAY });
  });
});

describe("a schedule from a subscription, cancelled or released", () => {
  it("takes the subscription's items as its phase; release leaves it running, cancel ends it", async () => {
    const { stripe } = await stripeSandbox();
    const first = await stripe.subscriptionSchedules.create({ from_subscription: "sub_alice" });
    expect(first).toMatchObject({ status: "active", subscription: "sub_alice", customer: "cus_alice" });
    expect(first.phases[0].items[0]).toMatchObject({ price: "price_pro_monthly", quantity: 1 });
    const twice = await stripeErrorOf(stripe.subscriptionSchedules.create({ from_subscription: "sub_alice" }));
    expect(twice).toMatchObject({ statusCode: 400, param: "from_subscription" });
    const released = await stripe.subscriptionSchedules.release(first.id);
    expect(released).toMatchObject({ status: "released", released_subscription: "sub_alice" });
    expect((await stripe.subscriptions.retrieve("sub_alice")).status).toBe("active");

    const second = await stripe.subscriptionSchedules.create({ from_subscription: "sub_alice" });
    const canceled = await stripe.subscriptionSchedules.cancel(second.id);
    expect(canceled.status).toBe("canceled");
    expect((await stripe.subscriptions.retrieve("sub_alice")).status).toBe("canceled");
    const again = await stripeErrorOf(stripe.subscriptionSchedules.cancel(second.id));
    expect(again.statusCode).toBe(400);
  });
});
