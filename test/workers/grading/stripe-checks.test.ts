// The Stripe vocabulary: each check passes, fails, and skips where it says it can, over the
// default world's normalized seed (the shape the export has) and hand-made tape rows.
import { describe, expect, it } from "vitest";
import { stripeChecks } from "../../../durable-objects/twins/stripe/checks";
import { defaultStripeSeed, type StripeSeed } from "../../../durable-objects/twins/stripe/seed";
import type { CheckOutcome, TapeRow } from "../../../durable-objects/twins/types";

type State = StripeSeed;

function run(id: string, args: Record<string, string>, final: unknown, opts: { initial?: unknown; tape?: TapeRow[] } = {}): CheckOutcome {
  const check = stripeChecks.find((c) => c.id === `stripe.${id}`);
  if (!check) throw new Error(`no check ${id}`);
  // Checks read states defensively: a partial state (an uploaded blob) is what some tests give.
  return check.evaluate({ args, final: final as State, initial: opts.initial as State | undefined, tape: opts.tape ?? [] });
}

const world = (): State => structuredClone(defaultStripeSeed());
const without = (state: State, key: keyof State) => {
  const copy: Record<string, unknown> = { ...state };
  delete copy[key];
  return copy;
};

function tapeRow(over: Partial<TapeRow>): TapeRow {
  return {
    seq: 1,
    at: "2026-12-01T00:00:00Z",
    twin: "stripe",
    transport: "rest",
    method: "POST",
    path: "/v1/refunds",
    query: "",
    request_headers: {},
    request_body: "",
    status: 200,
    response_body: {},
    mutated: true,
    fidelity: "supported",
    operation: "refunds.create",
    ...over,
  };
}

describe("stripe refund checks", () => {
  it("refund-exists passes on the seeded partial refund, fails on another amount, skips without refunds", () => {
    expect(run("refund-exists", { amount: "500", charge: "ch_alice_order" }, world())).toMatchObject({ status: "passed" });
    expect(run("refund-exists", { amount: "700", charge: "ch_alice_order" }, world())).toEqual({
      status: "failed",
      reason: "charge ch_alice_order has refunds of 500, none of 700",
    });
    expect(run("refund-exists", { amount: "500", charge: "ch_bob_order" }, world())).toEqual({
      status: "failed",
      reason: "charge ch_bob_order has no refund",
    });
    expect(run("refund-exists", { amount: "500", charge: "ch_alice_order" }, without(world(), "refunds"))).toMatchObject({
      status: "skipped",
      reason: "field_absent",
    });
  });
  it("no-refund passes on an unrefunded charge, fails on a refunded one, skips without refunds", () => {
    expect(run("no-refund", { charge: "ch_bob_order" }, world()).status).toBe("passed");
    expect(run("no-refund", { charge: "ch_alice_order" }, world())).toEqual({
      status: "failed",
      reason: "charge ch_alice_order has 1 refund",
    });
    expect(run("no-refund", { charge: "ch_bob_order" }, without(world(), "refunds")).status).toBe("skipped");
  });
  it("refund-count counts, ignoring failed refunds", () => {
    const state = world();
    state.refunds.push({ id: "re_failed", charge: "ch_alice_order", amount: 100, status: "failed" });
    expect(run("refund-count", { charge: "ch_alice_order", count: "1" }, state).status).toBe("passed");
    expect(run("refund-count", { charge: "ch_alice_order", count: "2" }, state)).toEqual({
      status: "failed",
      reason: "charge ch_alice_order has 1 refund, not 2",
    });
    expect(run("refund-count", { charge: "ch_alice_order", count: "1" }, without(state, "refunds")).status).toBe("skipped");
  });
  it("charge-fully-refunded reads the refunded flag", () => {
    const state = world();
    expect(run("charge-fully-refunded", { charge: "ch_alice_order" }, state)).toEqual({
      status: "failed",
      reason: "charge ch_alice_order has 500 of 2500 refunded",
    });
    state.charges[0].refunded = true;
    expect(run("charge-fully-refunded", { charge: "ch_alice_order" }, state).status).toBe("passed");
    delete state.charges[0].refunded;
    expect(run("charge-fully-refunded", { charge: "ch_alice_order" }, state)).toMatchObject({ status: "skipped", reason: "field_absent" });
    expect(run("charge-fully-refunded", { charge: "ch_nope" }, world()).status).toBe("failed");
  });
});

