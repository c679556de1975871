// Boot and export: seed rows become stored Stripe objects (lists as Stripe's list envelopes,
// discounts as Discount objects, the current billing period worked out against the sandbox's
// start), and stored objects come back out in the seed's own shape.
import type { Db } from "../types";
import { unixSeconds } from "../kit/sql";
import type { Clock } from "../types";
import { buildItem } from "./objects";
import { itemsOf, linesOf, LISTS, type StripeSeed } from "./seed";
import { allOfType, getObject, idBody, insertObject, num, rec, str, arr, type ObjectType, type Rec } from "./store";
import { asInterval, periodContaining } from "./time";

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

export function bootStripe(db: Db, seed: StripeSeed, clock: Clock): void {
  const derived = new Map<string, [number, number]>();
  for (const [list, type] of LISTS) {
    for (const row of seed[list]) {
      if (row.deleted === true) {
        db.run(
          "INSERT INTO st_objects (id, type, created, deleted, data) VALUES (?, ?, 0, 1, ?)",
          String(row.id),
          type,
          JSON.stringify({ id: row.id, object: type, deleted: true }),
        );
        continue;
      }
      const o: Rec = { id: row.id, object: type, ...row };
      if (type === "subscription") {
        const now = subscriptionNow(db, row.customer, clock);
        o.items = storedItems(db, o, itemsOf(row), now, derived);
        o.discounts = arr(row.discounts).map((d) =>
          discountObject(o, String(rec(d).coupon), num(row.start_date) ?? num(row.created) ?? now),
        );
      }
      if (type === "invoice")
        o.lines = listEnvelope(
          linesOf(row).map((l) => ({ id: l.id, object: "line_item", ...l })),
          `/v1/invoices/${String(row.id)}/lines`,
        );
      insertObject(db, type, o);
    }
  }
  db.run("INSERT OR REPLACE INTO st_meta (key, value) VALUES ('balance', ?)", JSON.stringify(seed.balance));
  if (seed.account) db.run("INSERT OR REPLACE INTO st_meta (key, value) VALUES ('account', ?)", JSON.stringify(seed.account));
  if (seed.faults.length) db.run("INSERT OR REPLACE INTO st_meta (key, value) VALUES ('faults', ?)", JSON.stringify(seed.faults));
  if (derived.size) db.run("INSERT OR REPLACE INTO st_meta (key, value) VALUES (?, ?)", DERIVED_KEY, JSON.stringify([...derived]));
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
  const row = db.one<{ value: string }>("SELECT value FROM st_meta WHERE key = 'faults'");
  return row ? arr(JSON.parse(row.value)).map(rec) : [];
}

export function exportStripe(db: Db): StripeSeed {
  const out: Partial<StripeSeed> = {};
  const saved = db.one<{ value: string }>("SELECT value FROM st_meta WHERE key = ?", DERIVED_KEY);
  const derived = new Map<string, [number, number]>();
  for (const entry of saved ? arr(JSON.parse(saved.value)) : []) {
    const [id, span] = arr(entry);
    const [start, end] = arr(span);
    if (typeof id === "string" && typeof start === "number" && typeof end === "number") derived.set(id, [start, end]);
  }
  for (const [list, type] of LISTS) out[list] = allOfType(db, type).map((o) => seedRowOf(type, o, derived));
  const balance = db.one<{ value: string }>("SELECT value FROM st_meta WHERE key = 'balance'");
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
    payouts: out.payouts ?? [],
    transfers: out.transfers ?? [],
    transfer_reversals: out.transfer_reversals ?? [],
    application_fees: out.application_fees ?? [],
    billing_portal_configurations: out.billing_portal_configurations ?? [],
    billing_meters: out.billing_meters ?? [],
    webhook_endpoints: out.webhook_endpoints ?? [],
    events: out.events ?? [],
    balance: balance ? rec(JSON.parse(balance.value)) : {},
    faults: seededFaults(db),
  };
  // The platform account, when the seed described one (connect.ts answers the default otherwise).
  const account = db.one<{ value: string }>("SELECT value FROM st_meta WHERE key = 'account'");
  if (account) seed.account = rec(JSON.parse(account.value));
  return seed;
}
