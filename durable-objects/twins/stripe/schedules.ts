// Subscription schedules as plain functions (stripe-node 23's SubscriptionSchedule): phases of
// prices one after another, the subscription they drive started when the first phase starts and
// moved to each next phase's items when the clock passes a phase's end; at the last phase's end
// the schedule releases its subscription (`end_behavior=release`) or cancels it (`cancel`).
import type { Call } from "./call";
import { at, collect, invoiceForSubscription, renew, requireRecurring } from "./billing";
import { fail, invalidRequest, missingParam } from "./errors";
import { changed, emit } from "./events";
import { buildItem, buildSubscription } from "./objects";
import type { Params } from "./params";
import { arr, getObject, insertObject, liveOfType, newId, num, rec, saveObject, str, type Rec } from "./store";
import { addInterval, asInterval, periodContaining } from "./time";
import { listEnvelope } from "./world";

export function buildSchedule(r: Rec, m: { id: string; created: number }): Rec {
  return {
    id: m.id,
    object: "subscription_schedule",
    application: null,
    billing_mode: { type: "classic" },
    canceled_at: null,
    completed_at: null,
    created: m.created,
    current_phase: null,
    customer: "",
    customer_account: null,
    default_settings: {
      application_fee_percent: null,
      automatic_tax: { disabled_reason: null, enabled: false, liability: null },
      billing_cycle_anchor: "automatic",
      billing_thresholds: null,
      collection_method: "charge_automatically",
      default_payment_method: null,
      description: null,
      invoice_settings: { account_tax_ids: null, days_until_due: null, issuer: { type: "self" } },
      on_behalf_of: null,
      transfer_data: null,
    },
    end_behavior: "release",
    livemode: false,
    metadata: {},
    phases: [],
    released_at: null,
    released_subscription: null,
    status: "not_started",
    subscription: null,
    test_clock: null,
    ...r,
  };
}

function phaseOf(items: Rec[], start: number, end: number, currency: string, extra: Rec = {}): Rec {
  return {
    add_invoice_items: [],
    application_fee_percent: null,
    billing_cycle_anchor: null,
    billing_thresholds: null,
    collection_method: null,
    currency,
    default_payment_method: null,
    default_tax_rates: [],
    description: null,
    discounts: [],
    end_date: end,
    invoice_settings: null,
    items: items.map((it) => ({
      billing_thresholds: null,
      discounts: [],
      metadata: rec(it.metadata),
      plan: it.price,
      price: it.price,
      quantity: num(it.quantity) ?? 1,
      tax_rates: [],
    })),
    metadata: {},
    on_behalf_of: null,
    proration_behavior: "create_prorations",
    start_date: start,
    transfer_data: null,
    trial_end: null,
    ...extra,
  };
}

/** `phases[]` read one after another from `start`: each lasts its `duration` (or `iterations` of its price's interval) or to its `end_date`. */
export function phasesFrom(c: Call, list: readonly Params[], start: number): Rec[] {
  let from = start;
  let currency: string | undefined;
  return list.map((pp, i) => {
    const itemList = pp.list("items") ?? fail(missingParam(`phases[${i}][items]`));
    const items = itemList.map((ip, j) => {
      const param = `phases[${i}][items][${j}][price]`;
      const id = ip.str("price") ?? fail(missingParam(param));
      const price = getObject(c.db, "price", id) ?? fail(invalidRequest(`No such price: '${id}'`, { code: "resource_missing", param }));
      requireRecurring(price, param);
      if (currency && price.currency !== currency)
        fail(invalidRequest("All prices on a subscription must have the same `currency`.", { param }));
      currency = String(price.currency);
      return { price: id, quantity: ip.int("quantity") ?? 1, metadata: ip.metadata() };
    });
    const first = getObject(c.db, "price", String(items[0]?.price)) ?? {};
    const recurring = rec(first.recurring);
    const duration = pp.sub("duration");
    const iterations = pp.int("iterations");
    const end =
      pp.int("end_date") ??
      (duration
        ? addInterval(from, asInterval(duration.req("interval")), duration.int("interval_count") ?? 1)
        : addInterval(from, asInterval(recurring.interval), (num(recurring.interval_count) ?? 1) * (iterations ?? 1)));
    if (end <= from) fail(invalidRequest("A phase's end_date must be after its start_date.", { param: `phases[${i}][end_date]` }));
    const phase = phaseOf(items, from, end, currency ?? "usd", { metadata: pp.metadata() });
    from = end;
    return phase;
  });
}

