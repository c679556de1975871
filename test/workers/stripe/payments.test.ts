import { describe, expect, it } from "vitest";
import { SELF } from "cloudflare:test";
import Stripe from "stripe";
import { stripeErrorOf, stripeSandbox } from "./fixtures";

describe("payment intents through stripe-node", () => {
  it("confirms with a test card: succeeded, latest_charge, balance transaction, events", async () => {
    const { stripe } = await stripeSandbox();
    const pi = await stripe.paymentIntents.create({
      amount: 1999,
      currency: "usd",
      customer: "cus_bob",
      automatic_payment_methods: { enabled: true, allow_redirects: "never" },
    });
    expect(pi).toMatchObject({
      object: "payment_intent",
      status: "requires_payment_method",
      amount: 1999,
      automatic_payment_methods: { enabled: true },
    });
    const done = await stripe.paymentIntents.confirm(pi.id, {
      payment_method: "pm_card_visa",
      expand: ["latest_charge.balance_transaction"],
    });
    expect(done.status).toBe("succeeded");
    expect(done.amount_received).toBe(1999);
    const charge = done.latest_charge as Stripe.Charge;
    expect(charge).toMatchObject({
      object: "charge",
      amount: 1999,
      captured: true,
      paid: true,
      status: "succeeded",
      payment_intent: pi.id,
    });
    expect(charge.balance_transaction).toMatchObject({ object: "balance_transaction", amount: 1999, fee: 88, net: 1911 });
    const events = await stripe.events.list({ type: "payment_intent.succeeded" });
    expect(events.data[0].data.object).toMatchObject({ id: pi.id, status: "succeeded" });
  });

  it("takes amounts in each currency's minor unit and refuses one below the minimum", async () => {
    const { stripe } = await stripeSandbox();
    const yen = await stripe.paymentIntents.create({
      amount: 500,
      currency: "jpy",
      payment_method: "pm_card_visa",
      allowed_payment_method_types: ["card"],
      confirm: true,
    });
    expect(yen).toMatchObject({ status: "succeeded", currency: "jpy", amount: 500 });
    const eur = await stripe.paymentIntents.create({ amount: 1050, currency: "eur" });
    expect(eur.currency).toBe("eur");
    const small = await stripeErrorOf(stripe.paymentIntents.create({ amount: 20, currency: "usd" }));
    expect(small).toMatchObject({ statusCode: 400, code: "amount_too_small", param: "amount" });
    const missing = await stripeErrorOf(stripe.paymentIntents.create({ currency: "usd" } as Stripe.PaymentIntentCreateParams));
    expect(missing).toMatchObject({ code: "parameter_missing", param: "amount", message: "Missing required param: amount." });
  });

  it("declines with StripeCardError, keeping the failed charge and last_payment_error", async () => {
    const { stripe } = await stripeSandbox();
    const err = await stripeErrorOf(
      stripe.paymentIntents.create({
        amount: 3000,
        currency: "usd",
        payment_method: "pm_card_chargeDeclined",
        allowed_payment_method_types: ["card"],
        confirm: true,
      }),
    );
    expect(err).toBeInstanceOf(Stripe.errors.StripeCardError);
    expect(err).toMatchObject({ statusCode: 402, type: "StripeCardError", code: "card_declined", decline_code: "generic_decline" });
    const pi = err.payment_intent;
    expect(pi?.status).toBe("requires_payment_method");
    const stored = await stripe.paymentIntents.retrieve(String(pi?.id));
    expect(stored.status).toBe("requires_payment_method");
    expect(stored.last_payment_error).toMatchObject({ code: "card_declined", decline_code: "generic_decline" });
    const charge = await stripe.charges.retrieve(String(stored.latest_charge));
    expect(charge).toMatchObject({ status: "failed", paid: false, failure_code: "card_declined" });
    const failed = await stripe.events.list({ type: "payment_intent.payment_failed" });
    expect(failed.data).toHaveLength(1);
    const insufficient = await stripeErrorOf(
      stripe.paymentIntents.confirm(stored.id, { payment_method: "pm_card_chargeDeclinedInsufficientFunds" }),
    );
    expect(insufficient).toMatchObject({ decline_code: "insufficient_funds" });
  });

  it("asks for 3D Secure with requires_action", async () => {
    const { stripe } = await stripeSandbox();
    const pi = await stripe.paymentIntents.create({
      amount: 1200,
      currency: "usd",
      payment_method: "pm_card_threeDSecure2Required",
      allowed_payment_method_types: ["card"],
      confirm: true,
    });
    expect(pi.status).toBe("requires_action");
    expect(pi.next_action?.type).toBe("use_stripe_sdk");
  });

  it("declines an off-session payment that needs authentication with authentication_required, as the save-and-reuse guide catches it", async () => {
    const { stripe } = await stripeSandbox({ customers: [{ id: "cus_away", email: "away@example.com" }] });
    const setup = await stripe.setupIntents.create({
      customer: "cus_away",
      payment_method: "pm_card_authenticationRequired",
      confirm: true,
      automatic_payment_methods: { enabled: true, allow_redirects: "never" },
    });
    const saved = await stripe.setupIntents.confirm(setup.id);
    expect(saved.status).toBe("succeeded");
    const pmId = String(saved.payment_method);
    const err = await stripeErrorOf(
      stripe.paymentIntents.create({
        amount: 1099,
        currency: "usd",
        customer: "cus_away",
        payment_method: pmId,
        off_session: true,
        confirm: true,
      }),
    );
    expect(err).toBeInstanceOf(Stripe.errors.StripeCardError);
    expect(err).toMatchObject({
      statusCode: 402,
      type: "StripeCardError",
      code: "authentication_required",
      decline_code: "authentication_required",
      message: "Your card was declined. This transaction requires authentication.",
    });
    expect(err.raw).toMatchObject({ type: "card_error", code: "authentication_required" });
    const raw = err.raw as { payment_intent: { id: string; status: string; last_payment_error: { code: string } } };
    expect(raw.payment_intent).toMatchObject({
      status: "requires_payment_method",
      last_payment_error: { code: "authentication_required", decline_code: "authentication_required", type: "card_error" },
    });
    // The guide then retrieves the intent and shows the customer the card that needs authenticating.
    const retrieved = await stripe.paymentIntents.retrieve(raw.payment_intent.id);
    expect(retrieved.status).toBe("requires_payment_method");
    expect(retrieved.last_payment_error?.payment_method?.id).toBe(pmId);
    expect(retrieved.last_payment_error?.code).toBe("authentication_required");
    const failed = await stripe.charges.list({ payment_intent: retrieved.id });
    expect(failed.data[0]).toMatchObject({ status: "failed", failure_code: "authentication_required" });
    // Confirming it on-session, the customer back, asks for 3D Secure again.
    const back = await stripe.paymentIntents.confirm(retrieved.id, { payment_method: pmId, return_url: "https://shop.example/back" });
    expect(back.status).toBe("requires_action");
    // A card needing no authentication pays off-session as before.
    const visa = await stripe.paymentIntents.create({
      amount: 1099,
      currency: "usd",
      payment_method: "pm_card_visa",
      off_session: true,
      confirm: true,
    });
    expect(visa.status).toBe("succeeded");
  });

  it("fails with authentication_required on-session when error_on_requires_action is true", async () => {
    const { stripe } = await stripeSandbox();
    const err = await stripeErrorOf(
      stripe.paymentIntents.create({
        amount: 1200,
        currency: "usd",
        payment_method: "pm_card_threeDSecure2Required",
        allowed_payment_method_types: ["card"],
        error_on_requires_action: true,
        confirm: true,
      }),
    );
    expect(err).toMatchObject({ statusCode: 402, code: "authentication_required", decline_code: "authentication_required" });
    const piId = (err.raw as { payment_intent: { id: string } }).payment_intent.id;
    expect((await stripe.paymentIntents.retrieve(piId)).status).toBe("requires_payment_method");
    // The same through confirm.
    const pi = await stripe.paymentIntents.create({ amount: 1200, currency: "usd", allowed_payment_method_types: ["card"] });
    const again = await stripeErrorOf(
      stripe.paymentIntents.confirm(pi.id, { payment_method: "pm_card_authenticationRequired", error_on_requires_action: true }),
    );
    expect(again).toMatchObject({ statusCode: 402, code: "authentication_required" });
    // A card that needs no action goes through.
    const ok = await stripe.paymentIntents.confirm(pi.id, { payment_method: "pm_card_visa", error_on_requires_action: true });
    expect(ok.status).toBe("succeeded");
  });

  it("takes payment_method_data[card][token]=tok_visa on create and confirm, as Stripe takes a test token there", async () => {
    const { stripe } = await stripeSandbox();
    // stripe-node's PaymentMethodData type omits `card`, which the API still takes for a token.
    const tokenData = (token: string) =>
      ({
        type: "card",
        card: { token },
        billing_details: { name: "Tok Holder" },
      }) as unknown as Stripe.PaymentIntentCreateParams.PaymentMethodData;
    const pi = await stripe.paymentIntents.create({
      amount: 1500,
      currency: "usd",
      payment_method_data: tokenData("tok_visa"),
      allowed_payment_method_types: ["card"],
      confirm: true,
    });
    expect(pi.status).toBe("succeeded");
    const pm = await stripe.paymentMethods.retrieve(String(pi.payment_method));
    expect(pm).toMatchObject({ type: "card", card: { brand: "visa", last4: "4242" }, billing_details: { name: "Tok Holder" } });
    const later = await stripe.paymentIntents.create({ amount: 1500, currency: "usd", allowed_payment_method_types: ["card"] });
    const err = await stripeErrorOf(stripe.paymentIntents.confirm(later.id, { payment_method_data: tokenData("tok_chargeDeclined") }));
    expect(err).toMatchObject({ statusCode: 402, code: "card_declined" });
    const ok = await stripe.paymentIntents.confirm(later.id, { payment_method_data: tokenData("tok_mastercard") });
    expect(ok.status).toBe("succeeded");
    expect((await stripe.paymentMethods.retrieve(String(ok.payment_method))).card?.last4).toBe("4444");
    // Refusals as Stripe's: both payment_method and payment_method_data, an unknown token, a raw card number.
    const both = await stripeErrorOf(
      stripe.paymentIntents.create({
        amount: 1500,
        currency: "usd",
        payment_method: "pm_card_visa",
        payment_method_data: tokenData("tok_visa"),
      }),
    );
    expect(both).toMatchObject({ statusCode: 400, param: "payment_method_data" });
    const unknown = await stripeErrorOf(
      stripe.paymentIntents.create({ amount: 1500, currency: "usd", payment_method_data: tokenData("tok_nope") }),
    );
    expect(unknown).toMatchObject({ statusCode: 404, code: "resource_missing", param: "payment_method_data[card][token]" });
    const raw = await stripeErrorOf(
      stripe.paymentIntents.create({
        amount: 1500,
        currency: "usd",
        payment_method_data: {
          type: "card",
          card: { number: "4242424242424242" },
        } as unknown as Stripe.PaymentIntentCreateParams.PaymentMethodData,
      }),
    );
    expect(raw).toMatchObject({ statusCode: 400, param: "payment_method_data[card][number]" });
    // A SetupIntent takes it too.
    const si = await stripe.setupIntents.create({
      payment_method_data: tokenData("tok_visa") as unknown as Stripe.SetupIntentCreateParams.PaymentMethodData,
      allowed_payment_method_types: ["card"],
      confirm: true,
    });
    expect(si.status).toBe("succeeded");
  });

  it("captures part of a manual authorization, then refunds part of it", async () => {
    const { sandbox, stripe } = await stripeSandbox();
    const pi = await stripe.paymentIntents.create({
      amount: 5000,
      currency: "usd",
      capture_method: "manual",
      payment_method: "pm_card_mastercard",
      allowed_payment_method_types: ["card"],
      confirm: true,
    });
    expect(pi).toMatchObject({ status: "requires_capture", amount_capturable: 5000 });
    const uncaptured = await stripe.charges.retrieve(String(pi.latest_charge));
    expect(uncaptured.captured).toBe(false);
    const captured = await stripe.paymentIntents.capture(pi.id, { amount_to_capture: 4000 });
    expect(captured).toMatchObject({ status: "succeeded", amount_received: 4000, amount_capturable: 0 });
    const refund = await stripe.refunds.create({ payment_intent: pi.id, amount: 1500, reason: "requested_by_customer" });
    expect(refund).toMatchObject({
      object: "refund",
      amount: 1500,
      status: "succeeded",
      charge: pi.latest_charge,
      payment_intent: pi.id,
      reason: "requested_by_customer",
    });
    const charge = await stripe.charges.retrieve(String(pi.latest_charge));
    expect(charge).toMatchObject({ amount_captured: 4000, amount_refunded: 1500, refunded: false });
    const tooMuch = await stripeErrorOf(stripe.refunds.create({ charge: charge.id, amount: 3000 }));
    expect(tooMuch).toMatchObject({ statusCode: 400, code: "amount_too_large", param: "amount" });
    expect(tooMuch.message).toBe("Refund amount ($30.00) is greater than unrefunded amount on charge ($25.00)");
    const rest = await stripe.refunds.create({ charge: charge.id });
    expect(rest.amount).toBe(2500);
    expect((await stripe.charges.retrieve(charge.id)).refunded).toBe(true);
    const again = await stripeErrorOf(stripe.refunds.create({ charge: charge.id }));
    expect(again).toMatchObject({ code: "charge_already_refunded" });
    const included = await stripe.charges.retrieve(charge.id, { expand: ["refunds"] });
    expect(included.refunds?.data.map((r) => r.amount)).toEqual([2500, 1500]);
    expect((await stripe.charges.retrieve(charge.id)).refunds).toBeUndefined();
    const sub = await SELF.fetch(`http://pome.test/v1/charges/${charge.id}/refunds`, {
      headers: { authorization: `Bearer ${sandbox.provider_credentials.stripe.token}` },
    });
    expect((await sub.json<{ data: { amount: number }[] }>()).data.map((r) => r.amount)).toEqual([2500, 1500]);
    const refunds = await stripe.refunds.list({ charge: charge.id });
    expect(refunds.data.map((r) => r.amount)).toEqual([2500, 1500]);
    const events = await stripe.events.list({ type: "charge.refunded", limit: 5 });
    expect(events.data).toHaveLength(2);
  });

  it("cancels an intent and refuses to confirm it afterwards", async () => {
    const { stripe } = await stripeSandbox();
    const pi = await stripe.paymentIntents.create({ amount: 800, currency: "usd" });
    const canceled = await stripe.paymentIntents.cancel(pi.id, { cancellation_reason: "abandoned" });
    expect(canceled).toMatchObject({ status: "canceled", cancellation_reason: "abandoned" });
    const err = await stripeErrorOf(stripe.paymentIntents.confirm(pi.id, { payment_method: "pm_card_visa" }));
    expect(err).toMatchObject({ statusCode: 400, code: "payment_intent_unexpected_state" });
  });

  it("replays an idempotent create and refuses the key with other parameters", async () => {
    const { sandbox, stripe } = await stripeSandbox();
    const a = await stripe.paymentIntents.create({ amount: 1500, currency: "usd" }, { idempotencyKey: "order-77" });
    const b = await stripe.paymentIntents.create({ amount: 1500, currency: "usd" }, { idempotencyKey: "order-77" });
    expect(b.id).toBe(a.id);
    expect(b.lastResponse.idempotencyKey).toBe("order-77");
    // The replay header, read off the wire: the same form body under the same key.
    const raw = await SELF.fetch("http://pome.test/v1/payment_intents", {
      method: "POST",
      headers: {
        authorization: `Bearer ${sandbox.provider_credentials.stripe.token}`,
        "content-type": "application/x-www-form-urlencoded",
        "idempotency-key": "order-77",
      },
      body: "amount=1500&currency=usd",
    });
    expect(raw.status).toBe(200);
    expect(raw.headers.get("idempotent-replayed")).toBe("true");
    expect(raw.headers.get("stripe-version")).toBe("2026-10-28.endive");
    expect((await raw.json<{ id: string }>()).id).toBe(a.id);
    const list = await stripe.paymentIntents.list({ limit: 100 });
    expect(list.data.filter((p) => p.id === a.id)).toHaveLength(1);
    const conflict = await stripeErrorOf(stripe.paymentIntents.create({ amount: 1600, currency: "usd" }, { idempotencyKey: "order-77" }));
    expect(conflict).toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
    expect(conflict.statusCode).toBe(400);
  });

  it("lists, searches and expands charges and intents", async () => {
    const { stripe } = await stripeSandbox();
    const charges = await stripe.charges.list({ customer: "cus_alice", expand: ["data.customer", "data.payment_intent"] });
    expect(charges.data).toHaveLength(1);
    expect(charges.data[0].customer).toMatchObject({ id: "cus_alice", object: "customer" });
    expect(charges.data[0]).toMatchObject({ amount_refunded: 500, refunded: false });
    const bad = await stripeErrorOf(stripe.charges.list({ expand: ["customer"] }));
    expect(bad.statusCode).toBe(400);
    const found = await stripe.paymentIntents.search({ query: "metadata['order_id']:'B-2001'" });
    expect(found.data.map((p) => p.id)).toEqual(["pi_bob_order"]);
    const big = await stripe.charges.search({ query: "amount>3000 AND status:'succeeded'" });
    expect(big.data.map((c) => c.id)).toEqual(["ch_bob_order"]);
    const pi = await stripe.paymentIntents.retrieve("pi_alice_order", {
      expand: ["customer.invoice_settings.default_payment_method", "latest_charge"],
    });
    const customer = pi.customer as Stripe.Customer;
    expect((customer.invoice_settings.default_payment_method as Stripe.PaymentMethod).card?.last4).toBe("4242");
  });
});

