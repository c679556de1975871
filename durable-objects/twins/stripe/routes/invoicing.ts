// Invoice items (create, retrieve, update, delete, list) and sending an invoice. A pending item
// (on no invoice) waits for the next invoice made for its customer that pulls pending items in;
// an item created on a draft invoice is a line of it at once.
import type { Route, TwinResponse } from "../../types";
import { filterOf, listResponse, load, ok, show, type Call } from "../call";
import { arg, expand, idParam, listQuery, metadata, route } from "../declare";
import { fail, invalidRequest, missingParam, stateError } from "../errors";
import { emit } from "../events";
import { buildInvoiceItem, isLineOf, itemAmount, lineIdOf, lineOfItem } from "../invoice-items";
import { linesOf } from "../seed";
import { at, nowFor, withTotals } from "../billing";
import { taxRateIds } from "../tax";
import { previewInvoice } from "../invoice-preview";
import { deleteObject, getObject, insertObject, newId, num, rec, saveObject, str, strMap, type Rec } from "../store";

/** The price an item bills: `pricing[price]`, or `price` as API versions before 2025-03-31 name it. */
function priceOf(c: Call): Rec | undefined {
  const fromPricing = c.p.sub("pricing")?.str("price");
  const old = c.p.str("price");
  if (fromPricing && old) fail(invalidRequest("You may only specify one of these parameters: price, pricing.", { param: "price" }));
  const id = fromPricing ?? old;
  if (!id) return undefined;
  const param = fromPricing ? "pricing[price]" : "price";
  const price = load(c, "price", id, param);
  // Recurring prices are billed by subscriptions; an invoice item takes one-off prices only.
  if (price.type === "recurring")
    fail(
      invalidRequest("The price specified is set to `type=recurring` but this field only accepts prices with `type=one_time`.", { param }),
    );
  return price;
}

/** The draft invoice an item goes on, refused when it is not the customer's or not a draft. */
function draftInvoice(c: Call, id: string, customer: unknown): Rec {
  const inv = load(c, "invoice", id, "invoice");
  if (customer !== undefined && inv.customer !== customer)
    fail(invalidRequest(`The invoice ${id} does not belong to the customer ${String(customer)}.`, { param: "invoice" }));
  if (inv.status !== "draft")
    fail(
      stateError(
        `You can only add invoice items to draft invoices; this invoice is ${String(inv.status)}.`,
        "invoice_not_editable",
        "invoice",
      ),
    );
  return inv;
}

/** Puts the item's line on its invoice (replacing the line it had) or takes it off, and recomputes. */
function syncLine(c: Call, item: Rec, remove = false): void {
  const invId = str(item.invoice);
  const inv = invId ? getObject(c.db, "invoice", invId) : undefined;
  if (!inv) return;
  const others = linesOf(inv).filter((l) => !isLineOf(l, String(item.id)));
  const lines = remove ? others : [...others, lineOfItem(item, String(inv.id), lineIdOf(item))];
  saveObject(c.db, "invoice", withTotals(c, inv, lines));
}

/**
 * The amount, quantity and pricing of an item from the call; for an update, over what it had
 * (`before`): nothing when the call names none of them, and the unit amount it had when only the
 * quantity changes.
 */
