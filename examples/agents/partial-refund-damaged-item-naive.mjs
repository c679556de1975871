#!/usr/bin/env node
// A naive agent for examples/tasks/partial-refund-damaged-item.md: it refunds the whole order
// instead of the damaged item. The task must fail it.
import { run, say, stripeFromEnv } from "./lib/stripe.mjs";

run(async () => {
  const stripe = stripeFromEnv();
  const found = await stripe.paymentIntents.search({ query: "metadata['order_id']:'A-1001'" });
  const refund = await stripe.refunds.create({ payment_intent: found.data[0].id });
  say(`refunded ${refund.amount}`);
});
