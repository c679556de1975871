// Subscriptions (create, update, cancel, resume, items), Invoices (create, add lines, finalize,
// pay, void, mark uncollectible) and test clocks that advance subscriptions through renewal.
import type { Route, TwinResponse } from "../../types";
import { filterOf, listResponse, load, ok, show, type Call } from "../call";
import { arg, expand, idParam, listQuery, metadata, route } from "../declare";
import { fail, invalidRequest, missingParam, noSuch, stateError } from "../errors";
import { changed, emit } from "../events";
import { buildItem, buildSubscription, buildTestClock } from "../objects";
import type { Params } from "../params";
import { linesOf } from "../seed";
import { arr, deleteObject, getObject, insertObject, liveOfType, newId, num, rec, saveObject, str, strMap, type Rec } from "../store";
import { asInterval, furthestAdvance, periodContaining, utcLabel, type Interval } from "../time";
import {
  at,
  collect,
  createInvoice,
  finalizeInvoice,
  invoiceForSubscription,
  NO_PAYMENT_METHOD,
  nowFor,
  payInvoice,
  priceLine,
  renew,
  requireRecurring,
  withTotals,
} from "../billing";
import { listEnvelope } from "../world";
import { awaitPayment } from "../awaited-payment";
import { isMetered } from "../metered";
import { claimItems, pendingItems } from "../invoice-items";
import { discountsFrom, pendingTaxes, taxRateIds } from "../tax";
import { cancellationInvoice, pauseFrom, prorateChange, trialSettingsFrom } from "../subscription-changes";
import { advanceSchedule, runningSchedules } from "../schedules";

function itemsFrom(c: Call, subId: string, created: number, list: Params[]): { items: Rec[]; currency: string } {
  const currencies = new Set<string>();
  const items = list.map((ip, i) => {
    const priceId = ip.str("price") ?? fail(missingParam(`items[${i}][price]`));
    const price = load(c, "price", priceId, `items[${i}][price]`);
    requireRecurring(price, `items[${i}][price]`);
    currencies.add(String(price.currency));
    const item = buildItem(
      { price: price.id, quantity: ip.int("quantity") ?? 1, metadata: ip.metadata() },
      { id: `si_${newId(c.db, "subscription").slice(4, 18)}`, created, subscription: subId, periodStart: 0, periodEnd: 0 },
    );
    return isMetered(price) ? meteredItem(item, ip, `items[${i}]`) : item;
  });
  if (currencies.size > 1) fail(invalidRequest("All prices on a subscription must have the same `currency`.", { param: "items" }));
  return { items, currency: [...currencies][0] ?? "usd" };
}

/**
 * A metered item has no quantity: Stripe refuses one ("Quantity should not be specified where
 * usage_type is `metered`", as quoted in invertase/stripe-firebase-extensions#134) and shows none.
 */
