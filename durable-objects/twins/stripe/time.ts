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
