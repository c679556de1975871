// Stripe twin test helpers: stripe-node pointed at the platform the ordinary way (host, port,
// protocol, the sandbox's sk_test_ key, the credential-routed root /v1/...), its HTTP going
// through the router inside workerd, retries off.
import { SELF } from "cloudflare:test";
import Stripe from "stripe";
import { createSandbox, type CreatedSandbox } from "../helpers";

const selfFetch: typeof fetch = (input, init) => SELF.fetch(new Request(input as RequestInfo, init));

export function stripeFor(sandbox: CreatedSandbox, key = sandbox.provider_credentials.stripe.token): Stripe {
  return new Stripe(key, {
    host: "pome.test",
    port: 80,
    protocol: "http",
    httpClient: Stripe.createFetchHttpClient(selfFetch),
    maxNetworkRetries: 0,
    telemetry: false,
  });
}

export async function stripeSandbox(seed?: unknown): Promise<{ sandbox: CreatedSandbox; stripe: Stripe }> {
  const sandbox = await createSandbox({ twins: ["stripe"], ...(seed === undefined ? {} : { seed }) });
  return { sandbox, stripe: stripeFor(sandbox) };
}

/** What a stripe-node call threw, for asserting on Stripe's error classes and fields. */
export async function stripeErrorOf(p: Promise<unknown>): Promise<Stripe.errors.StripeError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof Stripe.errors.StripeError) return err;
    throw err;
  }
  throw new Error("expected the call to fail");
}

/** The example seed: one of each resource, related by plain ids. */
export function exampleSeed() {
  return {
    customers: [
      {
        id: "cus_alice",
        email: "alice@example.com",
        name: "Alice Doe",
        metadata: { plan: "pro" },
        created: 1767225600,
        invoice_settings: { default_payment_method: "pm_alice_visa" },
      },
    ],
    payment_methods: [
      { id: "pm_alice_visa", type: "card", customer: "cus_alice", card: { brand: "visa", last4: "4242", exp_month: 12, exp_year: 2030 } },
    ],
    products: [{ id: "prod_pro", name: "Pro plan" }],
    prices: [{ id: "price_pro_monthly", product: "prod_pro", currency: "usd", unit_amount: 2000, recurring: { interval: "month" } }],
    coupons: [{ id: "WELCOME10", percent_off: 10, duration: "once" }],
    subscriptions: [
      {
        id: "sub_alice",
        customer: "cus_alice",
        status: "active",
        default_payment_method: "pm_alice_visa",
        items: [{ price: "price_pro_monthly", quantity: 1, current_period_start: 1767225600, current_period_end: 1769904000 }],
        discounts: [{ coupon: "WELCOME10" }],
      },
    ],
    invoices: [
      {
        id: "in_alice_1",
        customer: "cus_alice",
        status: "paid",
        currency: "usd",
        parent: { subscription_details: { subscription: "sub_alice" } },
        lines: [{ pricing: { price_details: { price: "price_pro_monthly" } }, quantity: 1, amount: 2000 }],
      },
    ],
    payment_intents: [
      {
        id: "pi_alice",
        customer: "cus_alice",
        amount: 2500,
        currency: "usd",
        status: "succeeded",
        payment_method: "pm_alice_visa",
        latest_charge: "ch_alice",
        metadata: { order_id: "A-1001" },
      },
    ],
    charges: [
      {
        id: "ch_alice",
        payment_intent: "pi_alice",
        customer: "cus_alice",
        amount: 2500,
        currency: "usd",
        status: "succeeded",
        captured: true,
        payment_method: "pm_alice_visa",
      },
    ],
    refunds: [{ id: "re_alice_1", charge: "ch_alice", amount: 500, reason: "requested_by_customer", status: "succeeded" }],
    disputes: [{ id: "dp_alice", charge: "ch_alice", amount: 2000, reason: "fraudulent", status: "needs_response" }],
    webhook_endpoints: [
      { id: "we_ops", url: "https://hooks.example.com/stripe", enabled_events: ["charge.refunded"], secret: "whsec_test_secret" },
    ],
    test_clocks: [{ id: "clock_1", frozen_time: 1767225600 }],
    events: [],
  };
}

/** The platform balance's available USD, in cents. */
export const usdAvailable = (b: Stripe.Balance) => b.available.find((s) => s.currency === "usd")?.amount ?? 0;

/** Money available at once: a payment with the test card that skips the pending period. */
export async function fund(stripe: Stripe, amount: number): Promise<void> {
  await stripe.paymentIntents.create({
    amount,
    currency: "usd",
    payment_method: "pm_card_bypassPending",
    allowed_payment_method_types: ["card"],
    confirm: true,
  });
}
