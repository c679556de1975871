// The object store every Stripe route goes through: rows by id, list pages newest first with
// Stripe's cursors, ids with Stripe's prefixes, and the index columns each type is listed by.
import type { Db } from "../types";
import { isRec, type Rec } from "../kit/checks";
import { nextCounter } from "../kit/sql";

export type { Rec };
export { isRec };

/** Stripe's object types this twin stores, as their `object` field names them. */
export type ObjectType =
  | "customer"
  | "payment_method"
  | "payment_intent"
  | "charge"
  | "refund"
  | "product"
  | "price"
  | "coupon"
  | "subscription"
  | "invoice"
  | "invoiceitem"
  | "invoice_payment"
  | "balance_transaction"
  | "dispute"
  | "event"
  | "webhook_endpoint"
  | "test_helpers.test_clock"
  | "setup_intent"
  | "checkout.session"
  | "payment_link"
  | "credit_note"
  | "customer_balance_transaction"
  | "tax_rate"
  | "promotion_code"
  | "subscription_schedule"
  | "account"
  | "bank_account"
  | "payout"
  | "transfer"
  | "transfer_reversal"
  | "application_fee"
  | "billing_portal.session"
  | "billing_portal.configuration"
  | "billing.meter"
  | "billing.meter_event";

export const ID_PREFIX: Record<ObjectType, string> = {
  customer: "cus_",
  payment_method: "pm_",
  payment_intent: "pi_",
  charge: "ch_",
  refund: "re_",
  product: "prod_",
  price: "price_",
  coupon: "",
  subscription: "sub_",
  invoice: "in_",
  invoiceitem: "ii_",
  invoice_payment: "inpay_",
  balance_transaction: "txn_",
  dispute: "dp_",
  event: "evt_",
  webhook_endpoint: "we_",
  "test_helpers.test_clock": "clock_",
  setup_intent: "seti_",
  "checkout.session": "cs_test_",
  payment_link: "plink_",
  credit_note: "cn_",
  customer_balance_transaction: "cbtxn_",
  tax_rate: "txr_",
  promotion_code: "promo_",
  subscription_schedule: "sub_sched_",
  account: "acct_",
  bank_account: "ba_",
  payout: "po_",
  transfer: "tr_",
  transfer_reversal: "trr_",
  application_fee: "fee_",
  "billing_portal.session": "bps_",
  "billing_portal.configuration": "bpc_",
  "billing.meter": "mtr_test_",
  "billing.meter_event": "mevt_",
};

export const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);
export const num = (v: unknown): number | undefined => (typeof v === "number" ? v : undefined);
export const rec = (v: unknown): Rec => (isRec(v) ? v : {});
export const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
export const strMap = (v: unknown): Record<string, string> => {
  const out: Record<string, string> = {};
  for (const [k, value] of Object.entries(rec(v))) if (typeof value === "string") out[k] = value;
  return out;
};
/** An id, whether the field holds the id or the expanded object. */
export const idOf = (v: unknown): string | undefined => (typeof v === "string" ? v : isRec(v) ? str(v.id) : undefined);

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** 24 base62 characters derived from `input`: looks like Stripe's ids, stable for a given input. */
export function idBody(input: string, length = 24): string {
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193;
  for (let i = 0; i < input.length; i++) {
    const c = input.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193) >>> 0;
    h2 = Math.imul(h2 ^ c, 0x5bd1e995) >>> 0;
  }
  let out = "";
  let a = h1 || 1;
  let b = h2 || 2;
  while (out.length < length) {
    // xorshift over both halves: a deterministic stream of characters.
    a ^= a << 13;
    a >>>= 0;
    a ^= a >>> 17;
    a ^= a << 5;
    a >>>= 0;
    b = (Math.imul(b, 1103515245) + 12345) >>> 0;
    out += ALPHABET[((a ^ b) >>> 0) % 62];
  }
  return out;
}

/** A new id for an object made by a call: deterministic within the sandbox (a counter), prefixed. */
export function newId(db: Db, type: ObjectType | "secret" | "request"): string {
  const n = nextCounter(db, "st_meta", "ids");
  const prefix = type === "secret" ? "whsec_" : type === "request" ? "req_" : ID_PREFIX[type] || "co_";
  return `${prefix}${idBody(`run:${type}:${n}`)}`;
}

interface Row {
  n: number;
  id: string;
  type: string;
  created: number;
  deleted: number;
  data: string;
}

/** The indexed columns of an st_objects row, beside its id, type, created and JSON. */
export type IndexColumns = { customer: string | null; ref: string | null; ref2: string | null; status: string | null };

