// Billing upkeep through stripe-node: invoices edited, deleted and marked uncollectible, invoice
// payments read one by one, credit notes edited and previewed line by line, Checkout Sessions and
// subscription schedules edited, test clocks listed, read and deleted. Each checks the answer, its
// effect read back through another call, and a refusal in Stripe's error shape.
import type Stripe from "stripe";
import { describe, expect, it } from "vitest";
import { stripeErrorOf, stripeSandbox } from "./fixtures";

const DAY = 86400;
const START = 1_780_000_000;

async function draftInvoice(stripe: Stripe, amount = 10_000): Promise<Stripe.Invoice> {
  const draft = await stripe.invoices.create({ customer: "cus_carol", collection_method: "send_invoice", days_until_due: 30 });
  return stripe.invoices.addLines(draft.id, { lines: [{ amount, description: "Consulting" }] });
}

describe("invoices", () => {
  it("invoices.update edits a draft fully; once finalized its collection_method is no longer editable", async () => {
    const { stripe } = await stripeSandbox();
    const draft = await draftInvoice(stripe);
    const updated = await stripe.invoices.update(draft.id, {
      description: "March consulting",
      footer: "Thank you",
      metadata: { po: "PO-9" },
      days_until_due: 14,
      auto_advance: false,
    });
    expect(updated).toMatchObject({
      id: draft.id,
      object: "invoice",
      status: "draft",
      description: "March consulting",
      footer: "Thank you",
      metadata: { po: "PO-9" },
      collection_method: "send_invoice",
      auto_advance: false,
      total: 10_000,
    });
    expect(await stripe.invoices.retrieve(draft.id)).toMatchObject({ description: "March consulting", footer: "Thank you" });
    expect((await stripe.events.list({ type: "invoice.updated" })).data[0].data.object).toMatchObject({ id: draft.id });
    // The invoice object has no days_until_due; finalizing dates it from the updated 14 days.
    const finalized = await stripe.invoices.finalizeInvoice(draft.id);
    expect(finalized.due_date).toBe(Number(finalized.status_transitions.finalized_at) + 14 * DAY);
    // "Once an invoice is finalized, monetary values, as well as collection_method, become
    // uneditable." (docs.stripe.com/api/invoices/update)
    const locked = await stripeErrorOf(stripe.invoices.update(draft.id, { collection_method: "charge_automatically" }));
    expect(locked).toMatchObject({ statusCode: 400, type: "StripeInvalidRequestError" });
    expect((await stripe.invoices.retrieve(draft.id)).collection_method).toBe("send_invoice");
    expect((await stripe.invoices.update(draft.id, { metadata: { paid_by: "wire" } })).metadata).toEqual({ po: "PO-9", paid_by: "wire" });
    expect((await stripeErrorOf(stripe.invoices.update("in_ghost", { description: "x" }))).code).toBe("resource_missing");
  });

  it("invoices.del deletes a draft for good and refuses a finalized invoice", async () => {
    const { stripe } = await stripeSandbox();
    const draft = await draftInvoice(stripe);
    const deleted = await stripe.invoices.del(draft.id);
    expect(deleted).toEqual({ id: draft.id, object: "invoice", deleted: true });
    expect((await stripeErrorOf(stripe.invoices.retrieve(draft.id))).code).toBe("resource_missing");
    expect((await stripe.invoices.list({ customer: "cus_carol" })).data.map((i) => i.id)).not.toContain(draft.id);
    expect((await stripe.events.list({ type: "invoice.deleted" })).data[0].data.object).toMatchObject({ id: draft.id });
    // "Permanently deletes a one-off invoice draft. This cannot be undone. Attempts to delete
    // invoices that are no longer in a draft state will fail" (docs.stripe.com/api/invoices/delete).
    const open = await stripe.invoices.finalizeInvoice((await draftInvoice(stripe)).id);
    const refused = await stripeErrorOf(stripe.invoices.del(open.id));
    expect(refused).toMatchObject({ statusCode: 400, type: "StripeInvalidRequestError" });
    expect((await stripe.invoices.retrieve(open.id)).status).toBe("open");
    expect((await stripeErrorOf(stripe.invoices.del(draft.id))).code).toBe("resource_missing");
  });

  it("invoices.markUncollectible moves an open invoice to uncollectible and refuses a draft", async () => {
    const { stripe } = await stripeSandbox();
    const open = await stripe.invoices.finalizeInvoice((await draftInvoice(stripe, 7000)).id);
    const marked = await stripe.invoices.markUncollectible(open.id);
    expect(marked).toMatchObject({ id: open.id, object: "invoice", status: "uncollectible", amount_due: 7000 });
    expect(marked.status_transitions.marked_uncollectible_at).toEqual(expect.any(Number));
    expect((await stripe.invoices.retrieve(open.id)).status).toBe("uncollectible");
    expect((await stripe.invoices.list({ status: "uncollectible" })).data.map((i) => i.id)).toEqual([open.id]);
    expect((await stripe.events.list({ type: "invoice.marked_uncollectible" })).data[0].data.object).toMatchObject({ id: open.id });
    const draft = await draftInvoice(stripe);
    const refused = await stripeErrorOf(stripe.invoices.markUncollectible(draft.id));
    expect(refused).toMatchObject({ statusCode: 400, type: "StripeInvalidRequestError" });
    expect((await stripe.invoices.retrieve(draft.id)).status).toBe("draft");
    expect((await stripeErrorOf(stripe.invoices.markUncollectible("in_ghost"))).code).toBe("resource_missing");
  });

  it("invoicePayments.retrieve reads the payment that paid an invoice, with its PaymentIntent", async () => {
    const { stripe } = await stripeSandbox();
    const sub = await stripe.subscriptions.create({ customer: "cus_bob", items: [{ price: "price_pro_monthly" }] });
    const invoiceId = String(sub.latest_invoice);
    const listed = await stripe.invoicePayments.list({ invoice: invoiceId });
    expect(listed.data).toHaveLength(1);
    const payment = await stripe.invoicePayments.retrieve(listed.data[0].id, { expand: ["payment.payment_intent"] });
    expect(payment).toMatchObject({
      id: listed.data[0].id,
      object: "invoice_payment",
      invoice: invoiceId,
      status: "paid",
      amount_paid: 2000,
      amount_requested: 2000,
      currency: "usd",
      is_default: true,
      payment: { type: "payment_intent" },
    });
    expect(payment.status_transitions.paid_at).toEqual(expect.any(Number));
    expect(payment.payment.payment_intent).toMatchObject({ object: "payment_intent", status: "succeeded", amount: 2000 });
    const missing = await stripeErrorOf(stripe.invoicePayments.retrieve("inpay_ghost"));
    expect(missing).toMatchObject({ statusCode: 404, type: "StripeInvalidRequestError", code: "resource_missing" });
  });
});

