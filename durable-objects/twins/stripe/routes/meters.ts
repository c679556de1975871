// Billing meters and meter events: meters created, listed, updated, deactivated and reactivated;
// usage reported as meter events (a retried identifier refused); a customer's usage summarised
// over a time range, whole or per hour or day.
import type { Route, TwinResponse } from "../../types";
import { nowFor } from "../billing";
import { filterOf, listResponse, load, ok, show, type Call } from "../call";
import { arg, expand, idParam, listQuery, route } from "../declare";
import { invalidRequest, missingParam } from "../errors";
import { changed, emit } from "../events";
import { aggregate, buildMeter, eventValue, eventsOf, meterEventId, meterEventWire, windows } from "../meters";
import { getObject, idBody, insertObject, liveOfType, newId, rec, saveObject, str, type Rec } from "../store";

const FORMULAS = ["sum", "count", "last"] as const;
/** How far back and ahead a meter event's timestamp may be (docs.stripe.com/api/billing/meter-event/create). */
const PAST_SECONDS = 35 * 86400;
const FUTURE_SECONDS = 5 * 60;

const activeMeterFor = (c: Call, eventName: string): Rec | undefined =>
  liveOfType(c.db, "billing.meter", { column: "ref2", value: eventName }).find((m) => m.status === "active");

function createMeter(c: Call, body: { display_name: string; event_name: string; event_time_window?: string }): TwinResponse {
  const aggregation = c.p.sub("default_aggregation");
  if (!aggregation) return missingParam("default_aggregation");
  const formula = aggregation.oneOf("formula", FORMULAS) ?? missingParam("default_aggregation[formula]");
  if (typeof formula !== "string") return formula;
  if (activeMeterFor(c, body.event_name))
    return invalidRequest(`An active meter with event_name \`${body.event_name}\` already exists.`, { param: "event_name" });
  const mapping = c.p.sub("customer_mapping");
  const value = c.p.sub("value_settings");
  const meter = buildMeter(
    {
      display_name: body.display_name,
      event_name: body.event_name,
      event_time_window: body.event_time_window ?? null,
      default_aggregation: { formula },
      customer_mapping: mapping
        ? { event_payload_key: mapping.req("event_payload_key"), type: mapping.oneOf("type", ["by_id"]) ?? "by_id" }
        : undefined,
      value_settings: value ? { event_payload_key: value.req("event_payload_key") } : undefined,
    },
    { id: newId(c.db, "billing.meter"), created: c.now },
  );
  insertObject(c.db, "billing.meter", meter);
  emit(c, "billing.meter.created", "billing.meter", meter);
  return show(c, "billing.meter", meter);
}

function setStatus(c: Call, id: string, status: "active" | "inactive"): TwinResponse {
  const before = load(c, "billing.meter", id);
  if (before.status === status)
    return invalidRequest(`This meter is already ${status === "active" ? "active" : "inactive"}.`, { param: "id" });
  if (status === "active" && activeMeterFor(c, String(before.event_name)))
    return invalidRequest(`An active meter with event_name \`${String(before.event_name)}\` already exists.`);
  const after = { ...before, status, status_transitions: { deactivated_at: status === "inactive" ? c.now : null }, updated: c.now };
  saveObject(c.db, "billing.meter", after);
  emit(
    c,
    status === "inactive" ? "billing.meter.deactivated" : "billing.meter.reactivated",
    "billing.meter",
    after,
    changed(before, after),
  );
  return show(c, "billing.meter", after);
}

