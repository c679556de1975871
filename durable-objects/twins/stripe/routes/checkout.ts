// Checkout Sessions (payment, subscription and setup modes: create, retrieve, update, list,
// line items, expire) and Payment Links (create, retrieve, update, list, line items), with a test
// helper that completes a session as a paying customer would (checkout.ts). Line items are an
// includable list on both: returned with `expand[]=line_items` or read from their own list.
import type { Route, TwinResponse } from "../../types";
import { filterOf, listResponse, load, ok, pageQuery, show, type Call } from "../call";
import { arg, expand, idParam, listQuery, metadata, route } from "../declare";
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
      // Always an object on a Session (stripe-node: `phone_number_collection: Session.PhoneNumberCollection`).
      phone_number_collection: hashOf(c, "phone_number_collection", ["enabled"]) ?? { enabled: false },
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

/** A line item of a session or a payment link: a price, or price_data making one. */
const lineItems = (what: string) =>
  arg.list(
    {
      price: arg.text("A price id, price_…"),
      price_data: arg.hash(
        {
          currency: arg.text("Three-letter ISO currency code"),
          product: arg.text("The product's id (or product_data)"),
          product_data: arg.hash(
            {
              name: arg.text("The new product's name"),
              description: arg.text("Description"),
              images: arg.strings("Image URLs"),
              metadata,
              tax_code: arg.text("A tax code id"),
              unit_label: arg.text("Unit"),
            },
            "A product made for this line",
          ),
          unit_amount: arg.int("Price per unit in the smallest currency unit"),
          unit_amount_decimal: arg.decimal("Price per unit as a decimal"),
          recurring: arg.hash(
            {
              interval: arg.oneOf(["day", "week", "month", "year"], "Billing interval"),
              interval_count: arg.int("Intervals per period"),
            },
            "Makes the price recurring",
          ),
          tax_behavior: arg.oneOf(["exclusive", "inclusive", "unspecified"], "Whether the price includes tax"),
        },
        "An inline price made for this line",
      ),
      quantity: arg.int("Quantity (at least 1)"),
      adjustable_quantity: arg.anyHash("Whether the customer may change the quantity"),
      dynamic_tax_rates: arg.strings("Tax rates chosen by the customer's address"),
      tax_rates: arg.strings("Tax rates applied to the line"),
    },
    what,
  );

const billingAddressCollection = arg.oneOf(["auto", "required"], "Whether a billing address is asked for");
const submitType = arg.oneOf(["auto", "book", "donate", "pay", "subscribe"], "The word on the pay button");
const customerCreation = arg.oneOf(["if_required", "always"], "When a customer is created");
const afterCompletionArg = arg.hash(
  {
    type: arg.oneOf(["redirect", "hosted_confirmation"], "What follows a payment"),
    redirect: arg.hash({ url: arg.text("Where the customer goes") }, "For type redirect"),
    hosted_confirmation: arg.hash({ custom_message: arg.text("A message shown") }, "For type hosted_confirmation"),
  },
  "What the customer sees after paying",
);
const hash = (what: string) => arg.anyHash(what);
/** The line-item lists page by cursor only (no `created`). */
const cursorQuery = { limit: listQuery.limit, starting_after: listQuery.starting_after, ending_before: listQuery.ending_before, expand };

