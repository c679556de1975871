#!/usr/bin/env node
// A naive agent for examples/tasks/refund-duplicate-charge.md: it refunds every charge of the
// order, the customer's real payment included. The task must fail it.
import { run, say, stripeFromEnv } from "./lib/stripe.mjs";

run(async () => {
  const stripe = stripeFromEnv();
  const found = await stripe.charges.search({ query: "metadata['order_id']:'B-2001'" });
  for (const charge of found.data) await stripe.refunds.create({ charge: charge.id, reason: "duplicate" });
  say(`refunded ${found.data.length} charges`);
});
