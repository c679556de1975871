// Balance transactions on Stripe's test-card schedule: a card payment's funds wait in `pending`
// until their `available_on` (the payment's UTC day plus the payout schedule's delay_days), then
// the balance moves them to `available` as the sandbox clock passes that day; refunds draw on
// `available` at once; the bypass-pending test card skips `pending`; a payment made on a test
// clock matures as that clock advances.
import { describe, expect, it } from "vitest";
import { stripeTwin } from "../../../durable-objects/twins/stripe";
import { inTwinWorld, type World } from "../kit/world";
import type { StripeSeed } from "../../../durable-objects/twins/stripe/seed";
import { stripeSandbox } from "./fixtures";

const form = (body: string) => ({ rawBody: body, headers: { "content-type": "application/x-www-form-urlencoded" } });
const DAY = 86400;

interface Slot {
  amount: number;
  currency: string;
}
type Balance = { available: Slot[]; pending: Slot[] };

const usd = (slots: Slot[]) => slots.find((s) => s.currency === "usd")?.amount ?? 0;

function pay(w: World<StripeSeed>, pm: string, amount = 10_000): { txn: Record<string, unknown> } {
  const pi = w.call(
    "POST",
    "/v1/payment_intents",
    form(
      `amount=${amount}&currency=usd&payment_method=${pm}&allowed_payment_method_types[0]=card&confirm=true&expand[0]=latest_charge.balance_transaction`,
    ),
  );
  expect(pi.status).toBe(200);
  const charge = (pi.body as { latest_charge: { balance_transaction: Record<string, unknown> } }).latest_charge;
  return { txn: charge.balance_transaction };
}

/** A world whose clock the test moves: starts at 2027-03-10 15:00 UTC. */
function clockAt(start: number) {
  let now = start * 1000;
  return { now: () => now, advance: (seconds: number) => (now += seconds * 1000) };
}
const START = Date.UTC(2027, 2, 10, 15, 0, 0) / 1000;
const DAY_START = Date.UTC(2027, 2, 10) / 1000;

describe("a card payment is pending until its available_on, then available", () => {
  it("dates available_on to the payment's UTC day plus two days and moves the funds as the clock passes it", async () => {
    const clock = clockAt(START);
    await inTwinWorld(
      stripeTwin,
      {},
      (w) => {
        const before = w.call("GET", "/v1/balance").body as Balance;
        const { txn } = pay(w, "pm_card_visa");
        const net = 10_000 - (290 + 30);
        expect(txn).toMatchObject({ status: "pending", available_on: DAY_START + 2 * DAY, net });
        const now = w.call("GET", "/v1/balance").body as Balance;
        expect(usd(now.pending)).toBe(usd(before.pending) + net);
        expect(usd(now.available)).toBe(usd(before.available));

        clock.advance(DAY_START + 2 * DAY - START - 1);
        expect(usd((w.call("GET", "/v1/balance").body as Balance).pending)).toBe(usd(before.pending) + net);

        clock.advance(1);
        const later = w.call("GET", "/v1/balance").body as Balance;
        expect(usd(later.pending)).toBe(usd(before.pending));
        expect(usd(later.available)).toBe(usd(before.available) + net);
        const stored = w.call("GET", `/v1/balance_transactions/${String(txn.id)}`).body;
        expect(stored).toMatchObject({ status: "available" });
      },
      { now: clock.now },
    );
  });

  it("waits the seeded platform account's payout delay_days instead", async () => {
    const clock = clockAt(START);
    const seed = { account: { settings: { payouts: { schedule: { delay_days: 7, interval: "daily" } } } } };
    await inTwinWorld(stripeTwin, seed, (w) => expect(pay(w, "pm_card_visa").txn.available_on).toBe(DAY_START + 7 * DAY), {
      now: clock.now,
    });
  });

  it("makes the bypass-pending test card's funds available at once, and refunds draw on available", async () => {
    const clock = clockAt(START);
    await inTwinWorld(
      stripeTwin,
      {},
      (w) => {
        const before = w.call("GET", "/v1/balance").body as Balance;
        const { txn } = pay(w, "pm_card_bypassPending", 5000);
        expect(txn).toMatchObject({ status: "available", available_on: START });
        const after = w.call("GET", "/v1/balance").body as Balance;
        expect(usd(after.available)).toBe(usd(before.available) + 5000 - 175);
        expect(usd(after.pending)).toBe(usd(before.pending));
      },
      { now: clock.now },
    );
  });

  it("exports pending funds as pending, and the export seeds a new sandbox", async () => {
    const clock = clockAt(START);
    const exported = await inTwinWorld(
      stripeTwin,
      {},
      (w) => {
        pay(w, "pm_card_visa");
        return w.exportState();
      },
      { now: clock.now },
    );
    expect(exported.balance_transactions.some((t) => t.status === "pending")).toBe(true);
    await inTwinWorld(stripeTwin, exported, (w) => expect(w.exportState().balance).toEqual(exported.balance), { now: clock.now });
  });
});

describe("a payment made on a test clock matures as the clock advances", () => {
  it("moves a test-clock customer's payment to available when its clock passes available_on", async () => {
    const { stripe } = await stripeSandbox();
    const now = Math.floor(Date.now() / 1000);
    const testClock = await stripe.testHelpers.testClocks.create({ frozen_time: now });
    const customer = await stripe.customers.create({ test_clock: testClock.id, payment_method: "pm_card_visa" });
    const pm = (await stripe.customers.listPaymentMethods(customer.id)).data[0];
    const before = await stripe.balance.retrieve();
    const pi = await stripe.paymentIntents.create({
      amount: 4000,
      currency: "usd",
      customer: customer.id,
      payment_method: pm.id,
      allowed_payment_method_types: ["card"],
      confirm: true,
      expand: ["latest_charge.balance_transaction"],
    });
    const txn = (pi.latest_charge as { balance_transaction: { status: string; available_on: number; net: number } }).balance_transaction;
    expect(txn.status).toBe("pending");
    const pendingBefore = (await stripe.balance.retrieve()).pending[0].amount;
    expect(pendingBefore).toBe(before.pending[0].amount + txn.net);
    await stripe.testHelpers.testClocks.advance(testClock.id, { frozen_time: txn.available_on });
    const after = await stripe.balance.retrieve();
    expect(after.pending[0].amount).toBe(before.pending[0].amount);
    expect(after.available[0].amount).toBe(before.available[0].amount + txn.net);
  });
});
