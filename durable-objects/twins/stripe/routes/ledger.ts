// Balance and balance transactions, disputes, events, webhook endpoints, and search over the
// searchable resources.
import type { Route, TwinResponse } from "../../types";
import { z } from "zod";
import { filterOf, listResponse, load, ok, show, type Call } from "../call";
import { arg, expand, idParam, listQuery, metadata, route, searchQuery } from "../declare";
import { fail, invalidRequest, stateError } from "../errors";
import { changed, emit } from "../events";
import { readBalance, settleBalance } from "../balance";
import { buildWebhookEndpoint } from "../objects";
import { matches, parseQuery } from "../search";
import { dropObject, insertObject, liveOfType, newId, rec, saveObject, strMap, type Filter, type ObjectType, type Rec } from "../store";
import { expandList, render } from "../view";
import { matchesWildcard } from "../wildcard";

const SEARCH_FIELDS: Partial<Record<ObjectType, readonly string[]>> = {
  customer: ["created", "email", "metadata", "name", "phone", "test_clock"],
  payment_intent: ["amount", "created", "currency", "customer", "metadata", "status"],
  charge: [
    "amount",
    "billing_details.address.postal_code",
    "created",
    "currency",
    "customer",
    "disputed",
    "metadata",
    "payment_method_details.card.last4",
    "payment_intent",
    "refunded",
    "status",
  ],
  subscription: ["created", "metadata", "status", "customer"],
  invoice: ["created", "currency", "customer", "metadata", "number", "receipt_number", "status", "subscription", "total"],
  price: ["active", "currency", "lookup_key", "metadata", "product", "type"],
  product: ["active", "description", "metadata", "name", "shippable", "url"],
};

const SEARCH_PATH: Partial<Record<ObjectType, string>> = {
  customer: "customers",
  payment_intent: "payment_intents",
  charge: "charges",
  subscription: "subscriptions",
  invoice: "invoices",
  price: "prices",
  product: "products",
};

/** What each search's tool says it searches. */
const SEARCH_TOOL: Partial<Record<ObjectType, string>> = {
  customer: "Search customers with Stripe's query language (fields: email, name, phone, metadata, created).",
  payment_intent: "Search payment intents (fields: amount, currency, customer, status, metadata, created).",
  charge: "Search charges (fields: amount, currency, customer, status, refunded, disputed, payment_intent, metadata, created).",
  subscription: "Search subscriptions (fields: status, customer, metadata, created).",
  invoice: "Search invoices (fields: customer, status, subscription, total, number, metadata, created).",
  price: "Search prices (fields: active, currency, product, type, lookup_key, metadata).",
  product: "Search products (fields: name, description, active, metadata).",
};

/** Search pages are keyed by an opaque token: the position after the last result returned. */
function searchRoute(type: ObjectType): Route {
  const plural = SEARCH_PATH[type] ?? type;
  const path = `/v1/${plural}/search`;
  return route({
    method: "GET",
    pattern: path,
    operation: `${camel(plural)}.search`,
    summary: `Search ${plural}`,
    query: searchQuery,
    tool: { name: `search_${plural}`, description: SEARCH_TOOL[type] ?? `Search ${plural}.` },
    handler(c, { query }): TwinResponse {
      const q = parseQuery(query.query, SEARCH_FIELDS[type] ?? []);
      const limit = query.limit ?? 10;
      if (limit < 1 || limit > 100)
        return invalidRequest("This value must be greater than or equal to 1 and less than or equal to 100.", { param: "limit" });
      const offset = query.page ? decodePage(query.page) : 0;
      // Invoices search their subscription through the parent; everything else by its own fields.
      const view = (o: Rec) =>
        type === "invoice" ? { ...o, subscription: rec(rec(o.parent).subscription_details).subscription ?? null } : o;
      const hits = liveOfType(c.db, type)
        .reverse()
        .filter((o) => matches(view(o), q));
      const slice = hits.slice(offset, offset + limit).map((o) => render(c.db, type, o));
      const more = offset + limit < hits.length;
      return ok({
        object: "search_result",
        data: expandList(c.db, slice, c.p.expand()),
        has_more: more,
        next_page: more ? encodePage(offset + limit) : null,
        url: path,
      });
    },
  });
}