describe("credit notes", () => {
  it("creditNotes.update sets memo and metadata; amounts are not editable", async () => {
    const { stripe } = await stripeSandbox();
    const inv = await stripe.invoices.finalizeInvoice((await draftInvoice(stripe)).id);
    const note = await stripe.creditNotes.create({ invoice: inv.id, amount: 1000, memo: "first" });
    const updated = await stripe.creditNotes.update(note.id, { memo: "Discount for delay", metadata: { case: "42" } });
    expect(updated).toMatchObject({
      id: note.id,
      object: "credit_note",
      memo: "Discount for delay",
      metadata: { case: "42" },
      amount: 1000,
    });
    expect(await stripe.creditNotes.retrieve(note.id)).toMatchObject({ memo: "Discount for delay", metadata: { case: "42" } });
    // Only memo and metadata are update parameters (docs.stripe.com/api/credit_notes/update).
    const amount = await stripeErrorOf(stripe.creditNotes.update(note.id, { amount: 5 } as Stripe.CreditNoteUpdateParams));
    expect(amount).toMatchObject({ statusCode: 400, code: "parameter_unknown", param: "amount" });
    expect((await stripeErrorOf(stripe.creditNotes.update("cn_ghost", { memo: "x" }))).code).toBe("resource_missing");
  });

  it("creditNotes.listPreviewLineItems lists the lines the preview would credit, paged, issuing nothing", async () => {
    const { stripe } = await stripeSandbox();
    const draft = await stripe.invoices.create({ customer: "cus_carol", collection_method: "send_invoice", days_until_due: 30 });
    await stripe.invoices.addLines(draft.id, {
      lines: [
        { amount: 6000, description: "Design" },
        { amount: 4000, description: "Build" },
      ],
    });
    const inv = await stripe.invoices.finalizeInvoice(draft.id);
    const [design, build] = inv.lines.data;
    const params = {
      invoice: inv.id,
      lines: [
        { type: "invoice_line_item" as const, invoice_line_item: design.id, amount: 1500 },
        { type: "invoice_line_item" as const, invoice_line_item: build.id, amount: 500 },
      ],
    };
    const lines = await stripe.creditNotes.listPreviewLineItems(params);
    expect(lines).toMatchObject({ object: "list", url: "/v1/credit_notes/preview/lines", has_more: false });
    expect(lines.data).toHaveLength(2);
    expect(lines.data[0]).toMatchObject({
      object: "credit_note_line_item",
      type: "invoice_line_item",
      invoice_line_item: design.id,
      amount: 1500,
    });
    expect(lines.data[1]).toMatchObject({ invoice_line_item: build.id, amount: 500 });
    const firstPage = await stripe.creditNotes.listPreviewLineItems({ ...params, limit: 1 });
    expect(firstPage.data.map((l) => l.amount)).toEqual([1500]);
    expect(firstPage.has_more).toBe(true);
    // A preview issues nothing: the invoice and its credit notes are unchanged.
    expect((await stripe.creditNotes.list({ invoice: inv.id })).data).toHaveLength(0);
    expect((await stripe.invoices.retrieve(inv.id)).amount_remaining).toBe(10_000);
    const noInvoice = await stripeErrorOf(stripe.creditNotes.listPreviewLineItems({} as Stripe.CreditNoteListPreviewLineItemsParams));
    expect(noInvoice).toMatchObject({ statusCode: 400, type: "StripeInvalidRequestError", param: "invoice" });
    const ghost = await stripeErrorOf(stripe.creditNotes.listPreviewLineItems({ invoice: "in_ghost" }));
    expect(ghost).toMatchObject({ statusCode: 404, code: "resource_missing" });
  });
});

