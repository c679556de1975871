// MCP tools: one typed tool per Stripe operation, arguments in Stripe's own parameter names
// (which models already know from Stripe's docs). Each maps onto the REST call it stands for
// and runs through the same dispatch and idempotency rules; amounts are in the minor unit.
import { z } from "zod";
import { query, seg, tool } from "../kit/tools";
import type { TwinTool } from "../types";

const id = (what: string) => z.string().min(1).describe(what);
const metadata = z
  .record(z.string(), z.string())
  .optional()
  .describe("Key/value pairs to store on the object; an empty value deletes a key");
const amount = z.number().int().positive().describe("Amount in the currency's smallest unit (cents for usd; whole yen for jpy)");
const currency = z.string().min(3).describe('Three-letter ISO currency code, lower case, e.g. "usd"');
const listArgs = {
  limit: z.number().int().min(1).max(100).optional().describe("Objects per page, 1 to 100 (default 10)"),
  starting_after: z.string().optional().describe("Id of the last object of the previous page: returns the next, older page"),
  ending_before: z.string().optional().describe("Id of the first object of the current page: returns the previous, newer page"),
};
const searchArgs = {
  query: z.string().min(1).describe("Stripe search query, e.g. email:'a@b.c' or metadata['order_id']:'A-1' AND status:'succeeded'"),
  limit: listArgs.limit,
  page: z.string().optional().describe("The next_page token of the previous search result"),
};

/** Automatic payment methods (on by default) and the return_url their confirmation needs. */
const redirectArgs = {
  automatic_payment_methods: z
    .object({ enabled: z.boolean(), allow_redirects: z.enum(["always", "never"]).optional() })
    .optional()
    .describe('On by default, allowing redirects; { enabled: true, allow_redirects: "never" } confirms without a return_url'),
  allowed_payment_method_types: z.array(z.string()).optional().describe('Payment method types instead of automatic ones, e.g. ["card"]'),
  return_url: z
    .string()
    .optional()
    .describe("Where a redirect-based payment method returns the customer; needed to confirm while redirects are allowed"),
};
const lineItems = z
  .array(z.object({ price: z.string().describe("A price id, price_…"), quantity: z.number().int().min(1).optional() }))
  .min(1)
  .describe("What is bought: prices and quantities");

type Shape = z.ZodRawShape;
const scalarQuery = (args: Record<string, unknown>) => {
  const out: Record<string, string | number | boolean | undefined> = {};
  for (const [k, v] of Object.entries(args)) if (typeof v === "string" || typeof v === "number" || typeof v === "boolean") out[k] = v;
  return query(out);
};

/** A tool for one route; arguments named in `pathKeys` fill the path, the rest go as query (GET) or body. */
function op<S extends Shape>(
  name: string,
  description: string,
  method: string,
  path: (a: Record<string, unknown>) => string,
  input: S,
  pathKeys: string[] = [],
  flags: { readOnly?: boolean; destructive?: boolean } = {},
): TwinTool {
  return tool({
    name,
    description,
    input,
    readOnly: flags.readOnly ?? method === "GET",
    destructive: flags.destructive ?? method === "DELETE",
    toRequest: (args) => {
      const record: Record<string, unknown> = args;
      const rest = Object.fromEntries(Object.entries(record).filter(([k, v]) => !pathKeys.includes(k) && v !== undefined));
      return method === "GET" ? { method, path: path(record), query: scalarQuery(rest) } : { method, path: path(record), body: rest };
    },
  });
}

const at =
  (base: string, key = "id", tail = "") =>
  (a: Record<string, unknown>) =>
    `${base}/${seg(String(a[key]))}${tail}`;
const fixed = (p: string) => () => p;

const customerFields = {
  email: z.string().optional().describe("The customer's email address"),
  name: z.string().optional().describe("The customer's full name or business name"),
  description: z.string().optional().describe("An arbitrary description"),
  phone: z.string().optional().describe("The customer's phone number"),
  metadata,
};

const itemsArg = z
  .array(
    z.strictObject({ price: id("A recurring price's id"), quantity: z.number().int().min(1).optional().describe("Quantity (default 1)") }),
  )
  .min(1)
  .describe("The subscription's items: each a recurring price and a quantity");

