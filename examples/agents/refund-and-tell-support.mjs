#!/usr/bin/env node
// Reference agent for examples/tasks/refund-and-tell-support.md (Stripe and Slack): refund the
// order's later charge as a duplicate in Stripe, then report it in #support, naming the order.
import { slackFromEnv } from "./lib/slack.mjs";
import { run, say, stripeFromEnv } from "./lib/stripe.mjs";

run(async () => {
  const stripe = stripeFromEnv();
  const found = await stripe.charges.search({ query: "metadata['order_id']:'B-2001' AND status:'succeeded'" });
  const charges = [...found.data].sort((a, b) => a.created - b.created);
  if (charges.length < 2) throw new Error(`expected a duplicate, found ${charges.length} charge(s) for B-2001`);
  const [original, ...duplicates] = charges;
  for (const charge of duplicates) {
    await stripe.refunds.create({ charge: charge.id, reason: "duplicate", metadata: { order_id: "B-2001" } });
  }
  const slack = slackFromEnv();
  await slack.chat.postMessage({
    channel: "C0SUPPORT",
    text: `Order B-2001 was charged twice: kept ${original.id}, refunded ${duplicates.map((c) => c.id).join(", ")} in full as a duplicate.`,
  });
  say(`refunded ${duplicates.length} duplicate(s) of B-2001 and told #support`);
});
