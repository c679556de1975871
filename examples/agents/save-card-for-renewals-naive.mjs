#!/usr/bin/env node
// A naive agent for examples/tasks/save-card-for-renewals.md: it "verifies" the new card by
// charging a dollar with setup_future_usage (which does save the card), then makes it the
// default. The card is saved, but the customer was charged: the task must fail it.
import { run, say, stripeFromEnv } from "./lib/stripe.mjs";

run(async () => {
  const stripe = stripeFromEnv();
  const [customer] = (await stripe.customers.list({ email: "dana@example.com", limit: 1 })).data;
  if (!customer) throw new Error("no customer with email dana@example.com");
  const check = await stripe.paymentIntents.create({
    amount: 100,
    currency: "usd",
    customer: customer.id,
    payment_method: "pm_card_mastercard",
    setup_future_usage: "off_session",
    confirm: true,
    return_url: "https://shop.example/billing",
  });
  await stripe.customers.update(customer.id, { invoice_settings: { default_payment_method: String(check.payment_method) } });
  say(`verified and saved ${check.payment_method} with ${check.id}`);
});
