// The Stripe twin's fidelity declaration (Node only: `npm run fidelity` reads it and writes
// FIDELITY.md beside it): where Stripe's published description is, which of its operations agents
// use, and where the twin's answers knowingly differ from it, each with its reason. The
// schema-conformance test (test/node/fidelity/) fails on any difference not declared here.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { type OpenApi3, openApiTarget } from "../kit/fidelity/conformance";
import { readJson } from "../kit/fidelity/measure";
import { servedTypes, versionSkew } from "./version-skew";
import type { AgentRelevantSet, Divergence, VendorDescription, VendorOperation } from "../kit/fidelity/types";
import type { TwinFidelity } from "../kit/fidelity/declaration";

/**
 * The operation list is stripe-node's, generated from Stripe's spec3.json ("File generated from our
 * OpenAPI spec") for the API version the twin serves. The newest spec3.json obtainable here is
 * older (2024-04-10, see SCHEMAS below), so it gives the answers' schemas but not the operations.
 */
function describe(root: string): VendorDescription {
  const operations = new Map<string, VendorOperation>();
  const walk = (d: string) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith(".js"))
        for (const m of readFileSync(full, "utf8").matchAll(/_makeRequest\('([A-Z]+)', [`']([^`']+)[`']/g)) {
          const p = m[2].replace(/\$\{encodeURIComponent\((\w+)\)\}/g, "{$1}");
          const id = `${m[1]} ${p}`;
          operations.set(id, { id, method: m[1], path: p });
        }
    }
  };
  walk(path.join(root, "node_modules/stripe/cjs/resources"));
  const pkg = readJson<{ version: string }>(root, "node_modules/stripe/package.json");
  const api = /ApiVersion = '([^']+)'/.exec(readFileSync(path.join(root, "node_modules/stripe/cjs/apiVersion.js"), "utf8"));
  return {
    name: "Stripe API (operations of stripe-node, generated from stripe/openapi spec3.json)",
    version: `stripe-node ${pkg.version}, API version ${api ? api[1] : "unknown"}; answers validated against spec3.json 2024-04-10, with the fields Stripe added or removed since read from stripe-node's types`,
    source: "stripe/stripe-node (generated from stripe/openapi), MIT",
    operations: [...operations.values()].sort((a, b) => a.id.localeCompare(b.id)),
  };
}

/** The API calls behind Stripe's agent toolkit and MCP server tools, and stripe-node's quickstart. */
const agentRelevant: AgentRelevantSet = {
  source:
    "stripe/agent-toolkit (@stripe/agent-toolkit and the Stripe MCP server's tools: customers, products, prices, payment links, invoices, invoice items, balance, refunds, payment intents, subscriptions, coupons, disputes, account info); stripe-node README quickstart (customers.create)",
  operations: [
    "POST /v1/customers",
    "GET /v1/customers",
    "POST /v1/products",
    "GET /v1/products",
    "POST /v1/prices",
    "GET /v1/prices",
    "POST /v1/payment_links",
    "POST /v1/invoices",
    "GET /v1/invoices",
    "POST /v1/invoiceitems",
    "POST /v1/invoices/{invoice}/finalize",
    "GET /v1/balance",
    "POST /v1/refunds",
    "GET /v1/payment_intents",
    "GET /v1/subscriptions",
    "POST /v1/subscriptions/{subscription_exposed_id}",
    "DELETE /v1/subscriptions/{subscription_exposed_id}",
    "GET /v1/coupons",
    "POST /v1/coupons",
    "GET /v1/disputes",
    "POST /v1/disputes/{dispute}",
    "GET /v1/account",
  ],
};

const NO_HOSTED_PAGE =
  "Stripe completes a session on its hosted page; the twin has none, so POST /v1/test_helpers/checkout/sessions/{session}/complete (twin-only) completes it, and sessions do not expire by themselves at expires_at (only expire ends them)";

