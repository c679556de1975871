// Payment upkeep through stripe-node: charges edited and captured, refunds edited and (not)
// canceled, payment methods listed, read through their customer and edited, balance transactions
// read one by one, and a paid payout reversed. Each checks the answer, its effect read back
// through another call, and a refusal in Stripe's error shape.
import type Stripe from "stripe";
import { describe, expect, it } from "vitest";
import { stripeErrorOf, stripeSandbox } from "./fixtures";

async function authorize(stripe: Stripe, amount: number) {
  return stripe.paymentIntents.create({
    amount,
    currency: "usd",
    capture_method: "manual",
    payment_method: "pm_card_visa",
    allowed_payment_method_types: ["card"],
    confirm: true,
  });
}

describe("charges", () => {
  it("charges.update sets description, metadata, fraud_details and shipping", async () => {
    const { stripe } = await stripeSandbox();
    const updated = await stripe.charges.update("ch_bob_order", {
      description: "Order B-2001",
      metadata: { channel: "web" },
      fraud_details: { user_report: "safe" },
      shipping: { name: "Bob Lee", address: { line1: "1 Main St", city: "Springfield", country: "US" }, carrier: "UPS" },
    });
    expect(updated).toMatchObject({
      id: "ch_bob_order",
      object: "charge",
      amount: 4200,
      description: "Order B-2001",
      metadata: { channel: "web" },
      fraud_details: { user_report: "safe" },
      shipping: {
        name: "Bob Lee",
        carrier: "UPS",
        phone: null,
        tracking_number: null,
        address: { line1: "1 Main St", line2: null, city: "Springfield", state: null, postal_code: null, country: "US" },
      },
    });
    expect(await stripe.charges.retrieve("ch_bob_order")).toMatchObject({
      description: "Order B-2001",
      fraud_details: { user_report: "safe" },
    });
    const cleared = await stripe.charges.update("ch_bob_order", { description: "" });
    expect(cleared.description).toBeNull();
    expect((await stripe.events.list({ type: "charge.updated" })).data[0].data.object).toMatchObject({ id: "ch_bob_order" });
    // The amount is not an update parameter (docs.stripe.com/api/charges/update).
    const amount = await stripeErrorOf(stripe.charges.update("ch_bob_order", { amount: 1 } as Stripe.ChargeUpdateParams));
    expect(amount).toMatchObject({ statusCode: 400, code: "parameter_unknown", param: "amount" });
    const missing = await stripeErrorOf(stripe.charges.update("ch_ghost", { description: "x" }));
    expect(missing).toMatchObject({ statusCode: 404, type: "StripeInvalidRequestError", code: "resource_missing" });
  });

  it("charges.capture captures an uncaptured charge, with its balance transaction; a second capture is refused", async () => {
    const { stripe } = await stripeSandbox();
    const pi = await authorize(stripe, 5000);
    const chargeId = String(pi.latest_charge);
    expect(await stripe.charges.retrieve(chargeId)).toMatchObject({ captured: false, balance_transaction: null });
    const captured = await stripe.charges.capture(chargeId, { amount: 3000 }, {});
    expect(captured).toMatchObject({ id: chargeId, object: "charge", captured: true, amount: 5000, amount_captured: 3000 });
    expect(captured.balance_transaction).toEqual(expect.stringMatching(/^txn_/));
    expect(await stripe.paymentIntents.retrieve(pi.id)).toMatchObject({ status: "succeeded", amount_received: 3000, amount_capturable: 0 });
    // "Charge ch_… has already been captured." (code charge_already_captured, docs.stripe.com/error-codes)
    const again = await stripeErrorOf(stripe.charges.capture(chargeId));
    expect(again).toMatchObject({ statusCode: 400, type: "StripeInvalidRequestError", code: "charge_already_captured" });
    const tooMuch = await stripeErrorOf(stripe.charges.capture(String((await authorize(stripe, 1000)).latest_charge), { amount: 2000 }));
    expect(tooMuch).toMatchObject({ statusCode: 400, code: "amount_too_large", param: "amount" });
    expect((await stripeErrorOf(stripe.charges.capture("ch_ghost"))).code).toBe("resource_missing");
  });
});