function pricingFrom(c: Call, currency: string | undefined, before?: Rec): Rec {
  const price = priceOf(c);
  const data = c.p.sub("price_data");
  if (price && data) fail(invalidRequest("You may only specify one of these parameters: price, price_data.", { param: "price_data" }));
  const amount = c.p.int("amount");
  if (price && amount !== undefined)
    fail(invalidRequest("You may only specify one of these parameters: amount, price.", { param: "amount" }));
  const dataCurrency = data ? data.reqCurrency("currency") : undefined;
  if (data) load(c, "product", data.req("product"), "price_data[product]");
  const unitDecimal = c.p.str("unit_amount_decimal") ?? data?.str("unit_amount_decimal");
  const unitAmount = c.p.int("unit_amount") ?? data?.int("unit_amount");
  const quantity = c.p.int("quantity");
  const newUnit = price || data || amount !== undefined || unitDecimal !== undefined || unitAmount !== undefined;
  if (before && !newUnit && quantity === undefined) return {};
  const kept = before && !newUnit ? rec(before.pricing) : {};
  const keptUnit =
    str(kept.unit_amount_decimal) ?? (typeof kept.unit_amount_decimal === "number" ? String(kept.unit_amount_decimal) : undefined);
  const money = itemAmount(
    { amount, quantity, unitAmount, unitDecimal: unitDecimal ?? keptUnit },
    price ? num(price.unit_amount) : undefined,
  );
  const productId = price ? str(price.product) : data?.str("product");
  const details = price
    ? { price_details: { price: price.id, product: productId ?? null } }
    : kept.price_details
      ? { price_details: kept.price_details }
      : {};
  const priced = price || data || unitDecimal !== undefined || unitAmount !== undefined || keptUnit !== undefined;
  return {
    amount: money.amount,
    net_amount: money.amount,
    quantity: money.quantity,
    quantity_decimal: String(money.quantity),
    pricing: priced ? { ...details, type: "price_details", unit_amount_decimal: money.unitDecimal } : null,
    currency: str(price?.currency) ?? dataCurrency ?? currency,
    productName: productId ? str(getObject(c.db, "product", productId)?.name) : undefined,
  };
}

function periodFrom(c: Call, fallback: Rec): Rec {
  const period = c.p.sub("period");
  return period ? { end: period.reqInt("end"), start: period.reqInt("start") } : fallback;
}

function createItem(c0: Call): TwinResponse {
  const invoiceId = c0.p.str("invoice");
  const given = c0.p.str("customer");
  const invoice = invoiceId ? draftInvoice(c0, invoiceId, given) : undefined;
  const customerId = given ?? str(invoice?.customer) ?? fail(missingParam("customer"));
  const customer = load(c0, "customer", customerId, "customer");
  const c = at(c0, nowFor(c0, customer.id));
  const subId = c.p.str("subscription");
  const sub = subId ? load(c, "subscription", subId, "subscription") : undefined;
  if (sub && sub.customer !== customer.id)
    return invalidRequest(`The subscription ${String(subId)} does not belong to customer ${String(customer.id)}.`, {
      param: "subscription",
    });
  const currency = c.p.currency("currency") ?? str(invoice?.currency) ?? str(sub?.currency) ?? str(customer.currency);
  const { productName, ...money } = pricingFrom(c, currency);
  if (!money.currency) return missingParam("currency");
  if (invoice && money.currency !== invoice.currency)
    return invalidRequest("The currency of the invoice item must match the invoice's currency.", { param: "currency" });
  const rates = taxRateIds(c, c.p.strList("tax_rates"), "tax_rates") ?? [];
  const item = buildInvoiceItem(
    {
      ...money,
      customer: customer.id,
      description: c.p.str("description") ?? productName ?? null,
      discountable: c.p.bool("discountable") ?? true,
      invoice: invoice?.id ?? null,
      metadata: c.p.metadata(),
      parent: sub ? { subscription_details: { subscription: sub.id }, type: "subscription_details" } : null,
      period: periodFrom(c, { end: c.now, start: c.now }),
      tax_rates: rates.map((id) => getObject(c.db, "tax_rate", id)),
      test_clock: customer.test_clock ?? null,
    },
    { id: newId(c.db, "invoiceitem"), created: c.now },
  );
  insertObject(c.db, "invoiceitem", item);
  syncLine(c, item);
  emit(c, "invoiceitem.created", "invoiceitem", item);
  return show(c, "invoiceitem", item);
}

