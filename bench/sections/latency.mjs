// Figures 0, 1 and 2 for the GitHub twin: per-request latency of point reads, point writes and
// list pages, measured side by side in one interleaved loop (order shuffled each iteration)
// against a bare Node HTTP server, with the router answering alone and the floor route (router
// and Durable Object) in the same loop as information, and across a small and a big world, so
// machine drift hits every series alike. Figures 1b: the bare round trip, the floor, a read and a
// write again, each kind alone (back to back), where each pays all its own cost and none of
// another's. The other twins' rows of 1 and 2 come from their own sections (lib/twin-section.mjs).
import { EXPECTED_STATUS } from "../lib/platform.mjs";
import { jsonOf, request } from "../lib/http.mjs";
import { PEER, failed } from "../lib/figures.mjs";
import { githubWorld } from "../lib/worlds.mjs";
import { measureAlone, measureInterleaved } from "../lib/interleave.mjs";
import { BARE_TARGET, PAGE, S1, S2, SMALL, WORLD_TARGET, areaSeries, areaSpecs } from "../lib/twin-section.mjs";

const S0 = "0. The floor against a bare Node round trip";
const S1B = "1b. The same calls alone (each kind back to back)";
const LABELS = 50;
/** Point calls in GraphQL and the git database, judged like the twin's own read and write. */
const AREAS = [
  {
    key: "graphql-issue",
    kind: "read",
    name: "GraphQL repository.issue",
    label: "POST /graphql (repository.issue)",
    call: (s, at) => s.graphqlIssue(at()),
    // GraphQL answers 200 even for a failed query: it counts when it carries no `errors`.
    ok: (reply) => reply.status === EXPECTED_STATUS.graphqlIssue && !jsonOf(reply)?.errors,
  },
  {
    key: "git-blob",
    kind: "write",
    name: "POST git blob",
    label: "POST /repos/{o}/{r}/git/blobs",
    call: (s, at) => s.writeBlob(at()),
    expect: EXPECTED_STATUS.writeBlob,
  },
];

/** Each figure: which series against which, at which percentile. */
function specs(big) {
  const n = big.toLocaleString("en-US");
  const bare = "bare Node p50";
  // Section 0 is information: what any request costs before a twin does anything.
  const info = (id, name, op, extra = {}) => ({
    id,
    section: S0,
    name,
    op,
    base: "bare",
    p: 50,
    baselineLabel: bare,
    target: null,
    ...extra,
  });
  const vsBare = (id, name, op, max, extra = {}) => ({
    id,
    section: S1,
    name,
    op,
    base: "bare",
    p: 50,
    baselineLabel: bare,
    target: { max },
    withP99: true,
    ...extra,
  });
  const alone = (id, name, op) => ({
    id,
    section: S1B,
    name,
    op,
    base: "bare",
    p: 50,
    baselineLabel: "bare Node p50, alone",
    target: null,
    alone: true,
  });
  const world = (id, name, op, base, max, extra = {}) => ({
    id,
    section: S2,
    name,
    op,
    base,
    p: 50,
    baselineLabel: `${SMALL}-issue world`,
    target: max === null ? null : { max },
    ...extra,
  });
  return [
    info("bare.router.p50", "Router alone p50 (no Durable Object)", "router"),
    info("bare.floor.p50", "Floor p50 (router + Durable Object)", "floor"),
    info("bare.repo-read.p50", "GitHub repository read p50 (GET repo)", "repoSmall"),
    info("bare.read-disk.p50", "GitHub point read p50, state on disk", "readDisk", { optional: true }),
    info("bare.write-disk.p50", "GitHub point write p50, state on disk", "writeDisk", { optional: true }),
    vsBare("bare.read.p50", "GitHub point read p50 (GET issue)", "readSmall", BARE_TARGET.read, { peer: PEER.readVsBare }),
    vsBare("bare.write.p50", "GitHub point write p50 (POST comment)", "writeSmall", BARE_TARGET.write, { peer: PEER.writeVsBare }),
    vsBare("bare.list.p50", `GitHub list page of ${PAGE} p50 (GET issues)`, "listSmall", BARE_TARGET.list),
    ...areaSpecs("", "GitHub", AREAS),
    // No targets: these say what the interleaved figures above spread over every series.
    alone("alone.floor.p50", "Floor p50, alone", "floor"),
    alone("alone.read.p50", "GitHub point read p50, alone", "readSmall"),
    alone("alone.write.p50", "GitHub point write p50, alone", "writeSmall"),
    world("world.read.p50", `GitHub point read p50, ${n} vs ${SMALL} issues`, "readBig", "readSmall", WORLD_TARGET.point),
    world("world.write.p50", `GitHub point write p50, ${n} vs ${SMALL} issues`, "writeBig", "writeSmall", WORLD_TARGET.point),
    world("world.list.p50", `GitHub list page of ${PAGE} p50, ${n} vs ${SMALL} issues`, "listBig", "listSmall", WORLD_TARGET.list),
    // A label filter matches 1 issue of the small world and 400 of the big one: information, not a target.
    world("world.label-list.p50", `GitHub label-filtered page of 30 p50, ${n} vs ${SMALL}`, "labelListBig", "labelListSmall", null, {
      peer: PEER.labelList10k,
    }),
  ];
}

