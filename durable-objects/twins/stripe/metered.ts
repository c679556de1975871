// Metered prices billed from a billing meter (`recurring[meter]`, docs.stripe.com/billing/
// subscriptions/usage-based): such an item has no quantity of its own; each invoice bills the
// meter's aggregate (sum, count or last) of the customer's events over the period the line
// covers, in arrears. The first invoice of a subscription bills nothing for it; the invoice made
// at a period's end bills the period that just ended, and a preview shows the running period's
// usage so far.
import type { Call } from "./call";
import { meteredUsage } from "./meters";
import { getObject, num, rec, str, type Rec } from "./store";

export const isMetered = (price: Rec): boolean => rec(price.recurring).usage_type === "metered";

export type Period = { start: number; end: number };

/** The current period of a subscription item. */
export const periodOf = (item: Rec, now: number): Period => ({
  start: num(item.current_period_start) ?? now,
  end: num(item.current_period_end) ?? now,
});

/** The meter's aggregate of the customer's usage over the period; 0 for a price with no meter. */
export function usageOver(c: Call, price: Rec, customer: unknown, period: Period): number {
  const meterId = str(rec(price.recurring).meter);
  const meter = meterId ? getObject(c.db, "billing.meter", meterId) : undefined;
  if (!meter || typeof customer !== "string") return 0;
  return meteredUsage(c.db, meter, customer, period.start, period.end);
}

/**
 * What one subscription item bills on an invoice: a licensed item its quantity over `period`; a
 * metered one the usage of `usagePeriod` (none: nothing yet, over `period`).
 */
export function billedQuantity(
  c: Call,
  price: Rec,
  item: Rec,
  customer: unknown,
  period: Period,
  usagePeriod: Period | undefined,
): { quantity: number; period: Period } {
  if (!isMetered(price)) return { quantity: num(item.quantity) ?? 1, period };
  if (!usagePeriod) return { quantity: 0, period };
  return { quantity: usageOver(c, price, customer, usagePeriod), period: usagePeriod };
}
