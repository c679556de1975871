// Checkout Sessions (payment, subscription and setup modes: create, retrieve, update, list,
// line items, expire) and Payment Links (create, retrieve, update, list, line items), with a test
// helper that completes a session as a paying customer would (checkout.ts). Line items are an
// includable list on both: returned with `expand[]=line_items` or read from their own list.
import type { Route, TwinResponse } from "../../types";
import { filterOf, LIST_PARAMS, listResponse, load, ok, pageQuery, route, show, type Call } from "../call";
import { completeSession, lineItemsFrom, totalOf, type CheckoutMode } from "../checkout";
import { fail, invalidRequest, missingParam, noSuch, stateError } from "../errors";
import { changed, emit } from "../events";
import { buildCheckoutSession, buildPaymentLink, SESSION_LIFETIME } from "../objects-checkout";
import type { Params } from "../params";
import { insertObject, newId, rec, saveObject, strMap, type Rec } from "../store";
import { expandList } from "../view";
import { namedMethodTypes } from "./payments";

/** Nested hashes a create call may carry: each checked for unknown keys and kept as given. */
function hashOf(c: Call, key: string, allowed: readonly string[]): Rec | null {
  const p = c.p.sub(key);
  if (!p) return null;
  p.allow(allowed);
  const out: Rec = { ...p.raw };
  if (p.has("metadata")) out.metadata = p.metadata();
  return out;
}

/** One page of an object's line items, with Stripe's cursors. */
function lineItemPage(c: Call, items: Rec[], url: string): TwinResponse {
  const q = pageQuery(c);
  let from = 0;
  let to = items.length;
  const cursor = q.startingAfter ?? q.endingBefore;
  if (cursor !== undefined) {
    const at = items.findIndex((li) => li.id === cursor);
    if (at < 0) return noSuch("line item", cursor, q.startingAfter ? "starting_after" : "ending_before");
    if (q.startingAfter) from = at + 1;
    else to = at;
  }
  const window = items.slice(from, to);
  const page = q.endingBefore ? window.slice(Math.max(0, window.length - q.limit)) : window.slice(0, q.limit);
  const hasMore = window.length > page.length;
  return ok({ object: "list", data: expandList(c.db, page, c.p.expand()), has_more: hasMore, url });
}

const itemsOfObject = (o: Rec): Rec[] => (Array.isArray(o.line_items) ? o.line_items.map(rec) : []);

const SESSION_FIELDS = [
  "mode",
  "line_items",
  "customer",
  "customer_email",
  "customer_creation",
  "client_reference_id",
  "success_url",
  "cancel_url",
  "return_url",
  "ui_mode",
  "metadata",
  "expires_at",
  "currency",
  "locale",
  "allow_promotion_codes",
  "billing_address_collection",
  "submit_type",
  "payment_intent_data",
  "subscription_data",
  "setup_intent_data",
  "allowed_payment_method_types",
  "payment_method_types",
  "phone_number_collection",
  "shipping_address_collection",
  "redirect_on_completion",
];

