// What the Stripe example agents share: stripe-node configured the ordinary way, from the
// environment `pome run` gives the examinee: the twin's origin as host/port/protocol (stripe-node
// keeps no path prefix, so it uses the credential-routed root /v1/...) and the sandbox's sk_test_ key.
import Stripe from "stripe";

export function stripeFromEnv() {
  const restUrl = process.env.POME_STRIPE_REST_URL;
  const key = process.env.POME_STRIPE_TOKEN;
  if (!restUrl || !key) {
    console.error("agent: POME_STRIPE_REST_URL and POME_STRIPE_TOKEN must be set; run me through `pome run <task.md> -- node <agent>`");
    process.exit(2);
  }
  const origin = new URL(restUrl);
  return new Stripe(key, {
    host: origin.hostname,
    port: Number(origin.port || (origin.protocol === "https:" ? 443 : 80)),
    protocol: origin.protocol.replace(":", ""),
    maxNetworkRetries: 0,
  });
}

export const say = (...parts) => console.error("agent:", ...parts);

export function run(main) {
  main().catch((err) => {
    console.error(`agent: failed: ${err.statusCode ? `${err.statusCode} ` : ""}${err.message}`);
    process.exit(1);
  });
}