describe("stripe payment checks", () => {
  it("payment-intent-status and -amount", () => {
    expect(run("payment-intent-status", { payment_intent: "pi_bob_order", status: "succeeded" }, world()).status).toBe("passed");
    expect(run("payment-intent-status", { payment_intent: "pi_bob_order", status: "canceled" }, world())).toEqual({
      status: "failed",
      reason: "payment intent pi_bob_order is succeeded, not canceled",
    });
    expect(
      run("payment-intent-status", { payment_intent: "pi_bob_order", status: "succeeded" }, without(world(), "payment_intents")).status,
    ).toBe("skipped");
    expect(run("payment-intent-amount", { payment_intent: "pi_bob_order", amount: "4200", currency: "usd" }, world()).status).toBe(
      "passed",
    );
    expect(run("payment-intent-amount", { payment_intent: "pi_bob_order", amount: "4200", currency: "eur" }, world()).status).toBe(
      "failed",
    );
    expect(
      run("payment-intent-amount", { payment_intent: "pi_bob_order", amount: "1", currency: "usd" }, without(world(), "payment_intents"))
        .status,
    ).toBe("skipped");
  });
  it("customer-charge-exists", () => {
    const args = { customer: "cus_bob", status: "succeeded", amount: "4200", currency: "usd" };
    expect(run("customer-charge-exists", args, world()).status).toBe("passed");
    expect(run("customer-charge-exists", { ...args, status: "failed" }, world())).toEqual({
      status: "failed",
      reason: "customer cus_bob has 1 charge, none failed for 4200 usd",
    });
    expect(run("customer-charge-exists", args, without(world(), "charges")).status).toBe("skipped");
  });
});

describe("stripe customer, billing and event checks", () => {
  it("customer-exists ignores deleted customers and compares emails case-insensitively", () => {
    expect(run("customer-exists", { email: "BOB@example.com" }, world()).status).toBe("passed");
    const state = world();
    state.customers[1] = { id: "cus_bob", deleted: true };
    expect(run("customer-exists", { email: "bob@example.com" }, state)).toEqual({
      status: "failed",
      reason: "no customer has email bob@example.com",
    });
    expect(run("customer-exists", { email: "bob@example.com" }, without(state, "customers")).status).toBe("skipped");
  });
  it("no-new-customers compares with the seed and skips without one", () => {
    const initial = world();
    const final = world();
    expect(run("no-new-customers", {}, final, { initial }).status).toBe("passed");
    final.customers.push({ id: "cus_new", email: "n@example.com" });
    expect(run("no-new-customers", {}, final, { initial })).toEqual({ status: "failed", reason: "1 customer created: cus_new" });
    expect(run("no-new-customers", {}, final)).toMatchObject({ status: "skipped", reason: "seed_missing" });
  });
  it("subscription-status and invoice-status", () => {
    expect(run("subscription-status", { subscription: "sub_alice", status: "active" }, world()).status).toBe("passed");
    expect(run("subscription-status", { subscription: "sub_alice", status: "canceled" }, world())).toEqual({
      status: "failed",
      reason: "subscription sub_alice is active, not canceled",
    });
    expect(run("subscription-status", { subscription: "sub_alice", status: "active" }, without(world(), "subscriptions")).status).toBe(
      "skipped",
    );
    const state = world();
    state.invoices.push({ id: "in_1", customer: "cus_alice", status: "open" });
    expect(run("invoice-status", { invoice: "in_1", status: "open" }, state).status).toBe("passed");
    expect(run("invoice-status", { invoice: "in_1", status: "paid" }, state).status).toBe("failed");
    expect(run("invoice-status", { invoice: "in_1", status: "paid" }, without(state, "invoices")).status).toBe("skipped");
  });
  it("event-emitted counts only events the run made", () => {
    const initial = world();
    initial.events.push({ id: "evt_old", type: "charge.refunded", data: { object: {} } });
    const final = structuredClone(initial);
    expect(run("event-emitted", { type: "charge.refunded" }, final, { initial })).toEqual({
      status: "failed",
      reason: "no charge.refunded event was emitted",
    });
    final.events.push({ id: "evt_new", type: "charge.refunded", data: { object: {} } });
    expect(run("event-emitted", { type: "charge.refunded" }, final, { initial })).toEqual({
      status: "passed",
      reason: "1 event of type charge.refunded",
    });
    expect(run("event-emitted", { type: "charge.refunded" }, without(final, "events")).status).toBe("skipped");
  });
});

describe("stripe tape checks", () => {
  it("request-rejected finds the error code on the tape", () => {
    const refused = tapeRow({ status: 400, response_body: { error: { type: "invalid_request_error", code: "amount_too_large" } } });
    expect(run("request-rejected", { code: "amount_too_large" }, world(), { tape: [refused] })).toEqual({
      status: "passed",
      reason: "POST /v1/refunds (seq 1) was refused with amount_too_large",
    });
    expect(run("request-rejected", { code: "card_declined" }, world(), { tape: [refused] })).toEqual({
      status: "failed",
      reason: "no call was refused with card_declined (codes seen: amount_too_large)",
    });
  });
  it("no-unsupported-endpoint fails on a 501 row", () => {
    expect(run("no-unsupported-endpoint", {}, world(), { tape: [tapeRow({})] }).status).toBe("passed");
    expect(
      run("no-unsupported-endpoint", {}, world(), { tape: [tapeRow({ status: 501, fidelity: "unsupported", path: "/v1/payouts" })] })
        .status,
    ).toBe("failed");
  });
});
