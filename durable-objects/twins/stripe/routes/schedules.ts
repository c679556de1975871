// Subscription schedules: create one from price phases or from an existing subscription,
// retrieve, list, update its phases, cancel it (and its subscription) or release its
// subscription. Phases advance as the customer's clock passes them (schedules.ts, billing.ts).
import type { Route, TwinResponse } from "../../types";
import { filterOf, listResponse, load, show, type Call } from "../call";
import { arg, expand, idParam, listQuery, metadata, route } from "../declare";
import { invalidRequest, missingParam, stateError } from "../errors";
import { changed, emit } from "../events";
import { at, nowFor } from "../billing";
import { cancellationInvoice } from "../subscription-changes";
import { advanceSchedule, buildSchedule, phasesFrom, scheduleOfSubscription, startScheduled } from "../schedules";
import { arr, getObject, insertObject, newId, num, rec, saveObject, strMap, type Rec } from "../store";

function createSchedule(c0: Call): TwinResponse {
  const fromSub = c0.p.str("from_subscription");
  if (fromSub && (c0.p.has("phases") || c0.p.has("customer")))
    return invalidRequest("You cannot set `phases` or `customer` when `from_subscription` is set.", { param: "from_subscription" });
  const id = newId(c0.db, "subscription_schedule");
  if (fromSub) {
    const sub = load(c0, "subscription", fromSub, "from_subscription");
    if (sub.schedule)
      return invalidRequest(`The subscription ${fromSub} is already attached to a schedule.`, { param: "from_subscription" });
    const c = at(c0, nowFor(c0, sub.customer));
    const phases = scheduleOfSubscription(sub);
    const phase = rec(phases[0]);
    const sched = buildSchedule(
      {
        customer: sub.customer,
        phases,
        status: "active",
        subscription: sub.id,
        current_phase: { start_date: phase.start_date, end_date: phase.end_date },
        test_clock: sub.test_clock ?? null,
      },
      { id, created: c.now },
    );
    insertObject(c.db, "subscription_schedule", sched);
    saveObject(c.db, "subscription", { ...sub, schedule: id });
    emit(c, "subscription_schedule.created", "subscription_schedule", sched);
    return show(c, "subscription_schedule", sched);
  }
  const customer = load(c0, "customer", c0.p.str("customer") ?? "", "customer");
  const c = at(c0, nowFor(c0, customer.id));
  const startParam = c.p.str("start_date");
  const start = startParam === undefined || startParam === "now" ? c.now : c.p.reqInt("start_date");
  const phases = phasesFrom(c, c.p.list("phases") ?? [], start);
  if (!phases.length) return missingParam("phases");
  let sched = buildSchedule(
    {
      customer: customer.id,
      end_behavior: c.p.oneOf("end_behavior", ["cancel", "none", "release", "renew"]) ?? "release",
      metadata: c.p.metadata(),
      phases,
      test_clock: customer.test_clock ?? null,
    },
    { id, created: c.now },
  );
  insertObject(c.db, "subscription_schedule", sched);
  if (start <= c.now) sched = startScheduled(c, sched);
  saveObject(c.db, "subscription_schedule", sched);
  emit(c, "subscription_schedule.created", "subscription_schedule", sched);
  return show(c, "subscription_schedule", sched);
}

