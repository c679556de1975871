// Hostile and careless input to the Stripe twin: every value is answered in Stripe's own shape,
// quickly, and a refusal changes nothing. Through stripe-node, as an agent would call it.
import { describe, expect, it } from "vitest";
import type Stripe from "stripe";
import { twinFetch, type CreatedSandbox } from "../helpers";
import { matchesWildcard } from "../../../durable-objects/twins/stripe/wildcard";
import { stripeErrorOf, stripeSandbox } from "./fixtures";

/** Well under the 250 ms a call may take, with room for a loaded two-core machine. */
const QUICK_MS = 1000;
const DAY = 86_400;

/** Runs a call and asserts it answered quickly (timed from the moment it is made). */
async function quickly<T>(call: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const result = await call();
  expect(performance.now() - started).toBeLessThan(QUICK_MS);
  return result;
}

async function quickError(call: () => Promise<unknown>): Promise<Stripe.errors.StripeError> {
  return quickly(() => stripeErrorOf(call()));
}

const stateOf = async (sandbox: CreatedSandbox) => (await twinFetch(sandbox, "/_pome/state", {}, "stripe")).text();

describe("event types with `*` wildcards match as Stripe matches them, without a regular expression", () => {
  it("matches a group, a suffix, several stars, and nothing else", () => {
    expect(matchesWildcard("customer.*", "customer.created")).toBe(true);
    expect(matchesWildcard("customer.*", "customer.subscription.updated")).toBe(true);
    expect(matchesWildcard("customer.*", "charge.refunded")).toBe(false);
    expect(matchesWildcard("*.created", "invoice.created")).toBe(true);
    expect(matchesWildcard("*.sub*.up*", "customer.subscription.updated")).toBe(true);
    expect(matchesWildcard("*", "anything.at.all")).toBe(true);
    expect(matchesWildcard("(*", "customer.created")).toBe(false);
    expect(matchesWildcard("customer.created", "customer.created")).toBe(true);
    // Regular-expression metacharacters are plain text: `.` is a dot, not any character.
    expect(matchesWildcard("customer.*", "customerXcreated")).toBe(false);
    expect(matchesWildcard("a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b", "a".repeat(64))).toBe(false);
  });

  it("lists events by a wildcard type in full pages, and answers a hostile type at once", async () => {
    const { stripe } = await stripeSandbox();
    await stripe.customers.create({ email: "a@example.com" });
    await stripe.customers.create({ email: "b@example.com" });
    await stripe.products.create({ name: "Widget" });
    const customers = await quickly(() => stripe.events.list({ type: "customer.*", limit: 1 }));
    expect(customers.data.map((e) => e.type)).toEqual(["customer.created"]);
    expect(customers.has_more).toBe(true);
    const created = await quickly(() => stripe.events.list({ type: "*.created" }));
    expect(created.data.map((e) => e.type).sort()).toEqual(["customer.created", "customer.created", "product.created"]);
    // What a `*` → `.*` regular expression would backtrack on for minutes: nested and stacked stars.
    for (const type of ["(*", `${"(*)+".repeat(8)}!`, `${"*.".repeat(12)}!`, "(*".repeat(5000), "%", "_*"]) {
      const none = await quickly(() => stripe.events.list({ type }));
      expect(none.data).toEqual([]);
    }
  });
});

describe("a bad `limit`, cursor or id is refused as Stripe refuses it", () => {
  it("refuses a limit out of range or not a number, naming `limit`, and changes nothing", async () => {
    const { sandbox, stripe } = await stripeSandbox();
    const before = await stateOf(sandbox);
    for (const limit of ["99999999999999999999", "9".repeat(400), "-1", "0"]) {
      const err = await quickError(() => stripe.rawRequest("GET", `/v1/customers?limit=${limit}`));
      expect(err).toMatchObject({ type: "StripeInvalidRequestError", statusCode: 400, param: "limit" });
    }
    const words = await quickError(() => stripe.rawRequest("GET", "/v1/events?limit=abc"));
    expect(words).toMatchObject({ statusCode: 400, code: "parameter_invalid_integer", param: "limit" });
    const search = await quickError(() => stripe.customers.search({ query: "email:'a@example.com'", limit: 1e20 }));
    expect(search).toMatchObject({ statusCode: 400, param: "limit" });
    expect(await stateOf(sandbox)).toBe(before);
  });

  it("answers an odd `starting_after` with Stripe's 404 naming the cursor", async () => {
    const { stripe } = await stripeSandbox();
    for (const cursor of ["%_(*", "x".repeat(60), "cus_".padEnd(10_000, "z")]) {
      const err = await quickError(() => stripe.customers.list({ starting_after: cursor }));
      expect(err).toMatchObject({ statusCode: 404, code: "resource_missing", param: "starting_after" });
    }
  });

  it("answers a 60- or 10,000-character id in any path with `No such …`", async () => {
    const { sandbox, stripe } = await stripeSandbox();
    const before = await stateOf(sandbox);
    for (const id of ["x".repeat(60), "si_%_".padEnd(60, "_"), "y".repeat(10_000)]) {
      for (const call of [
        () => stripe.customers.retrieve(id),
        () => stripe.subscriptionItems.retrieve(id),
        () => stripe.invoices.retrieve(id),
        () => stripe.events.retrieve(id),
        () => stripe.testHelpers.testClocks.advance(id, { frozen_time: 1 }),
      ]) {
        const err = await quickError(call);
        expect(err).toMatchObject({ type: "StripeInvalidRequestError", statusCode: 404, code: "resource_missing" });
      }
    }
    expect(await stateOf(sandbox)).toBe(before);
  });

  it("finds a subscription item by its id, literally", async () => {
    const { stripe } = await stripeSandbox();
    const sub = await stripe.subscriptions.retrieve("sub_alice");
    const item = sub.items.data[0];
    expect((await quickly(() => stripe.subscriptionItems.retrieve(item.id))).id).toBe(item.id);
    // `_` and `%` are not wildcards: a look-alike id is not the item.
    const lookAlike = `${item.id.slice(0, -1)}_`;
    expect(await quickError(() => stripe.subscriptionItems.retrieve(lookAlike))).toMatchObject({ statusCode: 404 });
  });
});

