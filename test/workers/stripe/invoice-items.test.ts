// Invoice items as Stripe's invoicing guide uses them, through stripe-node: pending items picked
// up by the customer's next invoice, items added straight to a draft, and Stripe's amount rules.
import Stripe from "stripe";
import { describe, expect, it } from "vitest";
import { stripeErrorOf, stripeSandbox } from "./fixtures";

async function oneOffPrice(stripe: Awaited<ReturnType<typeof stripeSandbox>>["stripe"], unit = 1500) {
  return stripe.prices.create({ product: "prod_pro", currency: "usd", unit_amount: unit });
}

describe("pending invoice items wait for the customer's next invoice", () => {
  it("an invoice created with pending_invoice_items_behavior=include takes them as lines", async () => {
    const { stripe } = await stripeSandbox();
    const price = await oneOffPrice(stripe);
    const setup = await stripe.invoiceItems.create({ customer: "cus_carol", amount: 5000, currency: "usd", description: "Setup fee" });
    expect(setup).toMatchObject({ object: "invoiceitem", amount: 5000, invoice: null, customer: "cus_carol", quantity: 1 });
    const seats = await stripe.invoiceItems.create({ customer: "cus_carol", pricing: { price: price.id }, quantity: 3 });
    expect(seats).toMatchObject({ amount: 4500, quantity: 3, pricing: { price_details: { price: price.id, product: "prod_pro" } } });
    const pending = await stripe.invoiceItems.list({ customer: "cus_carol", pending: true });
    expect(pending.data.map((i) => i.id).sort()).toEqual([setup.id, seats.id].sort());

    const inv = await stripe.invoices.create({ customer: "cus_carol", pending_invoice_items_behavior: "include" });
    expect(inv).toMatchObject({ status: "draft", subtotal: 9500, total: 9500, amount_due: 9500 });
    const lines = inv.lines.data.map((l) => [l.amount, l.parent?.invoice_item_details?.invoice_item]);
    expect(lines).toEqual(
      expect.arrayContaining([
        [5000, setup.id],
        [4500, seats.id],
      ]),
    );
    expect((await stripe.invoiceItems.retrieve(setup.id)).invoice).toBe(inv.id);
    expect((await stripe.invoiceItems.list({ customer: "cus_carol", pending: true })).data).toHaveLength(0);
    expect((await stripe.invoiceItems.list({ invoice: inv.id })).data).toHaveLength(2);
    const paid = await stripe.invoices.pay(inv.id);
    expect(paid).toMatchObject({ status: "paid", amount_paid: 9500 });
  });

  it("an invoice created without the behavior leaves them pending (Stripe's default since 2022-08-01)", async () => {
    const { stripe } = await stripeSandbox();
    await stripe.invoiceItems.create({ customer: "cus_carol", amount: 700, currency: "usd" });
    const inv = await stripe.invoices.create({ customer: "cus_carol" });
    expect(inv.total).toBe(0);
    expect((await stripe.invoiceItems.list({ pending: true })).data).toHaveLength(1);
  });

  it("a subscription's next invoice takes the customer's pending items", async () => {
    const { stripe } = await stripeSandbox();
    const item = await stripe.invoiceItems.create({ customer: "cus_bob", amount: 1200, currency: "usd", description: "Onboarding" });
    const sub = await stripe.subscriptions.create({
      customer: "cus_bob",
      items: [{ price: "price_pro_monthly" }],
      expand: ["latest_invoice"],
    });
    const first = sub.latest_invoice as { id: string; total: number; amount_paid: number };
    expect(first).toMatchObject({ total: 3200, amount_paid: 3200 });
    expect((await stripe.invoiceItems.retrieve(item.id)).invoice).toBe(first.id);
  });
});