/** An item on a finalized invoice is frozen with it. */
function editable(c: Call, item: Rec, verb: string): void {
  const invId = str(item.invoice);
  const inv = invId ? getObject(c.db, "invoice", invId) : undefined;
  if (inv && inv.status !== "draft")
    fail(
      stateError(
        `You can only ${verb} invoice items that are pending or on a draft invoice; invoice ${String(inv.id)} is ${String(inv.status)}.`,
        "invoice_not_editable",
      ),
    );
}

function updateItem(c: Call): TwinResponse {
  const before = load(c, "invoiceitem", c.ctx.params.id);
  editable(c, before, "update");
  const { productName: _name, ...money } = pricingFrom(c, str(before.currency), before);
  if (money.currency && money.currency !== before.currency)
    return invalidRequest("The currency of an invoice item cannot be changed.", { param: "currency" });
  const description = c.p.nullable("description");
  const rates = taxRateIds(c, c.p.strList("tax_rates"), "tax_rates");
  const after: Rec = {
    ...before,
    ...money,
    currency: before.currency,
    ...(description !== undefined ? { description } : {}),
    ...(c.p.has("discountable") ? { discountable: c.p.bool("discountable") } : {}),
    ...(rates ? { tax_rates: rates.map((id) => getObject(c.db, "tax_rate", id)) } : {}),
    metadata: c.p.metadata(strMap(before.metadata)),
    period: periodFrom(c, rec(before.period)),
  };
  saveObject(c.db, "invoiceitem", after);
  syncLine(c, after);
  return show(c, "invoiceitem", after);
}

const pricingArg = arg.hash({ price: arg.text("A price's id: the item bills its unit amount times quantity") }, "The price billed");
const priceDataArg = arg.hash(
  {
    currency: arg.text("Three-letter ISO currency code"),
    product: arg.text("The product's id"),
    unit_amount: arg.int("Unit amount in the smallest unit"),
    unit_amount_decimal: arg.text("Unit amount as a decimal string, in the smallest unit"),
    tax_behavior: arg.oneOf(["exclusive", "inclusive", "unspecified"], "Whether the price includes tax"),
  },
  "An inline price for this item",
);
const itemFields = {
  amount: arg.int("The whole item's amount in the smallest unit (not with quantity)"),
  description: arg.unsettable("Description shown on the invoice"),
  discountable: arg.bool("Whether invoice discounts apply to it"),
  metadata,
  period: arg.hash({ start: arg.int("Unix start"), end: arg.int("Unix end") }, "The period the item covers"),
  pricing: pricingArg,
  price: arg.text("A price's id (the parameter's name before API version 2025-03-31; pricing[price] now)"),
  price_data: priceDataArg,
  quantity: arg.int("How many units (with a price or unit amount)"),
  unit_amount: arg.int("Unit amount in the smallest unit (older API versions)"),
  unit_amount_decimal: arg.text("Unit amount as a decimal string, in the smallest unit"),
  tax_rates: arg.strings("Tax rates applied to this item"),
  tax_behavior: arg.oneOf(["exclusive", "inclusive", "unspecified"], "Whether the amount includes tax"),
  expand,
};

const previewItems = arg.list(
  {
    amount: arg.int("The item's amount"),
    currency: arg.text("Currency"),
    description: arg.text("Description"),
    price: arg.text("A one-off price's id"),
    pricing: pricingArg,
    quantity: arg.int("Quantity"),
    unit_amount_decimal: arg.text("Unit amount as a decimal string"),
  },
  "One-off items the previewed invoice would also carry",
);

