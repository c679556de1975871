// The Stripe twin's seed: one list per resource, named as Stripe names it, each row in that
// object's own field names with relations as plain ids. Normalizing fills Stripe's defaults,
// assigns missing ids and times deterministically, checks every reference, and derives what
// Stripe derives (refunded amounts, balance transactions, invoice totals, the balance). The
// export is this same shape, so any export seeds a new sandbox.
import { z } from "zod";
import { formatPath, parseSeedWith, SeedProblems } from "../kit/seed";
import { refusedUnderEverySetting } from "../kit/platform";
import type { SeedResult } from "../types";
import {
  buildBalanceTransaction,
  buildCharge,
  buildCoupon,
  buildCustomer,
  buildDispute,
  buildEvent,
  buildInvoice,
  buildInvoicePayment,
  buildItem,
  buildLine,
  buildPaymentIntent,
  buildPaymentMethod,
  buildPrice,
  buildProduct,
  buildRefund,
  buildSubscription,
  buildTestClock,
  buildWebhookEndpoint,
  cardDetails,
  chargeCardDetails,
  cardFee,
  invoiceTotals,
  type Made,
} from "./objects";
import { platformAccountOf } from "./connect";
import { RETIRED_ERROR_TYPES, STRIPE_ERROR_TYPES } from "./errors";
import { buildCheckoutSession, buildPaymentLink, buildSetupIntent } from "./objects-checkout";
import { arr, ID_PREFIX, idBody, num, rec, str, type ObjectType, type Rec } from "./store";

/** Seeded objects without a `created` are dated from here, one second apart in seed order. */
export const SEED_EPOCH = 1767225600;

/** Seed list name → Stripe object type, in the order references resolve (and boot inserts). */
export const LISTS = [
  ["test_clocks", "test_helpers.test_clock"],
  ["customers", "customer"],
  ["payment_methods", "payment_method"],
  ["products", "product"],
  ["prices", "price"],
  ["tax_rates", "tax_rate"],
  ["payment_links", "payment_link"],
  ["coupons", "coupon"],
  ["promotion_codes", "promotion_code"],
  ["subscriptions", "subscription"],
  ["subscription_schedules", "subscription_schedule"],
  ["invoices", "invoice"],
  ["invoice_items", "invoiceitem"],
  ["payment_intents", "payment_intent"],
  ["invoice_payments", "invoice_payment"],
  ["setup_intents", "setup_intent"],
  ["checkout_sessions", "checkout.session"],
  ["charges", "charge"],
  ["refunds", "refund"],
  ["disputes", "dispute"],
  ["credit_notes", "credit_note"],
  ["customer_balance_transactions", "customer_balance_transaction"],
  ["balance_transactions", "balance_transaction"],
  ["accounts", "account"],
  ["external_accounts", "bank_account"],
  ["payouts", "payout"],
  ["transfers", "transfer"],
  ["transfer_reversals", "transfer_reversal"],
  ["application_fees", "application_fee"],
  ["billing_portal_configurations", "billing_portal.configuration"],
  ["billing_meters", "billing.meter"],
  ["webhook_endpoints", "webhook_endpoint"],
  ["events", "event"],
] as const satisfies readonly (readonly [string, ObjectType])[];

export type ListName = (typeof LISTS)[number][0];
export type StripeSeed = { [K in ListName]: Rec[] } & { balance: Rec; faults: Rec[]; account?: Rec };

const SAMPLE: Made = { id: "x", created: 0 };
/** Every field a builder writes: a seed row may carry any of them back (the export does). */
const keysOf = (row: Rec) => Object.keys(row).filter((k) => k !== "object");
const loose = (keys: string[]) => Object.fromEntries(keys.map((k) => [k, z.unknown().optional()]));

const id = z.string().min(1);
const nullableId = id.nullable().optional();
const int = z.number().int();
const metadata = z.record(z.string(), z.string()).optional();
const currency = z.string().regex(/^[a-z]{3}$/, "a three-letter ISO currency code, lower case");

/**
 * A row of a list the twin keeps as the API made it (invoice items, credit notes, Connect
 * objects...): any of the object's own fields, relations as plain ids (STORED_REFS checks them).
 */
const storedRow = z
  .object({ id: id.optional(), created: int.optional(), metadata: z.record(z.string(), z.string()).nullable().optional() })
  .passthrough();
const storedList = z.array(storedRow).default([]);

function row<S extends z.ZodRawShape>(builtKeys: string[], shape: S) {
  return z.strictObject({ ...loose(builtKeys), id: id.optional(), created: int.optional(), metadata, ...shape });
}

const itemKeys = [
  "id",
  "created",
  "current_period_start",
  "current_period_end",
  "discounts",
  "metadata",
  "quantity",
  "tax_rates",
  "billing_thresholds",
  "subscription",
  "livemode",
  "price",
  "plan",
];
const item = z.strictObject({
  ...loose(itemKeys),
  price: id,
  quantity: int.min(0).optional(),
  current_period_start: int.optional(),
  current_period_end: int.optional(),
});
const lineKeys = keysOf(buildLine({}, { ...SAMPLE, invoice: "", currency: "usd", unitAmount: 0, product: null }));
const line = z.strictObject({
  ...loose([...lineKeys, "id"]),
  amount: int.optional(),
  quantity: int.optional(),
  pricing: z
    .object({ price_details: z.object({ price: id }).passthrough() })
    .passthrough()
    .nullable()
    .optional(),
});

