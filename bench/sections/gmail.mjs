// The Gmail twin's figures: point read (GET message) and point write (modify labels) against the
// floor, and the same calls plus a list page in a mailbox of `bigWorld` messages against one of
// 10, interleaved in one shuffled loop so machine drift hits every series alike.
import { describeFailure, jsonOf, request } from "../lib/http.mjs";
import { failed } from "../lib/figures.mjs";
import { LOCAL_KEY } from "../lib/platform.mjs";
import { measureInterleaved } from "../lib/interleave.mjs";

const S1 = "1. Twin overhead vs the floor";
const S2 = "2. World-size independence";
const SMALL = 10;
const FIRST = 0x19a0000000000000n;
const idOf = (n) => (FIRST + BigInt(n)).toString(16).padStart(16, "0");

/** A mailbox of `count` inbox mails (the shape the twin's own generateSeed makes). */
function mailbox(count) {
  return {
    profile: { emailAddress: "bench@northwind.test" },
    labels: [{ id: "Label_1", name: "Bench" }],
    messages: Array.from({ length: count }, (_, i) => ({
      id: idOf(i + 1),
      labelIds: i % 3 === 0 ? ["INBOX", "UNREAD"] : ["INBOX"],
      internalDate: String(Date.UTC(2026, 0, 5) + i * 60_000),
      headers: [
        { name: "From", value: `sender${i % 7}@bench.test` },
        { name: "To", value: "bench@northwind.test" },
        { name: "Subject", value: `Message ${i + 1}` },
      ],
      text: `Body of message ${i + 1}.`,
    })),
  };
}

async function create(baseUrl, seed) {
  const reply = await request(`${baseUrl}/v1/sandboxes`, {
    method: "POST",
    headers: { authorization: `Bearer ${LOCAL_KEY}` },
    body: { twins: ["gmail"], task_source: "IyAuLgo=", seed },
  });
  if (reply.status !== 201) throw new Error(describeFailure("POST /v1/sandboxes (gmail)", reply));
  const body = jsonOf(reply);
  const api = `${body.per_twin.gmail.api_url}/gmail/v1/users/me`;
  const headers = { authorization: `Bearer ${body.agent_token}` };
  let star = false;
  return {
    id: body.session_id,
    floor: () => request(`${baseUrl}/_bench/floor/${body.session_id}`),
    read: (n) => request(`${api}/messages/${idOf(n)}`, { headers }),
    write: (n) => {
      star = !star;
      return request(`${api}/messages/${idOf(n)}/modify`, {
        method: "POST",
        headers,
        body: star ? { addLabelIds: ["STARRED"] } : { removeLabelIds: ["STARRED"] },
      });
    },
    list: () => request(`${api}/messages?maxResults=30&labelIds=INBOX`, { headers }),
  };
}

function specs(big) {
  const n = big.toLocaleString("en-US");
  return [
    {
      id: "gmail.overhead.read.p50",
      section: S1,
      name: "Gmail point read p50 (GET message)",
      op: "readSmall",
      base: "floor",
      p: 50,
      baselineLabel: "floor p50",
      target: { max: 1.5 },
    },
    {
      id: "gmail.overhead.write.p50",
      section: S1,
      name: "Gmail point write p50 (modify labels)",
      op: "writeSmall",
      base: "floor",
      p: 50,
      baselineLabel: "floor p50",
      target: { max: 2 },
    },
    {
      id: "gmail.world.read.p50",
      section: S2,
      name: `Gmail point read p50, ${n} vs ${SMALL} messages`,
      op: "readBig",
      base: "readSmall",
      p: 50,
      baselineLabel: `${SMALL}-message mailbox`,
      target: { max: 1.2 },
    },
    {
      id: "gmail.world.write.p50",
      section: S2,
      name: `Gmail point write p50, ${n} vs ${SMALL} messages`,
      op: "writeBig",
      base: "writeSmall",
      p: 50,
      baselineLabel: `${SMALL}-message mailbox`,
      target: { max: 1.2 },
    },
    {
      id: "gmail.world.list.p50",
      section: S2,
      name: `Gmail inbox page of 30 p50, ${n} vs ${SMALL}`,
      op: "listBig",
      base: "listSmall",
      p: 50,
      baselineLabel: `${SMALL}-message mailbox`,
      target: { max: 2 },
    },
  ];
}

export async function measureGmail({ platform, sizes, random, log }) {
  const all = specs(sizes.bigWorld);
  let small;
  let big;
  try {
    small = await create(platform.baseUrl, mailbox(SMALL));
    big = await create(platform.baseUrl, mailbox(sizes.bigWorld));
  } catch (err) {
    if (small) await platform.discard(small.id);
    return all.map((s) => failed(s, err.message));
  }
  try {
    const pick = (max) => 1 + Math.floor(random() * max);
    const series = [
      { key: "floor", call: () => small.floor() },
      { key: "readSmall", call: () => small.read(pick(SMALL)) },
      { key: "readBig", call: () => big.read(pick(sizes.bigWorld)) },
      { key: "writeSmall", call: () => small.write(pick(SMALL)) },
      { key: "writeBig", call: () => big.write(pick(sizes.bigWorld)) },
      { key: "listSmall", call: () => small.list() },
      { key: "listBig", call: () => big.list() },
    ];
    return await measureInterleaved({ name: "gmail", series, specs: all, sizes, random, log });
  } finally {
    await platform.discard(small.id);
    await platform.discard(big.id);
  }
}
