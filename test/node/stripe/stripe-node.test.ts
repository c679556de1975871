// stripe-node in Node, configured the ordinary way (its default http client, host/port/protocol,
// the sandbox's sk_test_ key) against the real dev server; signed webhooks to a real receiver on
// 127.0.0.1, verified with stripe.webhooks.constructEvent; the twin's MCP tools.
import http from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, createSandbox, jsonOf, tapeOf, type Sandbox, stripeFor } from "../mcp/helpers";

interface Delivery {
  body: string;
  signature: string;
}

/** A webhook receiver: each POST is handed to the next waiter (or queued until one asks). */
function receiver() {
  const queued: Delivery[] = [];
  const waiting: ((d: Delivery) => void)[] = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      res.writeHead(200).end("ok");
      const d = { body, signature: String(req.headers["stripe-signature"] ?? "") };
      const next = waiting.shift();
      if (next) next(d);
      else queued.push(d);
    });
  });
  return {
    server,
    next: () =>
      new Promise<Delivery>((resolve) => {
        const d = queued.shift();
        if (d) resolve(d);
        else waiting.push(resolve);
      }),
    pending: () => queued.length,
  };
}

let sandbox: Sandbox;
let stripe: Stripe;
const hooks = receiver();

beforeAll(async () => {
  sandbox = await createSandbox({ twins: ["stripe"] });
  stripe = stripeFor(sandbox);
  await new Promise<void>((resolve) => hooks.server.listen(0, "127.0.0.1", resolve));
});
afterAll(async () => {
  await new Promise((resolve) => hooks.server.close(resolve));
});

describe("stripe-node with its default Node http client", () => {
  it("talks to the credential-routed root /v1/...", async () => {
    const customer = await stripe.customers.create({ email: "node@example.com" });
    expect(customer.id).toMatch(/^cus_/);
    const page = await stripe.customers.list({ limit: 1 });
    expect(page.data[0].id).toBe(customer.id);
    const err = await stripe.refunds.create({ charge: "ch_bob_order", amount: 999_999 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
  });
});

describe("webhooks", () => {
  it("POSTs each matching event, signed so constructEvent verifies it", async () => {
    const port = (hooks.server.address() as AddressInfo).port;
    const endpoint = await stripe.webhookEndpoints.create({
      url: `http://127.0.0.1:${port}/stripe`,
      enabled_events: ["charge.refunded", "refund.created"],
    });
    const secret = String(endpoint.secret);
    await stripe.customers.create({ email: "not-delivered@example.com" });
    const refund = await stripe.refunds.create({ charge: "ch_bob_order", amount: 700 });
    const first = await hooks.next();
    const second = await hooks.next();
    const events = [first, second].map((d) => stripe.webhooks.constructEvent(d.body, d.signature, secret));
    expect(events.map((e) => e.type)).toEqual(["refund.created", "charge.refunded"]);
    expect(events[0].data.object).toMatchObject({ id: refund.id, object: "refund", amount: 700 });
    const t = Number(/t=(\d+)/.exec(first.signature)?.[1]);
    expect(Math.abs(t - Date.now() / 1000)).toBeLessThan(60);
    expect(() => stripe.webhooks.constructEvent(first.body, first.signature, "whsec_wrong")).toThrow(
      Stripe.errors.StripeSignatureVerificationError,
    );
    // The customer.created event matched no enabled type: nothing else arrived.
    expect(hooks.pending()).toBe(0);
    const listed = await stripe.events.retrieve(events[1].id);
    expect(listed.pending_webhooks).toBe(1);
  });
});

describe("the Stripe twin's MCP tools", () => {
  it("refunds through a tool call, taped with transport mcp", async () => {
    const client = await connect(sandbox.per_twin.stripe.mcp_url, sandbox.agent_token);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(["create_refund", "get_charge", "list_customers"]));
      const refund = jsonOf<{ object: string; amount: number; charge: string }>(
        await client.callTool({ name: "create_refund", arguments: { charge: "ch_bob_order", amount: 300, reason: "duplicate" } }),
      );
      expect(refund).toMatchObject({ object: "refund", amount: 300, charge: "ch_bob_order" });
      const charge = jsonOf<{ amount_refunded: number }>(await client.callTool({ name: "get_charge", arguments: { id: "ch_bob_order" } }));
      expect(charge.amount_refunded).toBe(1000);
      const refused = await client.callTool({ name: "create_refund", arguments: { charge: "ch_bob_order", amount: 999_999 } });
      expect(refused.isError).toBe(true);
      const tape = await tapeOf(sandbox, "stripe");
      expect(tape.filter((r) => r.transport === "mcp").map((r) => [r.operation, r.status])).toEqual([
        ["refunds.create", 200],
        ["charges.retrieve", 200],
        ["refunds.create", 400],
      ]);
    } finally {
      await client.close();
    }
  });
});