export const stripeTools: readonly TwinTool[] = [
  op(
    "create_customer",
    "Create a customer, optionally attaching a payment method (a test token such as pm_card_visa).",
    "POST",
    fixed("/v1/customers"),
    {
      ...customerFields,
      payment_method: z.string().optional().describe("A payment method to attach, e.g. pm_card_visa"),
      test_clock: z.string().optional().describe("A test clock the customer follows"),
    },
  ),
  op("list_customers", "List customers, newest first, optionally only those with an email address.", "GET", fixed("/v1/customers"), {
    ...listArgs,
    email: z.string().optional().describe("Only customers with exactly this email"),
  }),
  op(
    "get_customer",
    "Retrieve a customer by id (a deleted one answers {id, deleted: true}).",
    "GET",
    at("/v1/customers"),
    { id: id("The customer's id, cus_…") },
    ["id"],
  ),
  op(
    "update_customer",
    "Update a customer's email, name, description, phone, metadata or default payment method.",
    "POST",
    at("/v1/customers"),
    {
      id: id("The customer's id"),
      ...customerFields,
      invoice_settings: z
        .strictObject({ default_payment_method: z.string().nullable().optional().describe("A payment method attached to this customer") })
        .optional()
        .describe("Invoice settings"),
    },
    ["id"],
  ),
  op("delete_customer", "Delete a customer permanently.", "DELETE", at("/v1/customers"), { id: id("The customer's id") }, ["id"]),
  op(
    "search_customers",
    "Search customers with Stripe's query language (fields: email, name, phone, metadata, created).",
    "GET",
    fixed("/v1/customers/search"),
    searchArgs,
  ),
  op(
    "list_customer_payment_methods",
    "List the payment methods attached to a customer.",
    "GET",
    at("/v1/customers", "customer", "/payment_methods"),
    { customer: id("The customer's id"), ...listArgs },
    ["customer"],
  ),
  op(
    "get_customer_payment_method",
    "Retrieve one payment method of a customer.",
    "GET",
    (a) => `/v1/customers/${seg(String(a.customer))}/payment_methods/${seg(String(a.payment_method))}`,
    { customer: id("The customer's id"), payment_method: id("The payment method's id") },
    ["customer", "payment_method"],
  ),
  op("list_payment_methods", "List payment methods, optionally a customer's.", "GET", fixed("/v1/payment_methods"), {
    ...listArgs,
    customer: z.string().optional().describe("Only this customer's payment methods"),
  }),
  op(
    "get_payment_method",
    "Retrieve a payment method: its card brand, last four digits and expiry.",
    "GET",
    at("/v1/payment_methods"),
    { id: id("The payment method's id") },
    ["id"],
  ),
  op(
    "update_payment_method",
    "Update a payment method's metadata.",
    "POST",
    at("/v1/payment_methods"),
    { id: id("The payment method's id"), metadata },
    ["id"],
  ),
  op(
    "attach_payment_method",
    "Attach a payment method (or a test token such as pm_card_visa) to a customer.",
    "POST",
    at("/v1/payment_methods", "id", "/attach"),
    { id: id("The payment method's id or a test token"), customer: id("The customer's id") },
    ["id"],
  ),
  op(
    "detach_payment_method",
    "Detach a payment method from its customer.",
    "POST",
    at("/v1/payment_methods", "id", "/detach"),
    { id: id("The payment method's id") },
    ["id"],
  ),
  op(
    "create_payment_intent",
    "Create a payment intent for an amount; with confirm: true and a payment_method it is charged at once.",
    "POST",
    fixed("/v1/payment_intents"),
    {
      amount,
      currency,
      customer: z.string().optional().describe("The paying customer's id"),
      payment_method: z.string().optional().describe("A payment method id or test token, e.g. pm_card_visa"),
      confirm: z.boolean().optional().describe("Confirm immediately"),
      capture_method: z.enum(["automatic", "automatic_async", "manual"]).optional().describe("manual: authorize now, capture later"),
      description: z.string().optional().describe("An arbitrary description"),
      metadata,
      ...redirectArgs,
      off_session: z.boolean().optional().describe("The customer is not present (a saved card charged later): no return_url needed"),
    },
  ),
  op(
    "get_payment_intent",
    "Retrieve a payment intent: its status, amount and latest charge.",
    "GET",
    at("/v1/payment_intents"),
    { id: id("The payment intent's id, pi_…") },
    ["id"],
  ),
  op("list_payment_intents", "List payment intents, newest first, optionally a customer's.", "GET", fixed("/v1/payment_intents"), {
    ...listArgs,
    customer: z.string().optional().describe("Only this customer's"),
  }),
  op(
    "update_payment_intent",
    "Update a payment intent's amount, payment method, description or metadata before it is confirmed.",
    "POST",
    at("/v1/payment_intents"),
    {
      id: id("The payment intent's id"),
      amount: amount.optional(),
      payment_method: z.string().optional().describe("A payment method id or test token"),
      description: z.string().optional().describe("Description"),
      metadata,
    },
    ["id"],
  ),
  op(
    "confirm_payment_intent",
    "Confirm a payment intent, charging its payment method (a declined card answers a card_error).",
    "POST",
    at("/v1/payment_intents", "id", "/confirm"),
    {
      id: id("The payment intent's id"),
      payment_method: z.string().optional().describe("A payment method id or test token"),
      return_url: redirectArgs.return_url,
      off_session: z.boolean().optional().describe("The customer is not present: no return_url needed"),
    },
    ["id"],
  ),
  op(
    "capture_payment_intent",
    "Capture an authorized payment intent, all of it or amount_to_capture.",
    "POST",
    at("/v1/payment_intents", "id", "/capture"),
    { id: id("The payment intent's id"), amount_to_capture: amount.optional() },
    ["id"],
  ),
  op(
    "cancel_payment_intent",
    "Cancel a payment intent that has not succeeded.",
    "POST",
    at("/v1/payment_intents", "id", "/cancel"),
    {
      id: id("The payment intent's id"),
      cancellation_reason: z.enum(["duplicate", "fraudulent", "requested_by_customer", "abandoned"]).optional().describe("Why"),
    },
    ["id"],
    { destructive: true },
  ),
  op(
    "search_payment_intents",
    "Search payment intents (fields: amount, currency, customer, status, metadata, created).",
    "GET",
    fixed("/v1/payment_intents/search"),
    searchArgs,
  ),
  op("list_charges", "List charges, newest first, optionally a customer's or a payment intent's.", "GET", fixed("/v1/charges"), {
    ...listArgs,
    customer: z.string().optional().describe("Only this customer's"),
    payment_intent: z.string().optional().describe("Only this payment intent's"),
  }),
  op(
    "get_charge",
    "Retrieve a charge: amount, amount_captured, amount_refunded, refunded, status.",
    "GET",
    at("/v1/charges"),
    { id: id("The charge's id, ch_…") },
    ["id"],
  ),
  op(
    "update_charge",
    "Update a charge's description or metadata.",
    "POST",
    at("/v1/charges"),
    { id: id("The charge's id"), description: z.string().optional().describe("Description"), metadata },
    ["id"],
  ),
  op(
    "capture_charge",
    "Capture an uncaptured charge, all of it or amount.",
    "POST",
    at("/v1/charges", "id", "/capture"),
    { id: id("The charge's id"), amount: amount.optional() },
    ["id"],
  ),
  op(
    "search_charges",
    "Search charges (fields: amount, currency, customer, status, refunded, disputed, payment_intent, metadata, created).",
    "GET",
    fixed("/v1/charges/search"),
    searchArgs,
  ),
  op("create_refund", "Refund a charge or a payment intent, fully or an amount of it.", "POST", fixed("/v1/refunds"), {
    charge: z.string().optional().describe("The charge to refund"),
    payment_intent: z.string().optional().describe("The payment intent whose charge to refund"),
    amount: amount.optional(),
    reason: z.enum(["duplicate", "fraudulent", "requested_by_customer"]).optional().describe("Why the refund is made"),
    metadata,
  }),
  op("list_refunds", "List refunds, newest first, optionally a charge's or a payment intent's.", "GET", fixed("/v1/refunds"), {
    ...listArgs,
    charge: z.string().optional().describe("Only this charge's"),
    payment_intent: z.string().optional().describe("Only this payment intent's"),
  }),
  op("get_refund", "Retrieve a refund.", "GET", at("/v1/refunds"), { id: id("The refund's id, re_…") }, ["id"]),
  op("update_refund", "Update a refund's metadata.", "POST", at("/v1/refunds"), { id: id("The refund's id"), metadata }, ["id"]),
  op(
    "cancel_refund",
    "Cancel a refund that requires action.",
    "POST",
    at("/v1/refunds", "id", "/cancel"),
    { id: id("The refund's id") },
    ["id"],
    { destructive: true },
  ),
  op("create_product", "Create a product.", "POST", fixed("/v1/products"), {
    name: z.string().min(1).describe("The product's name"),
    description: z.string().optional().describe("Description"),
    active: z.boolean().optional().describe("Whether it can be bought"),
    metadata,
  }),
  op("list_products", "List products, newest first.", "GET", fixed("/v1/products"), {
    ...listArgs,
    active: z.boolean().optional().describe("Only active or inactive ones"),
  }),
  op("get_product", "Retrieve a product.", "GET", at("/v1/products"), { id: id("The product's id, prod_…") }, ["id"]),
  op(
    "update_product",
    "Update a product's name, description, active flag or metadata.",
    "POST",
    at("/v1/products"),
    {
      id: id("The product's id"),
      name: z.string().optional().describe("Name"),
      description: z.string().optional().describe("Description"),
      active: z.boolean().optional().describe("Active"),
      metadata,
    },
    ["id"],
  ),
  op("delete_product", "Delete a product that has no prices.", "DELETE", at("/v1/products"), { id: id("The product's id") }, ["id"]),
  op("search_products", "Search products (fields: name, description, active, metadata).", "GET", fixed("/v1/products/search"), searchArgs),
  op("create_price", "Create a price for a product: one-off, or recurring with recurring.interval.", "POST", fixed("/v1/prices"), {
    product: id("The product's id"),
    currency,
    unit_amount: z.number().int().min(0).describe("Price per unit in the smallest currency unit"),
    recurring: z
      .strictObject({
        interval: z.enum(["day", "week", "month", "year"]).describe("Billing interval"),
        interval_count: z.number().int().min(1).optional().describe("Intervals per period"),
      })
      .optional()
      .describe("Makes the price recurring"),
    nickname: z.string().optional().describe("A short internal name"),
    metadata,
  }),
  op("list_prices", "List prices, optionally a product's or only active ones.", "GET", fixed("/v1/prices"), {
    ...listArgs,
    product: z.string().optional().describe("Only this product's"),
    active: z.boolean().optional().describe("Only active or inactive ones"),
    type: z.enum(["one_time", "recurring"]).optional().describe("Only this type"),
  }),
  op("get_price", "Retrieve a price.", "GET", at("/v1/prices"), { id: id("The price's id, price_…") }, ["id"]),
  op(
    "update_price",
    "Update a price's active flag, nickname or metadata.",
    "POST",
    at("/v1/prices"),
    {
      id: id("The price's id"),
      active: z.boolean().optional().describe("Active"),
      nickname: z.string().optional().describe("Nickname"),
      metadata,
    },
    ["id"],
  ),
  op(
    "search_prices",
    "Search prices (fields: active, currency, product, type, lookup_key, metadata).",
    "GET",
    fixed("/v1/prices/search"),
    searchArgs,
  ),
  op("create_coupon", "Create a coupon: percent_off, or amount_off with currency.", "POST", fixed("/v1/coupons"), {
    id: z.string().optional().describe("The code, e.g. SPRING25"),
    duration: z.enum(["once", "repeating", "forever"]).describe("How long it applies"),
    percent_off: z.number().positive().max(100).optional().describe("Percentage off"),
    amount_off: amount.optional(),
    currency: currency.optional(),
    duration_in_months: z.number().int().positive().optional().describe("Months, for repeating"),
    name: z.string().optional().describe("Display name"),
    metadata,
  }),
  op("list_coupons", "List coupons.", "GET", fixed("/v1/coupons"), listArgs),
  op("get_coupon", "Retrieve a coupon.", "GET", at("/v1/coupons"), { id: id("The coupon's id") }, ["id"]),
  op(
    "update_coupon",
    "Update a coupon's name or metadata.",
    "POST",
    at("/v1/coupons"),
    { id: id("The coupon's id"), name: z.string().optional().describe("Name"), metadata },
    ["id"],
  ),
  op("delete_coupon", "Delete a coupon.", "DELETE", at("/v1/coupons"), { id: id("The coupon's id") }, ["id"]),
  op(
    "create_subscription",
    "Subscribe a customer to recurring prices; the first invoice is charged to their default card.",
    "POST",
    fixed("/v1/subscriptions"),
    {
      customer: id("The customer's id"),
      items: itemsArg,
      default_payment_method: z.string().optional().describe("A payment method of the customer"),
      trial_period_days: z.number().int().positive().optional().describe("Days of free trial"),
      cancel_at_period_end: z.boolean().optional().describe("End at the period's end"),
      discounts: z
        .array(z.strictObject({ coupon: id("A coupon's id") }))
        .optional()
        .describe("Coupons to apply"),
      metadata,
    },
  ),
  op("list_subscriptions", "List subscriptions (not canceled ones unless status says so).", "GET", fixed("/v1/subscriptions"), {
    ...listArgs,
    customer: z.string().optional().describe("Only this customer's"),
    status: z
      .enum(["active", "all", "canceled", "ended", "incomplete", "past_due", "paused", "trialing", "unpaid"])
      .optional()
      .describe("Only this status"),
    price: z.string().optional().describe("Only those with this price"),
  }),
  op(
    "get_subscription",
    "Retrieve a subscription with its items and their current periods.",
    "GET",
    at("/v1/subscriptions"),
    { id: id("The subscription's id, sub_…") },
    ["id"],
  ),
  op(
    "update_subscription",
    "Update a subscription: item prices or quantities, cancel_at_period_end, default payment method, metadata.",
    "POST",
    at("/v1/subscriptions"),
    {
      id: id("The subscription's id"),
      items: z
        .array(
          z.strictObject({
            id: z.string().optional().describe("An existing item's id, si_…"),
            price: z.string().optional().describe("A recurring price"),
            quantity: z.number().int().min(0).optional().describe("Quantity"),
            deleted: z.boolean().optional().describe("Remove this item"),
          }),
        )
        .optional()
        .describe("Items to change or add"),
      cancel_at_period_end: z.boolean().optional().describe("Cancel at the end of the current period"),
      default_payment_method: z.string().optional().describe("A payment method of the customer"),
      metadata,
    },
    ["id"],
  ),
  op("cancel_subscription", "Cancel a subscription now.", "DELETE", at("/v1/subscriptions"), { id: id("The subscription's id") }, ["id"]),
  op(
    "resume_subscription",
    "Resume a paused subscription.",
    "POST",
    at("/v1/subscriptions", "id", "/resume"),
    { id: id("The subscription's id") },
    ["id"],
  ),
  op(
    "search_subscriptions",
    "Search subscriptions (fields: status, customer, metadata, created).",
    "GET",
    fixed("/v1/subscriptions/search"),
    searchArgs,
  ),
  op("list_subscription_items", "List a subscription's items.", "GET", fixed("/v1/subscription_items"), {
    subscription: id("The subscription's id"),
    ...listArgs,
  }),
  op("get_subscription_item", "Retrieve a subscription item.", "GET", at("/v1/subscription_items"), { id: id("The item's id, si_…") }, [
    "id",
  ]),
  op("create_invoice", "Create a draft invoice for a customer; add lines, then finalize and pay it.", "POST", fixed("/v1/invoices"), {
    customer: id("The customer's id"),
    description: z.string().optional().describe("Description"),
    collection_method: z.enum(["charge_automatically", "send_invoice"]).optional().describe("How it is collected"),
    days_until_due: z.number().int().positive().optional().describe("For send_invoice"),
    metadata,
  }),
  op("list_invoices", "List invoices, optionally a customer's, a subscription's or by status.", "GET", fixed("/v1/invoices"), {
    ...listArgs,
    customer: z.string().optional().describe("Only this customer's"),
    subscription: z.string().optional().describe("Only this subscription's"),
    status: z.enum(["draft", "open", "paid", "uncollectible", "void"]).optional().describe("Only this status"),
  }),
  op("get_invoice", "Retrieve an invoice with its lines and totals.", "GET", at("/v1/invoices"), { id: id("The invoice's id, in_…") }, [
    "id",
  ]),
  op(
    "list_invoice_lines",
    "List an invoice's lines.",
    "GET",
    at("/v1/invoices", "id", "/lines"),
    { id: id("The invoice's id"), ...listArgs },
    ["id"],
  ),
  op(
    "update_invoice",
    "Update a draft invoice's description or metadata.",
    "POST",
    at("/v1/invoices"),
    { id: id("The invoice's id"), description: z.string().optional().describe("Description"), metadata },
    ["id"],
  ),
  op(
    "add_invoice_lines",
    "Add lines to a draft invoice: an amount with a description, or a price and quantity.",
    "POST",
    at("/v1/invoices", "id", "/add_lines"),
    {
      id: id("The invoice's id"),
      lines: z
        .array(
          z.strictObject({
            amount: z.number().int().optional().describe("Amount in the smallest unit"),
            description: z.string().optional().describe("Line description"),
            pricing: z
              .strictObject({ price: id("A price's id") })
              .optional()
              .describe("Bill a price"),
            quantity: z.number().int().positive().optional().describe("Quantity"),
          }),
        )
        .min(1)
        .describe("Lines to add"),
    },
    ["id"],
  ),
  op(
    "finalize_invoice",
    "Finalize a draft invoice so it can be paid.",
    "POST",
    at("/v1/invoices", "id", "/finalize"),
    { id: id("The invoice's id") },
    ["id"],
  ),
  op(
    "pay_invoice",
    "Pay an open invoice with the customer's default card (or paid_out_of_band).",
    "POST",
    at("/v1/invoices", "id", "/pay"),
    {
      id: id("The invoice's id"),
      payment_method: z.string().optional().describe("A payment method to charge"),
      paid_out_of_band: z.boolean().optional().describe("Mark paid outside Stripe"),
    },
    ["id"],
  ),
  op("void_invoice", "Void an open invoice.", "POST", at("/v1/invoices", "id", "/void"), { id: id("The invoice's id") }, ["id"], {
    destructive: true,
  }),
  op(
    "mark_invoice_uncollectible",
    "Mark an open invoice uncollectible.",
    "POST",
    at("/v1/invoices", "id", "/mark_uncollectible"),
    { id: id("The invoice's id") },
    ["id"],
  ),
  op("delete_invoice", "Delete a draft invoice.", "DELETE", at("/v1/invoices"), { id: id("The invoice's id") }, ["id"]),
  op(
    "search_invoices",
    "Search invoices (fields: customer, status, subscription, total, number, metadata, created).",
    "GET",
    fixed("/v1/invoices/search"),
    searchArgs,
  ),
  op(
    "list_invoice_payments",
    "List the payments made on invoices (each names its PaymentIntent), optionally one invoice's.",
    "GET",
    fixed("/v1/invoice_payments"),
    {
      ...listArgs,
      invoice: z.string().optional().describe("Only this invoice's payments"),
      status: z.enum(["open", "paid", "canceled"]).optional().describe("Only this status"),
    },
  ),
  op(
    "get_invoice_payment",
    "Retrieve an invoice payment.",
    "GET",
    at("/v1/invoice_payments"),
    { id: id("The invoice payment's id, inpay_…") },
    ["id"],
  ),
  op("get_balance", "Retrieve the account balance, available and pending, per currency.", "GET", fixed("/v1/balance"), {}),
  op(
    "list_balance_transactions",
    "List balance transactions (charges, refunds, dispute adjustments) with fees and net.",
    "GET",
    fixed("/v1/balance_transactions"),
    {
      ...listArgs,
      type: z.string().optional().describe("Only this type, e.g. refund"),
      source: z.string().optional().describe("Only this source's"),
    },
  ),
  op(
    "get_balance_transaction",
    "Retrieve a balance transaction.",
    "GET",
    at("/v1/balance_transactions"),
    { id: id("The transaction's id, txn_…") },
    ["id"],
  ),
  op("list_disputes", "List disputes, optionally a charge's or a payment intent's.", "GET", fixed("/v1/disputes"), {
    ...listArgs,
    charge: z.string().optional().describe("Only this charge's"),
    payment_intent: z.string().optional().describe("Only this payment intent's"),
  }),
  op("get_dispute", "Retrieve a dispute.", "GET", at("/v1/disputes"), { id: id("The dispute's id, dp_…") }, ["id"]),
  op(
    "update_dispute",
    "Add evidence or metadata to a dispute, or submit it.",
    "POST",
    at("/v1/disputes"),
    {
      id: id("The dispute's id"),
      evidence: z.record(z.string(), z.string()).optional().describe("Evidence fields, e.g. uncategorized_text"),
      submit: z.boolean().optional().describe("Submit the evidence"),
      metadata,
    },
    ["id"],
  ),
  op(
    "close_dispute",
    "Close a dispute, accepting the loss.",
    "POST",
    at("/v1/disputes", "id", "/close"),
    { id: id("The dispute's id") },
    ["id"],
    { destructive: true },
  ),
  op("list_events", "List events (every state change), newest first, optionally of one type.", "GET", fixed("/v1/events"), {
    ...listArgs,
    type: z.string().optional().describe("Only this type, e.g. charge.refunded (a * matches any part)"),
  }),
  op("get_event", "Retrieve an event.", "GET", at("/v1/events"), { id: id("The event's id, evt_…") }, ["id"]),
  op(
    "create_webhook_endpoint",
    "Register a URL that receives signed event webhooks; answers the signing secret once.",
    "POST",
    fixed("/v1/webhook_endpoints"),
    {
      url: z.string().url().describe("Where events are POSTed"),
      enabled_events: z.array(z.string()).min(1).describe('Event types, or ["*"] for all'),
      description: z.string().optional().describe("Description"),
      metadata,
    },
  ),
  op("list_webhook_endpoints", "List webhook endpoints.", "GET", fixed("/v1/webhook_endpoints"), listArgs),
  op("get_webhook_endpoint", "Retrieve a webhook endpoint.", "GET", at("/v1/webhook_endpoints"), { id: id("The endpoint's id, we_…") }, [
    "id",
  ]),
  op(
    "update_webhook_endpoint",
    "Update a webhook endpoint's URL, events, or disable it.",
    "POST",
    at("/v1/webhook_endpoints"),
    {
      id: id("The endpoint's id"),
      url: z.string().url().optional().describe("URL"),
      enabled_events: z.array(z.string()).optional().describe("Event types"),
      disabled: z.boolean().optional().describe("Disable it"),
    },
    ["id"],
  ),
  op("delete_webhook_endpoint", "Delete a webhook endpoint.", "DELETE", at("/v1/webhook_endpoints"), { id: id("The endpoint's id") }, [
    "id",
  ]),
  op(
    "create_test_clock",
    "Create a test clock frozen at a unix time; customers created on it follow it.",
    "POST",
    fixed("/v1/test_helpers/test_clocks"),
    { frozen_time: z.number().int().describe("Unix seconds"), name: z.string().optional().describe("Name") },
  ),
  op("list_test_clocks", "List test clocks.", "GET", fixed("/v1/test_helpers/test_clocks"), listArgs),
  op("get_test_clock", "Retrieve a test clock.", "GET", at("/v1/test_helpers/test_clocks"), { id: id("The clock's id, clock_…") }, ["id"]),
  op(
    "advance_test_clock",
    "Advance a test clock: its subscriptions renew, invoice and charge through every period passed.",
    "POST",
    at("/v1/test_helpers/test_clocks", "id", "/advance"),
    { id: id("The clock's id"), frozen_time: z.number().int().describe("The new unix time, after the current one") },
    ["id"],
  ),
  op(
    "delete_test_clock",
    "Delete a test clock and the customers on it.",
    "DELETE",
    at("/v1/test_helpers/test_clocks"),
    { id: id("The clock's id") },
    ["id"],
  ),
  op(
    "create_payment_method",
    "Create a card payment method from a test token (card.token: tok_visa, tok_chargeDeclined, …).",
    "POST",
    fixed("/v1/payment_methods"),
    { type: z.literal("card"), card: z.object({ token: z.string().describe("A test token, e.g. tok_visa") }), metadata },
  ),
  op(
    "create_setup_intent",
    "Create a SetupIntent to save a card for later; with confirm: true and a payment_method it is saved to the customer at once.",
    "POST",
    fixed("/v1/setup_intents"),
    {
      customer: z.string().optional().describe("The customer the card is saved to"),
      payment_method: z.string().optional().describe("A payment method id or test token, e.g. pm_card_visa"),
      confirm: z.boolean().optional().describe("Confirm immediately"),
      usage: z.enum(["on_session", "off_session"]).optional(),
      description: z.string().optional(),
      metadata,
      ...redirectArgs,
    },
  ),
  op("get_setup_intent", "Retrieve a SetupIntent.", "GET", at("/v1/setup_intents"), { id: id("The SetupIntent's id, seti_…") }, ["id"]),
  op(
    "update_setup_intent",
    "Update a SetupIntent's payment method, customer, description or metadata.",
    "POST",
    at("/v1/setup_intents"),
    {
      id: id("The SetupIntent's id"),
      payment_method: z.string().optional(),
      customer: z.string().optional(),
      description: z.string().optional(),
      metadata,
    },
    ["id"],
  ),
  op("list_setup_intents", "List SetupIntents, newest first.", "GET", fixed("/v1/setup_intents"), {
    ...listArgs,
    customer: z.string().optional().describe("Only this customer's"),
    payment_method: z.string().optional().describe("Only those with this payment method"),
  }),
  op(
    "confirm_setup_intent",
    "Confirm a SetupIntent: on success its card is attached to its customer; authentication cards answer requires_action.",
    "POST",
    at("/v1/setup_intents", "id", "/confirm"),
    { id: id("The SetupIntent's id"), payment_method: z.string().optional(), return_url: redirectArgs.return_url },
    ["id"],
  ),
  op(
    "cancel_setup_intent",
    "Cancel a SetupIntent that has not succeeded.",
    "POST",
    at("/v1/setup_intents", "id", "/cancel"),
    { id: id("The SetupIntent's id"), cancellation_reason: z.enum(["abandoned", "duplicate", "requested_by_customer"]).optional() },
    ["id"],
    { destructive: true },
  ),
  op(
    "create_checkout_session",
    "Create a Checkout Session (payment, subscription or setup mode): its url is the hosted payment page.",
    "POST",
    fixed("/v1/checkout/sessions"),
    {
      mode: z.enum(["payment", "subscription", "setup"]).optional().describe("payment (default), subscription or setup"),
      line_items: lineItems.optional(),
      customer: z.string().optional().describe("An existing customer's id"),
      customer_email: z.string().optional().describe("Prefills the email of a new customer"),
      success_url: z.string().optional(),
      cancel_url: z.string().optional(),
      client_reference_id: z.string().optional().describe("Your own reference, e.g. an order id"),
      currency: z.string().optional().describe("Needed in setup mode only"),
      metadata,
    },
  ),
  op("get_checkout_session", "Retrieve a Checkout Session.", "GET", at("/v1/checkout/sessions"), { id: id("The session's id, cs_…") }, [
    "id",
  ]),
  op("list_checkout_sessions", "List Checkout Sessions, newest first.", "GET", fixed("/v1/checkout/sessions"), {
    ...listArgs,
    customer: z.string().optional(),
    payment_intent: z.string().optional(),
    payment_link: z.string().optional(),
    status: z.enum(["open", "complete", "expired"]).optional(),
  }),
  op(
    "update_checkout_session",
    "Update a Checkout Session's metadata.",
    "POST",
    at("/v1/checkout/sessions"),
    { id: id("The session's id"), metadata },
    ["id"],
  ),
  op(
    "list_checkout_session_line_items",
    "List a Checkout Session's line items.",
    "GET",
    at("/v1/checkout/sessions", "id", "/line_items"),
    { id: id("The session's id"), ...listArgs },
    ["id"],
  ),
  op(
    "expire_checkout_session",
    "Expire an open Checkout Session so it can no longer be paid.",
    "POST",
    at("/v1/checkout/sessions", "id", "/expire"),
    { id: id("The session's id") },
    ["id"],
    { destructive: true },
  ),
  op(
    "complete_checkout_session",
    "Test helper: complete an open Checkout Session as a paying customer would (payment, subscription or setup made; checkout.session.completed emitted).",
    "POST",
    at("/v1/test_helpers/checkout/sessions", "id", "/complete"),
    {
      id: id("The session's id"),
      payment_method: z.string().optional().describe("The card paid with; pm_card_visa by default"),
      email: z.string().optional(),
      name: z.string().optional(),
    },
    ["id"],
  ),
  op("create_payment_link", "Create a payment link: a shareable url selling these line items.", "POST", fixed("/v1/payment_links"), {
    line_items: z.array(z.object({ price: z.string(), quantity: z.number().int().min(1) })).min(1),
    metadata,
    allow_promotion_codes: z.boolean().optional(),
  }),
  op("get_payment_link", "Retrieve a payment link.", "GET", at("/v1/payment_links"), { id: id("The link's id, plink_…") }, ["id"]),
  op(
    "update_payment_link",
    "Update a payment link: deactivate it (active: false) or change its metadata.",
    "POST",
    at("/v1/payment_links"),
    { id: id("The link's id"), active: z.boolean().optional(), metadata },
    ["id"],
  ),
  op("list_payment_links", "List payment links.", "GET", fixed("/v1/payment_links"), { ...listArgs, active: z.boolean().optional() }),
  op(
    "list_payment_link_line_items",
    "List a payment link's line items.",
    "GET",
    at("/v1/payment_links", "id", "/line_items"),
    { id: id("The link's id"), ...listArgs },
    ["id"],
  ),
];

/** Routes without a tool of their own, and why. */
export const stripeUntooled: Readonly<Record<string, string>> = {
  "charges.listRefunds": "the same list as list_refunds with its charge argument",
};
