// Connect, enough for a marketplace agent: connected accounts (type or controller), onboarding and
// login links, transfers drawn on the available balance and their reversals, and destination
// charges that transfer to the seller and leave the platform an application fee.
import { describe, expect, it } from "vitest";
import type Stripe from "stripe";
import { stripeErrorOf, stripeSandbox, fund, usdAvailable } from "./fixtures";

describe("connected accounts", () => {
  it("creates Express, Custom and Standard accounts, by type or by controller, and lists, updates and deletes them", async () => {
    const { stripe } = await stripeSandbox();
    const express = await stripe.accounts.create({ type: "express", country: "US", email: "seller@example.com" });
    expect(express).toMatchObject({
      object: "account",
      type: "express",
      country: "US",
      default_currency: "usd",
      email: "seller@example.com",
      charges_enabled: true,
      payouts_enabled: true,
      controller: { type: "application", stripe_dashboard: { type: "express" }, losses: { payments: "application" } },
    });
    const custom = await stripe.accounts.create({
      controller: {
        stripe_dashboard: { type: "none" },
        fees: { payer: "application" },
        losses: { payments: "application" },
        requirement_collection: "application",
      },
      country: "DE",
      capabilities: { card_payments: { requested: true }, transfers: { requested: true } },
    });
    expect(custom).toMatchObject({
      type: "custom",
      country: "DE",
      default_currency: "eur",
      capabilities: { card_payments: "active", transfers: "active" },
    });
    const standard = await stripe.accounts.create({ type: "standard" });
    expect(standard.controller?.stripe_dashboard?.type).toBe("full");
    expect((await stripe.accounts.list()).data.map((a) => a.id)).toEqual([standard.id, custom.id, express.id]);
    const updated = await stripe.accounts.update(express.id, { business_profile: { name: "Seller Co" }, metadata: { tier: "gold" } });
    expect(updated).toMatchObject({ business_profile: { name: "Seller Co" }, metadata: { tier: "gold" } });
    expect(await stripe.accounts.retrieve(express.id)).toEqual(updated);
    expect(await stripe.accounts.del(standard.id)).toEqual({ id: standard.id, object: "account", deleted: true });
    const gone = await stripeErrorOf(stripe.accounts.retrieve(standard.id));
    expect(gone).toMatchObject({ statusCode: 404, code: "resource_missing" });
    const bad = await stripeErrorOf(stripe.accounts.create({ type: "premium" as Stripe.AccountCreateParams.Type }));
    expect(bad).toMatchObject({ statusCode: 400, param: "type" });
  });

  it("makes onboarding links for any account and dashboard login links for Express ones", async () => {
    const { stripe } = await stripeSandbox();
    const express = await stripe.accounts.create({ type: "express" });
    const link = await stripe.accountLinks.create({
      account: express.id,
      type: "account_onboarding",
      refresh_url: "https://example.com/reauth",
      return_url: "https://example.com/done",
    });
    expect(link).toMatchObject({ object: "account_link" });
    expect(link.url).toMatch(/^https:\/\/connect\.stripe\.com\/setup\/s\//);
    expect(link.expires_at).toBeGreaterThan(link.created);
    const login = await stripe.accounts.createLoginLink(express.id);
    expect(login).toMatchObject({ object: "login_link" });
    const standard = await stripe.accounts.create({ type: "standard" });
    expect((await stripeErrorOf(stripe.accounts.createLoginLink(standard.id))).statusCode).toBe(400);
    const missing = await stripeErrorOf(stripe.accountLinks.create({ account: "acct_nobody", type: "account_onboarding" }));
    expect(missing).toMatchObject({ statusCode: 404, code: "resource_missing", param: "account" });
  });
});

describe("transfers draw the available balance and can be reversed", () => {
  it("refuses a transfer the available balance cannot cover with balance_insufficient", async () => {
    const { stripe } = await stripeSandbox();
    const seller = await stripe.accounts.create({ type: "express" });
    const available = usdAvailable(await stripe.balance.retrieve());
    const err = await stripeErrorOf(stripe.transfers.create({ amount: available + 1, currency: "usd", destination: seller.id }));
    expect(err).toMatchObject({ statusCode: 400, code: "balance_insufficient" });
    const nowhere = await stripeErrorOf(stripe.transfers.create({ amount: 100, currency: "usd", destination: "acct_nobody" }));
    expect(nowhere).toMatchObject({ statusCode: 400, code: "resource_missing", param: "destination" });
  });

  it("transfers to a seller, lists and updates it, and reverses it in two parts", async () => {
    const { stripe } = await stripeSandbox();
    await fund(stripe, 10_000);
    const seller = await stripe.accounts.create({ type: "express" });
    const before = usdAvailable(await stripe.balance.retrieve());
    const transfer = await stripe.transfers.create({ amount: 6000, currency: "usd", destination: seller.id, transfer_group: "ORDER_9" });
    expect(transfer).toMatchObject({
      object: "transfer",
      amount: 6000,
      amount_reversed: 0,
      reversed: false,
      destination: seller.id,
      transfer_group: "ORDER_9",
    });
    expect(usdAvailable(await stripe.balance.retrieve())).toBe(before - 6000);
    expect((await stripe.transfers.list({ destination: seller.id })).data.map((t) => t.id)).toEqual([transfer.id]);
    expect((await stripe.transfers.update(transfer.id, { metadata: { order: "9" } })).metadata).toEqual({ order: "9" });
    const part = await stripe.transfers.createReversal(transfer.id, { amount: 1000 });
    expect(part).toMatchObject({ object: "transfer_reversal", amount: 1000, transfer: transfer.id });
    const rest = await stripe.transfers.createReversal(transfer.id);
    expect(rest.amount).toBe(5000);
    const after = await stripe.transfers.retrieve(transfer.id);
    expect(after).toMatchObject({ amount_reversed: 6000, reversed: true });
    expect(after.reversals.data.map((r) => r.id)).toEqual([rest.id, part.id]);
    expect((await stripe.transfers.listReversals(transfer.id)).data.map((r) => r.id)).toEqual([rest.id, part.id]);
    expect(await stripe.transfers.retrieveReversal(transfer.id, part.id)).toMatchObject({ id: part.id, amount: 1000 });
    expect(usdAvailable(await stripe.balance.retrieve())).toBe(before);
    const tooMuch = await stripeErrorOf(stripe.transfers.createReversal(transfer.id, { amount: 1 }));
    expect(tooMuch.statusCode).toBe(400);
    const types = (await stripe.events.list({ type: "transfer.*" })).data.map((e) => e.type);
    expect(types).toEqual(["transfer.reversed", "transfer.reversed", "transfer.updated", "transfer.created"]);
  });
});

describe("destination charges transfer to the seller and leave the platform its fee", () => {
  it("creates the transfer and the application fee when the payment intent with transfer_data succeeds", async () => {
    const { stripe } = await stripeSandbox();
    const seller = await stripe.accounts.create({ type: "express" });
    const before = await stripe.balance.retrieve();
    const pi = await stripe.paymentIntents.create({
      amount: 10_000,
      currency: "usd",
      payment_method: "pm_card_visa",
      allowed_payment_method_types: ["card"],
      application_fee_amount: 1230,
      transfer_data: { destination: seller.id },
      confirm: true,
    });
    expect(pi).toMatchObject({ status: "succeeded", application_fee_amount: 1230, transfer_data: { destination: seller.id } });
    const charge = await stripe.charges.retrieve(String(pi.latest_charge));
    const transfers = await stripe.transfers.list({ destination: seller.id });
    expect(transfers.data).toHaveLength(1);
    expect(transfers.data[0]).toMatchObject({ amount: 10_000 - 1230, source_transaction: charge.id });
    expect(charge).toMatchObject({ transfer: transfers.data[0].id, application_fee_amount: 1230 });
    // The transfer is drawn from the charge's own (pending) funds: the platform keeps its fee less Stripe's.
    const after = await stripe.balance.retrieve();
    expect(after.available[0].amount).toBe(before.available[0].amount);
    expect(after.pending[0].amount).toBe(before.pending[0].amount + 1230 - (290 + 30));
    const fees = await stripe.applicationFees.list({ charge: charge.id });
    expect(fees.data).toHaveLength(1);
    expect(fees.data[0]).toMatchObject({ object: "application_fee", amount: 1230, account: seller.id, charge: charge.id });
    expect(await stripe.applicationFees.retrieve(fees.data[0].id)).toEqual(fees.data[0]);
    const missing = await stripeErrorOf(
      stripe.paymentIntents.create({ amount: 1000, currency: "usd", transfer_data: { destination: "acct_nobody" } }),
    );
    expect(missing).toMatchObject({ code: "resource_missing", param: "transfer_data[destination]" });
  });
});