/** Replaces the phases from the current one on: the current phase keeps its start. */
function updateSchedule(c0: Call): TwinResponse {
  const before = load(c0, "subscription_schedule", c0.ctx.params.id);
  const c = at(c0, nowFor(c0, before.customer));
  if (before.status !== "active" && before.status !== "not_started")
    return stateError(`You cannot update a subscription schedule that is ${String(before.status)}.`, "subscription_schedule_not_active");
  let after: Rec = {
    ...before,
    metadata: c.p.metadata(strMap(before.metadata)),
    end_behavior: c.p.oneOf("end_behavior", ["cancel", "none", "release", "renew"]) ?? before.end_behavior,
  };
  const list = c.p.list("phases");
  if (list) {
    const current = num(rec(before.current_phase).start_date) ?? num(rec(arr(before.phases)[0]).start_date) ?? c.now;
    const given = list[0]?.str("start_date");
    const start = given === undefined || given === "now" ? current : (list[0].int("start_date") ?? current);
    const phases = phasesFrom(c, list, start);
    if (!phases.length) return missingParam("phases");
    after = {
      ...after,
      phases,
      current_phase: before.status === "active" ? { start_date: start, end_date: rec(phases[0]).end_date } : null,
    };
    if (before.status === "active") {
      const sub = getObject(c.db, "subscription", String(before.subscription));
      const items = arr(rec(phases[0]).items).map(rec);
      if (sub) {
        const current = arr(rec(sub.items).data).map(rec);
        const data = items.map((pi, i) => {
          const kept = current.find((it) => it.price === pi.price) ?? current[i] ?? current[0];
          return { ...kept, price: pi.price, quantity: pi.quantity };
        });
        saveObject(c.db, "subscription", { ...sub, items: { ...rec(sub.items), data } });
      }
    }
  }
  after = advanceSchedule(c, after, c.now);
  saveObject(c.db, "subscription_schedule", after);
  emit(c, "subscription_schedule.updated", "subscription_schedule", after, changed(before, after));
  return show(c, "subscription_schedule", after);
}

function endWith(c0: Call, how: "cancel" | "release"): TwinResponse {
  const before = load(c0, "subscription_schedule", c0.ctx.params.id);
  const c = at(c0, nowFor(c0, before.customer));
  if (before.status !== "active" && before.status !== "not_started")
    return stateError(`You cannot ${how} a subscription schedule that is ${String(before.status)}.`, "subscription_schedule_not_active");
  const sub = getObject(c.db, "subscription", String(before.subscription));
  if (sub && how === "cancel") {
    const final = cancellationInvoice(c, sub, c.p.bool("prorate") ?? false, c.p.bool("invoice_now") ?? false);
    const canceled = {
      ...sub,
      status: "canceled",
      canceled_at: c.now,
      ended_at: c.now,
      schedule: null,
      latest_invoice: final ?? sub.latest_invoice,
    };
    saveObject(c.db, "subscription", canceled);
    emit(c, "customer.subscription.deleted", "subscription", canceled);
  }
  if (sub && how === "release") saveObject(c.db, "subscription", { ...sub, schedule: null });
  const after =
    how === "cancel"
      ? { ...before, status: "canceled", canceled_at: c.now, current_phase: null }
      : {
          ...before,
          status: "released",
          released_at: c.now,
          released_subscription: before.subscription,
          subscription: null,
          current_phase: null,
        };
  saveObject(c.db, "subscription_schedule", after);
  emit(c, how === "cancel" ? "subscription_schedule.canceled" : "subscription_schedule.released", "subscription_schedule", after);
  return show(c, "subscription_schedule", after);
}

const phaseShape = {
  items: arg.list({ price: arg.text("A recurring price's id"), quantity: arg.int("Quantity"), metadata }, "The phase's prices"),
  duration: arg.hash(
    { interval: arg.oneOf(["day", "week", "month", "year"], "Unit"), interval_count: arg.int("How many units") },
    "How long the phase lasts",
  ),
  end_date: arg.int("Unix time the phase ends"),
  iterations: arg.int("How many billing periods of its price the phase lasts (older API versions)"),
  proration_behavior: arg.oneOf(["always_invoice", "create_prorations", "none"], "How entering the phase is prorated"),
  metadata,
};

const phasesArg = arg.list(phaseShape, "The schedule's phases, one after another");

/**
 * An update's phases also take start_date: "The date at which this phase of the subscription
 * schedule starts or `now`. Must be set on the first phase." (stripe-node SubscriptionScheduleUpdateParams.Phase)
 */
