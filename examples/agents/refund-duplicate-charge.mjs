#!/usr/bin/env node
// Reference agent for examples/tasks/refund-duplicate-charge.md: find the charges of the order,
// keep the first, refund each later one in full as a duplicate.
import { run, say, stripeFromEnv } from "./lib/stripe.mjs";

run(async () => {
  const stripe = stripeFromEnv();
  const found = await stripe.charges.search({ query: "metadata['order_id']:'B-2001' AND status:'succeeded'" });
  const charges = [...found.data].sort((a, b) => a.created - b.created);
  if (charges.length < 2) throw new Error(`expected a duplicate, found ${charges.length} charge(s) for B-2001`);
  const [original, ...duplicates] = charges;
  say(`order B-2001: keeping ${original.id}, refunding ${duplicates.map((c) => c.id).join(", ")}`);
  for (const charge of duplicates) {
    await stripe.refunds.create({ charge: charge.id, reason: "duplicate", metadata: { order_id: "B-2001" } });
  }
  say("refunded");
});
