// Products, Prices (one-off and recurring) and Coupons.
import type { Route } from "../../types";
import { filterOf, listResponse, load, ok, show, type Call } from "../call";
import { arg, expand, idParam, listQuery, metadata, route } from "../declare";
import { fail, invalidRequest, noSuch } from "../errors";
import { changed, emit } from "../events";
import { buildCoupon, buildPrice, buildProduct } from "../objects";
import type { Params } from "../params";
import { dropObject, exists, getObject, insertObject, newId, saveObject, strMap, type Rec } from "../store";

function activeFilter(c: Call) {
  const active = c.p.bool("active");
  return active === undefined ? [] : [{ column: "status" as const, value: String(active) }];
}

/**
 * The billing meter a metered price bills from (`recurring[meter]`): it must exist, and only a
 * metered price takes one (docs.stripe.com/billing/subscriptions/usage-based/pricing-models).
 * Since 2025-03-31.basil a metered price must name one: "You can no longer create a price with a
 * usage_type of metered without a specified meter" (docs.stripe.com/changelog/basil/2025-03-31/
 * deprecate-legacy-usage-based-billing). The refusal's wording is the twin's (see NOTES.md).
 */
function meterOf(c: Call, recurring: Params): string | null {
  const id = recurring.str("meter");
  if (!id) {
    if (recurring.str("usage_type") === "metered")
      fail(
        invalidRequest("A price with `recurring[usage_type]=metered` must specify a billing meter in `recurring[meter]`.", {
          code: "parameter_missing",
          param: "recurring[meter]",
        }),
      );
    return null;
  }
  if (!getObject(c.db, "billing.meter", id)) fail(noSuch("billing meter", id, "recurring[meter]"));
  if (recurring.str("usage_type") !== "metered")
    fail(invalidRequest("A meter can only be set on a price with `recurring[usage_type]=metered`.", { param: "recurring[meter]" }));
  return id;
}

function priceFrom(c: Call, product: string): Rec {
  const recurring = c.p.sub("recurring");
  const unit = c.p.int("unit_amount");
  if (unit === undefined && c.p.str("custom_unit_amount") === undefined)
    fail(invalidRequest("Missing required param: unit_amount.", { code: "parameter_missing", param: "unit_amount" }));
  return buildPrice(
    {
      currency: c.p.reqCurrency("currency"),
      product,
      unit_amount: unit ?? null,
      metadata: c.p.metadata(),
      nickname: c.p.str("nickname") ?? null,
      lookup_key: c.p.str("lookup_key") ?? null,
      active: c.p.bool("active") ?? true,
      tax_behavior: c.p.oneOf("tax_behavior", ["exclusive", "inclusive", "unspecified"]) ?? "unspecified",
      recurring: recurring
        ? {
            interval:
              recurring.oneOf("interval", ["day", "week", "month", "year"]) ??
              fail(
                invalidRequest("Missing required param: recurring[interval].", { code: "parameter_missing", param: "recurring[interval]" }),
              ),
            interval_count: recurring.int("interval_count") ?? 1,
            usage_type: recurring.oneOf("usage_type", ["licensed", "metered"]) ?? "licensed",
            trial_period_days: recurring.int("trial_period_days") ?? null,
            meter: meterOf(c, recurring),
          }
        : null,
    },
    { id: newId(c.db, "price"), created: c.now },
  );
}

const productFields = {
  active: arg.bool("Whether it can be bought"),
  metadata,
  images: arg.strings("Up to eight image URLs"),
  statement_descriptor: arg.text("Text on the customer's statement"),
  tax_code: arg.text("A tax code id"),
  marketing_features: arg.list({ name: arg.text("The feature's name") }, "Features shown on pricing tables"),
  expand,
};

const recurringArg = arg.hash(
  {
    interval: arg.oneOf(["day", "week", "month", "year"], "Billing interval"),
    interval_count: arg.int("Intervals per period (default 1)"),
    usage_type: arg.oneOf(["licensed", "metered"], "licensed (default) or metered"),
    trial_period_days: arg.int("Trial days of subscriptions to this price"),
    meter: arg.text("The billing meter a metered price bills from, mtr_…"),
  },
  "Makes the price recurring",
);

const taxBehavior = arg.oneOf(["exclusive", "inclusive", "unspecified"], "Whether the price includes tax");

