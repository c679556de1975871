// Stripe's own MCP tool set (@stripe/agent-toolkit 0.7.12 as @stripe/mcp 0.2.5 serves it with
// --tools=all) at a sandbox's `…/mcp/official`: listed exactly as that server lists it
// (test/fixtures/vendor-mcp/stripe-agent-toolkit.json, with its version and license), each tool
// carried out as the stripe-node call the toolkit makes, answering the toolkit's text (its chosen
// fields as JSON; `"Failed to …"` for a refusal, never `isError`), changing the world as that call
// would (checked through stripe-node), and taped.
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, createSandbox, jsonOf, type Sandbox, stripeFor, tapeOf, textOf } from "./helpers";

const published = JSON.parse(
  readFileSync(path.resolve(import.meta.dirname, "../../fixtures/vendor-mcp/stripe-agent-toolkit.json"), "utf8"),
) as { source: string; version: string; license: string; tools: { name: string; description: string; inputSchema: unknown }[] };

/** Two customers with cards and paid orders, a plan Alice subscribes to, and a dispute on Bob's charge. */
const WORLD = {
  customers: [
    { id: "cus_alice", email: "alice@example.com", name: "Alice Doe", invoice_settings: { default_payment_method: "pm_alice_visa" } },
    { id: "cus_bob", email: "bob@example.com", name: "Bob Lee", invoice_settings: { default_payment_method: "pm_bob_mastercard" } },
  ],
  payment_methods: [
    { id: "pm_alice_visa", type: "card", customer: "cus_alice", card: { brand: "visa", last4: "4242", exp_month: 12, exp_year: 2030 } },
    {
      id: "pm_bob_mastercard",
      type: "card",
      customer: "cus_bob",
      card: { brand: "mastercard", last4: "4444", exp_month: 6, exp_year: 2029 },
    },
  ],
  products: [{ id: "prod_pro", name: "Pro plan" }],
  prices: [{ id: "price_pro_monthly", product: "prod_pro", currency: "usd", unit_amount: 2000, recurring: { interval: "month" } }],
  subscriptions: [
    {
      id: "sub_alice",
      customer: "cus_alice",
      default_payment_method: "pm_alice_visa",
      items: [{ price: "price_pro_monthly", quantity: 1 }],
    },
  ],
  payment_intents: [
    {
      id: "pi_alice_order",
      customer: "cus_alice",
      amount: 2500,
      currency: "usd",
      status: "succeeded",
      payment_method: "pm_alice_visa",
      latest_charge: "ch_alice_order",
    },
    {
      id: "pi_bob_order",
      customer: "cus_bob",
      amount: 4200,
      currency: "usd",
      status: "succeeded",
      payment_method: "pm_bob_mastercard",
      latest_charge: "ch_bob_order",
    },
  ],
  charges: [
    {
      id: "ch_alice_order",
      payment_intent: "pi_alice_order",
      customer: "cus_alice",
      amount: 2500,
      currency: "usd",
      payment_method: "pm_alice_visa",
    },
    {
      id: "ch_bob_order",
      payment_intent: "pi_bob_order",
      customer: "cus_bob",
      amount: 4200,
      currency: "usd",
      payment_method: "pm_bob_mastercard",
    },
  ],
  disputes: [{ id: "dp_bob", charge: "ch_bob_order", status: "needs_response" }],
};

let sandbox: Sandbox;
let client: Client;
let stripe: Stripe;

beforeAll(async () => {
  sandbox = await createSandbox({ twins: ["stripe"], seed: WORLD });
  client = await connect(`${sandbox.per_twin.stripe.mcp_url}/official`, sandbox.agent_token);
  stripe = stripeFor(sandbox);
});
afterAll(async () => {
  await client?.close();
});

const call = (name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args });

describe("the vendor's tool set is served exactly as Stripe's MCP server lists it", () => {
  it("lists every published tool with its name, description, input schema and annotations", async () => {
    expect(published.version).toMatch(/@stripe\/agent-toolkit 0\.7\.12/);
    expect(published.license).toMatch(/^MIT/);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(published.tools.map((t) => t.name));
    for (const tool of published.tools)
      expect(
        tools.find((t) => t.name === tool.name),
        tool.name,
      ).toEqual(tool);
  });

  it("refuses arguments the published schema refuses, and an unknown tool, without touching the world", async () => {
    const before = await stripe.customers.list({ limit: 100 });
    const badEmail = await call("create_customer", { name: "Mallory", email: "not-an-email" });
    expect(badEmail.isError).toBe(true);
    expect(textOf(badEmail)).toMatch(/email/);
    const missing = await call("create_price", { product: "prod_pro", currency: "usd" }); // unit_amount is required
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toMatch(/unit_amount/);
    const outOfRange = await call("list_customers", { limit: 500 });
    expect(outOfRange.isError).toBe(true);
    await expect(call("no_such_tool", {})).resolves.toMatchObject({ isError: true });
    expect((await stripe.customers.list({ limit: 100 })).data.length).toBe(before.data.length);
  });
});

