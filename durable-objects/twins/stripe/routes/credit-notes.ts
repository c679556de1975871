// Credit notes: issue one on a finalized invoice (preview it first), read, list, update its memo
// and metadata, list its lines, void it. The invoice's pre- and post-payment credit note amounts
// and amount_remaining follow each one, as do the refund and the customer's balance it gives.
import type { Route, TwinResponse } from "../../types";
import { filterOf, listResponse, load, ok, show, type Call } from "../call";
import { arg, expand, idParam, listQuery, metadata, route } from "../declare";
import { invalidRequest, stateError } from "../errors";
import { changed, emit } from "../events";
import { draftCreditNote, refundInvoice } from "../credit-notes";
import { recordBalanceChange } from "../customer-balance";
import { withTotals } from "../billing";
import { linesOf } from "../seed";
import { arr, getObject, idBody, insertObject, newId, num, rec, saveObject, str, strMap, type Rec } from "../store";

/** The invoice after credit notes moved its pre- and post-payment amounts by these. */
function creditInvoice(c: Call, inv: Rec, pre: number, post: number): Rec {
  const moved = {
    ...inv,
    pre_payment_credit_notes_amount: (num(inv.pre_payment_credit_notes_amount) ?? 0) + pre,
    post_payment_credit_notes_amount: (num(inv.post_payment_credit_notes_amount) ?? 0) + post,
  };
  // An invoice a credit note paid in part (less was paid than its total) is open again when that note is voided.
  const reopened = pre < 0 && inv.status === "paid" && (num(inv.amount_paid) ?? 0) < (num(inv.total) ?? 0);
  let after = withTotals(
    c,
    reopened ? { ...moved, status: "open", status_transitions: { ...rec(inv.status_transitions), paid_at: null } } : moved,
    linesOf(moved),
  );
  // An open invoice a credit note brings to nothing owed is paid.
  if (after.status === "open" && (num(after.amount_remaining) ?? 0) === 0)
    after = { ...after, status: "paid", status_transitions: { ...rec(after.status_transitions), paid_at: c.now } };
  saveObject(c.db, "invoice", after);
  emit(c, "invoice.updated", "invoice", after, changed(inv, after));
  if (after.status === "paid" && inv.status !== "paid") emit(c, "invoice.paid", "invoice", after);
  return after;
}

function issueCreditNote(c: Call): TwinResponse {
  const inv = load(c, "invoice", c.p.req("invoice"), "invoice");
  const id = newId(c.db, "credit_note");
  const { note, refund, credit } = draftCreditNote(c, inv, id);
  const refunds = refund
    ? [{ amount_refunded: refund, payment_record_refund: null, refund: refundInvoice(c, inv, refund).id, type: "refund" }]
    : [];
  const customer = getObject(c.db, "customer", String(inv.customer));
  const txn =
    credit && customer
      ? recordBalanceChange(c, customer, -credit, { type: "credit_note", credit_note: id, invoice: inv.id, currency: inv.currency })
      : undefined;
  const issued = { ...note, refunds, customer_balance_transaction: txn?.id ?? null };
  insertObject(c.db, "credit_note", issued);
  creditInvoice(c, inv, num(note.pre_payment_amount) ?? 0, num(note.post_payment_amount) ?? 0);
  emit(c, "credit_note.created", "credit_note", issued);
  return show(c, "credit_note", issued);
}

function voidCreditNote(c: Call): TwinResponse {
  const note = load(c, "credit_note", c.ctx.params.id);
  if (note.status !== "issued") return stateError("This credit note has already been voided.", "credit_note_already_voided");
  // A refund has left Stripe; voiding cannot bring it back.
  if (arr(note.refunds).length) return stateError("A credit note that refunded a payment cannot be voided.", "invalid_state");
  const txnId = str(note.customer_balance_transaction);
  const txn = txnId ? getObject(c.db, "customer_balance_transaction", txnId) : undefined;
  const customer = getObject(c.db, "customer", String(note.customer));
  if (txn && customer)
    recordBalanceChange(c, customer, -(num(txn.amount) ?? 0), {
      type: "credit_note",
      credit_note: note.id,
      invoice: note.invoice,
      currency: note.currency,
    });
  const inv = getObject(c.db, "invoice", String(note.invoice));
  if (inv) creditInvoice(c, inv, -(num(note.pre_payment_amount) ?? 0), -(num(note.post_payment_amount) ?? 0));
  const voided = { ...note, status: "void", voided_at: c.now };
  saveObject(c.db, "credit_note", voided);
  emit(c, "credit_note.voided", "credit_note", voided);
  return show(c, "credit_note", voided);
}

/** A preview: the credit note the same parameters would issue, written nowhere. */
function previewNote(c: Call): Rec {
  const inv = load(c, "invoice", c.p.req("invoice"), "invoice");
  const id = `cn_preview_${idBody(`preview:${String(inv.id)}:${c.ctx.req.query}`, 14)}`;
  return draftCreditNote(c, inv, id).note;
}

const linesPage = (c: Call, lines: Rec[], url: string): TwinResponse => {
  const limit = c.p.int("limit") ?? 10;
  if (limit < 1 || limit > 100)
    return invalidRequest("This value must be greater than or equal to 1 and less than or equal to 100.", { param: "limit" });
  const after = c.p.str("starting_after");
  const from = after ? lines.findIndex((l) => l.id === after) + 1 : 0;
  return ok({ object: "list", data: lines.slice(from, from + limit), has_more: from + limit < lines.length, url });
};

