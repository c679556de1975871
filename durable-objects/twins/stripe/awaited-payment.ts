// The first payment of a `payment_behavior=default_incomplete` subscription, as Stripe's "build a
// subscription" guide takes it (docs.stripe.com/billing/subscriptions/build-subscriptions): the
// subscription waits `incomplete` with an open first invoice whose PaymentIntent awaits a payment
// method; the front end confirms that intent with the invoice's `confirmation_secret`, and the
// outcome of that confirmation is the invoice's and the subscription's.
import { markPaid, recordPayment } from "./billing";
import type { Call } from "./call";
import { changed, emit } from "./events";
import { buildPaymentIntent } from "./objects";
import { getObject, insertObject, liveOfType, newId, num, rec, saveObject, str, type Rec } from "./store";

/**
 * The invoice's PaymentIntent, made to await a payment method; its client secret is the invoice's
 * `confirmation_secret` (API 2025-03-31 and later: docs.stripe.com/changelog/basil/2025-03-31/
 * add-invoice-confirmation-secret), so the front end confirms it with Stripe.js.
 */
export function awaitPayment(c: Call, open: Rec): Rec {
  const pi = buildPaymentIntent(
    {
      amount: open.amount_due,
      currency: open.currency,
      customer: open.customer,
      description: "Subscription creation",
      setup_future_usage: "off_session",
      status: "requires_payment_method",
    },
    { id: newId(c.db, "payment_intent"), created: c.now },
  );
  insertObject(c.db, "payment_intent", pi);
  emit(c, "payment_intent.created", "payment_intent", pi);
  recordPayment(c, open, pi, false);
  const after = { ...open, confirmation_secret: { client_secret: pi.client_secret, type: "payment_intent" } };
  saveObject(c.db, "invoice", after);
  return after;
}

/**
 * A confirmation of an intent some open invoice awaits. Succeeded: the invoice is paid
 * (`invoice.paid`, `invoice.payment_succeeded`) and its subscription, `incomplete` until then,
 * turns `active` (`customer.subscription.updated`), taking the card as its default when its
 * `payment_settings[save_default_payment_method]` is `on_subscription`. Declined: the attempt is
 * counted (`invoice.payment_failed`) and the subscription stays `incomplete`. Any other intent,
 * or one still waiting (`requires_action`), changes nothing here.
 */
export function settleAwaitedInvoice(c: Call, pi: Rec): void {
  const paid = pi.status === "succeeded";
  const failed = pi.status === "requires_payment_method" && pi.last_payment_error;
  if (!paid && !failed) return;
  const payment = liveOfType(c.db, "invoice_payment", { column: "ref2", value: String(pi.id) }).find((p) => p.status === "open");
  const inv = payment ? getObject(c.db, "invoice", String(payment.invoice)) : undefined;
  if (!payment || !inv || inv.status !== "open") return;
  const attempted = { ...inv, attempted: true, attempt_count: (num(inv.attempt_count) ?? 0) + 1 };
  if (!paid) {
    saveObject(c.db, "invoice", attempted);
    emit(c, "invoice.payment_failed", "invoice", attempted);
    return;
  }
  recordPayment(c, inv, pi, true);
  markPaid(c, attempted, false);
  activateSubscription(c, attempted, str(pi.payment_method));
}

function activateSubscription(c: Call, inv: Rec, paymentMethod: string | undefined): void {
  const subId = str(rec(rec(inv.parent).subscription_details).subscription);
  const before = subId ? getObject(c.db, "subscription", subId) : undefined;
  if (!before) return;
  const saveCard = rec(before.payment_settings).save_default_payment_method === "on_subscription" && paymentMethod;
  const after = {
    ...before,
    status: before.status === "incomplete" || before.status === "past_due" ? "active" : before.status,
    ...(saveCard ? { default_payment_method: paymentMethod } : {}),
  };
  const previous = changed(before, after);
  if (!Object.keys(previous).length) return;
  saveObject(c.db, "subscription", after);
  emit(c, "customer.subscription.updated", "subscription", after, previous);
}