const schema = z.strictObject({
  test_clocks: z.array(row(keysOf(buildTestClock({}, SAMPLE)), { frozen_time: int.optional() })).default([]),
  customers: z
    .array(
      row(keysOf(buildCustomer({}, SAMPLE)), {
        email: z.string().nullable().optional(),
        name: z.string().nullable().optional(),
        test_clock: nullableId,
        /** An export writes a customer deleted since boot as `{id, deleted: true}`. */
        deleted: z.literal(true).optional(),
        invoice_settings: z.object({ default_payment_method: nullableId }).passthrough().optional(),
      }),
    )
    .default([]),
  payment_methods: z
    .array(
      row(keysOf(buildPaymentMethod({}, SAMPLE)), {
        type: z.string(),
        customer: nullableId,
        card: z
          .object({ brand: z.string(), last4: z.string().regex(/^\d{4}$/) })
          .passthrough()
          .optional(),
      }).refine((pm) => pm.type !== "card" || pm.card !== undefined, {
        message: "a card payment method needs card.brand and card.last4",
        path: ["card"],
      }),
    )
    .default([]),
  products: z.array(row(keysOf(buildProduct({}, SAMPLE)), { name: z.string().min(1), active: z.boolean().optional() })).default([]),
  prices: z
    .array(
      row(keysOf(buildPrice({}, SAMPLE)), {
        product: id,
        currency,
        unit_amount: int.min(0),
        active: z.boolean().optional(),
        recurring: z
          .object({ interval: z.enum(["day", "week", "month", "year"]), interval_count: int.min(1).optional() })
          .passthrough()
          .nullable()
          .optional(),
      }),
    )
    .default([]),
  coupons: z
    .array(
      row(keysOf(buildCoupon({}, SAMPLE)), {
        duration: z.enum(["once", "repeating", "forever"]),
        percent_off: z.number().positive().max(100).nullable().optional(),
        amount_off: int.positive().nullable().optional(),
        currency: currency.nullable().optional(),
      }).refine((c) => (c.percent_off ?? null) !== null || ((c.amount_off ?? null) !== null && (c.currency ?? null) !== null), {
        message: "a coupon needs percent_off, or amount_off with currency",
        path: ["percent_off"],
      }),
    )
    .default([]),
  subscriptions: z
    .array(
      row(keysOf(buildSubscription({}, SAMPLE)), {
        customer: id,
        status: z.enum(["active", "trialing", "past_due", "canceled", "unpaid", "incomplete", "incomplete_expired", "paused"]).optional(),
        default_payment_method: nullableId,
        items: z.array(item).min(1),
        discounts: z.array(z.strictObject({ coupon: id })).optional(),
      }),
    )
    .default([]),
  invoices: z
    .array(
      // `days_until_due` is kept on invoices of send_invoice subscriptions until they are finalized.
      row([...keysOf(buildInvoice({}, SAMPLE)), "days_until_due"], {
        customer: id,
        status: z.enum(["draft", "open", "paid", "uncollectible", "void"]).optional(),
        currency: currency.optional(),
        parent: z
          .object({ subscription_details: z.object({ subscription: id }).passthrough().nullable().optional() })
          .passthrough()
          .nullable()
          .optional(),
        lines: z.array(line).optional(),
      }),
    )
    .default([]),
  payment_intents: z
    .array(
      row(keysOf(buildPaymentIntent({}, SAMPLE)), {
        amount: int.min(0),
        currency,
        customer: nullableId,
        payment_method: nullableId,
        latest_charge: nullableId,
        status: z
          .enum([
            "requires_payment_method",
            "requires_confirmation",
            "requires_action",
            "processing",
            "requires_capture",
            "canceled",
            "succeeded",
          ])
          .optional(),
      }),
    )
    .default([]),
  invoice_payments: z
    .array(
      row(keysOf(buildInvoicePayment({}, SAMPLE)), {
        invoice: id,
        payment: z.object({ payment_intent: id }).passthrough(),
        status: z.enum(["open", "paid", "canceled"]).optional(),
      }),
    )
    .default([]),
  charges: z
    .array(
      row(keysOf(buildCharge({}, SAMPLE)), {
        amount: int.min(0),
        currency,
        payment_intent: nullableId,
        customer: nullableId,
        payment_method: nullableId,
        status: z.enum(["succeeded", "pending", "failed"]).optional(),
        captured: z.boolean().optional(),
        amount_captured: int.optional(),
        amount_refunded: int.optional(),
        refunded: z.boolean().optional(),
        /** A destination charge's transfer and connected account (transfers.ts), checked against the seed's. */
        transfer: nullableId,
        destination: nullableId,
      }),
    )
    .default([]),
  refunds: z
    .array(
      row(keysOf(buildRefund({}, SAMPLE)), {
        amount: int.positive(),
        charge: nullableId,
        payment_intent: nullableId,
        reason: z.enum(["duplicate", "fraudulent", "requested_by_customer", "expired_uncaptured_charge"]).nullable().optional(),
        status: z.enum(["pending", "requires_action", "succeeded", "failed", "canceled"]).optional(),
      }).refine((r) => r.charge || r.payment_intent, { message: "a refund needs charge or payment_intent", path: ["charge"] }),
    )
    .default([]),
  disputes: z
    .array(
      row(keysOf(buildDispute({}, SAMPLE)), {
        charge: id,
        amount: int.positive().optional(),
        status: z
          .enum(["warning_needs_response", "warning_under_review", "warning_closed", "needs_response", "under_review", "won", "lost"])
          .optional(),
      }),
    )
    .default([]),
  // Objects made by SetupIntents, Checkout and Payment Links calls: an export carries them back.
  setup_intents: z
    .array(row(keysOf(buildSetupIntent({}, SAMPLE)), { customer: nullableId, payment_method: nullableId, status: z.string().optional() }))
    .default([]),
  checkout_sessions: z
    .array(
      row([...keysOf(buildCheckoutSession({}, SAMPLE)), "payment_intent_data", "subscription_data", "setup_intent_data", "return_url"], {
        mode: z.enum(["payment", "setup", "subscription"]).optional(),
        customer: nullableId,
        payment_link: nullableId,
        line_items: z.array(z.record(z.string(), z.unknown())).optional(),
      }),
    )
    .default([]),
  payment_links: z
    .array(
      row([...keysOf(buildPaymentLink({}, SAMPLE)), "line_items"], { line_items: z.array(z.record(z.string(), z.unknown())).optional() }),
    )
    .default([]),
  balance_transactions: z
    .array(row(keysOf(buildBalanceTransaction({}, SAMPLE)), { source: nullableId, amount: int.optional(), type: z.string().optional() }))
    .default([]),
  tax_rates: storedList,
  promotion_codes: storedList,
  subscription_schedules: storedList,
  invoice_items: storedList,
  credit_notes: storedList,
  customer_balance_transactions: storedList,
  accounts: storedList,
  external_accounts: storedList,
  payouts: storedList,
  transfers: storedList,
  transfer_reversals: storedList,
  application_fees: storedList,
  billing_portal_configurations: storedList,
  billing_meters: storedList,
  webhook_endpoints: z
    .array(
      row(keysOf(buildWebhookEndpoint({}, SAMPLE)), {
        url: z.string().url(),
        enabled_events: z.array(z.string()).min(1),
        secret: z.string().startsWith("whsec_").optional(),
        status: z.enum(["enabled", "disabled"]).optional(),
      }),
    )
    .default([]),
  events: z
    .array(
      row(keysOf(buildEvent({}, SAMPLE)), {
        type: z.string().min(1),
        data: z.object({ object: z.record(z.string(), z.unknown()) }).passthrough(),
      }),
    )
    .default([]),
  balance: z
    .object({ available: z.array(z.unknown()), pending: z.array(z.unknown()) })
    .passthrough()
    .optional(),
  /**
   * The platform account the sandbox's key belongs to (GET /v1/account): any of the Account
   * object's fields, e.g. business_profile, country, default_currency, email, settings; the rest
   * default (connect.ts). Absent, the twin's default platform account answers.
   */
  account: z
    .object({
      id: z.string().startsWith("acct_").optional(),
      country: z
        .string()
        .regex(/^[A-Z]{2}$/, "a two-letter ISO country code, upper case")
        .optional(),
      default_currency: currency.optional(),
      email: z.string().nullable().optional(),
      business_profile: z.record(z.string(), z.unknown()).optional(),
    })
    .passthrough()
    .optional(),
  /**
   * Not a Stripe resource: seeded faults. Calls of `operation` (stripe-node's name, as taped) are
   * counted; after `skip` of them, the next `times` are answered with this Stripe error and change nothing.
   */
  faults: z
    .array(
      z.strictObject({
        operation: z.string().min(1),
        skip: int.min(0).default(0),
        times: int.min(1).default(1),
        status: z
          .number()
          .int()
          .refine((n) => [400, 401, 402, 403, 404, 429, 500, 502, 503].includes(n), "an HTTP status Stripe answers errors with"),
        type: z.string().superRefine((t, ctx) => {
          if ((STRIPE_ERROR_TYPES as readonly string[]).includes(t)) return;
          const status = RETIRED_ERROR_TYPES[t];
          ctx.addIssue({
            code: "custom",
            message: status
              ? `Stripe no longer sends the error type ${t}: answer status ${status} with type invalid_request_error (stripe-node picks its error class by the status)`
              : `one of Stripe's error types: ${STRIPE_ERROR_TYPES.join(", ")}`,
          });
        }),
        message: z.string().min(1),
        code: z.string().optional(),
        decline_code: z.string().optional(),
        param: z.string().optional(),
      }),
    )
    .default([]),
});

