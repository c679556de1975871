// Stripe's own MCP tool set: the 22 tools of @stripe/agent-toolkit 0.7.12 as @stripe/mcp 0.2.5
// serves them with `--tools=all`, with the names, descriptions, input schemas and annotations its
// server lists (test/fixtures/vendor-mcp/stripe-agent-toolkit.json, with version and license), each
// carried out as the stripe-node call the toolkit makes (its src/shared/<area>/<tool>.ts), so an
// agent built for Stripe's MCP server works against a sandbox unchanged.
//
// Why 0.7.12: @stripe/agent-toolkit 0.9.0 and @stripe/mcp 0.3.x ship no tool definitions; they
// relay tools/list and tools/call to https://mcp.stripe.com. 0.7.12 is the last published set.
//
// What the toolkit answers, and so what these answer (StripeAPI.run and each tool's execute):
// the tool's chosen fields, JSON.stringify'd, as a text result that is not an error; on any
// failure of the Stripe call, the JSON string `"Failed to <verb> <object>"` (create_coupon adds
// `: <Stripe's message>`), still not an error. One departure: a call the twin does not implement
// (its 501) answers the twin's refusal as an error result, so an agent is never told a plain
// "Failed to…" for an area the sandbox lacks.
import published from "../../../test/fixtures/vendor-mcp/stripe-agent-toolkit.json";
import { officialToolSet } from "../kit/official-tools";
import type {
  OfficialToolSet,
  ToolCall,
  TwinResponse,
  OfficialToolArgs as Args,
  OfficialToolResult as Result,
  OfficialToolRun as Run,
} from "../types";
import { stripeError } from "./errors";

type Json = Record<string, unknown>;

const enc = encodeURIComponent;
const str = (v: unknown) => (typeof v === "string" ? v : typeof v === "number" ? String(v) : "");

/** Only the arguments given: stripe-node leaves undefined parameters out of the request. */
const given = (fields: Args) => Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));

/** Scalar list filters as stripe-node puts them in the query string. */
function query(a: Args, keys: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of keys) if (a[key] !== undefined && a[key] !== null) out[key] = str(a[key]);
  return out;
}

function parsed(res: TwinResponse): Json {
  try {
    const v: unknown = JSON.parse(res.body);
    return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Json) : {};
  } catch {
    return {};
  }
}

/** A list answer's `data` array (stripe-node's `list(...).data`). */
const dataOf = (res: TwinResponse): Json[] => {
  const data = parsed(res).data;
  return Array.isArray(data) ? (data as Json[]) : [];
};

/** The toolkit's text result: `String(JSON.stringify(result))`, never flagged an error. */
const shown = (value: unknown): Result => ({ text: JSON.stringify(value), isError: false });

/** The twin's refusal of an area it does not implement, passed on as an error result. */
const unimplemented = (res: TwinResponse): Result => ({ text: res.body || `HTTP ${res.status}`, isError: true });

/**
 * One stripe-node call: `pick` shapes its answer as the tool returns it; a refusal becomes the
 * tool's `failed` text (the toolkit catches every StripeError), a 501 the twin's refusal.
 */
const stripeCall =
  (toCall: (a: Args) => ToolCall, pick: (res: TwinResponse) => Result, failed: string | ((res: TwinResponse) => string)): Run =>
  async (a, call) => {
    const res = await call(toCall(a));
    if (res.status === 501) return unimplemented(res);
    if (res.status >= 400) return shown(typeof failed === "string" ? failed : failed(res));
    return pick(res);
  };

const whole = (res: TwinResponse) => shown(parsed(res));
const listed = (res: TwinResponse) => shown(dataOf(res));
const fields =
  (...keys: string[]) =>
  (res: TwinResponse) => {
    const object = parsed(res);
    return shown(Object.fromEntries(keys.map((k) => [k, object[k]])));
  };
/** The invoice tools answer `{id, url: hosted_invoice_url, customer, status}`. */
const invoiceSummary = (res: TwinResponse) => {
  const invoice = parsed(res);
  return shown({ id: invoice.id, url: invoice.hosted_invoice_url, customer: invoice.customer, status: invoice.status });
};

const get = (path: string, q?: Record<string, string>): ToolCall => ({ method: "GET", path, query: q });
const post = (path: string, body: Args): ToolCall => ({ method: "POST", path, body });

/** StripeError.message: the `error.message` of Stripe's refusal. */
const stripeMessage = (res: TwinResponse) => {
  const error = parsed(res).error as { message?: unknown } | undefined;
  return typeof error?.message === "string" ? error.message : `Request failed with status ${res.status}`;
};