describe("an agent written for Stripe's MCP server works against the twin unchanged", () => {
  it("creates customers, products, prices and payment links, answering the toolkit's fields", async () => {
    const customer = jsonOf<{ id: string }>(await call("create_customer", { name: "Dana Fox", email: "dana@example.com" }));
    expect(Object.keys(customer)).toEqual(["id"]);
    expect((await stripe.customers.retrieve(customer.id)) as Stripe.Customer).toMatchObject({
      name: "Dana Fox",
      email: "dana@example.com",
    });
    expect(jsonOf(await call("list_customers", { email: "dana@example.com" }))).toEqual([{ id: customer.id }]);

    const product = jsonOf<{ id: string; object: string; name: string }>(
      await call("create_product", { name: "Team plan", description: "For teams" }),
    );
    expect(product).toMatchObject({ object: "product", name: "Team plan" });
    expect((await stripe.products.retrieve(product.id)).description).toBe("For teams");
    expect(jsonOf<{ id: string }[]>(await call("list_products", { limit: 100 })).map((p) => p.id)).toContain(product.id);

    const price = jsonOf<{ id: string; unit_amount: number; currency: string }>(
      await call("create_price", { product: product.id, unit_amount: 4900, currency: "usd" }),
    );
    expect(price).toMatchObject({ unit_amount: 4900, currency: "usd" });
    expect(jsonOf<{ id: string }[]>(await call("list_prices", { product: product.id })).map((p) => p.id)).toEqual([price.id]);

    const link = jsonOf<{ id: string; url: string }>(
      await call("create_payment_link", { price: price.id, quantity: 2, redirect_url: "https://example.com/thanks" }),
    );
    expect(Object.keys(link).sort()).toEqual(["id", "url"]);
    const stored = await stripe.paymentLinks.retrieve(link.id);
    expect(stored.url).toBe(link.url);
    expect(stored.after_completion).toMatchObject({ type: "redirect", redirect: { url: "https://example.com/thanks" } });
    const items = await stripe.paymentLinks.listLineItems(link.id);
    expect(items.data.map((i) => [i.price?.id, i.quantity])).toEqual([[price.id, 2]]);
  });

  it("invoices by email, finalizes, refunds and reads payments and the balance", async () => {
    const invoice = jsonOf<{ id: string; url: unknown; customer: string; status: string }>(
      await call("create_invoice", { customer: "cus_bob", days_until_due: 30 }),
    );
    expect(invoice).toMatchObject({ customer: "cus_bob", status: "draft" });
    expect(Object.keys(invoice)).toEqual(["id", "url", "customer", "status"]);
    expect((await stripe.invoices.retrieve(invoice.id)).collection_method).toBe("send_invoice");
    const finalized = jsonOf<{ status: string }>(await call("finalize_invoice", { invoice: invoice.id }));
    // Nothing is due on it (no items), and Stripe marks such an invoice paid as it finalizes it.
    expect(finalized.status).toBe("paid");
    expect(await stripe.invoices.retrieve(invoice.id)).toMatchObject({ status: "paid", amount_due: 0 });
    expect(jsonOf<{ id: string }[]>(await call("list_invoices", { customer: "cus_bob" })).map((i) => i.id)).toContain(invoice.id);

    const refund = jsonOf<{ id: string; status: string; amount: number }>(
      await call("create_refund", { payment_intent: "pi_alice_order", amount: 1000 }),
    );
    expect(refund).toMatchObject({ status: "succeeded", amount: 1000 });
    expect((await stripe.refunds.retrieve(refund.id)).payment_intent).toBe("pi_alice_order");
    expect(jsonOf<{ id: string }[]>(await call("list_payment_intents", { customer: "cus_alice" })).map((p) => p.id)).toEqual([
      "pi_alice_order",
    ]);
    expect(jsonOf<{ object: string }>(await call("retrieve_balance", {})).object).toBe("balance");
  });

  it("changes and cancels subscriptions", async () => {
    const listed = jsonOf<{ id: string; items: { data: { id: string }[] } }[]>(
      await call("list_subscriptions", { customer: "cus_alice", status: "active" }),
    );
    expect(listed.map((s) => s.id)).toEqual(["sub_alice"]);
    const yearly = await stripe.prices.create({
      product: "prod_pro",
      currency: "usd",
      unit_amount: 20000,
      recurring: { interval: "year" },
    });
    const updated = jsonOf<{ items: { data: { price: { id: string } }[] } }>(
      await call("update_subscription", {
        subscription: "sub_alice",
        proration_behavior: "none",
        items: [{ id: listed[0].items.data[0].id, deleted: true }, { price: yearly.id }],
      }),
    );
    expect(updated.items.data.map((i) => i.price.id)).toEqual([yearly.id]);
    expect(jsonOf<{ status: string }>(await call("cancel_subscription", { subscription: "sub_alice" })).status).toBe("canceled");
    expect((await stripe.subscriptions.retrieve("sub_alice")).status).toBe("canceled");
  });

  it("creates and lists coupons, answering the toolkit's coupon fields", async () => {
    const coupon = jsonOf<{ id: string }>(await call("create_coupon", { name: "Five off", amount_off: 500 }));
    // The toolkit's schema defaults the currency to USD; Stripe stores it lower-cased.
    expect(await stripe.coupons.retrieve(coupon.id)).toMatchObject({
      name: "Five off",
      amount_off: 500,
      currency: "usd",
      duration: "once",
    });
    expect(jsonOf(await call("list_coupons", {}))).toContainEqual({
      id: coupon.id,
      name: "Five off",
      percent_off: null,
      amount_off: 500,
      duration: "once",
    });
  });

  it("lists disputes and stages evidence on one", async () => {
    expect(jsonOf(await call("list_disputes", { charge: "ch_bob_order" }))).toEqual([{ id: "dp_bob" }]);
    const text = "The customer signed for the delivery.";
    expect(jsonOf(await call("update_dispute", { dispute: "dp_bob", evidence: { uncategorized_text: text }, submit: false }))).toEqual({
      id: "dp_bob",
    });
    expect((await stripe.disputes.retrieve("dp_bob")).evidence.uncategorized_text).toBe(text);
  });

  it("tapes every tool's REST call as MCP", async () => {
    const mcp = (await tapeOf(sandbox, "stripe")).filter((r) => r.transport === "mcp");
    expect(mcp.map((r) => r.operation)).toEqual(
      expect.arrayContaining([
        "customers.create",
        "paymentLinks.create",
        "invoices.finalizeInvoice",
        "refunds.create",
        "subscriptions.update",
        "subscriptions.cancel",
        "coupons.create",
        "disputes.update",
      ]),
    );
    // The requests are the toolkit's: its fixed collection method, only the arguments given.
    const sent = (operation: string) => mcp.find((r) => r.operation === operation)?.request_body;
    expect(sent("refunds.create")).toEqual({ payment_intent: "pi_alice_order", amount: 1000 });
    expect(sent("invoices.create")).toEqual({ customer: "cus_bob", days_until_due: 30, collection_method: "send_invoice" });
  });
});

