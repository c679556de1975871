// Balance and balance transactions, disputes, events, webhook endpoints, and search over the
// searchable resources.
import type { Route, TwinResponse } from "../../types";
import { filterOf, LIST_PARAMS, listResponse, load, ok, route, show, type Call } from "../call";
import { fail, invalidRequest, stateError } from "../errors";
import { changed, emit } from "../events";
import { readBalance } from "../money";
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

/** Search pages are keyed by an opaque token: the position after the last result returned. */
function searchRoute(type: ObjectType): Route {
  const path = `/v1/${SEARCH_PATH[type]}/search`;
  return route(
    "GET",
    path,
    `${camel(SEARCH_PATH[type] ?? type)}.search`,
    `Search ${SEARCH_PATH[type]}`,
    ["query", "limit", "page"],
    (c): TwinResponse => {
      const q = parseQuery(c.p.req("query"), SEARCH_FIELDS[type] ?? []);
      const limit = c.p.int("limit") ?? 10;
      if (limit < 1 || limit > 100)
        return invalidRequest("This value must be greater than or equal to 1 and less than or equal to 100.", { param: "limit" });
      const page = c.p.str("page");
      const offset = page ? decodePage(page) : 0;
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
  );
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

function updateDispute(c: Call): TwinResponse {
  const before = load(c, "dispute", c.ctx.params.id);
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

export const ledgerRoutes: readonly Route[] = [
  route("GET", "/v1/balance", "balance.retrieve", "Retrieve the balance", [], (c) => ok(readBalance(c))),
  route(
    "GET",
    "/v1/balance_transactions",
    "balanceTransactions.list",
    "List balance transactions",
    [...LIST_PARAMS, "source", "type", "currency", "payout"],
    (c) =>
      listResponse(c, "balance_transaction", "/v1/balance_transactions", [...filterOf(c, "source", "ref"), ...filterOf(c, "type", "ref2")]),
  ),
  route("GET", "/v1/balance_transactions/:id", "balanceTransactions.retrieve", "Retrieve a balance transaction", [], (c) =>
    show(c, "balance_transaction", load(c, "balance_transaction", c.ctx.params.id)),
  ),
  route("GET", "/v1/disputes", "disputes.list", "List disputes", [...LIST_PARAMS, "charge", "payment_intent"], (c) =>
    listResponse(c, "dispute", "/v1/disputes", [...filterOf(c, "charge", "ref"), ...filterOf(c, "payment_intent", "ref2")]),
  ),
  route("GET", "/v1/disputes/:id", "disputes.retrieve", "Retrieve a dispute", [], (c) =>
    show(c, "dispute", load(c, "dispute", c.ctx.params.id)),
  ),
  route(
    "POST",
    "/v1/disputes/:id",
    "disputes.update",
    "Update a dispute (evidence, metadata, submit)",
    ["evidence", "metadata", "submit"],
    updateDispute,
  ),
  route("POST", "/v1/disputes/:id/close", "disputes.close", "Close a dispute (accept the loss)", [], (c) => {
    const before = load(c, "dispute", c.ctx.params.id);
    if (!["needs_response", "warning_needs_response"].includes(String(before.status)))
      return stateError(`This dispute is already closed (status ${String(before.status)}).`, "dispute_already_closed");
    const after = { ...before, status: before.status === "warning_needs_response" ? "warning_closed" : "lost" };
    saveObject(c.db, "dispute", after);
    emit(c, "charge.dispute.closed", "dispute", after, { status: before.status });
    return show(c, "dispute", after);
  }),
  route("GET", "/v1/events", "events.list", "List events", [...LIST_PARAMS, "type", "types", "delivery_success"], (c) =>
    listResponse(c, "event", "/v1/events", eventTypeFilters(c)),
  ),
  route("GET", "/v1/events/:id", "events.retrieve", "Retrieve an event", [], (c) => show(c, "event", load(c, "event", c.ctx.params.id))),
  route(
    "POST",
    "/v1/webhook_endpoints",
    "webhookEndpoints.create",
    "Create a webhook endpoint",
    ["url", "enabled_events", "description", "metadata", "api_version", "connect"],
    (c) => {
      c.p.req("url");
      if (!c.p.strList("enabled_events")?.length)
        return invalidRequest("Missing required param: enabled_events.", { code: "parameter_missing", param: "enabled_events" });
      if (liveOfType(c.db, "webhook_endpoint").length >= MAX_WEBHOOK_ENDPOINTS)
        return invalidRequest(`You have reached the maximum of ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints on this account.`);
      const id = newId(c.db, "webhook_endpoint");
      const we = endpointFields(c, buildWebhookEndpoint({ api_version: c.p.str("api_version") ?? null }, { id, created: c.now }));
      we.secret = newId(c.db, "secret");
      insertObject(c.db, "webhook_endpoint", we);
      // The signing secret is shown once, on create, as on Stripe.
      return ok(we);
    },
  ),
  route("GET", "/v1/webhook_endpoints", "webhookEndpoints.list", "List webhook endpoints", [...LIST_PARAMS], (c) =>
    listResponse(c, "webhook_endpoint", "/v1/webhook_endpoints"),
  ),
  route("GET", "/v1/webhook_endpoints/:id", "webhookEndpoints.retrieve", "Retrieve a webhook endpoint", [], (c) =>
    show(c, "webhook_endpoint", load(c, "webhook_endpoint", c.ctx.params.id)),
  ),
  route(
    "POST",
    "/v1/webhook_endpoints/:id",
    "webhookEndpoints.update",
    "Update a webhook endpoint",
    ["url", "enabled_events", "description", "metadata", "disabled"],
    (c) => {
      const before = load(c, "webhook_endpoint", c.ctx.params.id);
      const after = endpointFields(c, before);
      saveObject(c.db, "webhook_endpoint", after);
      return show(c, "webhook_endpoint", after);
    },
  ),
  route("DELETE", "/v1/webhook_endpoints/:id", "webhookEndpoints.del", "Delete a webhook endpoint", [], (c) => {
    const we = load(c, "webhook_endpoint", c.ctx.params.id);
    dropObject(c.db, "webhook_endpoint", String(we.id));
    return ok({ id: we.id, object: "webhook_endpoint", deleted: true });
  }),
  ...(["customer", "payment_intent", "charge", "subscription", "invoice", "price", "product"] as const).map(searchRoute),
];
