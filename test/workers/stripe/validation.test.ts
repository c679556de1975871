// Stripe's own validation and defaults, through stripe-node: what Stripe refuses is refused with
// its message and `param` and changes nothing; what Stripe defaults is defaulted.
import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type Stripe from "stripe";
import { exampleSeed, stripeErrorOf, stripeSandbox } from "./fixtures";

describe("customer emails are validated as Stripe validates them", () => {
  it("refuses a malformed email with email_invalid and creates nothing", async () => {
    const { stripe } = await stripeSandbox({ customers: [] });
    for (const email of ["test@test", "otameshi@com", " a@example.com", "no-at-sign", "a@b..com"]) {
      const err = await stripeErrorOf(stripe.customers.create({ email }));
      expect(err).toMatchObject({
        statusCode: 400,
        type: "StripeInvalidRequestError",
        code: "email_invalid",
        param: "email",
        message: `Invalid email address: ${email}`,
      });
    }
    expect((await stripe.customers.list()).data).toHaveLength(0);
    const ok = await stripe.customers.create({ email: "Jane.Doe+test@Example.co.uk" });
    expect(ok.email).toBe("Jane.Doe+test@Example.co.uk");
    const upd = await stripeErrorOf(stripe.customers.update(ok.id, { email: "bad@" }));
    expect(upd).toMatchObject({ code: "email_invalid", param: "email" });
    expect((await stripe.customers.retrieve(ok.id)) as Stripe.Customer).toMatchObject({ email: "Jane.Doe+test@Example.co.uk" });
  });

  it("filters the customer list by email case-sensitively, as stripe-node's CustomerListParams documents", async () => {
    const { stripe } = await stripeSandbox({ customers: [{ id: "cus_a", email: "Alice@example.com" }] });
    expect((await stripe.customers.list({ email: "Alice@example.com" })).data.map((c) => c.id)).toEqual(["cus_a"]);
    expect((await stripe.customers.list({ email: "alice@example.com" })).data).toEqual([]);
  });
});

describe("currency codes are Stripe's", () => {
  it("refuses an unknown currency with Stripe's message and param, and lower-cases a known one", async () => {
    const { stripe } = await stripeSandbox({ customers: [] });
    const err = await stripeErrorOf(stripe.paymentIntents.create({ amount: 1000, currency: "xyz" }));
    expect(err).toMatchObject({ statusCode: 400, param: "currency" });
    expect(err.message).toMatch(/^Invalid currency: xyz\. Stripe currently supports these currencies: usd, aed, /);
    expect((await stripe.paymentIntents.list()).data).toHaveLength(0);
    const eur = await stripe.paymentIntents.create({ amount: 1000, currency: "EUR", allowed_payment_method_types: ["card"] });
    expect(eur.currency).toBe("eur");
    const product = await stripe.products.create({ name: "Thing" });
    const price = await stripeErrorOf(stripe.prices.create({ product: product.id, currency: "dollars", unit_amount: 100 }));
    expect(price).toMatchObject({ param: "currency" });
  });
});

describe("metadata keeps Stripe's limits", () => {
  it("refuses a 51st key, a key over 40 characters and a value over 500, changing nothing", async () => {
    const { stripe } = await stripeSandbox(exampleSeed());
    const fortyNine = Object.fromEntries(Array.from({ length: 49 }, (_, i) => [`k${i}`, "v"]));
    const full = await stripe.customers.update("cus_alice", { metadata: fortyNine });
    expect(Object.keys(full.metadata)).toHaveLength(50); // the seeded `plan` and 49 more
    const tooMany = await stripeErrorOf(stripe.customers.update("cus_alice", { metadata: { one_more: "v" } }));
    expect(tooMany).toMatchObject({
      statusCode: 400,
      param: "metadata",
      message: "Metadata can have up to 50 keys, but you've set 51. Email us at support+metadata@stripe.com for more information.",
    });
    const longKey = "k".repeat(41);
    expect(await stripeErrorOf(stripe.customers.create({ metadata: { [longKey]: "v" } }))).toMatchObject({
      param: "metadata",
      message: `Invalid key: ${longKey} must be a string under 40 characters`,
    });
    const longValue = "v".repeat(501);
    expect(await stripeErrorOf(stripe.paymentIntents.update("pi_alice", { metadata: { note: longValue } }))).toMatchObject({
      param: "metadata",
      message: `Invalid val: ${longValue} must be a string under 500 characters`,
    });
    expect((await stripe.paymentIntents.retrieve("pi_alice")).metadata).toEqual({ order_id: "A-1001" });
    await stripe.customers.create({ metadata: { ["k".repeat(40)]: "v".repeat(500) } });
  });
});

