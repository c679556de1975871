// Billing as state functions: invoices made from subscription items or added lines, finalized
// and paid through a PaymentIntent on the customer's card, and subscriptions renewed cycle by
// cycle when their clock (the sandbox's, or a test clock) passes the end of a period.
import type { Call } from "./call";
import { fail, invalidRequest } from "./errors";
import { changed, emit } from "./events";
import { cardError, makeCharge, resolvePaymentMethod } from "./money";
import { buildInvoice, buildInvoicePayment, buildLine, buildPaymentIntent, invoiceTotals } from "./objects";
import { linesOf } from "./seed";
import { arr, getObject, insertObject, newId, num, rec, saveObject, str, type Rec } from "./store";
import type { TwinResponse } from "../types";
import { addInterval, asInterval } from "./time";
import { listEnvelope, subscriptionNow } from "./world";

/** The call seen at another moment: objects made for a test clock carry the clock's time. */
export const at = (c: Call, now: number): Call => ({ ...c, now });

export const nowFor = (c: Call, customer: unknown) => subscriptionNow(c.db, customer, { now: () => c.now * 1000 });

/** A line for `quantity` of a price over a period. */
export function priceLine(
  c: Call,
  invoice: string,
  price: Rec,
  quantity: number,
  period: { start: number; end: number },
  extra: Rec = {},
): Rec {
  const unit = num(price.unit_amount) ?? 0;
  return {
    ...buildLine(
      {
        quantity,
        amount: unit * quantity,
        description: `${quantity} × ${String(price.nickname ?? price.product)}`,
        pricing: { price_details: { price: price.id } },
        period,
        ...extra,
      },
      {
        id: `il_${newId(c.db, "invoiceitem").slice(3)}`,
        created: c.now,
        invoice,
        currency: String(price.currency),
        unitAmount: unit,
        product: str(price.product) ?? null,
      },
    ),
  };
}

/** Recomputes an invoice's totals from its lines, its subscription's discounts taken off. */
export function withTotals(c: Call, inv: Rec, lines: Rec[]): Rec {
  const totals = invoiceTotals(inv, lines);
  const subId = str(rec(rec(inv.parent).subscription_details).subscription);
  const sub = subId ? getObject(c.db, "subscription", subId) : undefined;
  const subtotal = num(totals.subtotal) ?? 0;
  const discounts: Rec[] = [];
  let off = 0;
  for (const d of arr(sub?.discounts).map(rec)) {
    const coupon = getObject(c.db, "coupon", String(rec(d.source).coupon));
    if (!coupon) continue;
    if (coupon.duration === "once" && inv.billing_reason !== "subscription_create") continue;
    const amount =
      num(coupon.percent_off) !== undefined && coupon.percent_off !== null
        ? Math.round(((subtotal - off) * (num(coupon.percent_off) ?? 0)) / 100)
        : Math.min(subtotal - off, num(coupon.amount_off) ?? 0);
    off += amount;
    discounts.push({ amount, discount: d.id });
  }
  const total = subtotal - off;
  const paid = inv.status === "paid" ? total : (num(inv.amount_paid) ?? 0);
  return {
    ...inv,
    ...totals,
    total,
    total_excluding_tax: total,
    amount_due: total,
    amount_paid: paid,
    amount_remaining: inv.status === "paid" || inv.status === "void" ? 0 : total - paid,
    total_discount_amounts: discounts,
    lines: listEnvelope(lines, `/v1/invoices/${String(inv.id)}/lines`),
  };
}

export function createInvoice(c: Call, fields: Rec, sub: Rec | undefined, lineFor: (invoiceId: string) => Rec[]): Rec {
  const id = newId(c.db, "invoice");
  const customer = getObject(c.db, "customer", String(fields.customer));
  const base = buildInvoice(
    {
      customer_email: customer?.email ?? null,
      customer_name: customer?.name ?? null,
      test_clock: customer?.test_clock ?? null,
      parent: sub
        ? { quote_details: null, subscription_details: { metadata: rec(sub.metadata), subscription: sub.id }, type: "subscription_details" }
        : null,
      ...fields,
    },
    { id, created: c.now },
  );
  const inv = withTotals(c, base, lineFor(id));
  insertObject(c.db, "invoice", inv);
  emit(c, "invoice.created", "invoice", inv);
  return inv;
}