type Raw = z.infer<typeof schema>;

const typeOfList = (list: ListName): ObjectType => LISTS.find(([l]) => l === list)?.[1] ?? "customer";

/** Items of a stored subscription, whether written as a list envelope (stored) or a plain array (seed). */
export const itemsOf = (sub: Rec): Rec[] => (Array.isArray(sub.items) ? sub.items.map(rec) : arr(rec(sub.items).data).map(rec));
export const linesOf = (inv: Rec): Rec[] => (Array.isArray(inv.lines) ? inv.lines.map(rec) : arr(rec(inv.lines).data).map(rec));

/** The balance Stripe would show for these balance transactions: their net per currency. */
export function balanceOf(txns: readonly Rec[]): Rec {
  const byCurrency = new Map<string, number>();
  // Transactions still `pending` (balance.ts: a card payment before its available_on) count there.
  const pendingBy = new Map<string, number>();
  for (const t of txns) {
    const c = str(t.currency) ?? "usd";
    const into = t.status === "pending" ? pendingBy : byCurrency;
    into.set(c, (into.get(c) ?? 0) + (num(t.net) ?? 0));
    if (!byCurrency.has(c)) byCurrency.set(c, 0);
  }
  const currencies = byCurrency.size ? [...byCurrency.keys()].sort() : ["usd"];
  return {
    object: "balance",
    available: currencies.map((c) => ({ amount: byCurrency.get(c) ?? 0, currency: c, source_types: { card: byCurrency.get(c) ?? 0 } })),
    livemode: false,
    pending: currencies.map((c) => ({ amount: pendingBy.get(c) ?? 0, currency: c, source_types: { card: pendingBy.get(c) ?? 0 } })),
  };
}