function createMeterEvent(c: Call, body: { event_name: string; identifier?: string; timestamp?: number }): TwinResponse {
  const payload = c.p.sub("payload");
  if (!payload) return missingParam("payload");
  const meter = activeMeterFor(c, body.event_name);
  const customerKey = str(rec(meter?.customer_mapping).event_payload_key) ?? "stripe_customer_id";
  const valueKey = str(rec(meter?.value_settings).event_payload_key) ?? "value";
  const customer = payload.str(customerKey) ?? missingParam(`payload[${customerKey}]`);
  if (typeof customer !== "string") return customer;
  const counting = rec(meter?.default_aggregation).formula === "count";
  const raw = payload.raw[valueKey];
  if (raw === undefined && !counting) return missingParam(`payload[${valueKey}]`);
  if (raw !== undefined && eventValue(raw) === undefined)
    return invalidRequest(`Invalid value for payload[${valueKey}]: it must be a number.`, { param: `payload[${valueKey}]` });
  // A customer on a test clock lives at the clock's frozen time: its usage is dated and bounded
  // against that moment, so usage can be reported for a period the clock has advanced into.
  const now = nowFor(c, customer);
  const timestamp = body.timestamp ?? now;
  if (timestamp < now - PAST_SECONDS || timestamp > now + FUTURE_SECONDS)
    return invalidRequest("Timestamp must be within the past 35 days and not more than 5 minutes in the future.", { param: "timestamp" });
  const identifier = body.identifier ?? `${idBody(`meter-event:${newId(c.db, "request")}`, 8)}-${idBody(`${c.now}:${customer}`, 12)}`;
  if (getObject(c.db, "billing.meter_event", meterEventId(identifier)))
    return invalidRequest(`An event already exists with identifier ${identifier}.`, { param: "identifier" });
  const event: Rec = {
    id: meterEventId(identifier),
    object: "billing.meter_event",
    created: c.now,
    customer,
    event_name: body.event_name,
    identifier,
    meter: meter?.id ?? null,
    payload: payload.raw,
    timestamp,
  };
  insertObject(c.db, "billing.meter_event", event);
  return ok(meterEventWire(event));
}

function summaries(
  c: Call,
  id: string,
  q: { customer: string; start_time: number; end_time: number; value_grouping_window?: "hour" | "day"; limit?: number },
): TwinResponse {
  const meter = load(c, "billing.meter", id);
  for (const [param, t] of [
    ["start_time", q.start_time],
    ["end_time", q.end_time],
  ] as const)
    if (t % 60 !== 0) return invalidRequest(`${param} must be aligned with minute boundaries.`, { param });
  if (q.end_time <= q.start_time) return invalidRequest("end_time must be after start_time.", { param: "end_time" });
  const events = eventsOf(c.db, meter, q.customer, q.start_time, q.end_time);
  const valueKey = str(rec(meter.value_settings).event_payload_key) ?? "value";
  const formula = str(rec(meter.default_aggregation).formula) ?? "sum";
  const all = windows(q.start_time, q.end_time, q.value_grouping_window).map(([start, end]) => ({
    id: `mtrusg_${idBody(`${id}:${q.customer}:${start}:${end}`)}`,
    object: "billing.meter_event_summary",
    aggregated_value: aggregate(
      formula,
      events.filter((e) => Number(e.timestamp) >= start && Number(e.timestamp) < end),
      valueKey,
    ),
    end_time: end,
    livemode: false,
    meter: id,
    start_time: start,
  }));
  const limit = q.limit ?? 10;
  return ok({ object: "list", data: all.slice(0, limit), has_more: all.length > limit, url: `/v1/billing/meters/${id}/event_summaries` });
}

