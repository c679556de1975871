// What a subscription update or cancellation sets beyond its own fields: collection paused or
// resumed, trial settings, prorations for changed items (pending items, or invoiced at once), and
// on cancellation the credit for unused time and a final invoice.
import type { Call } from "./call";
import { collect, createInvoice, finalizeInvoice, payInvoice } from "./billing";
import { fail, invalidRequest, missingParam } from "./errors";
import { emit } from "./events";
import { claimItems, pendingItems } from "./invoice-items";
import { prorationItems, prorationsFor, unusedTime } from "./prorations";
import { arr, insertObject, rec, type Rec } from "./store";

const PAUSE_BEHAVIORS = ["keep_as_draft", "mark_uncollectible", "void"] as const;
const TRIAL_END_BEHAVIORS = ["cancel", "create_invoice", "pause"] as const;

/** `pause_collection`: a behavior (and when to resume) pauses collection; "" resumes it. */
export function pauseFrom(c: Call): Rec | null | undefined {
  const pause = c.p.sub("pause_collection");
  if (pause === undefined) return undefined;
  if (pause === null) return null;
  const behavior = pause.oneOf("behavior", PAUSE_BEHAVIORS) ?? fail(missingParam("pause_collection[behavior]"));
  const resumesAt = pause.int("resumes_at") ?? null;
  if (resumesAt !== null && resumesAt <= c.now)
    fail(invalidRequest("pause_collection[resumes_at] must be in the future.", { param: "pause_collection[resumes_at]" }));
  return { behavior, resumes_at: resumesAt };
}

/** `trial_settings[end_behavior][missing_payment_method]` over what the subscription had. */
export function trialSettingsFrom(c: Call, current: unknown): Rec | undefined {
  const settings = c.p.sub("trial_settings");
  if (!settings) return undefined;
  const end = settings.sub("end_behavior") ?? fail(missingParam("trial_settings[end_behavior]"));
  const missing =
    end.oneOf("missing_payment_method", TRIAL_END_BEHAVIORS) ?? fail(missingParam("trial_settings[end_behavior][missing_payment_method]"));
  return { ...rec(current), end_behavior: { missing_payment_method: missing } };
}

/**
 * Prorations for an item change, as `proration_behavior` says: `create_prorations` (Stripe's
 * default) leaves them pending for the next invoice, `always_invoice` invoices and collects them
 * at once, `none` makes none. A trialing subscription is not prorated.
 */
export function prorateChange(c: Call, before: Rec, after: Rec, at: number): Rec {
  const behavior = c.p.str("proration_behavior") ?? "create_prorations";
  if (behavior === "none" || before.status === "trialing") return after;
  const prorations = prorationsFor(c, after, arr(rec(before.items).data).map(rec), arr(rec(after.items).data).map(rec), at);
  if (!prorations.length) return after;
  for (const item of prorationItems(c, prorations)) {
    insertObject(c.db, "invoiceitem", item);
    emit(c, "invoiceitem.created", "invoiceitem", item);
  }
  if (behavior !== "always_invoice") return after;
  const inv = createInvoice(
    c,
    {
      customer: after.customer,
      currency: after.currency,
      billing_reason: "subscription_update",
      collection_method: after.collection_method,
    },
    after,
    (id) => claimItems(c, pendingItems(c, String(after.customer), String(after.id)), id),
  );
  return collect(c, after, inv, String(after.status)).sub;
}

/**
 * What a cancellation adds (DELETE /v1/subscriptions/:id): `prorate` credits the unused rest of
 * the period as a pending item; `invoice_now` invoices every pending item of the subscription
 * at once (a credit goes to the customer's balance).
 */
export function cancellationInvoice(c: Call, sub: Rec, prorate: boolean, invoiceNow: boolean): string | undefined {
  if (prorate)
    for (const item of prorationItems(c, unusedTime(c, sub, arr(rec(sub.items).data).map(rec), c.now))) {
      insertObject(c.db, "invoiceitem", item);
      emit(c, "invoiceitem.created", "invoiceitem", item);
    }
  if (!invoiceNow) return undefined;
  const pending = pendingItems(c, String(sub.customer), String(sub.id));
  if (!pending.length) return undefined;
  const inv = createInvoice(
    c,
    { customer: sub.customer, currency: sub.currency, billing_reason: "subscription_cycle", collection_method: sub.collection_method },
    sub,
    (id) => claimItems(c, pending, id),
  );
  const open = finalizeInvoice(c, inv);
  return String(sub.collection_method === "send_invoice" ? open.id : payInvoice(c, open).inv.id);
}