const camel = (s: string) => s.replace(/_([a-z])/g, (_, ch: string) => ch.toUpperCase());
const encodePage = (offset: number) => btoa(`offset:${offset}`);
function decodePage(page: string): number {
  let text = "";
  try {
    text = atob(page);
  } catch {
    return fail(invalidRequest("Invalid page token.", { param: "page" }));
  }
  const m = /^offset:(\d+)$/.exec(text);
  return m ? Number(m[1]) : fail(invalidRequest("Invalid page token.", { param: "page" }));
}

/**
 * `type` (one type, or a group with `*` wildcards such as `customer.*`) and `types` (a list of
 * exact types) as filters on the events' type column. A wildcard is matched against the types the
 * sandbox has events of, never turned into a regular expression, so every page stays full.
 */
function eventTypeFilters(c: Call): Filter[] {
  const type = c.p.str("type");
  const types = c.p.strList("types");
  const filters: Filter[] = [];
  if (type !== undefined && !type.includes("*")) filters.push({ column: "ref2", value: type });
  if (type?.includes("*")) filters.push({ column: "ref2", anyOf: eventTypesOf(c).filter((t) => matchesWildcard(type, t)) });
  if (types !== undefined) filters.push({ column: "ref2", anyOf: types });
  return filters;
}

const eventTypesOf = (c: Call) =>
  c.db.all<{ type: string }>("SELECT DISTINCT ref2 AS type FROM st_objects WHERE type = 'event' AND ref2 IS NOT NULL").map((r) => r.type);

function updateDispute(c: Call, id: string): TwinResponse {
  const before = load(c, "dispute", id);
  if (!["needs_response", "warning_needs_response"].includes(String(before.status))) {
    return stateError(
      `This dispute is already closed or under review (status ${String(before.status)}); its evidence can no longer be changed.`,
      "dispute_already_closed",
    );
  }
  const evidence = c.p.sub("evidence");
  const after: Rec = { ...before, metadata: c.p.metadata(strMap(before.metadata)) };
  if (evidence) {
    after.evidence = { ...rec(before.evidence), ...evidence.raw };
    after.evidence_details = { ...rec(before.evidence_details), has_evidence: true };
  }
  if (c.p.bool("submit") === true) {
    after.status = before.status === "warning_needs_response" ? "warning_under_review" : "under_review";
    const details = rec(after.evidence_details);
    after.evidence_details = { ...details, submission_count: (Number(details.submission_count) || 0) + 1 };
  }
  saveObject(c.db, "dispute", after);
  emit(c, "charge.dispute.updated", "dispute", after, changed(before, after));
  return show(c, "dispute", after);
}

/**
 * Stripe allows 16 webhook endpoints per account ("You can register up to 16 webhook endpoints on
 * each Stripe account", docs.stripe.com/development/dashboard/webhooks) and refuses one more with
 * an `invalid_request_error` that carries no `code` (PostHog/posthog#83460 classifies it by text).
 */
const MAX_WEBHOOK_ENDPOINTS = 16;

function endpointFields(c: Call, base: Rec): Rec {
  const out: Rec = { ...base, metadata: c.p.metadata(strMap(base.metadata)) };
  const url = c.p.str("url");
  if (url !== undefined) {
    if (!/^https?:\/\/[^\s/]+/.test(url))
      fail(invalidRequest("Invalid URL: the URL must be an absolute http or https URL.", { param: "url" }));
    // Where deliveries may go is the platform's egress policy: Stripe's own rule is "publicly
    // accessible", which the policy's `public` setting is; locally it allows loopback receivers.
    const egress = c.ctx.egress(url);
    if (!egress.allowed) fail(invalidRequest(`Invalid URL: ${egress.reason}.`, { param: "url" }));
    out.url = url;
  }
  const events = c.p.strList("enabled_events");
  if (events !== undefined) out.enabled_events = events;
  const description = c.p.nullable("description");
  if (description !== undefined) out.description = description;
  const disabled = c.p.bool("disabled");
  if (disabled !== undefined) out.status = disabled ? "disabled" : "enabled";
  return out;
}

const webhookFields = {
  description: arg.unsettable("Description"),
  metadata,
  expand,
};