/** What a preview takes: POST /v1/invoices/create_preview's body, GET /v1/invoices/upcoming's query. */
const previewParams = {
  customer: arg.text("The customer whose next invoice is previewed"),
  subscription: arg.text("The subscription whose next invoice is previewed"),
  subscription_details: arg.hash(
    {
      items: arg.list(
        {
          id: arg.text("An existing item's id, to change or delete"),
          price: arg.text("A recurring price's id"),
          quantity: arg.int("Quantity"),
          deleted: arg.bool("Remove the item"),
        },
        "The items as they would be after a change",
      ),
      proration_behavior: arg.oneOf(["always_invoice", "create_prorations", "none"], "How the change would be prorated"),
      proration_date: arg.int("Unix time the prorations are computed at; pass the same to the update"),
    },
    "A change to preview: its prorations and next invoice",
  ),
  invoice_items: previewItems,
  discounts: arg.list(
    { coupon: arg.text("A coupon's id"), promotion_code: arg.text("A promotion code's id") },
    "Discounts the previewed invoice would carry",
  ),
  currency: arg.text("Currency, for a customer with none"),
  preview_mode: arg.oneOf(["next", "recurring"], "Preview the next invoice or a recurring one"),
  automatic_tax: arg.hash({ enabled: arg.bool("Whether tax is computed") }, "Automatic tax"),
  expand,
};

/**
 * What `GET /v1/invoices/upcoming` took beside them before create_preview replaced it (spec3.json
 * 2024-04-10): the subscription change named at the top level, and one coupon.
 */
const upcomingParams = {
  ...previewParams,
  subscription_items: arg.list(
    {
      id: arg.text("An existing item's id, to change or delete"),
      price: arg.text("A recurring price's id"),
      quantity: arg.int("Quantity"),
      deleted: arg.bool("Remove the item"),
    },
    "The subscription's items as they would be after a change",
  ),
  subscription_proration_behavior: arg.oneOf(["always_invoice", "create_prorations", "none"], "How the change would be prorated"),
  subscription_proration_date: arg.int("Unix time the prorations are computed at"),
  coupon: arg.text("A coupon the previewed invoice would carry"),
};

/** A page of the upcoming invoice's lines, walked by line id as Stripe pages a list. */
function upcomingLines(c: Call): TwinResponse {
  const preview = previewInvoice(c, true);
  const lines = rec(preview.lines);
  const all = Array.isArray(lines.data) ? (lines.data as Rec[]) : [];
  const limit = c.p.int("limit") ?? 10;
  if (limit < 1 || limit > 100)
    return invalidRequest("This value must be greater than or equal to 1 and less than or equal to 100.", { param: "limit" });
  const after = c.p.str("starting_after");
  const before = c.p.str("ending_before");
  let from = 0;
  let to = all.length;
  if (after) from = all.findIndex((l) => l.id === after) + 1;
  if (before)
    to = Math.max(
      0,
      all.findIndex((l) => l.id === before),
    );
  const window = all.slice(from, to);
  const data = before ? window.slice(-limit) : window.slice(0, limit);
  return ok({ object: "list", data, has_more: window.length > data.length, url: String(lines.url).replace(/\?.*$/, "") });
}

