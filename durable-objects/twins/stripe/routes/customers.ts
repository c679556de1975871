// Customers and their payment methods: CRUD, list with filters, attach and detach.
import type { Route } from "../../types";
import { filterOf, LIST_PARAMS, listResponse, load, ok, route, show, type Call } from "../call";
import { fail, invalidRequest, missingParam, noSuch } from "../errors";
import { changed, emit } from "../events";
import { buildCustomer } from "../objects";
import type { Params } from "../params";
import { deleteObject, getObject, insertObject, liveOfType, newId, rec, saveObject, strMap, type Rec } from "../store";
import { paymentMethodOfCard, resolvePaymentMethod, TEST_TOKENS } from "../money";

const CUSTOMER_FIELDS = [
  "email",
  "name",
  "description",
  "phone",
  "metadata",
  "invoice_settings",
  "payment_method",
  "address",
  "shipping",
  "preferred_locales",
  "test_clock",
  "balance",
  "tax_exempt",
];

const ADDRESS_FIELDS = ["city", "country", "line1", "line2", "postal_code", "state"];

function customerFields(c: Call, p: Params, current: Rec, withSettings = true): Rec {
  const out: Rec = {};
  const email = p.email("email");
  if (email !== undefined) out.email = email;
  for (const key of ["name", "description", "phone"]) {
    const v = p.nullable(key);
    if (v !== undefined) out[key] = v;
  }
  if (p.has("balance")) out.balance = p.int("balance") ?? 0;
  const tax = p.oneOf("tax_exempt", ["none", "exempt", "reverse"]);
  if (tax) out.tax_exempt = tax;
  if (p.has("preferred_locales")) out.preferred_locales = p.strList("preferred_locales");
  const address = p.sub("address");
  if (address !== undefined)
    out.address = address && {
      city: null,
      country: null,
      line1: null,
      line2: null,
      postal_code: null,
      state: null,
      ...address.allow(ADDRESS_FIELDS).raw,
    };
  out.metadata = p.metadata(strMap(current.metadata));
  const settings = withSettings ? p.sub("invoice_settings") : undefined;
  if (settings) {
    const pm = settings.nullable("default_payment_method");
    const next = { ...rec(current.invoice_settings) };
    if (pm !== undefined) {
      if (pm !== null) {
        const method = getObject(c.db, "payment_method", pm);
        if (!method) fail(noSuch("PaymentMethod", pm, "invoice_settings[default_payment_method]"));
        else if (method.customer !== current.id)
          fail(
            invalidRequest(
              `The customer does not have a payment method with the ID ${pm}. The payment method must be attached to the customer.`,
              { param: "invoice_settings[default_payment_method]" },
            ),
          );
      }
      next.default_payment_method = pm;
    }
    const footer = settings.nullable("footer");
    if (footer !== undefined) next.footer = footer;
    out.invoice_settings = next;
  }
  return out;
}

function attach(c: Call, pmId: string, customer: Rec, param: string): Rec {
  const pm = resolvePaymentMethod(c, pmId, param);
  if (pm.customer && pm.customer !== customer.id)
    fail(invalidRequest("The payment method you provided has already been attached to a customer.", { param }));
  const next = { ...pm, customer: customer.id };
  saveObject(c.db, "payment_method", next);
  emit(c, "payment_method.attached", "payment_method", next);
  return next;
}

