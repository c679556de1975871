import { describe, expect, it } from "vitest";
import { SELF } from "cloudflare:test";
import Stripe from "stripe";
import { api, twinFetch } from "../helpers";
import { stripeErrorOf, stripeFor, stripeSandbox } from "./fixtures";

describe("balance, balance transactions and disputes", () => {
  it("derives the balance from the seeded charges and refunds, and moves it with new ones", async () => {
    const { stripe } = await stripeSandbox();
    const before = await stripe.balance.retrieve();
    // 2500 - (73 + 30) fee, 4200 - (122 + 30) fee, minus the 500 refund.
    expect(before.available).toEqual([{ amount: 2500 - 103 + 4200 - 152 - 500, currency: "usd", source_types: { card: 5945 } }]);
    await stripe.refunds.create({ charge: "ch_bob_order", amount: 200 });
    const after = await stripe.balance.retrieve();
    expect(after.available[0].amount).toBe(before.available[0].amount - 200);
    const txns = await stripe.balanceTransactions.list({ type: "refund" });
    expect(txns.data.map((t) => t.amount)).toEqual([-200, -500]);
  });

  it("opens a dispute from the dispute test card, updates its evidence and closes it", async () => {
    const { stripe } = await stripeSandbox();
    const pi = await stripe.paymentIntents.create({
      amount: 7000,
      currency: "usd",
      payment_method: "pm_card_createDispute",
      allowed_payment_method_types: ["card"],
      confirm: true,
    });
    const disputes = await stripe.disputes.list({ payment_intent: pi.id });
    expect(disputes.data).toHaveLength(1);
    const dispute = disputes.data[0];
    expect(dispute).toMatchObject({ object: "dispute", amount: 7000, status: "needs_response", charge: pi.latest_charge });
    expect(dispute.balance_transactions[0]).toMatchObject({ amount: -7000, fee: 1500 });
    const updated = await stripe.disputes.update(dispute.id, {
      evidence: { uncategorized_text: "Signed delivery receipt" },
      metadata: { case: "42" },
    });
    expect(updated.evidence.uncategorized_text).toBe("Signed delivery receipt");
    const closed = await stripe.disputes.close(dispute.id);
    expect(closed.status).toBe("lost");
    const again = await stripeErrorOf(stripe.disputes.close(dispute.id));
    expect(again.statusCode).toBe(400);
  });
});

describe("events and webhook endpoints", () => {
  it("lists events newest first and filters by type; the seed emitted none", async () => {
    const { stripe } = await stripeSandbox();
    expect((await stripe.events.list()).data).toHaveLength(0);
    const c = await stripe.customers.create({ email: "e@example.com" });
    await stripe.customers.update(c.id, { name: "E" });
    const events = await stripe.events.list();
    expect(events.data.map((e) => e.type)).toEqual(["customer.updated", "customer.created"]);
    expect(events.data[0].data.previous_attributes).toEqual({ name: null });
    expect(events.data[0].api_version).toBe("2026-10-28.endive");
    const one = await stripe.events.retrieve(events.data[1].id);
    expect(one.data.object).toMatchObject({ id: c.id });
  });

  it("creates an endpoint with its secret shown once, updates, lists and deletes it", async () => {
    const { stripe } = await stripeSandbox();
    const we = await stripe.webhookEndpoints.create({ url: "http://127.0.0.1:9/hooks", enabled_events: ["charge.refunded"] });
    expect(we.secret).toMatch(/^whsec_/);
    expect(we).toMatchObject({ object: "webhook_endpoint", status: "enabled", enabled_events: ["charge.refunded"] });
    const got = await stripe.webhookEndpoints.retrieve(we.id);
    expect(got.secret).toBeUndefined();
    const updated = await stripe.webhookEndpoints.update(we.id, { enabled_events: ["*"], disabled: true });
    expect(updated).toMatchObject({ enabled_events: ["*"], status: "disabled" });
    expect((await stripe.webhookEndpoints.list()).data.map((w) => w.id)).toEqual([we.id]);
    expect(await stripe.webhookEndpoints.del(we.id)).toMatchObject({ id: we.id, deleted: true });
    const missing = await stripeErrorOf(
      stripe.webhookEndpoints.create({ url: "http://127.0.0.1:9/x" } as Stripe.WebhookEndpointCreateParams),
    );
    expect(missing).toMatchObject({ code: "parameter_missing", param: "enabled_events" });
  });
});

