// Billing periods: adding a price's interval to a unix time the way Stripe's calendar does
// (months clamp to the last day: Jan 31 + 1 month is Feb 28/29).

export type Interval = "day" | "week" | "month" | "year";

export const asInterval = (v: unknown): Interval => (v === "day" || v === "week" || v === "year" ? v : "month");

export function addInterval(unix: number, interval: Interval, count: number): number {
  if (interval === "day") return unix + count * 86400;
  if (interval === "week") return unix + count * 7 * 86400;
  const d = new Date(unix * 1000);
  const months = interval === "month" ? count : 12 * count;
  const day = d.getUTCDate();
  const target = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months, 1, d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds()));
  const last = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(day, last));
  return Math.floor(target.getTime() / 1000);
}

/** The billing cycle, counted from `anchor`, that contains `at` (the first one when `at` precedes it). */
export function periodContaining(anchor: number, at: number, interval: Interval, count: number): { start: number; end: number } {
  let start = anchor;
  let end = addInterval(anchor, interval, count);
  for (let k = 1; end <= at && k < 100_000; k++) {
    start = end;
    end = addInterval(anchor, interval, count * (k + 1));
  }
  return { start, end };
}

/**
 * The furthest a test clock may advance in one call: two of the shortest interval among its
 * subscriptions past its frozen time, or two years when it has none (docs.stripe.com › Advance a
 * test clock, `frozen_time`). NaN when the frozen time is past what a date can hold.
 */
export function furthestAdvance(frozen: number, intervals: readonly { interval: Interval; count: number }[]): number {
  const ends = intervals.map((i) => addInterval(frozen, i.interval, 2 * i.count));
  return ends.length ? Math.min(...ends) : addInterval(frozen, "year", 2);
}

/** `2024-11-23 00:00:00 UTC`, the way Stripe writes a time in its test clock messages. */
export function utcLabel(unix: number): string {
  const d = new Date(unix * 1000);
  return Number.isNaN(d.getTime()) ? String(unix) : `${d.toISOString().slice(0, 19).replace("T", " ")} UTC`;
}