export const meterRoutes: readonly Route[] = [
  route({
    method: "POST",
    pattern: "/v1/billing/meters",
    operation: "billing.meters.create",
    summary: "Create a billing meter",
    body: {
      display_name: arg.id("The meter's name, shown on invoices"),
      event_name: arg.id("The meter events it counts: those with this event_name"),
      default_aggregation: arg.anyHash("{ formula: sum | count | last }: how usage is aggregated"),
      customer_mapping: arg.anyHash(
        "{ event_payload_key, type: by_id }: which payload key names the customer (default stripe_customer_id)",
      ),
      value_settings: arg.anyHash("{ event_payload_key }: which payload key holds the value (default value)"),
      event_time_window: arg.oneOf(["day", "hour"], "Pre-aggregate events in this window"),
      expand,
    },
    tool: {
      name: "create_billing_meter",
      description: "Create a meter that aggregates usage events of one event_name (sum, count or last).",
    },
    handler: (c, { body }) => createMeter(c, body),
  }),
  route({
    method: "GET",
    pattern: "/v1/billing/meters",
    operation: "billing.meters.list",
    summary: "List billing meters",
    query: { ...listQuery, status: arg.oneOf(["active", "inactive"], "Only meters in this status") },
    tool: { name: "list_billing_meters", description: "List billing meters." },
    handler: (c) => listResponse(c, "billing.meter", "/v1/billing/meters", filterOf(c, "status", "status")),
  }),
  route({
    method: "GET",
    pattern: "/v1/billing/meters/:id",
    operation: "billing.meters.retrieve",
    summary: "Retrieve a billing meter",
    params: idParam("The meter's id, mtr_…"),
    query: { expand },
    tool: { name: "get_billing_meter", description: "Retrieve a billing meter." },
    handler: (c, { params }) => show(c, "billing.meter", load(c, "billing.meter", params.id)),
  }),
  route({
    method: "POST",
    pattern: "/v1/billing/meters/:id",
    operation: "billing.meters.update",
    summary: "Update a billing meter's display name",
    params: idParam("The meter's id"),
    body: { display_name: arg.text("The meter's new name"), expand },
    tool: { name: "update_billing_meter", description: "Rename a billing meter." },
    handler(c, { params, body }) {
      const before = load(c, "billing.meter", params.id);
      const after = { ...before, display_name: body.display_name ?? before.display_name, updated: c.now };
      saveObject(c.db, "billing.meter", after);
      emit(c, "billing.meter.updated", "billing.meter", after, changed(before, after));
      return show(c, "billing.meter", after);
    },
  }),
  route({
    method: "POST",
    pattern: "/v1/billing/meters/:id/deactivate",
    operation: "billing.meters.deactivate",
    summary: "Deactivate a billing meter",
    params: idParam("The meter's id"),
    body: { expand },
    tool: { name: "deactivate_billing_meter", description: "Stop a meter accepting usage.", destructive: true },
    handler: (c, { params }) => setStatus(c, params.id, "inactive"),
  }),
  route({
    method: "POST",
    pattern: "/v1/billing/meters/:id/reactivate",
    operation: "billing.meters.reactivate",
    summary: "Reactivate a billing meter",
    params: idParam("The meter's id"),
    body: { expand },
    tool: { name: "reactivate_billing_meter", description: "Let a deactivated meter accept usage again." },
    handler: (c, { params }) => setStatus(c, params.id, "active"),
  }),
  route({
    method: "GET",
    pattern: "/v1/billing/meters/:id/event_summaries",
    operation: "billing.meters.listEventSummaries",
    summary: "Summarise a customer's usage of a meter over a time range",
    params: idParam("The meter's id"),
    query: {
      customer: arg.id("The customer's id"),
      start_time: arg.reqInt("Start of the range (inclusive), unix seconds on a minute boundary"),
      end_time: arg.reqInt("End of the range (exclusive), unix seconds on a minute boundary"),
      value_grouping_window: arg.oneOf(["day", "hour"], "One summary per hour or day instead of one for the range"),
      limit: listQuery.limit,
      starting_after: listQuery.starting_after,
      ending_before: listQuery.ending_before,
      expand,
    },
    tool: { name: "list_billing_meter_event_summaries", description: "A customer's aggregated usage of a meter over a time range." },
    handler: (c, { params, query }) => summaries(c, params.id, query),
  }),
  route({
    method: "POST",
    pattern: "/v1/billing/meter_events",
    operation: "billing.meterEvents.create",
    summary: "Report usage: a meter event",
    body: {
      event_name: arg.id("The meter's event_name"),
      payload: arg.anyHash("stripe_customer_id (or the meter's customer key) and value (a whole number, as a string)"),
      identifier: arg.text("A unique id for the event; a retry with the same one is refused"),
      timestamp: arg.int("When the usage happened, unix seconds (default now; within the past 35 days)"),
      expand,
    },
    tool: { name: "create_billing_meter_event", description: "Report usage for a customer to a billing meter." },
    handler: (c, { body }) => createMeterEvent(c, body),
  }),
];