describe("Checkout Sessions", () => {
  it("checkout.sessions.update sets an open session's metadata", async () => {
    const { stripe } = await stripeSandbox();
    const session = await stripe.checkout.sessions.create({
      mode: "payment",
      line_items: [{ price_data: { currency: "usd", unit_amount: 1500, product_data: { name: "Mug" } }, quantity: 1 }],
      success_url: "https://shop.example/ok",
      metadata: { order: "7" },
    });
    const updated = await stripe.checkout.sessions.update(session.id, { metadata: { order: "7", gift: "yes" } });
    expect(updated).toMatchObject({
      id: session.id,
      object: "checkout.session",
      status: "open",
      metadata: { order: "7", gift: "yes" },
      amount_total: 1500,
    });
    expect((await stripe.checkout.sessions.retrieve(session.id)).metadata).toEqual({ order: "7", gift: "yes" });
    // The mode is fixed at creation: not an update parameter (docs.stripe.com/api/checkout/sessions/update).
    const mode = await stripeErrorOf(stripe.checkout.sessions.update(session.id, { mode: "setup" } as Stripe.Checkout.SessionUpdateParams));
    expect(mode).toMatchObject({ statusCode: 400, code: "parameter_unknown", param: "mode" });
    const missing = await stripeErrorOf(stripe.checkout.sessions.update("cs_test_ghost", { metadata: {} }));
    expect(missing).toMatchObject({ statusCode: 404, type: "StripeInvalidRequestError", code: "resource_missing" });
  });
});

