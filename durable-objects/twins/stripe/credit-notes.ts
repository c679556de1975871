// Credit notes as plain functions (stripe-node 23's CreditNote and CreditNoteLineItem): what a
// credit note on a finalized invoice comes to, how much of it lowers what is still owed
// (pre-payment) and how much is given back after payment (post-payment: a refund, a credit to the
// customer's balance, or outside Stripe), and the invoice's totals following it.
//
// Stripe's rules (docs.stripe.com/api/credit_notes/create, API 2025-11-17): a credit note first
// reduces the invoice's amount_remaining, not below zero (`pre_payment_amount`); the rest is
// `post_payment_amount`, and the refunds, customer balance credit and out-of-band amount given
// must add up to it exactly (required since 2019-12-03).
import type { Call } from "./call";
import { fail, invalidRequest, missingParam, noSuch, stateError } from "./errors";
import { changed, emit } from "./events";
import { addTxn } from "./money";
import { buildRefund, formatAmount } from "./objects";
import type { Params } from "./params";
import { linesOf } from "./seed";
import { getObject, idBody, insertObject, liveOfType, newId, num, rec, saveObject, type Rec } from "./store";

export function buildCreditNote(r: Rec, m: { id: string; created: number }): Rec {
  return {
    id: m.id,
    object: "credit_note",
    amount: 0,
    amount_shipping: 0,
    created: m.created,
    currency: "usd",
    customer: "",
    customer_account: null,
    customer_balance_transaction: null,
    discount_amount: 0,
    discount_amounts: [],
    effective_at: m.created,
    invoice: "",
    livemode: false,
    memo: null,
    metadata: {},
    number: "",
    out_of_band_amount: null,
    pdf: `https://pay.stripe.com/credit_notes/${m.id}/pdf`,
    post_payment_amount: 0,
    pre_payment_amount: 0,
    pretax_credit_amounts: [],
    reason: null,
    refunds: [],
    shipping_cost: null,
    status: "issued",
    subtotal: 0,
    subtotal_excluding_tax: 0,
    total: 0,
    total_excluding_tax: 0,
    total_taxes: [],
    type: "pre_payment",
    voided_at: null,
    ...r,
  };
}

function creditLine(r: Rec, id: string): Rec {
  return {
    id,
    object: "credit_note_line_item",
    amount: 0,
    description: null,
    discount_amount: 0,
    discount_amounts: [],
    livemode: false,
    metadata: {},
    pretax_credit_amounts: [],
    quantity: null,
    tax_rates: [],
    taxes: [],
    type: "custom_line_item",
    unit_amount: null,
    unit_amount_decimal: null,
    ...r,
  };
}

/** The credit note's lines from `lines[]`: credits against the invoice's own lines or custom ones. */
function linesFrom(inv: Rec, list: readonly Params[], idFor: (i: number) => string): Rec[] {
  const invoiceLines = linesOf(inv);
  return list.map((lp, i) => {
    const type = lp.oneOf("type", ["invoice_line_item", "custom_line_item"]) ?? fail(missingParam(`lines[${i}][type]`));
    const quantity = lp.int("quantity");
    if (type === "custom_line_item") {
      const unit = lp.int("unit_amount") ?? fail(missingParam(`lines[${i}][unit_amount]`));
      const q = quantity ?? 1;
      return creditLine(
        {
          amount: unit * q,
          description: lp.req("description"),
          quantity: q,
          unit_amount: unit,
          unit_amount_decimal: String(unit),
          metadata: lp.metadata(),
        },
        idFor(i),
      );
    }
    const lineId = lp.req("invoice_line_item");
    const line = invoiceLines.find((l) => l.id === lineId) ?? fail(noSuch("invoice line item", lineId, `lines[${i}][invoice_line_item]`));
    const lineQuantity = num(line.quantity) ?? 1;
    const unit = lineQuantity ? Math.round((num(line.amount) ?? 0) / lineQuantity) : 0;
    const amount = lp.int("amount") ?? (quantity !== undefined ? unit * quantity : (num(line.amount) ?? 0));
    if (amount > (num(line.amount) ?? 0))
      fail(invalidRequest(`The credit note line amount cannot exceed the invoice line item's amount.`, { param: `lines[${i}][amount]` }));
    return creditLine(
      {
        amount,
        description: line.description ?? null,
        invoice_line_item: line.id,
        quantity: quantity ?? lineQuantity,
        type,
        unit_amount: unit,
        unit_amount_decimal: String(unit),
        metadata: lp.metadata(),
      },
      idFor(i),
    );
  });
}

/** What an invoice can still be credited: its total less the credit notes issued on it. */
export const creditable = (inv: Rec): number =>
  (num(inv.total) ?? 0) - (num(inv.pre_payment_credit_notes_amount) ?? 0) - (num(inv.post_payment_credit_notes_amount) ?? 0);

/** A credit note as the call describes it, written nowhere yet (create and preview share it). */
export interface DraftCreditNote {
  note: Rec;
  /** How the post-payment part is given back: refunded to the card, credited to the balance. */
  refund: number;
  credit: number;
}

