// Tax rates and promotion codes as plain functions: the objects' shapes (stripe-node 23's
// TaxRate and PromotionCode types), the taxes a line owes under its rates, and a promotion code
// read into the coupon it stands for with Stripe's checks (active, expired, used up, restricted).
import type { Call } from "./call";
import { fail, invalidRequest, missingParam, noSuch } from "./errors";
import type { Made } from "./objects";
import type { Params } from "./params";
import { getObject, idBody, liveOfType, num, rec, saveObject, str, type Rec } from "./store";

export function buildTaxRate(r: Rec, m: Made): Rec {
  return {
    id: m.id,
    object: "tax_rate",
    active: true,
    country: null,
    created: m.created,
    description: null,
    display_name: "",
    effective_percentage: num(r.percentage) ?? 0,
    flat_amount: null,
    inclusive: false,
    jurisdiction: null,
    jurisdiction_level: null,
    livemode: false,
    metadata: {},
    percentage: 0,
    rate_type: "percentage",
    state: null,
    tax_type: null,
    ...r,
  };
}

export function buildPromotionCode(r: Rec, m: Made): Rec {
  return {
    id: m.id,
    object: "promotion_code",
    active: true,
    code: "",
    created: m.created,
    customer: null,
    customer_account: null,
    expires_at: null,
    livemode: false,
    max_redemptions: null,
    metadata: {},
    promotion: { coupon: null, type: "coupon" },
    restrictions: { first_time_transaction: false, minimum_amount: null, minimum_amount_currency: null },
    times_redeemed: 0,
    ...r,
  };
}

/** Tax rate ids a call names (`tax_rates[]`, `default_tax_rates[]`), each checked to exist. */
export function taxRateIds(c: Call, ids: readonly string[] | undefined, param: string): string[] | undefined {
  if (ids === undefined) return undefined;
  for (const [i, id] of ids.entries()) {
    const rate = getObject(c.db, "tax_rate", id);
    if (!rate) fail(noSuch("tax_rate", id, `${param}[${i}]`));
  }
  return [...ids];
}

/** A line's tax rate ids: the ones its `taxes` name. */
export const ratesOfLine = (line: Rec): string[] =>
  (Array.isArray(line.taxes) ? line.taxes : []).map((t) => str(rec(rec(t).tax_rate_details).tax_rate)).filter((id): id is string => !!id);

/** The empty `taxes` of a line with these rates, filled in by `taxLines`. */
export const pendingTaxes = (ids: readonly string[]): Rec[] =>
  ids.map((id) => ({
    amount: 0,
    tax_behavior: "exclusive",
    tax_rate_details: { tax_rate: id },
    taxability_reason: "standard_rated",
    taxable_amount: 0,
    type: "tax_rate_details",
  }));

/**
 * The taxes each line owes on its amount after discounts (its share of `discounted`, the
 * invoice's discount taken off pro rata), under its own rates or else the invoice's defaults.
 * An exclusive rate adds to the total; an inclusive one is already inside the amount.
 */
export function taxLines(
  c: Call,
  lines: Rec[],
  defaults: readonly string[],
  discountOff: number,
): { lines: Rec[]; exclusive: number; totals: Rec[] } {
  const subtotal = lines.reduce((s, l) => s + (num(l.amount) ?? 0), 0);
  const byRate = new Map<string, { amount: number; taxable: number; behavior: string }>();
  let exclusive = 0;
  const out = lines.map((line) => {
    const ids = ratesOfLine(line).length ? ratesOfLine(line) : [...defaults];
    if (!ids.length) return line;
    const amount = num(line.amount) ?? 0;
    const taxable = subtotal > 0 ? amount - Math.round((discountOff * amount) / subtotal) : amount;
    const taxes = ids.map((id) => {
      const rate = getObject(c.db, "tax_rate", id);
      const pct = num(rate?.percentage) ?? 0;
      const inclusive = rate?.inclusive === true;
      // An inclusive rate's tax is the part of the amount it stands for: amount × p / (100 + p).
      const tax = inclusive ? Math.round((taxable * pct) / (100 + pct)) : Math.round((taxable * pct) / 100);
      const base = inclusive ? taxable - tax : taxable;
      if (!inclusive) exclusive += tax;
      const behavior = inclusive ? "inclusive" : "exclusive";
      const seen = byRate.get(id) ?? { amount: 0, taxable: 0, behavior };
      byRate.set(id, { amount: seen.amount + tax, taxable: seen.taxable + base, behavior });
      return { ...pendingTaxes([id])[0], amount: tax, tax_behavior: behavior, taxable_amount: base };
    });
    return { ...line, taxes };
  });
  const totals = [...byRate].map(([id, t]) => ({
    ...pendingTaxes([id])[0],
    amount: t.amount,
    tax_behavior: t.behavior,
    taxable_amount: t.taxable,
  }));
  return { lines: out, exclusive, totals };
}

