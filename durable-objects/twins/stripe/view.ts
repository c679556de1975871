// What a stored object looks like on the wire: subscription items carry their full Price (as
// Stripe always returns them), webhook secrets appear only on create, disputes carry their
// balance transactions; then `expand[]` turns ids into objects, up to four levels deep.
import type { Db } from "../types";
import { fail, invalidRequest } from "./errors";
import { bankAccountWire, externalAccountsList } from "./external-accounts";
import { arr, getAnyObject, getObject, isRec, rec, str, type ObjectType, type Rec } from "./store";

const MAX_EXPAND_DEPTH = 4;

function planOf(price: Rec): Rec {
  const recurring = rec(price.recurring);
  return {
    id: price.id,
    object: "plan",
    active: price.active,
    amount: price.unit_amount,
    amount_decimal: price.unit_amount_decimal,
    billing_scheme: price.billing_scheme,
    created: price.created,
    currency: price.currency,
    interval: recurring.interval ?? null,
    interval_count: recurring.interval_count ?? null,
    livemode: false,
    metadata: price.metadata,
    meter: null,
    nickname: price.nickname,
    product: price.product,
    tiers_mode: null,
    transform_usage: null,
    trial_period_days: recurring.trial_period_days ?? null,
    usage_type: recurring.usage_type ?? "licensed",
  };
}

/** The wire form of a stored object, before expansion. */
export function render(db: Db, type: ObjectType, o: Rec): Rec {
  if (o.deleted === true) return o;
  if (type === "webhook_endpoint") {
    const { secret: _secret, ...rest } = o;
    return rest;
  }
  if (type === "subscription") {
    const items = rec(o.items);
    const data = arr(items.data).map((raw) => {
      const it = rec(raw);
      const price = typeof it.price === "string" ? getObject(db, "price", it.price) : undefined;
      return price ? { ...it, price, plan: planOf(price) } : it;
    });
    return { ...o, items: { ...items, data } };
  }
  if (type === "checkout.session" || type === "payment_link") {
    // Their line items are an includable list: shown only when expanded (see call.ts `show`). A
    // session keeps the *_data its completion uses, which Stripe's Session object does not show.
    const { line_items: _items, ...wire } = o;
    if (type === "checkout.session") {
      const { payment_intent_data: _pi, subscription_data: _sub, setup_intent_data: _si, ...session } = wire;
      return session;
    }
    return wire;
  }
  if (type === "invoice") {
    // Kept for finalization to set `due_date` from; Stripe's Invoice object has no such field.
    const { days_until_due: _days, ...invoice } = o;
    return invoice;
  }
  if (type === "bank_account") return bankAccountWire(o);
  if (type === "account") return { ...o, external_accounts: externalAccountsList(db, o) };
  if (type === "payout") {
    // The connected account a payout was made as: Stripe's Payout object has no such field.
    const { on_account: _account, ...payout } = o;
    return payout;
  }
  if (type === "dispute") {
    const txns = arr(o.balance_transactions).map((t) => (typeof t === "string" ? (getObject(db, "balance_transaction", t) ?? t) : t));
    return { ...o, balance_transactions: txns };
  }
  return o;
}

/** An object by id in its wire form, whatever its type; undefined when there is none. */
export function renderId(db: Db, id: string): Rec | undefined {
  const hit = getAnyObject(db, id);
  return hit ? render(db, hit.type, hit.obj) : undefined;
}

const cannotExpand = (path: string) => fail(invalidRequest(`This property cannot be expanded (${path}).`, { param: "expand" }));

/**
 * Only fields that hold an object's id (or the object itself) expand; Stripe refuses any other
 * (`expand[]=email`, `expand[]=metadata`) with "This property cannot be expanded (email)."
 */
function expandValue(db: Db, v: unknown, rest: string[], full: string): unknown {
  if (typeof v === "string") {
    const target = renderId(db, v) ?? cannotExpand(full);
    return rest.length ? walk(db, target, rest, full) : target;
  }
  if (v === null) return null;
  if (Array.isArray(v)) return v.map((item) => expandValue(db, item, rest, full));
  if (isRec(v)) {
    if (rest.length) return walk(db, v, rest, full);
    return typeof v.id === "string" && typeof v.object === "string" ? v : cannotExpand(full);
  }
  return cannotExpand(full);
}

/**
 * Includable fields: hashes Stripe returns only when expanded (an invoice's
 * `confirmation_secret`); expanding one is allowed and leaves it as it is.
 */
const INCLUDABLE_HASHES = new Set(["confirmation_secret"]);

function walk(db: Db, o: Rec, segs: string[], full: string): Rec {
  const [seg, ...rest] = segs;
  if (!(seg in o)) return cannotExpand(full);
  if (!rest.length && INCLUDABLE_HASHES.has(seg) && (o[seg] === null || isRec(o[seg]))) return o;
  return { ...o, [seg]: expandValue(db, o[seg], rest, full) };
}

/** Applies `expand[]` paths to one object. */
export function expand(db: Db, o: Rec, paths: readonly string[]): Rec {
  let out = o;
  for (const path of paths) {
    const segs = path.split(".");
    const depth = segs.filter((s) => s !== "data").length;
    if (depth > MAX_EXPAND_DEPTH)
      fail(invalidRequest(`You cannot expand more than 4 levels of a property. Property: ${path}`, { param: "expand" }));
    out = walk(db, out, segs, path);
  }
  return out;
}

/** Expansion on a list: each path names `data.` first, as Stripe requires. */
export function expandList(db: Db, data: Rec[], paths: readonly string[]): Rec[] {
  const inner = paths.map((p) => {
    if (!p.startsWith("data.")) {
      return fail(
        invalidRequest(`This property cannot be expanded (${p}). You may want to try expanding 'data.${p}' instead.`, { param: "expand" }),
      );
    }
    return p.slice("data.".length);
  });
  return inner.length ? data.map((o) => expand(db, o, inner)) : data;
}

export const idString = (v: unknown) => str(v) ?? str(rec(v).id);
