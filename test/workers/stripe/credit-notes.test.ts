// Credit notes as Stripe's guide issues them, through stripe-node: on an open invoice they lower
// what is owed; on a paid one they are refunded, credited to the customer's balance or given back
// outside Stripe, and the invoice's credit note amounts follow.
import type Stripe from "stripe";
import { describe, expect, it } from "vitest";
import { stripeErrorOf, stripeSandbox } from "./fixtures";

async function openInvoice(stripe: Stripe, amount = 10000): Promise<Stripe.Invoice> {
  const draft = await stripe.invoices.create({ customer: "cus_carol", collection_method: "send_invoice", days_until_due: 30 });
  await stripe.invoices.addLines(draft.id, { lines: [{ amount, description: "Consulting" }] });
  return stripe.invoices.finalizeInvoice(draft.id);
}

describe("a credit note on an open invoice lowers what is still owed", () => {
  it("is pre-payment, moves amount_due and amount_remaining, and lists with its lines", async () => {
    const { stripe } = await stripeSandbox();
    const inv = await openInvoice(stripe);
    const line = inv.lines.data[0];
    const preview = await stripe.creditNotes.preview({
      invoice: inv.id,
      lines: [{ type: "invoice_line_item", invoice_line_item: line.id, amount: 2500 }],
    });
    expect(preview).toMatchObject({ object: "credit_note", amount: 2500, pre_payment_amount: 2500, post_payment_amount: 0 });
    expect((await stripe.creditNotes.list({ invoice: inv.id })).data).toHaveLength(0);

    const note = await stripe.creditNotes.create({
      invoice: inv.id,
      lines: [{ type: "invoice_line_item", invoice_line_item: line.id, amount: 2500 }],
      reason: "order_change",
      memo: "Two hours were not worked",
    });
    expect(note).toMatchObject({
      status: "issued",
      amount: 2500,
      type: "pre_payment",
      pre_payment_amount: 2500,
      customer: "cus_carol",
      invoice: inv.id,
      reason: "order_change",
    });
    expect(note.number).toBe(`${inv.number}-CN-01`);
    const after = await stripe.invoices.retrieve(inv.id);
    expect(after).toMatchObject({
      status: "open",
      total: 10000,
      pre_payment_credit_notes_amount: 2500,
      amount_due: 7500,
      amount_remaining: 7500,
    });
    const lines = await stripe.creditNotes.listLineItems(note.id);
    expect(lines.data[0]).toMatchObject({ object: "credit_note_line_item", amount: 2500, invoice_line_item: line.id });
    expect((await stripe.creditNotes.list({ customer: "cus_carol" })).data.map((n) => n.id)).toEqual([note.id]);
    const events = await stripe.events.list({ type: "credit_note.created" });
    expect(events.data[0].data.object).toMatchObject({ id: note.id });

    const voided = await stripe.creditNotes.voidCreditNote(note.id);
    expect(voided).toMatchObject({ status: "void" });
    expect(await stripe.invoices.retrieve(inv.id)).toMatchObject({ pre_payment_credit_notes_amount: 0, amount_remaining: 10000 });
  });

  it("crediting the whole remainder marks the invoice paid", async () => {
    const { stripe } = await stripeSandbox();
    const inv = await openInvoice(stripe, 4000);
    await stripe.creditNotes.create({ invoice: inv.id, amount: 4000 });
    expect(await stripe.invoices.retrieve(inv.id)).toMatchObject({
      status: "paid",
      amount_remaining: 0,
      pre_payment_credit_notes_amount: 4000,
    });
  });
});

describe("a credit note on a paid invoice gives money back", () => {
  it("refunds part to the card and credits the rest to the customer's balance", async () => {
    const { stripe } = await stripeSandbox();
    const draft = await stripe.invoices.create({ customer: "cus_carol" });
    await stripe.invoices.addLines(draft.id, { lines: [{ amount: 6000, description: "Annual audit" }] });
    const paid = await stripe.invoices.pay(draft.id);
    expect(paid.status).toBe("paid");
    const note = await stripe.creditNotes.create({ invoice: paid.id, amount: 3000, refund_amount: 1000, credit_amount: 2000 });
    expect(note).toMatchObject({ type: "post_payment", post_payment_amount: 3000, pre_payment_amount: 0 });
    expect(note.refunds[0]).toMatchObject({ amount_refunded: 1000, type: "refund" });
    const refund = await stripe.refunds.retrieve(String(note.refunds[0].refund));
    expect(refund).toMatchObject({ amount: 1000, status: "succeeded" });
    expect((await stripe.customers.retrieve("cus_carol")) as Stripe.Customer).toMatchObject({ balance: -2000 });
    const txn = await stripe.customers.retrieveBalanceTransaction("cus_carol", String(note.customer_balance_transaction));
    expect(txn).toMatchObject({ type: "credit_note", amount: -2000, ending_balance: -2000, credit_note: note.id });
    expect(await stripe.invoices.retrieve(paid.id)).toMatchObject({
      status: "paid",
      post_payment_credit_notes_amount: 3000,
      amount_remaining: 0,
    });
  });

  it("refuses amounts that do not add up, a draft invoice, and more than the invoice is worth", async () => {
    const { stripe } = await stripeSandbox();
    const draft = await stripe.invoices.create({ customer: "cus_carol" });
    await stripe.invoices.addLines(draft.id, { lines: [{ amount: 5000, description: "Work" }] });
    const onDraft = await stripeErrorOf(stripe.creditNotes.create({ invoice: draft.id, amount: 100 }));
    expect(onDraft).toMatchObject({ statusCode: 400, param: "invoice" });
    const paid = await stripe.invoices.pay(draft.id);
    const unsplit = await stripeErrorOf(stripe.creditNotes.create({ invoice: paid.id, amount: 1000 }));
    expect(unsplit.statusCode).toBe(400);
    expect(unsplit.message).toMatch(/must equal/);
    const tooMuch = await stripeErrorOf(stripe.creditNotes.create({ invoice: paid.id, amount: 9000, out_of_band_amount: 9000 }));
    expect(tooMuch).toMatchObject({ statusCode: 400, param: "amount" });
    const ghost = await stripeErrorOf(stripe.creditNotes.create({ invoice: "in_ghost", amount: 1 }));
    expect(ghost).toMatchObject({ statusCode: 404, param: "invoice" });
    expect((await stripe.creditNotes.list()).data).toHaveLength(0);
  });
});
