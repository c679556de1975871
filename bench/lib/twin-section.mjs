// What every twin's bench section shares: the sandbox it measures on, its five figures under its
// own id (a point read and a point write against the floor; the same calls on a world of
// `bigWorld` main objects against one of 10, target ≤ 1.2×; a page of a list, ≤ 2×), and the one
// interleaved measurement (measureInterleaved). A section says only how to build its world and
// how to make its three calls.
import { failed } from "./figures.mjs";
import { describeFailure, jsonOf, request } from "./http.mjs";
import { measureInterleaved } from "./interleave.mjs";
import { LOCAL_KEY } from "./platform.mjs";

const S1 = "1. Twin overhead vs the floor";
const S2 = "2. World-size independence";
const STUB_TASK = "IyAuLgo=";
/** The small world's size: every world-size figure compares `bigWorld` objects with this many. */
export const SMALL = 10;

/**
 * A sandbox of one twin seeded with `seed`: its id, its creation answer, and the floor route.
 * @returns {Promise<{ id: string, body: any, floor: () => Promise<{ status: number, ms: number }> }>}
 */
export async function twinSandbox(baseUrl, twin, seed) {
  const reply = await request(`${baseUrl}/v1/sandboxes`, {
    method: "POST",
    headers: { authorization: `Bearer ${LOCAL_KEY}` },
    body: { twins: [twin], task_source: STUB_TASK, seed },
  });
  const body = jsonOf(reply);
  if (reply.status !== 201 || !body?.per_twin?.[twin]) throw new Error(describeFailure(`POST /v1/sandboxes (${twin})`, reply));
  return { id: body.session_id, body, floor: () => request(`${baseUrl}/_bench/floor/${body.session_id}`) };
}

/**
 * The five figures of a twin.
 * @param {{ twin: string, display: string, big: number, read: string, write: string, list: string,
 *   objects: string, world: string, listNamesObjects?: boolean }} d
 *   `read`/`write` name the calls ("GET message"), `list` the page ("inbox page of 30"), `objects`
 *   the main objects ("messages"), `world` what the small world is called ("message mailbox").
 */
export function twinSpecs({ twin, display, big, read, write, list, objects, world, listNamesObjects = false }) {
  const n = big.toLocaleString("en-US");
  const smallWorld = `${SMALL}-${world}`;
  const spec = (id, section, name, op, base, baselineLabel, max) => ({
    id: `${twin}.${id}`,
    section,
    name,
    op,
    base,
    p: 50,
    baselineLabel,
    target: { max },
  });
  return [
    spec("overhead.read.p50", S1, `${display} point read p50 (${read})`, "readSmall", "floor", "floor p50", 1.5),
    spec("overhead.write.p50", S1, `${display} point write p50 (${write})`, "writeSmall", "floor", "floor p50", 2),
    spec("world.read.p50", S2, `${display} point read p50, ${n} vs ${SMALL} ${objects}`, "readBig", "readSmall", smallWorld, 1.2),
    spec("world.write.p50", S2, `${display} point write p50, ${n} vs ${SMALL} ${objects}`, "writeBig", "writeSmall", smallWorld, 1.2),
    spec(
      "world.list.p50",
      S2,
      `${display} ${list} p50, ${n} vs ${SMALL}${listNamesObjects ? ` ${objects}` : ""}`,
      "listBig",
      "listSmall",
      smallWorld,
      2,
    ),
  ];
}

/**
 * Measures a twin's figures on a small and a big world, discarding both sandboxes whatever happens.
 * @param {{ platform: { discard(id: string): Promise<unknown> }, sizes: any, random: () => number, log: (line: string) => void }} ctx
 * @param {{ name: string, specs: object[], create: (count: number) => Promise<any>, pick: (random: () => number, max: number) => unknown,
 *   labels: { read: string, write: string, list: string }, ok?: (reply: any) => boolean }} twin
 */
export async function measureTwin({ platform, sizes, random, log }, { name, specs, create, pick, labels, ok }) {
  const big = sizes.bigWorld;
  let small;
  let large;
  try {
    small = await create(SMALL);
    large = await create(big);
  } catch (err) {
    if (small) await platform.discard(small.id);
    return specs.map((s) => failed(s, err.message));
  }
  try {
    const at = (max) => pick(random, max);
    const series = [
      { key: "floor", label: "GET /_bench/floor/:sid", call: () => small.floor() },
      { key: "readSmall", label: labels.read, call: () => small.read(at(SMALL)), ok },
      { key: "readBig", label: labels.read, call: () => large.read(at(big)), ok },
      { key: "writeSmall", label: labels.write, call: () => small.write(at(SMALL)), ok },
      { key: "writeBig", label: labels.write, call: () => large.write(at(big)), ok },
      { key: "listSmall", label: labels.list, call: () => small.list(), ok },
      { key: "listBig", label: labels.list, call: () => large.list(), ok },
    ];
    return await measureInterleaved({ name, series, specs, sizes, random, log });
  } finally {
    await platform.discard(small.id);
    await platform.discard(large.id);
  }
}