describe("payment methods", () => {
  it("attaches a test card to a customer, lists and detaches it", async () => {
    const { stripe } = await stripeSandbox();
    const pm = await stripe.paymentMethods.attach("pm_card_amex", { customer: "cus_bob" });
    expect(pm).toMatchObject({ object: "payment_method", type: "card", customer: "cus_bob", card: { brand: "amex", last4: "8431" } });
    expect(pm.id).not.toBe("pm_card_amex");
    const list = await stripe.customers.listPaymentMethods("cus_bob");
    expect(list.data.map((m) => m.id)).toEqual([pm.id, "pm_bob_mastercard"]);
    const customer = await stripe.customers.update("cus_bob", { invoice_settings: { default_payment_method: pm.id } });
    expect(customer.invoice_settings.default_payment_method).toBe(pm.id);
    const detached = await stripe.paymentMethods.detach(pm.id);
    expect(detached.customer).toBeNull();
    const missing = await stripeErrorOf(stripe.paymentMethods.attach("pm_nope", { customer: "cus_bob" }));
    expect(missing).toMatchObject({ statusCode: 404, code: "resource_missing" });
    const noCustomer = await stripeErrorOf(stripe.paymentMethods.attach("pm_card_visa", { customer: "cus_ghost" }));
    expect(noCustomer).toMatchObject({ statusCode: 404, param: "customer", message: "No such customer: 'cus_ghost'" });
  });
});
