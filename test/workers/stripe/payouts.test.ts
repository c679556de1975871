// Payouts: drawn from the available balance (Stripe's balance_insufficient otherwise), each with
// its balance transaction; pending until their arrival date, then paid as the sandbox clock
// passes it; cancel gives a pending payout's money back; a paid one can be reversed.
import { describe, expect, it } from "vitest";
import type Stripe from "stripe";
import { stripeTwin } from "../../../durable-objects/twins/stripe";
import type { StripeSeed } from "../../../durable-objects/twins/stripe/seed";
import { inTwinWorld, type World } from "../kit/world";
import { stripeErrorOf, stripeSandbox, fund, usdAvailable } from "./fixtures";

const form = (body: string) => ({ rawBody: body, headers: { "content-type": "application/x-www-form-urlencoded" } });
describe("a payout draws the available balance", () => {
  it("refuses a payout larger than the available balance with balance_insufficient, changing nothing", async () => {
    const { stripe } = await stripeSandbox();
    const before = await stripe.balance.retrieve();
    const err = await stripeErrorOf(stripe.payouts.create({ amount: usdAvailable(before) + 1, currency: "usd" }));
    expect(err).toMatchObject({ statusCode: 400, type: "StripeInvalidRequestError", code: "balance_insufficient" });
    expect(await stripe.balance.retrieve()).toEqual(before);
    expect((await stripe.payouts.list()).data).toHaveLength(0);
  });

  it("pays out funds the bypass-pending card made available, with a payout balance transaction and payout.created", async () => {
    const { stripe } = await stripeSandbox();
    await fund(stripe, 20_000);
    const before = usdAvailable(await stripe.balance.retrieve());
    const payout = await stripe.payouts.create({
      amount: 15_000,
      currency: "usd",
      metadata: { batch: "w1" },
      expand: ["balance_transaction"],
    });
    expect(payout).toMatchObject({ object: "payout", amount: 15_000, status: "pending", method: "standard", type: "bank_account" });
    expect(payout.arrival_date).toBeGreaterThan(payout.created);
    expect(payout.balance_transaction).toMatchObject({ type: "payout", amount: -15_000, net: -15_000, source: payout.id });
    expect(usdAvailable(await stripe.balance.retrieve())).toBe(before - 15_000);
    expect((await stripe.payouts.list({ status: "pending" })).data.map((p) => p.id)).toEqual([payout.id]);
    expect((await stripe.events.list({ type: "payout.*" })).data.map((e) => e.type)).toEqual(["payout.created"]);
    const updated = await stripe.payouts.update(payout.id, { metadata: { batch: "w2" } });
    expect(updated.metadata).toEqual({ batch: "w2" });
  });

  it("cancels a pending payout, returning its amount; a second cancel is refused", async () => {
    const { stripe } = await stripeSandbox();
    await fund(stripe, 5000);
    const before = usdAvailable(await stripe.balance.retrieve());
    const payout = await stripe.payouts.create({ amount: 3000, currency: "usd" });
    const canceled = await stripe.payouts.cancel(payout.id);
    expect(canceled.status).toBe("canceled");
    expect(usdAvailable(await stripe.balance.retrieve())).toBe(before);
    const again = await stripeErrorOf(stripe.payouts.cancel(payout.id));
    expect(again.statusCode).toBe(400);
    const missing = await stripeErrorOf(stripe.payouts.retrieve("po_missing"));
    expect(missing).toMatchObject({ statusCode: 404, code: "resource_missing" });
  });

  it("refuses a payout without an amount as Stripe does", async () => {
    const { stripe } = await stripeSandbox();
    const err = await stripeErrorOf(stripe.payouts.create({ currency: "usd" } as Stripe.PayoutCreateParams));
    expect(err).toMatchObject({ code: "parameter_missing", param: "amount" });
  });
});

describe("a payout is paid on its arrival date, and a paid one can be reversed", () => {
  const START = Date.UTC(2027, 4, 3, 10) / 1000;

  function call(w: World<StripeSeed>, method: string, path: string, body?: string) {
    const res = body === undefined ? w.call(method, path) : w.call(method, path, form(body));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as Record<string, unknown>;
  }

  it("moves pending to paid when the clock passes arrival_date, emitting payout.paid; reverse returns the money", async () => {
    let now = START * 1000;
    await inTwinWorld(
      stripeTwin,
      {},
      (w) => {
        call(
          w,
          "POST",
          "/v1/payment_intents",
          "amount=9000&currency=usd&payment_method=pm_card_bypassPending&allowed_payment_method_types[0]=card&confirm=true",
        );
        const payout = call(w, "POST", "/v1/payouts", "amount=4000&currency=usd");
        expect(payout.arrival_date).toBe(Date.UTC(2027, 4, 4) / 1000);
        now = (payout.arrival_date as number) * 1000;
        const paid = call(w, "GET", `/v1/payouts/${String(payout.id)}`);
        expect(paid.status).toBe("paid");
        const events = call(w, "GET", "/v1/events", undefined) as { data: { type: string }[] };
        expect(events.data.map((e) => e.type)).toContain("payout.paid");
        const cancel = w.call("POST", `/v1/payouts/${String(payout.id)}/cancel`, form(""));
        expect(cancel.status).toBe(400);
        const balanceBefore = call(w, "GET", "/v1/balance") as { available: { amount: number }[] };
        const reversal = call(w, "POST", `/v1/payouts/${String(payout.id)}/reverse`, "");
        expect(reversal).toMatchObject({ original_payout: payout.id, amount: 4000, status: "pending" });
        expect(call(w, "GET", `/v1/payouts/${String(payout.id)}`).reversed_by).toBe(reversal.id);
        const balanceAfter = call(w, "GET", "/v1/balance") as { available: { amount: number }[] };
        expect(balanceAfter.available[0].amount).toBe(balanceBefore.available[0].amount + 4000);
      },
      { now: () => now },
    );
  });
});