const updatePhasesArg = arg.list(
  { ...phaseShape, start_date: arg.intOr("now", "When the first phase starts: unix time, or now (the current phase's start)") },
  "The schedule's phases from the current one on, the first with its start_date",
);

const endBehavior = arg.oneOf(["cancel", "none", "release", "renew"], "What happens after the last phase");

export const scheduleRoutes: readonly Route[] = [
  route({
    method: "POST",
    pattern: "/v1/subscription_schedules",
    operation: "subscriptionSchedules.create",
    summary: "Create a subscription schedule",
    body: {
      customer: arg.text("The customer (with phases)"),
      from_subscription: arg.text("An existing subscription to put on a schedule"),
      start_date: arg.intOr("now", "When the first phase starts: a unix time or now"),
      phases: phasesArg,
      end_behavior: endBehavior,
      metadata,
      expand,
    },
    tool: {
      name: "create_subscription_schedule",
      description:
        "Schedule a customer's subscription as phases of prices (e.g. 3 months at one price, then another), or put an existing subscription on a schedule.",
    },
    handler: (c) => createSchedule(c),
  }),
  route({
    method: "GET",
    pattern: "/v1/subscription_schedules",
    operation: "subscriptionSchedules.list",
    summary: "List subscription schedules",
    query: { ...listQuery, customer: arg.text("Only this customer's"), scheduled: arg.bool("Only those not started yet") },
    tool: { name: "list_subscription_schedules", description: "List subscription schedules, optionally a customer's." },
    handler(c, { query }) {
      const keep = (o: Rec) => query.scheduled === undefined || (o.status === "not_started") === query.scheduled;
      return listResponse(c, "subscription_schedule", "/v1/subscription_schedules", filterOf(c, "customer", "customer"), keep);
    },
  }),
  route({
    method: "GET",
    pattern: "/v1/subscription_schedules/:id",
    operation: "subscriptionSchedules.retrieve",
    summary: "Retrieve a subscription schedule",
    params: idParam("The schedule's id, sub_sched_…"),
    query: { expand },
    tool: { name: "get_subscription_schedule", description: "Retrieve a subscription schedule with its phases." },
    handler: (c, { params }) => show(c, "subscription_schedule", load(c, "subscription_schedule", params.id)),
  }),
  route({
    method: "POST",
    pattern: "/v1/subscription_schedules/:id",
    operation: "subscriptionSchedules.update",
    summary: "Update a subscription schedule",
    params: idParam("The schedule's id"),
    body: {
      phases: updatePhasesArg,
      end_behavior: endBehavior,
      metadata,
      proration_behavior: arg.oneOf(["always_invoice", "create_prorations", "none"], "How a change to the current phase is prorated"),
      expand,
    },
    tool: {
      name: "update_subscription_schedule",
      description: "Replace a schedule's phases from the current one on, or change its end behavior.",
    },
    handler: (c) => updateSchedule(c),
  }),
  route({
    method: "POST",
    pattern: "/v1/subscription_schedules/:id/cancel",
    operation: "subscriptionSchedules.cancel",
    summary: "Cancel a subscription schedule",
    params: idParam("The schedule's id"),
    body: { invoice_now: arg.bool("Invoice pending items now"), prorate: arg.bool("Credit unused time"), expand },
    tool: { name: "cancel_subscription_schedule", description: "Cancel a schedule and the subscription it drives.", destructive: true },
    handler: (c) => endWith(c, "cancel"),
  }),
  route({
    method: "POST",
    pattern: "/v1/subscription_schedules/:id/release",
    operation: "subscriptionSchedules.release",
    summary: "Release a subscription schedule",
    params: idParam("The schedule's id"),
    body: { preserve_cancel_date: arg.bool("Keep the subscription's cancel date"), expand },
    tool: { name: "release_subscription_schedule", description: "Release a schedule: its subscription goes on without it." },
    handler: (c) => endWith(c, "release"),
  }),
];