export const customerRoutes: readonly Route[] = [
  route("POST", "/v1/customers", "customers.create", "Create a customer", CUSTOMER_FIELDS, (c) => {
    const id = newId(c.db, "customer");
    const clockId = c.p.str("test_clock");
    const clock = clockId ? load(c, "test_helpers.test_clock", clockId, "test_clock") : undefined;
    const created = clock ? Number(clock.frozen_time) : c.now;
    let customer = buildCustomer({ test_clock: clock?.id ?? null }, { id, created });
    const pmId = c.p.str("payment_method");
    // The default payment method may be the one this call attaches: settings apply after it.
    customer = { ...customer, ...customerFields(c, c.p, customer, false) };
    insertObject(c.db, "customer", customer);
    if (pmId) attach(c, pmId, customer, "payment_method");
    if (c.p.sub("invoice_settings")) {
      customer = { ...customer, ...customerFields(c, c.p, customer) };
      saveObject(c.db, "customer", customer);
    }
    emit(c, "customer.created", "customer", customer);
    return show(c, "customer", customer);
  }),
  route("GET", "/v1/customers", "customers.list", "List customers", [...LIST_PARAMS, "email", "test_clock"], (c) => {
    // Case-sensitive, as stripe-node's CustomerListParams documents ("A case-sensitive filter on
    // the list based on the customer's `email` field").
    return listResponse(c, "customer", "/v1/customers", [...filterOf(c, "email", "ref2"), ...filterOf(c, "test_clock", "ref")]);
  }),
  route("GET", "/v1/customers/:id", "customers.retrieve", "Retrieve a customer", [], (c) => {
    const o = getObject(c.db, "customer", c.ctx.params.id, true) ?? fail(noSuch("customer", c.ctx.params.id));
    return show(c, "customer", o);
  }),
  route(
    "POST",
    "/v1/customers/:id",
    "customers.update",
    "Update a customer",
    CUSTOMER_FIELDS.filter((f) => f !== "test_clock"),
    (c) => {
      const before = load(c, "customer", c.ctx.params.id);
      const pmId = c.p.str("payment_method");
      if (pmId) attach(c, pmId, before, "payment_method");
      const after = { ...before, ...customerFields(c, c.p, before) };
      saveObject(c.db, "customer", after);
      emit(c, "customer.updated", "customer", after, changed(before, after));
      return show(c, "customer", after);
    },
  ),
  route("DELETE", "/v1/customers/:id", "customers.del", "Delete a customer", [], (c) => {
    const before = load(c, "customer", c.ctx.params.id);
    // Deleting a customer cancels its subscriptions at once, as on Stripe.
    for (const sub of liveOfType(c.db, "subscription", { column: "customer", value: String(before.id) })) {
      if (sub.status === "canceled" || sub.status === "incomplete_expired") continue;
      const ended = {
        ...sub,
        status: "canceled",
        canceled_at: c.now,
        ended_at: c.now,
        cancellation_details: { ...rec(sub.cancellation_details), reason: "cancellation_requested" },
      };
      saveObject(c.db, "subscription", ended);
      emit(c, "customer.subscription.deleted", "subscription", ended);
    }
    const stub = deleteObject(c.db, "customer", String(before.id));
    emit(c, "customer.deleted", "customer", before);
    return ok(stub);
  }),
  route(
    "GET",
    "/v1/customers/:id/payment_methods",
    "customers.listPaymentMethods",
    "List a customer's payment methods",
    [...LIST_PARAMS, "type", "allow_redisplay"],
    (c) => {
      const customer = load(c, "customer", c.ctx.params.id);
      return listResponse(c, "payment_method", `/v1/customers/${String(customer.id)}/payment_methods`, [
        { column: "customer", value: String(customer.id) },
        ...filterOf(c, "type", "ref2"),
      ]);
    },
  ),
  route(
    "GET",
    "/v1/customers/:id/payment_methods/:pm",
    "customers.retrievePaymentMethod",
    "Retrieve a customer's payment method",
    [],
    (c) => {
      const customer = load(c, "customer", c.ctx.params.id);
      const pm = getObject(c.db, "payment_method", c.ctx.params.pm);
      if (!pm || pm.customer !== customer.id) return noSuch("PaymentMethod", c.ctx.params.pm);
      return show(c, "payment_method", pm);
    },
  ),
  route("GET", "/v1/payment_methods", "paymentMethods.list", "List payment methods", [...LIST_PARAMS, "customer", "type"], (c) =>
    listResponse(c, "payment_method", "/v1/payment_methods", [...filterOf(c, "customer", "customer"), ...filterOf(c, "type", "ref2")]),
  ),
  route(
    "POST",
    "/v1/payment_methods",
    "paymentMethods.create",
    "Create a payment method",
    ["type", "card", "billing_details", "metadata", "allow_redisplay"],
    (c) => {
      const type = c.p.req("type");
      if (type !== "card") return invalidRequest(`The payment method type "${type}" is not supported by this twin.`, { param: "type" });
      const card = c.p.sub("card") ?? fail(missingParam("card"));
      const token = card.str("token");
      if (!token) {
        // Raw card numbers are refused in test mode unless the account enabled them, as on Stripe.
        return invalidRequest(
          "Sending credit card numbers directly to the Stripe API is generally unsafe. We suggest you use test tokens that map to the test card you are using, see https://stripe.com/docs/testing. To enable raw card data APIs in test mode, see https://support.stripe.com/questions/enabling-access-to-raw-card-data-apis.",
          { param: "card[number]" },
        );
      }
      card.allow(["token"]);
      const testCard = TEST_TOKENS[token] ?? fail(noSuch("token", token, "card[token]"));
      const billing = c.p.sub("billing_details");
      const pm = paymentMethodOfCard(c, testCard, {
        metadata: c.p.metadata(),
        allow_redisplay: c.p.oneOf("allow_redisplay", ["always", "limited", "unspecified"]) ?? "unspecified",
        ...(billing ? { billing_details: billing.allow(["address", "email", "name", "phone", "tax_id"]).raw } : {}),
      });
      return show(c, "payment_method", pm);
    },
  ),
  route("GET", "/v1/payment_methods/:id", "paymentMethods.retrieve", "Retrieve a payment method", [], (c) =>
    show(c, "payment_method", resolveOnly(c)),
  ),
  route(
    "POST",
    "/v1/payment_methods/:id",
    "paymentMethods.update",
    "Update a payment method",
    ["metadata", "billing_details", "allow_redisplay"],
    (c) => {
      const before = load(c, "payment_method", c.ctx.params.id);
      const billing = c.p.sub("billing_details");
      const after = {
        ...before,
        metadata: c.p.metadata(strMap(before.metadata)),
        ...(billing ? { billing_details: { ...rec(before.billing_details), ...billing.raw } } : {}),
      };
      saveObject(c.db, "payment_method", after);
      emit(c, "payment_method.updated", "payment_method", after, changed(before, after));
      return show(c, "payment_method", after);
    },
  ),
  route("POST", "/v1/payment_methods/:id/attach", "paymentMethods.attach", "Attach a payment method to a customer", ["customer"], (c) => {
    const customer = load(c, "customer", c.p.req("customer"), "customer");
    return show(c, "payment_method", attach(c, c.ctx.params.id, customer, "payment_method"));
  }),
  route("POST", "/v1/payment_methods/:id/detach", "paymentMethods.detach", "Detach a payment method", [], (c) => {
    const pm = load(c, "payment_method", c.ctx.params.id);
    if (!pm.customer) return invalidRequest("The payment method you provided is not attached to a customer so detachment is impossible.");
    const owner = getObject(c.db, "customer", String(pm.customer));
    if (owner && rec(owner.invoice_settings).default_payment_method === pm.id) {
      saveObject(c.db, "customer", { ...owner, invoice_settings: { ...rec(owner.invoice_settings), default_payment_method: null } });
    }
    const next = { ...pm, customer: null };
    saveObject(c.db, "payment_method", next);
    emit(c, "payment_method.detached", "payment_method", next, { customer: pm.customer });
    return show(c, "payment_method", next);
  }),
];

/** A retrieve of a test token answers as Stripe does: a fresh PaymentMethod for that card. */
function resolveOnly(c: Call): Rec {
  return getObject(c.db, "payment_method", c.ctx.params.id) ?? fail(noSuch("PaymentMethod", c.ctx.params.id));
}