export const invoicingRoutes: readonly Route[] = [
  // Before /v1/invoices/:id (billing.ts), so "upcoming" is not read as an invoice's id. No tool:
  // preview_invoice is the same preview (stripeUntooled).
  route({
    method: "GET",
    pattern: "/v1/invoices/upcoming",
    operation: "invoices.retrieveUpcoming",
    summary: "Retrieve the upcoming invoice (API versions before 2024-09-30; create_preview since)",
    query: upcomingParams,
    handler: (c) => show(c, "invoice", previewInvoice(c, true)),
  }),
  route({
    method: "GET",
    pattern: "/v1/invoices/upcoming/lines",
    operation: "invoices.listUpcomingLines",
    summary: "List the upcoming invoice's lines (API versions before 2024-09-30)",
    query: { ...upcomingParams, limit: listQuery.limit, starting_after: listQuery.starting_after, ending_before: listQuery.ending_before },
    handler: (c) => upcomingLines(c),
  }),
  route({
    method: "POST",
    pattern: "/v1/invoices/create_preview",
    operation: "invoices.createPreview",
    summary: "Preview an invoice",
    body: previewParams,
    tool: {
      name: "preview_invoice",
      description:
        "Preview a customer's or subscription's next invoice, optionally with a subscription change (subscription_details) and its prorations. Nothing is written.",
      readOnly: true,
    },
    handler: (c) => show(c, "invoice", previewInvoice(c)),
  }),
  route({
    method: "POST",
    pattern: "/v1/invoiceitems",
    operation: "invoiceItems.create",
    summary: "Create an invoice item",
    body: {
      customer: arg.text("The customer billed (required unless invoice names one)"),
      invoice: arg.text("A draft invoice to add it to; without one it waits for the customer's next invoice"),
      subscription: arg.text("A subscription whose next invoice takes it"),
      currency: arg.text("Three-letter ISO currency code"),
      ...itemFields,
    },
    tool: {
      name: "create_invoice_item",
      description:
        "Create an invoice item for a customer: an amount, or a price and quantity. On a draft invoice it is a line at once; otherwise it waits for the customer's next invoice.",
    },
    handler: (c) => createItem(c),
  }),
  route({
    method: "GET",
    pattern: "/v1/invoiceitems",
    operation: "invoiceItems.list",
    summary: "List invoice items",
    query: {
      ...listQuery,
      customer: arg.text("Only this customer's"),
      invoice: arg.text("Only this invoice's"),
      pending: arg.bool("Only items on no invoice yet (true) or only invoiced ones (false)"),
    },
    tool: { name: "list_invoice_items", description: "List invoice items, optionally a customer's, an invoice's or only pending ones." },
    handler(c, { query }) {
      const keep = (o: Rec) => query.pending === undefined || (o.invoice === null) === query.pending;
      return listResponse(
        c,
        "invoiceitem",
        "/v1/invoiceitems",
        [...filterOf(c, "customer", "customer"), ...filterOf(c, "invoice", "ref")],
        keep,
      );
    },
  }),
  route({
    method: "GET",
    pattern: "/v1/invoiceitems/:id",
    operation: "invoiceItems.retrieve",
    summary: "Retrieve an invoice item",
    params: idParam("The item's id, ii_…"),
    query: { expand },
    tool: { name: "get_invoice_item", description: "Retrieve an invoice item." },
    handler: (c, { params }) => show(c, "invoiceitem", load(c, "invoiceitem", params.id)),
  }),
  route({
    method: "POST",
    pattern: "/v1/invoiceitems/:id",
    operation: "invoiceItems.update",
    summary: "Update an invoice item",
    params: idParam("The item's id"),
    body: itemFields,
    tool: { name: "update_invoice_item", description: "Update a pending invoice item or one on a draft invoice." },
    handler: (c) => updateItem(c),
  }),
  route({
    method: "DELETE",
    pattern: "/v1/invoiceitems/:id",
    operation: "invoiceItems.del",
    summary: "Delete an invoice item",
    params: idParam("The item's id"),
    tool: { name: "delete_invoice_item", description: "Delete a pending invoice item or one on a draft invoice." },
    handler(c, { params }) {
      const item = load(c, "invoiceitem", params.id);
      editable(c, item, "delete");
      syncLine(c, item, true);
      const stub = deleteObject(c.db, "invoiceitem", String(item.id));
      emit(c, "invoiceitem.deleted", "invoiceitem", item);
      return ok(stub);
    },
  }),
  route({
    method: "POST",
    pattern: "/v1/invoices/:id/send",
    operation: "invoices.sendInvoice",
    summary: "Send an invoice",
    params: idParam("The invoice's id"),
    body: { expand },
    tool: { name: "send_invoice", description: "Email a finalized invoice to its customer (test mode sends no email)." },
    handler(c, { params }) {
      const inv = load(c, "invoice", params.id);
      // Stripe sends only finalized invoices: a draft must be finalized first, a void one is gone.
      if (inv.status === "draft" || inv.status === "void")
        return stateError(`You can only send an invoice that is finalized; this invoice is ${String(inv.status)}.`, "invoice_not_editable");
      emit(c, "invoice.sent", "invoice", inv);
      return show(c, "invoice", inv);
    },
  }),
];