describe("an item created on a draft invoice is a line of it", () => {
  it("adds, updates and deletes the line with the item, and freezes it once finalized", async () => {
    const { stripe } = await stripeSandbox();
    const draft = await stripe.invoices.create({ customer: "cus_alice", collection_method: "send_invoice", days_until_due: 14 });
    const item = await stripe.invoiceItems.create({
      customer: "cus_alice",
      invoice: draft.id,
      unit_amount_decimal: Stripe.Decimal.from("250.5"),
      quantity: 4,
    });
    expect(item).toMatchObject({ invoice: draft.id, amount: 1002, quantity: 4 });
    expect(String(item.pricing?.unit_amount_decimal)).toBe("250.5");
    expect((await stripe.invoices.retrieve(draft.id)).total).toBe(1002);
    const updated = await stripe.invoiceItems.update(item.id, { quantity: 10, description: "Ten hours", metadata: { ref: "T-1" } });
    expect(updated).toMatchObject({ amount: 2505, description: "Ten hours", metadata: { ref: "T-1" } });
    const redrawn = await stripe.invoices.retrieve(draft.id);
    expect(redrawn.lines.data).toHaveLength(1);
    expect(redrawn.lines.data[0]).toMatchObject({ amount: 2505, description: "Ten hours" });
    const extra = await stripe.invoiceItems.create({ customer: "cus_alice", invoice: draft.id, amount: 100, currency: "usd" });
    const deleted = await stripe.invoiceItems.del(extra.id);
    expect(deleted).toEqual({ id: extra.id, object: "invoiceitem", deleted: true });
    expect((await stripe.invoices.retrieve(draft.id)).total).toBe(2505);
    await stripe.invoices.finalizeInvoice(draft.id);
    const frozen = await stripeErrorOf(stripe.invoiceItems.update(item.id, { quantity: 1 }));
    expect(frozen.statusCode).toBe(400);
    const late = await stripeErrorOf(stripe.invoiceItems.create({ customer: "cus_alice", invoice: draft.id, amount: 5, currency: "usd" }));
    expect(late).toMatchObject({ statusCode: 400, param: "invoice" });
    const events = await stripe.events.list({ type: "invoiceitem.*" });
    expect(events.data.map((e) => e.type).sort()).toEqual(["invoiceitem.created", "invoiceitem.created", "invoiceitem.deleted"]);
  });
});

describe("Stripe's amount rules", () => {
  it("refuses amount with quantity, a recurring price, a missing amount and an unknown customer", async () => {
    const { stripe } = await stripeSandbox();
    const both = await stripeErrorOf(stripe.invoiceItems.create({ customer: "cus_bob", amount: 100, quantity: 2, currency: "usd" }));
    expect(both).toMatchObject({ statusCode: 400, message: "You may only specify one of these parameters: amount, quantity." });
    const recurring = await stripeErrorOf(stripe.invoiceItems.create({ customer: "cus_bob", pricing: { price: "price_pro_monthly" } }));
    expect(recurring).toMatchObject({ statusCode: 400, param: "pricing[price]" });
    const nothing = await stripeErrorOf(stripe.invoiceItems.create({ customer: "cus_bob", currency: "usd" }));
    expect(nothing).toMatchObject({ statusCode: 400, param: "amount" });
    const ghost = await stripeErrorOf(stripe.invoiceItems.create({ customer: "cus_ghost", amount: 100, currency: "usd" }));
    expect(ghost).toMatchObject({ statusCode: 404, param: "customer" });
    expect((await stripe.invoiceItems.list()).data).toHaveLength(0);
  });

  it("accepts the older `price` parameter as the official MCP tool sends it", async () => {
    const { sandbox, stripe } = await stripeSandbox();
    const price = await oneOffPrice(stripe, 900);
    const { SELF } = await import("cloudflare:test");
    const res = await SELF.fetch(`${sandbox.per_twin.stripe.api_url}/v1/invoiceitems`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${sandbox.provider_credentials.stripe.token}`,
        "content-type": "application/x-www-form-urlencoded",
      },
      body: new URLSearchParams({ customer: "cus_bob", price: price.id, quantity: "2" }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ amount: 1800, pricing: { price_details: { price: price.id } } });
  });
});

describe("an invoice sent for payment by email, as Stripe's invoicing guide sends it", () => {
  it("sends a finalized send_invoice invoice (invoice.sent; test mode emails no one) and refuses a draft", async () => {
    const { stripe } = await stripeSandbox();
    await stripe.invoiceItems.create({ customer: "cus_carol", amount: 2500, currency: "usd", description: "Consulting" });
    const draft = await stripe.invoices.create({
      customer: "cus_carol",
      collection_method: "send_invoice",
      days_until_due: 30,
      pending_invoice_items_behavior: "include",
    });
    const early = await stripeErrorOf(stripe.invoices.sendInvoice(draft.id));
    expect(early).toMatchObject({ statusCode: 400, type: "StripeInvalidRequestError" });
    expect((await stripe.events.list({ type: "invoice.sent" })).data).toHaveLength(0);
    await stripe.invoices.finalizeInvoice(draft.id);
    const sent = await stripe.invoices.sendInvoice(draft.id);
    expect(sent).toMatchObject({ id: draft.id, status: "open", amount_due: 2500, collection_method: "send_invoice" });
    const events = (await stripe.events.list({ type: "invoice.sent" })).data;
    expect(events.map((e) => (e.data.object as Stripe.Invoice).id)).toEqual([draft.id]);
  });
});