/** JSON with keys sorted, so two objects compare by content whatever their key order. */
function stableJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stableJson).join(",")}]`;
  if (v && typeof v === "object")
    return `{${Object.entries(v)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([k, x]) => `${JSON.stringify(k)}:${stableJson(x)}`)
      .join(",")}}`;
  return JSON.stringify(v);
}

const strip = (o: Rec): Rec => Object.fromEntries(Object.entries(o).filter(([k]) => k !== "object"));

/** One seed list with each row's id and creation time assigned, and the rows by id. */
interface Indexed<T> {
  rows: { raw: T; m: Made }[];
  byId: Map<string, { raw: T; m: Made }>;
}

/**
 * Assigns ids and times to a seed's rows, list after list: a given id must carry its type's
 * prefix and be unused; a missing one is derived from the row's place, and a missing `created`
 * counts up from SEED_EPOCH in the order rows are indexed.
 */
function rowIndexer(problems: SeedProblems) {
  let clock = SEED_EPOCH;
  const ids = new Map<string, string>();
  const made = (list: ListName, i: number, r: { id?: string; created?: number }): Made => {
    const type = typeOfList(list);
    const prefix = ID_PREFIX[type];
    const given = r.id;
    const value = given ?? (type === "coupon" ? idBody(`seed:${list}:${i}`, 8).toUpperCase() : `${prefix}${idBody(`seed:${list}:${i}`)}`);
    const path = formatPath([list, i, "id"]);
    if (given !== undefined && prefix && !given.startsWith(prefix)) problems.add(path, `a ${type} id starts with ${prefix}`, "invalid_id");
    if (ids.has(value)) problems.add(path, `id ${value} is already used at ${ids.get(value)}`, "duplicate_id");
    ids.set(value, path);
    return { id: value, created: r.created ?? clock++ };
  };
  return <T extends { id?: string; created?: number }>(list: ListName, rows: T[]): Indexed<T> => {
    const out = rows.map((r, i) => ({ raw: r, m: made(list, i, r) }));
    return { rows: out, byId: new Map(out.map((x) => [x.m.id, x])) };
  };
}

/** Every list of the seed indexed, in the order ids and times are handed out. */
function indexSeed(raw: Raw, problems: SeedProblems) {
  const index = rowIndexer(problems);
  const lists = {
    clocks: index("test_clocks", raw.test_clocks),
    customers: index("customers", raw.customers),
    methods: index("payment_methods", raw.payment_methods),
    products: index("products", raw.products),
    prices: index("prices", raw.prices),
    coupons: index("coupons", raw.coupons),
    subs: index("subscriptions", raw.subscriptions),
    invoices: index("invoices", raw.invoices),
    intents: index("payment_intents", raw.payment_intents),
    invoicePayments: index("invoice_payments", raw.invoice_payments),
    charges: index("charges", raw.charges),
    refunds: index("refunds", raw.refunds),
    disputes: index("disputes", raw.disputes),
    txnsGiven: index("balance_transactions", raw.balance_transactions),
    setupIntents: index("setup_intents", raw.setup_intents),
    sessions: index("checkout_sessions", raw.checkout_sessions),
    links: index("payment_links", raw.payment_links),
    endpoints: index("webhook_endpoints", raw.webhook_endpoints),
  };
  checkEndpoints(lists.endpoints, problems);
  const events = index("events", raw.events);
  // Indexed after the events, so a seed without these lists dates its rows as it did before.
  const stored = Object.fromEntries(STORED_LISTS.map((list) => [list, index(list, raw[list])])) as Record<StoredList, Indexed<StoredRaw>>;
  return { ...lists, events, stored };
}

/** The lists kept as the API made them, in LISTS order. */
const STORED_LISTS = [
  "tax_rates",
  "promotion_codes",
  "subscription_schedules",
  "invoice_items",
  "credit_notes",
  "customer_balance_transactions",
  "accounts",
  "external_accounts",
  "payouts",
  "transfers",
  "transfer_reversals",
  "application_fees",
  "billing_portal_configurations",
  "billing_meters",
] as const satisfies readonly ListName[];
type StoredList = (typeof STORED_LISTS)[number];
type StoredRaw = z.infer<typeof storedRow>;

/** The seed lists a stored list's fields point into: field path → list (null/absent is fine). */
type RefTarget = "customers" | "coupons" | "subscriptions" | "invoices" | "charges" | "refunds" | "balance_transactions" | StoredList;
const STORED_REFS: Record<StoredList, [string[], RefTarget, string][]> = {
  tax_rates: [],
  promotion_codes: [
    [["promotion", "coupon"], "coupons", "coupon"],
    [["coupon"], "coupons", "coupon"],
    [["customer"], "customers", "customer"],
  ],
  subscription_schedules: [
    [["customer"], "customers", "customer"],
    [["subscription"], "subscriptions", "subscription"],
  ],
  invoice_items: [
    [["customer"], "customers", "customer"],
    [["invoice"], "invoices", "invoice"],
    [["subscription"], "subscriptions", "subscription"],
  ],
  credit_notes: [
    [["customer"], "customers", "customer"],
    [["invoice"], "invoices", "invoice"],
    [["refund"], "refunds", "refund"],
  ],
  customer_balance_transactions: [
    [["customer"], "customers", "customer"],
    [["invoice"], "invoices", "invoice"],
    [["credit_note"], "credit_notes", "credit note"],
  ],
  accounts: [],
  external_accounts: [[["account"], "accounts", "account"]],
  payouts: [
    [["balance_transaction"], "balance_transactions", "balance transaction"],
    [["on_account"], "accounts", "account"],
  ],
  transfers: [
    [["destination"], "accounts", "account"],
    [["balance_transaction"], "balance_transactions", "balance transaction"],
    [["source_transaction"], "charges", "charge"],
  ],
  transfer_reversals: [
    [["transfer"], "transfers", "transfer"],
    [["balance_transaction"], "balance_transactions", "balance transaction"],
  ],
  application_fees: [
    [["account"], "accounts", "account"],
    [["charge"], "charges", "charge"],
  ],
  billing_portal_configurations: [],
  billing_meters: [],
};

/** The value at `path` in `row`, as an id (a field may hold the id or the expanded object). */
function idAt(row: Rec, path: string[]): string | undefined {
  let v: unknown = row;
  for (const key of path) v = rec(v)[key];
  return typeof v === "string" ? v : str(rec(v).id);
}

/** The stored lists: each reference checked against the seed, each row with its id and time. */
function normalizeStored({ idx, out, ref }: Normalizing): void {
  const targets: Record<RefTarget, Map<string, unknown>> = {
    customers: idx.customers.byId,
    coupons: idx.coupons.byId,
    subscriptions: idx.subs.byId,
    invoices: idx.invoices.byId,
    charges: idx.charges.byId,
    refunds: idx.refunds.byId,
    balance_transactions: new Map(out.balance_transactions.map((t) => [String(t.id), t])),
    ...(Object.fromEntries(STORED_LISTS.map((list) => [list, idx.stored[list].byId])) as Record<StoredList, Map<string, unknown>>),
  };
  idx.charges.rows.forEach(({ raw: r }, i) => {
    ref(targets.transfers, r.transfer, ["charges", i, "transfer"], "transfer");
    ref(targets.accounts, r.destination, ["charges", i, "destination"], "account");
  });
  for (const list of STORED_LISTS) {
    idx.stored[list].rows.forEach(({ raw: r, m }, i) => {
      if (r.deleted === true) {
        out[list].push({ id: m.id, deleted: true });
        return;
      }
      for (const [path, target, noun] of STORED_REFS[list]) ref(targets[target], idAt(r, path), [list, i, ...path], noun);
      // An invoice item is dated by `date`; it has no `created` (Stripe's InvoiceItem object).
      const dated = list === "invoice_items" ? { date: r.date ?? m.created } : { created: m.created };
      out[list].push(strip({ ...r, id: m.id, ...dated }));
    });
  }
}

function checkEndpoints(endpoints: Indexed<Raw["webhook_endpoints"][number]>, problems: SeedProblems): void {
  // Stripe's limit per account (docs.stripe.com/development/dashboard/webhooks), as the API enforces it.
  if (endpoints.rows.length > 16)
    problems.add(
      "webhook_endpoints",
      `A Stripe account has at most 16 webhook endpoints; this seed has ${endpoints.rows.length}.`,
      "too_big",
    );
  endpoints.rows.forEach(({ raw: r }, i) => {
    const refused = refusedUnderEverySetting(r.url);
    if (refused) problems.add(formatPath(["webhook_endpoints", i, "url"]), `Invalid URL: ${refused}.`, "url_invalid");
  });
}

/** What normalizing works with: the indexed lists, the problems found, and the seed being written. */
interface Normalizing {
  idx: ReturnType<typeof indexSeed>;
  problems: SeedProblems;
  out: StripeSeed;
  /** The seeded object `value` names in `map`; a missing one is a problem at `path`. */
  ref<T>(map: Map<string, T>, value: string | null | undefined, path: (string | number)[], noun: string): T | undefined;
}

function emptySeed(raw: Raw): StripeSeed {
  return {
    test_clocks: [],
    customers: [],
    payment_methods: [],
    products: [],
    prices: [],
    coupons: [],
    subscriptions: [],
    invoices: [],
    payment_intents: [],
    invoice_payments: [],
    setup_intents: [],
    checkout_sessions: [],
    payment_links: [],
    charges: [],
    refunds: [],
    disputes: [],
    balance_transactions: [],
    tax_rates: [],
    promotion_codes: [],
    subscription_schedules: [],
    invoice_items: [],
    credit_notes: [],
    customer_balance_transactions: [],
    accounts: [],
    external_accounts: [],
    payouts: [],
    transfers: [],
    transfer_reversals: [],
    application_fees: [],
    billing_portal_configurations: [],
    billing_meters: [],
    webhook_endpoints: [],
    events: [],
    balance: {},
    faults: raw.faults.map((f) => ({ ...f })),
  };
}

function normalizeCustomers({ idx, problems, out, ref }: Normalizing): void {
  idx.customers.rows.forEach(({ raw: r, m }, i) => {
    if (r.deleted) {
      out.customers.push({ id: m.id, deleted: true });
      return;
    }
    ref(idx.clocks.byId, r.test_clock, ["customers", i, "test_clock"], "test clock");
    const pm = r.invoice_settings?.default_payment_method;
    const method = ref(idx.methods.byId, pm, ["customers", i, "invoice_settings", "default_payment_method"], "payment method");
    if (method && method.raw.customer !== m.id)
      problems.add(
        formatPath(["customers", i, "invoice_settings", "default_payment_method"]),
        `payment method ${pm} does not belong to customer ${m.id}`,
      );
    out.customers.push(strip(buildCustomer(r, m)));
  });
  idx.methods.rows.forEach(({ raw: r, m }, i) => {
    ref(idx.customers.byId, r.customer, ["payment_methods", i, "customer"], "customer");
    out.payment_methods.push(strip(buildPaymentMethod(r, m)));
  });
}

function normalizeCatalog({ idx, out, ref }: Normalizing): void {
  idx.products.rows.forEach(({ raw: r, m }) => out.products.push(strip(buildProduct(r, m))));
  idx.prices.rows.forEach(({ raw: r, m }, i) => {
    ref(idx.products.byId, r.product, ["prices", i, "product"], "product");
    out.prices.push(strip(buildPrice(r, m)));
  });
  idx.coupons.rows.forEach(({ raw: r, m }) => out.coupons.push(strip(buildCoupon(r, m))));
}

/** A subscription's items, each priced by a recurring price of the seed; `currencies` collects theirs. */
function subscriptionItems(n: Normalizing, r: Raw["subscriptions"][number], m: Made, i: number, currencies: Set<string>): Rec[] {
  return r.items.map((it, j) => {
    const price = n.ref(n.idx.prices.byId, it.price, ["subscriptions", i, "items", j, "price"], "price");
    if (price && !price.raw.recurring)
      n.problems.add(formatPath(["subscriptions", i, "items", j, "price"]), `price ${it.price} is not recurring`);
    if (price) currencies.add(price.raw.currency);
    const given: Rec = it;
    const itemId = str(given.id) ?? `si_${idBody(`seed:si:${m.id}:${j}`, 14)}`;
    const built = buildItem(
      { ...it, id: itemId },
      { id: itemId, created: num(given.created) ?? m.created, subscription: m.id, periodStart: 0, periodEnd: 0 },
    );
    // The current period is the sandbox's to work out at boot unless the seed states it.
    if (it.current_period_start === undefined) delete built.current_period_start;
    if (it.current_period_end === undefined) delete built.current_period_end;
    return strip(built);
  });
}

function normalizeSubscriptions(n: Normalizing): void {
  const { idx, problems, out, ref } = n;
  idx.subs.rows.forEach(({ raw: r, m }, i) => {
    const customer = ref(idx.customers.byId, r.customer, ["subscriptions", i, "customer"], "customer");
    const pm = ref(idx.methods.byId, r.default_payment_method, ["subscriptions", i, "default_payment_method"], "payment method");
    if (pm && pm.raw.customer !== r.customer)
      problems.add(
        formatPath(["subscriptions", i, "default_payment_method"]),
        `payment method ${r.default_payment_method} does not belong to customer ${r.customer}`,
      );
    const currencies = new Set<string>();
    const items = subscriptionItems(n, r, m, i, currencies);
    if (currencies.size > 1) problems.add(formatPath(["subscriptions", i, "items"]), "every price of a subscription has one currency");
    (r.discounts ?? []).forEach((d, j) => ref(idx.coupons.byId, d.coupon, ["subscriptions", i, "discounts", j, "coupon"], "coupon"));
    const currency = [...currencies][0] ?? "usd";
    const test_clock = customer?.raw.test_clock ?? null;
    out.subscriptions.push(strip({ ...buildSubscription({ ...r, currency, test_clock }, m), items, discounts: r.discounts ?? [] }));
  });
}

/** An invoice's lines, priced from the seed's prices; the invoice's currency follows the first priced line. */
function invoiceLines(n: Normalizing, r: Raw["invoices"][number], m: Made, i: number, subId: string | undefined) {
  let currency = r.currency ?? null;
  const lines = (r.lines ?? []).map((l, j) => {
    const priceId = l.pricing?.price_details.price;
    const price = n.ref(n.idx.prices.byId, priceId, ["invoices", i, "lines", j, "pricing", "price_details", "price"], "price");
    currency ??= price?.raw.currency ?? null;
    const lineGiven: Rec = l;
    const lineId = str(lineGiven.id) ?? `il_${idBody(`seed:il:${m.id}:${j}`)}`;
    return strip(
      buildLine(
        { subscription: subId ?? null, ...l },
        {
          id: lineId,
          created: m.created,
          invoice: m.id,
          currency: price?.raw.currency ?? currency ?? "usd",
          unitAmount: price?.raw.unit_amount ?? null,
          product: price?.raw.product ?? null,
        },
      ),
    );
  });
  return { lines, currency };
}

function normalizeInvoices(n: Normalizing): void {
  const { idx, problems, out, ref } = n;
  idx.invoices.rows.forEach(({ raw: r, m }, i) => {
    ref(idx.customers.byId, r.customer, ["invoices", i, "customer"], "customer");
    const subId = r.parent?.subscription_details?.subscription;
    const sub = ref(idx.subs.byId, subId, ["invoices", i, "parent", "subscription_details", "subscription"], "subscription");
    if (sub && sub.raw.customer !== r.customer)
      problems.add(
        formatPath(["invoices", i, "parent", "subscription_details", "subscription"]),
        `subscription ${subId} is not customer ${r.customer}'s`,
      );
    const { lines, currency } = invoiceLines(n, r, m, i, subId);
    const parent = subId
      ? {
          type: "subscription_details",
          quote_details: null,
          ...r.parent,
          subscription_details: { metadata: {}, ...rec(r.parent?.subscription_details) },
        }
      : (r.parent ?? null);
    const inv = buildInvoice({ ...r, currency: currency ?? "usd", parent }, m);
    out.invoices.push(strip({ ...inv, ...invoiceTotals(inv, lines), ...givenTotals(r), lines }));
  });
}

