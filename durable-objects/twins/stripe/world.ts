// Boot and export: seed rows become stored Stripe objects (lists as Stripe's list envelopes,
// discounts as Discount objects, the current billing period worked out against the sandbox's
// start), and stored objects come back out in the seed's own shape. The tables a seed fills are
// declared once, as column maps, in world-tables.ts; boot writes and export reads through them.
import type { Db } from "../types";
import { unixSeconds } from "../kit/sql";
import type { Clock } from "../types";
import { insertObjects, objectOf, readRows } from "../kit/world-table";
import { buildItem } from "./objects";
import { defaultConfiguration, isUntouchedDefault } from "./portal";
import { itemsOf, linesOf, LISTS, type StripeSeed } from "./seed";
import { getObject, idBody, num, rec, str, arr, type ObjectType, type Rec } from "./store";
import { asInterval, periodContaining } from "./time";
import * as T from "./world-tables";

export const listEnvelope = (data: Rec[], url: string): Rec => ({ object: "list", data, has_more: false, total_count: data.length, url });

export function discountObject(subscription: Rec, coupon: string, start: number): Rec {
  return {
    id: `di_${idBody(`discount:${String(subscription.id)}:${coupon}`)}`,
    object: "discount",
    checkout_session: null,
    customer: subscription.customer,
    customer_account: null,
    end: null,
    invoice: null,
    invoice_item: null,
    promotion_code: null,
    source: { coupon, type: "coupon" },
    start,
    subscription: subscription.id,
    subscription_item: null,
  };
}

/** A subscription's moment: its customer's test clock when it has one, else the sandbox clock. */
export function subscriptionNow(db: Db, customer: unknown, clock: Clock): number {
  const c = typeof customer === "string" ? getObject(db, "customer", customer) : undefined;
  const clockId = str(c?.test_clock);
  const tc = clockId ? getObject(db, "test_helpers.test_clock", clockId) : undefined;
  return num(tc?.frozen_time) ?? unixSeconds(clock.now());
}

/** Stored subscription items: a list envelope, each item's period the cycle containing `now`. */
export function storedItems(db: Db, sub: Rec, items: Rec[], now: number, derived?: Map<string, [number, number]>): Rec {
  const anchor = num(sub.billing_cycle_anchor) ?? num(sub.created) ?? now;
  const data = items.map((it) => {
    const price = getObject(db, "price", String(it.price));
    const recurring = rec(price?.recurring);
    const period = periodContaining(anchor, now, asInterval(recurring.interval), num(recurring.interval_count) ?? 1);
    if (derived && num(it.current_period_start) === undefined && num(it.current_period_end) === undefined)
      derived.set(String(it.id), [period.start, period.end]);
    return buildItem(it, {
      id: String(it.id),
      created: num(it.created) ?? num(sub.created) ?? now,
      subscription: String(sub.id),
      periodStart: num(it.current_period_start) ?? period.start,
      periodEnd: num(it.current_period_end) ?? period.end,
    });
  });
  return listEnvelope(data, `/v1/subscription_items?subscription=${String(sub.id)}`);
}

/**
 * Periods boot worked out for items the seed gave none: the export leaves them out again while
 * they are unchanged, so export(boot(seed)) is the seed whatever day the sandbox started.
 */
const DERIVED_KEY = "derived_periods";

/**
 * The object a seed row becomes, as the API would have stored it: a deleted one keeps only its
 * id; a subscription's items become a list envelope with each item's current period (worked out
 * from its price and its customer's clock, both booted before it), its discounts Discount
 * objects; an invoice's lines a list envelope.
 */
function storedObjectOf(db: Db, type: ObjectType, row: Rec, clock: Clock, derived: Map<string, [number, number]>): Rec {
  if (row.deleted === true) return { id: row.id, object: type, deleted: true };
  const o: Rec = { id: row.id, object: type, ...row };
  if (type === "subscription") {
    const now = subscriptionNow(db, row.customer, clock);
    o.items = storedItems(db, o, itemsOf(row), now, derived);
    o.discounts = arr(row.discounts).map((d) => discountObject(o, String(rec(d).coupon), num(row.start_date) ?? num(row.created) ?? now));
  }
  if (type === "invoice")
    o.lines = listEnvelope(
      linesOf(row).map((l) => ({ id: l.id, object: "line_item", ...l })),
      `/v1/invoices/${String(row.id)}/lines`,
    );
  return o;
}

export function bootStripe(db: Db, seed: StripeSeed, clock: Clock): void {
  const derived = new Map<string, [number, number]>();
  // List by list, in LISTS order: a list's objects may read the ones booted before them.
  for (const [list, type] of LISTS) {
    const stored: T.StoredObject[] = seed[list].map((row) => ({ type, object: storedObjectOf(db, type, row, clock, derived) }));
    insertObjects(db, T.objects, stored, undefined);
  }
  const meta: T.MetaEntry[] = [{ key: "balance", value: seed.balance }];
  if (seed.account) meta.push({ key: "account", value: seed.account });
  if (seed.faults.length) meta.push({ key: "faults", value: seed.faults });
  if (derived.size) meta.push({ key: DERIVED_KEY, value: [...derived] });
  insertObjects(db, T.meta, meta, undefined);
  // An account has its default portal configuration from the start; made here, a read never writes it.
  defaultConfiguration(db, unixSeconds(clock.now()));
}