describe("balance transactions", () => {
  it("balanceTransactions.retrieve reads a capture's transaction: amount, fee, net, source", async () => {
    const { stripe } = await stripeSandbox();
    const pi = await authorize(stripe, 10_000);
    const charge = await stripe.charges.capture(String(pi.latest_charge));
    const txn = await stripe.balanceTransactions.retrieve(String(charge.balance_transaction));
    expect(txn).toMatchObject({
      id: charge.balance_transaction,
      object: "balance_transaction",
      type: "charge",
      reporting_category: "charge",
      amount: 10_000,
      currency: "usd",
      source: charge.id,
    });
    expect(txn.net).toBe(txn.amount - txn.fee);
    expect(txn.fee_details.reduce((sum, f) => sum + f.amount, 0)).toBe(txn.fee);
    const listed = await stripe.balanceTransactions.list({ source: charge.id });
    expect(listed.data.map((t) => t.id)).toEqual([txn.id]);
    const expanded = await stripe.balanceTransactions.retrieve(txn.id, { expand: ["source"] });
    expect(expanded.source).toMatchObject({ id: charge.id, object: "charge" });
    const missing = await stripeErrorOf(stripe.balanceTransactions.retrieve("txn_ghost"));
    expect(missing).toMatchObject({ statusCode: 404, type: "StripeInvalidRequestError", code: "resource_missing" });
  });
});

describe("refunds", () => {
  it("refunds.update sets and unsets metadata only", async () => {
    const { stripe } = await stripeSandbox();
    const updated = await stripe.refunds.update("re_alice_partial", { metadata: { ticket: "T-1", note: "x" } });
    expect(updated).toMatchObject({ id: "re_alice_partial", object: "refund", amount: 500, metadata: { ticket: "T-1", note: "x" } });
    const unset = await stripe.refunds.update("re_alice_partial", { metadata: { note: "" } });
    expect(unset.metadata).toEqual({ ticket: "T-1" });
    expect((await stripe.refunds.retrieve("re_alice_partial")).metadata).toEqual({ ticket: "T-1" });
    // "This request accepts only the metadata as an argument." (docs.stripe.com/api/refunds/update)
    const amount = await stripeErrorOf(stripe.refunds.update("re_alice_partial", { amount: 1 } as Stripe.RefundUpdateParams));
    expect(amount).toMatchObject({ statusCode: 400, code: "parameter_unknown", param: "amount" });
    expect((await stripeErrorOf(stripe.refunds.update("re_ghost", { metadata: {} }))).code).toBe("resource_missing");
  });

  it("refunds.cancel refuses a refund that does not require action, leaving it as it was", async () => {
    const { stripe } = await stripeSandbox();
    const refund = await stripe.refunds.create({ charge: "ch_bob_order", amount: 1000 });
    expect(refund.status).toBe("succeeded");
    // "You can't cancel refunds in states other than requires_action." (docs.stripe.com/api/refunds/cancel)
    const err = await stripeErrorOf(stripe.refunds.cancel(refund.id));
    expect(err).toMatchObject({ statusCode: 400, type: "StripeInvalidRequestError" });
    expect(err.message).toContain("requires_action");
    expect(await stripe.refunds.retrieve(refund.id)).toMatchObject({ status: "succeeded", amount: 1000 });
    expect((await stripe.charges.retrieve("ch_bob_order")).amount_refunded).toBe(1000);
    expect((await stripeErrorOf(stripe.refunds.cancel("re_ghost"))).code).toBe("resource_missing");
  });
});