describe("subscription schedules", () => {
  it("subscriptionSchedules.update replaces the phases from the current one and changes end_behavior and metadata", async () => {
    const { stripe } = await stripeSandbox();
    const clock = await stripe.testHelpers.testClocks.create({ frozen_time: START });
    const customer = await stripe.customers.create({ email: "sched@example.com", test_clock: clock.id });
    const pm = await stripe.paymentMethods.attach("pm_card_visa", { customer: customer.id });
    await stripe.customers.update(customer.id, { invoice_settings: { default_payment_method: pm.id } });
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
      phases: [{ items: [{ price: "price_pro_monthly", quantity: 1 }], duration: { interval: "month", interval_count: 1 } }],
    });
    // The first phase of an update carries its start_date ("Must be set on the first phase",
    // stripe-node SubscriptionScheduleUpdateParams.Phase.start_date).
    const updated = await stripe.subscriptionSchedules.update(sched.id, {
      end_behavior: "cancel",
      metadata: { plan: "upgrade" },
      proration_behavior: "none",
      phases: [
        {
          start_date: sched.phases[0].start_date,
          items: [{ price: premium.id, quantity: 2 }],
          duration: { interval: "month", interval_count: 1 },
        },
        { items: [{ price: "price_pro_monthly", quantity: 1 }], duration: { interval: "month", interval_count: 2 } },
      ],
    });
    expect(updated).toMatchObject({
      id: sched.id,
      object: "subscription_schedule",
      status: "active",
      end_behavior: "cancel",
      metadata: { plan: "upgrade" },
    });
    expect(updated.phases).toHaveLength(2);
    expect(updated.phases[0]).toMatchObject({ start_date: START, items: [{ price: premium.id, quantity: 2 }] });
    expect(updated.phases[1].start_date).toBe(updated.phases[0].end_date);
    const sub = await stripe.subscriptions.retrieve(String(sched.subscription));
    expect(sub.items.data.map((i) => [i.price.id, i.quantity])).toEqual([[premium.id, 2]]);
    expect((await stripe.subscriptionSchedules.retrieve(sched.id)).end_behavior).toBe("cancel");
    await stripe.subscriptionSchedules.cancel(sched.id);
    const ended = await stripeErrorOf(stripe.subscriptionSchedules.update(sched.id, { metadata: { a: "b" } }));
    expect(ended).toMatchObject({ statusCode: 400, type: "StripeInvalidRequestError" });
    expect((await stripeErrorOf(stripe.subscriptionSchedules.update("sub_sched_ghost", { metadata: {} }))).code).toBe("resource_missing");
  });
});

describe("test clocks", () => {
  it("testHelpers.testClocks.list and retrieve read clocks newest first, ready at their frozen time", async () => {
    const { stripe } = await stripeSandbox();
    const first = await stripe.testHelpers.testClocks.create({ frozen_time: START, name: "first" });
    const second = await stripe.testHelpers.testClocks.create({ frozen_time: START + DAY, name: "second" });
    const listed = await stripe.testHelpers.testClocks.list();
    expect(listed).toMatchObject({ object: "list", url: "/v1/test_helpers/test_clocks", has_more: false });
    expect(listed.data.map((c) => c.id)).toEqual([second.id, first.id]);
    const page = await stripe.testHelpers.testClocks.list({ limit: 1 });
    expect(page.data.map((c) => c.id)).toEqual([second.id]);
    expect(page.has_more).toBe(true);
    await stripe.testHelpers.testClocks.advance(first.id, { frozen_time: START + 3 * DAY });
    const read = await stripe.testHelpers.testClocks.retrieve(first.id);
    expect(read).toMatchObject({
      id: first.id,
      object: "test_helpers.test_clock",
      name: "first",
      frozen_time: START + 3 * DAY,
      status: "ready",
    });
    expect(read.deletes_after).toEqual(expect.any(Number));
    const missing = await stripeErrorOf(stripe.testHelpers.testClocks.retrieve("clock_ghost"));
    expect(missing).toMatchObject({ statusCode: 404, type: "StripeInvalidRequestError", code: "resource_missing" });
  });

  it("testHelpers.testClocks.del deletes the clock and the customers on it", async () => {
    const { stripe } = await stripeSandbox();
    const clock = await stripe.testHelpers.testClocks.create({ frozen_time: START });
    const onClock = await stripe.customers.create({ email: "clocked@example.com", test_clock: clock.id });
    const deleted = await stripe.testHelpers.testClocks.del(clock.id);
    expect(deleted).toEqual({ id: clock.id, object: "test_helpers.test_clock", deleted: true });
    expect((await stripeErrorOf(stripe.testHelpers.testClocks.retrieve(clock.id))).code).toBe("resource_missing");
    expect((await stripe.testHelpers.testClocks.list()).data).toHaveLength(0);
    // "Deletes a test clock." Its customers go with it (docs.stripe.com/billing/testing/test-clocks#delete).
    expect(await stripe.customers.retrieve(onClock.id)).toMatchObject({ id: onClock.id, deleted: true });
    expect(await stripe.customers.retrieve("cus_alice")).toMatchObject({ id: "cus_alice", email: "alice@example.com" });
    expect((await stripeErrorOf(stripe.testHelpers.testClocks.del(clock.id))).code).toBe("resource_missing");
  });
});