export function finalizeInvoice(c: Call, inv: Rec): Rec {
  const customer = getObject(c.db, "customer", String(inv.customer));
  const seq = num(customer?.next_invoice_sequence) ?? 1;
  if (customer) saveObject(c.db, "customer", { ...customer, next_invoice_sequence: seq + 1 });
  const next = {
    ...inv,
    status: "open",
    number: `${String(customer?.invoice_prefix ?? "INV")}-${String(seq).padStart(4, "0")}`,
    effective_at: c.now,
    hosted_invoice_url: `https://invoice.stripe.com/i/${String(inv.id)}`,
    invoice_pdf: `https://pay.stripe.com/invoice/${String(inv.id)}/pdf`,
    status_transitions: { ...rec(inv.status_transitions), finalized_at: c.now },
    due_date: inv.collection_method === "send_invoice" ? c.now + 86400 * (num(inv.days_until_due) ?? 30) : null,
  };
  const withAmounts = withTotals(c, next, linesOf(next));
  saveObject(c.db, "invoice", withAmounts);
  emit(c, "invoice.finalized", "invoice", withAmounts);
  return withAmounts;
}

function markPaid(c: Call, inv: Rec, outOfBand: boolean): Rec {
  const paid = {
    ...inv,
    status: "paid",
    attempted: !outOfBand || inv.attempted === true,
    amount_paid: inv.amount_due,
    amount_remaining: 0,
    status_transitions: { ...rec(inv.status_transitions), paid_at: c.now },
  };
  saveObject(c.db, "invoice", paid);
  emit(c, "invoice.paid", "invoice", paid);
  if (!outOfBand) emit(c, "invoice.payment_succeeded", "invoice", paid);
  return paid;
}

/** The card an invoice is charged to: the call's, the invoice's, its subscription's, then the customer's default. */
function paymentMethodFor(c: Call, inv: Rec, explicit: string | undefined): string | undefined {
  if (explicit) return explicit;
  const subId = str(rec(rec(inv.parent).subscription_details).subscription);
  const sub = subId ? getObject(c.db, "subscription", subId) : undefined;
  const customer = getObject(c.db, "customer", String(inv.customer));
  return str(inv.default_payment_method) ?? str(sub?.default_payment_method) ?? str(rec(customer?.invoice_settings).default_payment_method);
}

export const NO_PAYMENT_METHOD =
  "This customer has no attached payment source or default payment method. Please consider adding a default payment method. For more information, visit https://stripe.com/docs/billing/subscriptions/payment-methods-setting#payment-method-priority.";

/** The invoice's record of one payment attempt through a PaymentIntent. */
function recordPayment(c: Call, inv: Rec, pi: Rec, paid: boolean): void {
  insertObject(
    c.db,
    "invoice_payment",
    buildInvoicePayment(
      {
        amount_paid: paid ? pi.amount : null,
        amount_requested: pi.amount,
        currency: pi.currency,
        invoice: inv.id,
        payment: { payment_intent: pi.id, type: "payment_intent" },
        status: paid ? "paid" : "open",
        status_transitions: { canceled_at: null, paid_at: paid ? c.now : null },
      },
      { id: newId(c.db, "invoice_payment"), created: c.now },
    ),
  );
}

/** Pays an open invoice: nothing to pay marks it paid, else its card is charged through a PaymentIntent. */
export function payInvoice(
  c: Call,
  inv: Rec,
  opts: { paymentMethod?: string; outOfBand?: boolean } = {},
): { inv: Rec; error?: TwinResponse } {
  const due = num(inv.amount_due) ?? 0;
  if (due === 0 || opts.outOfBand) return { inv: markPaid(c, inv, opts.outOfBand === true) };
  const pmId = paymentMethodFor(c, inv, opts.paymentMethod);
  if (!pmId) return { inv, error: invalidRequest(NO_PAYMENT_METHOD) };
  const pm = resolvePaymentMethod(c, pmId, "payment_method");
  const pi = buildPaymentIntent(
    {
      amount: due,
      currency: inv.currency,
      customer: inv.customer,
      description:
        inv.billing_reason === "subscription_create"
          ? "Subscription creation"
          : inv.billing_reason === "subscription_cycle"
            ? "Subscription update"
            : null,
      payment_method: pm.id,
      status: "requires_confirmation",
      capture_method: "automatic",
    },
    { id: newId(c.db, "payment_intent"), created: c.now },
  );
  insertObject(c.db, "payment_intent", pi);
  const result = makeCharge(c, pi, pm, true);
  if (result.decline) {
    const failed = {
      ...pi,
      status: "requires_payment_method",
      latest_charge: result.charge.id,
      last_payment_error: { ...result.decline, type: "card_error", charge: result.charge.id },
    };
    saveObject(c.db, "payment_intent", failed);
    emit(c, "payment_intent.payment_failed", "payment_intent", failed);
    recordPayment(c, inv, failed, false);
    const attempted = { ...inv, attempted: true, attempt_count: (num(inv.attempt_count) ?? 0) + 1 };
    saveObject(c.db, "invoice", attempted);
    emit(c, "invoice.payment_failed", "invoice", attempted);
    return { inv: attempted, error: cardError(result.decline, { charge: result.charge.id, payment_intent: failed }) };
  }
  const succeeded = { ...pi, status: "succeeded", amount_received: due, latest_charge: result.charge.id };
  saveObject(c.db, "payment_intent", succeeded);
  emit(c, "payment_intent.succeeded", "payment_intent", succeeded);
  recordPayment(c, inv, succeeded, true);
  return { inv: markPaid(c, { ...inv, attempt_count: (num(inv.attempt_count) ?? 0) + 1 }, false) };
}