const RUNS: Record<string, Run> = {
  create_customer: stripeCall(
    (a) => post("/v1/customers", given({ name: a.name, email: a.email })),
    fields("id"),
    "Failed to create customer",
  ),
  list_customers: stripeCall(
    (a) => get("/v1/customers", query(a, ["limit", "email"])),
    (res) => shown(dataOf(res).map((c) => ({ id: c.id }))),
    "Failed to list customers",
  ),
  create_product: stripeCall(
    (a) => post("/v1/products", given({ name: a.name, description: a.description })),
    whole,
    "Failed to create product",
  ),
  list_products: stripeCall((a) => get("/v1/products", query(a, ["limit"])), listed, "Failed to list products"),
  create_price: stripeCall(
    (a) => post("/v1/prices", given({ product: a.product, unit_amount: a.unit_amount, currency: a.currency })),
    whole,
    "Failed to create price",
  ),
  list_prices: stripeCall((a) => get("/v1/prices", query(a, ["product", "limit"])), listed, "Failed to list prices"),
  create_payment_link: stripeCall(
    (a) =>
      post("/v1/payment_links", {
        line_items: [{ price: a.price, quantity: a.quantity }],
        ...(a.redirect_url ? { after_completion: { type: "redirect", redirect: { url: a.redirect_url } } } : {}),
      }),
    fields("id", "url"),
    "Failed to create payment link",
  ),
  // The toolkit always invoices by email: collection_method is send_invoice.
  create_invoice: stripeCall(
    (a) => post("/v1/invoices", given({ customer: a.customer, days_until_due: a.days_until_due, collection_method: "send_invoice" })),
    invoiceSummary,
    "Failed to create invoice",
  ),
  list_invoices: stripeCall((a) => get("/v1/invoices", query(a, ["customer", "limit"])), listed, "Failed to list invoices"),
  create_invoice_item: stripeCall(
    (a) => post("/v1/invoiceitems", given({ customer: a.customer, price: a.price, invoice: a.invoice })),
    fields("id", "invoice"),
    "Failed to create invoice item",
  ),
  finalize_invoice: stripeCall(
    (a) => ({ method: "POST", path: `/v1/invoices/${enc(str(a.invoice))}/finalize` }),
    invoiceSummary,
    "Failed to finalize invoice",
  ),
  retrieve_balance: stripeCall(() => get("/v1/balance"), whole, "Failed to retrieve balance"),
  create_refund: stripeCall(
    (a) => post("/v1/refunds", given({ payment_intent: a.payment_intent, amount: a.amount })),
    fields("id", "status", "amount"),
    "Failed to create refund",
  ),
  list_payment_intents: stripeCall(
    (a) => get("/v1/payment_intents", query(a, ["customer", "limit"])),
    listed,
    "Failed to list payment intents",
  ),
  list_subscriptions: stripeCall(
    (a) => get("/v1/subscriptions", query(a, ["customer", "price", "status", "limit"])),
    listed,
    "Failed to list subscriptions",
  ),
  cancel_subscription: stripeCall(
    (a) => ({ method: "DELETE", path: `/v1/subscriptions/${enc(str(a.subscription))}` }),
    whole,
    "Failed to cancel subscription",
  ),
  update_subscription: stripeCall(
    (a) => post(`/v1/subscriptions/${enc(str(a.subscription))}`, given({ proration_behavior: a.proration_behavior, items: a.items })),
    whole,
    "Failed to update subscription",
  ),
  // The toolkit asks https://ai.stripe.com/search, Stripe's documentation index, not the API: a
  // sandbox has no copy of Stripe's documentation, so this answers the twin's 501 refusal.
  search_stripe_documentation: async () =>
    unimplemented(
      stripeError(501, "api_error", "The Stripe twin does not implement search_stripe_documentation (Stripe's documentation search).", {
        code: "not_implemented",
      }),
    ),
  list_coupons: stripeCall(
    (a) => get("/v1/coupons", query(a, ["limit"])),
    (res) =>
      shown(
        dataOf(res).map((c) => ({ id: c.id, name: c.name, percent_off: c.percent_off, amount_off: c.amount_off, duration: c.duration })),
      ),
    "Failed to list coupons",
  ),
  // The published schema's zod form defaults currency to "USD" (`.optional().default("USD")`), so
  // the toolkit always sends one; duration's `.default("once").optional()` leaves it out when absent.
  create_coupon: stripeCall(
    (a) =>
      post(
        "/v1/coupons",
        given({
          name: a.name,
          percent_off: a.percent_off,
          amount_off: a.amount_off,
          currency: a.currency ?? "USD",
          duration: a.duration,
          duration_in_months: a.duration_in_months,
        }),
      ),
    fields("id"),
    (res) => `Failed to create coupon: ${stripeMessage(res)}`,
  ),
  update_dispute: stripeCall(
    (a) => post(`/v1/disputes/${enc(str(a.dispute))}`, given({ evidence: a.evidence, submit: a.submit })),
    fields("id"),
    "Failed to update dispute",
  ),
  list_disputes: stripeCall(
    (a) => get("/v1/disputes", query(a, ["charge", "payment_intent", "limit"])),
    (res) => shown(dataOf(res).map((d) => ({ id: d.id }))),
    "Failed to list disputes",
  ),
};

export const stripeOfficialTools: OfficialToolSet = officialToolSet(published, RUNS);