describe("only expandable fields expand", () => {
  it("refuses a field that is not an object reference with Stripe's message", async () => {
    const { stripe } = await stripeSandbox(exampleSeed());
    for (const field of ["email", "metadata", "invoice_settings", "nonexistent"]) {
      const err = await stripeErrorOf(stripe.customers.retrieve("cus_alice", { expand: [field] }));
      expect(err).toMatchObject({ statusCode: 400, param: "expand", message: `This property cannot be expanded (${field}).` });
    }
    const pi = await stripe.paymentIntents.retrieve("pi_alice", { expand: ["customer", "latest_charge"] });
    expect(pi.customer).toMatchObject({ object: "customer", id: "cus_alice" });
  });
});

describe("unknown parameters and filters are refused, not ignored", () => {
  it("refuses an unknown top-level or nested parameter with parameter_unknown", async () => {
    const { stripe } = await stripeSandbox(exampleSeed());
    const top = await stripeErrorOf(stripe.customers.list({ colour: "red" } as Stripe.CustomerListParams));
    expect(top).toMatchObject({ code: "parameter_unknown", param: "colour", message: "Received unknown parameter: colour" });
    const range = await stripeErrorOf(stripe.customers.list({ created: { after: 5 } } as unknown as Stripe.CustomerListParams));
    expect(range).toMatchObject({
      code: "parameter_unknown",
      param: "created[after]",
      message: "Received unknown parameter: created[after]",
    });
    const nested = await stripeErrorOf(
      stripe.customers.update("cus_alice", { address: { line1: "1 Main St", planet: "Mars" } as Stripe.AddressParam }),
    );
    expect(nested).toMatchObject({ code: "parameter_unknown", param: "address[planet]" });
    expect(((await stripe.customers.retrieve("cus_alice")) as Stripe.Customer).address).toBeNull();
  });

  it("takes `created` as an exact integer as well as a gt/gte/lt/lte range", async () => {
    const { stripe } = await stripeSandbox({
      customers: [
        { id: "cus_1", created: 1767225600 },
        { id: "cus_2", created: 1767225700 },
      ],
    });
    expect((await stripe.customers.list({ created: 1767225700 })).data.map((c) => c.id)).toEqual(["cus_2"]);
    expect((await stripe.customers.list({ created: { lt: 1767225700 } })).data.map((c) => c.id)).toEqual(["cus_1"]);
    const bad = await stripeErrorOf(stripe.customers.list({ created: "yesterday" } as unknown as Stripe.CustomerListParams));
    expect(bad).toMatchObject({ code: "parameter_invalid_integer", param: "created" });
  });
});

describe("automatic payment methods are on by default, with their return_url rule", () => {
  it("defaults automatic_payment_methods on when no payment_method_types are named", async () => {
    const { stripe } = await stripeSandbox({ customers: [] });
    const pi = await stripe.paymentIntents.create({ amount: 1000, currency: "usd" });
    expect(pi.automatic_payment_methods).toEqual({ allow_redirects: "always", enabled: true });
    const cards = await stripe.paymentIntents.create({ amount: 1000, currency: "usd", allowed_payment_method_types: ["card"] });
    expect(cards.automatic_payment_methods).toBeNull();
  });

  it("refuses to confirm without return_url while redirects are allowed, and confirms with one or off_session", async () => {
    const { stripe } = await stripeSandbox({ customers: [] });
    const pi = await stripe.paymentIntents.create({ amount: 1000, currency: "usd" });
    const err = await stripeErrorOf(stripe.paymentIntents.confirm(pi.id, { payment_method: "pm_card_visa" }));
    expect(err).toMatchObject({ statusCode: 400, type: "StripeInvalidRequestError" });
    expect(err.message).toMatch(/^A `return_url` must be specified because this Payment Intent is configured to automatically accept/);
    expect((await stripe.paymentIntents.retrieve(pi.id)).status).toBe("requires_payment_method");
    const done = await stripe.paymentIntents.confirm(pi.id, { payment_method: "pm_card_visa", return_url: "https://shop.example/done" });
    expect(done.status).toBe("succeeded");
    const offSession = await stripe.paymentIntents.create({
      amount: 1000,
      currency: "usd",
      payment_method: "pm_card_visa",
      confirm: true,
      off_session: true,
    });
    expect(offSession.status).toBe("succeeded");
    const never = await stripe.paymentIntents.create({
      amount: 1000,
      currency: "usd",
      automatic_payment_methods: { enabled: true, allow_redirects: "never" },
      payment_method: "pm_card_visa",
      confirm: true,
    });
    expect(never.status).toBe("succeeded");
  });
});