/**
 * The coupon a promotion code applies, refused as Stripe refuses a code that cannot be used:
 * inactive, expired, redeemed its maximum, or another customer's.
 */
export function promotionCoupon(c: Call, promoId: string, param: string, customer?: unknown): { promo: Rec; coupon: Rec } {
  const promo = getObject(c.db, "promotion_code", promoId) ?? fail(noSuch("promotion_code", promoId, param));
  const expired = num(promo.expires_at) !== undefined && (num(promo.expires_at) ?? 0) <= c.now;
  const usedUp = num(promo.max_redemptions) !== undefined && (num(promo.times_redeemed) ?? 0) >= (num(promo.max_redemptions) ?? 0);
  if (promo.active !== true || expired || usedUp)
    fail(invalidRequest(`This promotion code cannot be redeemed because it is inactive: ${String(promo.code)}.`, { param }));
  if (promo.customer && customer !== undefined && promo.customer !== customer)
    fail(invalidRequest("This promotion code cannot be redeemed because the associated customer does not match.", { param }));
  const couponId = str(rec(promo.promotion).coupon) ?? "";
  const coupon = getObject(c.db, "coupon", couponId) ?? fail(noSuch("coupon", couponId, param));
  return { promo, coupon };
}

/** A live promotion code with this code, for refusing a second one (codes are unique among active codes). */
export const activeCode = (c: Call, code: string): Rec | undefined =>
  liveOfType(c.db, "promotion_code", { column: "ref2", value: code }).find((p) => p.active === true);

/** A Discount object: a coupon (through a promotion code or not) applied to a subscription or an invoice. */
export function buildDiscount(
  on: { customer: unknown; subscription?: unknown; invoice?: unknown },
  coupon: string,
  promo: string | null,
  start: number,
): Rec {
  const owner = String(on.subscription ?? on.invoice ?? on.customer);
  return {
    id: `di_${idBody(promo ? `discount:${owner}:${coupon}:${promo}` : `discount:${owner}:${coupon}`)}`,
    object: "discount",
    checkout_session: null,
    customer: on.customer ?? null,
    customer_account: null,
    end: null,
    invoice: on.invoice ?? null,
    invoice_item: null,
    promotion_code: promo,
    source: { coupon, type: "coupon" },
    start,
    subscription: on.subscription ?? null,
    subscription_item: null,
  };
}

/**
 * The discounts a call names (`discounts[i][coupon]` or `discounts[i][promotion_code]`), each
 * checked; a promotion code counts one more redemption.
 */
export function discountsFrom(
  c: Call,
  list: readonly Params[],
  on: { customer: unknown; subscription?: unknown; invoice?: unknown },
): Rec[] {
  return list.map((d, i) => {
    const promoId = d.str("promotion_code");
    const couponId = d.str("coupon");
    if (promoId && couponId)
      fail(invalidRequest("You may only specify one of these parameters: coupon, promotion_code.", { param: `discounts[${i}][coupon]` }));
    if (promoId) {
      const { promo, coupon } = promotionCoupon(c, promoId, `discounts[${i}][promotion_code]`, on.customer);
      saveObject(c.db, "promotion_code", { ...promo, times_redeemed: (num(promo.times_redeemed) ?? 0) + 1 });
      return buildDiscount(on, String(coupon.id), String(promo.id), c.now);
    }
    const id = couponId ?? fail(missingParam(`discounts[${i}][coupon]`));
    const coupon = getObject(c.db, "coupon", id) ?? fail(noSuch("coupon", id, `discounts[${i}][coupon]`));
    return buildDiscount(on, String(coupon.id), null, c.now);
  });
}
