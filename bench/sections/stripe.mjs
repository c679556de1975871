// The Stripe twin's figures: a point read (GET customer) and a point write (POST customer
// update) against the floor, and the same calls plus a list page on a world of `bigWorld`
// customers against one of 10, interleaved in one shuffled loop so machine drift hits all alike.
import { describeFailure, jsonOf, request } from "../lib/http.mjs";
import { LOCAL_KEY } from "../lib/platform.mjs";
import { failed } from "../lib/figures.mjs";
import { measureInterleaved } from "../lib/interleave.mjs";

// The same sections as the GitHub figures: each twin adds its five under its own id.
const S1 = "1. Twin overhead vs the floor";
const S2 = "2. World-size independence";
const SMALL = 10;
const STUB_TASK = "IyAuLgo=";

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

async function createStripe(baseUrl, count) {
  const reply = await request(`${baseUrl}/v1/sandboxes`, {
    method: "POST",
    headers: { authorization: `Bearer ${LOCAL_KEY}` },
    body: { twins: ["stripe"], task_source: STUB_TASK, seed: stripeWorld(count) },
  });
  if (reply.status !== 201) throw new Error(describeFailure("POST /v1/sandboxes (stripe)", reply));
  const body = jsonOf(reply);
  const api = body.per_twin.stripe.api_url;
  const auth = { authorization: `Bearer ${body.agent_token}` };
  const form = { ...auth, "content-type": "application/x-www-form-urlencoded" };
  const id = (i) => `cus_gen${String(i).padStart(6, "0")}`;
  return {
    id: body.session_id,
    floor: () => request(`${baseUrl}/_bench/floor/${body.session_id}`),
    read: (i) => request(`${api}/v1/customers/${id(i)}`, { headers: auth }),
    write: (i) => request(`${api}/v1/customers/${id(i)}`, { method: "POST", headers: form, body: "metadata[bench]=1" }),
    list: () => request(`${api}/v1/customers?limit=10`, { headers: auth }),
  };
}

async function discard(baseUrl, id) {
  const auth = { authorization: `Bearer ${LOCAL_KEY}` };
  const first = await request(`${baseUrl}/v1/sandboxes/${id}`, { method: "DELETE", headers: auth });
  const token = jsonOf(first)?.error?.details?.discard_token;
  if (first.status === 409 && token)
    await request(`${baseUrl}/v1/sandboxes/${id}?confirm_discard=${encodeURIComponent(token)}`, { method: "DELETE", headers: auth });
}

function specs(big) {
  const n = big.toLocaleString("en-US");
  return [
    {
      id: "stripe.overhead.read.p50",
      section: S1,
      name: "Stripe point read p50 (GET customer)",
      op: "readSmall",
      base: "floor",
      p: 50,
      baselineLabel: "floor p50",
      target: { max: 1.5 },
    },
    {
      id: "stripe.overhead.write.p50",
      section: S1,
      name: "Stripe point write p50 (POST customer)",
      op: "writeSmall",
      base: "floor",
      p: 50,
      baselineLabel: "floor p50",
      target: { max: 2 },
    },
    {
      id: "stripe.world.read.p50",
      section: S2,
      name: `Stripe point read p50, ${n} vs ${SMALL} customers`,
      op: "readBig",
      base: "readSmall",
      p: 50,
      baselineLabel: `${SMALL}-customer world`,
      target: { max: 1.2 },
    },
    {
      id: "stripe.world.write.p50",
      section: S2,
      name: `Stripe point write p50, ${n} vs ${SMALL} customers`,
      op: "writeBig",
      base: "writeSmall",
      p: 50,
      baselineLabel: `${SMALL}-customer world`,
      target: { max: 1.2 },
    },
    {
      id: "stripe.world.list.p50",
      section: S2,
      name: `Stripe list page of 10 p50, ${n} vs ${SMALL} customers`,
      op: "listBig",
      base: "listSmall",
      p: 50,
      baselineLabel: `${SMALL}-customer world`,
      target: { max: 2 },
    },
  ];
}

export async function measureStripe({ platform, sizes, random, log }) {
  const all = specs(sizes.bigWorld);
  let small;
  let big;
  try {
    small = await createStripe(platform.baseUrl, SMALL);
    big = await createStripe(platform.baseUrl, sizes.bigWorld);
  } catch (err) {
    if (small) await discard(platform.baseUrl, small.id);
    return all.map((s) => failed(s, err.message));
  }
  const pick = (max) => Math.floor(random() * max);
  const series = [
    { key: "floor", call: () => small.floor() },
    { key: "readSmall", call: () => small.read(pick(SMALL)) },
    { key: "readBig", call: () => big.read(pick(sizes.bigWorld)) },
    { key: "writeSmall", call: () => small.write(pick(SMALL)) },
    { key: "writeBig", call: () => big.write(pick(sizes.bigWorld)) },
    { key: "listSmall", call: () => small.list() },
    { key: "listBig", call: () => big.list() },
  ];
  try {
    return await measureInterleaved({ name: "stripe", series, specs: all, sizes, random, log });
  } finally {
    await discard(platform.baseUrl, small.id);
    await discard(platform.baseUrl, big.id);
  }
}