function seriesOf(baseUrl, small, big, bigIssues, random, bareUrl, disk) {
  const pick = (max) => 1 + Math.floor(random() * max);
  const repo = "/repos/{o}/{r}";
  const onDisk = disk
    ? [
        {
          key: "readDisk",
          label: `GET ${repo}/issues/:n (state on disk)`,
          expect: EXPECTED_STATUS.readIssue,
          call: () => disk.readIssue(pick(SMALL)),
        },
        {
          key: "writeDisk",
          label: `POST ${repo}/issues/:n/comments (state on disk)`,
          expect: EXPECTED_STATUS.writeComment,
          call: () => disk.writeComment(pick(SMALL), "bench comment"),
        },
      ]
    : [];
  return [
    ...onDisk,
    { key: "bare", label: "GET / (bare Node http)", expect: 200, call: () => request(`${bareUrl}/`) },
    { key: "router", label: "GET /_bench/router", expect: EXPECTED_STATUS.floor, call: () => request(`${baseUrl}/_bench/router`) },
    { key: "floor", label: "GET /_bench/floor/:sid", expect: EXPECTED_STATUS.floor, call: () => small.floor() },
    { key: "readSmall", label: `GET ${repo}/issues/:n`, expect: EXPECTED_STATUS.readIssue, call: () => small.readIssue(pick(SMALL)) },
    { key: "repoSmall", label: `GET ${repo}`, expect: EXPECTED_STATUS.getRepo, call: () => small.getRepo() },
    { key: "readBig", label: `GET ${repo}/issues/:n`, expect: EXPECTED_STATUS.readIssue, call: () => big.readIssue(pick(bigIssues)) },
    {
      key: "writeSmall",
      label: `POST ${repo}/issues/:n/comments`,
      expect: EXPECTED_STATUS.writeComment,
      call: () => small.writeComment(pick(SMALL), "bench comment"),
    },
    {
      key: "writeBig",
      label: `POST ${repo}/issues/:n/comments`,
      expect: EXPECTED_STATUS.writeComment,
      call: () => big.writeComment(pick(bigIssues), "bench comment"),
    },
    // Pages of equal length: the small world holds exactly one page of PAGE issues.
    {
      key: "listSmall",
      label: `GET ${repo}/issues?per_page=${PAGE}`,
      expect: EXPECTED_STATUS.listIssues,
      call: () => small.listIssues(`per_page=${PAGE}`),
    },
    {
      key: "listBig",
      label: `GET ${repo}/issues?per_page=${PAGE}`,
      expect: EXPECTED_STATUS.listIssues,
      call: () => big.listIssues(`per_page=${PAGE}`),
    },
    ...areaSeries(AREAS, small, () => pick(SMALL)),
    {
      key: "labelListSmall",
      label: `GET ${repo}/issues?labels=label-1`,
      expect: EXPECTED_STATUS.listIssues,
      call: () => small.listIssues("labels=label-1&per_page=30"),
    },
    {
      key: "labelListBig",
      label: `GET ${repo}/issues?labels=label-1`,
      expect: EXPECTED_STATUS.listIssues,
      call: () => big.listIssues("labels=label-1&per_page=30"),
    },
  ];
}

export async function measureLatency({ platform, diskPlatform, sizes, random, log, bareUrl }) {
  // The on-disk rows exist only when a disk-backed server runs beside a tmpfs-backed one.
  const all = specs(sizes.bigWorld).filter((s) => !s.optional || diskPlatform);
  let small;
  let big;
  let disk;
  try {
    small = await platform.create(githubWorld({ issues: SMALL, labels: LABELS }));
    big = await platform.create(githubWorld({ issues: sizes.bigWorld, labels: LABELS }));
    if (diskPlatform) disk = await diskPlatform.create(githubWorld({ issues: SMALL, labels: LABELS }));
  } catch (err) {
    if (small) await platform.discard(small.id);
    if (big) await platform.discard(big.id);
    return all.map((s) => failed(s, err.message));
  }
  try {
    const series = seriesOf(platform.baseUrl, small, big, sizes.bigWorld, random, bareUrl, disk);
    const together = all.filter((s) => !s.alone);
    const alone = all.filter((s) => s.alone);
    const aloneSeries = series.filter((s) => alone.some((a) => a.op === s.key || a.base === s.key));
    // The report orders figures by section (bench/run.mjs), so 1b's rows follow every twin's 1.
    return [
      ...(await measureInterleaved({ name: "latency", series, specs: together, sizes, random, log })),
      ...(await measureAlone({ name: "latency, each kind alone", series: aloneSeries, specs: alone, sizes, random, log })),
    ];
  } finally {
    // Each call tapes its whole response (a list page is ~90 KB), so these discards archive a large tape.
    log("latency: discarding the two sandboxes (their tapes are archived first)");
    await platform.discard(small.id);
    await platform.discard(big.id);
    if (disk) await diskPlatform.discard(disk.id);
  }
}