/**
 * An invoice's amounts the row states itself win over the sum of its lines: that sum cannot see
 * taxes, discounts, credit notes or a customer balance applied, which an export's totals carry.
 */
const TOTAL_KEYS = ["subtotal", "subtotal_excluding_tax", "total", "total_excluding_tax", "amount_due", "amount_paid", "amount_remaining"];
function givenTotals(r: Rec): Rec {
  return Object.fromEntries(TOTAL_KEYS.filter((k) => typeof r[k] === "number").map((k) => [k, r[k]]));
}

/** Charges as built (before what refunds and disputes derive on them), by id. */
function buildCharges({ idx, problems, ref }: Normalizing): Map<string, Rec> {
  const chargeRows = new Map<string, Rec>();
  idx.charges.rows.forEach(({ raw: r, m }, i) => {
    const pi = ref(idx.intents.byId, r.payment_intent, ["charges", i, "payment_intent"], "payment intent");
    ref(idx.customers.byId, r.customer, ["charges", i, "customer"], "customer");
    const pm = ref(idx.methods.byId, r.payment_method, ["charges", i, "payment_method"], "payment method");
    if (pi && (pi.raw.amount !== r.amount || pi.raw.currency !== r.currency))
      problems.add(
        formatPath(["charges", i, "amount"]),
        `charge ${m.id} differs in amount or currency from its payment intent ${r.payment_intent}`,
      );
    const card = pm ? cardDetails(rec(pm.raw.card), `${pm.raw.card?.brand}${pm.raw.card?.last4}`) : undefined;
    const details = card ? { card: chargeCardDetails(card, Number(r.amount ?? 0)), type: "card" } : null;
    chargeRows.set(m.id, buildCharge({ payment_method_details: details, ...r }, m));
  });
  return chargeRows;
}

