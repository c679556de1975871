// Customers and their payment methods: CRUD, list with filters, attach and detach.
import type { Route } from "../../types";
import { filterOf, listResponse, load, ok, show, type Call } from "../call";
import { address, arg, expand, idParam, listQuery, metadata, route } from "../declare";
import { fail, invalidRequest, missingParam, noSuch } from "../errors";
import { changed, emit } from "../events";
import { buildCustomer } from "../objects";
import type { Params } from "../params";
import { deleteObject, getObject, insertObject, liveOfType, newId, rec, saveObject, strMap, type Rec } from "../store";
import { paymentMethodOfCard, resolvePaymentMethod, TEST_TOKENS } from "../money";

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

/** A customer's parameters, as create and update take them. */
const customerBody = {
  email: arg.unsettable("The customer's email address"),
  name: arg.unsettable("The customer's full name or business name"),
  description: arg.unsettable("An arbitrary description"),
  phone: arg.unsettable("The customer's phone number"),
  metadata,
  invoice_settings: arg.hash(
    {
      default_payment_method: arg.unsettable("A payment method attached to this customer, charged by default for invoices"),
      footer: arg.unsettable("Default footer of the customer's invoices"),
    },
    "Invoice settings",
  ),
  payment_method: arg.text("A payment method to attach, e.g. pm_card_visa"),
  address: address("The customer's address"),
  shipping: arg.hash(
    { name: arg.text("Recipient name"), phone: arg.text("Recipient phone"), address: address("Shipping address") },
    "Shipping details",
  ),
  preferred_locales: arg.strings("The customer's preferred languages, most preferred first"),
  balance: arg.int("Balance in the minor unit, applied to the next invoice (negative is a credit)"),
  tax_exempt: arg.oneOf(["none", "exempt", "reverse"], "The customer's tax exemption status"),
  expand,
};

const billingDetails = arg.hash(
  {
    address: address("Billing address"),
    email: arg.text("Billing email"),
    name: arg.text("Full name"),
    phone: arg.text("Billing phone number"),
    tax_id: arg.text("Tax id"),
  },
  "Billing details of the payment method",
);

