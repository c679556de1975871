// POST /v1/invoices/create_preview as a plain function: the invoice Stripe would make next for a
// customer or subscription, optionally with a subscription change applied (its prorations), built
// and totalled like a real one and written nowhere. Stripe gives a preview an id prefixed
// `upcoming_in` and its lines ids prefixed `il_tmp_` (stripe-node 23's Invoice.id docs).
// `GET /v1/invoices/upcoming` (and `/upcoming/lines`) is gone from the API version the twin serves
// (stripe-node 23 has no method for it), but older clients still call it (python3-stripe 5.0.0's
// `Invoice.upcoming`): it answers the same preview from the query, with the change named the way
// that API named it (`subscription_items[]`, `subscription_proration_behavior`,
// `subscription_proration_date`, `coupon`) and no `id`, as spec3.json 2024-04-10 describes
// ("This field is not present on upcoming invoices" is why its invoice schema leaves `id` optional).
import type { Call } from "./call";
import { at, balanceAfter, nowFor, withTotals } from "./billing";
import { fail, invalidRequest, missingParam, noSuch } from "./errors";
import { buildInvoiceItem, itemAmount, lineOfItem, pendingItems } from "./invoice-items";
import { buildInvoice, buildLine } from "./objects";
import type { Params } from "./params";
import { billedQuantity, periodOf } from "./metered";
import { prorationsFor } from "./prorations";
import { arr, getObject, idBody, liveOfType, num, rec, str, type Rec } from "./store";
import { buildDiscount, promotionCoupon } from "./tax";
import { addInterval, asInterval } from "./time";

const tmpId = (prefix: string, seed: string) => `${prefix}${idBody(`preview:${seed}`)}`;

/** The subscription's items with `subscription_details[items]` applied, written nowhere. */
function changedItems(c: Call, items: Rec[], list: readonly Params[], prefix: string): Rec[] {
  let out = items.map((it) => ({ ...it }));
  for (const [i, ip] of list.entries()) {
    const id = ip.str("id");
    const existing = id ? out.find((it) => it.id === id) : undefined;
    if (id && !existing) fail(invalidRequest(`No such subscription item: '${id}'`, { param: `${prefix}[${i}][id]` }));
    if (existing && ip.bool("deleted")) {
      out = out.filter((it) => it !== existing);
      continue;
    }
    const priceId = ip.str("price");
    if (priceId && !getObject(c.db, "price", priceId))
      fail(invalidRequest(`No such price: '${priceId}'`, { param: `${prefix}[${i}][price]` }));
    if (existing) Object.assign(existing, { ...(priceId ? { price: priceId } : {}), quantity: ip.int("quantity") ?? existing.quantity });
    else {
      const first = rec(out[0] ?? items[0]);
      out.push({
        id: tmpId("si_tmp_", `${i}`),
        price: priceId ?? fail(missingParam(`${prefix}[${i}][price]`)),
        quantity: ip.int("quantity") ?? 1,
        current_period_start: num(first.current_period_start) ?? c.now,
        current_period_end: num(first.current_period_end) ?? c.now,
      });
    }
  }
  return out;
}

/** The lines of the subscription's next period for these items. */
function nextPeriodLines(c: Call, sub: Rec, items: Rec[], invoice: string, fresh: boolean): Rec[] {
  return items.map((it, i) => {
    const price = getObject(c.db, "price", String(it.price)) ?? {};
    const r = rec(price.recurring);
    const start = fresh ? c.now : (num(it.current_period_end) ?? c.now);
    const next = { start, end: addInterval(start, asInterval(r.interval), num(r.interval_count) ?? 1) };
    // A metered item bills the running period's usage so far, in arrears.
    const running = fresh ? undefined : periodOf(it, c.now);
    const { quantity, period } = billedQuantity(c, price, it, sub.customer, next, running);
    const unitAmount = num(price.unit_amount) ?? 0;
    return buildLine(
      {
        quantity,
        amount: Math.round(unitAmount * quantity),
        description: `${quantity} × ${String(getObject(c.db, "product", String(price.product))?.name ?? price.product)}`,
        pricing: { price_details: { price: price.id } },
        period,
        subscription: sub.id ?? null,
        parent: {
          invoice_item_details: null,
          subscription_item_details: {
            invoice_item: null,
            proration: false,
            proration_details: { credited_items: null },
            subscription: sub.id ?? null,
            subscription_item: it.id,
          },
          type: "subscription_item_details",
        },
      },
      {
        id: tmpId("il_tmp_", `${invoice}:sub:${i}`),
        created: c.now,
        invoice,
        currency: String(price.currency),
        unitAmount,
        product: str(price.product) ?? null,
      },
    );
  });
}

/** `invoice_items[]`: one-off items the preview adds, as invoice items would be. */
function extraItems(c: Call, customer: Rec, currency: string, list: readonly Params[]): Rec[] {
  return list.map((ip, i) => {
    const priceId = ip.sub("pricing")?.str("price") ?? ip.str("price");
    const price = priceId ? getObject(c.db, "price", priceId) : undefined;
    if (priceId && !price) fail(invalidRequest(`No such price: '${priceId}'`, { param: `invoice_items[${i}][price]` }));
    const money = itemAmount(
      { amount: ip.int("amount"), quantity: ip.int("quantity"), unitDecimal: ip.str("unit_amount_decimal") },
      num(price?.unit_amount),
    );
    return buildInvoiceItem(
      {
        amount: money.amount,
        quantity: money.quantity,
        quantity_decimal: String(money.quantity),
        currency: str(price?.currency) ?? ip.currency("currency") ?? currency,
        customer: customer.id,
        description: ip.str("description") ?? null,
        pricing: price
          ? { price_details: { price: price.id, product: price.product }, type: "price_details", unit_amount_decimal: money.unitDecimal }
          : null,
      },
      { id: tmpId("ii_tmp_", `${i}`), created: c.now },
    );
  });
}