describe("a string parameter is at most Stripe's 5,000 characters", () => {
  it("refuses a longer one in a POST, naming it, and changes nothing; 5,000 are kept whole", async () => {
    const { sandbox, stripe } = await stripeSandbox();
    const before = await stateOf(sandbox);
    const long = await quickError(() => stripe.customers.update("cus_alice", { description: "d".repeat(5001) }));
    expect(long).toMatchObject({ statusCode: 400, type: "StripeInvalidRequestError", param: "description" });
    expect(long.message).toMatch(/must be at most 5000 characters/);
    const nested = await quickError(() => stripe.customers.update("cus_alice", { address: { line1: "l".repeat(6000) } }));
    expect(nested).toMatchObject({ statusCode: 400, param: "address[line1]" });
    expect(await stateOf(sandbox)).toBe(before);
    const kept = await stripe.customers.update("cus_alice", { description: "d".repeat(5000) });
    expect(kept.description).toHaveLength(5000);
  });
});

describe("search queries are read in one pass, whatever their spacing", () => {
  it("joins clauses across thousands of spaces quickly, and refuses a hostile clause in Stripe's shape", async () => {
    const { stripe } = await stripeSandbox();
    const spaced = await quickly(() =>
      stripe.customers.search({ query: `email:'alice@example.com'${" ".repeat(8000)}AND${" ".repeat(8000)}name:'Alice Doe'` }),
    );
    expect(spaced.data.map((c) => c.id)).toEqual(["cus_alice"]);
    const odd = await quickError(() => stripe.customers.search({ query: `name~'${"(*".repeat(3000)}`, limit: 5 }));
    expect(odd).toMatchObject({ type: "StripeInvalidRequestError", statusCode: 400, param: "query" });
    const literal = await quickly(() => stripe.customers.search({ query: "name~'.*'" }));
    expect(literal.data).toEqual([]);
  });
});

describe("a test clock advances at most two billing intervals per call, as on Stripe", () => {
  it("refuses twenty years on a clock without subscriptions (two years is the bound) and changes nothing", async () => {
    const { sandbox, stripe } = await stripeSandbox();
    const start = 1_780_000_000;
    const clock = await stripe.testHelpers.testClocks.create({ frozen_time: start });
    const before = await stateOf(sandbox);
    const err = await quickError(() => stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: start + 20 * 365 * DAY }));
    expect(err).toMatchObject({ type: "StripeInvalidRequestError", statusCode: 400, param: "frozen_time" });
    expect(err.message).toContain(`The frozen time of this clock is ${start}`);
    expect(err.message).toContain("You can only advance a test clock up to two intervals from the current frozen time");
    const huge = await quickError(() => stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: 99_999_999_999_999 }));
    expect(huge).toMatchObject({ statusCode: 400, param: "frozen_time" });
    expect(await stateOf(sandbox)).toBe(before);
    const twoYears = await quickly(() => stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: start + 2 * 365 * DAY }));
    expect(twoYears.frozen_time).toBe(start + 2 * 365 * DAY);
  });

  it("bounds a clock with a monthly subscription to two months per call, and renews through repeated steps", async () => {
    const { sandbox, stripe } = await stripeSandbox();
    const start = 1_780_000_000;
    const clock = await stripe.testHelpers.testClocks.create({ frozen_time: start });
    const customer = await stripe.customers.create({ test_clock: clock.id });
    const pm = await stripe.paymentMethods.attach("pm_card_visa", { customer: customer.id });
    const sub = await stripe.subscriptions.create({
      customer: customer.id,
      default_payment_method: pm.id,
      items: [{ price: "price_pro_monthly" }],
    });
    const before = await stateOf(sandbox);
    const tooFar = await quickError(() => stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: start + 70 * DAY }));
    expect(tooFar).toMatchObject({ statusCode: 400, param: "frozen_time" });
    expect(await stateOf(sandbox)).toBe(before);
    // Three steps of 55 days: each within two months of the clock's time, each renewing.
    let frozen = start;
    for (let step = 0; step < 3; step++) {
      frozen += 55 * DAY;
      expect((await quickly(() => stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: frozen }))).frozen_time).toBe(frozen);
    }
    const invoices = await stripe.invoices.list({ subscription: sub.id, limit: 100 });
    // The first invoice, then one per month passed: 165 days hold five renewals.
    expect(invoices.data).toHaveLength(6);
    expect((await stripe.subscriptions.retrieve(sub.id)).status).toBe("active");
  });
});
