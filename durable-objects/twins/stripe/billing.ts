// Billing as state functions: invoices made from subscription items or added lines, finalized
// and paid through a PaymentIntent on the customer's card, and subscriptions renewed cycle by
// cycle when their clock (the sandbox's, or a test clock) passes the end of a period.
import type { Call } from "./call";
import { fail, invalidRequest } from "./errors";
import { changed, emit } from "./events";
import { cardError, makeCharge, resolvePaymentMethod } from "./money";
import { buildInvoice, buildInvoicePayment, buildLine, buildPaymentIntent, invoiceTotals } from "./objects";
import { billedQuantity, periodOf } from "./metered";
import { linesOf } from "./seed";
import { taxLines } from "./tax";
import { recordBalanceChange } from "./customer-balance";
import { claimItems, pendingItems } from "./invoice-items";
import { arr, getObject, insertObject, liveOfType, newId, num, rec, saveObject, str, type Rec } from "./store";
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
        // A meter's sum may be fractional; the line bills whole minor units.
        amount: Math.round(unit * quantity),
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

/** The discounts on an invoice: its subscription's, then its own (`discounts` on the invoice). */
function discountsOn(c: Call, inv: Rec): Rec[] {
  const subId = str(rec(rec(inv.parent).subscription_details).subscription);
  const sub = subId ? getObject(c.db, "subscription", subId) : undefined;
  return [...arr(sub?.discounts), ...arr(inv.discounts)].map(rec).filter((d) => typeof d.id === "string");
}

/** What the discounts take off `subtotal`, each coupon in turn, with each discount's amount. */
function discountAmounts(c: Call, inv: Rec, subtotal: number): { off: number; amounts: Rec[] } {
  const amounts: Rec[] = [];
  let off = 0;
  for (const d of discountsOn(c, inv)) {
    const coupon = getObject(c.db, "coupon", String(rec(d.source).coupon));
    if (!coupon) continue;
    if (coupon.duration === "once" && d.subscription && inv.billing_reason !== "subscription_create") continue;
    const amount =
      num(coupon.percent_off) !== undefined && coupon.percent_off !== null
        ? Math.round(((subtotal - off) * (num(coupon.percent_off) ?? 0)) / 100)
        : Math.min(subtotal - off, num(coupon.amount_off) ?? 0);
    off += amount;
    amounts.push({ amount, discount: d.id });
  }
  return { off, amounts };
}

/** An invoice's tax rates when a line names none: its own defaults, else its subscription's. */
function defaultRates(c: Call, inv: Rec): string[] {
  const own = arr(inv.default_tax_rates).map((t) => str(rec(t).id) ?? String(t));
  if (own.length) return own;
  const subId = str(rec(rec(inv.parent).subscription_details).subscription);
  const sub = subId ? getObject(c.db, "subscription", subId) : undefined;
  return arr(sub?.default_tax_rates).map((t) => str(rec(t).id) ?? String(t));
}

/**
 * Recomputes an invoice's totals from its lines: discounts off the subtotal, exclusive taxes on
 * top, then what the customer owes after their applied balance (starting_balance to
 * ending_balance) and the credit notes issued before payment.
 */
export function withTotals(c: Call, inv: Rec, rawLines: Rec[]): Rec {
  const totals = invoiceTotals(inv, rawLines);
  const subtotal = num(totals.subtotal) ?? 0;
  const { off, amounts } = discountAmounts(c, inv, subtotal);
  const taxed = taxLines(c, rawLines, defaultRates(c, inv), off);
  const total = subtotal - off + taxed.exclusive;
  const starting = num(inv.starting_balance) ?? 0;
  const ending = num(inv.ending_balance);
  const applied = ending === undefined ? 0 : starting - ending;
  const prePayment = num(inv.pre_payment_credit_notes_amount) ?? 0;
  const due = Math.max(0, total + applied - prePayment);
  const paid = inv.status === "paid" ? Math.max(num(inv.amount_paid) ?? 0, due) : (num(inv.amount_paid) ?? 0);
  return {
    ...inv,
    ...totals,
    total,
    total_excluding_tax: subtotal - off,
    total_taxes: taxed.totals,
    amount_due: due,
    amount_paid: paid,
    amount_remaining: inv.status === "paid" || inv.status === "void" ? 0 : Math.max(0, due - paid),
    total_discount_amounts: amounts,
    lines: listEnvelope(taxed.lines, `/v1/invoices/${String(inv.id)}/lines`),
  };
}