export const divergences: readonly Divergence[] = [
  {
    operation: "*",
    path: "/**/total_count",
    kind: "extra",
    reason:
      "Stripe's embedded lists (an invoice's lines, a subscription's items, a charge's refunds) carry the list's total_count on the wire, as its reference says (\"you'll get a lines property containing the total count of line items\", docs.stripe.com/api/invoice-line-item/retrieve); spec3.json's list schemas do not name it",
  },
  { operation: "POST /v1/checkout/sessions", path: "/", kind: "shape", reason: NO_HOSTED_PAGE },
  { operation: "POST /v1/checkout/sessions/{id}/expire", path: "/", kind: "shape", reason: NO_HOSTED_PAGE },
  {
    operation: "POST /v1/setup_intents/{id}/confirm",
    path: "/latest_attempt",
    kind: "type",
    reason:
      "SetupAttempts are not stored, so latest_attempt stays null; a card needing authentication completes by confirming again (no 3D Secure page)",
  },
];

/**
 * Stripe's OpenAPI description, against which every answer is validated: `stripe/openapi`'s
 * spec3.json for API version 2024-04-10, the newest copy obtainable here (see the fixtures' README).
 * The operation list above is stripe-node's, for the API version the twin serves.
 */
const SCHEMAS = "test/fixtures/service-specs/stripe/spec3.2024-04-10.json";

/** `POST /v1/customers/{customer}` and stripe-node's `POST /v1/customers/{id}` are one operation. */
const shapeOf = (method: string, template: string) => `${method} ${template.replace(/\{[^}]+\}/g, "{}")}`;

/**
 * The schema Stripe publishes for a concrete call's operation and status (a refusal takes the
 * description's `default` response, Stripe's error object), named as stripe-node names it.
 */
export function conformance(root: string) {
  const named = new Map(describe(root).operations.map((o) => [shapeOf(o.method, o.path), o.id]));
  const spec = JSON.parse(readFileSync(path.join(root, SCHEMAS), "utf8")) as OpenApi3;
  return openApiTarget(spec, {
    id: "https://schemas.pome.invalid/stripe.json",
    nameOf: (method, template) => named.get(shapeOf(method, template)) ?? `${method} ${template}`,
  });
}