/** The columns a type's lists filter on, read from the object itself (every write, boot's included, fills them from here). */
export function indexColumnsOf(type: ObjectType, o: Rec): IndexColumns {
  const s = (v: unknown) => idOf(v) ?? null;
  const status = typeof o.status === "string" ? o.status : typeof o.active === "boolean" ? String(o.active) : null;
  switch (type) {
    case "customer":
      return { customer: null, ref: s(o.test_clock), ref2: str(o.email) ?? null, status: null };
    case "payment_method":
      return { customer: s(o.customer), ref: null, ref2: s(o.type), status: null };
    case "charge":
      return { customer: s(o.customer), ref: s(o.payment_intent), ref2: null, status };
    case "refund":
      return { customer: null, ref: s(o.charge), ref2: s(o.payment_intent), status };
    case "price":
      return { customer: null, ref: s(o.product), ref2: s(o.type), status };
    case "invoice":
      return { customer: s(o.customer), ref: s(rec(rec(o.parent).subscription_details).subscription), ref2: null, status };
    case "invoice_payment":
      return { customer: null, ref: s(o.invoice), ref2: s(rec(o.payment).payment_intent), status };
    case "invoiceitem":
      return { customer: s(o.customer), ref: s(o.invoice), ref2: null, status: null };
    case "balance_transaction":
      return { customer: null, ref: s(o.source), ref2: s(o.type), status };
    case "dispute":
      return { customer: null, ref: s(o.charge), ref2: s(o.payment_intent), status };
    case "event":
      return { customer: null, ref: null, ref2: s(o.type), status: null };
    case "setup_intent":
      return { customer: s(o.customer), ref: s(o.payment_method), ref2: null, status };
    case "checkout.session":
      return { customer: s(o.customer), ref: s(o.payment_intent), ref2: s(o.payment_link), status };
    case "bank_account":
      return { customer: null, ref: s(o.account), ref2: str(o.currency) ?? null, status };
    // A payout made as a connected account (`Stripe-Account`) is listed under it; the platform's under "platform".
    case "payout":
      return { customer: null, ref: str(o.on_account) ?? "platform", ref2: s(o.destination), status };
    case "transfer":
      return { customer: null, ref: s(o.destination), ref2: str(o.transfer_group) ?? null, status: null };
    case "transfer_reversal":
      return { customer: null, ref: s(o.transfer), ref2: null, status: null };
    case "application_fee":
      return { customer: null, ref: s(o.charge), ref2: s(o.account), status: null };
    case "billing.meter":
      return { customer: null, ref: null, ref2: str(o.event_name) ?? null, status };
    case "billing.meter_event":
      return { customer: str(o.customer) ?? null, ref: str(o.meter) ?? null, ref2: str(o.event_name) ?? null, status: null };
    case "billing_portal.session":
      return { customer: s(o.customer), ref: s(o.configuration), ref2: null, status: null };
    case "credit_note":
      return { customer: s(o.customer), ref: s(o.invoice), ref2: null, status };
    case "customer_balance_transaction":
      return { customer: s(o.customer), ref: s(o.invoice), ref2: s(o.credit_note), status: null };
    case "promotion_code":
      return { customer: s(o.customer), ref: s(rec(o.promotion).coupon), ref2: str(o.code) ?? null, status };
    case "subscription_schedule":
      return { customer: s(o.customer), ref: s(o.subscription), ref2: null, status };
    default:
      return { customer: s(o.customer), ref: null, ref2: null, status };
  }
}

const TYPES = new Set<string>(Object.keys(ID_PREFIX));
const isType = (v: string): v is ObjectType => TYPES.has(v);

export function insertObject(db: Db, type: ObjectType, o: Rec): void {
  const c = indexColumnsOf(type, o);
  db.run(
    "INSERT INTO st_objects (id, type, created, customer, ref, ref2, status, data) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    String(o.id),
    type,
    num(o.created) ?? 0,
    c.customer,
    c.ref,
    c.ref2,
    c.status,
    JSON.stringify(o),
  );
}

export function saveObject(db: Db, type: ObjectType, o: Rec): void {
  const c = indexColumnsOf(type, o);
  const data = JSON.stringify(o);
  const id = String(o.id);
  // Most saves leave the indexed columns as they were: writing only `data` then touches no index.
  const same = db.run(
    "UPDATE st_objects SET data = ? WHERE id = ? AND type = ? AND customer IS ? AND ref IS ? AND ref2 IS ? AND status IS ?",
    data,
    id,
    type,
    c.customer,
    c.ref,
    c.ref2,
    c.status,
  );
  if (same) return;
  db.run(
    "UPDATE st_objects SET customer = ?, ref = ?, ref2 = ?, status = ?, data = ? WHERE id = ? AND type = ?",
    c.customer,
    c.ref,
    c.ref2,
    c.status,
    data,
    id,
    type,
  );
}

/** Marks an object deleted: it answers as `{id, object, deleted: true}` and leaves every list. */
export function deleteObject(db: Db, type: ObjectType, id: string): Rec {
  const stub = { id, object: type, deleted: true };
  db.run("UPDATE st_objects SET deleted = 1, data = ? WHERE id = ? AND type = ?", JSON.stringify(stub), id, type);
  return stub;
}