export const customerRoutes: readonly Route[] = [
  route({
    method: "POST",
    pattern: "/v1/customers",
    operation: "customers.create",
    summary: "Create a customer",
    body: { ...customerBody, test_clock: arg.text("A test clock the customer follows") },
    tool: {
      name: "create_customer",
      description: "Create a customer, optionally attaching a payment method (a test token such as pm_card_visa).",
    },
    handler(c, { body }) {
      const id = newId(c.db, "customer");
      const clock = body.test_clock ? load(c, "test_helpers.test_clock", body.test_clock, "test_clock") : undefined;
      const created = clock ? Number(clock.frozen_time) : c.now;
      let customer = buildCustomer({ test_clock: clock?.id ?? null }, { id, created });
      // The default payment method may be the one this call attaches: settings apply after it.
      customer = { ...customer, ...customerFields(c, c.p, customer, false) };
      insertObject(c.db, "customer", customer);
      if (body.payment_method) attach(c, body.payment_method, customer, "payment_method");
      if (c.p.sub("invoice_settings")) {
        customer = { ...customer, ...customerFields(c, c.p, customer) };
        saveObject(c.db, "customer", customer);
      }
      emit(c, "customer.created", "customer", customer);
      return show(c, "customer", customer);
    },
  }),
  route({
    method: "GET",
    pattern: "/v1/customers",
    operation: "customers.list",
    summary: "List customers",
    query: {
      ...listQuery,
      email: arg.text("Only customers with exactly this email (case-sensitive)"),
      test_clock: arg.text("Only the customers of this test clock"),
    },
    tool: { name: "list_customers", description: "List customers, newest first, optionally only those with an email address." },
    // Case-sensitive, as stripe-node's CustomerListParams documents ("A case-sensitive filter on
    // the list based on the customer's `email` field").
    handler: (c) => listResponse(c, "customer", "/v1/customers", [...filterOf(c, "email", "ref2"), ...filterOf(c, "test_clock", "ref")]),
  }),
  route({
    method: "GET",
    pattern: "/v1/customers/:id",
    operation: "customers.retrieve",
    summary: "Retrieve a customer",
    params: idParam("The customer's id, cus_…"),
    query: { expand },
    tool: { name: "get_customer", description: "Retrieve a customer by id (a deleted one answers {id, deleted: true})." },
    handler(c, { params }) {
      const o = getObject(c.db, "customer", params.id, true) ?? fail(noSuch("customer", params.id));
      return show(c, "customer", o);
    },
  }),
  route({
    method: "POST",
    pattern: "/v1/customers/:id",
    operation: "customers.update",
    summary: "Update a customer",
    params: idParam("The customer's id"),
    body: customerBody,
    tool: {
      name: "update_customer",
      description: "Update a customer's email, name, description, phone, metadata or default payment method.",
    },
    handler(c, { params, body }) {
      const before = load(c, "customer", params.id);
      if (body.payment_method) attach(c, body.payment_method, before, "payment_method");
      const after = { ...before, ...customerFields(c, c.p, before) };
      saveObject(c.db, "customer", after);
      emit(c, "customer.updated", "customer", after, changed(before, after));
      return show(c, "customer", after);
    },
  }),
  route({
    method: "DELETE",
    pattern: "/v1/customers/:id",
    operation: "customers.del",
    summary: "Delete a customer",
    params: idParam("The customer's id"),
    tool: { name: "delete_customer", description: "Delete a customer permanently." },
    handler(c, { params }) {
      const before = load(c, "customer", params.id);
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
    },
  }),
  route({
    method: "GET",
    pattern: "/v1/customers/:customer/payment_methods",
    operation: "customers.listPaymentMethods",
    summary: "List a customer's payment methods",
    params: { customer: arg.id("The customer's id") },
    query: {
      ...listQuery,
      type: arg.text("Only payment methods of this type, e.g. card"),
      allow_redisplay: arg.oneOf(["always", "limited", "unspecified"], "Only those with this redisplay setting"),
    },
    tool: { name: "list_customer_payment_methods", description: "List the payment methods attached to a customer." },
    handler(c, { params }) {
      const customer = load(c, "customer", params.customer);
      return listResponse(c, "payment_method", `/v1/customers/${String(customer.id)}/payment_methods`, [
        { column: "customer", value: String(customer.id) },
        ...filterOf(c, "type", "ref2"),
      ]);
    },
  }),
  route({
    method: "GET",
    pattern: "/v1/customers/:customer/payment_methods/:payment_method",
    operation: "customers.retrievePaymentMethod",
    summary: "Retrieve a customer's payment method",
    params: { customer: arg.id("The customer's id"), payment_method: arg.id("The payment method's id") },
    query: { expand },
    tool: { name: "get_customer_payment_method", description: "Retrieve one payment method of a customer." },
    handler(c, { params }) {
      const customer = load(c, "customer", params.customer);
      const pm = getObject(c.db, "payment_method", params.payment_method);
      if (!pm || pm.customer !== customer.id) return noSuch("PaymentMethod", params.payment_method);
      return show(c, "payment_method", pm);
    },
  }),
  route({
    method: "GET",
    pattern: "/v1/payment_methods",
    operation: "paymentMethods.list",
    summary: "List payment methods",
    query: { ...listQuery, customer: arg.text("Only this customer's payment methods"), type: arg.text("Only this type, e.g. card") },
    tool: { name: "list_payment_methods", description: "List payment methods, optionally a customer's." },
    handler: (c) =>
      listResponse(c, "payment_method", "/v1/payment_methods", [...filterOf(c, "customer", "customer"), ...filterOf(c, "type", "ref2")]),
  }),
  route({
    method: "POST",
    pattern: "/v1/payment_methods",
    operation: "paymentMethods.create",
    summary: "Create a payment method",
    body: {
      type: arg.id('The payment method type: "card"'),
      // Raw card numbers are refused by the handler (as on Stripe), so only the token is named.
      card: arg.hash({ token: arg.text("A test token, e.g. tok_visa") }, "The card, as a test token"),
      billing_details: billingDetails,
      metadata,
      allow_redisplay: arg.oneOf(["always", "limited", "unspecified"], "Whether the method may be shown to the customer again"),
      expand,
    },
    tool: {
      name: "create_payment_method",
      description: "Create a card payment method from a test token (card.token: tok_visa, tok_chargeDeclined, …).",
    },
    handler(c, { body }) {
      const type = body.type;
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
        allow_redisplay: body.allow_redisplay ?? "unspecified",
        ...(billing ? { billing_details: billing.allow(["address", "email", "name", "phone", "tax_id"]).raw } : {}),
      });
      return show(c, "payment_method", pm);
    },
  }),
  route({
    method: "GET",
    pattern: "/v1/payment_methods/:id",
    operation: "paymentMethods.retrieve",
    summary: "Retrieve a payment method",
    params: idParam("The payment method's id"),
    query: { expand },
    tool: { name: "get_payment_method", description: "Retrieve a payment method: its card brand, last four digits and expiry." },
    handler: (c, { params }) =>
      show(c, "payment_method", getObject(c.db, "payment_method", params.id) ?? fail(noSuch("PaymentMethod", params.id))),
  }),
  route({
    method: "POST",
    pattern: "/v1/payment_methods/:id",
    operation: "paymentMethods.update",
    summary: "Update a payment method",
    params: idParam("The payment method's id"),
    body: {
      metadata,
      billing_details: billingDetails,
      allow_redisplay: arg.oneOf(["always", "limited", "unspecified"], "Whether the method may be shown to the customer again"),
      expand,
    },
    tool: { name: "update_payment_method", description: "Update a payment method's metadata." },
    handler(c, { params, body }) {
      const before = load(c, "payment_method", params.id);
      // "A PaymentMethod must be attached to a customer to be updated." (stripe-node, PaymentMethods.update)
      if (!before.customer) return invalidRequest("You must save this PaymentMethod to a customer before you can update it.");
      const billing = c.p.sub("billing_details");
      const after = {
        ...before,
        metadata: c.p.metadata(strMap(before.metadata)),
        ...(billing ? { billing_details: { ...rec(before.billing_details), ...billing.raw } } : {}),
        ...(body.allow_redisplay ? { allow_redisplay: body.allow_redisplay } : {}),
      };
      saveObject(c.db, "payment_method", after);
      emit(c, "payment_method.updated", "payment_method", after, changed(before, after));
      return show(c, "payment_method", after);
    },
  }),
  route({
    method: "POST",
    pattern: "/v1/payment_methods/:id/attach",
    operation: "paymentMethods.attach",
    summary: "Attach a payment method to a customer",
    params: idParam("The payment method's id or a test token"),
    body: { customer: arg.id("The customer's id"), expand },
    tool: { name: "attach_payment_method", description: "Attach a payment method (or a test token such as pm_card_visa) to a customer." },
    handler(c, { params, body }) {
      const customer = load(c, "customer", body.customer, "customer");
      return show(c, "payment_method", attach(c, params.id, customer, "payment_method"));
    },
  }),
  route({
    method: "POST",
    pattern: "/v1/payment_methods/:id/detach",
    operation: "paymentMethods.detach",
    summary: "Detach a payment method",
    params: idParam("The payment method's id"),
    body: { expand },
    tool: { name: "detach_payment_method", description: "Detach a payment method from its customer." },
    handler(c, { params }) {
      const pm = load(c, "payment_method", params.id);
      if (!pm.customer) return invalidRequest("The payment method you provided is not attached to a customer so detachment is impossible.");
      const owner = getObject(c.db, "customer", String(pm.customer));
      if (owner && rec(owner.invoice_settings).default_payment_method === pm.id) {
        saveObject(c.db, "customer", { ...owner, invoice_settings: { ...rec(owner.invoice_settings), default_payment_method: null } });
      }
      const next = { ...pm, customer: null };
      saveObject(c.db, "payment_method", next);
      emit(c, "payment_method.detached", "payment_method", next, { customer: pm.customer });
      return show(c, "payment_method", next);
    },
  }),
];
