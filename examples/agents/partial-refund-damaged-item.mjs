#!/usr/bin/env node
// Reference agent for examples/tasks/partial-refund-damaged-item.md: find the order's payment and
// refund only the damaged item's price, leaving the rest of the charge and the subscription alone.
import { run, say, stripeFromEnv } from "./lib/stripe.mjs";

run(async () => {
  const stripe = stripeFromEnv();
  const found = await stripe.paymentIntents.search({ query: "metadata['order_id']:'A-1001'" });
  const pi = found.data[0];
  if (pi?.status !== "succeeded") throw new Error("no succeeded payment for order A-1001");
  const item = Number(pi.metadata.item_lamp_amount);
  if (!Number.isInteger(item)) throw new Error("the order does not record the lamp's price");
  const refund = await stripe.refunds.create({
    payment_intent: pi.id,
    amount: item,
    reason: "requested_by_customer",
    metadata: { reason: "damaged lamp" },
  });
  say(`refunded ${refund.amount} of ${pi.amount} on ${String(refund.charge)}`);
});