export function createInvoice(
  c: Call,
  fields: Rec,
  sub: Rec | undefined,
  lineFor: (invoiceId: string) => Rec[],
  more: (invoiceId: string) => Rec = () => ({}),
): Rec {
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
  const inv = withTotals(c, { ...base, ...more(id) }, lineFor(id));
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
  const withAmounts = applyBalance(c, withTotals(c, next, linesOf(next)));
  saveObject(c.db, "invoice", withAmounts);
  emit(c, "invoice.finalized", "invoice", withAmounts);
  return withAmounts;
}

/**
 * The customer's balance after an invoice of `total` takes it: a credit pays up to the total, a
 * debit is added to the invoice (the balance returns to 0), and a negative total (credit for
 * unused time) is added to the balance as credit.
 */
export const balanceAfter = (balance: number, total: number): number =>
  total < 0 ? balance + total : balance < 0 ? balance + Math.min(-balance, total) : 0;

/**
 * The customer's balance applied as Stripe applies it when an invoice is finalized: a credit
 * (negative balance) pays up to the invoice's total, a debit (positive) is added to it. The
 * invoice keeps `starting_balance`/`ending_balance`, the customer's balance moves, and an
 * `applied_to_invoice` customer balance transaction records it.
 */
function applyBalance(c: Call, inv: Rec): Rec {
  const customer = getObject(c.db, "customer", String(inv.customer));
  const balance = num(customer?.balance) ?? 0;
  const total = num(inv.total) ?? 0;
  if (!customer || (balance === 0 && total >= 0)) return { ...inv, starting_balance: 0, ending_balance: 0 };
  const ending = balanceAfter(balance, total);
  if (ending === balance) return { ...inv, starting_balance: balance, ending_balance: balance };
  recordBalanceChange(c, customer, ending - balance, { type: "applied_to_invoice", invoice: inv.id, currency: inv.currency });
  return withTotals(c, { ...inv, starting_balance: balance, ending_balance: ending }, linesOf(inv));
}

