// The Stripe twin's figures: a point read (GET customer), a point write (POST customer update)
// and a list page against a bare Node round trip, and the same calls on a world of `bigWorld`
// customers against one of 10, interleaved in one shuffled loop so machine drift hits all alike.
import { request } from "../lib/http.mjs";
import { PAGE, measureTwin, twinSandbox, twinSpecs } from "../lib/twin-section.mjs";

/**
 * `count` customers, each with a card: the twin's main objects. (Its generated world adds a
 * payment and a charge per customer, which at 10,000 would pass the 4 MiB request limit.)
 */
function stripeWorld(count) {
  const pad = (i) => String(i).padStart(6, "0");
  const rows = Array.from({ length: count }, (_, i) => i);
  return {
    customers: rows.map((i) => ({
      id: `cus_gen${pad(i)}`,
      email: `customer${i}@example.com`,
      name: `Customer ${i}`,
      invoice_settings: { default_payment_method: `pm_gen${pad(i)}` },
    })),
    payment_methods: rows.map((i) => ({
      id: `pm_gen${pad(i)}`,
      type: "card",
      customer: `cus_gen${pad(i)}`,
      card: { brand: "visa", last4: "4242" },
    })),
  };
}

/** A Stripe sandbox of `count` customers with the section's three calls. */
async function createStripe(baseUrl, count) {
  const sandbox = await twinSandbox(baseUrl, "stripe", stripeWorld(count));
  const api = sandbox.body.per_twin.stripe.api_url;
  const auth = { authorization: `Bearer ${sandbox.body.agent_token}` };
  const form = { ...auth, "content-type": "application/x-www-form-urlencoded" };
  const id = (i) => `cus_gen${String(i).padStart(6, "0")}`;
  return {
    ...sandbox,
    read: (i) => request(`${api}/v1/customers/${id(i)}`, { headers: auth }),
    write: (i) => request(`${api}/v1/customers/${id(i)}`, { method: "POST", headers: form, body: "metadata[bench]=1" }),
    list: () => request(`${api}/v1/customers?limit=${PAGE}`, { headers: auth }),
  };
}

export const measureStripe = (ctx) =>
  measureTwin(ctx, {
    name: "stripe",
    specs: twinSpecs({
      twin: "stripe",
      display: "Stripe",
      big: ctx.sizes.bigWorld,
      read: "GET customer",
      write: "POST customer",
      list: "list page",
      objects: "customers",
      world: "customer world",
    }),
    create: (count) => createStripe(ctx.platform.baseUrl, count),
    pick: (random, max) => Math.floor(random() * max),
    labels: { read: "customers.retrieve", write: "customers.update", list: "customers.list" },
  });
