// The Stripe seed: the issue's example boots, every reference is checked with its path, derived
// fields are derived (and refused when they disagree), and export(boot(seed)) is the seed.
import { describe, expect, it } from "vitest";
import { stripeTwin } from "../../../durable-objects/twins/stripe";
import { parseStripeSeed } from "../../../durable-objects/twins/stripe/seed";
import { inTwinWorld } from "../kit/world";
import { postJson, twinFetch } from "../helpers";
import { exampleSeed, stripeSandbox } from "./fixtures";

interface SeedError {
  error: { details: { error: string; issues: { path: string; message: string; code: string }[] } };
}

async function issuesOf(seed: unknown) {
  const res = await postJson("/v1/seeds/validate", { twins: ["stripe"], seed });
  expect(res.status).toBe(422);
  const body = await res.json<SeedError>();
  expect(body.error.details.error).toBe("invalid_seed");
  return body.error.details.issues;
}

describe("the Stripe seed", () => {
  it("boots the issue's example and exports it unchanged, with derived fields filled", async () => {
    const parsed = parseStripeSeed(exampleSeed());
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
    const charge = parsed.seed.charges[0];
    expect(charge).toMatchObject({
      amount_captured: 2500,
      amount_refunded: 500,
      refunded: false,
      disputed: true,
      livemode: false,
      metadata: {},
    });
    expect(parsed.seed.balance_transactions.map((t) => t.type)).toEqual(["charge", "refund", "adjustment"]);
    expect(parsed.seed.invoices[0]).toMatchObject({ subtotal: 2000, total: 2000, amount_paid: 2000 });
    await inTwinWorld(stripeTwin, exampleSeed(), (w) => {
      expect(w.exportState()).toEqual(parsed.seed);
      // An export seeds a new world that exports the same.
      const again = parseStripeSeed(JSON.parse(JSON.stringify(w.exportState())));
      if (!again.ok) throw new Error(JSON.stringify(again.issues));
      expect(again.seed).toEqual(parsed.seed);
    });
  });

  it("assigns missing ids and times deterministically, oldest first", () => {
    const a = parseStripeSeed({ customers: [{ email: "x@example.com" }, { email: "y@example.com" }] });
    const b = parseStripeSeed({ customers: [{ email: "x@example.com" }, { email: "y@example.com" }] });
    expect(a).toEqual(b);
    if (!a.ok) throw new Error("invalid");
    expect(a.seed.customers[0].id).toMatch(/^cus_/);
    expect(Number(a.seed.customers[1].created)).toBeGreaterThan(Number(a.seed.customers[0].created));
  });

  it("refuses broken references, bad prefixes and unknown keys with their paths", async () => {
    const seed = exampleSeed();
    seed.prices[0].product = "prod_ghost";
    seed.charges[0].payment_method = "pm_ghost";
    seed.customers.push({
      id: "customer_2",
      email: "b@example.com",
      name: "B",
      metadata: { plan: "free" },
      created: 1,
      invoice_settings: { default_payment_method: "pm_alice_visa" },
    });
    const issues = await issuesOf({ ...seed, refunds: [{ ...seed.refunds[0], amout: 3 }] });
    const paths = issues.map((i) => i.path);
    expect(paths).toContain("refunds[0].amout");
    const second = await issuesOf(seed);
    expect(second.map((i) => i.path)).toEqual(
      expect.arrayContaining([
        "customers[1].id",
        "customers[1].invoice_settings.default_payment_method",
        "prices[0].product",
        "charges[0].payment_method",
      ]),
    );
  });

  it("refuses refunds beyond a charge's captured amount and derived fields that disagree", async () => {
    const seed = exampleSeed();
    const issues = await issuesOf({
      ...seed,
      refunds: [...seed.refunds, { charge: "ch_alice", amount: 2100 }],
      charges: [{ ...seed.charges[0], amount_refunded: 7 }],
    });
    expect(issues).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: "refunds[1].amount" }),
        expect.objectContaining({ path: "charges[0].amount_refunded", code: "derived_mismatch" }),
      ]),
    );
  });

  it("checks an invoice payment's invoice and payment intent, and round-trips it", async () => {
    const seed = {
      ...exampleSeed(),
      invoice_payments: [{ invoice: "in_alice_1", payment: { type: "payment_intent", payment_intent: "pi_ghost" } }],
    };
    expect((await issuesOf(seed)).map((i) => i.path)).toEqual(["invoice_payments[0].payment.payment_intent"]);
    const good = {
      ...exampleSeed(),
      invoice_payments: [
        { invoice: "in_alice_1", status: "paid", amount_paid: 2000, payment: { type: "payment_intent", payment_intent: "pi_alice" } },
      ],
    };
    const parsed = parseStripeSeed(good);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
    expect(parsed.seed.invoice_payments[0]).toMatchObject({
      id: expect.stringMatching(/^inpay_/),
      amount_requested: 2500,
      currency: "usd",
      is_default: true,
    });
    await inTwinWorld(stripeTwin, good, (w) => expect(w.exportState()).toEqual(parsed.seed));
  });

  it("refuses a fault with an error type Stripe no longer sends, naming the field and the status to use", async () => {
    const fault = { operation: "refunds.create", status: 429, message: "Too many requests." };
    const issues = await issuesOf({ ...exampleSeed(), faults: [{ ...fault, type: "rate_limit_error" }] });
    expect(issues).toEqual([expect.objectContaining({ path: "faults[0].type", message: expect.stringContaining("status 429") })]);
    const unknown = await issuesOf({ ...exampleSeed(), faults: [{ ...fault, type: "teapot_error" }] });
    expect(unknown.map((i) => i.path)).toEqual(["faults[0].type"]);
    const parsed = parseStripeSeed({ ...exampleSeed(), faults: [{ ...fault, type: "invalid_request_error", code: "rate_limit" }] });
    expect(parsed.ok).toBe(true);
  });

  it("requires a succeeded intent's charge to point back with the same amount", async () => {
    const seed = exampleSeed();
    const issues = await issuesOf({ ...seed, charges: [{ ...seed.charges[0], amount: 2400 }] });
    expect(issues.map((i) => i.path)).toEqual(expect.arrayContaining(["payment_intents[0].latest_charge"]));
    const none = await issuesOf({
      ...seed,
      payment_intents: [{ ...seed.payment_intents[0], latest_charge: undefined }],
      refunds: [],
      disputes: [],
    });
    expect(none.map((i) => i.path)).toContain("payment_intents[0].latest_charge");
  });

  it("is silent: seeding emits no events; the export carries what happened since boot", async () => {
    // No endpoint here: a delivery to hooks.example.com would leave the test runtime.
    const { sandbox, stripe } = await stripeSandbox({ ...exampleSeed(), webhook_endpoints: [] });
    expect((await stripe.events.list()).data).toHaveLength(0);
    await stripe.refunds.create({ charge: "ch_alice", amount: 100 });
    await stripe.customers.del("cus_alice");
    const state = await (await twinFetch(sandbox, "/_pome/state", {}, "stripe")).json<Record<string, unknown[]>>();
    expect(state.customers).toEqual([{ id: "cus_alice", deleted: true }]);
    expect(state.subscriptions[0]).toMatchObject({ id: "sub_alice", status: "canceled" });
    expect(state.refunds).toHaveLength(2);
    expect(state.events.map((e) => (e as { type: string }).type)).toEqual(expect.arrayContaining(["charge.refunded", "customer.deleted"]));
    expect(parseStripeSeed(state).ok).toBe(true);
  });
});