function normalizePaymentIntents({ idx, problems, out, ref }: Normalizing): void {
  idx.intents.rows.forEach(({ raw: r, m }, i) => {
    ref(idx.customers.byId, r.customer, ["payment_intents", i, "customer"], "customer");
    ref(idx.methods.byId, r.payment_method, ["payment_intents", i, "payment_method"], "payment method");
    const path = formatPath(["payment_intents", i, "latest_charge"]);
    const charge = ref(idx.charges.byId, r.latest_charge, ["payment_intents", i, "latest_charge"], "charge");
    if (charge && (charge.raw.payment_intent !== m.id || charge.raw.amount !== r.amount || charge.raw.currency !== r.currency)) {
      problems.add(path, `charge ${r.latest_charge} must point back at ${m.id} with the same amount and currency`);
    }
    if ((r.status === "succeeded" || r.status === "requires_capture") && !r.latest_charge)
      problems.add(path, `a ${r.status} payment intent needs its latest_charge`, "missing_reference");
    out.payment_intents.push(strip(buildPaymentIntent(r, m)));
  });
  idx.invoicePayments.rows.forEach(({ raw: r, m }, i) => {
    const inv = ref(idx.invoices.byId, r.invoice, ["invoice_payments", i, "invoice"], "invoice");
    const pi = ref(idx.intents.byId, r.payment.payment_intent, ["invoice_payments", i, "payment", "payment_intent"], "payment intent");
    const given: Rec = r;
    out.invoice_payments.push(
      strip(
        buildInvoicePayment(
          { amount_requested: pi?.raw.amount ?? 0, currency: inv?.raw.currency ?? pi?.raw.currency ?? "usd", ...given },
          m,
        ),
      ),
    );
  });
}

/** The charge a seeded refund refunds: its own `charge`, or its payment intent's latest charge. */
function refundedCharge({ idx, problems, ref }: Normalizing, r: Raw["refunds"][number], i: number): string | undefined {
  let chargeId = r.charge ?? undefined;
  if (!chargeId && r.payment_intent) {
    const pi = ref(idx.intents.byId, r.payment_intent, ["refunds", i, "payment_intent"], "payment intent");
    chargeId = pi?.raw.latest_charge ?? undefined;
    if (pi && !chargeId)
      problems.add(formatPath(["refunds", i, "payment_intent"]), `payment intent ${r.payment_intent} has no charge to refund`);
  } else {
    ref(idx.charges.byId, chargeId, ["refunds", i, "charge"], "charge");
  }
  return chargeId;
}

