// The Stripe twin's figures: a point read (GET customer), a point write (POST customer update)
// and a list page against a bare Node round trip, and the same calls on a world of `bigWorld`
// customers against one of 10, interleaved in one shuffled loop so machine drift hits all alike.
import { describeFailure, jsonOf, request } from "../lib/http.mjs";
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
  // Checkout and saved cards, areas of round 3: one session to read, one SetupIntent to update.
  const made = async (path, body) => {
    const reply = await request(`${api}${path}`, { method: "POST", headers: form, body });
    if (reply.status !== 200) throw new Error(describeFailure(`POST ${path}`, reply));
    return jsonOf(reply).id;
  };
  const session = await made(
    "/v1/checkout/sessions",
    "mode=payment&success_url=https%3A%2F%2Fexample.com%2Fdone&line_items[0][quantity]=1&line_items[0][price_data][currency]=usd" +
      "&line_items[0][price_data][unit_amount]=500&line_items[0][price_data][product_data][name]=Bench",
  );
  const setupIntent = await made("/v1/setup_intents", `customer=${id(0)}&payment_method_types[0]=card`);
  return {
    ...sandbox,
    session: () => request(`${api}/v1/checkout/sessions/${session}`, { headers: auth }),
    setupIntent: (i) => request(`${api}/v1/setup_intents/${setupIntent}`, { method: "POST", headers: form, body: `metadata[bench]=${i}` }),
    read: (i) => request(`${api}/v1/customers/${id(i)}`, { headers: auth }),
    write: (i) => request(`${api}/v1/customers/${id(i)}`, { method: "POST", headers: form, body: "metadata[bench]=1" }),
    list: () => request(`${api}/v1/customers?limit=${PAGE}`, { headers: auth }),
  };
}

/** Point calls in Checkout and SetupIntents, judged like the twin's own read and write. */
const AREAS = [
  { key: "checkout-session", kind: "read", name: "GET Checkout Session", label: "checkout.sessions.retrieve", call: (s) => s.session() },
  { key: "setup-intent", kind: "write", name: "POST SetupIntent", label: "setupIntents.update", call: (s, at) => s.setupIntent(at()) },
];

export const measureStripe = (ctx) =>
  measureTwin(ctx, {
    name: "stripe",
    areas: AREAS,
    specs: twinSpecs({
      twin: "stripe",
      display: "Stripe",
      big: ctx.sizes.bigWorld,
      read: "GET customer",
      write: "POST customer",
      list: "list page",
      objects: "customers",
      world: "customer world",
      areas: AREAS,
    }),
    create: (count) => createStripe(ctx.platform.baseUrl, count),
    pick: (random, max) => Math.floor(random() * max),
    labels: { read: "customers.retrieve", write: "customers.update", list: "customers.list" },
  });