describe("payment methods", () => {
  it("paymentMethods.list lists a customer's payment methods, by type", async () => {
    const { stripe } = await stripeSandbox();
    const extra = await stripe.paymentMethods.create({ type: "card", card: { token: "tok_mastercard" } });
    await stripe.paymentMethods.attach(extra.id, { customer: "cus_bob" });
    const bobs = await stripe.paymentMethods.list({ customer: "cus_bob", type: "card" });
    expect(bobs).toMatchObject({ object: "list", url: "/v1/payment_methods", has_more: false });
    expect(bobs.data.map((p) => p.id)).toEqual([extra.id, "pm_bob_mastercard"]);
    expect(bobs.data[1]).toMatchObject({
      object: "payment_method",
      type: "card",
      customer: "cus_bob",
      card: { brand: "mastercard", last4: "4444" },
    });
    const page = await stripe.paymentMethods.list({ customer: "cus_bob", limit: 1 });
    expect(page.data.map((p) => p.id)).toEqual([extra.id]);
    expect(page.has_more).toBe(true);
    expect((await stripe.paymentMethods.list({ customer: "cus_bob", type: "us_bank_account" })).data).toEqual([]);
    const bad = await stripeErrorOf(stripe.paymentMethods.list({ customer: "cus_bob", limit: 101 }));
    expect(bad).toMatchObject({ statusCode: 400, param: "limit" });
  });

  it("customers.retrievePaymentMethod reads a payment method through its customer only", async () => {
    const { stripe } = await stripeSandbox();
    const pm = await stripe.customers.retrievePaymentMethod("cus_alice", "pm_alice_visa");
    expect(pm).toMatchObject({
      id: "pm_alice_visa",
      object: "payment_method",
      customer: "cus_alice",
      type: "card",
      card: { brand: "visa", last4: "4242", exp_month: 12, exp_year: 2030 },
    });
    expect(pm).toEqual(await stripe.paymentMethods.retrieve("pm_alice_visa"));
    // Another customer's payment method is not found through this customer.
    const other = await stripeErrorOf(stripe.customers.retrievePaymentMethod("cus_alice", "pm_bob_mastercard"));
    expect(other).toMatchObject({ statusCode: 404, type: "StripeInvalidRequestError", code: "resource_missing" });
    const noCustomer = await stripeErrorOf(stripe.customers.retrievePaymentMethod("cus_ghost", "pm_alice_visa"));
    expect(noCustomer).toMatchObject({ statusCode: 404, code: "resource_missing" });
  });

  it("paymentMethods.update edits an attached method's billing details, metadata and allow_redisplay", async () => {
    const { stripe } = await stripeSandbox();
    const updated = await stripe.paymentMethods.update("pm_carol_amex", {
      billing_details: { name: "Carol Diaz", email: "carol@example.com" },
      metadata: { wallet: "main" },
      allow_redisplay: "always",
    });
    expect(updated).toMatchObject({
      id: "pm_carol_amex",
      object: "payment_method",
      billing_details: { name: "Carol Diaz", email: "carol@example.com" },
      metadata: { wallet: "main" },
      allow_redisplay: "always",
      card: { brand: "amex", last4: "8431" },
    });
    expect(await stripe.paymentMethods.retrieve("pm_carol_amex")).toMatchObject({
      billing_details: { name: "Carol Diaz" },
      allow_redisplay: "always",
    });
    expect((await stripe.events.list({ type: "payment_method.updated" })).data[0].data.object).toMatchObject({ id: "pm_carol_amex" });
    // "A PaymentMethod must be attached to a customer to be updated." (stripe-node PaymentMethods.update)
    const loose = await stripe.paymentMethods.create({ type: "card", card: { token: "tok_visa" } });
    const unattached = await stripeErrorOf(stripe.paymentMethods.update(loose.id, { metadata: { a: "b" } }));
    expect(unattached).toMatchObject({ statusCode: 400, type: "StripeInvalidRequestError" });
    expect((await stripe.paymentMethods.retrieve(loose.id)).metadata).toEqual({});
    expect((await stripeErrorOf(stripe.paymentMethods.update("pm_ghost", { metadata: {} }))).code).toBe("resource_missing");
  });
});

describe("payouts", () => {
  it("payouts.reverse reverses a paid payout into a new pending payout returning the money", async () => {
    const created = Math.floor(Date.now() / 1000) - 3 * 86_400;
    // A stored list's rows are kept as the API made them, so the seed gives a payout's own fields.
    const payout = { object: "payout", automatic: false, livemode: false, method: "standard", source_type: "card", type: "bank_account" };
    const { stripe } = await stripeSandbox({
      payouts: [
        {
          ...payout,
          id: "po_paid",
          amount: 4000,
          currency: "usd",
          status: "paid",
          reconciliation_status: "completed",
          created,
          arrival_date: created + 86_400,
        },
        {
          ...payout,
          id: "po_pending",
          amount: 1000,
          currency: "usd",
          status: "pending",
          reconciliation_status: "not_applicable",
          created,
          arrival_date: created + 30 * 86_400,
        },
      ],
    });
    const before = (await stripe.balance.retrieve()).available.find((b) => b.currency === "usd")?.amount ?? 0;
    const reversal = await stripe.payouts.reverse("po_paid", { metadata: { why: "wrong account" } });
    // "Reverses a payout by debiting the destination bank account" – a new payout whose
    // original_payout is the reversed one, and reversed_by on the original (docs.stripe.com/api/payouts/reverse).
    expect(reversal).toMatchObject({
      object: "payout",
      amount: 4000,
      currency: "usd",
      original_payout: "po_paid",
      metadata: { why: "wrong account" },
    });
    expect(reversal.id).not.toBe("po_paid");
    expect((await stripe.payouts.retrieve("po_paid")).reversed_by).toBe(reversal.id);
    const after = (await stripe.balance.retrieve()).available.find((b) => b.currency === "usd")?.amount ?? 0;
    expect(after).toBe(before + 4000);
    const twice = await stripeErrorOf(stripe.payouts.reverse("po_paid"));
    expect(twice).toMatchObject({ statusCode: 400, type: "StripeInvalidRequestError" });
    // A pending payout is canceled, not reversed.
    expect((await stripeErrorOf(stripe.payouts.reverse("po_pending"))).statusCode).toBe(400);
    expect((await stripeErrorOf(stripe.payouts.reverse("po_ghost"))).code).toBe("resource_missing");
  });
});
