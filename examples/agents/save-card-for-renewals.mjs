#!/usr/bin/env node
// Reference agent for examples/tasks/save-card-for-renewals.md: find the customer, save the new
// card with a confirmed off-session SetupIntent (which attaches it to her), then make it the
// default payment method for her invoices. Nothing is charged.
import { run, say, stripeFromEnv } from "./lib/stripe.mjs";

run(async () => {
  const stripe = stripeFromEnv();
  const [customer] = (await stripe.customers.list({ email: "dana@example.com", limit: 1 })).data;
  if (!customer) throw new Error("no customer with email dana@example.com");
  const setup = await stripe.setupIntents.create({
    customer: customer.id,
    payment_method: "pm_card_mastercard",
    usage: "off_session",
    confirm: true,
    // A server-side confirmation with a card needs no redirect; without this Stripe asks for a return_url.
    automatic_payment_methods: { enabled: true, allow_redirects: "never" },
  });
  if (setup.status !== "succeeded") throw new Error(`the SetupIntent ${setup.id} is ${setup.status}`);
  await stripe.customers.update(customer.id, { invoice_settings: { default_payment_method: String(setup.payment_method) } });
  say(`saved ${setup.payment_method} to ${customer.id} with ${setup.id} and made it the invoice default`);
});
