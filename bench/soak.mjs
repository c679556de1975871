#!/usr/bin/env node
// `npm run test:soak`: a long run of twin calls against `npm start` (its own port and state
// folder, loopback only) that checks nothing grows without bound. It sends --calls calls (default
// 100,000) to GitHub twin sandboxes, --per-sandbox calls each (a fresh sandbox after that, the old
// one discarded, as runs come and go), --concurrency at a time, then reports the requests sent,
// the resident memory of the server's whole process tree, and how much the state folder grew,
// and fails when a bound is passed:
//
//   - no call fails;
//   - the state folder grows with the tape and the worlds only: at most TAPE_FACTOR times the
//     bytes the tapes hold (each call's request and response, kept once in the sandbox's SQLite
//     and once archived to R2 as events.jsonl, plus SQLite's page slack), plus PER_SANDBOX bytes
//     for each sandbox (its world, its snapshot, and a write-ahead log SQLite lets reach ~4 MiB);
//   - outside the Durable Objects' storage (the tapes and worlds) and R2 (the archived
//     evidence), the state folder grows by at most MAX_OTHER_GROWTH in all, whatever the call
//     count: no request log, trace or cache that grows per request. That allows for D1's
//     write-ahead log, which SQLite lets reach about 4 MiB (1,000 pages) on a fresh state folder
//     and keeps at that size, and 4 MiB more for the control plane's rows (its sandboxes and
//     runs) and anything else;
//   - the server's resident memory (its whole process tree) stays under MAX_RSS, and grows by at
//     most MAX_RSS_LATE_GROWTH over the second half of the calls: caches fill in the first
//     sandboxes, so a leak is what still grows once they are warm.
//
//   npm run test:soak -- [--calls 100000] [--per-sandbox 1000] [--concurrency 4] [--out file.json]
import { readdirSync, lstatSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { closeConnections, inParallel } from "./lib/http.mjs";
import { controlPlane } from "./lib/platform.mjs";
import { treeMemoryMiB } from "./lib/workerd.mjs";
import { githubWorld } from "./lib/worlds.mjs";

export const BOUNDS = {
  tapeFactor: 3,
  perSandboxBytes: 8 * 1024 * 1024,
  maxOtherGrowthBytes: 8 * 1024 * 1024,
  maxRssMiB: 1536,
  maxRssLateGrowthMiB: 256,
};

/** Bytes on disk under `dir` (allocated blocks, so a sparse or preallocated file counts as it is). */
function diskUse(dir) {
  let total = 0;
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const e of entries) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) total += diskUse(p);
    else {
      try {
        total += lstatSync(p).blocks * 512;
      } catch {
        // removed while we looked (a SQLite journal)
      }
    }
  }
  return total;
}

/** The state folder's use, split into Durable Objects, R2, and everything else. */
function stateUse(stateDir) {
  const v3 = path.join(stateDir, "v3");
  const durableObjects = diskUse(path.join(v3, "do"));
  const r2 = diskUse(path.join(v3, "r2"));
  const total = diskUse(stateDir);
  return { total, durableObjects, r2, other: total - durableObjects - r2 };
}

const mib = (bytes) => bytes / (1024 * 1024);

