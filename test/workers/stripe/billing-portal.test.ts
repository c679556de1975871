// The customer portal: a session is a link for one customer, in Stripe's shape
// (https://billing.stripe.com/p/session/test_…), under the account's default configuration or a
// named one; configurations are created, listed, retrieved, updated and deactivated.
import { describe, expect, it } from "vitest";
import type Stripe from "stripe";
import { stripeErrorOf, stripeSandbox } from "./fixtures";

describe("customer portal sessions", () => {
  it("creates a session for a customer under the default configuration, with Stripe's url shape", async () => {
    const { stripe } = await stripeSandbox();
    const session = await stripe.billingPortal.sessions.create({ customer: "cus_alice", return_url: "https://example.com/account" });
    expect(session).toMatchObject({
      object: "billing_portal.session",
      customer: "cus_alice",
      return_url: "https://example.com/account",
      livemode: false,
      flow: null,
    });
    expect(session.id).toMatch(/^bps_/);
    expect(session.url).toMatch(/^https:\/\/billing\.stripe\.com\/p\/session\/test_[A-Za-z0-9]+$/);
    const config = await stripe.billingPortal.configurations.retrieve(String(session.configuration));
    expect(config).toMatchObject({ is_default: true, active: true, features: { invoice_history: { enabled: true } } });
  });

  it("refuses a session for a missing customer, or without one", async () => {
    const { stripe } = await stripeSandbox();
    const missing = await stripeErrorOf(stripe.billingPortal.sessions.create({ customer: "cus_nobody" }));
    expect(missing).toMatchObject({ statusCode: 404, code: "resource_missing", param: "customer" });
    const none = await stripeErrorOf(stripe.billingPortal.sessions.create({} as Stripe.BillingPortal.SessionCreateParams));
    expect(none).toMatchObject({ statusCode: 400, code: "parameter_missing", param: "customer" });
  });
});

describe("customer portal configurations", () => {
  it("creates a configuration with typed features, uses it for a session, updates and deactivates it", async () => {
    const { stripe } = await stripeSandbox();
    const config = await stripe.billingPortal.configurations.create({
      features: { subscription_cancel: { enabled: true, mode: "immediately" }, invoice_history: { enabled: true } },
      business_profile: { headline: "Manage your plan" },
      default_return_url: "https://example.com/back",
    });
    expect(config).toMatchObject({
      object: "billing_portal.configuration",
      active: true,
      is_default: false,
      default_return_url: "https://example.com/back",
      business_profile: { headline: "Manage your plan" },
      features: {
        subscription_cancel: { enabled: true, mode: "immediately" },
        invoice_history: { enabled: true },
        subscription_pause: { enabled: false },
      },
    });
    const session = await stripe.billingPortal.sessions.create({ customer: "cus_bob", configuration: config.id });
    expect(session).toMatchObject({ configuration: config.id, return_url: "https://example.com/back" });
    const updated = await stripe.billingPortal.configurations.update(config.id, {
      features: { subscription_pause: { enabled: true } },
      active: false,
    });
    expect(updated).toMatchObject({
      active: false,
      features: { subscription_pause: { enabled: true }, subscription_cancel: { enabled: true } },
    });
    const inactive = await stripeErrorOf(stripe.billingPortal.sessions.create({ customer: "cus_bob", configuration: config.id }));
    expect(inactive).toMatchObject({ statusCode: 400, param: "configuration" });
    const listed = await stripe.billingPortal.configurations.list({ active: false });
    expect(listed.data.map((c) => c.id)).toEqual([config.id]);
    expect((await stripe.billingPortal.configurations.list({ is_default: true })).data).toHaveLength(1);
    const noFeatures = await stripeErrorOf(
      stripe.billingPortal.configurations.create({} as Stripe.BillingPortal.ConfigurationCreateParams),
    );
    expect(noFeatures).toMatchObject({ code: "parameter_missing", param: "features" });
  });
});
