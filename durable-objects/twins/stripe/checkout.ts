// What Checkout does beyond storing a session: line items from `price` or `price_data` (an inline
// Price, as Stripe makes one), the session's amounts, and completing a session the way a customer
// paying on the hosted page does: the customer, then the PaymentIntent, Subscription or
// SetupIntent of its mode, then `checkout.session.completed`.
import type { TwinResponse } from "../types";
import { type Call, load } from "./call";
import { fail, invalidRequest, missingParam } from "./errors";
import { emit } from "./events";
import { buildCustomer, buildPaymentIntent, buildPrice, buildProduct } from "./objects";
import { buildLineItem, buildSetupIntent, customerDetailsOf } from "./objects-checkout";
import type { FormObject } from "../kit/form";
import { attachTo, resolvePaymentMethod } from "./money";
import { Params } from "./params";
import { createSubscription } from "./routes/billing";
import { confirmIntent } from "./routes/payments";
import { confirmSetup } from "./routes/setup-intents";
import { getObject, idBody, insertObject, newId, num, rec, saveObject, str, strMap, type Rec } from "./store";

export type CheckoutMode = "payment" | "subscription" | "setup";

/** A Price for `price_data`: Stripe makes an inactive one-off Price (and Product for `product_data`). */
function inlinePrice(c: Call, data: Params): Rec {
  data.allow(["currency", "product", "product_data", "unit_amount", "unit_amount_decimal", "recurring", "tax_behavior"]);
  const productData = data.sub("product_data");
  let product = data.str("product");
  if (product) load(c, "product", product, `${data.name("product")}`);
  else if (productData) {
    productData.allow(["name", "description", "images", "metadata", "tax_code", "unit_label"]);
    const made = buildProduct(
      { name: productData.req("name"), description: productData.str("description") ?? null, active: false },
      { id: newId(c.db, "product"), created: c.now },
    );
    insertObject(c.db, "product", made);
    product = String(made.id);
  } else fail(missingParam(data.name("product")));
  const recurring = data.sub("recurring");
  const price = buildPrice(
    {
      active: false,
      currency: data.reqCurrency("currency"),
      unit_amount: data.reqInt("unit_amount"),
      product,
      recurring: recurring
        ? {
            interval: recurring.oneOf("interval", ["day", "week", "month", "year"]) ?? fail(missingParam(recurring.name("interval"))),
            interval_count: recurring.int("interval_count") ?? 1,
          }
        : null,
    },
    { id: newId(c.db, "price"), created: c.now },
  );
  insertObject(c.db, "price", price);
  return price;
}

/** The line items of a create call, each with its full Price, checked against the mode. */
export function lineItemsFrom(c: Call, list: Params[], mode: CheckoutMode | "link"): Rec[] {
  const items = list.map((item, i) => {
    item.allow(["price", "price_data", "quantity", "adjustable_quantity", "dynamic_tax_rates", "tax_rates"]);
    const priceId = item.str("price");
    const data = item.sub("price_data");
    const price = priceId
      ? load(c, "price", priceId, item.name("price"))
      : data
        ? inlinePrice(c, data)
        : fail(missingParam(item.name("price")));
    const quantity = item.int("quantity") ?? (mode === "link" ? fail(missingParam(item.name("quantity"))) : 1);
    if (quantity < 1) fail(invalidRequest("This value must be greater than or equal to 1.", { param: item.name("quantity") }));
    if (mode === "payment" && price.type === "recurring")
      fail(
        invalidRequest(
          "You specified `payment` mode but passed a recurring price. Either switch to `subscription` mode or use only one-time prices.",
          { param: item.name("price") },
        ),
      );
    const product = getObject(c.db, "product", String(price.product));
    return buildLineItem(
      `li_${idBody(`li:${String(price.id)}:${c.now}:${i}:${newId(c.db, "request")}`)}`,
      price,
      quantity,
      str(product?.name) ?? null,
    );
  });
  const currencies = new Set(items.map((li) => String(li.currency)));
  if (currencies.size > 1) fail(invalidRequest("All prices on a Checkout Session must have the same currency.", { param: "line_items" }));
  if (mode === "subscription" && !items.some((li) => rec(li.price).type === "recurring"))
    fail(
      invalidRequest("You must provide at least one recurring price in `subscription` mode when using prices.", { param: "line_items" }),
    );
  return items;
}

export const totalOf = (items: Rec[]) => items.reduce((s, li) => s + (num(li.amount_total) ?? 0), 0);

/** The session's customer: its own, else one made now when the mode or `customer_creation` calls for it. */
function customerFor(c: Call, session: Rec, email: string | null, name: string | null): Rec | undefined {
  const id = str(session.customer);
  if (id) return load(c, "customer", id, "customer");
  if (session.mode !== "subscription" && session.customer_creation !== "always") return undefined;
  const customer = buildCustomer({ email, name }, { id: newId(c.db, "customer"), created: c.now });
  insertObject(c.db, "customer", customer);
  emit(c, "customer.created", "customer", customer);
  return customer;
}