function createSession(c: Call): TwinResponse {
  const mode: CheckoutMode = c.p.oneOf("mode", ["payment", "subscription", "setup"]) ?? "payment";
  const list = c.p.list("line_items");
  if (mode === "setup" && list?.length) return invalidRequest("You cannot pass `line_items` in `setup` mode.", { param: "line_items" });
  if (mode !== "setup" && !list?.length) return missingParam("line_items");
  const customerId = c.p.str("customer");
  const email = c.p.email("customer_email") ?? null;
  if (customerId && email)
    return invalidRequest("You may only specify one of these parameters: customer, customer_email.", { param: "customer_email" });
  if (customerId) load(c, "customer", customerId, "customer");
  const expiresAt = c.p.int("expires_at") ?? c.now + SESSION_LIFETIME;
  // docs.stripe.com/api/checkout/sessions/create#expires_at: 30 minutes to 24 hours after creation.
  if (expiresAt < c.now + 1800)
    return invalidRequest("The `expires_at` timestamp must be at least 30 minutes from Checkout Session creation.", {
      param: "expires_at",
    });
  if (expiresAt > c.now + SESSION_LIFETIME)
    return invalidRequest("The `expires_at` timestamp must be less than 24 hours from Checkout Session creation.", { param: "expires_at" });
  const uiMode = c.p.oneOf("ui_mode", ["hosted", "embedded", "custom"]) ?? "hosted";
  const items = list?.length ? lineItemsFrom(c, list, mode) : [];
  const currency = items.length ? String(items[0]?.currency) : (c.p.currency("currency") ?? null);
  const id = newId(c.db, "checkout.session");
  const amount = mode === "setup" ? null : totalOf(items);
  const session = buildCheckoutSession(
    {
      mode,
      line_items: items,
      customer: customerId ?? null,
      customer_email: email,
      customer_creation: mode === "payment" ? (c.p.oneOf("customer_creation", ["if_required", "always"]) ?? "if_required") : null,
      client_reference_id: c.p.str("client_reference_id") ?? null,
      success_url: c.p.str("success_url") ?? null,
      cancel_url: c.p.str("cancel_url") ?? null,
      ...(c.p.str("return_url") ? { return_url: c.p.str("return_url") } : {}),
      ui_mode: uiMode,
      url: uiMode === "hosted" ? `https://checkout.stripe.com/c/pay/${id}` : null,
      client_secret: uiMode === "hosted" ? null : `${id}_secret_${newId(c.db, "request").slice(4)}`,
      metadata: c.p.metadata(),
      expires_at: expiresAt,
      currency,
      amount_subtotal: amount,
      amount_total: amount,
      locale: c.p.str("locale") ?? null,
      allow_promotion_codes: c.p.bool("allow_promotion_codes") ?? null,
      billing_address_collection: c.p.oneOf("billing_address_collection", ["auto", "required"]) ?? null,
      submit_type: c.p.oneOf("submit_type", ["auto", "book", "donate", "pay", "subscribe"]) ?? null,
      payment_status: mode === "setup" ? "no_payment_required" : "unpaid",
      payment_method_types: namedMethodTypes(c)?.types ?? ["card"],
      payment_intent_data: hashOf(c, "payment_intent_data", [
        "capture_method",
        "description",
        "metadata",
        "receipt_email",
        "setup_future_usage",
        "statement_descriptor",
        "statement_descriptor_suffix",
        "shipping",
        "transfer_group",
      ]),
      subscription_data: hashOf(c, "subscription_data", [
        "description",
        "metadata",
        "trial_period_days",
        "trial_end",
        "billing_cycle_anchor",
      ]),
      setup_intent_data: hashOf(c, "setup_intent_data", ["description", "metadata", "on_behalf_of"]),
      phone_number_collection: hashOf(c, "phone_number_collection", ["enabled"]),
      shipping_address_collection: hashOf(c, "shipping_address_collection", ["allowed_countries"]),
    },
    { id, created: c.now },
  );
  insertObject(c.db, "checkout.session", session);
  return show(c, "checkout.session", session);
}

function openSession(c: Call, id: string, action: string): Rec {
  const session = load(c, "checkout.session", id);
  if (session.status !== "open")
    fail(
      stateError(
        `This Checkout Session can no longer be ${action} because it has a status of ${String(session.status)}. Only Checkout Sessions with a status of open may be ${action}.`,
        "checkout_session_unexpected_state",
      ),
    );
  return session;
}

const LINK_FIELDS = [
  "line_items",
  "metadata",
  "after_completion",
  "allow_promotion_codes",
  "billing_address_collection",
  "currency",
  "customer_creation",
  "inactive_message",
  "payment_intent_data",
  "subscription_data",
  "phone_number_collection",
  "restrictions",
  "submit_type",
  "payment_method_types",
  "shipping_address_collection",
];

