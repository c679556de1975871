// Catalog upkeep through stripe-node: coupons listed, renamed and deleted; products and prices
// edited, deleted and searched; subscriptions searched. Each checks the answer, its effect read
// back through another call, and a refusal in Stripe's error shape.
import type Stripe from "stripe";
import { describe, expect, it } from "vitest";
import { stripeErrorOf, stripeSandbox } from "./fixtures";

describe("coupons", () => {
  it("coupons.list pages newest first with has_more and starting_after", async () => {
    const { stripe } = await stripeSandbox();
    const a = await stripe.coupons.create({ percent_off: 10, duration: "once", id: "TEN" });
    const b = await stripe.coupons.create({ amount_off: 500, currency: "usd", duration: "forever", id: "FIVEOFF" });
    const all = await stripe.coupons.list();
    expect(all).toMatchObject({ object: "list", url: "/v1/coupons", has_more: false });
    expect(all.data.map((c) => c.id)).toEqual([b.id, a.id]);
    expect(all.data[1]).toMatchObject({ object: "coupon", percent_off: 10, amount_off: null, duration: "once", valid: true });
    const first = await stripe.coupons.list({ limit: 1 });
    expect(first.data.map((c) => c.id)).toEqual([b.id]);
    expect(first.has_more).toBe(true);
    const next = await stripe.coupons.list({ limit: 1, starting_after: b.id });
    expect(next.data.map((c) => c.id)).toEqual([a.id]);
    expect(next.has_more).toBe(false);
    // limit is 1..100 (docs.stripe.com/api/pagination).
    const err = await stripeErrorOf(stripe.coupons.list({ limit: 0 }));
    expect(err).toMatchObject({ statusCode: 400, type: "StripeInvalidRequestError", param: "limit" });
  });

  it("coupons.update changes name and metadata only; other terms are unknown parameters", async () => {
    const { stripe } = await stripeSandbox();
    const coupon = await stripe.coupons.create({ percent_off: 20, duration: "once", name: "Spring", metadata: { a: "1" } });
    // "Updates the metadata of a coupon. Other coupon details (currency, duration, amount_off) are,
    // by design, not editable." (docs.stripe.com/api/coupons/update)
    const updated = await stripe.coupons.update(coupon.id, { name: "Summer", metadata: { b: "2" } });
    expect(updated).toMatchObject({ id: coupon.id, object: "coupon", name: "Summer", metadata: { a: "1", b: "2" }, percent_off: 20 });
    const unset = await stripe.coupons.update(coupon.id, { metadata: { a: "" } });
    expect(unset.metadata).toEqual({ b: "2" });
    expect(await stripe.coupons.retrieve(coupon.id)).toMatchObject({ name: "Summer", metadata: { b: "2" } });
    const events = await stripe.events.list({ type: "coupon.updated" });
    expect(events.data[0].data.object).toMatchObject({ id: coupon.id });
    const terms = await stripeErrorOf(stripe.coupons.update(coupon.id, { percent_off: 50 } as Stripe.CouponUpdateParams));
    expect(terms).toMatchObject({ statusCode: 400, code: "parameter_unknown", param: "percent_off" });
    const missing = await stripeErrorOf(stripe.coupons.update("NOPE", { name: "x" }));
    expect(missing).toMatchObject({ statusCode: 404, type: "StripeInvalidRequestError", code: "resource_missing" });
  });

  it("coupons.del answers a deleted stub; the coupon is then missing and a second delete is a 404", async () => {
    const { stripe } = await stripeSandbox();
    const coupon = await stripe.coupons.create({ percent_off: 15, duration: "once", id: "GONE15" });
    const deleted = await stripe.coupons.del(coupon.id);
    expect(deleted).toEqual({ id: "GONE15", object: "coupon", deleted: true });
    expect((await stripeErrorOf(stripe.coupons.retrieve("GONE15"))).code).toBe("resource_missing");
    expect((await stripe.coupons.list()).data.map((c) => c.id)).not.toContain("GONE15");
    expect((await stripe.events.list({ type: "coupon.deleted" })).data).toHaveLength(1);
    const again = await stripeErrorOf(stripe.coupons.del("GONE15"));
    expect(again).toMatchObject({ statusCode: 404, code: "resource_missing" });
  });
});

describe("products", () => {
  it("products.del deletes a product without prices and refuses one with prices", async () => {
    const { stripe } = await stripeSandbox();
    const bare = await stripe.products.create({ name: "Sticker" });
    const deleted = await stripe.products.del(bare.id);
    expect(deleted).toEqual({ id: bare.id, object: "product", deleted: true });
    expect((await stripeErrorOf(stripe.products.retrieve(bare.id))).statusCode).toBe(404);
    expect((await stripe.events.list({ type: "product.deleted" })).data[0].data.object).toMatchObject({ id: bare.id });
    // "Deleting a product is only possible if it has no prices associated with it."
    // (docs.stripe.com/api/products/delete)
    const priced = await stripeErrorOf(stripe.products.del("prod_pro"));
    expect(priced).toMatchObject({ statusCode: 400, type: "StripeInvalidRequestError" });
    expect(await stripe.products.retrieve("prod_pro")).toMatchObject({ id: "prod_pro", active: true });
    expect((await stripeErrorOf(stripe.products.del("prod_ghost"))).code).toBe("resource_missing");
  });

  it("products.search finds by name, metadata and active, paging with next_page", async () => {
    const { stripe } = await stripeSandbox();
    const tee = await stripe.products.create({ name: "Blue T-shirt", metadata: { line: "apparel" } });
    const hat = await stripe.products.create({ name: "Red hat", metadata: { line: "apparel" } });
    await stripe.products.create({ name: "Mug", active: false });
    const byName = await stripe.products.search({ query: "name~'shirt'" });
    expect(byName).toMatchObject({ object: "search_result", url: "/v1/products/search", has_more: false, next_page: null });
    expect(byName.data.map((p) => p.id)).toEqual([tee.id]);
    const apparel = await stripe.products.search({ query: "metadata['line']:'apparel'", limit: 1 });
    expect(apparel.data).toHaveLength(1);
    expect(apparel.has_more).toBe(true);
    const rest = await stripe.products.search({ query: "metadata['line']:'apparel'", limit: 1, page: apparel.next_page ?? "" });
    expect([...apparel.data, ...rest.data].map((p) => p.id).sort()).toEqual([tee.id, hat.id].sort());
    expect(rest.has_more).toBe(false);
    const inactive = await stripe.products.search({ query: "active:'false'" });
    expect(inactive.data.map((p) => p.name)).toEqual(["Mug"]);
    // Only the documented fields are searchable (docs.stripe.com/search#query-fields-for-products).
    const bad = await stripeErrorOf(stripe.products.search({ query: "color:'blue'" }));
    expect(bad).toMatchObject({ statusCode: 400, type: "StripeInvalidRequestError", param: "query" });
  });
});

