#!/usr/bin/env node
// A naive agent for examples/tasks/refund-and-tell-support.md: it refunds the right charge, but
// announces it in #general, the channel the bot happens to know, instead of #support. The task
// must fail it: a multi-twin task grades each twin's world.
import { slackFromEnv } from "./lib/slack.mjs";
import { run, say, stripeFromEnv } from "./lib/stripe.mjs";

run(async () => {
  const stripe = stripeFromEnv();
  const found = await stripe.charges.search({ query: "metadata['order_id']:'B-2001' AND status:'succeeded'" });
  const [, duplicate] = [...found.data].sort((a, b) => a.created - b.created);
  if (!duplicate) throw new Error("no duplicate charge for B-2001");
  await stripe.refunds.create({ charge: duplicate.id, reason: "duplicate" });
  const slack = slackFromEnv();
  await slack.chat.postMessage({ channel: "C0GENERAL", text: `Refunded the duplicate charge of order B-2001 (${duplicate.id}).` });
  say("refunded and announced it in #general");
});
