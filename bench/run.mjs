#!/usr/bin/env node
// `npm run bench`: measures the platform as users drive it, over HTTP against `npm start` (the
// deployment bundle under Miniflare), each figure a ratio against a baseline measured side by
// side in the same run: a bare Node HTTP server, a smaller world, a shorter tape, one sandbox
// alone. bench/README.md says what each figure and target means.
//
//   npm run bench                 full run (several minutes); writes bench/results.json and the
//                                 results tables of bench/README.md (npm run bench:report)
//   npm run bench -- --quick      smoke run (small sizes, few repetitions, same code paths)
//   npm run bench -- --profile read   CPU profile of one kind of call (see profile.mjs)
//   options: --out <file>   --only latency,create,...   --url <running server with the floor on>
//            --state-on-disk (the server's state in the OS temp folder, not in memory)
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { startBareServer } from "./lib/bare.mjs";
import { closeConnections } from "./lib/http.mjs";
import { failed } from "./lib/figures.mjs";
import { controlPlane } from "./lib/platform.mjs";
import { markdownTable, notes, resultsBlock, summary, textTable, withResultsBlock } from "./lib/report.mjs";
import { seededRandom } from "./lib/stats.mjs";
import { measureConcurrency } from "./sections/concurrency.mjs";
import { measureCreate } from "./sections/create.mjs";
import { measureFinalize } from "./sections/finalize.mjs";
import { measureLatency } from "./sections/latency.mjs";
import { measureMemory } from "./sections/memory.mjs";

export const SIZES = {
  full: {
    latencyWarmup: 200,
    latencyReps: 5,
    latencyIterations: 400,
    bigWorld: 10_000,
    createReps: 5,
    createMid: 1_000,
    createBig: 10_000,
    finalizeReps: 5,
    criteria: 200,
    tapeSmall: 1_000,
    tapeBig: 10_000,
    dashboardRows: 5_000,
    dashboardBaseRows: 100,
    dashboardRequests: 10,
    finalizeWarmupRows: 100,
    concurrencyReps: 5,
    concurrentSandboxes: 50,
    callsPerSandbox: 200,
    concurrencyWarmup: { sandboxes: 10, calls: 20 },
    memorySandboxes: 10,
    memoryWorld: 10_000,
    isolationHeavyReps: 5,
    isolationReads: 400,
    isolationClients: 3,
    // Section 9: 20 trials of an example task at --concurrency 4 against one at a time.
    parallelTrials: 20,
    parallelTrialsReps: 1,
  },
  // Seconds of work on a quiet machine; the dev server's start-up is most of a smoke run.
  quick: {
    latencyWarmup: 3,
    latencyReps: 2,
    latencyIterations: 8,
    bigWorld: 300,
    createReps: 2,
    createMid: 100,
    createBig: 300,
    finalizeReps: 2,
    criteria: 20,
    tapeSmall: 15,
    tapeBig: 60,
    dashboardRows: 250,
    dashboardBaseRows: 20,
    dashboardRequests: 2,
    finalizeWarmupRows: 5,
    concurrencyReps: 2,
    concurrentSandboxes: 4,
    callsPerSandbox: 10,
    concurrencyWarmup: { sandboxes: 2, calls: 5 },
    memorySandboxes: 2,
    memoryWorld: 300,
    isolationHeavyReps: 1,
    isolationReads: 30,
    isolationClients: 2,
    parallelTrials: 2,
    parallelTrialsReps: 1,
  },
};

// Memory first, on a fresh runtime, so its peak is the seeding's and not an earlier phase's.
const SECTIONS = [
  ["memory", measureMemory],
  ["latency", measureLatency],
  ["create", measureCreate],
  ["finalize", measureFinalize],
  ["concurrency", measureConcurrency],
  ["gmail", (ctx) => import("./sections/gmail.mjs").then((m) => m.measureGmail(ctx))],
  ["stripe", (ctx) => import("./sections/stripe.mjs").then((m) => m.measureStripe(ctx))],
  ["slack", (ctx) => import("./sections/slack.mjs").then((m) => m.measureSlack(ctx))],
  ["linear", async (ctx) => (await import("./sections/linear.mjs")).measureLinear(ctx)],
  ["dashboard", (ctx) => import("./sections/dashboard.mjs").then((m) => m.measureDashboard(ctx))],
  ["trials", (ctx) => import("./sections/trials.mjs").then((m) => m.measureTrials(ctx))],
  // Last: it sends the heaviest calls we know, and one that stalls the server stalls only this section.
  ["isolation", (ctx) => import("./sections/isolation.mjs").then((m) => m.measureIsolation(ctx))],
];

const root = path.dirname(import.meta.dirname);
const RAM_DIR = "/dev/shm";
const FLOOR_ON = ["--var", "BENCH_FLOOR_ENABLED:true"];