/** Why Stripe's other operations answer 501, by path. */
const notImplemented: TwinFidelity["notImplemented"] = {
  byPrefix: {
    "/v1/terminal": "in-person payments (Terminal) need card-present hardware; not modelled",
    "/v1/issuing": "card issuing is not modelled",
    "/v1/treasury": "Treasury financial accounts are not modelled",
    "/v2/money_management": "Treasury financial accounts are not modelled",
    "/v2/core": "Stripe's v2 accounts and event destinations are not modelled; the twin serves the v1 API",
    "/v1/climate": "Climate orders are not modelled",
    "/v1/identity": "Identity verification is not modelled",
    "/v1/financial_connections": "Financial Connections (bank account linking) is not modelled",
    "/v1/radar": "Radar rules and lists are not modelled",
    "/v1/tax": "Stripe Tax calculations and registrations are not modelled",
    "/v1/test_helpers": "this test helper acts on an object the twin does not model yet",
    "/v1/checkout": "this Checkout operation is not built yet",
    "/v1/payment_links": "this Payment Links operation is not built yet",
    "/v1/setup_intents": "this SetupIntent operation is not built yet",
    "/v1/billing/alerts": "billing alerts are not built yet",
    "/v1/billing/credit": "billing credit grants and credit balances are not built yet",
    "/v1/billing/meter_event_adjustments": "meter event adjustments (cancelling a reported event) are not built yet",
    "/v1/billing": "this Billing operation is not built yet (meters and meter events are)",
    "/v1/accounts":
      "Connect account sub-resources (persons, capabilities, reject, cards as external accounts) are not built yet: accounts, account links, login links and bank accounts as external accounts are",
    "/v1/account": "this account operation is not built yet",
    "/v1/application_fees": "application fee refunds are not built yet: application fees are listed and retrieved",
    "/v1/quotes": "quotes are not built yet",
    // Billing and payment operations beside the flows the twin serves, each with what it serves instead.
    "/v1/subscriptions/{id}/pause":
      "the pause endpoint is not built: pause collection with POST /v1/subscriptions/{id} `pause_collection` (keep_as_draft, mark_uncollectible, void), and resume a paused subscription with POST /v1/subscriptions/{id}/resume",
    "/v1/subscriptions/{id}/migrate": "migrating a subscription to flexible billing mode is not built: subscriptions bill in classic mode",
    "/v1/invoices/{id}/update_lines":
      "editing a draft invoice's lines in bulk is not built: POST /v1/invoices/{id}/add_lines adds lines, and a line made from an invoice item changes with POST or DELETE /v1/invoiceitems/{id}",
    "/v1/invoices/{id}/remove_lines":
      "removing lines from a draft invoice in bulk is not built: DELETE /v1/invoiceitems/{id} removes an item's line from its draft invoice",
    "/v1/invoices/{invoiceId}/lines/":
      "updating one invoice line in place is not built: a line made from an invoice item changes with POST /v1/invoiceitems/{id}; lines are listed with GET /v1/invoices/{id}/lines",
    "/v1/invoices/{id}/attach_payment":
      "attaching an out-of-band PaymentIntent to an invoice is not built: an invoice is paid with POST /v1/invoices/{id}/pay or through its own PaymentIntent",
    "DELETE /v1/subscriptions/{id}/discount":
      "the older single-discount delete is not built: a subscription's discounts are replaced or cleared with POST /v1/subscriptions/{id} `discounts`",
    "DELETE /v1/customers/{id}/discount":
      "customer-level discounts (a coupon on the customer itself) are not modelled: discounts are applied to subscriptions, invoices and Checkout Sessions",
    "POST /v1/charges":
      "the legacy Charges API (charging a card token or source directly) is not built: payments are made with PaymentIntents, whose charges GET /v1/charges lists and POST /v1/charges/{id}/capture captures",
    "/v1/tokens":
      "tokens are made by Stripe.js from card numbers in the customer's browser, which the twin has no part in: Stripe's test tokens (tok_visa, tok_chargeDeclined, …) are taken where Stripe takes a token, but none is created or retrieved",
    "/v1/customers/{id}/sources":
      "the legacy Sources API on customers (cards as sources, bank account verification) is not built: cards are saved as PaymentMethods (POST /v1/payment_methods/{id}/attach, SetupIntents)",
    "/v1/customers/{customerId}/sources":
      "the legacy Sources API on customers (cards as sources, bank account verification) is not built: cards are saved as PaymentMethods (POST /v1/payment_methods/{id}/attach, SetupIntents)",
    "/v1/sources": "the legacy Sources API is not built: payment details are PaymentMethods",
    "/v1/payment_intents/{id}/increment_authorization":
      "incremental authorization (raising an uncaptured amount, for eligible card-present and select online merchants) is not modelled: a manual-capture PaymentIntent captures up to its authorized amount",
    "/v1/payment_intents/{id}/apply_customer_balance":
      "cash balances (bank transfers) are not modelled, so there is no balance to apply: card PaymentIntents are",
    "/v1/payment_intents/{id}/verify_microdeposits":
      "bank debits verified by microdeposits (ACH) are not modelled: PaymentIntents pay by card",
    "/v2/billing/meter_event_adjustments": "meter event adjustments (cancelling a reported event) are not built yet, in v1 or v2",
    "/v2/billing":
      "the v2 high-throughput meter event stream (meter event sessions, meter_event_stream) is not built: meter events are reported with POST /v1/billing/meter_events",
    "/v1/transfers/{transferId}/reversals/":
      "updating a transfer reversal (its metadata) is not built: reversals are created, listed and retrieved (POST and GET /v1/transfers/{id}/reversals, GET /v1/transfers/{transfer}/reversals/{id})",
  },
  otherwise: "not built yet: an operation outside the payments, customers and billing flows the twin models",
  answer: "HTTP 501 in Stripe's error shape with `Stripe-Should-Retry: false` (stripe-node retries a 5xx otherwise)",
};

export const fidelity: TwinFidelity = {
  describe,
  answers: (root) => ({ by: "schema", target: conformance(root), explained: versionSkew(servedTypes(root)) }),
  agentRelevant,
  divergences,
  notImplemented,
  mcp: "`\u2026/mcp` serves the twin's own tools, one per REST operation; `\u2026/mcp/official` serves Stripe's agent toolkit as `@stripe/mcp` 0.2.5 serves it with `--tools=all` (`@stripe/agent-toolkit` 0.7.12, 22 tools, MIT), exactly as listed. Later toolkit versions (0.9.0) forward every tool call to the hosted mcp.stripe.com, whose list needs a live key, so 0.7.12 is the newest published list. `search_stripe_documentation` answers the twin's 501 (the sandbox holds no copy of Stripe's documentation) (test/fixtures/vendor-mcp/stripe-agent-toolkit.json, test/node/mcp/stripe-official-tools.test.ts).",
};