const noteParams = {
  invoice: arg.id("The finalized invoice credited, in_…"),
  amount: arg.int("The credit note's total in the smallest unit (or give lines)"),
  lines: arg.list(
    {
      type: arg.oneOf(["invoice_line_item", "custom_line_item"], "A credit against one of the invoice's lines, or a custom one"),
      invoice_line_item: arg.text("The invoice line credited, il_…"),
      amount: arg.int("Amount credited on that line"),
      quantity: arg.int("Quantity credited"),
      unit_amount: arg.int("Unit amount of a custom line"),
      description: arg.text("Description of a custom line"),
      metadata,
    },
    "The credit note's lines",
  ),
  reason: arg.oneOf(["duplicate", "fraudulent", "order_change", "product_unsatisfactory"], "Why the invoice is credited"),
  memo: arg.text("A note shown on the credit note"),
  metadata,
  refund_amount: arg.int("Part of the post-payment amount refunded to the invoice's card payment"),
  credit_amount: arg.int("Part of the post-payment amount credited to the customer's balance"),
  out_of_band_amount: arg.int("Part of the post-payment amount given back outside Stripe"),
  effective_at: arg.int("Unix time the credit note takes effect"),
  email_type: arg.oneOf(["credit_note", "none"], "Whether the customer is emailed"),
  expand,
};

export const creditNoteRoutes: readonly Route[] = [
  route({
    method: "GET",
    pattern: "/v1/credit_notes/preview",
    operation: "creditNotes.preview",
    summary: "Preview a credit note",
    query: noteParams,
    tool: { name: "preview_credit_note", description: "Preview the credit note these parameters would issue, without issuing it." },
    handler: (c) => show(c, "credit_note", previewNote(c)),
  }),
  route({
    method: "GET",
    pattern: "/v1/credit_notes/preview/lines",
    operation: "creditNotes.listPreviewLineItems",
    summary: "List a credit note preview's lines",
    query: { ...noteParams, limit: listQuery.limit, starting_after: listQuery.starting_after, ending_before: listQuery.ending_before },
    tool: { name: "list_credit_note_preview_lines", description: "List the lines of a credit note preview." },
    handler: (c) => linesPage(c, arr(rec(previewNote(c).lines).data).map(rec), "/v1/credit_notes/preview/lines"),
  }),
  route({
    method: "POST",
    pattern: "/v1/credit_notes",
    operation: "creditNotes.create",
    summary: "Issue a credit note",
    body: noteParams,
    tool: {
      name: "create_credit_note",
      description:
        "Credit a finalized invoice: on an open invoice it lowers what is owed; on a paid one give it back as refund_amount, credit_amount (customer balance) or out_of_band_amount.",
    },
    handler: (c) => issueCreditNote(c),
  }),
  route({
    method: "GET",
    pattern: "/v1/credit_notes",
    operation: "creditNotes.list",
    summary: "List credit notes",
    query: { ...listQuery, customer: arg.text("Only this customer's"), invoice: arg.text("Only this invoice's") },
    tool: { name: "list_credit_notes", description: "List credit notes, optionally a customer's or an invoice's." },
    handler: (c) =>
      listResponse(c, "credit_note", "/v1/credit_notes", [...filterOf(c, "customer", "customer"), ...filterOf(c, "invoice", "ref")]),
  }),
  route({
    method: "GET",
    pattern: "/v1/credit_notes/:id",
    operation: "creditNotes.retrieve",
    summary: "Retrieve a credit note",
    params: idParam("The credit note's id, cn_…"),
    query: { expand },
    tool: { name: "get_credit_note", description: "Retrieve a credit note." },
    handler: (c, { params }) => show(c, "credit_note", load(c, "credit_note", params.id)),
  }),
  route({
    method: "POST",
    pattern: "/v1/credit_notes/:id",
    operation: "creditNotes.update",
    summary: "Update a credit note",
    params: idParam("The credit note's id"),
    body: { memo: arg.text("A note shown on the credit note"), metadata, expand },
    tool: { name: "update_credit_note", description: "Update a credit note's memo or metadata." },
    handler(c, { params, body }) {
      const before = load(c, "credit_note", params.id);
      const after = { ...before, memo: body.memo ?? before.memo, metadata: c.p.metadata(strMap(before.metadata)) };
      saveObject(c.db, "credit_note", after);
      emit(c, "credit_note.updated", "credit_note", after, changed(before, after));
      return show(c, "credit_note", after);
    },
  }),
  route({
    method: "GET",
    pattern: "/v1/credit_notes/:id/lines",
    operation: "creditNotes.listLineItems",
    summary: "List a credit note's lines",
    params: idParam("The credit note's id"),
    query: listQuery,
    tool: { name: "list_credit_note_lines", description: "List a credit note's lines." },
    handler(c, { params }) {
      const note = load(c, "credit_note", params.id);
      return linesPage(c, arr(rec(note.lines).data).map(rec), `/v1/credit_notes/${String(note.id)}/lines`);
    },
  }),
  route({
    method: "POST",
    pattern: "/v1/credit_notes/:id/void",
    operation: "creditNotes.voidCreditNote",
    summary: "Void a credit note",
    params: idParam("The credit note's id"),
    body: { expand },
    tool: {
      name: "void_credit_note",
      description: "Void a credit note: the invoice and the customer's balance go back.",
      destructive: true,
    },
    handler: (c) => voidCreditNote(c),
  }),
];
