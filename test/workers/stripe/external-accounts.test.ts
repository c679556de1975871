// A connected account's external accounts, as Stripe's Connect testing guide uses them
// (docs.stripe.com/connect/testing#payouts): bank accounts from the test token or from raw details
// with the test routing number, one default per currency, and the test account numbers whose
// payouts fail. Payouts made as the connected account (`Stripe-Account`) are its own: the platform
// does not see them.
import type Stripe from "stripe";
import { describe, expect, it } from "vitest";
import { stripeTwin } from "../../../durable-objects/twins/stripe";
import type { StripeSeed } from "../../../durable-objects/twins/stripe/seed";
import { inTwinWorld, type World } from "../kit/world";
import { stripeErrorOf, stripeSandbox } from "./fixtures";

const rawBank = (account_number: string) => ({
  object: "bank_account",
  country: "US",
  currency: "usd",
  account_number,
  routing_number: "110000000",
  account_holder_name: "Jenny Rosen",
  account_holder_type: "individual",
});

describe("external accounts of a connected account", () => {
  it("adds bank accounts by token and by raw details, keeps one default per currency, and deletes", async () => {
    const { stripe } = await stripeSandbox();
    const account = await stripe.accounts.create({ type: "custom", country: "US", capabilities: { transfers: { requested: true } } });
    const first = (await stripe.accounts.createExternalAccount(account.id, { external_account: "btok_us_verified" })) as Stripe.BankAccount;
    expect(first).toMatchObject({
      object: "bank_account",
      account: account.id,
      bank_name: "STRIPE TEST BANK",
      routing_number: "110000000",
      last4: "6789",
      currency: "usd",
      default_for_currency: true,
      status: "new",
    });
    expect(first).not.toHaveProperty("account_number");
    const second = (await stripe.accounts.createExternalAccount(account.id, {
      external_account: rawBank("000111111116") as unknown as string,
    })) as Stripe.BankAccount;
    expect(second).toMatchObject({ last4: "1116", default_for_currency: false, account_holder_name: "Jenny Rosen" });

    const list = await stripe.accounts.listExternalAccounts(account.id, { object: "bank_account" });
    expect(list.data.map((b) => b.id)).toEqual([second.id, first.id]);
    expect((await stripe.accounts.retrieve(account.id)).external_accounts?.data.map((b) => b.id)).toEqual([second.id, first.id]);

    const refused = await stripeErrorOf(stripe.accounts.deleteExternalAccount(account.id, first.id));
    // Stripe's message, as its own .NET client's integration test saw it (stripe-dotnet's
    // deleting_external_account test) and integrators quote it in full.
    expect(refused).toMatchObject({ statusCode: 400, type: "StripeInvalidRequestError" });
    expect(refused.message).toMatch(/^You cannot delete the default external account for your default currency\./);
    const now = (await stripe.accounts.updateExternalAccount(account.id, second.id, { default_for_currency: true })) as Stripe.BankAccount;
    expect(now.default_for_currency).toBe(true);
    expect(((await stripe.accounts.retrieveExternalAccount(account.id, first.id)) as Stripe.BankAccount).default_for_currency).toBe(false);
    expect(await stripe.accounts.deleteExternalAccount(account.id, first.id)).toEqual({
      id: first.id,
      object: "bank_account",
      deleted: true,
    });
    const gone = await stripeErrorOf(stripe.accounts.retrieveExternalAccount(account.id, first.id));
    expect(gone).toMatchObject({ statusCode: 404, code: "resource_missing" });
    const badToken = await stripeErrorOf(stripe.accounts.createExternalAccount(account.id, { external_account: "btok_nope" }));
    expect(badToken).toMatchObject({ code: "resource_missing", param: "external_account" });
    const types = (await stripe.events.list({ type: "account.external_account.*" })).data.map((e) => e.type);
    expect(types).toContain("account.external_account.deleted");
  });

  it("refuses a connected payout in a currency none of its bank accounts takes, with Stripe's message", async () => {
    const { stripe } = await stripeSandbox();
    await stripe.paymentIntents.create({
      amount: 9000,
      currency: "usd",
      payment_method: "pm_card_bypassPending",
      automatic_payment_methods: { enabled: true, allow_redirects: "never" },
      confirm: true,
    });
    const seller = await stripe.accounts.create({ type: "express", country: "US" });
    await stripe.transfers.create({ amount: 5000, currency: "usd", destination: seller.id });
    const refused = await stripeErrorOf(stripe.payouts.create({ amount: 1000, currency: "usd" }, { stripeAccount: seller.id }));
    expect(refused).toMatchObject({
      statusCode: 400,
      type: "StripeInvalidRequestError",
      message: "Sorry, you don't have any external accounts in that currency (usd).",
    });
    expect((await stripe.payouts.list({}, { stripeAccount: seller.id })).data).toEqual([]);
  });

  it("refuses a Stripe-Account the platform does not control, and acts as a connected one only where it keeps its objects apart", async () => {
    const { stripe } = await stripeSandbox();
    const err = await stripeErrorOf(stripe.payouts.list({}, { stripeAccount: "acct_unknown" }));
    expect(err).toMatchObject({ statusCode: 400, code: "account_invalid" });
    const unknownOnCustomers = await stripeErrorOf(stripe.customers.list({}, { stripeAccount: "acct_unknown" }));
    expect(unknownOnCustomers).toMatchObject({ statusCode: 400, code: "account_invalid" });
    const seller = await stripe.accounts.create({ type: "express", country: "US" });
    expect((await stripe.payouts.list({}, { stripeAccount: seller.id })).data).toEqual([]);
    const before = (await stripe.customers.list({ limit: 100 })).data.length;
    const unscoped = await stripeErrorOf(stripe.customers.create({ email: "x@example.com" }, { stripeAccount: seller.id }));
    expect(unscoped).toMatchObject({ statusCode: 501, code: "not_implemented" });
    expect((await stripe.customers.list({ limit: 100 })).data).toHaveLength(before);
  });
});