describe("routing and refusals", () => {
  it("answers an unimplemented route 501 with Stripe-Should-Retry: false, taped unsupported", async () => {
    const { sandbox, stripe } = await stripeSandbox();
    const err = await stripeErrorOf(stripe.topups.list());
    expect(err).toBeInstanceOf(Stripe.errors.StripeAPIError);
    expect(err.statusCode).toBe(501);
    const raw = await SELF.fetch("http://pome.test/v1/issuing/cards", {
      headers: { authorization: `Bearer ${sandbox.provider_credentials.stripe.token}` },
    });
    expect(raw.status).toBe(501);
    expect(raw.headers.get("stripe-should-retry")).toBe("false");
    expect(raw.headers.get("request-id")).toMatch(/^req_/);
    const tape = await (await twinFetch(sandbox, "/_pome/events", {}, "stripe")).json<
      { fidelity: string; operation: string; status: number }[]
    >();
    expect(tape.map((r) => [r.fidelity, r.operation, r.status])).toEqual([
      ["unsupported", "unsupported", 501],
      ["unsupported", "unsupported", 501],
    ]);
  });

  it("refuses a forged sk_test_ key with StripeAuthenticationError, and a team key on /v1 still reaches the control plane", async () => {
    const { sandbox } = await stripeSandbox();
    const forged = stripeFor(sandbox, `${sandbox.provider_credentials.stripe.token.slice(0, -4)}XXXX`);
    const err = await stripeErrorOf(forged.customers.list());
    expect(err.statusCode).toBe(401);
    const me = await api("/v1/sandboxes");
    expect(me.status).toBe(200);
  });

  it("answers seeded faults in Stripe's shape, so each error class can be exercised, and changes nothing", async () => {
    const { stripe } = await stripeSandbox({
      customers: [{ id: "cus_f", email: "f@example.com" }],
      faults: [
        {
          operation: "refunds.create",
          status: 429,
          // Stripe words a rate limit as an invalid request with code rate_limit; stripe-node picks its
          // error class by the status (cjs/Error.js), so the type is the documented one.
          type: "invalid_request_error",
          code: "rate_limit",
          message: "Too many requests hit the API too quickly.",
        },
        {
          operation: "customers.create",
          skip: 1,
          status: 403,
          type: "invalid_request_error",
          message: "The provided key does not have the required permissions.",
        },
      ],
    });
    const limited = await stripeErrorOf(stripe.refunds.create({ charge: "ch_none" }));
    expect(limited).toBeInstanceOf(Stripe.errors.StripeRateLimitError);
    expect(limited).toMatchObject({ statusCode: 429, code: "rate_limit" });
    // The rule's one time is spent: the next call reaches the route (and its own refusal).
    expect(await stripeErrorOf(stripe.refunds.create({ charge: "ch_none" }))).toMatchObject({ statusCode: 404, param: "charge" });
    await stripe.customers.create({ email: "first@example.com" });
    const denied = await stripeErrorOf(stripe.customers.create({ email: "second@example.com" }));
    expect(denied).toBeInstanceOf(Stripe.errors.StripePermissionError);
    expect((await stripe.customers.list()).data.map((c) => c.email)).toEqual(["first@example.com", "f@example.com"]);
  });

  it("serves the same API under the sandbox's prefixed api_url", async () => {
    const { sandbox } = await stripeSandbox();
    const res = await SELF.fetch(`${sandbox.per_twin.stripe.api_url}/v1/customers/cus_alice`, {
      headers: { authorization: `Bearer ${sandbox.provider_credentials.stripe.token}` },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id: "cus_alice", object: "customer" });
  });
});