export const ledgerRoutes: readonly Route[] = [
  route({
    method: "GET",
    pattern: "/v1/balance",
    operation: "balance.retrieve",
    summary: "Retrieve the balance",
    query: { expand },
    tool: {
      name: "get_balance",
      description:
        "Retrieve the account balance per currency: available (payable out now) and pending (card payments until their available_on).",
    },
    handler: (c) => ok(readBalance(c)),
  }),
  route({
    method: "GET",
    pattern: "/v1/balance_transactions",
    operation: "balanceTransactions.list",
    summary: "List balance transactions",
    query: {
      ...listQuery,
      source: arg.text("Only this source's"),
      type: arg.text("Only this type, e.g. refund"),
      currency: arg.text("Only this currency"),
      payout: arg.text("Only this payout's"),
    },
    tool: {
      name: "list_balance_transactions",
      description: "List balance transactions (charges, refunds, dispute adjustments) with fees and net.",
    },
    handler(c) {
      settleBalance(c);
      return listResponse(c, "balance_transaction", "/v1/balance_transactions", [
        ...filterOf(c, "source", "ref"),
        ...filterOf(c, "type", "ref2"),
      ]);
    },
  }),
  route({
    method: "GET",
    pattern: "/v1/balance_transactions/:id",
    operation: "balanceTransactions.retrieve",
    summary: "Retrieve a balance transaction",
    params: idParam("The transaction's id, txn_…"),
    query: { expand },
    tool: { name: "get_balance_transaction", description: "Retrieve a balance transaction." },
    handler(c, { params }) {
      settleBalance(c);
      return show(c, "balance_transaction", load(c, "balance_transaction", params.id));
    },
  }),
  route({
    method: "GET",
    pattern: "/v1/disputes",
    operation: "disputes.list",
    summary: "List disputes",
    query: { ...listQuery, charge: arg.text("Only this charge's"), payment_intent: arg.text("Only this payment intent's") },
    tool: { name: "list_disputes", description: "List disputes, optionally a charge's or a payment intent's." },
    handler: (c) => listResponse(c, "dispute", "/v1/disputes", [...filterOf(c, "charge", "ref"), ...filterOf(c, "payment_intent", "ref2")]),
  }),
  route({
    method: "GET",
    pattern: "/v1/disputes/:id",
    operation: "disputes.retrieve",
    summary: "Retrieve a dispute",
    params: idParam("The dispute's id, dp_…"),
    query: { expand },
    tool: { name: "get_dispute", description: "Retrieve a dispute." },
    handler: (c, { params }) => show(c, "dispute", load(c, "dispute", params.id)),
  }),
  route({
    method: "POST",
    pattern: "/v1/disputes/:id",
    operation: "disputes.update",
    summary: "Update a dispute (evidence, metadata, submit)",
    params: idParam("The dispute's id"),
    body: {
      evidence: z.record(z.string(), z.string()).optional().describe("Evidence fields, e.g. uncategorized_text"),
      metadata,
      submit: arg.bool("Submit the evidence"),
      expand,
    },
    tool: { name: "update_dispute", description: "Add evidence or metadata to a dispute, or submit it." },
    handler: (c, { params }) => updateDispute(c, params.id),
  }),
  route({
    method: "POST",
    pattern: "/v1/disputes/:id/close",
    operation: "disputes.close",
    summary: "Close a dispute (accept the loss)",
    params: idParam("The dispute's id"),
    body: { expand },
    tool: { name: "close_dispute", description: "Close a dispute, accepting the loss.", destructive: true },
    handler(c, { params }) {
      const before = load(c, "dispute", params.id);
      if (!["needs_response", "warning_needs_response"].includes(String(before.status)))
        return stateError(`This dispute is already closed (status ${String(before.status)}).`, "dispute_already_closed");
      const after = { ...before, status: before.status === "warning_needs_response" ? "warning_closed" : "lost" };
      saveObject(c.db, "dispute", after);
      emit(c, "charge.dispute.closed", "dispute", after, { status: before.status });
      return show(c, "dispute", after);
    },
  }),
  route({
    method: "GET",
    pattern: "/v1/events",
    operation: "events.list",
    summary: "List events",
    query: {
      ...listQuery,
      type: arg.text("Only this type, e.g. charge.refunded (a * matches any part)"),
      types: arg.strings("Only these exact types"),
      delivery_success: arg.bool("Only events whose webhook deliveries succeeded, or failed"),
    },
    tool: { name: "list_events", description: "List events (every state change), newest first, optionally of one type." },
    handler: (c) => listResponse(c, "event", "/v1/events", eventTypeFilters(c)),
  }),
  route({
    method: "GET",
    pattern: "/v1/events/:id",
    operation: "events.retrieve",
    summary: "Retrieve an event",
    params: idParam("The event's id, evt_…"),
    query: { expand },
    tool: { name: "get_event", description: "Retrieve an event." },
    handler: (c, { params }) => show(c, "event", load(c, "event", params.id)),
  }),
  route({
    method: "POST",
    pattern: "/v1/webhook_endpoints",
    operation: "webhookEndpoints.create",
    summary: "Create a webhook endpoint",
    body: {
      url: arg.id("Where events are POSTed (an absolute http or https URL)"),
      enabled_events: z.array(z.string()).describe('Event types, or ["*"] for all'),
      api_version: arg.text("The API version events are rendered in"),
      connect: arg.bool("Whether it receives events of connected accounts"),
      ...webhookFields,
    },
    tool: {
      name: "create_webhook_endpoint",
      description: "Register a URL that receives signed event webhooks; answers the signing secret once.",
    },
    handler(c, { body }) {
      if (!body.enabled_events.length)
        return invalidRequest("Missing required param: enabled_events.", { code: "parameter_missing", param: "enabled_events" });
      if (liveOfType(c.db, "webhook_endpoint").length >= MAX_WEBHOOK_ENDPOINTS)
        return invalidRequest(`You have reached the maximum of ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints on this account.`);
      const id = newId(c.db, "webhook_endpoint");
      const we = endpointFields(c, buildWebhookEndpoint({ api_version: body.api_version ?? null }, { id, created: c.now }));
      we.secret = newId(c.db, "secret");
      insertObject(c.db, "webhook_endpoint", we);
      // The signing secret is shown once, on create, as on Stripe.
      return ok(we);
    },
  }),
  route({
    method: "GET",
    pattern: "/v1/webhook_endpoints",
    operation: "webhookEndpoints.list",
    summary: "List webhook endpoints",
    query: listQuery,
    tool: { name: "list_webhook_endpoints", description: "List webhook endpoints." },
    handler: (c) => listResponse(c, "webhook_endpoint", "/v1/webhook_endpoints"),
  }),
  route({
    method: "GET",
    pattern: "/v1/webhook_endpoints/:id",
    operation: "webhookEndpoints.retrieve",
    summary: "Retrieve a webhook endpoint",
    params: idParam("The endpoint's id, we_…"),
    query: { expand },
    tool: { name: "get_webhook_endpoint", description: "Retrieve a webhook endpoint." },
    handler: (c, { params }) => show(c, "webhook_endpoint", load(c, "webhook_endpoint", params.id)),
  }),
  route({
    method: "POST",
    pattern: "/v1/webhook_endpoints/:id",
    operation: "webhookEndpoints.update",
    summary: "Update a webhook endpoint",
    params: idParam("The endpoint's id"),
    body: {
      url: arg.text("Where events are POSTed"),
      enabled_events: arg.strings("Event types"),
      disabled: arg.bool("Disable it"),
      ...webhookFields,
    },
    tool: { name: "update_webhook_endpoint", description: "Update a webhook endpoint's URL, events, or disable it." },
    handler(c, { params }) {
      const before = load(c, "webhook_endpoint", params.id);
      const after = endpointFields(c, before);
      saveObject(c.db, "webhook_endpoint", after);
      return show(c, "webhook_endpoint", after);
    },
  }),
  route({
    method: "DELETE",
    pattern: "/v1/webhook_endpoints/:id",
    operation: "webhookEndpoints.del",
    summary: "Delete a webhook endpoint",
    params: idParam("The endpoint's id"),
    tool: { name: "delete_webhook_endpoint", description: "Delete a webhook endpoint." },
    handler(c, { params }) {
      const we = load(c, "webhook_endpoint", params.id);
      dropObject(c.db, "webhook_endpoint", String(we.id));
      return ok({ id: we.id, object: "webhook_endpoint", deleted: true });
    },
  }),
  ...(["customer", "payment_intent", "charge", "subscription", "invoice", "price", "product"] as const).map(searchRoute),
];
