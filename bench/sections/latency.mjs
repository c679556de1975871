// Figures 0, 1 and 2: per-request latency of point reads, point writes and list pages, measured
// side by side in one interleaved loop (order shuffled each iteration) against a bare Node HTTP
// server, against the router answering alone and the floor route (router and Durable Object), and
// across a small and a big world, so machine drift hits every series alike. Figures 1b: the bare
// round trip, the floor, a read and a write again, each kind alone (back to back), where each
// pays all its own cost and none of another's.
import { EXPECTED_STATUS } from "../lib/platform.mjs";
import { request } from "../lib/http.mjs";
import { PEER, failed } from "../lib/figures.mjs";
import { githubWorld } from "../lib/worlds.mjs";
import { measureAlone, measureInterleaved } from "../lib/interleave.mjs";

const S0 = "0. Against a bare Node HTTP server";
const S1 = "1. Twin overhead vs the floor";
const S1B = "1b. The same calls alone (each kind back to back)";
const S2 = "2. World-size independence";
const SMALL = 10;
const LABELS = 50;

/** Each figure: which series against which, at which percentile. */
function specs(big) {
  const n = big.toLocaleString("en-US");
  const bare = "bare Node p50";
  return [
    {
      id: "bare.floor.p50",
      section: S0,
      name: "Floor p50 (router + Durable Object)",
      op: "floor",
      base: "bare",
      p: 50,
      baselineLabel: bare,
      target: null,
    },
    {
      id: "bare.router.p50",
      section: S0,
      name: "Router alone p50 (no Durable Object)",
      op: "router",
      base: "bare",
      p: 50,
      baselineLabel: bare,
      target: null,
    },
    {
      id: "bare.read.p50",
      section: S0,
      name: "Point read p50 (GET issue)",
      op: "readSmall",
      base: "bare",
      p: 50,
      baselineLabel: bare,
      target: { max: 3 },
      peer: PEER.readVsBare,
    },
    {
      id: "bare.write.p50",
      section: S0,
      name: "Point write p50 (POST comment)",
      op: "writeSmall",
      base: "bare",
      p: 50,
      baselineLabel: bare,
      target: { max: 4 },
      peer: PEER.writeVsBare,
    },
    {
      id: "bare.repo-read.p50",
      section: S0,
      name: "Repository read p50 (GET repo)",
      op: "repoSmall",
      base: "bare",
      p: 50,
      baselineLabel: bare,
      target: null,
    },
    {
      id: "bare.read-disk.p50",
      section: S0,
      name: "Point read p50, state on disk",
      op: "readDisk",
      base: "bare",
      p: 50,
      baselineLabel: bare,
      target: null,
      optional: true,
    },
    {
      id: "bare.write-disk.p50",
      section: S0,
      name: "Point write p50, state on disk",
      op: "writeDisk",
      base: "bare",
      p: 50,
      baselineLabel: bare,
      target: null,
      optional: true,
    },
    {
      id: "bare.list.p50",
      section: S0,
      name: `List a page of 30 p50, ${SMALL} issues`,
      op: "listSmall",
      base: "bare",
      p: 50,
      baselineLabel: bare,
      target: null,
    },
    {
      id: "overhead.read.p50",
      section: S1,
      name: "Point read p50 (GET issue)",
      op: "readSmall",
      base: "floor",
      p: 50,
      baselineLabel: "floor p50",
      target: { max: 1.5 },
      peer: PEER.readP50,
    },
    {
      id: "overhead.read.p99",
      section: S1,
      name: "Point read p99",
      op: "readSmall",
      base: "floor",
      p: 99,
      baselineLabel: "floor p99",
      target: { max: 1.5 },
      peer: PEER.readP99,
    },
    {
      id: "overhead.write.p50",
      section: S1,
      name: "Point write p50 (POST comment)",
      op: "writeSmall",
      base: "floor",
      p: 50,
      baselineLabel: "floor p50",
      target: { max: 2 },
      peer: PEER.writeP50,
    },
    {
      id: "overhead.write.p99",
      section: S1,
      name: "Point write p99",
      op: "writeSmall",
      base: "floor",
      p: 99,
      baselineLabel: "floor p99",
      target: { max: 2 },
      peer: PEER.writeP99,
    },
    {
      id: "overhead.repo-read.p50",
      section: S1,
      name: "Repository read p50 (GET repo)",
      op: "repoSmall",
      base: "floor",
      p: 50,
      baselineLabel: "floor p50",
      target: null,
    },
    // No targets: these say what the interleaved figures above spread over every series.
    {
      id: "alone.floor.p50",
      section: S1B,
      name: "Floor p50, alone",
      op: "floor",
      base: "bare",
      p: 50,
      baselineLabel: "bare Node p50, alone",
      target: null,
      alone: true,
    },
    {
      id: "alone.read.p50",
      section: S1B,
      name: "Point read p50, alone",
      op: "readSmall",
      base: "floor",
      p: 50,
      baselineLabel: "floor p50, alone",
      target: null,
      alone: true,
    },
    {
      id: "alone.write.p50",
      section: S1B,
      name: "Point write p50, alone",
      op: "writeSmall",
      base: "floor",
      p: 50,
      baselineLabel: "floor p50, alone",
      target: null,
      alone: true,
    },
    {
      id: "world.read.p50",
      section: S2,
      name: `Point read p50, ${n} vs ${SMALL} issues`,
      op: "readBig",
      base: "readSmall",
      p: 50,
      baselineLabel: `${SMALL}-issue world`,
      target: { max: 1.2 },
    },
    {
      id: "world.write.p50",
      section: S2,
      name: `Point write p50, ${n} vs ${SMALL} issues`,
      op: "writeBig",
      base: "writeSmall",
      p: 50,
      baselineLabel: `${SMALL}-issue world`,
      target: { max: 1.2 },
    },
    {
      id: "world.list.p50",
      section: S2,
      name: `List a page of 30 p50, ${n} vs ${SMALL} issues`,
      op: "listBig",
      base: "listSmall",
      p: 50,
      baselineLabel: `${SMALL}-issue world`,
      target: { max: 2 },
      peer: PEER.list10k,
    },
    {
      id: "world.label-list.p50",
      section: S2,
      name: `Label-filtered page of 30 p50, ${n} vs ${SMALL}`,
      op: "labelListBig",
      base: "labelListSmall",
      p: 50,
      baselineLabel: `${SMALL}-issue world`,
      target: null,
      peer: PEER.labelList10k,
    },
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
    { key: "listSmall", label: `GET ${repo}/issues?per_page=30`, expect: EXPECTED_STATUS.listIssues, call: () => small.listIssues() },
    { key: "listBig", label: `GET ${repo}/issues?per_page=30`, expect: EXPECTED_STATUS.listIssues, call: () => big.listIssues() },
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