/** Refunds as built, and the amount refunded of each charge (which may not exceed what it captured). */
function buildRefunds(n: Normalizing, chargeRows: Map<string, Rec>) {
  const refunded = new Map<string, number>();
  const refundRows = n.idx.refunds.rows.map(({ raw: r, m }, i) => {
    const chargeId = refundedCharge(n, r, i);
    const charge = chargeId ? chargeRows.get(chargeId) : undefined;
    const status = r.status ?? "succeeded";
    if (charge && (status === "succeeded" || status === "pending")) {
      const total = (refunded.get(String(charge.id)) ?? 0) + r.amount;
      refunded.set(String(charge.id), total);
      if (total > (num(charge.amount_captured) ?? 0))
        n.problems.add(
          formatPath(["refunds", i, "amount"]),
          `refunds of charge ${charge.id} exceed its amount_captured (${charge.amount_captured})`,
          "invalid_amount",
        );
    }
    return buildRefund(
      {
        currency: charge?.currency ?? "usd",
        payment_intent: charge?.payment_intent ?? null,
        customer: charge?.customer ?? null,
        payment_method: charge?.payment_method ?? null,
        ...r,
        charge: chargeId ?? null,
      },
      m,
    );
  });
  return { refunded, refundRows };
}

/**
 * Balance transactions: the seed's own, plus one per charge, refund and dispute they do not cover.
 * `txnFor` returns the id of the source's transaction, made from `body` when the seed has none.
 */
function balanceLedger(idx: Normalizing["idx"]) {
  const txns = idx.txnsGiven.rows.map(({ raw: r, m }) => buildBalanceTransaction(r, m));
  const bySource = new Map(txns.map((t) => [str(t.source), t]));
  const txnFor = (source: Rec, key: string, body: Rec): string => {
    const sourceId = String(source.id);
    const have = bySource.get(sourceId);
    if (have) return String(have.id);
    const t = buildBalanceTransaction(
      { source: sourceId, ...body },
      { id: `txn_${idBody(`seed:txn:${key}:${sourceId}`)}`, created: num(source.created) ?? SEED_EPOCH },
    );
    txns.push(t);
    bySource.set(sourceId, t);
    return String(t.id);
  };
  return { txns, txnFor };
}
type TxnFor = ReturnType<typeof balanceLedger>["txnFor"];

/** Charges with what their refunds and disputes derive, and a balance transaction when captured. */
function finishCharges({ idx, problems, out }: Normalizing, chargeRows: Map<string, Rec>, refunded: Map<string, number>, txnFor: TxnFor) {
  idx.charges.rows.forEach(({ raw: r, m }, i) => {
    const c = chargeRows.get(m.id) ?? {};
    const amountRefunded = refunded.get(m.id) ?? 0;
    const captured = num(c.amount_captured) ?? 0;
    const derived = { amount_refunded: amountRefunded, refunded: captured > 0 && amountRefunded >= captured };
    if (r.amount_refunded !== undefined && r.amount_refunded !== derived.amount_refunded)
      problems.add(
        formatPath(["charges", i, "amount_refunded"]),
        `amount_refunded is ${derived.amount_refunded} from the seed's refunds`,
        "derived_mismatch",
      );
    if (r.refunded !== undefined && r.refunded !== derived.refunded)
      problems.add(formatPath(["charges", i, "refunded"]), `refunded is ${derived.refunded} from the seed's refunds`, "derived_mismatch");
    const disputed = idx.disputes.rows.some((d) => d.raw.charge === m.id);
    const txn =
      c.status === "succeeded" && captured > 0
        ? txnFor(c, "ch", {
            amount: captured,
            currency: c.currency,
            fee: cardFee(captured, String(c.currency)),
            type: "charge",
            reporting_category: "charge",
            description: c.description ?? null,
          })
        : null;
    out.charges.push(strip({ ...c, ...derived, disputed, balance_transaction: c.balance_transaction ?? txn }));
  });
}

function finishRefundsAndDisputes({ idx, out }: Normalizing, chargeRows: Map<string, Rec>, refundRows: Rec[], txnFor: TxnFor): void {
  refundRows.forEach((r) => {
    const txn =
      r.status === "succeeded"
        ? txnFor(r, "re", { amount: -(num(r.amount) ?? 0), currency: r.currency, fee: 0, type: "refund", reporting_category: "refund" })
        : null;
    out.refunds.push(strip({ ...r, balance_transaction: r.balance_transaction ?? txn }));
  });
  idx.disputes.rows.forEach(({ raw: r, m }) => {
    const charge = chargeRows.get(r.charge);
    const amount = r.amount ?? num(charge?.amount) ?? 0;
    const d = buildDispute({ amount, currency: charge?.currency ?? "usd", payment_intent: charge?.payment_intent ?? null, ...r }, m);
    const givenRow: Rec = r;
    const given = arr(givenRow.balance_transactions);
    const txn = given.length
      ? given
      : [
          txnFor(d, "dp", {
            amount: -amount,
            currency: d.currency,
            fee: 1500,
            type: "adjustment",
            reporting_category: "dispute",
            description: "Chargeback withdrawal",
          }),
        ];
    out.disputes.push(strip({ ...d, balance_transactions: txn }));
  });
}

/** Charges, payment intents, refunds and disputes, and the balance transactions they derive. */
function normalizePayments(n: Normalizing): void {
  // Charges first (payment intents point at them); refunds and disputes hang off charges.
  const chargeRows = buildCharges(n);
  normalizePaymentIntents(n);
  const { refunded, refundRows } = buildRefunds(n, chargeRows);
  n.idx.disputes.rows.forEach(({ raw: r }, i) => n.ref(n.idx.charges.byId, r.charge, ["disputes", i, "charge"], "charge"));
  const { txns, txnFor } = balanceLedger(n.idx);
  finishCharges(n, chargeRows, refunded, txnFor);
  finishRefundsAndDisputes(n, chargeRows, refundRows, txnFor);
  n.out.balance_transactions = txns.map(strip);
}

/** SetupIntents, Payment Links and Checkout Sessions, which an export carries back. */
function normalizeCheckout({ idx, out, ref }: Normalizing): void {
  idx.setupIntents.rows.forEach(({ raw: r, m }, i) => {
    ref(idx.customers.byId, r.customer, ["setup_intents", i, "customer"], "customer");
    ref(idx.methods.byId, r.payment_method, ["setup_intents", i, "payment_method"], "payment method");
    out.setup_intents.push(strip(buildSetupIntent(r, m)));
  });
  idx.links.rows.forEach(({ raw: r, m }) => out.payment_links.push(strip(buildPaymentLink(r, m))));
  idx.sessions.rows.forEach(({ raw: r, m }, i) => {
    ref(idx.customers.byId, r.customer, ["checkout_sessions", i, "customer"], "customer");
    ref(idx.links.byId, r.payment_link, ["checkout_sessions", i, "payment_link"], "payment link");
    out.checkout_sessions.push(strip(buildCheckoutSession(r, m)));
  });
}