export function markPaid(c: Call, inv: Rec, outOfBand: boolean): Rec {
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

/**
 * The invoice's record of a payment attempt through a PaymentIntent: a new one, or the open record
 * of the same intent brought up to date (an intent the invoice awaited, paid at last).
 */
export function recordPayment(c: Call, inv: Rec, pi: Rec, paid: boolean): void {
  const open = liveOfType(c.db, "invoice_payment", { column: "ref2", value: String(pi.id) }).find((p) => p.status === "open");
  const fields = {
    amount_paid: paid ? pi.amount : null,
    status: paid ? "paid" : "open",
    status_transitions: { canceled_at: null, paid_at: paid ? c.now : null },
  };
  if (open) {
    saveObject(c.db, "invoice_payment", { ...open, ...fields });
    return;
  }
  insertObject(
    c.db,
    "invoice_payment",
    buildInvoicePayment(
      {
        ...fields,
        amount_requested: pi.amount,
        currency: pi.currency,
        invoice: inv.id,
        payment: { payment_intent: pi.id, type: "payment_intent" },
      },
      { id: newId(c.db, "invoice_payment"), created: c.now },
    ),
  );
}

/** The PaymentIntent an open invoice awaits a payment method for (default_incomplete's, or a declined attempt's). */
function awaitedIntent(c: Call, inv: Rec): Rec | undefined {
  for (const payment of liveOfType(c.db, "invoice_payment", { column: "ref", value: String(inv.id) })) {
    if (payment.status !== "open") continue;
    const pi = getObject(c.db, "payment_intent", String(rec(payment.payment).payment_intent));
    if (pi?.status === "requires_payment_method" && pi.amount === inv.amount_due) return pi;
  }
  return undefined;
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
  // Paying an invoice whose intent awaits a payment method confirms that intent, as on Stripe.
  const awaited = awaitedIntent(c, inv);
  const pi = awaited
    ? { ...awaited, payment_method: pm.id, status: "requires_confirmation" }
    : buildPaymentIntent(
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
  if (awaited) saveObject(c.db, "payment_intent", pi);
  else insertObject(c.db, "payment_intent", pi);
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

/**
 * The invoice of a subscription's period. `ended` are the items as they were over the period that
 * just ended (a renewal's): their metered usage over it is billed, in arrears.
 */
export function invoiceForSubscription(c: Call, sub: Rec, reason: string, zero: boolean, ended: Rec[] = []): Rec {
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
      itemList(sub)
        .map((it) => {
          const price = getObject(c.db, "price", String(it.price)) ?? {};
          const before = ended.find((e) => e.id === it.id);
          const billed = billedQuantity(c, price, it, sub.customer, periodOf(it, c.now), before && periodOf(before, c.now));
          const line = priceLine(c, invoiceId, price, billed.quantity, billed.period, {
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
          });
          return zero ? { ...line, amount: 0, subtotal: 0 } : line;
        })
        .concat(claimItems(c, pendingItems(c, String(sub.customer), String(sub.id)), invoiceId)),
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
    const stopped = trialOver ? trialEndWithoutCard(c, sub) : undefined;
    if (stopped) {
      sub = stopped;
      break;
    }
    const nextItems = items.map((it) => {
      const price = getObject(c.db, "price", String(it.price));
      const r = rec(price?.recurring);
      return { ...it, current_period_start: end, current_period_end: addInterval(end, asInterval(r.interval), num(r.interval_count) ?? 1) };
    });
    sub = { ...sub, status: trialOver ? "active" : sub.status, items: { ...rec(sub.items), data: nextItems } };
    saveObject(c.db, "subscription", sub);
    sub = resumeWhenDue(sub, end);
    const inv = invoiceForSubscription(c, sub, "subscription_cycle", sub.status === "trialing", items);
    sub = sub.pause_collection ? { ...sub, latest_invoice: pausedInvoice(c, sub, inv).id } : collect(c, sub, inv, "past_due").sub;
    saveObject(c.db, "subscription", sub);
    emit(c, "customer.subscription.updated", "subscription", sub, changed(before, sub));
  }
  return sub;
}

/** A pause whose `resumes_at` has come is over: collection resumes with this period. */
function resumeWhenDue(sub: Rec, at: number): Rec {
  const resumesAt = num(rec(sub.pause_collection).resumes_at);
  return resumesAt !== undefined && resumesAt <= at ? { ...sub, pause_collection: null } : sub;
}

/**
 * An invoice made while collection is paused, as `pause_collection[behavior]` says
 * (docs.stripe.com/billing/subscriptions/pause-payment): kept a draft that is never finalized,
 * finalized and marked uncollectible, or finalized and voided.
 */
export function pausedInvoice(c: Call, sub: Rec, inv: Rec): Rec {
  const behavior = str(rec(sub.pause_collection).behavior);
  if (behavior === "keep_as_draft") {
    const draft = { ...inv, auto_advance: false };
    saveObject(c.db, "invoice", draft);
    return draft;
  }
  const open = finalizeInvoice(c, inv);
  const status = behavior === "void" ? "void" : "uncollectible";
  const transition = behavior === "void" ? { voided_at: c.now } : { marked_uncollectible_at: c.now };
  const after = {
    ...open,
    status,
    amount_remaining: status === "void" ? 0 : open.amount_remaining,
    status_transitions: { ...rec(open.status_transitions), ...transition },
  };
  saveObject(c.db, "invoice", after);
  emit(c, status === "void" ? "invoice.voided" : "invoice.marked_uncollectible", "invoice", after);
  return after;
}

/** Whether the customer has a card the subscription's invoices could be charged to. */
export function hasPaymentMethod(c: Call, sub: Rec): boolean {
  const customer = getObject(c.db, "customer", String(sub.customer));
  return Boolean(sub.default_payment_method ?? rec(customer?.invoice_settings).default_payment_method);
}

/**
 * A trial ending with no payment method on file, as `trial_settings[end_behavior]
 * [missing_payment_method]` says (docs.stripe.com/billing/subscriptions/trials): `cancel` ends
 * the subscription, `pause` pauses it; `create_invoice` (the default) goes on to invoice.
 */
function trialEndWithoutCard(c: Call, sub: Rec): Rec | undefined {
  const behavior = str(rec(rec(sub.trial_settings).end_behavior).missing_payment_method) ?? "create_invoice";
  if (behavior === "create_invoice" || hasPaymentMethod(c, sub)) return undefined;
  const end = num(sub.trial_end) ?? c.now;
  const after =
    behavior === "cancel"
      ? {
          ...sub,
          status: "canceled",
          canceled_at: end,
          ended_at: end,
          cancellation_details: { ...rec(sub.cancellation_details), reason: "cancellation_requested" },
        }
      : { ...sub, status: "paused" };
  saveObject(c.db, "subscription", after);
  emit(c, behavior === "cancel" ? "customer.subscription.deleted" : "customer.subscription.paused", "subscription", after);
  return after;
}

export function requireRecurring(price: Rec, param: string): void {
  if (price.type !== "recurring")
    fail(
      invalidRequest("The price specified is set to `type=one_time` but this field only accepts prices with `type=recurring`.", { param }),
    );
}