describe("prices", () => {
  it("prices.update changes active, nickname, lookup_key and metadata, never the amount", async () => {
    const { stripe } = await stripeSandbox();
    const price = await stripe.prices.create({ product: "prod_pro", currency: "usd", unit_amount: 9900, recurring: { interval: "year" } });
    const updated = await stripe.prices.update(price.id, {
      nickname: "Pro yearly",
      lookup_key: "pro_yearly",
      metadata: { tier: "pro" },
      active: false,
    });
    expect(updated).toMatchObject({
      id: price.id,
      object: "price",
      nickname: "Pro yearly",
      lookup_key: "pro_yearly",
      metadata: { tier: "pro" },
      active: false,
      unit_amount: 9900,
    });
    expect((await stripe.prices.list({ lookup_keys: ["pro_yearly"] })).data.map((p) => p.id)).toEqual([price.id]);
    expect((await stripe.prices.list({ active: false })).data.map((p) => p.id)).toContain(price.id);
    // "recurring: Only return prices for recurring prices with these options" (docs.stripe.com/api/prices/list).
    const monthly = await stripe.prices.create({
      product: "prod_pro",
      currency: "usd",
      unit_amount: 990,
      recurring: { interval: "month" },
    });
    const yearly = (await stripe.prices.list({ active: false, recurring: { interval: "year" } })).data.map((p) => p.id);
    expect(yearly).toContain(price.id);
    expect(yearly).not.toContain(monthly.id);
    const monthlies = (await stripe.prices.list({ recurring: { interval: "month" } })).data;
    expect(monthlies.map((p) => p.id)).toContain(monthly.id);
    expect(monthlies.every((p) => p.recurring?.interval === "month")).toBe(true);
    // unit_amount is not an update parameter: "create a new price instead"
    // (docs.stripe.com/products-prices/manage-prices#edit-price).
    const amount = await stripeErrorOf(stripe.prices.update(price.id, { unit_amount: 1 } as Stripe.PriceUpdateParams));
    expect(amount).toMatchObject({ statusCode: 400, code: "parameter_unknown", param: "unit_amount" });
    expect((await stripeErrorOf(stripe.prices.update("price_ghost", { active: false }))).code).toBe("resource_missing");
  });

  it("prices.search finds by product, type, currency and lookup_key", async () => {
    const { stripe } = await stripeSandbox();
    const once = await stripe.prices.create({ product: "prod_pro", currency: "eur", unit_amount: 500, lookup_key: "setup_fee" });
    const byType = await stripe.prices.search({ query: "type:'one_time' AND product:'prod_pro'" });
    expect(byType).toMatchObject({ object: "search_result", url: "/v1/prices/search" });
    expect(byType.data.map((p) => p.id)).toEqual([once.id]);
    expect((await stripe.prices.search({ query: "currency:'usd'" })).data.map((p) => p.id)).toEqual(["price_pro_monthly"]);
    expect((await stripe.prices.search({ query: "lookup_key:'setup_fee'" })).data[0]).toMatchObject({ unit_amount: 500, type: "one_time" });
    const bad = await stripeErrorOf(stripe.prices.search({ query: "unit_amount>100" }));
    expect(bad).toMatchObject({ statusCode: 400, param: "query" });
  });
});

describe("subscriptions", () => {
  it("subscriptions.search finds by status, customer and metadata", async () => {
    const { stripe } = await stripeSandbox();
    const bob = await stripe.subscriptions.create({
      customer: "cus_bob",
      items: [{ price: "price_pro_monthly" }],
      metadata: { team: "core" },
    });
    const active = await stripe.subscriptions.search({ query: "status:'active'" });
    expect(active).toMatchObject({ object: "search_result", url: "/v1/subscriptions/search", has_more: false });
    expect(active.data.map((s) => s.id).sort()).toEqual([bob.id, "sub_alice"].sort());
    const mine = await stripe.subscriptions.search({ query: "customer:'cus_bob' AND metadata['team']:'core'" });
    expect(mine.data.map((s) => s.id)).toEqual([bob.id]);
    expect(mine.data[0]).toMatchObject({ object: "subscription", customer: "cus_bob", status: "active" });
    await stripe.subscriptions.cancel(bob.id);
    expect((await stripe.subscriptions.search({ query: "status:'canceled'" })).data.map((s) => s.id)).toEqual([bob.id]);
    const bad = await stripeErrorOf(stripe.subscriptions.search({ query: "status:'active' AND" }));
    expect(bad).toMatchObject({ statusCode: 400, type: "StripeInvalidRequestError", param: "query" });
  });
});
