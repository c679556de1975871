// What every Stripe call shares: parameters read once (form body or query), unknown parameters
// refused, Idempotency-Key replays and conflicts, and the vendor's answers. Routes are declared
// in declare.ts, which runs each call through `serve`.
import { jsonResponse } from "../kit/response";
import { unixSeconds } from "../kit/sql";
import type { TwinContext, TwinResponse } from "../types";
import { fail, noSuch, stripeError } from "./errors";
import { Params } from "./params";
import { CursorMissing, getObject, listPage, liveOfType, str, type Filter, type ObjectType, type PageQuery, type Rec } from "./store";
import { expand, expandList, render } from "./view";
import { checkStripeAccount } from "./acting-account";
import type { Call } from "./call-shape";

export type { Call };

export type Handler = (c: Call) => TwinResponse;

export const ok = (body: unknown) => jsonResponse(200, body);

/** How a card error is answered: 402, and its writes stand (Stripe keeps the failed charge). */
export const CARD_ERROR_STATUS = 402;

/** A call's fingerprint for idempotency: the same key must come with the same parameters. */
const fingerprintOf = (ctx: TwinContext) => `${ctx.req.method} ${ctx.req.path} ${ctx.req.body}`;

function replay(c: Call, key: string): TwinResponse | undefined {
  const row = c.db.one<{ fingerprint: string; status: number; body: string }>(
    "SELECT fingerprint, status, body FROM st_idempotency WHERE key = ?",
    key,
  );
  if (!row) return undefined;
  if (row.fingerprint !== fingerprintOf(c.ctx)) {
    return stripeError(
      400,
      "idempotency_error",
      `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
    );
  }
  return {
    status: row.status,
    headers: { "content-type": "application/json; charset=utf-8", "idempotent-replayed": "true", "idempotency-key": key },
    body: row.body,
  };
}

/**
 * One Stripe call: parameters read once (form body or query), an Idempotency-Key replayed or
 * refused, unknown parameters refused, then the handler, whose answer is kept for its key.
 */
export function serve(ctx: TwinContext, allowed: readonly string[], handler: Handler): TwinResponse {
  const key = ctx.req.method === "POST" ? str(ctx.req.headers["idempotency-key"]) : undefined;
  const c: Call = { ctx, db: ctx.db, p: Params.of(ctx), now: unixSeconds(ctx.clock.now()), idempotencyKey: key };
  if (key) {
    const replayed = replay(c, key);
    if (replayed) return replayed;
  }
  c.p.allow(allowed);
  let res: TwinResponse;
  try {
    res = checkStripeAccount(c) ?? handler(c);
  } catch (err) {
    if (err instanceof CursorMissing) return noSuch(cursorNoun(err.id), err.id, err.param);
    throw err;
  }
  if (key && (res.status === 200 || res.status === CARD_ERROR_STATUS)) {
    c.db.run(
      "INSERT OR REPLACE INTO st_idempotency (key, fingerprint, status, body) VALUES (?, ?, ?, ?)",
      key,
      fingerprintOf(ctx),
      res.status,
      res.body,
    );
    return { ...res, headers: { ...res.headers, "idempotency-key": key } };
  }
  return res;
}

const cursorNoun = (id: string) => (id.includes("_") ? id.slice(0, id.indexOf("_")) : "object");

/** Stripe's nouns in "No such …" messages. */
export const NOUN: Record<ObjectType, string> = {
  customer: "customer",
  payment_method: "PaymentMethod",
  payment_intent: "payment_intent",
  charge: "charge",
  refund: "refund",
  product: "product",
  price: "price",
  coupon: "coupon",
  subscription: "subscription",
  invoice: "invoice",
  invoiceitem: "invoiceitem",
  invoice_payment: "invoice payment",
  balance_transaction: "balance transaction",
  dispute: "dispute",
  event: "event",
  webhook_endpoint: "webhook endpoint",
  "test_helpers.test_clock": "test_clock",
  setup_intent: "setupintent",
  "checkout.session": "checkout.session",
  payment_link: "payment_link",
  credit_note: "credit_note",
  customer_balance_transaction: "customer_balance_transaction",
  tax_rate: "tax_rate",
  promotion_code: "promotion_code",
  subscription_schedule: "subscription_schedule",
  account: "account",
  bank_account: "external account",
  payout: "payout",
  transfer: "transfer",
  transfer_reversal: "transfer reversal",
  application_fee: "application fee",
  "billing_portal.session": "billing portal session",
  "billing_portal.configuration": "configuration",
  "billing.meter": "billing meter",
  "billing.meter_event": "meter event",
};

/** A live object named in the path (`param: id`) or the body (`param` its name), else Stripe's 404. */
export function load(c: Call, type: ObjectType, id: string, param = "id"): Rec {
  return getObject(c.db, type, id) ?? fail(noSuch(NOUN[type], id, param));
}

/**
 * Includable lists: fields Stripe returns only when expanded (an invoice's `payments`, a charge's
 * `refunds`), each read by its parent's index.
 */
const INCLUDABLE: Partial<Record<ObjectType, Record<string, { type: ObjectType; url: (id: string) => string }>>> = {
  invoice: { payments: { type: "invoice_payment", url: (id) => `/v1/invoice_payments?invoice=${id}` } },
  charge: { refunds: { type: "refund", url: (id) => `/v1/charges/${id}/refunds` } },
};

/** Includable lists kept on the object itself: a Checkout Session's and a Payment Link's line items. */
const INLINE_INCLUDABLE: Partial<Record<ObjectType, { field: string; url: (id: string) => string }>> = {
  "checkout.session": { field: "line_items", url: (id) => `/v1/checkout/sessions/${id}/line_items` },
  payment_link: { field: "line_items", url: (id) => `/v1/payment_links/${id}/line_items` },
};

/** An object in its wire form with the call's `expand[]` applied. */
export function show(c: Call, type: ObjectType, o: Rec): TwinResponse {
  let paths = c.p.expand();
  const wire = render(c.db, type, o);
  const inline = INLINE_INCLUDABLE[type];
  if (inline && paths.some((p) => p === inline.field || p.startsWith(`${inline.field}.`))) {
    const data = Array.isArray(o[inline.field]) ? (o[inline.field] as unknown[]) : [];
    wire[inline.field] = { object: "list", data, has_more: false, total_count: data.length, url: inline.url(String(o.id)) };
    paths = paths.filter((p) => p !== inline.field);
  }
  for (const [field, list] of Object.entries(INCLUDABLE[type] ?? {})) {
    if (!paths.some((p) => p === field || p.startsWith(`${field}.`))) continue;
    const data = liveOfType(c.db, list.type, { column: "ref", value: String(o.id) })
      .reverse()
      .map((x) => render(c.db, list.type, x));
    wire[field] = { object: "list", data, has_more: false, total_count: data.length, url: list.url(String(o.id)) };
    // `payments.payment` and `payments.data.payment` both name the list's items.
    paths = paths
      .filter((p) => p !== field)
      .map((p) => (p.startsWith(`${field}.`) && !p.startsWith(`${field}.data.`) ? `${field}.data.${p.slice(field.length + 1)}` : p));
  }
  return ok(expand(c.db, wire, paths));
}

export function pageQuery(c: Call, filters: Filter[] = []): PageQuery {
  const limit = c.p.int("limit") ?? 10;
  if (limit < 1 || limit > 100)
    fail(
      stripeError(400, "invalid_request_error", "This value must be greater than or equal to 1 and less than or equal to 100.", {
        param: "limit",
      }),
    );
  // `created` is an integer (that second exactly) or a range: stripe-node's `RangeQueryParam | number`.
  const exact = typeof c.p.raw.created === "string" ? c.p.int("created") : undefined;
  const created = exact === undefined ? c.p.sub("created")?.allow(["gt", "gte", "lt", "lte"]) : undefined;
  return {
    limit,
    startingAfter: c.p.str("starting_after"),
    endingBefore: c.p.str("ending_before"),
    filters,
    created:
      exact !== undefined
        ? { gte: exact, lte: exact }
        : created
          ? { gt: created.int("gt"), gte: created.int("gte"), lt: created.int("lt"), lte: created.int("lte") }
          : undefined,
  };
}

/** A list answer: Stripe's envelope over one page, newest first. */
export function listResponse(
  c: Call,
  type: ObjectType,
  url: string,
  filters: Filter[] = [],
  keep: (o: Rec) => boolean = () => true,
): TwinResponse {
  const q = pageQuery(c, filters);
  const page = listPage(c.db, type, q);
  const data = page.data.filter(keep).map((o) => render(c.db, type, o));
  return ok({ object: "list", data: expandList(c.db, data, c.p.expand()), has_more: page.hasMore, url });
}

/** A filter from a query parameter, when given. */
export function filterOf(c: Call, param: string, column: Filter["column"]): Filter[] {
  const v = c.p.str(param);
  return v === undefined ? [] : [{ column, value: v }];
}