/** A meta entry's value as boot wrote it; undefined when boot wrote none. */
function metaValue(db: Db, key: string): unknown {
  const [row] = readRows(db, T.meta.table, "WHERE key = ?", key);
  return row ? objectOf(T.meta, row, undefined).value : undefined;
}

/** The exported types' stored objects by type, each type's in creation order, in one pass. */
function storedByType(db: Db): Map<ObjectType, Rec[]> {
  const byType = new Map<ObjectType, Rec[]>();
  const exported = JSON.stringify(LISTS.map(([, type]) => type));
  for (const row of readRows(db, T.objects.table, "WHERE type IN (SELECT value FROM json_each(?)) ORDER BY n", exported)) {
    const { type, object } = objectOf(T.objects, row, undefined);
    const objects = byType.get(type);
    if (objects) objects.push(object);
    else byType.set(type, [object]);
  }
  return byType;
}

const strip = (o: Rec): Rec => Object.fromEntries(Object.entries(o).filter(([k]) => k !== "object"));

/** One stored object in its seed row's shape. */
export function seedRowOf(type: ObjectType, o: Rec, derived = new Map<string, [number, number]>()): Rec {
  if (o.deleted === true) return { id: o.id, deleted: true };
  const row = strip(o);
  if (type === "subscription") {
    row.items = itemsOf(o).map((it) =>
      strip({ ...it, price: typeof it.price === "string" ? it.price : rec(it.price).id, plan: undefined }),
    );
    for (const raw of arr(row.items)) {
      const it = rec(raw);
      delete it.plan;
      const was = derived.get(String(it.id));
      if (was && was[0] === it.current_period_start && was[1] === it.current_period_end) {
        delete it.current_period_start;
        delete it.current_period_end;
      }
    }
    row.discounts = arr(o.discounts).map((d) => ({ coupon: str(rec(rec(d).source).coupon) ?? "" }));
  }
  if (type === "invoice") row.lines = linesOf(o).map(strip);
  return row;
}

/** The seeded faults, as the seed wrote them. */
export function seededFaults(db: Db): Rec[] {
  return arr(metaValue(db, "faults")).map(rec);
}

export function exportStripe(db: Db): StripeSeed {
  const out: Partial<StripeSeed> = {};
  const derived = new Map<string, [number, number]>();
  for (const entry of arr(metaValue(db, DERIVED_KEY))) {
    const [id, span] = arr(entry);
    const [start, end] = arr(span);
    if (typeof id === "string" && typeof start === "number" && typeof end === "number") derived.set(id, [start, end]);
  }
  const stored = storedByType(db);
  // The default portal configuration boot made is not the seed's: left out until something changes it.
  const seeded = (o: Rec) => !isUntouchedDefault(o);
  for (const [list, type] of LISTS) out[list] = (stored.get(type) ?? []).filter(seeded).map((o) => seedRowOf(type, o, derived));
  const balance = metaValue(db, "balance");
  const seed: StripeSeed = {
    test_clocks: out.test_clocks ?? [],
    customers: out.customers ?? [],
    payment_methods: out.payment_methods ?? [],
    products: out.products ?? [],
    prices: out.prices ?? [],
    coupons: out.coupons ?? [],
    subscriptions: out.subscriptions ?? [],
    invoices: out.invoices ?? [],
    payment_intents: out.payment_intents ?? [],
    invoice_payments: out.invoice_payments ?? [],
    setup_intents: out.setup_intents ?? [],
    checkout_sessions: out.checkout_sessions ?? [],
    payment_links: out.payment_links ?? [],
    charges: out.charges ?? [],
    refunds: out.refunds ?? [],
    disputes: out.disputes ?? [],
    balance_transactions: out.balance_transactions ?? [],
    tax_rates: out.tax_rates ?? [],
    promotion_codes: out.promotion_codes ?? [],
    subscription_schedules: out.subscription_schedules ?? [],
    invoice_items: out.invoice_items ?? [],
    credit_notes: out.credit_notes ?? [],
    customer_balance_transactions: out.customer_balance_transactions ?? [],
    accounts: out.accounts ?? [],
    external_accounts: out.external_accounts ?? [],
    payouts: out.payouts ?? [],
    transfers: out.transfers ?? [],
    transfer_reversals: out.transfer_reversals ?? [],
    application_fees: out.application_fees ?? [],
    billing_portal_configurations: out.billing_portal_configurations ?? [],
    billing_meters: out.billing_meters ?? [],
    webhook_endpoints: out.webhook_endpoints ?? [],
    events: out.events ?? [],
    balance: rec(balance),
    faults: seededFaults(db),
  };
  // The platform account, when the seed described one (connect.ts answers the default otherwise).
  const account = metaValue(db, "account");
  if (account !== undefined) seed.account = rec(account);
  return seed;
}