/** What completing a session adds to it (its PaymentIntent, Subscription or SetupIntent), or the refusal. */
type ModeOutcome = { fields: Rec } | { error: TwinResponse };

/** `payment` mode: a PaymentIntent for the session's total, confirmed with the customer's card. */
function payForSession(c: Call, session: Rec, items: Rec[], customerId: string | null, paymentMethod: string): ModeOutcome {
  const piData = rec(session.payment_intent_data);
  let pi = buildPaymentIntent(
    {
      amount: totalOf(items),
      currency: session.currency,
      customer: customerId,
      description: piData.description ?? null,
      metadata: strMap(piData.metadata),
      capture_method: piData.capture_method ?? "automatic_async",
      setup_future_usage: piData.setup_future_usage ?? null,
      payment_method_types: ["card"],
    },
    { id: newId(c.db, "payment_intent"), created: c.now },
  );
  pi = { ...pi, payment_method: paymentMethod, status: "requires_confirmation" };
  insertObject(c.db, "payment_intent", pi);
  emit(c, "payment_intent.created", "payment_intent", pi);
  const r = confirmIntent(c, pi);
  if (r.error) return { error: r.error };
  if (r.pi.status === "requires_action")
    return fail(
      invalidRequest("This card requires authentication, which the completion helper cannot perform: use a card that does not.", {
        param: "payment_method",
      }),
    );
  return { fields: { payment_intent: r.pi.id, payment_status: r.pi.status === "succeeded" ? "paid" : "unpaid" } };
}

/** `subscription` mode: the card attached to the customer, then a Subscription of the recurring items. */
function subscribeForSession(c: Call, session: Rec, items: Rec[], customerId: string | null, paymentMethod: string): ModeOutcome {
  if (!customerId) return fail(missingParam("customer"));
  const pm = attachTo(c, resolvePaymentMethod(c, paymentMethod, "payment_method"), customerId, "payment_method");
  const subData = rec(session.subscription_data);
  const form: FormObject = {
    customer: customerId,
    default_payment_method: String(pm.id),
    items: items
      .filter((li) => rec(li.price).type === "recurring")
      .map((li) => ({ price: String(rec(li.price).id), quantity: String(li.quantity) })),
    metadata: strMap(subData.metadata),
  };
  if (num(subData.trial_period_days)) form.trial_period_days = String(subData.trial_period_days);
  // The subscription is made as `subscriptions.create` makes it, from the parameters Checkout would send.
  const res = createSubscription({ ...c, p: new Params(form) });
  if (res.status !== 200) return { error: res };
  const sub = rec(JSON.parse(res.body));
  return {
    fields: {
      subscription: sub.id,
      invoice: str(sub.latest_invoice) ?? null,
      payment_status: sub.status === "active" || sub.status === "trialing" ? "paid" : "unpaid",
    },
  };
}

/** `setup` mode: a SetupIntent saving the card, confirmed; nothing is charged. */
function setUpForSession(c: Call, session: Rec, customerId: string | null, paymentMethod: string): ModeOutcome {
  const siData = rec(session.setup_intent_data);
  const si = buildSetupIntent(
    {
      customer: customerId,
      description: siData.description ?? null,
      metadata: strMap(siData.metadata),
      payment_method: paymentMethod,
      status: "requires_confirmation",
    },
    { id: newId(c.db, "setup_intent"), created: c.now },
  );
  insertObject(c.db, "setup_intent", si);
  emit(c, "setup_intent.created", "setup_intent", si);
  const r = confirmSetup(c, si);
  if (r.error) return { error: r.error };
  return { fields: { setup_intent: r.si.id, payment_status: "no_payment_required" } };
}

/**
 * Completes an open session as a customer paying with `paymentMethod` would. A declined card
 * answers Stripe's card error and leaves the session open; success saves and returns the session.
 */
export function completeSession(
  c: Call,
  session: Rec,
  paymentMethod: string,
  email: string | null,
  name: string | null,
): { session: Rec } | { error: TwinResponse } {
  const items = Array.isArray(session.line_items) ? session.line_items.map(rec) : [];
  const mode = String(session.mode);
  const customer = customerFor(c, session, email ?? str(session.customer_email) ?? null, name);
  const customerId = customer ? String(customer.id) : null;
  const completed: Rec = {
    ...session,
    customer: customerId,
    customer_details: customerDetailsOf(customer, email ?? str(session.customer_email) ?? null),
    status: "complete",
  };
  const outcome =
    mode === "payment"
      ? payForSession(c, session, items, customerId, paymentMethod)
      : mode === "subscription"
        ? subscribeForSession(c, session, items, customerId, paymentMethod)
        : setUpForSession(c, session, customerId, paymentMethod);
  if ("error" in outcome) return { error: outcome.error };
  const next: Rec = { ...completed, ...outcome.fields };
  saveObject(c.db, "checkout.session", next);
  emit(c, "checkout.session.completed", "checkout.session", next);
  return { session: next };
}