export function draftCreditNote(c: Call, inv: Rec, id: string): DraftCreditNote {
  if (inv.status !== "open" && inv.status !== "paid")
    fail(
      stateError(
        `You can only create a credit note for an invoice that is open or paid; this invoice is ${String(inv.status)}.`,
        "invoice_not_editable",
        "invoice",
      ),
    );
  const list = c.p.list("lines") ?? [];
  const lines = linesFrom(inv, list, (i) => `cnli_${idBody(`${id}:line:${i}`)}`);
  const sum = lines.reduce((s, l) => s + (num(l.amount) ?? 0), 0);
  const given = c.p.int("amount");
  if (given === undefined && !lines.length) fail(missingParam("amount"));
  if (given !== undefined && lines.length && given !== sum)
    fail(invalidRequest(`The credit note amount (${given}) must equal the sum of its lines (${sum}).`, { param: "amount" }));
  const amount = given ?? sum;
  const currency = String(inv.currency);
  if (amount <= 0) fail(invalidRequest("The credit note amount must be greater than 0.", { param: "amount" }));
  if (amount > creditable(inv))
    fail(
      invalidRequest(
        `The credit note amount (${formatAmount(amount, currency)}) exceeds the invoice's remaining creditable amount (${formatAmount(creditable(inv), currency)}).`,
        { param: "amount" },
      ),
    );
  const pre = inv.status === "open" ? Math.min(amount, num(inv.amount_remaining) ?? 0) : 0;
  const post = amount - pre;
  const refund = c.p.int("refund_amount") ?? 0;
  const credit = c.p.int("credit_amount") ?? 0;
  const outOfBand = c.p.int("out_of_band_amount");
  if (refund + credit + (outOfBand ?? 0) !== post)
    fail(
      invalidRequest(
        `The sum of credit amount, refund amount and out of band amount (${formatAmount(refund + credit + (outOfBand ?? 0), currency)}) must equal the credit note's post-payment amount (${formatAmount(post, currency)}).`,
        { param: post ? "refund_amount" : "amount" },
      ),
    );
  const count = liveOfType(c.db, "credit_note", { column: "ref", value: String(inv.id) }).length + 1;
  const note = buildCreditNote(
    {
      amount,
      currency,
      customer: inv.customer,
      effective_at: c.p.int("effective_at") ?? c.now,
      invoice: inv.id,
      lines: { object: "list", data: lines, has_more: false, total_count: lines.length, url: `/v1/credit_notes/${id}/lines` },
      memo: c.p.str("memo") ?? null,
      metadata: c.p.metadata(),
      number: `${String(inv.number ?? inv.id)}-CN-${String(count).padStart(2, "0")}`,
      out_of_band_amount: outOfBand ?? null,
      post_payment_amount: post,
      pre_payment_amount: pre,
      reason: c.p.oneOf("reason", ["duplicate", "fraudulent", "order_change", "product_unsatisfactory"]) ?? null,
      subtotal: amount,
      subtotal_excluding_tax: amount,
      total: amount,
      total_excluding_tax: amount,
      type: pre && post ? "mixed" : post ? "post_payment" : "pre_payment",
    },
    { id, created: c.now },
  );
  return { note, refund, credit };
}

/** The card payment an invoice was paid with: its charge, refunded by a credit note's refund_amount. */
function chargeOfInvoice(c: Call, inv: Rec): Rec | undefined {
  const payment = liveOfType(c.db, "invoice_payment", { column: "ref", value: String(inv.id) }).find((p) => p.status === "paid");
  const pi = getObject(c.db, "payment_intent", String(rec(payment?.payment).payment_intent));
  return getObject(c.db, "charge", String(pi?.latest_charge));
}

/** Refunds `amount` of the invoice's charge, as POST /v1/refunds would. */
export function refundInvoice(c: Call, inv: Rec, amount: number): Rec {
  const charge = chargeOfInvoice(c, inv);
  const left = (num(charge?.amount_captured) ?? 0) - (num(charge?.amount_refunded) ?? 0);
  if (!charge || left < amount)
    return fail(invalidRequest("The invoice has no card payment left to refund this amount from.", { param: "refund_amount" }));
  const id = newId(c.db, "refund");
  const currency = String(charge.currency);
  const txn = addTxn(c, { amount: -amount, fee: 0, currency, type: "refund", reporting_category: "refund", source: id });
  const refund = buildRefund(
    {
      amount,
      balance_transaction: txn,
      charge: charge.id,
      currency,
      customer: charge.customer ?? null,
      payment_intent: charge.payment_intent ?? null,
      payment_method: charge.payment_method ?? null,
    },
    { id, created: c.now },
  );
  insertObject(c.db, "refund", refund);
  const refunded = (num(charge.amount_refunded) ?? 0) + amount;
  const nextCharge = { ...charge, amount_refunded: refunded, refunded: refunded >= (num(charge.amount_captured) ?? 0) };
  saveObject(c.db, "charge", nextCharge);
  emit(c, "refund.created", "refund", refund);
  emit(c, "charge.refunded", "charge", nextCharge, changed(charge, nextCharge));
  return refund;
}