function meteredItem(item: Rec, ip: Params, path: string): Rec {
  if (ip.has("quantity"))
    fail(
      invalidRequest(
        `Quantity should not be specified where usage_type is \`metered\`. Remove quantity${path ? ` from \`${path}\`` : ""}.`,
        { param: path ? `${path}[quantity]` : "quantity" },
      ),
    );
  const { quantity: _none, ...rest } = item;
  return rest;
}

function withPeriods(c: Call, items: Rec[], anchor: number, now: number, trialEnd: number | null): Rec[] {
  return items.map((it) => {
    const price = getObject(c.db, "price", String(it.price));
    const r = rec(price?.recurring);
    const period = trialEnd
      ? { start: now, end: trialEnd }
      : periodContaining(anchor, now, asInterval(r.interval), num(r.interval_count) ?? 1);
    return { ...it, current_period_start: period.start, current_period_end: period.end };
  });
}

/** Tax rates named by id, as the full TaxRate objects a subscription or invoice shows. */
const taxRateObjects = (c: Call, ids: string[] | undefined): Rec[] | undefined =>
  taxRateIds(c, ids, "default_tax_rates")?.map((id) => getObject(c.db, "tax_rate", id) ?? { id });

/** The subscription's discounts from `discounts[]`: coupons or promotion codes. */
function subscriptionDiscounts(c: Call, sub: Rec): Rec[] {
  return discountsFrom(c, c.p.list("discounts") ?? [], { customer: sub.customer, subscription: sub.id });
}

function defaultPaymentMethod(c: Call, customer: Rec): string | null {
  const pm = c.p.nullable("default_payment_method");
  if (pm) {
    const method = getObject(c.db, "payment_method", pm);
    if (!method) fail(noSuch("PaymentMethod", pm, "default_payment_method"));
    else if (method.customer !== customer.id)
      fail(
        invalidRequest(
          `The customer does not have a payment method with the ID ${pm}. The payment method must be attached to the customer.`,
          { param: "default_payment_method" },
        ),
      );
  }
  return pm ?? null;
}

/**
 * The subscription's `payment_settings`: `save_default_payment_method` is kept (`on_subscription`
 * makes the card that pays the first invoice the subscription's default); the rest keep Stripe's
 * nulls.
 */
function paymentSettingsFrom(c: Call): Rec {
  const save = c.p.sub("payment_settings")?.oneOf("save_default_payment_method", ["off", "on_subscription"]) ?? "off";
  return { payment_method_options: null, payment_method_types: null, save_default_payment_method: save };
}

export function createSubscription(c0: Call): TwinResponse {
  const customer = load(c0, "customer", c0.p.req("customer"), "customer");
  const c = at(c0, nowFor(c0, customer.id));
  const list = c.p.list("items");
  if (!list?.length) return missingParam("items");
  const id = newId(c.db, "subscription");
  const { items, currency } = itemsFrom(c, id, c.now, list);
  const trialDays = c.p.int("trial_period_days");
  const trialEndParam = c.p.str("trial_end");
  const trialEnd =
    trialEndParam === "now" ? null : trialEndParam ? (c.p.int("trial_end") ?? null) : trialDays ? c.now + trialDays * 86400 : null;
  const anchor = trialEnd ?? c.p.int("billing_cycle_anchor") ?? c.now;
  const collection = c.p.oneOf("collection_method", ["charge_automatically", "send_invoice"]) ?? "charge_automatically";
  const behavior =
    c.p.oneOf("payment_behavior", ["allow_incomplete", "default_incomplete", "error_if_incomplete", "pending_if_incomplete"]) ??
    "allow_incomplete";
  let sub = buildSubscription(
    {
      customer: customer.id,
      currency,
      default_payment_method: defaultPaymentMethod(c, customer),
      description: c.p.str("description") ?? null,
      metadata: c.p.metadata(),
      cancel_at_period_end: c.p.bool("cancel_at_period_end") ?? false,
      cancel_at: c.p.int("cancel_at") ?? null,
      collection_method: collection,
      days_until_due: collection === "send_invoice" ? (c.p.int("days_until_due") ?? null) : null,
      billing_cycle_anchor: anchor,
      default_tax_rates: taxRateObjects(c, c.p.strList("default_tax_rates")) ?? [],
      status: trialEnd ? "trialing" : "incomplete",
      trial_start: trialEnd ? c.now : null,
      trial_end: trialEnd,
      ...(c.p.has("trial_settings")
        ? { trial_settings: trialSettingsFrom(c, { end_behavior: { missing_payment_method: "create_invoice" } }) }
        : {}),
      test_clock: customer.test_clock ?? null,
      payment_settings: paymentSettingsFrom(c),
    },
    { id, created: c.now },
  );
  sub.items = listEnvelope(withPeriods(c, items, anchor, c.now, trialEnd), `/v1/subscription_items?subscription=${id}`);
  sub.discounts = subscriptionDiscounts(c, sub);
  const hasCard = Boolean(sub.default_payment_method ?? rec(customer.invoice_settings).default_payment_method);
  insertObject(c.db, "subscription", sub);
  const inv = invoiceForSubscription(c, sub, "subscription_create", trialEnd !== null);
  if (
    collection === "charge_automatically" &&
    !trialEnd &&
    (num(inv.amount_due) ?? 0) > 0 &&
    !hasCard &&
    behavior !== "default_incomplete"
  ) {
    return invalidRequest(NO_PAYMENT_METHOD);
  }
  if (behavior === "default_incomplete" && !trialEnd && (num(inv.amount_due) ?? 0) > 0) {
    const open = awaitPayment(c, finalizeInvoice(c, inv));
    sub = { ...sub, status: "incomplete", latest_invoice: open.id };
  } else {
    const done = collect(c, sub, inv, "incomplete");
    if (done.error && behavior === "error_if_incomplete") return done.error;
    sub = { ...done.sub, status: done.error ? "incomplete" : trialEnd ? "trialing" : "active" };
  }
  saveObject(c.db, "subscription", sub);
  emit(c, "customer.subscription.created", "subscription", sub);
  return show(c, "subscription", sub);
}

/** The subscription's items after `items[]` changed, added (a price alone) or deleted some. */
/** How an item's parameter is named in a refusal: `items[0][price]` on a subscription update. */
type ItemParamName = (i: number, key: string) => string;
const inItems: ItemParamName = (i, key) => `items[${i}][${key}]`;

function itemsAfter(c: Call, before: Rec, list: Params[], name: ItemParamName = inItems): Rec {
  let items = arr(rec(before.items).data).map(rec);
  for (const [i, ip] of list.entries()) {
    const itemId = ip.str("id");
    const existing = itemId ? items.find((it) => it.id === itemId) : undefined;
    if (itemId && !existing) return fail(noSuch("subscription_item", itemId, name(i, "id")));
    if (existing && ip.bool("deleted")) {
      items = items.filter((it) => it !== existing);
      continue;
    }
    const priceId = ip.str("price");
    const price = priceId ? load(c, "price", priceId, name(i, "price")) : undefined;
    if (price) requireRecurring(price, name(i, "price"));
    if (price && price.currency !== before.currency)
      return fail(invalidRequest("All prices on a subscription must have the same `currency`.", { param: name(i, "price") }));
    if (existing) {
      const next = {
        ...existing,
        ...(price ? { price: price.id } : {}),
        quantity: ip.int("quantity") ?? existing.quantity,
        metadata: ip.metadata(strMap(existing.metadata)),
      };
      items = items.map((it) => (it === existing ? next : it));
    } else {
      if (!price) return fail(missingParam(name(i, "price")));
      const first = items[0] ?? {};
      const added = buildItem(
        { price: price.id, quantity: ip.int("quantity") ?? 1, metadata: ip.metadata() },
        {
          id: `si_${newId(c.db, "subscription").slice(4, 18)}`,
          created: c.now,
          subscription: String(before.id),
          periodStart: num(first.current_period_start) ?? c.now,
          periodEnd: num(first.current_period_end) ?? c.now,
        },
      );
      items.push(isMetered(price) ? meteredItem(added, ip, name === inItems ? `items[${i}]` : "") : added);
    }
  }
  if (!items.length)
    fail(
      invalidRequest(
        "A subscription must have at least one active plan. To cancel a subscription, send a DELETE request to the subscription endpoint instead.",
        { param: "items" },
      ),
    );
  return { ...rec(before.items), data: items, total_count: items.length };
}

function updateSubscription(c0: Call): TwinResponse {
  const before = load(c0, "subscription", c0.ctx.params.id);
  const c = at(c0, nowFor(c0, before.customer));
  if (before.status === "canceled")
    return stateError("A canceled subscription can only update its cancellation_details and metadata.", "resource_missing");
  let after: Rec = { ...before, metadata: c.p.metadata(strMap(before.metadata)) };
  const cape = c.p.bool("cancel_at_period_end");
  if (cape !== undefined) {
    after.cancel_at_period_end = cape;
    after.canceled_at = cape ? c.now : null;
    after.cancel_at = cape ? Math.min(...arr(rec(before.items).data).map((it) => num(rec(it).current_period_end) ?? c.now)) : null;
  }
  const cancelAt = c.p.nullable("cancel_at");
  if (cancelAt !== undefined) after.cancel_at = cancelAt === null ? null : c.p.int("cancel_at");
  const description = c.p.nullable("description");
  if (description !== undefined) after.description = description;
  const customer = load(c, "customer", String(before.customer), "customer");
  if (c.p.has("default_payment_method")) after.default_payment_method = defaultPaymentMethod(c, customer);
  const list = c.p.list("items");
  if (list) after.items = itemsAfter(c, before, list);
  if (list) after = prorateChange(c, before, after, c.p.int("proration_date") ?? c.now);
  const pause = pauseFrom(c);
  if (pause !== undefined) after.pause_collection = pause;
  const trialSettings = trialSettingsFrom(c, before.trial_settings);
  if (trialSettings) after.trial_settings = trialSettings;
  if (c.p.has("discounts")) after.discounts = subscriptionDiscounts(c, after);
  const rates = taxRateObjects(c, c.p.strList("default_tax_rates"));
  if (rates) after.default_tax_rates = rates;
  const trialEnd = c.p.str("trial_end");
  if (trialEnd === "now" && before.status === "trialing") {
    after = { ...after, trial_end: c.now, status: "active" };
    after.items = { ...rec(after.items), data: withPeriods(c, arr(rec(after.items).data).map(rec), c.now, c.now, null) };
    after.billing_cycle_anchor = c.now;
    const done = collect(c, after, invoiceForSubscription(c, after, "subscription_update", false), "past_due");
    after = done.sub;
  }
  saveObject(c.db, "subscription", after);
  emit(c, "customer.subscription.updated", "subscription", after, changed(before, after));
  return show(c, "subscription", after);
}

/**
 * One item's change through the subscription item endpoints (`/v1/subscription_items`): the same
 * change a subscription update with that one entry in `items` makes (prorations by
 * `proration_behavior`, `customer.subscription.updated`), the item's parameters named bare.
 * Answers the subscription after the change.
 */
export function changeOneItem(c0: Call, subId: string, ip: Params): Rec {
  const before = load(c0, "subscription", subId, "subscription");
  const c = at(c0, nowFor(c0, before.customer));
  if (before.status === "canceled") fail(invalidRequest("A canceled subscription's items cannot be changed.", { param: "subscription" }));
  let after: Rec = { ...before, items: itemsAfter(c, before, [ip], (_i, key) => key) };
  after = prorateChange(c, before, after, c.p.int("proration_date") ?? c.now);
  saveObject(c.db, "subscription", after);
  emit(c, "customer.subscription.updated", "subscription", after, changed(before, after));
  return after;
}

function cancelSubscription(c0: Call): TwinResponse {
  const before = load(c0, "subscription", c0.ctx.params.id);
  const c = at(c0, nowFor(c0, before.customer));
  if (before.status === "canceled") return stateError(`This subscription has already been canceled.`, "resource_missing");
  const details = c.p.sub("cancellation_details");
  const finalInvoice = cancellationInvoice(c, before, c.p.bool("prorate") ?? false, c.p.bool("invoice_now") ?? false);
  const after = {
    ...before,
    latest_invoice: finalInvoice ?? before.latest_invoice,
    status: "canceled",
    canceled_at: c.now,
    ended_at: c.now,
    cancel_at_period_end: false,
    cancellation_details: {
      comment: details?.str("comment") ?? null,
      feedback: details?.str("feedback") ?? null,
      reason: "cancellation_requested",
    },
  };
  saveObject(c.db, "subscription", after);
  emit(c, "customer.subscription.deleted", "subscription", after);
  return show(c, "subscription", after);
}

function resumeSubscription(c0: Call): TwinResponse {
  const before = load(c0, "subscription", c0.ctx.params.id);
  const c = at(c0, nowFor(c0, before.customer));
  if (before.status !== "paused") return stateError("Only a subscription with status `paused` can be resumed.", "subscription_not_paused");
  let after: Rec = { ...before, status: "active", pause_collection: null, billing_cycle_anchor: c.now };
  after.items = { ...rec(after.items), data: withPeriods(c, arr(rec(after.items).data).map(rec), c.now, c.now, null) };
  const done = collect(c, after, invoiceForSubscription(c, after, "subscription_update", false), "past_due");
  after = done.sub;
  saveObject(c.db, "subscription", after);
  emit(c, "customer.subscription.resumed", "subscription", after);
  return show(c, "subscription", after);
}

const invoiceDiscountsArg = arg.list(
  {
    coupon: arg.text("A coupon's id"),
    promotion_code: arg.text("A promotion code's id, promo_…"),
    discount: arg.text("An existing discount's id"),
  },
  "Coupons or promotion codes applied to the invoice",
);

const INVOICE_STATUSES = ["draft", "open", "paid", "uncollectible", "void"] as const;

function addLines(c: Call, inv: Rec, list: Params[]): Rec {
  const lines = linesOf(inv);
  for (const [i, lp] of list.entries()) {
    const pricing = lp.sub("pricing");
    const priceId = pricing?.str("price");
    const data = lp.sub("price_data");
    const quantity = lp.int("quantity") ?? 1;
    const period = lp.sub("period");
    const span = { start: period?.int("start") ?? c.now, end: period?.int("end") ?? c.now };
    const taxes = pendingTaxes(taxRateIds(c, lp.strList("tax_rates"), `lines[${i}][tax_rates]`) ?? []);
    const itemDetails = {
      invoice_item_details: {
        invoice_item: `ii_${newId(c.db, "invoiceitem").slice(3)}`,
        proration: false,
        proration_details: { credited_items: null },
        subscription: null,
      },
      subscription_item_details: null,
      type: "invoice_item_details",
    };
    if (priceId) {
      const price = load(c, "price", priceId, `lines[${i}][pricing][price]`);
      if (price.currency !== inv.currency)
        fail(invalidRequest("The currency of the price must match the invoice's currency.", { param: `lines[${i}][pricing][price]` }));
      lines.push(
        priceLine(c, String(inv.id), price, quantity, span, {
          description: lp.str("description") ?? String(price.nickname ?? price.product),
          metadata: lp.metadata(),
          parent: itemDetails,
          taxes,
        }),
      );
    } else {
      const unit = data ? data.reqInt("unit_amount") : undefined;
      const amount = lp.int("amount") ?? (unit !== undefined ? unit * quantity : fail(missingParam(`lines[${i}][amount]`)));
      lines.push({
        id: `il_${newId(c.db, "invoiceitem").slice(3)}`,
        object: "line_item",
        amount,
        currency: inv.currency,
        description: lp.str("description") ?? null,
        discount_amounts: [],
        discountable: true,
        discounts: [],
        invoice: inv.id,
        livemode: false,
        metadata: lp.metadata(),
        parent: itemDetails,
        period: span,
        pretax_credit_amounts: [],
        pricing: null,
        quantity,
        subtotal: amount,
        taxes,
      });
    }
  }
  return withTotals(c, inv, lines);
}

function invoiceStateError(inv: Rec, action: string): TwinResponse {
  return stateError(
    `You can only ${action} an invoice with status ${action === "finalize" ? "draft" : "open"}; this invoice is ${String(inv.status)}.`,
    "invoice_not_editable",
  );
}

/** The billing intervals of the subscriptions still running on a test clock's customers. */
function clockIntervals(c: Call, clockId: string): { interval: Interval; count: number }[] {
  const out: { interval: Interval; count: number }[] = [];
  for (const customer of liveOfType(c.db, "customer", { column: "ref", value: clockId }))
    for (const sub of liveOfType(c.db, "subscription", { column: "customer", value: String(customer.id) })) {
      if (sub.status === "canceled" || sub.status === "incomplete_expired") continue;
      for (const item of arr(rec(sub.items).data).map(rec)) {
        const recurring = rec(getObject(c.db, "price", String(item.price))?.recurring);
        out.push({ interval: asInterval(recurring.interval), count: num(recurring.interval_count) ?? 1 });
      }
    }
  return out;
}

function advanceClock(c: Call): TwinResponse {
  const clock = load(c, "test_helpers.test_clock", c.ctx.params.id);
  const to = c.p.reqInt("frozen_time");
  const frozen = num(clock.frozen_time) ?? 0;
  if (to <= frozen) return invalidRequest("The frozen_time must be after the test clock's current frozen_time.", { param: "frozen_time" });
  // Stripe bounds one advance (which also bounds the renewals, invoices and events it writes).
  // Its message, as Stripe words it (quoted in github.com/stream-labs/sl-payments-assignment).
  const limit = furthestAdvance(frozen, clockIntervals(c, String(clock.id)));
  if (!(to <= limit))
    return invalidRequest(
      `The frozen time of this clock is ${frozen} (${utcLabel(frozen)}). You can only advance it up to ${limit} (${utcLabel(limit)}). You can only advance a test clock up to two intervals from the current frozen time at a time, based on the shortest subscription interval in the test clock. For example, if a test clock has a monthly and yearly subscription, you may only advance up to two months at a time. If the test clock has no subscriptions or subscription schedules, you can advance up to 2 years from the current frozen time.`,
      { param: "frozen_time" },
    );
  const advanced = { ...clock, frozen_time: to, status: "ready" };
  saveObject(c.db, "test_helpers.test_clock", advanced);
  emit(c, "test_helpers.test_clock.advancing", "test_helpers.test_clock", { ...advanced, status: "advancing" });
  for (const customer of liveOfType(c.db, "customer", { column: "ref", value: String(clock.id) })) {
    // Schedules first: a phase boundary changes the items the renewals after it bill.
    for (const sched of runningSchedules(c, String(customer.id))) advanceSchedule(c, sched, to);
    for (const sub of liveOfType(c.db, "subscription", { column: "customer", value: String(customer.id) })) renew(c, sub, to);
  }
  emit(at(c, to), "test_helpers.test_clock.ready", "test_helpers.test_clock", advanced);
  return show(c, "test_helpers.test_clock", advanced);
}

const SUBSCRIPTION_STATUSES = [
  "active",
  "all",
  "canceled",
  "ended",
  "incomplete",
  "incomplete_expired",
  "past_due",
  "paused",
  "trialing",
  "unpaid",
] as const;

const collectionMethod = arg.oneOf(["charge_automatically", "send_invoice"], "How invoices are collected");
const daysUntilDue = arg.int("Days to pay, for send_invoice");
export const prorationBehavior = arg.oneOf(["always_invoice", "create_prorations", "none"], "How a change is prorated");
const paymentBehavior = arg.oneOf(
  ["allow_incomplete", "default_incomplete", "error_if_incomplete", "pending_if_incomplete"],
  "What happens when the first payment fails",
);
const discountsArg = arg.list(
  { coupon: arg.text("A coupon's id"), promotion_code: arg.text("A promotion code's id, promo_…") },
  "Coupons or promotion codes applied to the subscription",
);
const cancellationDetails = arg.hash(
  { comment: arg.text("Why, in the customer's words"), feedback: arg.text("The customer's reason, e.g. too_expensive") },
  "Why the subscription is canceled",
);
const subscriptionBody = {
  default_payment_method: arg.unsettable("One of the customer's payment methods, charged for the subscription"),
  discounts: discountsArg,
  trial_end: arg.intOr("now", "Unix time the trial ends, or now to end it"),
  metadata,
  description: arg.unsettable("Description"),
  cancel_at_period_end: arg.bool("Cancel at the end of the current period"),
  cancel_at: arg.unsettableInt("Unix time to cancel at"),
  payment_behavior: paymentBehavior,
  collection_method: collectionMethod,
  days_until_due: daysUntilDue,
  proration_behavior: prorationBehavior,
  off_session: arg.bool("The customer is not present"),
  trial_settings: arg.hash(
    {
      end_behavior: arg.hash(
        {
          missing_payment_method: arg.oneOf(["cancel", "create_invoice", "pause"], "What happens if the trial ends with no payment method"),
        },
        "What happens when the trial ends",
      ),
    },
    "Settings for the trial",
  ),
  expand,
};

export const billingRoutes: readonly Route[] = [
  route({
    method: "POST",
    pattern: "/v1/subscriptions",
    operation: "subscriptions.create",
    summary: "Create a subscription",
    body: {
      customer: arg.id("The customer's id"),
      items: arg.list(
        {
          price: arg.text("A recurring price's id"),
          quantity: arg.int("Quantity (default 1)"),
          metadata,
        },
        "The subscription's items: each a recurring price and a quantity",
      ),
      trial_period_days: arg.int("Days of trial"),
      currency: arg.text("Three-letter ISO currency code"),
      billing_cycle_anchor: arg.int("Unix time the billing cycle is anchored to"),
      payment_settings: arg.anyHash("Payment settings of the subscription's invoices"),
      automatic_tax: arg.hash({ enabled: arg.bool("Whether tax is computed") }, "Automatic tax"),
      default_tax_rates: arg.strings("Tax rates applied to the items"),
      ...subscriptionBody,
    },
    tool: {
      name: "create_subscription",
      description: "Subscribe a customer to recurring prices; the first invoice is charged to their default card.",
    },
    handler: (c) => createSubscription(c),
  }),
  route({
    method: "GET",
    pattern: "/v1/subscriptions",
    operation: "subscriptions.list",
    summary: "List subscriptions",
    query: {
      ...listQuery,
      customer: arg.text("Only this customer's"),
      status: arg.oneOf(SUBSCRIPTION_STATUSES, "Only this status (all: canceled ones too; ended: canceled or expired)"),
      price: arg.text("Only subscriptions with this price"),
      collection_method: collectionMethod,
      test_clock: arg.text("Only this test clock's"),
    },
    tool: { name: "list_subscriptions", description: "List subscriptions (not canceled ones unless status says so)." },
    handler(c, { query }) {
      const status = query.status;
      const price = query.price;
      const keep = (o: Rec) =>
        (status === "all" ||
          (status === undefined
            ? o.status !== "canceled"
            : status === "ended"
              ? o.status === "canceled" || o.status === "incomplete_expired"
              : true)) &&
        (!price || arr(rec(o.items).data).some((it) => rec(it).price === price));
      const statusFilter = status && status !== "all" && status !== "ended" ? [{ column: "status" as const, value: status }] : [];
      return listResponse(c, "subscription", "/v1/subscriptions", [...filterOf(c, "customer", "customer"), ...statusFilter], keep);
    },
  }),
  route({
    method: "GET",
    pattern: "/v1/subscriptions/:id",
    operation: "subscriptions.retrieve",
    summary: "Retrieve a subscription",
    params: idParam("The subscription's id, sub_…"),
    query: { expand },
    tool: { name: "get_subscription", description: "Retrieve a subscription with its items and their current periods." },
    handler: (c, { params }) => show(c, "subscription", load(c, "subscription", params.id)),
  }),
  route({
    method: "POST",
    pattern: "/v1/subscriptions/:id",
    operation: "subscriptions.update",
    summary: "Update a subscription",
    params: idParam("The subscription's id"),
    body: {
      items: arg.list(
        {
          id: arg.text("An existing item's id (si_…): change or delete it"),
          price: arg.text("A recurring price's id"),
          quantity: arg.int("Quantity"),
          deleted: arg.bool("Remove the item"),
          metadata,
        },
        "Items to change, add (price only) or delete (id and deleted: true)",
      ),
      cancellation_details: cancellationDetails,
      proration_date: arg.int("Unix time the prorations are computed at (as previewed with create_preview)"),
      default_tax_rates: arg.strings("Tax rates applied to the subscription's invoices; empty clears them"),
      billing_cycle_anchor: arg.text("now or unchanged"),
      pause_collection: arg.hash(
        {
          behavior: arg.oneOf(["keep_as_draft", "mark_uncollectible", "void"], "What happens to invoices while paused"),
          resumes_at: arg.int("Unix time collection resumes"),
        },
        "Pauses collection; empty resumes it",
      ),
      ...subscriptionBody,
    },
    tool: {
      name: "update_subscription",
      description: "Update a subscription: item prices or quantities, cancel_at_period_end, default payment method, metadata.",
    },
    handler: (c) => updateSubscription(c),
  }),
  route({
    method: "DELETE",
    pattern: "/v1/subscriptions/:id",
    operation: "subscriptions.cancel",
    summary: "Cancel a subscription",
    params: idParam("The subscription's id"),
    query: {
      cancellation_details: cancellationDetails,
      invoice_now: arg.bool("Invoice pending usage now"),
      prorate: arg.bool("Credit unused time"),
      expand,
    },
    tool: { name: "cancel_subscription", description: "Cancel a subscription now." },
    handler: (c) => cancelSubscription(c),
  }),
  route({
    method: "POST",
    pattern: "/v1/subscriptions/:id/resume",
    operation: "subscriptions.resume",
    summary: "Resume a paused subscription",
    params: idParam("The subscription's id"),
    body: {
      billing_cycle_anchor: arg.text("now or unchanged"),
      proration_behavior: prorationBehavior,
      proration_date: arg.int("Unix time prorations are computed at"),
      expand,
    },
    tool: { name: "resume_subscription", description: "Resume a paused subscription." },
    handler: (c) => resumeSubscription(c),
  }),
  route({
    method: "GET",
    pattern: "/v1/subscription_items",
    operation: "subscriptionItems.list",
    summary: "List a subscription's items",
    query: { subscription: arg.id("The subscription's id"), ...listQuery },
    tool: { name: "list_subscription_items", description: "List a subscription's items." },
    handler(c, { query }) {
      const sub = load(c, "subscription", query.subscription, "subscription");
      const data = arr(rec(sub.items).data)
        .map(rec)
        .map((it) => ({ ...it, price: getObject(c.db, "price", String(it.price)) ?? it.price }));
      return ok({ object: "list", data, has_more: false, url: "/v1/subscription_items" });
    },
  }),
  route({
    method: "POST",
    pattern: "/v1/invoices",
    operation: "invoices.create",
    summary: "Create an invoice",
    body: {
      customer: arg.id("The customer's id"),
      subscription: arg.text("One of the customer's subscriptions, to invoice its pending items"),
      auto_advance: arg.bool("Whether Stripe finalizes and collects it automatically"),
      collection_method: collectionMethod,
      days_until_due: daysUntilDue,
      description: arg.text("Description"),
      metadata,
      default_payment_method: arg.text("The payment method charged"),
      currency: arg.text("Three-letter ISO currency code"),
      pending_invoice_items_behavior: arg.oneOf(["exclude", "include"], "Whether pending invoice items are pulled in"),
      footer: arg.text("Footer"),
      due_date: arg.int("Unix time it is due, for send_invoice"),
      automatic_tax: arg.hash({ enabled: arg.bool("Whether tax is computed") }, "Automatic tax"),
      default_tax_rates: arg.strings("Tax rates applied to lines that name none"),
      discounts: invoiceDiscountsArg,
      expand,
    },
    tool: { name: "create_invoice", description: "Create a draft invoice for a customer; add lines, then finalize and pay it." },
    handler(c0, { body }) {
      const customer = load(c0, "customer", body.customer, "customer");
      const c = at(c0, nowFor(c0, customer.id));
      const subId = body.subscription;
      const sub = subId ? load(c, "subscription", subId, "subscription") : undefined;
      if (sub && sub.customer !== customer.id)
        return invalidRequest(`The subscription ${subId} does not belong to customer ${String(customer.id)}.`, { param: "subscription" });
      const collection = body.collection_method ?? "charge_automatically";
      if (collection === "send_invoice" && body.days_until_due === undefined && body.due_date === undefined) {
        return invalidRequest("Missing required param: days_until_due.", { code: "parameter_missing", param: "days_until_due" });
      }
      const inv = createInvoice(
        c,
        {
          customer: customer.id,
          currency: c.p.currency("currency") ?? sub?.currency ?? customer.currency ?? "usd",
          auto_advance: body.auto_advance ?? false,
          collection_method: collection,
          days_until_due: body.days_until_due ?? null,
          description: body.description ?? null,
          metadata: c.p.metadata(),
          default_payment_method: body.default_payment_method ?? null,
          footer: body.footer ?? null,
          billing_reason: "manual",
          default_tax_rates: taxRateObjects(c, body.default_tax_rates) ?? [],
        },
        sub,
        // Since API version 2022-08-01 pending items stay out unless asked for.
        (invoiceId) =>
          body.pending_invoice_items_behavior === "include" ? claimItems(c, pendingItems(c, String(customer.id), subId), invoiceId) : [],
        (invoiceId) => ({ discounts: discountsFrom(c, c.p.list("discounts") ?? [], { customer: customer.id, invoice: invoiceId }) }),
      );
      return show(c, "invoice", inv);
    },
  }),
  route({
    method: "GET",
    pattern: "/v1/invoices",
    operation: "invoices.list",
    summary: "List invoices",
    query: {
      ...listQuery,
      customer: arg.text("Only this customer's"),
      subscription: arg.text("Only this subscription's"),
      status: arg.oneOf(INVOICE_STATUSES, "Only this status"),
      collection_method: collectionMethod,
      due_date: arg.int("Only those due at this unix time"),
    },
    tool: { name: "list_invoices", description: "List invoices, optionally a customer's, a subscription's or by status." },
    handler(c, { query }) {
      return listResponse(c, "invoice", "/v1/invoices", [
        ...filterOf(c, "customer", "customer"),
        ...filterOf(c, "subscription", "ref"),
        ...(query.status ? [{ column: "status" as const, value: query.status }] : []),
      ]);
    },
  }),
  route({
    method: "GET",
    pattern: "/v1/invoices/:id",
    operation: "invoices.retrieve",
    summary: "Retrieve an invoice",
    params: idParam("The invoice's id, in_…"),
    query: { expand },
    tool: { name: "get_invoice", description: "Retrieve an invoice with its lines and totals." },
    handler: (c, { params }) => show(c, "invoice", load(c, "invoice", params.id)),
  }),
  route({
    method: "GET",
    pattern: "/v1/invoice_payments",
    operation: "invoicePayments.list",
    summary: "List invoice payments",
    query: {
      ...listQuery,
      invoice: arg.text("Only this invoice's payments"),
      payment: arg.hash(
        { type: arg.text("payment_intent"), payment_intent: arg.text("Only the payment by this PaymentIntent") },
        "Only the payment made by this object",
      ),
      status: arg.oneOf(["open", "paid", "canceled"], "Only this status"),
    },
    tool: {
      name: "list_invoice_payments",
      description: "List the payments made on invoices (each names its PaymentIntent), optionally one invoice's.",
    },
    handler(c, { query }) {
      const pi = c.p.sub("payment")?.str("payment_intent");
      return listResponse(c, "invoice_payment", "/v1/invoice_payments", [
        ...filterOf(c, "invoice", "ref"),
        ...(pi ? [{ column: "ref2" as const, value: pi }] : []),
        ...(query.status ? [{ column: "status" as const, value: query.status }] : []),
      ]);
    },
  }),
  route({
    method: "GET",
    pattern: "/v1/invoice_payments/:id",
    operation: "invoicePayments.retrieve",
    summary: "Retrieve an invoice payment",
    params: idParam("The invoice payment's id, inpay_…"),
    query: { expand },
    tool: { name: "get_invoice_payment", description: "Retrieve an invoice payment." },
    handler: (c, { params }) => show(c, "invoice_payment", load(c, "invoice_payment", params.id)),
  }),
  route({
    method: "GET",
    pattern: "/v1/invoices/:id/lines",
    operation: "invoices.listLineItems",
    summary: "List an invoice's lines",
    params: idParam("The invoice's id"),
    query: listQuery,
    tool: { name: "list_invoice_lines", description: "List an invoice's lines." },
    handler(c, { params, query }) {
      const inv = load(c, "invoice", params.id);
      const lines = linesOf(inv);
      const limit = query.limit ?? 10;
      const after = query.starting_after;
      const from = after ? lines.findIndex((l) => l.id === after) + 1 : 0;
      const page = lines.slice(from, from + limit);
      return ok({ object: "list", data: page, has_more: from + limit < lines.length, url: `/v1/invoices/${String(inv.id)}/lines` });
    },
  }),
  route({
    method: "POST",
    pattern: "/v1/invoices/:id",
    operation: "invoices.update",
    summary: "Update an invoice",
    params: idParam("The invoice's id"),
    body: {
      metadata,
      description: arg.unsettable("Description"),
      auto_advance: arg.bool("Whether Stripe finalizes and collects it automatically"),
      default_payment_method: arg.unsettable("The payment method charged"),
      days_until_due: daysUntilDue,
      collection_method: collectionMethod,
      footer: arg.unsettable("Footer"),
      due_date: arg.int("Unix time it is due"),
      expand,
    },
    tool: { name: "update_invoice", description: "Update a draft invoice's description or metadata." },
    handler(c, { params, body }) {
      const before = load(c, "invoice", params.id);
      const editable = before.status === "draft";
      if (!editable && [...Object.keys(c.p.raw)].some((k) => k !== "metadata")) return invoiceStateError(before, "edit");
      const after: Rec = { ...before, metadata: c.p.metadata(strMap(before.metadata)) };
      for (const key of ["description", "footer", "default_payment_method"]) {
        const v = c.p.nullable(key);
        if (v !== undefined) after[key] = v;
      }
      if (body.auto_advance !== undefined) after.auto_advance = body.auto_advance;
      // A draft is fully editable, its collection terms included (docs.stripe.com/api/invoices/update);
      // finalizing sets due_date from days_until_due.
      if (body.collection_method !== undefined) after.collection_method = body.collection_method;
      if (body.days_until_due !== undefined) after.days_until_due = body.days_until_due;
      if (after.collection_method === "charge_automatically") after.days_until_due = null;
      saveObject(c.db, "invoice", after);
      emit(c, "invoice.updated", "invoice", after, changed(before, after));
      return show(c, "invoice", after);
    },
  }),
  route({
    method: "POST",
    pattern: "/v1/invoices/:id/add_lines",
    operation: "invoices.addLines",
    summary: "Add lines to a draft invoice",
    params: idParam("The invoice's id"),
    body: {
      lines: arg.list(
        {
          amount: arg.int("Amount in the smallest unit"),
          description: arg.text("Line description"),
          pricing: arg.hash({ price: arg.text("A price's id") }, "Bill a price"),
          price_data: arg.hash(
            { currency: arg.text("Currency"), product: arg.text("The product's id"), unit_amount: arg.int("Price per unit") },
            "An inline price",
          ),
          quantity: arg.int("Quantity"),
          period: arg.hash({ start: arg.int("Unix start"), end: arg.int("Unix end") }, "The period the line covers"),
          metadata,
          discountable: arg.bool("Whether discounts apply"),
          tax_rates: arg.strings("Tax rates"),
        },
        "Lines to add",
      ),
      metadata,
      invoice_metadata: metadata,
      expand,
    },
    tool: {
      name: "add_invoice_lines",
      description: "Add lines to a draft invoice: an amount with a description, or a price and quantity.",
    },
    handler(c, { params }) {
      const inv = load(c, "invoice", params.id);
      if (inv.status !== "draft") return invoiceStateError(inv, "add lines to");
      const list = c.p.list("lines") ?? fail(missingParam("lines"));
      const after = addLines(c, inv, list);
      saveObject(c.db, "invoice", after);
      emit(c, "invoice.updated", "invoice", after);
      return show(c, "invoice", after);
    },
  }),
  route({
    method: "POST",
    pattern: "/v1/invoices/:id/finalize",
    operation: "invoices.finalizeInvoice",
    summary: "Finalize a draft invoice",
    params: idParam("The invoice's id"),
    body: { auto_advance: arg.bool("Whether Stripe collects it automatically"), expand },
    tool: { name: "finalize_invoice", description: "Finalize a draft invoice so it can be paid." },
    handler(c0, { params }) {
      const inv = load(c0, "invoice", params.id);
      const c = at(c0, nowFor(c0, inv.customer));
      if (inv.status !== "draft") return invoiceStateError(inv, "finalize");
      const open = finalizeInvoice(c, inv);
      if ((num(open.amount_due) ?? 0) === 0) return show(c, "invoice", payInvoice(c, open).inv);
      return show(c, "invoice", open);
    },
  }),
  route({
    method: "POST",
    pattern: "/v1/invoices/:id/pay",
    operation: "invoices.pay",
    summary: "Pay an invoice",
    params: idParam("The invoice's id"),
    body: {
      paid_out_of_band: arg.bool("Mark paid outside Stripe"),
      payment_method: arg.text("A payment method to charge"),
      off_session: arg.bool("The customer is not present"),
      forgive: arg.bool("Forgive the rest of a partial payment"),
      source: arg.text("A source to charge"),
      expand,
    },
    tool: { name: "pay_invoice", description: "Pay an open invoice with the customer's default card (or paid_out_of_band)." },
    handler(c0, { params, body }) {
      let inv = load(c0, "invoice", params.id);
      const c = at(c0, nowFor(c0, inv.customer));
      if (inv.status === "draft") inv = finalizeInvoice(c, inv);
      if (inv.status !== "open") return stateError("Invoice is already paid", "invoice_already_paid");
      const r = payInvoice(c, inv, { paymentMethod: body.payment_method, outOfBand: body.paid_out_of_band ?? false });
      if (r.error) return r.error;
      const subId = str(rec(rec(r.inv.parent).subscription_details).subscription);
      const sub = subId ? getObject(c.db, "subscription", subId) : undefined;
      if (sub && (sub.status === "past_due" || sub.status === "incomplete" || sub.status === "unpaid")) {
        const active = { ...sub, status: "active" };
        saveObject(c.db, "subscription", active);
        emit(c, "customer.subscription.updated", "subscription", active, { status: sub.status });
      }
      return show(c, "invoice", r.inv);
    },
  }),
  route({
    method: "POST",
    pattern: "/v1/invoices/:id/void",
    operation: "invoices.voidInvoice",
    summary: "Void an invoice",
    params: idParam("The invoice's id"),
    body: { expand },
    tool: { name: "void_invoice", description: "Void an open invoice.", destructive: true },
    handler(c, { params }) {
      const inv = load(c, "invoice", params.id);
      if (inv.status !== "open" && inv.status !== "uncollectible") return invoiceStateError(inv, "void");
      const after = {
        ...inv,
        status: "void",
        amount_remaining: 0,
        status_transitions: { ...rec(inv.status_transitions), voided_at: c.now },
      };
      saveObject(c.db, "invoice", after);
      emit(c, "invoice.voided", "invoice", after);
      return show(c, "invoice", after);
    },
  }),
  route({
    method: "POST",
    pattern: "/v1/invoices/:id/mark_uncollectible",
    operation: "invoices.markUncollectible",
    summary: "Mark an invoice uncollectible",
    params: idParam("The invoice's id"),
    body: { expand },
    tool: { name: "mark_invoice_uncollectible", description: "Mark an open invoice uncollectible." },
    handler(c, { params }) {
      const inv = load(c, "invoice", params.id);
      if (inv.status !== "open") return invoiceStateError(inv, "mark uncollectible");
      const after = {
        ...inv,
        status: "uncollectible",
        status_transitions: { ...rec(inv.status_transitions), marked_uncollectible_at: c.now },
      };
      saveObject(c.db, "invoice", after);
      emit(c, "invoice.marked_uncollectible", "invoice", after);
      return show(c, "invoice", after);
    },
  }),
  route({
    method: "DELETE",
    pattern: "/v1/invoices/:id",
    operation: "invoices.del",
    summary: "Delete a draft invoice",
    params: idParam("The invoice's id"),
    tool: { name: "delete_invoice", description: "Delete a draft invoice." },
    handler(c, { params }) {
      const inv = load(c, "invoice", params.id);
      if (inv.status !== "draft") return stateError("You can only delete draft invoices.", "invoice_not_editable");
      c.db.run("DELETE FROM st_objects WHERE id = ? AND type = 'invoice'", String(inv.id));
      emit(c, "invoice.deleted", "invoice", inv);
      return ok({ id: inv.id, object: "invoice", deleted: true });
    },
  }),
  route({
    method: "POST",
    pattern: "/v1/test_helpers/test_clocks",
    operation: "testHelpers.testClocks.create",
    summary: "Create a test clock",
    body: { frozen_time: arg.reqInt("Unix seconds the clock starts frozen at"), name: arg.text("Name"), expand },
    tool: { name: "create_test_clock", description: "Create a test clock frozen at a unix time; customers created on it follow it." },
    handler(c, { body }) {
      const clock = buildTestClock(
        { frozen_time: body.frozen_time, name: body.name ?? null },
        { id: newId(c.db, "test_helpers.test_clock"), created: c.now },
      );
      insertObject(c.db, "test_helpers.test_clock", clock);
      emit(c, "test_helpers.test_clock.created", "test_helpers.test_clock", clock);
      return show(c, "test_helpers.test_clock", clock);
    },
  }),
  route({
    method: "GET",
    pattern: "/v1/test_helpers/test_clocks",
    operation: "testHelpers.testClocks.list",
    summary: "List test clocks",
    query: listQuery,
    tool: { name: "list_test_clocks", description: "List test clocks." },
    handler: (c) => listResponse(c, "test_helpers.test_clock", "/v1/test_helpers/test_clocks"),
  }),
  route({
    method: "GET",
    pattern: "/v1/test_helpers/test_clocks/:id",
    operation: "testHelpers.testClocks.retrieve",
    summary: "Retrieve a test clock",
    params: idParam("The clock's id, clock_…"),
    query: { expand },
    tool: { name: "get_test_clock", description: "Retrieve a test clock." },
    handler: (c, { params }) => show(c, "test_helpers.test_clock", load(c, "test_helpers.test_clock", params.id)),
  }),
  route({
    method: "POST",
    pattern: "/v1/test_helpers/test_clocks/:id/advance",
    operation: "testHelpers.testClocks.advance",
    summary: "Advance a test clock",
    params: idParam("The clock's id"),
    body: { frozen_time: arg.reqInt("The new unix time, after the current one"), expand },
    tool: {
      name: "advance_test_clock",
      description: "Advance a test clock: its subscriptions renew, invoice and charge through every period passed.",
    },
    handler: (c) => advanceClock(c),
  }),
  route({
    method: "DELETE",
    pattern: "/v1/test_helpers/test_clocks/:id",
    operation: "testHelpers.testClocks.del",
    summary: "Delete a test clock and its customers",
    params: idParam("The clock's id"),
    tool: { name: "delete_test_clock", description: "Delete a test clock and the customers on it." },
    handler(c, { params }) {
      const clock = load(c, "test_helpers.test_clock", params.id);
      for (const customer of liveOfType(c.db, "customer", { column: "ref", value: String(clock.id) }))
        deleteObject(c.db, "customer", String(customer.id));
      c.db.run("DELETE FROM st_objects WHERE id = ? AND type = 'test_helpers.test_clock'", String(clock.id));
      emit(c, "test_helpers.test_clock.deleted", "test_helpers.test_clock", clock);
      return ok({ id: clock.id, object: "test_helpers.test_clock", deleted: true });
    },
  }),
];