export const checkoutRoutes: readonly Route[] = [
  route({
    method: "POST",
    pattern: "/v1/checkout/sessions",
    operation: "checkout.sessions.create",
    summary: "Create a Checkout Session",
    body: {
      mode: arg.oneOf(["payment", "subscription", "setup"], "payment (default), subscription or setup"),
      line_items: lineItems("What is bought: prices and quantities"),
      customer: arg.text("An existing customer's id"),
      customer_email: arg.text("Prefills the email of a new customer"),
      customer_creation: customerCreation,
      client_reference_id: arg.text("Your own reference, e.g. an order id"),
      success_url: arg.text("Where the customer goes after paying"),
      cancel_url: arg.text("Where the customer goes on going back"),
      return_url: arg.text("Where an embedded session returns"),
      ui_mode: arg.oneOf(["hosted", "embedded", "custom"], "hosted (default), embedded or custom"),
      metadata,
      expires_at: arg.int("Unix time the session expires at (default: 24 hours)"),
      currency: arg.text("Needed in setup mode only"),
      locale: arg.text("The page's language"),
      allow_promotion_codes: arg.bool("Whether promotion codes may be entered"),
      billing_address_collection: billingAddressCollection,
      submit_type: submitType,
      payment_intent_data: hash("Parameters of the payment intent made (capture_method, description, metadata, …)"),
      subscription_data: hash("Parameters of the subscription made (description, metadata, trial_period_days, …)"),
      setup_intent_data: hash("Parameters of the setup intent made (description, metadata, on_behalf_of)"),
      allowed_payment_method_types: arg.strings('Payment method types, e.g. ["card"]'),
      payment_method_types: arg.strings("The older name of allowed_payment_method_types"),
      phone_number_collection: hash("{ enabled }: whether a phone number is asked for"),
      shipping_address_collection: hash("{ allowed_countries }: where goods may be shipped"),
      redirect_on_completion: arg.oneOf(["always", "if_required", "never"], "When an embedded session redirects"),
      expand,
    },
    tool: {
      name: "create_checkout_session",
      description: "Create a Checkout Session (payment, subscription or setup mode): its url is the hosted payment page.",
    },
    handler: (c) => createSession(c),
  }),
  route({
    method: "GET",
    pattern: "/v1/checkout/sessions",
    operation: "checkout.sessions.list",
    summary: "List Checkout Sessions",
    query: {
      ...listQuery,
      customer: arg.text("Only this customer's"),
      payment_intent: arg.text("Only this payment intent's"),
      payment_link: arg.text("Only this payment link's"),
      status: arg.oneOf(["open", "complete", "expired"], "Only this status"),
      subscription: arg.text("Only this subscription's"),
      customer_details: arg.hash({ email: arg.text("The paying customer's email") }, "Only sessions paid with this email"),
    },
    tool: { name: "list_checkout_sessions", description: "List Checkout Sessions, newest first." },
    handler(c, { query }) {
      const detailsEmail = c.p.sub("customer_details")?.allow(["email"]).req("email");
      return listResponse(
        c,
        "checkout.session",
        "/v1/checkout/sessions",
        [
          ...filterOf(c, "customer", "customer"),
          ...filterOf(c, "payment_intent", "ref"),
          ...filterOf(c, "payment_link", "ref2"),
          ...(query.status ? [{ column: "status" as const, value: query.status }] : []),
        ],
        (o) =>
          (query.subscription === undefined || o.subscription === query.subscription) &&
          (detailsEmail === undefined || rec(o.customer_details).email === detailsEmail),
      );
    },
  }),
  route({
    method: "GET",
    pattern: "/v1/checkout/sessions/:id",
    operation: "checkout.sessions.retrieve",
    summary: "Retrieve a Checkout Session",
    params: idParam("The session's id, cs_…"),
    query: { expand },
    tool: { name: "get_checkout_session", description: "Retrieve a Checkout Session." },
    handler: (c, { params }) => show(c, "checkout.session", load(c, "checkout.session", params.id)),
  }),
  route({
    method: "POST",
    pattern: "/v1/checkout/sessions/:id",
    operation: "checkout.sessions.update",
    summary: "Update a Checkout Session",
    params: idParam("The session's id"),
    body: { metadata, expand },
    tool: { name: "update_checkout_session", description: "Update a Checkout Session's metadata." },
    handler(c, { params }) {
      const before = load(c, "checkout.session", params.id);
      const after = { ...before, metadata: c.p.metadata(strMap(before.metadata)) };
      saveObject(c.db, "checkout.session", after);
      return show(c, "checkout.session", after);
    },
  }),
  route({
    method: "GET",
    pattern: "/v1/checkout/sessions/:id/line_items",
    operation: "checkout.sessions.listLineItems",
    summary: "List a Checkout Session's line items",
    params: idParam("The session's id"),
    query: cursorQuery,
    tool: { name: "list_checkout_session_line_items", description: "List a Checkout Session's line items." },
    handler(c, { params }) {
      const session = load(c, "checkout.session", params.id);
      return lineItemPage(c, itemsOfObject(session), `/v1/checkout/sessions/${String(session.id)}/line_items`);
    },
  }),
  route({
    method: "POST",
    pattern: "/v1/checkout/sessions/:id/expire",
    operation: "checkout.sessions.expire",
    summary: "Expire a Checkout Session",
    params: idParam("The session's id"),
    body: { expand },
    tool: {
      name: "expire_checkout_session",
      description: "Expire an open Checkout Session so it can no longer be paid.",
      destructive: true,
    },
    handler(c, { params }) {
      const before = openSession(c, params.id, "expired");
      const after = { ...before, status: "expired", url: null, client_secret: null };
      saveObject(c.db, "checkout.session", after);
      emit(c, "checkout.session.expired", "checkout.session", after);
      return show(c, "checkout.session", after);
    },
  }),
  // Not a Stripe endpoint: what a customer paying on the hosted page does, for tests and agents.
  route({
    method: "POST",
    pattern: "/v1/test_helpers/checkout/sessions/:id/complete",
    operation: "testHelpers.checkout.sessions.complete",
    summary: "Complete a Checkout Session as a paying customer (test helper)",
    params: idParam("The session's id"),
    body: {
      payment_method: arg.text("The card paid with; pm_card_visa by default"),
      email: arg.text("The paying customer's email"),
      name: arg.text("The paying customer's name"),
      expand,
    },
    tool: {
      name: "complete_checkout_session",
      description:
        "Test helper: complete an open Checkout Session as a paying customer would (payment, subscription or setup made; checkout.session.completed emitted).",
    },
    handler(c, { params, body }) {
      const session = openSession(c, params.id, "completed");
      const done = completeSession(c, session, body.payment_method ?? "pm_card_visa", c.p.email("email") ?? null, body.name ?? null);
      return "error" in done ? done.error : show(c, "checkout.session", done.session);
    },
  }),
  route({
    method: "POST",
    pattern: "/v1/payment_links",
    operation: "paymentLinks.create",
    summary: "Create a payment link",
    body: {
      line_items: lineItems("What the link sells: prices and quantities"),
      metadata,
      after_completion: afterCompletionArg,
      allow_promotion_codes: arg.bool("Whether promotion codes may be entered"),
      billing_address_collection: billingAddressCollection,
      currency: arg.text("Three-letter ISO currency code"),
      customer_creation: customerCreation,
      inactive_message: arg.text("Shown once the link is deactivated"),
      payment_intent_data: hash("Parameters of the payment intents made (capture_method, description, metadata, setup_future_usage)"),
      subscription_data: hash("Parameters of the subscriptions made (description, metadata, trial_period_days)"),
      phone_number_collection: hash("{ enabled }: whether a phone number is asked for"),
      restrictions: hash("{ completed_sessions: { limit } }: how many payments the link takes"),
      submit_type: submitType,
      payment_method_types: arg.strings('Payment method types, e.g. ["card"]'),
      shipping_address_collection: hash("{ allowed_countries }: where goods may be shipped"),
      expand,
    },
    tool: { name: "create_payment_link", description: "Create a payment link: a shareable url selling these line items." },
    handler(c, { body }) {
      const list = c.p.list("line_items");
      if (!list?.length) return missingParam("line_items");
      const items = lineItemsFrom(c, list, "link");
      const recurring = items.some((li) => rec(li.price).type === "recurring");
      const done = afterCompletion(c.p.sub("after_completion"));
      const link = buildPaymentLink(
        {
          line_items: items,
          currency: String(items[0]?.currency ?? "usd"),
          metadata: c.p.metadata(),
          ...(done ? { after_completion: done } : {}),
          allow_promotion_codes: body.allow_promotion_codes ?? false,
          billing_address_collection: body.billing_address_collection ?? "auto",
          customer_creation: recurring ? "always" : (body.customer_creation ?? "if_required"),
          inactive_message: body.inactive_message ?? null,
          submit_type: body.submit_type ?? "auto",
          payment_intent_data: hashOf(c, "payment_intent_data", ["capture_method", "description", "metadata", "setup_future_usage"]),
          subscription_data: hashOf(c, "subscription_data", ["description", "metadata", "trial_period_days"]),
          restrictions: hashOf(c, "restrictions", ["completed_sessions"]),
        },
        { id: newId(c.db, "payment_link"), created: c.now },
      );
      insertObject(c.db, "payment_link", link);
      emit(c, "payment_link.created", "payment_link", link);
      return show(c, "payment_link", link);
    },
  }),
  route({
    method: "GET",
    pattern: "/v1/payment_links",
    operation: "paymentLinks.list",
    summary: "List payment links",
    query: { ...cursorQuery, active: arg.bool("Only active or inactive ones") },
    tool: { name: "list_payment_links", description: "List payment links." },
    handler(c, { query }) {
      const active = query.active;
      return listResponse(
        c,
        "payment_link",
        "/v1/payment_links",
        active === undefined ? [] : [{ column: "status", value: String(active) }],
      );
    },
  }),
  route({
    method: "GET",
    pattern: "/v1/payment_links/:id",
    operation: "paymentLinks.retrieve",
    summary: "Retrieve a payment link",
    params: idParam("The link's id, plink_…"),
    query: { expand },
    tool: { name: "get_payment_link", description: "Retrieve a payment link." },
    handler: (c, { params }) => show(c, "payment_link", load(c, "payment_link", params.id)),
  }),
  route({
    method: "POST",
    pattern: "/v1/payment_links/:id",
    operation: "paymentLinks.update",
    summary: "Update a payment link",
    params: idParam("The link's id"),
    body: {
      active: arg.bool("false deactivates the link"),
      metadata,
      after_completion: afterCompletionArg,
      allow_promotion_codes: arg.bool("Whether promotion codes may be entered"),
      inactive_message: arg.unsettable("Shown once the link is deactivated"),
      restrictions: hash("{ completed_sessions: { limit } }: how many payments the link takes"),
      billing_address_collection: billingAddressCollection,
      expand,
    },
    tool: { name: "update_payment_link", description: "Update a payment link: deactivate it (active: false) or change its metadata." },
    handler(c, { params, body }) {
      const before = load(c, "payment_link", params.id);
      const after: Rec = { ...before, metadata: c.p.metadata(strMap(before.metadata)) };
      if (body.active !== undefined) after.active = body.active;
      const done = afterCompletion(c.p.sub("after_completion"));
      if (done) after.after_completion = done;
      if (body.allow_promotion_codes !== undefined) after.allow_promotion_codes = body.allow_promotion_codes;
      const message = c.p.nullable("inactive_message");
      if (message !== undefined) after.inactive_message = message;
      if (body.billing_address_collection) after.billing_address_collection = body.billing_address_collection;
      if (c.p.has("restrictions")) after.restrictions = hashOf(c, "restrictions", ["completed_sessions"]);
      saveObject(c.db, "payment_link", after);
      emit(c, "payment_link.updated", "payment_link", after, changed(before, after));
      return show(c, "payment_link", after);
    },
  }),
  route({
    method: "GET",
    pattern: "/v1/payment_links/:id/line_items",
    operation: "paymentLinks.listLineItems",
    summary: "List a payment link's line items",
    params: idParam("The link's id"),
    query: cursorQuery,
    tool: { name: "list_payment_link_line_items", description: "List a payment link's line items." },
    handler(c, { params }) {
      const link = load(c, "payment_link", params.id);
      return lineItemPage(c, itemsOfObject(link), `/v1/payment_links/${String(link.id)}/line_items`);
    },
  }),
];