async function main() {
  const { values } = parseArgs({
    options: {
      calls: { type: "string", default: "100000" },
      "per-sandbox": { type: "string", default: "1000" },
      concurrency: { type: "string", default: "4" },
      out: { type: "string" },
    },
  });
  const calls = Number(values.calls);
  const perSandbox = Number(values["per-sandbox"]);
  const concurrency = Number(values.concurrency);
  if (![calls, perSandbox, concurrency].every((n) => Number.isInteger(n) && n > 0))
    throw new Error("--calls, --per-sandbox and --concurrency take positive integers");
  const started = Date.now();
  const log = (line) => console.error(`[soak ${((Date.now() - started) / 1000).toFixed(0)}s] ${line}`);

  const { startDevServer } = await import("../test/node/server.ts");
  const server = await startDevServer();
  let report;
  try {
    const platform = controlPlane(server.url);
    // Warm-up: compile every route once, so the baselines are a running server's.
    const warm = await platform.create(githubWorld({ issues: 10, labels: 10 }));
    for (let i = 0; i < 50; i++) await callOnce(warm, i);
    await platform.discard(warm.id);
    const before = { state: stateUse(server.stateDir), rssMiB: treeMemoryMiB(server.pid) };
    log(
      `server pid ${server.pid}, state ${server.stateDir}: ${mib(before.state.total).toFixed(1)} MiB, RSS ${before.rssMiB.toFixed(0)} MiB; ${calls} calls, ${perSandbox} per sandbox, ${concurrency} at a time`,
    );

    let sent = 0;
    let tapeBytes = 0;
    let failed = 0;
    let firstFailure = null;
    let peakRssMiB = before.rssMiB;
    let halfwayRssMiB;
    let sandboxes = 0;
    // Each lane works through its share of sandboxes one after another.
    const lanes = Array.from({ length: concurrency }, (_, lane) => lane);
    const share = (lane) => Math.floor(calls / concurrency) + (lane < calls % concurrency ? 1 : 0);
    await inParallel(lanes, concurrency, async (lane) => {
      let left = share(lane);
      while (left > 0) {
        const sandbox = await platform.create(githubWorld({ issues: 10, labels: 10 }));
        sandboxes++;
        const n = Math.min(left, perSandbox);
        for (let i = 0; i < n; i++) {
          const reply = await callOnce(sandbox, i);
          sent++;
          // What the row keeps: both bodies, and about 300 bytes of method, path, headers and times.
          tapeBytes += Buffer.byteLength(reply.text) + (reply.requestBytes ?? 0) + 300;
          if (reply.status >= 400 || reply.status === 0) {
            failed++;
            firstFailure ??= `${reply.status} ${reply.text.slice(0, 200)}`;
          }
          if (sent === Math.ceil(calls / 2)) halfwayRssMiB = treeMemoryMiB(server.pid);
          if (sent % 10_000 === 0) {
            peakRssMiB = Math.max(peakRssMiB, treeMemoryMiB(server.pid));
            log(
              `${sent} calls; RSS ${treeMemoryMiB(server.pid).toFixed(0)} MiB; state ${mib(stateUse(server.stateDir).total).toFixed(1)} MiB`,
            );
          }
        }
        await platform.discard(sandbox.id);
        left -= n;
      }
    });
    const after = { state: stateUse(server.stateDir), rssMiB: treeMemoryMiB(server.pid) };
    peakRssMiB = Math.max(peakRssMiB, after.rssMiB);
    const halfway = halfwayRssMiB ?? before.rssMiB;
    const growth = {
      total: after.state.total - before.state.total,
      durableObjects: after.state.durableObjects - before.state.durableObjects,
      r2: after.state.r2 - before.state.r2,
      other: after.state.other - before.state.other,
    };
    const growthBound = BOUNDS.tapeFactor * tapeBytes + BOUNDS.perSandboxBytes * sandboxes;
    const checks = [
      { what: "calls that failed", value: failed, bound: 0, ok: failed === 0, detail: firstFailure },
      {
        what: "state folder growth (MiB)",
        value: round1(mib(growth.total)),
        bound: round1(mib(growthBound)),
        ok: growth.total <= growthBound,
      },
      {
        what: "growth outside Durable Objects and R2 (MiB)",
        value: round1(mib(growth.other)),
        bound: round1(mib(BOUNDS.maxOtherGrowthBytes)),
        ok: growth.other <= BOUNDS.maxOtherGrowthBytes,
      },
      {
        what: "peak RSS of the server tree (MiB)",
        value: Math.round(peakRssMiB),
        bound: BOUNDS.maxRssMiB,
        ok: peakRssMiB <= BOUNDS.maxRssMiB,
      },
      {
        what: "RSS growth over the second half of the calls (MiB)",
        value: Math.round(after.rssMiB - halfway),
        bound: BOUNDS.maxRssLateGrowthMiB,
        ok: after.rssMiB - halfway <= BOUNDS.maxRssLateGrowthMiB,
      },
    ];
    report = {
      generated_at: new Date().toISOString(),
      duration_s: Math.round((Date.now() - started) / 1000),
      calls_sent: sent,
      calls_failed: failed,
      sandboxes,
      per_sandbox: perSandbox,
      concurrency,
      rss_mib: { after_warm_up: round1(before.rssMiB), halfway: round1(halfway), peak: round1(peakRssMiB), end: round1(after.rssMiB) },
      state_mib: { before: mibs(before.state), after: mibs(after.state), growth: mibs(growth) },
      bytes_per_call: Math.round(growth.total / sent),
      tape_mib: round1(mib(tapeBytes)),
      bounds: BOUNDS,
      checks,
      ok: checks.every((c) => c.ok),
    };
  } finally {
    closeConnections();
    await server.stop();
  }
  if (values.out) writeFileSync(values.out, `${JSON.stringify(report, null, 2)}\n`);
  console.log(JSON.stringify(report, null, 2));
  for (const c of report.checks)
    console.log(`${c.ok ? "ok  " : "FAIL"} ${c.what}: ${c.value} (bound ${c.bound})${c.detail ? `; first: ${c.detail}` : ""}`);
  console.log(
    `${report.calls_sent} calls in ${report.duration_s} s over ${report.sandboxes} sandboxes: ${report.ok ? "within bounds" : "OUT OF BOUNDS"}`,
  );
  if (!report.ok) process.exitCode = 1;
}

const round1 = (n) => Math.round(n * 10) / 10;
const mibs = (o) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, round1(mib(v))]));

/** The call mix: mostly point reads, some writes, repository reads and list pages. */
function callOnce(sandbox, i) {
  const n = 1 + (i % 10);
  switch (i % 10) {
    case 0:
    case 5: {
      const body = `soak comment ${i}`;
      return sandbox.writeComment(n, body).then((reply) => ({ ...reply, requestBytes: Buffer.byteLength(JSON.stringify({ body })) }));
    }
    case 3:
      return sandbox.getRepo();
    case 7:
      return sandbox.listIssues("per_page=10");
    default:
      return sandbox.readIssue(n);
  }
}

main().catch((err) => {
  console.error(err?.stack ?? err);
  process.exitCode = 1;
});
