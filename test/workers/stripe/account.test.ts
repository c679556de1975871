// GET /v1/account: the platform account the sandbox's key belongs to, in the shape of stripe-node's
// Account; its business profile, country and default currency come from the seed.
import { describe, expect, it } from "vitest";
import { postJson } from "../helpers";
import { stripeErrorOf, stripeSandbox } from "./fixtures";

describe("the platform account answers GET /v1/account", () => {
  it("answers the default platform account as a Standard account ready to charge and pay out", async () => {
    const { stripe } = await stripeSandbox();
    const account = await stripe.accounts.retrieveCurrent();
    expect(await stripe.accounts.retrieve(null)).toEqual(account);
    expect(account).toMatchObject({
      object: "account",
      type: "standard",
      country: "US",
      default_currency: "usd",
      charges_enabled: true,
      payouts_enabled: true,
      details_submitted: true,
      controller: { type: "application", stripe_dashboard: { type: "full" } },
      settings: { payouts: { schedule: { delay_days: 2, interval: "daily" } } },
    });
    expect(account.id).toMatch(/^acct_/);
    expect(account.business_profile?.name).toBe("Pome Twin Platform");
  });

  it("answers the seeded business profile, country and default currency", async () => {
    const { stripe } = await stripeSandbox({
      account: {
        id: "acct_shopwright",
        country: "GB",
        default_currency: "gbp",
        email: "ops@shopwright.example",
        business_profile: { name: "Shopwright", support_email: "help@shopwright.example", url: "https://shopwright.example" },
      },
    });
    const account = await stripe.accounts.retrieveCurrent();
    expect(account).toMatchObject({
      id: "acct_shopwright",
      country: "GB",
      default_currency: "gbp",
      email: "ops@shopwright.example",
      business_profile: { name: "Shopwright", support_email: "help@shopwright.example", url: "https://shopwright.example", mcc: null },
    });
  });

  it("refuses a seed whose account country is not a two-letter code, naming the field", async () => {
    const res = await postJson("/v1/seeds/validate", { twins: ["stripe"], seed: { account: { country: "usa" } } });
    expect(res.status).toBe(422);
    const body = await res.json<{ error: { message: string } }>();
    expect(body.error.message).toContain("account.country");
  });

  it("acts as a connected account named by Stripe-Account, and refuses one it does not control", async () => {
    const { stripe } = await stripeSandbox();
    const seller = await stripe.accounts.create({ type: "express", country: "US", email: "seller@example.com" });
    const asSeller = await stripe.accounts.retrieveCurrent({}, { stripeAccount: seller.id });
    expect(asSeller).toMatchObject({ id: seller.id, type: "express" });
    const err = await stripeErrorOf(stripe.accounts.retrieveCurrent({}, { stripeAccount: "acct_nobody" }));
    expect(err).toMatchObject({ statusCode: 400, code: "account_invalid" });
  });
});