/** The customer's subscription that invoices next, if any still bills. */
function nextSubscriptionOf(c: Call, customer: string): Rec | undefined {
  const periodEnd = (sub: Rec) =>
    Math.min(...arr(rec(sub.items).data).map((it) => num(rec(it).current_period_end) ?? Number.MAX_SAFE_INTEGER));
  return liveOfType(c.db, "subscription", { column: "customer", value: customer })
    .filter((sub) => !["canceled", "incomplete_expired"].includes(String(sub.status)))
    .sort((a, b) => periodEnd(a) - periodEnd(b))[0];
}

/**
 * The previewed invoice. `upcoming`: read as `GET /v1/invoices/upcoming` reads its query, the
 * change in that API's names, and answered without an id.
 */
export function previewInvoice(c0: Call, upcoming = false): Rec {
  const named = c0.p.str("subscription");
  const given = named ? (getObject(c0.db, "subscription", named) ?? fail(noSuch("subscription", named, "subscription"))) : undefined;
  const customerId = c0.p.str("customer") ?? str(given?.customer) ?? fail(missingParam("customer"));
  const customer = getObject(c0.db, "customer", customerId) ?? fail(noSuch("customer", customerId, "customer"));
  // A test clock's customer is previewed at the clock's time.
  const c = at(c0, nowFor(c0, customerId));
  const details = c.p.sub("subscription_details");
  const legacyItems = upcoming ? c.p.list("subscription_items") : undefined;
  const changes = legacyItems ?? details?.list("items");
  // Neither a subscription nor items named: the next invoice among the customer's subscriptions
  // (the `subscription` parameter's description, for create_preview and the older upcoming alike).
  const sub = given ?? (changes ? undefined : nextSubscriptionOf(c, customerId));
  const subId = str(sub?.id);
  const id = tmpId("upcoming_in_", `${customerId}:${subId ?? ""}`);
  const before = arr(rec(sub?.items).data).map(rec);
  const after = changes ? changedItems(c, before, changes, legacyItems ? "subscription_items" : "subscription_details[items]") : before;
  const behavior =
    (upcoming ? c.p.str("subscription_proration_behavior") : undefined) ?? details?.str("proration_behavior") ?? "create_prorations";
  const prorationDate = (upcoming ? c.p.int("subscription_proration_date") : undefined) ?? details?.int("proration_date") ?? c.now;
  const prorations = sub && behavior !== "none" && sub.status !== "trialing" ? prorationsFor(c, sub, before, after, prorationDate) : [];
  const currency = str(sub?.currency) ?? c.p.currency("currency") ?? str(customer.currency) ?? "usd";
  const items = [
    ...pendingItems(c, customerId, subId),
    ...prorations.map((p, i) => buildInvoiceItem(p, { id: tmpId("ii_tmp_", `proration:${i}`), created: c.now })),
    ...extraItems(c, customer, currency, c.p.list("invoice_items") ?? []),
  ];
  const itemLines = items.map((it, i) => lineOfItem(it, id, tmpId("il_tmp_", `${id}:item:${i}`)));
  const cycleLines = behavior === "always_invoice" ? [] : nextPeriodLines(c, sub ?? {}, after, id, !sub);
  const discounts = (c.p.list("discounts") ?? []).map((d, i) => {
    const promo = d.str("promotion_code");
    const coupon = promo ? String(promotionCoupon(c, promo, `discounts[${i}][promotion_code]`, customer.id).coupon.id) : d.req("coupon");
    return buildDiscount({ customer: customer.id, invoice: id }, coupon, promo ?? null, c.now);
  });
  // The upcoming invoice's `coupon`: the older way to name one discount.
  const coupon = upcoming ? c.p.str("coupon") : undefined;
  if (coupon) {
    if (!getObject(c.db, "coupon", coupon)) fail(noSuch("coupon", coupon, "coupon"));
    discounts.push(buildDiscount({ customer: customer.id, invoice: id }, coupon, null, c.now));
  }
  const base = buildInvoice(
    {
      billing_reason: behavior === "always_invoice" ? "subscription_update" : sub || after.length ? "upcoming" : "manual",
      currency,
      customer: customer.id,
      customer_email: customer.email ?? null,
      customer_name: customer.name ?? null,
      discounts,
      parent: sub
        ? { quote_details: null, subscription_details: { metadata: rec(sub.metadata), subscription: sub.id }, type: "subscription_details" }
        : null,
      test_clock: customer.test_clock ?? null,
    },
    { id, created: c.now },
  );
  const totalled = withTotals(c, base, [...itemLines, ...cycleLines]);
  const balance = num(customer.balance) ?? 0;
  const preview = withTotals(
    c,
    { ...totalled, starting_balance: balance, ending_balance: balanceAfter(balance, num(totalled.total) ?? 0) },
    [...itemLines, ...cycleLines],
  );
  if (!upcoming) return preview;
  const { id: _none, ...withoutId } = preview;
  const query = new URLSearchParams({ customer: customerId, ...(named ? { subscription: named } : {}) });
  return { ...withoutId, lines: { ...rec(preview.lines), url: `/v1/invoices/upcoming/lines?${query.toString()}` } };
}
