// Billing meters: what usage a meter counts (events of one `event_name`, aggregated by `sum`,
// `count` or `last`), the meter events reported to it, and the summaries Stripe answers for a
// customer over a time range. Meter events are kept by their `identifier`, which Stripe keeps
// unique (docs.stripe.com/api/billing/meter-event/create: "We will enforce uniqueness within a
// rolling period of at least 24 hours"), so a retried report is caught in one point read.
import type { Db } from "../types";
import { liveOfType, num, rec, str, type Rec } from "./store";

export type Formula = "sum" | "count" | "last";

export function buildMeter(r: Rec, m: { id: string; created: number }): Rec {
  return {
    id: m.id,
    object: "billing.meter",
    created: m.created,
    customer_mapping: { event_payload_key: "stripe_customer_id", type: "by_id", ...rec(r.customer_mapping) },
    default_aggregation: { formula: str(rec(r.default_aggregation).formula) ?? "sum" },
    display_name: r.display_name,
    event_name: r.event_name,
    event_time_window: r.event_time_window ?? null,
    livemode: false,
    status: "active",
    status_transitions: { deactivated_at: null },
    updated: m.created,
    value_settings: { event_payload_key: "value", ...rec(r.value_settings) },
  };
}

/** The stored id of a meter event: its identifier, so a duplicate is found by id. */
export const meterEventId = (identifier: string) => `mevt_${identifier}`;

/** A meter event's wire form: what Stripe answers (the customer it was mapped to is kept aside). */
export function meterEventWire(e: Rec): Rec {
  return {
    object: "billing.meter_event",
    created: e.created,
    event_name: e.event_name,
    identifier: e.identifier,
    livemode: false,
    payload: e.payload,
    timestamp: e.timestamp,
  };
}

/** A meter event's numeric value: Stripe takes a whole number as a string (`payload[value]=25`). */
export function eventValue(v: unknown): number | undefined {
  if (typeof v !== "string" || !/^-?\d+(\.\d+)?$/.test(v)) return undefined;
  return Number(v);
}

/** The meter's aggregate of `events` (already one customer's, in the range). */
export function aggregate(formula: string, events: readonly Rec[], valueKey: string): number {
  if (formula === "count") return events.length;
  const values = events.map((e) => ({ at: num(e.timestamp) ?? 0, n: eventValue(rec(e.payload)[valueKey]) ?? 0 }));
  if (formula === "last")
    return values.reduce<{ at: number; n: number } | undefined>((a, v) => (!a || v.at >= a.at ? v : a), undefined)?.n ?? 0;
  return values.reduce((s, v) => s + v.n, 0);
}

/**
 * A customer's events of a meter in [start, end): read by the customer's index, so the cost is
 * that customer's usage, not every event of the account.
 */
export function eventsOf(db: Db, meter: Rec, customer: string, start: number, end: number): Rec[] {
  return liveOfType(db, "billing.meter_event", { column: "customer", value: customer }).filter((e) => {
    const at = num(e.timestamp) ?? 0;
    return e.event_name === meter.event_name && at >= start && at < end;
  });
}

/** A meter's usage for a customer over a period: what a metered price bills (for invoicing). */
export function meteredUsage(db: Db, meter: Rec, customer: string, start: number, end: number): number {
  const valueKey = str(rec(meter.value_settings).event_payload_key) ?? "value";
  return aggregate(str(rec(meter.default_aggregation).formula) ?? "sum", eventsOf(db, meter, customer, start, end), valueKey);
}

/** The windows a summary is split into: the whole range, or each hour or day of it. */
export function windows(start: number, end: number, grouping: "hour" | "day" | undefined): [number, number][] {
  if (!grouping) return [[start, end]];
  const step = grouping === "hour" ? 3600 : 86400;
  const out: [number, number][] = [];
  for (let t = start; t < end && out.length < 1000; t += step) out.push([t, Math.min(t + step, end)]);
  return out;
}