describe("HTTP Basic authentication is accepted beside Bearer", () => {
  it("answers `curl -u sk_test_…:` as it answers the Bearer key, and refuses a wrong key", async () => {
    const { sandbox } = await stripeSandbox(exampleSeed());
    const key = sandbox.provider_credentials.stripe.token;
    const basic = await SELF.fetch("http://pome.test/v1/customers/cus_alice", {
      headers: { authorization: `Basic ${btoa(`${key}:`)}` },
    });
    expect(basic.status).toBe(200);
    expect(await basic.json()).toMatchObject({ id: "cus_alice", object: "customer" });
    const wrong = await SELF.fetch("http://pome.test/v1/customers/cus_alice", {
      headers: { authorization: `Basic ${btoa("sk_test_not_a_key:")}` },
    });
    expect(wrong.status).toBe(401);
  });
});

describe("what one object sets on another is saved", () => {
  it("a dispute sets disputed: true on its charge, read back on retrieve", async () => {
    const { stripe } = await stripeSandbox({ customers: [] });
    const pi = await stripe.paymentIntents.create({
      amount: 5000,
      currency: "usd",
      allowed_payment_method_types: ["card"],
      payment_method: "pm_card_createDispute",
      confirm: true,
    });
    const charge = await stripe.charges.retrieve(String(pi.latest_charge));
    expect(charge.disputed).toBe(true);
    const disputes = await stripe.disputes.list({ charge: charge.id });
    expect(disputes.data).toHaveLength(1);
  });
});

describe("test card tokens are accepted where Stripe accepts them", () => {
  it("makes a PaymentMethod from card[token]=tok_visa and charges it; a declining token declines", async () => {
    const { stripe } = await stripeSandbox({ customers: [{ id: "cus_t" }] });
    const pm = await stripe.paymentMethods.create({ type: "card", card: { token: "tok_visa" } });
    expect(pm).toMatchObject({ object: "payment_method", type: "card", card: { brand: "visa", last4: "4242" }, customer: null });
    await stripe.paymentMethods.attach(pm.id, { customer: "cus_t" });
    const pi = await stripe.paymentIntents.create({
      amount: 1200,
      currency: "usd",
      customer: "cus_t",
      payment_method: pm.id,
      allowed_payment_method_types: ["card"],
      confirm: true,
    });
    expect(pi.status).toBe("succeeded");
    const declining = await stripe.paymentMethods.create({ type: "card", card: { token: "tok_chargeDeclined" } });
    const err = await stripeErrorOf(
      stripe.paymentIntents.create({
        amount: 1200,
        currency: "usd",
        payment_method: declining.id,
        allowed_payment_method_types: ["card"],
        confirm: true,
      }),
    );
    expect(err).toMatchObject({ statusCode: 402, code: "card_declined" });
    const raw = await stripeErrorOf(
      stripe.paymentMethods.create({ type: "card", card: { number: "4242424242424242", exp_month: 12, exp_year: 2030, cvc: "123" } }),
    );
    expect(raw).toMatchObject({ statusCode: 400, param: "card[number]" });
    const unknown = await stripeErrorOf(stripe.paymentMethods.create({ type: "card", card: { token: "tok_nope" } }));
    expect(unknown).toMatchObject({ statusCode: 404, code: "resource_missing", param: "card[token]" });
  });

  it("takes pm_card_ tokens on attach, on customer create and on confirm", async () => {
    const { stripe } = await stripeSandbox({ customers: [{ id: "cus_t" }] });
    const attached = await stripe.paymentMethods.attach("pm_card_mastercard", { customer: "cus_t" });
    expect(attached).toMatchObject({ customer: "cus_t", card: { brand: "mastercard" } });
    const customer = await stripe.customers.create({ payment_method: "pm_card_visa" });
    const methods = await stripe.customers.listPaymentMethods(customer.id);
    expect(methods.data).toHaveLength(1);
  });
});
