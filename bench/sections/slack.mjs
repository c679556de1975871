// The Slack twin's figures: a point read (reactions.get on one message) and a point write
// (chat.postMessage) against the floor, the same calls on a workspace of 10,000 messages against
// one of 10 (target ≤ 1.2×), and a page of conversations.history (≤ 2×). Measured side by side
// in one shuffled loop, like the latency section, so machine drift hits every series alike.
import { describeFailure, jsonOf, request } from "../lib/http.mjs";
import { failed } from "../lib/figures.mjs";
import { LOCAL_KEY } from "../lib/platform.mjs";
import { measureInterleaved } from "../lib/interleave.mjs";

const S1 = "1. Twin overhead vs the floor";
const S2 = "2. World-size independence";
const SMALL = 10;
const STUB_TASK = "IyAuLgo=";

/** A workspace with `count` messages in #general, in the seed's own shape. */
function slackWorld(count) {
  const messages = [];
  for (let i = 0; i < count; i++) {
    const micros = String((i % 1000) * 100 + 1).padStart(6, "0");
    messages.push({ ts: `${1600000000 + Math.floor(i / 1000)}.${micros}`, user: i % 2 ? "U0ALICE" : "U0BOB", text: `Message ${i + 1}` });
  }
  return {
    team: { id: "T0BENCH", name: "Bench", domain: "bench" },
    installation: { bot_user_id: "U0BOT" },
    users: [
      { id: "U0BOT", name: "benchbot", is_bot: true, profile: { bot_id: "B0BOT" } },
      { id: "U0ALICE", name: "alice" },
      { id: "U0BOB", name: "bob" },
    ],
    channels: [{ id: "C0GENERAL", name: "general", is_general: true, members: ["U0BOT", "U0ALICE", "U0BOB"], messages }],
  };
}

/** A Slack sandbox of `count` messages with the calls the section makes (the profiler uses it too). */
export async function create(baseUrl, count) {
  const reply = await request(`${baseUrl}/v1/sandboxes`, {
    method: "POST",
    headers: { authorization: `Bearer ${LOCAL_KEY}` },
    body: { twins: ["slack"], task_source: STUB_TASK, seed: slackWorld(count) },
  });
  const body = jsonOf(reply);
  if (reply.status !== 201 || !body?.per_twin?.slack) throw new Error(describeFailure("POST /v1/sandboxes (slack)", reply));
  const api = `${body.per_twin.slack.api_url}/api`;
  const headers = { authorization: `Bearer ${body.provider_credentials.slack.token}`, "content-type": "application/x-www-form-urlencoded" };
  const call = (method, form) => request(`${api}/${method}`, { method: "POST", headers, body: new URLSearchParams(form).toString() });
  return {
    id: body.session_id,
    floor: () => request(`${baseUrl}/_bench/floor/${body.session_id}`),
    read: (ts) => call("reactions.get", { channel: "C0GENERAL", timestamp: ts }),
    write: () => call("chat.postMessage", { channel: "C0GENERAL", text: "bench message" }),
    list: () => call("conversations.history", { channel: "C0GENERAL", limit: "30" }),
  };
}

export const tsOf = (i) => `${1600000000 + Math.floor(i / 1000)}.${String((i % 1000) * 100 + 1).padStart(6, "0")}`;
/** A Slack answer counts when it is HTTP 200 and `ok: true`. */
const okReply = (reply) => reply.status === 200 && jsonOf(reply)?.ok === true;

export async function measureSlack({ platform, sizes, random, log }) {
  const big = sizes.bigWorld;
  const n = big.toLocaleString("en-US");
  const specs = [
    {
      id: "slack.overhead.read.p50",
      name: "Slack point read p50 (reactions.get)",
      op: "readSmall",
      base: "floor",
      baselineLabel: "floor p50",
      target: { max: 1.5 },
    },
    {
      id: "slack.overhead.write.p50",
      name: "Slack point write p50 (chat.postMessage)",
      op: "writeSmall",
      base: "floor",
      baselineLabel: "floor p50",
      target: { max: 2 },
    },
    {
      id: "slack.world.read.p50",
      name: `Slack point read p50, ${n} vs ${SMALL} messages`,
      op: "readBig",
      base: "readSmall",
      baselineLabel: `${SMALL}-message world`,
      target: { max: 1.2 },
    },
    {
      id: "slack.world.write.p50",
      name: `Slack point write p50, ${n} vs ${SMALL} messages`,
      op: "writeBig",
      base: "writeSmall",
      baselineLabel: `${SMALL}-message world`,
      target: { max: 1.2 },
    },
    {
      id: "slack.world.list.p50",
      name: `Slack history page of 30 p50, ${n} vs ${SMALL}`,
      op: "listBig",
      base: "listSmall",
      baselineLabel: `${SMALL}-message world`,
      target: { max: 2 },
    },
  ].map((s) => ({ ...s, section: s.base === "floor" ? S1 : S2, p: 50 }));
  let small;
  let large;
  try {
    small = await create(platform.baseUrl, SMALL);
    large = await create(platform.baseUrl, big);
  } catch (err) {
    if (small) await platform.discard(small.id);
    return specs.map((s) => failed(s, err.message));
  }
  try {
    const pick = (max) => tsOf(Math.floor(random() * max));
    const series = [
      { key: "floor", label: "GET /_bench/floor/:sid", call: () => small.floor(), ok: (r) => r.status === 200 },
      { key: "readSmall", label: "reactions.get", call: () => small.read(pick(SMALL)), ok: okReply },
      { key: "readBig", label: "reactions.get", call: () => large.read(pick(big)), ok: okReply },
      { key: "writeSmall", label: "chat.postMessage", call: () => small.write(), ok: okReply },
      { key: "writeBig", label: "chat.postMessage", call: () => large.write(), ok: okReply },
      { key: "listSmall", label: "conversations.history", call: () => small.list(), ok: okReply },
      { key: "listBig", label: "conversations.history", call: () => large.list(), ok: okReply },
    ];
    return await measureInterleaved({ name: "slack", series, specs, sizes, random, log });
  } finally {
    await platform.discard(small.id);
    await platform.discard(large.id);
  }
}