function itemList(sub: Rec): Rec[] {
  return arr(rec(sub.items).data).map(rec);
}

export function invoiceForSubscription(c: Call, sub: Rec, reason: string, zero: boolean): Rec {
  return createInvoice(
    c,
    {
      customer: sub.customer,
      currency: sub.currency,
      billing_reason: reason,
      collection_method: sub.collection_method,
      days_until_due: sub.days_until_due,
      period_start: c.now,
      period_end: c.now,
    },
    sub,
    (invoiceId) =>
      itemList(sub).map((it) => {
        const price = getObject(c.db, "price", String(it.price)) ?? {};
        const line = priceLine(
          c,
          invoiceId,
          price,
          num(it.quantity) ?? 1,
          { start: num(it.current_period_start) ?? c.now, end: num(it.current_period_end) ?? c.now },
          {
            subscription: sub.id,
            parent: {
              invoice_item_details: null,
              subscription_item_details: {
                invoice_item: null,
                proration: false,
                proration_details: { credited_items: null },
                subscription: sub.id,
                subscription_item: it.id,
              },
              type: "subscription_item_details",
            },
          },
        );
        return zero ? { ...line, amount: 0, subtotal: 0 } : line;
      }),
  );
}

/** Finalizes and, when collected automatically, pays a subscription's invoice; the subscription's status follows. */
export function collect(c: Call, sub: Rec, inv: Rec, failStatus: string): { sub: Rec; inv: Rec; error?: TwinResponse } {
  const open = finalizeInvoice(c, inv);
  if (sub.collection_method === "send_invoice") return { sub: { ...sub, latest_invoice: open.id }, inv: open };
  const paid = payInvoice(c, open);
  const status = paid.error ? failStatus : sub.status === "trialing" ? "trialing" : "active";
  return { sub: { ...sub, status, latest_invoice: paid.inv.id }, inv: paid.inv, error: paid.error };
}

/** Renews `sub` through every period that ends by `until` (its clock's time). */
export function renew(c0: Call, sub0: Rec, until: number): Rec {
  let sub = sub0;
  for (let guard = 0; guard < 1000; guard++) {
    if (!["active", "trialing", "past_due"].includes(String(sub.status))) break;
    const items = itemList(sub);
    const end = Math.min(...items.map((it) => num(it.current_period_end) ?? Number.POSITIVE_INFINITY));
    if (!Number.isFinite(end) || end > until) break;
    const c = at(c0, end);
    const before = sub;
    if (sub.cancel_at_period_end === true || (num(sub.cancel_at) ?? Number.POSITIVE_INFINITY) <= end) {
      sub = {
        ...sub,
        status: "canceled",
        canceled_at: num(sub.canceled_at) ?? end,
        ended_at: end,
        cancellation_details: { ...rec(sub.cancellation_details), reason: "cancellation_requested" },
      };
      saveObject(c.db, "subscription", sub);
      emit(c, "customer.subscription.deleted", "subscription", sub);
      break;
    }
    const trialOver = sub.status === "trialing" && (num(sub.trial_end) ?? 0) <= end;
    const nextItems = items.map((it) => {
      const price = getObject(c.db, "price", String(it.price));
      const r = rec(price?.recurring);
      return { ...it, current_period_start: end, current_period_end: addInterval(end, asInterval(r.interval), num(r.interval_count) ?? 1) };
    });
    sub = { ...sub, status: trialOver ? "active" : sub.status, items: { ...rec(sub.items), data: nextItems } };
    saveObject(c.db, "subscription", sub);
    const inv = invoiceForSubscription(c, sub, "subscription_cycle", sub.status === "trialing");
    const done = collect(c, sub, inv, "past_due");
    sub = done.sub;
    saveObject(c.db, "subscription", sub);
    emit(c, "customer.subscription.updated", "subscription", sub, changed(before, sub));
  }
  return sub;
}

export function requireRecurring(price: Rec, param: string): void {
  if (price.type !== "recurring")
    fail(
      invalidRequest("The price specified is set to `type=one_time` but this field only accepts prices with `type=recurring`.", { param }),
    );
}
