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
