// Prorations as Stripe makes them when a subscription changes mid-period
// (docs.stripe.com/billing/subscriptions/prorations): credit for the unused time of what the
// customer had, a charge for the remaining time of what they have now, each the item's price
// times quantity times the part of the period left. They become pending invoice items
// (`create_prorations`), an invoice at once (`always_invoice`), or preview lines.
import type { Call } from "./call";
import { buildInvoiceItem } from "./invoice-items";
import { getObject, newId, num, rec, str, type Rec } from "./store";
import { utcLabel } from "./time";

/** What one subscription item bills: its price and quantity over its current period. */
interface Billed {
  itemId: string;
  price: Rec;
  quantity: number;
  start: number;
  end: number;
}

const billedOf = (c: Call, items: Rec[]): Billed[] =>
  items.map((it) => ({
    itemId: String(it.id),
    price: getObject(c.db, "price", String(it.price)) ?? {},
    quantity: num(it.quantity) ?? 1,
    start: num(it.current_period_start) ?? c.now,
    end: num(it.current_period_end) ?? c.now,
  }));

/** One proration: the amount for `b` over the rest of its period from `at`, credited when `credit`. */
function proration(c: Call, sub: Rec, b: Billed, at: number, credit: boolean): Rec | undefined {
  const span = b.end - b.start;
  if (span <= 0 || at >= b.end) return undefined;
  const full = (num(b.price.unit_amount) ?? 0) * b.quantity;
  const amount = Math.round((full * (b.end - at)) / span) * (credit ? -1 : 1);
  if (amount === 0) return undefined;
  const name = str(getObject(c.db, "product", String(b.price.product))?.name) ?? String(b.price.product);
  const words = credit ? "Unused time on" : "Remaining time on";
  return {
    amount,
    currency: sub.currency,
    customer: sub.customer,
    description: `${words} ${b.quantity} × ${name} after ${utcLabel(at)}`,
    parent: { subscription_details: { subscription: sub.id, subscription_item: b.itemId }, type: "subscription_details" },
    period: { end: b.end, start: at },
    pricing: {
      price_details: { price: b.price.id, product: b.price.product },
      type: "price_details",
      unit_amount_decimal: String(b.price.unit_amount ?? 0),
    },
    proration: true,
    quantity: b.quantity,
    quantity_decimal: String(b.quantity),
    test_clock: sub.test_clock ?? null,
  };
}

const same = (a: Billed, b: Billed) => a.price.id === b.price.id && a.quantity === b.quantity;

/**
 * The prorations for going from `before` to `after` items at `at`: an unchanged item makes none;
 * a changed or removed one is credited, a changed or added one charged.
 */
export function prorationsFor(c: Call, sub: Rec, before: Rec[], after: Rec[], at: number): Rec[] {
  const was = billedOf(c, before);
  const now = billedOf(c, after);
  const out: Rec[] = [];
  for (const b of was) {
    const next = now.find((n) => n.itemId === b.itemId);
    if (next && same(b, next)) continue;
    const credit = proration(c, sub, b, at, true);
    if (credit) out.push(credit);
  }
  for (const n of now) {
    const prev = was.find((b) => b.itemId === n.itemId);
    if (prev && same(prev, n)) continue;
    // A new item takes the period of the items already there.
    const period = prev ?? was[0] ?? n;
    const charge = proration(c, sub, { ...n, start: period.start, end: period.end }, at, false);
    if (charge) out.push(charge);
  }
  return out;
}

/** Prorations stored as pending invoice items for the subscription's next invoice. */
export function prorationItems(c: Call, prorations: readonly Rec[]): Rec[] {
  return prorations.map((p) => buildInvoiceItem({ ...p, net_amount: p.amount }, { id: newId(c.db, "invoiceitem"), created: c.now }));
}

/** The credit for the unused rest of every item's period: what `prorate` on cancellation gives. */
export function unusedTime(c: Call, sub: Rec, items: Rec[], at: number): Rec[] {
  return billedOf(c, items)
    .map((b) => proration(c, sub, b, at, true))
    .filter((p): p is Rec => p !== undefined);
}

export const periodOf = (items: Rec[]): { start: number; end: number } => {
  const first = rec(items[0]);
  return { start: num(first.current_period_start) ?? 0, end: num(first.current_period_end) ?? 0 };
};