function afterCompletion(p: Params | null | undefined): Rec | undefined {
  if (!p) return undefined;
  p.allow(["type", "redirect", "hosted_confirmation"]);
  const type = p.oneOf("type", ["redirect", "hosted_confirmation"]) ?? fail(missingParam(p.name("type")));
  if (type === "redirect") {
    const redirect = p.sub("redirect") ?? fail(missingParam(p.name("redirect")));
    return { type, redirect: { url: redirect.allow(["url"]).req("url") } };
  }
  const hosted = p.sub("hosted_confirmation");
  return { type, hosted_confirmation: { custom_message: hosted?.allow(["custom_message"]).str("custom_message") ?? null } };
}

export const checkoutRoutes: readonly Route[] = [
  route("POST", "/v1/checkout/sessions", "checkout.sessions.create", "Create a Checkout Session", SESSION_FIELDS, createSession),
  route(
    "GET",
    "/v1/checkout/sessions",
    "checkout.sessions.list",
    "List Checkout Sessions",
    [...LIST_PARAMS, "customer", "payment_intent", "payment_link", "status", "subscription", "customer_details"],
    (c) => {
      const status = c.p.oneOf("status", ["open", "complete", "expired"]);
      const subscription = c.p.str("subscription");
      const detailsEmail = c.p.sub("customer_details")?.allow(["email"]).req("email");
      return listResponse(
        c,
        "checkout.session",
        "/v1/checkout/sessions",
        [
          ...filterOf(c, "customer", "customer"),
          ...filterOf(c, "payment_intent", "ref"),
          ...filterOf(c, "payment_link", "ref2"),
          ...(status ? [{ column: "status" as const, value: status }] : []),
        ],
        (o) =>
          (subscription === undefined || o.subscription === subscription) &&
          (detailsEmail === undefined || rec(o.customer_details).email === detailsEmail),
      );
    },
  ),
  route("GET", "/v1/checkout/sessions/:id", "checkout.sessions.retrieve", "Retrieve a Checkout Session", [], (c) =>
    show(c, "checkout.session", load(c, "checkout.session", c.ctx.params.id)),
  ),
  route("POST", "/v1/checkout/sessions/:id", "checkout.sessions.update", "Update a Checkout Session", ["metadata"], (c) => {
    const before = load(c, "checkout.session", c.ctx.params.id);
    const after = { ...before, metadata: c.p.metadata(strMap(before.metadata)) };
    saveObject(c.db, "checkout.session", after);
    return show(c, "checkout.session", after);
  }),
  route(
    "GET",
    "/v1/checkout/sessions/:id/line_items",
    "checkout.sessions.listLineItems",
    "List a Checkout Session's line items",
    ["limit", "starting_after", "ending_before"],
    (c) => {
      const session = load(c, "checkout.session", c.ctx.params.id);
      return lineItemPage(c, itemsOfObject(session), `/v1/checkout/sessions/${String(session.id)}/line_items`);
    },
  ),
  route("POST", "/v1/checkout/sessions/:id/expire", "checkout.sessions.expire", "Expire a Checkout Session", [], (c) => {
    const before = openSession(c, c.ctx.params.id, "expired");
    const after = { ...before, status: "expired", url: null, client_secret: null };
    saveObject(c.db, "checkout.session", after);
    emit(c, "checkout.session.expired", "checkout.session", after);
    return show(c, "checkout.session", after);
  }),
  // Not a Stripe endpoint: what a customer paying on the hosted page does, for tests and agents.
  route(
    "POST",
    "/v1/test_helpers/checkout/sessions/:id/complete",
    "testHelpers.checkout.sessions.complete",
    "Complete a Checkout Session as a paying customer (test helper)",
    ["payment_method", "email", "name"],
    (c) => {
      const session = openSession(c, c.ctx.params.id, "completed");
      const done = completeSession(
        c,
        session,
        c.p.str("payment_method") ?? "pm_card_visa",
        c.p.email("email") ?? null,
        c.p.str("name") ?? null,
      );
      return "error" in done ? done.error : show(c, "checkout.session", done.session);
    },
  ),
  route("POST", "/v1/payment_links", "paymentLinks.create", "Create a payment link", LINK_FIELDS, (c) => {
    const list = c.p.list("line_items");
    if (!list?.length) return missingParam("line_items");
    const items = lineItemsFrom(c, list, "link");
    const recurring = items.some((li) => rec(li.price).type === "recurring");
    const link = buildPaymentLink(
      {
        line_items: items,
        currency: String(items[0]?.currency ?? "usd"),
        metadata: c.p.metadata(),
        ...(afterCompletion(c.p.sub("after_completion")) ? { after_completion: afterCompletion(c.p.sub("after_completion")) } : {}),
        allow_promotion_codes: c.p.bool("allow_promotion_codes") ?? false,
        billing_address_collection: c.p.oneOf("billing_address_collection", ["auto", "required"]) ?? "auto",
        customer_creation: recurring ? "always" : (c.p.oneOf("customer_creation", ["if_required", "always"]) ?? "if_required"),
        inactive_message: c.p.str("inactive_message") ?? null,
        submit_type: c.p.oneOf("submit_type", ["auto", "book", "donate", "pay", "subscribe"]) ?? "auto",
        payment_intent_data: hashOf(c, "payment_intent_data", ["capture_method", "description", "metadata", "setup_future_usage"]),
        subscription_data: hashOf(c, "subscription_data", ["description", "metadata", "trial_period_days"]),
        restrictions: hashOf(c, "restrictions", ["completed_sessions"]),
      },
      { id: newId(c.db, "payment_link"), created: c.now },
    );
    insertObject(c.db, "payment_link", link);
    emit(c, "payment_link.created", "payment_link", link);
    return show(c, "payment_link", link);
  }),
  route(
    "GET",
    "/v1/payment_links",
    "paymentLinks.list",
    "List payment links",
    ["limit", "starting_after", "ending_before", "active"],
    (c) => {
      const active = c.p.bool("active");
      return listResponse(
        c,
        "payment_link",
        "/v1/payment_links",
        active === undefined ? [] : [{ column: "status", value: String(active) }],
      );
    },
  ),
  route("GET", "/v1/payment_links/:id", "paymentLinks.retrieve", "Retrieve a payment link", [], (c) =>
    show(c, "payment_link", load(c, "payment_link", c.ctx.params.id)),
  ),
  route(
    "POST",
    "/v1/payment_links/:id",
    "paymentLinks.update",
    "Update a payment link",
    ["active", "metadata", "after_completion", "allow_promotion_codes", "inactive_message", "restrictions", "billing_address_collection"],
    (c) => {
      const before = load(c, "payment_link", c.ctx.params.id);
      const after: Rec = { ...before, metadata: c.p.metadata(strMap(before.metadata)) };
      const active = c.p.bool("active");
      if (active !== undefined) after.active = active;
      const done = afterCompletion(c.p.sub("after_completion"));
      if (done) after.after_completion = done;
      const promos = c.p.bool("allow_promotion_codes");
      if (promos !== undefined) after.allow_promotion_codes = promos;
      const message = c.p.nullable("inactive_message");
      if (message !== undefined) after.inactive_message = message;
      const billing = c.p.oneOf("billing_address_collection", ["auto", "required"]);
      if (billing) after.billing_address_collection = billing;
      if (c.p.has("restrictions")) after.restrictions = hashOf(c, "restrictions", ["completed_sessions"]);
      saveObject(c.db, "payment_link", after);
      emit(c, "payment_link.updated", "payment_link", after, changed(before, after));
      return show(c, "payment_link", after);
    },
  ),
  route(
    "GET",
    "/v1/payment_links/:id/line_items",
    "paymentLinks.listLineItems",
    "List a payment link's line items",
    ["limit", "starting_after", "ending_before"],
    (c) => {
      const link = load(c, "payment_link", c.ctx.params.id);
      return lineItemPage(c, itemsOfObject(link), `/v1/payment_links/${String(link.id)}/line_items`);
    },
  ),
];