export const catalogRoutes: readonly Route[] = [
  route({
    method: "POST",
    pattern: "/v1/products",
    operation: "products.create",
    summary: "Create a product",
    body: {
      id: arg.text("The product's id (default: a generated prod_…)"),
      name: arg.id("The product's name"),
      description: arg.text("Description"),
      url: arg.text("A public URL of the product"),
      unit_label: arg.text("The unit it is sold in, on receipts and invoices"),
      shippable: arg.bool("Whether it is shipped"),
      default_price_data: arg.hash(
        {
          currency: arg.text("Three-letter ISO currency code"),
          unit_amount: arg.int("Price per unit in the smallest currency unit"),
          recurring: arg.hash({ interval: arg.text("Billing interval") }, "Makes the default price recurring"),
        },
        "A price created with the product, as its default price",
      ),
      ...productFields,
    },
    tool: { name: "create_product", description: "Create a product." },
    handler(c, { body }) {
      const id = body.id ?? newId(c.db, "product");
      if (exists(c.db, id)) return invalidRequest(`Product already exists.`, { code: "resource_already_exists", param: "id" });
      const product = buildProduct(
        {
          name: body.name,
          active: body.active ?? true,
          description: body.description ?? null,
          metadata: c.p.metadata(),
          images: c.p.strList("images") ?? [],
          url: body.url ?? null,
          unit_label: body.unit_label ?? null,
        },
        { id, created: c.now },
      );
      const dp = c.p.sub("default_price_data");
      insertObject(c.db, "product", product);
      emit(c, "product.created", "product", product);
      if (dp) {
        const price = buildPrice(
          {
            currency: dp.reqCurrency("currency"),
            unit_amount: dp.reqInt("unit_amount"),
            product: id,
            recurring: dp.sub("recurring") ? { interval: dp.sub("recurring")?.str("interval") ?? "month" } : null,
          },
          { id: newId(c.db, "price"), created: c.now },
        );
        insertObject(c.db, "price", price);
        emit(c, "price.created", "price", price);
        product.default_price = price.id;
        saveObject(c.db, "product", product);
      }
      return show(c, "product", product);
    },
  }),
  route({
    method: "GET",
    pattern: "/v1/products",
    operation: "products.list",
    summary: "List products",
    query: {
      ...listQuery,
      active: arg.bool("Only active or inactive ones"),
      ids: arg.strings("Only these products"),
      shippable: arg.bool("Only shippable or unshippable ones"),
      url: arg.text("Only the product with this URL"),
    },
    tool: { name: "list_products", description: "List products, newest first." },
    handler(c) {
      const ids = c.p.strList("ids");
      return listResponse(c, "product", "/v1/products", activeFilter(c), ids ? (o) => ids.includes(String(o.id)) : undefined);
    },
  }),
  route({
    method: "GET",
    pattern: "/v1/products/:id",
    operation: "products.retrieve",
    summary: "Retrieve a product",
    params: idParam("The product's id, prod_…"),
    query: { expand },
    tool: { name: "get_product", description: "Retrieve a product." },
    handler: (c, { params }) => show(c, "product", load(c, "product", params.id)),
  }),
  route({
    method: "POST",
    pattern: "/v1/products/:id",
    operation: "products.update",
    summary: "Update a product",
    params: idParam("The product's id"),
    body: {
      name: arg.text("Name"),
      description: arg.unsettable("Description"),
      url: arg.unsettable("A public URL of the product"),
      unit_label: arg.unsettable("The unit it is sold in"),
      default_price: arg.unsettable("One of the product's prices, as its default"),
      ...productFields,
    },
    tool: { name: "update_product", description: "Update a product's name, description, active flag or metadata." },
    handler(c, { params, body }) {
      const before = load(c, "product", params.id);
      const after: Rec = { ...before, metadata: c.p.metadata(strMap(before.metadata)), updated: c.now };
      if (body.name) after.name = body.name;
      if (body.active !== undefined) after.active = body.active;
      for (const key of ["description", "url", "unit_label"]) {
        const v = c.p.nullable(key);
        if (v !== undefined) after[key] = v;
      }
      const dp = c.p.nullable("default_price");
      if (dp) {
        const price = getObject(c.db, "price", dp);
        if (!price || price.product !== before.id) return noSuch("price", dp, "default_price");
      }
      if (dp !== undefined) after.default_price = dp;
      saveObject(c.db, "product", after);
      emit(c, "product.updated", "product", after, changed(before, after));
      return show(c, "product", after);
    },
  }),
  route({
    method: "DELETE",
    pattern: "/v1/products/:id",
    operation: "products.del",
    summary: "Delete a product",
    params: idParam("The product's id"),
    tool: { name: "delete_product", description: "Delete a product that has no prices." },
    handler(c, { params }) {
      const product = load(c, "product", params.id);
      const price = c.db.one<{ n: number }>("SELECT n FROM st_objects WHERE type = 'price' AND ref = ? LIMIT 1", String(product.id));
      if (price)
        return invalidRequest("This product cannot be deleted because it has one or more user-created prices.", {
          code: "product_has_prices",
        });
      dropObject(c.db, "product", String(product.id));
      emit(c, "product.deleted", "product", product);
      return ok({ id: product.id, object: "product", deleted: true });
    },
  }),
  route({
    method: "POST",
    pattern: "/v1/prices",
    operation: "prices.create",
    summary: "Create a price",
    body: {
      currency: arg.id('Three-letter ISO currency code, lower case, e.g. "usd"'),
      product: arg.text("The product's id (or product_data to create one)"),
      unit_amount: arg.int("Price per unit in the smallest currency unit"),
      recurring: recurringArg,
      metadata,
      nickname: arg.text("A short internal name"),
      lookup_key: arg.text("A key to find the price by"),
      active: arg.bool("Whether it can be bought (default true)"),
      tax_behavior: taxBehavior,
      product_data: arg.hash(
        { name: arg.text("The new product's name"), active: arg.bool("Whether it can be bought"), metadata, unit_label: arg.text("Unit") },
        "A product created with the price",
      ),
      billing_scheme: arg.oneOf(["per_unit", "tiered"], "How the price is computed"),
      unit_amount_decimal: arg.decimal("Price per unit as a decimal of the smallest currency unit"),
      expand,
    },
    tool: { name: "create_price", description: "Create a price for a product: one-off, or recurring with recurring.interval." },
    handler(c, { body }) {
      let productId = body.product;
      const data = c.p.sub("product_data");
      if (!productId && data) {
        const product = buildProduct({ name: data.req("name"), metadata: {} }, { id: newId(c.db, "product"), created: c.now });
        insertObject(c.db, "product", product);
        emit(c, "product.created", "product", product);
        productId = String(product.id);
      }
      if (!productId) return invalidRequest("Missing required param: product.", { code: "parameter_missing", param: "product" });
      load(c, "product", productId, "product");
      const price = priceFrom(c, productId);
      insertObject(c.db, "price", price);
      emit(c, "price.created", "price", price);
      return show(c, "price", price);
    },
  }),
  route({
    method: "GET",
    pattern: "/v1/prices",
    operation: "prices.list",
    summary: "List prices",
    query: {
      ...listQuery,
      active: arg.bool("Only active or inactive ones"),
      product: arg.text("Only this product's"),
      type: arg.oneOf(["one_time", "recurring"], "Only this type"),
      currency: arg.text("Only prices in this currency"),
      lookup_keys: arg.strings("Only prices with these lookup keys"),
      recurring: arg.hash(
        { interval: arg.oneOf(["day", "week", "month", "year"], "Interval"), usage_type: arg.oneOf(["licensed", "metered"], "Usage type") },
        "Only recurring prices of this kind",
      ),
    },
    tool: { name: "list_prices", description: "List prices, optionally a product's or only active ones." },
    handler(c) {
      const currency = c.p.currency("currency");
      // "lookup_keys: Only return the price with these lookup_keys, if any exist." (docs.stripe.com/api/prices/list)
      const lookupKeys = c.p.strList("lookup_keys");
      // "recurring: Only return prices for recurring prices with these options" (interval, usage_type).
      const recurring = c.p.sub("recurring");
      const interval = recurring?.str("interval");
      const usage = recurring?.str("usage_type");
      const ofRecurring = (o: Rec) => {
        const r = o.recurring as Rec | null;
        return !(interval || usage) || (r != null && (!interval || r.interval === interval) && (!usage || r.usage_type === usage));
      };
      return listResponse(
        c,
        "price",
        "/v1/prices",
        [...filterOf(c, "product", "ref"), ...filterOf(c, "type", "ref2"), ...activeFilter(c)],
        currency || lookupKeys || interval || usage
          ? (o) => (!currency || o.currency === currency) && (!lookupKeys || lookupKeys.includes(String(o.lookup_key))) && ofRecurring(o)
          : undefined,
      );
    },
  }),
  route({
    method: "GET",
    pattern: "/v1/prices/:id",
    operation: "prices.retrieve",
    summary: "Retrieve a price",
    params: idParam("The price's id, price_…"),
    query: { expand },
    tool: { name: "get_price", description: "Retrieve a price." },
    handler: (c, { params }) => show(c, "price", load(c, "price", params.id)),
  }),
  route({
    method: "POST",
    pattern: "/v1/prices/:id",
    operation: "prices.update",
    summary: "Update a price",
    params: idParam("The price's id"),
    body: {
      active: arg.bool("Active"),
      metadata,
      nickname: arg.unsettable("Nickname"),
      lookup_key: arg.unsettable("A key to find the price by"),
      tax_behavior: taxBehavior,
      expand,
    },
    tool: { name: "update_price", description: "Update a price's active flag, nickname or metadata." },
    handler(c, { params, body }) {
      const before = load(c, "price", params.id);
      const after: Rec = { ...before, metadata: c.p.metadata(strMap(before.metadata)) };
      if (body.active !== undefined) after.active = body.active;
      for (const key of ["nickname", "lookup_key"]) {
        const v = c.p.nullable(key);
        if (v !== undefined) after[key] = v;
      }
      saveObject(c.db, "price", after);
      emit(c, "price.updated", "price", after, changed(before, after));
      return show(c, "price", after);
    },
  }),
  route({
    method: "POST",
    pattern: "/v1/coupons",
    operation: "coupons.create",
    summary: "Create a coupon",
    body: {
      id: arg.text("The code, e.g. SPRING25 (default: generated)"),
      duration: arg.oneOf(["once", "repeating", "forever"], "How long it applies (default once)"),
      percent_off: arg.decimal("Percentage off"),
      amount_off: arg.int("Amount off, in the currency's smallest unit"),
      currency: arg.text("Currency of amount_off"),
      duration_in_months: arg.int("Months, for repeating"),
      max_redemptions: arg.int("How many times it may be redeemed"),
      metadata,
      name: arg.text("Display name"),
      redeem_by: arg.int("Unix time after which it can no longer be redeemed"),
      applies_to: arg.hash({ products: arg.strings("Product ids") }, "Products it applies to"),
      expand,
    },
    tool: { name: "create_coupon", description: "Create a coupon: percent_off, or amount_off with currency." },
    handler(c, { body }) {
      const id = body.id ?? newId(c.db, "coupon");
      if (exists(c.db, id)) return invalidRequest("Coupon already exists.", { code: "resource_already_exists", param: "id" });
      const percent = c.p.num("percent_off");
      const amountOff = body.amount_off;
      if (percent === undefined && amountOff === undefined)
        return invalidRequest("You must pass either a percent_off or an amount_off.", { param: "percent_off" });
      if (amountOff !== undefined && !body.currency)
        return invalidRequest("You must pass currency when passing amount_off.", { code: "parameter_missing", param: "currency" });
      const duration = body.duration ?? "once";
      const coupon = buildCoupon(
        {
          duration,
          percent_off: percent ?? null,
          amount_off: amountOff ?? null,
          currency: c.p.currency("currency") ?? null,
          duration_in_months: duration === "repeating" ? (body.duration_in_months ?? null) : null,
          max_redemptions: body.max_redemptions ?? null,
          metadata: c.p.metadata(),
          name: body.name ?? null,
          redeem_by: body.redeem_by ?? null,
        },
        { id, created: c.now },
      );
      insertObject(c.db, "coupon", coupon);
      emit(c, "coupon.created", "coupon", coupon);
      return show(c, "coupon", coupon);
    },
  }),
  route({
    method: "GET",
    pattern: "/v1/coupons",
    operation: "coupons.list",
    summary: "List coupons",
    query: listQuery,
    tool: { name: "list_coupons", description: "List coupons." },
    handler: (c) => listResponse(c, "coupon", "/v1/coupons"),
  }),
  route({
    method: "GET",
    pattern: "/v1/coupons/:id",
    operation: "coupons.retrieve",
    summary: "Retrieve a coupon",
    params: idParam("The coupon's id"),
    query: { expand },
    tool: { name: "get_coupon", description: "Retrieve a coupon." },
    handler: (c, { params }) => show(c, "coupon", load(c, "coupon", params.id)),
  }),
  route({
    method: "POST",
    pattern: "/v1/coupons/:id",
    operation: "coupons.update",
    summary: "Update a coupon",
    params: idParam("The coupon's id"),
    body: { metadata, name: arg.unsettable("Name"), expand },
    tool: { name: "update_coupon", description: "Update a coupon's name or metadata." },
    handler(c, { params }) {
      const before = load(c, "coupon", params.id);
      const name = c.p.nullable("name");
      const after = { ...before, metadata: c.p.metadata(strMap(before.metadata)), ...(name !== undefined ? { name } : {}) };
      saveObject(c.db, "coupon", after);
      emit(c, "coupon.updated", "coupon", after, changed(before, after));
      return show(c, "coupon", after);
    },
  }),
  route({
    method: "DELETE",
    pattern: "/v1/coupons/:id",
    operation: "coupons.del",
    summary: "Delete a coupon",
    params: idParam("The coupon's id"),
    tool: { name: "delete_coupon", description: "Delete a coupon." },
    handler(c, { params }) {
      const coupon = load(c, "coupon", params.id);
      dropObject(c.db, "coupon", String(coupon.id));
      emit(c, "coupon.deleted", "coupon", coupon);
      return ok({ id: coupon.id, object: "coupon", deleted: true });
    },
  }),
];