describe("a payout to a failing test account number fails on its arrival date", () => {
  const START = Date.UTC(2027, 4, 3, 10) / 1000;
  const form = (body: string, account?: string) => ({
    rawBody: body,
    headers: { "content-type": "application/x-www-form-urlencoded", ...(account ? { "stripe-account": account } : {}) },
  });

  function call(w: World<StripeSeed>, method: string, path: string, body = "", account?: string) {
    const res = w.call(method, path, form(body, account));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as Record<string, unknown>;
  }

  it("goes failed with no_account, erroring the bank account; the platform never sees the payout", async () => {
    let now = START * 1000;
    await inTwinWorld(
      stripeTwin,
      {},
      (w) => {
        call(
          w,
          "POST",
          "/v1/payment_intents",
          "amount=9000&currency=usd&payment_method=pm_card_bypassPending&allowed_payment_method_types[0]=card&confirm=true",
        );
        const acct = String(call(w, "POST", "/v1/accounts", "type=express&country=US").id);
        call(w, "POST", "/v1/transfers", `amount=5000&currency=usd&destination=${acct}`);
        const bank = call(
          w,
          "POST",
          `/v1/accounts/${acct}/external_accounts`,
          "external_account[object]=bank_account&external_account[country]=US&external_account[currency]=usd&external_account[routing_number]=110000000&external_account[account_number]=000111111116",
        );
        const tooMuch = w.call("POST", "/v1/payouts", form("amount=6000&currency=usd", acct));
        expect(tooMuch.body).toMatchObject({ error: { code: "balance_insufficient" } });
        const payout = call(w, "POST", "/v1/payouts", "amount=3000&currency=usd", acct);
        expect(payout).toMatchObject({ status: "pending", destination: bank.id, balance_transaction: null });
        expect(payout).not.toHaveProperty("on_account");
        expect((call(w, "GET", "/v1/payouts") as { data: unknown[] }).data).toEqual([]);
        expect(w.call("GET", `/v1/payouts/${String(payout.id)}`).status).toBe(404);

        now = (payout.arrival_date as number) * 1000;
        const failed = call(w, "GET", `/v1/payouts/${String(payout.id)}`, "", acct);
        expect(failed).toMatchObject({
          status: "failed",
          failure_code: "no_account",
          // The description of `no_account` in Stripe's payout failure codes.
          failure_message: "The bank account details on file are probably incorrect. No bank account could be located with those details.",
        });
        expect(call(w, "GET", `/v1/accounts/${acct}/external_accounts/${String(bank.id)}`).status).toBe("errored");
        const events = w.call("GET", "/v1/events", { query: "type=payout.failed" }).body as { data: unknown[] };
        expect(events.data).toHaveLength(1);
        // The failed payout's money is the account's again.
        expect(call(w, "POST", "/v1/payouts", "amount=5000&currency=usd", acct).status).toBe("pending");
      },
      { now: () => now },
    );
  });
});