/** The subscription's items for a phase, keeping the ids of items whose price stays. */
function itemsForPhase(c: Call, sub: Rec, phase: Rec, now: number): Rec[] {
  const current = arr(rec(sub.items).data).map(rec);
  const anchor = num(sub.billing_cycle_anchor) ?? now;
  return arr(phase.items)
    .map(rec)
    .map((pi) => {
      const kept = current.find((it) => it.price === pi.price);
      const recurring = rec(getObject(c.db, "price", String(pi.price))?.recurring);
      // A new price joins the period the subscription is in, so it renews with the others at its end.
      const running = rec(current[0]);
      const period =
        num(running.current_period_end) !== undefined
          ? { start: num(running.current_period_start) ?? now, end: num(running.current_period_end) ?? now }
          : periodContaining(anchor, now, asInterval(recurring.interval), num(recurring.interval_count) ?? 1);
      return buildItem(
        { ...(kept ?? {}), price: pi.price, quantity: pi.quantity, metadata: rec(pi.metadata) },
        {
          id: str(kept?.id) ?? `si_${newId(c.db, "subscription").slice(4, 18)}`,
          created: num(kept?.created) ?? now,
          subscription: String(sub.id),
          periodStart: num(kept?.current_period_start) ?? period.start,
          periodEnd: num(kept?.current_period_end) ?? period.end,
        },
      );
    });
}

/** Starts the subscription a schedule drives, at its first phase's start, and collects its first invoice. */
export function startScheduled(c0: Call, sched: Rec): Rec {
  const phase = rec(arr(sched.phases)[0]);
  const c = at(c0, num(phase.start_date) ?? c0.now);
  const id = newId(c.db, "subscription");
  let sub = buildSubscription(
    { customer: sched.customer, currency: phase.currency, schedule: sched.id, status: "incomplete", test_clock: sched.test_clock ?? null },
    { id, created: c.now },
  );
  sub.items = listEnvelope(itemsForPhase(c, sub, phase, c.now), `/v1/subscription_items?subscription=${id}`);
  insertObject(c.db, "subscription", sub);
  const inv = invoiceForSubscription(c, sub, "subscription_create", false);
  const done = collect(c, sub, inv, "incomplete");
  sub = { ...done.sub, status: done.error ? "incomplete" : "active" };
  saveObject(c.db, "subscription", sub);
  emit(c, "customer.subscription.created", "subscription", sub);
  return { ...sched, status: "active", subscription: id, current_phase: { start_date: phase.start_date, end_date: phase.end_date } };
}

/** The schedule's subscription moved to `phase` at `when`: its items become the phase's. */
function enterPhase(c: Call, sched: Rec, phase: Rec): Rec {
  const sub = getObject(c.db, "subscription", String(sched.subscription));
  if (sub) {
    const after = { ...sub, items: { ...rec(sub.items), data: itemsForPhase(c, sub, phase, c.now) } };
    saveObject(c.db, "subscription", after);
    emit(c, "customer.subscription.updated", "subscription", after, changed(sub, after));
  }
  return { ...sched, current_phase: { start_date: phase.start_date, end_date: phase.end_date } };
}

/** The schedule at its last phase's end: its subscription released, or canceled. */
function endSchedule(c: Call, sched: Rec): Rec {
  const sub = getObject(c.db, "subscription", String(sched.subscription));
  if (sched.end_behavior === "cancel" && sub) {
    const canceled = { ...sub, status: "canceled", canceled_at: c.now, ended_at: c.now, schedule: null };
    saveObject(c.db, "subscription", canceled);
    emit(c, "customer.subscription.deleted", "subscription", canceled);
    const done = { ...sched, status: "completed", completed_at: c.now, current_phase: null };
    emit(c, "subscription_schedule.completed", "subscription_schedule", done);
    return done;
  }
  if (sub) saveObject(c.db, "subscription", { ...sub, schedule: null });
  const released = { ...sched, status: "released", released_at: c.now, released_subscription: sched.subscription, current_phase: null };
  emit(c, "subscription_schedule.released", "subscription_schedule", released);
  return released;
}

/** Moves a schedule through every phase boundary up to `until`, renewing its subscription between them. */
export function advanceSchedule(c0: Call, sched0: Rec, until: number): Rec {
  let sched = sched0;
  for (let guard = 0; guard < 100; guard++) {
    if (sched.status === "not_started") {
      const start = num(rec(arr(sched.phases)[0]).start_date) ?? Number.POSITIVE_INFINITY;
      if (start > until) break;
      sched = startScheduled(c0, sched);
      continue;
    }
    if (sched.status !== "active") break;
    const end = num(rec(sched.current_phase).end_date) ?? Number.POSITIVE_INFINITY;
    if (end > until) break;
    const sub = getObject(c0.db, "subscription", String(sched.subscription));
    // Periods that end before the boundary bill the phase that is ending.
    if (sub) renew(c0, sub, end - 1);
    const c = at(c0, end);
    const next = arr(sched.phases)
      .map(rec)
      .find((p) => num(p.start_date) === end);
    sched = next ? enterPhase(c, sched, next) : endSchedule(c, sched);
  }
  saveObject(c0.db, "subscription_schedule", sched);
  return sched;
}

/** The schedules of a customer still to run. */
export const runningSchedules = (c: Call, customer: string): Rec[] =>
  liveOfType(c.db, "subscription_schedule", { column: "customer", value: customer }).filter(
    (s) => s.status === "active" || s.status === "not_started",
  );

/** A schedule made from an existing subscription: one phase, its current items and period. */
export function scheduleOfSubscription(sub: Rec): Rec[] {
  const items = arr(rec(sub.items).data).map(rec);
  const first = rec(items[0]);
  return [phaseOf(items, num(first.current_period_start) ?? 0, num(first.current_period_end) ?? 0, String(sub.currency))];
}
