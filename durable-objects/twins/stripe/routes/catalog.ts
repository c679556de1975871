// Products, Prices (one-off and recurring) and Coupons.
import type { Route } from "../../types";
import { filterOf, LIST_PARAMS, listResponse, load, ok, route, show, type Call } from "../call";
import { fail, invalidRequest, noSuch } from "../errors";
import { changed, emit } from "../events";
import { buildCoupon, buildPrice, buildProduct } from "../objects";
import { dropObject, exists, getObject, insertObject, newId, saveObject, strMap, type Rec } from "../store";

function activeFilter(c: Call) {
  const active = c.p.bool("active");
  return active === undefined ? [] : [{ column: "status" as const, value: String(active) }];
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
          }
        : null,
    },
    { id: newId(c.db, "price"), created: c.now },
  );
}

export const catalogRoutes: readonly Route[] = [
  route(
    "POST",
    "/v1/products",
    "products.create",
    "Create a product",
    [
      "id",
      "name",
      "active",
      "description",
      "metadata",
      "images",
      "url",
      "unit_label",
      "statement_descriptor",
      "tax_code",
      "shippable",
      "default_price_data",
      "marketing_features",
    ],
    (c) => {
      const id = c.p.str("id") ?? newId(c.db, "product");
      if (exists(c.db, id)) return invalidRequest(`Product already exists.`, { code: "resource_already_exists", param: "id" });
      const product = buildProduct(
        {
          name: c.p.req("name"),
          active: c.p.bool("active") ?? true,
          description: c.p.str("description") ?? null,
          metadata: c.p.metadata(),
          images: c.p.strList("images") ?? [],
          url: c.p.str("url") ?? null,
          unit_label: c.p.str("unit_label") ?? null,
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
  ),
  route("GET", "/v1/products", "products.list", "List products", [...LIST_PARAMS, "active", "ids", "shippable", "url"], (c) => {
    const ids = c.p.strList("ids");
    return listResponse(c, "product", "/v1/products", activeFilter(c), ids ? (o) => ids.includes(String(o.id)) : undefined);
  }),
  route("GET", "/v1/products/:id", "products.retrieve", "Retrieve a product", [], (c) =>
    show(c, "product", load(c, "product", c.ctx.params.id)),
  ),
  route(
    "POST",
    "/v1/products/:id",
    "products.update",
    "Update a product",
    [
      "name",
      "active",
      "description",
      "metadata",
      "images",
      "url",
      "unit_label",
      "default_price",
      "statement_descriptor",
      "tax_code",
      "marketing_features",
    ],
    (c) => {
      const before = load(c, "product", c.ctx.params.id);
      const after: Rec = { ...before, metadata: c.p.metadata(strMap(before.metadata)), updated: c.now };
      const name = c.p.str("name");
      if (name) after.name = name;
      const active = c.p.bool("active");
      if (active !== undefined) after.active = active;
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
  ),
  route("DELETE", "/v1/products/:id", "products.del", "Delete a product", [], (c) => {
    const product = load(c, "product", c.ctx.params.id);
    const price = c.db.one<{ n: number }>("SELECT n FROM st_objects WHERE type = 'price' AND ref = ? LIMIT 1", String(product.id));
    if (price)
      return invalidRequest("This product cannot be deleted because it has one or more user-created prices.", {
        code: "product_has_prices",
      });
    dropObject(c.db, "product", String(product.id));
    emit(c, "product.deleted", "product", product);
    return ok({ id: product.id, object: "product", deleted: true });
  }),
  route(
    "POST",
    "/v1/prices",
    "prices.create",
    "Create a price",
    [
      "currency",
      "product",
      "unit_amount",
      "recurring",
      "metadata",
      "nickname",
      "lookup_key",
      "active",
      "tax_behavior",
      "product_data",
      "billing_scheme",
      "unit_amount_decimal",
    ],
    (c) => {
      let productId = c.p.str("product");
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
  ),
  route(
    "GET",
    "/v1/prices",
    "prices.list",
    "List prices",
    [...LIST_PARAMS, "active", "product", "type", "currency", "lookup_keys", "recurring"],
    (c) => {
      const currency = c.p.currency("currency");
      return listResponse(
        c,
        "price",
        "/v1/prices",
        [...filterOf(c, "product", "ref"), ...filterOf(c, "type", "ref2"), ...activeFilter(c)],
        currency ? (o) => o.currency === currency : undefined,
      );
    },
  ),
  route("GET", "/v1/prices/:id", "prices.retrieve", "Retrieve a price", [], (c) => show(c, "price", load(c, "price", c.ctx.params.id))),
  route(
    "POST",
    "/v1/prices/:id",
    "prices.update",
    "Update a price",
    ["active", "metadata", "nickname", "lookup_key", "tax_behavior"],
    (c) => {
      const before = load(c, "price", c.ctx.params.id);
      const after: Rec = { ...before, metadata: c.p.metadata(strMap(before.metadata)) };
      const active = c.p.bool("active");
      if (active !== undefined) after.active = active;
      for (const key of ["nickname", "lookup_key"]) {
        const v = c.p.nullable(key);
        if (v !== undefined) after[key] = v;
      }
      saveObject(c.db, "price", after);
      emit(c, "price.updated", "price", after, changed(before, after));
      return show(c, "price", after);
    },
  ),
  route(
    "POST",
    "/v1/coupons",
    "coupons.create",
    "Create a coupon",
    [
      "id",
      "duration",
      "percent_off",
      "amount_off",
      "currency",
      "duration_in_months",
      "max_redemptions",
      "metadata",
      "name",
      "redeem_by",
      "applies_to",
    ],
    (c) => {
      const id = c.p.str("id") ?? newId(c.db, "coupon");
      if (exists(c.db, id)) return invalidRequest("Coupon already exists.", { code: "resource_already_exists", param: "id" });
      const percent = c.p.num("percent_off");
      const amountOff = c.p.int("amount_off");
      if (percent === undefined && amountOff === undefined)
        return invalidRequest("You must pass either a percent_off or an amount_off.", { param: "percent_off" });
      if (amountOff !== undefined && !c.p.str("currency"))
        return invalidRequest("You must pass currency when passing amount_off.", { code: "parameter_missing", param: "currency" });
      const duration = c.p.oneOf("duration", ["once", "repeating", "forever"]) ?? "once";
      const coupon = buildCoupon(
        {
          duration,
          percent_off: percent ?? null,
          amount_off: amountOff ?? null,
          currency: c.p.currency("currency") ?? null,
          duration_in_months: duration === "repeating" ? (c.p.int("duration_in_months") ?? null) : null,
          max_redemptions: c.p.int("max_redemptions") ?? null,
          metadata: c.p.metadata(),
          name: c.p.str("name") ?? null,
          redeem_by: c.p.int("redeem_by") ?? null,
        },
        { id, created: c.now },
      );
      insertObject(c.db, "coupon", coupon);
      emit(c, "coupon.created", "coupon", coupon);
      return show(c, "coupon", coupon);
    },
  ),
  route("GET", "/v1/coupons", "coupons.list", "List coupons", [...LIST_PARAMS], (c) => listResponse(c, "coupon", "/v1/coupons")),
  route("GET", "/v1/coupons/:id", "coupons.retrieve", "Retrieve a coupon", [], (c) =>
    show(c, "coupon", load(c, "coupon", c.ctx.params.id)),
  ),
  route("POST", "/v1/coupons/:id", "coupons.update", "Update a coupon", ["metadata", "name"], (c) => {
    const before = load(c, "coupon", c.ctx.params.id);
    const name = c.p.nullable("name");
    const after = { ...before, metadata: c.p.metadata(strMap(before.metadata)), ...(name !== undefined ? { name } : {}) };
    saveObject(c.db, "coupon", after);
    emit(c, "coupon.updated", "coupon", after, changed(before, after));
    return show(c, "coupon", after);
  }),
  route("DELETE", "/v1/coupons/:id", "coupons.del", "Delete a coupon", [], (c) => {
    const coupon = load(c, "coupon", c.ctx.params.id);
    dropObject(c.db, "coupon", String(coupon.id));
    emit(c, "coupon.deleted", "coupon", coupon);
    return ok({ id: coupon.id, object: "coupon", deleted: true });
  }),
];
