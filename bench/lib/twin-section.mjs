// What every twin's bench section shares: the sandbox it measures on, its six figures under its
// own id, and the one interleaved measurement (measureInterleaved). A point read, a point write
// and a list page each against a bare Node round trip in the same loop (BARE_TARGET, with each
// p99 beside its p50), and the same three calls on a world of `bigWorld` main objects against one
// of SMALL (WORLD_TARGET), the list pages of equal length (PAGE). A section says only how to build
// its world and how to make its three calls.
import { failed } from "./figures.mjs";
import { describeFailure, jsonOf, request } from "./http.mjs";
import { measureInterleaved } from "./interleave.mjs";
import { LOCAL_KEY } from "./platform.mjs";

export const S1 = "1. Twin calls against a bare Node round trip";
export const S2 = "2. World-size independence";
const STUB_TASK = "IyAuLgo=";
/** The small world's size: every world-size figure compares `bigWorld` objects with this many. */
export const SMALL = 10;
/** Every list page the bench asks for holds this many objects: the whole small world, a slice of the big one. */
export const PAGE = SMALL;
/** A twin call's p50 as a multiple of a bare Node round trip's p50, measured in the same loop. */
export const BARE_TARGET = { read: 2, write: 3, list: 3 };
/** The same call on `bigWorld` objects against SMALL: point calls, and list pages of PAGE. */
export const WORLD_TARGET = { point: 1.2, list: 1.5 };

/**
 * A point call in one of a twin's newer areas (its settings, its GraphQL, its git database...),
 * measured in the same loop on the small world and judged by the same target as the twin's own
 * point call of that kind: a read ≤ BARE_TARGET.read, a write ≤ BARE_TARGET.write.
 * @typedef {{ key: string, kind: "read"|"write", name: string, label: string,
 *   call: (sandbox: any, at: () => unknown) => Promise<{ status: number, ms: number }>,
 *   ok?: (reply: any) => boolean, expect?: number }} AreaCall
 */

/** The figures of a twin's area calls, under `<twin>.area.<key>.p50`. */
export function areaSpecs(twin, display, areas) {
  return areas.map((area) => ({
    id: `${twin ? `${twin}.` : ""}area.${area.key}.p50`,
    section: S1,
    name: `${display} ${area.kind === "read" ? "point read" : "point write"} p50, ${area.name}`,
    op: `area:${area.key}`,
    base: "bare",
    p: 50,
    baselineLabel: "bare Node p50",
    target: { max: BARE_TARGET[area.kind] },
    withP99: true,
  }));
}

/**
 * The series of a twin's area calls on `sandbox`, each keyed as its figure's `op`; an area's own
 * `ok` or `expect` wins over the section's `ok`.
 */
export const areaSeries = (areas, sandbox, at, ok) =>
  areas.map((area) => ({
    key: `area:${area.key}`,
    label: area.label,
    call: () => area.call(sandbox, at),
    ok: area.ok ?? ok,
    expect: area.expect,
  }));

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
 * The six figures of a twin.
 * @param {{ twin: string, display: string, big: number, read: string, write: string, list: string,
 *   objects: string, world: string, areas?: AreaCall[] }} d
 *   `read`/`write` name the calls ("GET message"), `list` the page ("inbox page"), `objects`
 *   the main objects ("messages"), `world` what the small world is called ("message mailbox");
 *   `areas` add one figure each (areaSpecs).
 */
export function twinSpecs({ twin, display, big, read, write, list, objects, world, areas = [] }) {
  const n = big.toLocaleString("en-US");
  const smallWorld = `${SMALL}-${world}`;
  const spec = (id, section, name, op, base, baselineLabel, max, withP99 = false) => ({
    id: `${twin}.${id}`,
    section,
    name,
    op,
    base,
    p: 50,
    baselineLabel,
    target: { max },
    withP99,
  });
  const page = `${list} of ${PAGE}`;
  return [
    spec("bare.read.p50", S1, `${display} point read p50 (${read})`, "readSmall", "bare", "bare Node p50", BARE_TARGET.read, true),
    spec("bare.write.p50", S1, `${display} point write p50 (${write})`, "writeSmall", "bare", "bare Node p50", BARE_TARGET.write, true),
    spec("bare.list.p50", S1, `${display} ${page} p50`, "listSmall", "bare", "bare Node p50", BARE_TARGET.list, true),
    spec(
      "world.read.p50",
      S2,
      `${display} point read p50, ${n} vs ${SMALL} ${objects}`,
      "readBig",
      "readSmall",
      smallWorld,
      WORLD_TARGET.point,
    ),
    spec(
      "world.write.p50",
      S2,
      `${display} point write p50, ${n} vs ${SMALL} ${objects}`,
      "writeBig",
      "writeSmall",
      smallWorld,
      WORLD_TARGET.point,
    ),
    spec(
      "world.list.p50",
      S2,
      `${display} ${page} p50, ${n} vs ${SMALL} ${objects}`,
      "listBig",
      "listSmall",
      smallWorld,
      WORLD_TARGET.list,
    ),
    ...areaSpecs(twin, display, areas),
  ];
}

/**
 * Measures a twin's figures on a small and a big world, discarding both sandboxes whatever happens.
 * @param {{ platform: { discard(id: string): Promise<unknown> }, sizes: any, random: () => number, log: (line: string) => void, bareUrl: string }} ctx
 * @param {{ name: string, specs: object[], create: (count: number) => Promise<any>, pick: (random: () => number, max: number) => unknown,
 *   labels: { read: string, write: string, list: string }, ok?: (reply: any) => boolean, areas?: AreaCall[] }} twin
 *   `create(count)` builds a world of `count` objects whose `list()` asks for a page of PAGE;
 *   `areas` are further point calls on the small world (their specs come from areaSpecs).
 */
export async function measureTwin({ platform, sizes, random, log, bareUrl }, { name, specs, create, pick, labels, ok, areas = [] }) {
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
      { key: "bare", label: "GET / (bare Node http)", call: () => request(`${bareUrl}/`) },
      { key: "readSmall", label: labels.read, call: () => small.read(at(SMALL)), ok },
      { key: "readBig", label: labels.read, call: () => large.read(at(big)), ok },
      { key: "writeSmall", label: labels.write, call: () => small.write(at(SMALL)), ok },
      { key: "writeBig", label: labels.write, call: () => large.write(at(big)), ok },
      { key: "listSmall", label: labels.list, call: () => small.list(), ok },
      { key: "listBig", label: labels.list, call: () => large.list(), ok },
      ...areaSeries(areas, small, () => at(SMALL), ok),
    ];
    return await measureInterleaved({ name, series, specs, sizes, random, log });
  } finally {
    await platform.discard(small.id);
    await platform.discard(large.id);
  }
}