/** Removes an object outright (webhook endpoints, coupons, prices: Stripe forgets them). */
export function dropObject(db: Db, type: ObjectType, id: string): void {
  db.run("DELETE FROM st_objects WHERE id = ? AND type = ?", id, type);
}

const parse = (row: Row): Rec => rec(JSON.parse(row.data));

/** A live object of `type`; deleted ones come back only with `includeDeleted`. */
export function getObject(db: Db, type: ObjectType, id: string, includeDeleted = false): Rec | undefined {
  const row = db.one<Row>("SELECT n, id, type, created, deleted, data FROM st_objects WHERE id = ?", id);
  if (!row || row.type !== type || (row.deleted && !includeDeleted)) return undefined;
  return parse(row);
}

/** Any object by id, whatever its type (for expansion). */
export function getAnyObject(db: Db, id: string): { type: ObjectType; obj: Rec } | undefined {
  const row = db.one<Row>("SELECT n, id, type, created, deleted, data FROM st_objects WHERE id = ?", id);
  if (!row || !isType(row.type)) return undefined;
  return { type: row.type, obj: parse(row) };
}

export const exists = (db: Db, id: string) => db.one<{ n: number }>("SELECT n FROM st_objects WHERE id = ?", id) !== undefined;

type FilterColumn = "customer" | "ref" | "ref2" | "status";

/** A list filter: the column equals `value`, or (with `anyOf`) one of several values. */
export type EqualsFilter = { column: FilterColumn; value: string };
export type Filter = EqualsFilter | { column: FilterColumn; anyOf: readonly string[] };

export interface PageQuery {
  limit: number;
  startingAfter?: string;
  endingBefore?: string;
  filters?: Filter[];
  created?: { gt?: number; gte?: number; lt?: number; lte?: number };
}

export interface Page {
  data: Rec[];
  hasMore: boolean;
}

export class CursorMissing extends Error {
  constructor(
    readonly id: string,
    readonly param: "starting_after" | "ending_before",
  ) {
    super(`no such object ${id}`);
  }
}

/**
 * One page of a type's live objects, newest first. `starting_after` walks to older objects;
 * `ending_before` to newer ones (the page still reads newest first), as Stripe pages.
 */
export function listPage(db: Db, type: ObjectType, q: PageQuery): Page {
  const where = ["type = ?", "deleted = 0"];
  const args: (string | number)[] = [type];
  for (const f of q.filters ?? []) {
    // One bound parameter however many values: a JSON array read back by json_each.
    where.push("anyOf" in f ? `${f.column} IN (SELECT value FROM json_each(?))` : `${f.column} = ?`);
    args.push("anyOf" in f ? JSON.stringify(f.anyOf) : f.value);
  }
  const c = q.created ?? {};
  if (c.gt !== undefined) {
    where.push("created > ?");
    args.push(c.gt);
  }
  if (c.gte !== undefined) {
    where.push("created >= ?");
    args.push(c.gte);
  }
  if (c.lt !== undefined) {
    where.push("created < ?");
    args.push(c.lt);
  }
  if (c.lte !== undefined) {
    where.push("created <= ?");
    args.push(c.lte);
  }
  const cursorId = q.startingAfter ?? q.endingBefore;
  const older = q.endingBefore === undefined;
  if (cursorId !== undefined) {
    const cursor = db.one<{ created: number; n: number }>("SELECT created, n FROM st_objects WHERE id = ? AND type = ?", cursorId, type);
    if (!cursor) throw new CursorMissing(cursorId, older ? "starting_after" : "ending_before");
    where.push(older ? "(created < ? OR (created = ? AND n < ?))" : "(created > ? OR (created = ? AND n > ?))");
    args.push(cursor.created, cursor.created, cursor.n);
  }
  const order = older ? "created DESC, n DESC" : "created ASC, n ASC";
  const rows = db.all<Row>(
    `SELECT n, id, type, created, deleted, data FROM st_objects WHERE ${where.join(" AND ")} ORDER BY ${order} LIMIT ?`,
    ...args,
    q.limit + 1,
  );
  const hasMore = rows.length > q.limit;
  const page = rows.slice(0, q.limit).map(parse);
  return { data: older ? page : page.reverse(), hasMore };
}

/** Every object of a type in creation order (export, search, small per-parent lists). */
export function allOfType(db: Db, type: ObjectType, filter?: EqualsFilter): Rec[] {
  const rows = filter
    ? db.all<Row>(
        `SELECT n, id, type, created, deleted, data FROM st_objects WHERE type = ? AND ${filter.column} = ? ORDER BY n`,
        type,
        filter.value,
      )
    : db.all<Row>("SELECT n, id, type, created, deleted, data FROM st_objects WHERE type = ? ORDER BY n", type);
  return rows.map(parse);
}

export function liveOfType(db: Db, type: ObjectType, filter?: EqualsFilter): Rec[] {
  return allOfType(db, type, filter).filter((o) => o.deleted !== true);
}