describe("refusals answer as the toolkit answers them", () => {
  it("turns Stripe's refusal into the toolkit's `Failed to …` text, not an error result", async () => {
    const missing = await call("finalize_invoice", { invoice: "in_missing" });
    expect(missing.isError).toBeFalsy();
    expect(jsonOf(missing)).toBe("Failed to finalize invoice");
    // create_coupon alone quotes Stripe's message.
    const badCurrency = await call("create_coupon", { name: "Odd", amount_off: 100, currency: "zzz" });
    expect(badCurrency.isError).toBeFalsy();
    expect(jsonOf<string>(badCurrency)).toMatch(/^Failed to create coupon: .*zzz/);
  });

  it("answers the twin's 501 refusal as an error where the sandbox lacks the area", async () => {
    const docs = await call("search_stripe_documentation", { question: "How do I save a card?", language: "node" });
    expect(docs.isError).toBe(true);
    expect(jsonOf<{ error: { code: string } }>(docs).error.code).toBe("not_implemented");

    // Invoice items: the tool answers whatever the same REST call answers (a 501 while the twin
    // lacks the route, the toolkit's {id, invoice} once it has it).
    const draft = await stripe.invoices.create({ customer: "cus_alice", collection_method: "send_invoice", days_until_due: 7 });
    // Stripe bills recurring prices through subscriptions: an invoice item takes a one-off price.
    const oneOff = await stripe.prices.create({ product: "prod_pro", currency: "usd", unit_amount: 1500 });
    const direct = await fetch(`${sandbox.per_twin.stripe.api_url}/v1/invoiceitems`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${sandbox.provider_credentials.stripe.token}`,
        "content-type": "application/x-www-form-urlencoded",
      },
      body: new URLSearchParams({ customer: "cus_alice", price: oneOff.id, invoice: draft.id }),
    });
    const item = await call("create_invoice_item", { customer: "cus_alice", price: oneOff.id, invoice: draft.id });
    if (direct.status === 501) {
      expect(item.isError).toBe(true);
      expect(jsonOf<{ error: { code: string } }>(item).error.code).toBe("not_implemented");
    } else {
      expect(direct.status).toBe(200);
      expect(jsonOf(item)).toMatchObject({ id: expect.stringMatching(/^ii_/), invoice: draft.id });
    }
  });
});