function normalize(raw: Raw): SeedResult<StripeSeed> {
  const problems = new SeedProblems();
  const idx = indexSeed(raw, problems);
  const n: Normalizing = {
    idx,
    problems,
    out: emptySeed(raw),
    ref: (map, value, path, noun) => problems.resolve(map, value, formatPath(path), (v) => `no ${noun} ${v} in the seed`),
  };
  const { out } = n;
  out.test_clocks = idx.clocks.rows.map(({ raw: r, m }) => strip(buildTestClock({ ...r, frozen_time: r.frozen_time ?? m.created }, m)));
  normalizeCustomers(n);
  normalizeCatalog(n);
  normalizeSubscriptions(n);
  normalizeInvoices(n);
  normalizePayments(n);
  normalizeCheckout(n);
  normalizeStored(n);
  out.webhook_endpoints = idx.endpoints.rows.map(({ raw: r, m }) => strip(buildWebhookEndpoint(r, m)));
  out.events = idx.events.rows.map(({ raw: r, m }) => strip(buildEvent(r, m)));
  if (raw.account) out.account = platformAccountOf(raw.account);
  out.balance = balanceOf(out.balance_transactions);
  if (raw.balance && stableJson(raw.balance) !== stableJson(out.balance))
    problems.add("balance", "balance is derived from the balance transactions and does not match them", "derived_mismatch");
  return problems.result(out);
}

export const parseStripeSeed = parseSeedWith(schema, normalize);

const must = (r: SeedResult<StripeSeed>): StripeSeed => {
  if (!r.ok) throw new Error(`built-in Stripe seed is invalid: ${JSON.stringify(r.issues)}`);
  return r.seed;
};

/** Three customers with cards, a monthly plan one of them is on, two payments and one refund. */
export function defaultStripeSeed(): StripeSeed {
  return must(
    parseStripeSeed({
      customers: [
        { id: "cus_alice", email: "alice@example.com", name: "Alice Doe", invoice_settings: { default_payment_method: "pm_alice_visa" } },
        { id: "cus_bob", email: "bob@example.com", name: "Bob Lee", invoice_settings: { default_payment_method: "pm_bob_mastercard" } },
        { id: "cus_carol", email: "carol@example.com", name: "Carol Diaz", invoice_settings: { default_payment_method: "pm_carol_amex" } },
      ],
      payment_methods: [
        { id: "pm_alice_visa", type: "card", customer: "cus_alice", card: { brand: "visa", last4: "4242", exp_month: 12, exp_year: 2030 } },
        {
          id: "pm_bob_mastercard",
          type: "card",
          customer: "cus_bob",
          card: { brand: "mastercard", last4: "4444", exp_month: 6, exp_year: 2029 },
        },
        { id: "pm_carol_amex", type: "card", customer: "cus_carol", card: { brand: "amex", last4: "8431", exp_month: 3, exp_year: 2031 } },
      ],
      products: [{ id: "prod_pro", name: "Pro plan" }],
      prices: [{ id: "price_pro_monthly", product: "prod_pro", currency: "usd", unit_amount: 2000, recurring: { interval: "month" } }],
      subscriptions: [
        {
          id: "sub_alice",
          customer: "cus_alice",
          default_payment_method: "pm_alice_visa",
          items: [{ price: "price_pro_monthly", quantity: 1 }],
        },
      ],
      payment_intents: [
        {
          id: "pi_alice_order",
          customer: "cus_alice",
          amount: 2500,
          currency: "usd",
          status: "succeeded",
          payment_method: "pm_alice_visa",
          latest_charge: "ch_alice_order",
          metadata: { order_id: "A-1001" },
        },
        {
          id: "pi_bob_order",
          customer: "cus_bob",
          amount: 4200,
          currency: "usd",
          status: "succeeded",
          payment_method: "pm_bob_mastercard",
          latest_charge: "ch_bob_order",
          metadata: { order_id: "B-2001" },
        },
      ],
      charges: [
        {
          id: "ch_alice_order",
          payment_intent: "pi_alice_order",
          customer: "cus_alice",
          amount: 2500,
          currency: "usd",
          payment_method: "pm_alice_visa",
        },
        {
          id: "ch_bob_order",
          payment_intent: "pi_bob_order",
          customer: "cus_bob",
          amount: 4200,
          currency: "usd",
          payment_method: "pm_bob_mastercard",
        },
      ],
      refunds: [{ id: "re_alice_partial", charge: "ch_alice_order", amount: 500, reason: "requested_by_customer" }],
    }),
  );
}

/** `count` customers, each with a card and one succeeded payment: the bench's and contract's world. */
export function generateStripeSeed(count: number): unknown {
  const pad = (i: number) => String(i).padStart(6, "0");
  const rows = Array.from({ length: count }, (_, i) => i);
  return {
    customers: rows.map((i) => ({
      id: `cus_gen${pad(i)}`,
      email: `customer${i}@example.com`,
      name: `Customer ${i}`,
      invoice_settings: { default_payment_method: `pm_gen${pad(i)}` },
    })),
    payment_methods: rows.map((i) => ({
      id: `pm_gen${pad(i)}`,
      type: "card",
      customer: `cus_gen${pad(i)}`,
      card: { brand: "visa", last4: "4242" },
    })),
    payment_intents: rows.map((i) => ({
      id: `pi_gen${pad(i)}`,
      customer: `cus_gen${pad(i)}`,
      amount: 1000 + i,
      currency: "usd",
      status: "succeeded",
      payment_method: `pm_gen${pad(i)}`,
      latest_charge: `ch_gen${pad(i)}`,
    })),
    charges: rows.map((i) => ({
      id: `ch_gen${pad(i)}`,
      payment_intent: `pi_gen${pad(i)}`,
      customer: `cus_gen${pad(i)}`,
      amount: 1000 + i,
      currency: "usd",
      payment_method: `pm_gen${pad(i)}`,
    })),
  };
}