async function main() {
  const { values } = parseArgs({
    options: {
      quick: { type: "boolean", default: false },
      out: { type: "string" },
      only: { type: "string" },
      url: { type: "string" },
      profile: { type: "string" },
      calls: { type: "string", default: "2000" },
      "state-on-disk": { type: "boolean", default: false },
    },
  });
  if (values.profile) {
    const { profileCalls } = await import("./profile.mjs");
    return profileCalls({ opName: values.profile, calls: Number(values.calls), devServer: await devServerModule() });
  }
  const mode = values.quick ? "quick" : "full";
  const sizes = SIZES[mode];
  const only = values.only ? new Set(values.only.split(",")) : undefined;
  const out = path.resolve(values.out ?? path.join(root, "bench", mode === "full" ? "results.json" : "results.quick.json"));
  const started = Date.now();
  const log = (line) => console.error(`[bench ${((Date.now() - started) / 1000).toFixed(1)}s] ${line}`);

  const loadAtStart = os.loadavg();
  log(values.url ? `${mode} run against ${values.url}` : `${mode} run; starting npm start with BENCH_FLOOR_ENABLED=true`);
  // The server's state folder lives in memory (tmpfs) when the machine has one: every committed
  // call fsyncs its Durable Object's SQLite, and on a shared disk that wait is the neighbours'
  // I/O, not ours. The latency section measures reads and writes on a disk-backed server beside
  // it, so what the disk costs is in the table too.
  const stateRoot = values["state-on-disk"] || !existsSync(RAM_DIR) ? os.tmpdir() : RAM_DIR;
  const server = values.url ? undefined : await (await devServerModule()).startDevServer({ args: FLOOR_ON, stateRoot });
  const baseUrl = (values.url ?? server?.url ?? "").replace(/\/+$/, "");
  const bare = await startBareServer();
  const onDisk =
    stateRoot !== os.tmpdir() && !values.url && (!only || only.has("latency"))
      ? await (await devServerModule()).startDevServer({ args: FLOOR_ON })
      : undefined;
  const figures = [];
  try {
    const platform = controlPlane(baseUrl);
    const diskPlatform = onDisk ? controlPlane(onDisk.url) : undefined;
    const ctx = { platform, diskPlatform, sizes, random: seededRandom(5), log, port: Number(new URL(baseUrl).port), bareUrl: bare.url };
    await warmUp(platform, log);
    for (const [name, measure] of SECTIONS) {
      if (only && !only.has(name)) continue;
      log(`${name}: start`);
      try {
        figures.push(...(await measure(ctx)));
      } catch (err) {
        // A bug in the bench itself: report it as a failed row, keep measuring the rest.
        figures.push(failed({ id: `${name}.crashed`, section: name, name: `${name} (bench crashed)` }, err?.stack ?? String(err)));
      }
    }
  } finally {
    closeConnections();
    await bare.stop();
    await stopServer(onDisk, log);
    await stopServer(server, log);
  }

  // Measured memory-first, reported in section order (sections are numbered 0 to 9; "1b" comes
  // after every twin's rows of 1).
  const order = (f) => {
    const [, number, letter] = /^(\d+)([a-z]?)/.exec(f.section) ?? [];
    return number === undefined ? 99 : Number(number) + (letter ? (letter.charCodeAt(0) - 96) / 100 : 0);
  };
  figures.sort((a, b) => order(a) - order(b));
  const results = {
    mode,
    generated_at: new Date().toISOString(),
    duration_s: Math.round((Date.now() - started) / 1000),
    state_folder: values.url
      ? "the server's own"
      : stateRoot === RAM_DIR
        ? `in ${RAM_DIR} (tmpfs); the disk-backed rows ran on ${os.tmpdir()}`
        : `in ${os.tmpdir()} (disk)`,
    machine: {
      cpus: os.cpus().length,
      cpu_model: os.cpus()[0]?.model ?? null,
      load_average_at_start: loadAtStart,
      load_average_at_end: os.loadavg(),
      node: process.version,
      platform: `${os.type()} ${os.release()}`,
    },
    sizes,
    summary: summary(figures),
    figures,
    markdown: markdownTable(figures),
  };
  writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
  // A full run of every section into bench/results.json is the README's latest results.
  const readme = path.join(root, "bench", "README.md");
  if (mode === "full" && !values.out && !only && !values.url && existsSync(readme)) {
    writeFileSync(readme, withResultsBlock(readFileSync(readme, "utf8"), resultsBlock(results)));
    log("bench/README.md: the results tables are this run's");
  }
  console.log(textTable(figures));
  const extra = notes(figures);
  if (extra) console.log(`\n${extra}`);
  console.log(`\n${results.summary} (${mode} run, ${results.duration_s} s); results in ${path.relative(process.cwd(), out) || out}`);
}

/** The tests' dev-server starter (TypeScript, which Node runs natively from 22.18 on). */
async function devServerModule() {
  const [major, minor] = process.versions.node.split(".").map(Number);
  if (major < 22 || (major === 22 && minor < 18)) {
    throw new Error(
      `the bench needs Node 22.18+ (this is ${process.version}); run it as \`npm run bench\`, which uses the project's pinned Node`,
    );
  }
  return import("../test/node/server.ts");
}

/** Stops the dev server; its state folder can still be busy for a moment after the exit, so retry. */
async function stopServer(server, log) {
  for (let attempt = 1; server && attempt <= 5; attempt++) {
    try {
      await server.stop();
      return;
    } catch (err) {
      log(`stopping the dev server: ${err.message}; retrying`);
      await new Promise((r) => setTimeout(r, 500 * attempt));
    }
  }
}

/** The first calls on a fresh server compile everything; none of that belongs in a figure. */
async function warmUp(platform, log) {
  const me = await platform.createRaw({ users: [], repositories: [] });
  if (me.status === 201) {
    const body = JSON.parse(me.text);
    await platform.discard(body.session_id);
  }
  log(`warm-up: a first sandbox answered ${me.status}`);
}

main().catch((err) => {
  console.error(err?.stack ?? err);
  process.exitCode = 1;
});
