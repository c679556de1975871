// `npm run bench -- --quick` is the benchmark's smoke run: the same code paths as the full bench at
// small sizes. It must finish and report every figure in a well-formed result, whether or not a
// target was met (speed targets live in the bench itself; timing asserts here would be flaky).
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../../..");
const outDir = mkdtempSync(path.join(os.tmpdir(), "pome-bench-"));
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

/** Every figure the bench reports outside the twins' own sections, by id. */
const FIGURE_IDS = [
  // The floor, as information: what any request costs before a twin does anything.
  "bare.router.p50",
  "bare.floor.p50",
  "bare.repo-read.p50",
  // With its state in memory (tmpfs), the bench also times reads and writes on a disk-backed server.
  ...(existsSync("/dev/shm") ? ["bare.read-disk.p50", "bare.write-disk.p50"] : []),
  // The GitHub twin's point read, point write and list page against a bare Node round trip.
  "bare.read.p50",
  "bare.write.p50",
  "bare.list.p50",
  // Point calls in areas newer than the twin's first three: GraphQL, the git database.
  "area.graphql-issue.p50",
  "area.git-blob.p50",
  "memory.peak",
  "memory.per-sandbox",
  "memory.added",
  // The same calls with each kind alone: what the interleaved figures spread over every series.
  "alone.floor.p50",
  "alone.read.p50",
  "alone.write.p50",
  "world.read.p50",
  "world.write.p50",
  "world.list.p50",
  "world.label-list.p50",
  "create.empty",
  "create.mid",
  "create.big",
  "create.invalid",
  "create.first-answer",
  "finalize.small",
  "finalize.big",
  "concurrency.throughput",
  "concurrency.cpu-per-call",
  "concurrency.busiest-thread",
  "concurrency.errors",
  "concurrency.tapes",
  "dashboard.first-view",
  "dashboard.page",
  // A second sandbox's point read while the first is under the heaviest call we know, and that call's CPU time.
  "isolation.heaviest-call",
  "isolation.read.p50",
  "isolation.read.p99",
  "isolation.read.p99.saturated",
  // Trials of an example task at --concurrency against one at a time.
  "trials.parallel",
];

/** Each twin's point read, point write, list page and area calls against bare Node, each with its p99 beside it. */
const AGAINST_BARE = /^((stripe|slack|gmail|linear)\.)?(bare\.(read|write|list)|area\.[a-z-]+)\.p50$/;
/** An area's point call is judged like the twin's own call of its kind: a read's target or a write's. */
const AREA_TARGETS = [2, 3];
/** The targets, by the figure's id without its twin: a multiple of the baseline's p50. */
const TARGETS: Record<string, number> = {
  "bare.read.p50": 2,
  "bare.write.p50": 3,
  "bare.list.p50": 3,
  "world.read.p50": 1.2,
  "world.write.p50": 1.2,
  "world.list.p50": 1.5,
};

/** Figures read from /proc, which only Linux has: memory, and the runtime's CPU time (concurrency, dashboard, isolation). */
const READ_FROM_PROC = /^(memory\.|dashboard\.|concurrency\.(cpu-per-call|busiest-thread)$|isolation\.heaviest-call$)/;

/** The figures each twin's own bench section adds, under its id: the same six for every twin, then its area calls. */
const TWIN_FIGURES = ["bare.read.p50", "bare.write.p50", "bare.list.p50", "world.read.p50", "world.write.p50", "world.list.p50"];
const TWIN_SECTION = /^(stripe|slack|gmail|linear)\./;

interface Figure {
  id: string;
  section: string;
  name: string;
  value: number | null;
  unit: string;
  baseline: number | null;
  ratio: number | null;
  target: { max?: number; min?: number; equals?: number } | null;
  met: boolean | null;
  p99: { value: number | null; baseline: number | null; ratio: number | null } | null;
  error: string | null;
}

function runQuickBench(out: string): Promise<{ code: number | null; stdout: string; stderr: string; seconds: number }> {
  const started = Date.now();
  return new Promise((resolve) => {
    // Through npm, as a user runs it: npm puts the project's pinned Node 22 first on the PATH.
    const child = spawn("npm", ["run", "--silent", "bench", "--", "--quick", "--out", out], {
      cwd: root,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("exit", (code) => resolve({ code, stdout, stderr, seconds: (Date.now() - started) / 1000 }));
  });
}

describe("npm run bench -- --quick", () => {
  // Two dev servers start (state in memory and on disk) before any figure: on a loaded 2-core
  // machine that alone has taken 70 s, the sections after it as long again, and the trials section
  // runs the CLI's trials (two one at a time, two at once) through real agent processes.
  it("runs every figure end to end and writes a well-formed result", { timeout: 600_000 }, async () => {
    const out = path.join(outDir, "results.json");
    const run = await runQuickBench(out);
    expect(run.code, run.stderr).toBe(0);

    const results = JSON.parse(readFileSync(out, "utf8")) as { mode: string; figures: Figure[]; summary: string; markdown: string };
    expect(results.mode).toBe("quick");
    // The markdown table is written into bench/README.md as it is: plain cells, one row per figure.
    expect(results.markdown).toContain("| GitHub point read p50 (GET issue) |");
    expect(results.markdown).not.toMatch(/%[0-9A-F]{2}/);
    const ids = results.figures.map((f) => f.id);
    expect(ids.filter((id) => !TWIN_SECTION.test(id)).sort()).toEqual([...FIGURE_IDS].sort());
    const twins = [...new Set(ids.filter((id) => TWIN_SECTION.test(id)).map((id) => id.split(".")[0]))];
    expect(twins.sort()).toEqual(["gmail", "linear", "slack", "stripe"]);
    for (const twin of twins) {
      const own = ids.filter((id) => id.startsWith(`${twin}.`));
      expect(own.filter((id) => !id.startsWith(`${twin}.area.`)).sort(), twin).toEqual(TWIN_FIGURES.map((f) => `${twin}.${f}`).sort());
      // A read and a write in the twin's newer areas.
      expect(
        own.filter((id) => id.startsWith(`${twin}.area.`)),
        twin,
      ).toHaveLength(2);
    }
    for (const f of results.figures) {
      expect(f.name, f.id).toBeTruthy();
      // Every figure is measured here; only those read from Linux's /proc (memory, the runtime's CPU
      // time) may say why they could not be.
      if (f.error === null) expect(typeof f.value, f.id).toBe("number");
      else expect(f.error, f.id).toMatch(/\S/);
      if (process.platform === "linux" || !READ_FROM_PROC.test(f.id)) expect(f.error, f.id).toBeNull();
      expect([true, false, null], f.id).toContain(f.met);
      if (f.target === null && f.error === null) expect(f.met, f.id).toBeNull();
      if (f.ratio !== null) expect(Number.isFinite(f.ratio), f.id).toBe(true);
    }
    expect(results.summary).toMatch(/^\d+ of \d+ targets met$/);

    // The targets: every twin's calls as a multiple of bare Node, with the p99 beside; world size
    // and creation as multiples of a smaller world. The floor and the calls alone are information.
    const byId = new Map(results.figures.map((f) => [f.id, f]));
    for (const f of results.figures) {
      const own = f.id.replace(TWIN_SECTION, "");
      if (own in TARGETS) expect(f.target, f.id).toEqual({ max: TARGETS[own] });
      if (own.startsWith("area.")) expect(AREA_TARGETS, f.id).toContain(f.target?.max);
      if (AGAINST_BARE.test(f.id)) {
        expect(f.p99?.value, f.id).toBeGreaterThan(0);
        expect(Number.isFinite(f.p99?.ratio), f.id).toBe(true);
      }
      if (/^(bare\.(router|floor|repo-read|read-disk|write-disk)|alone\.)/.test(f.id)) expect(f.target, f.id).toBeNull();
    }
    // Creation grows linearly: the big world against the mid-size one, within 1.1 × their size ratio.
    const sizes = JSON.parse(readFileSync(out, "utf8")).sizes as { createMid: number; createBig: number };
    expect(byId.get("create.big")?.target).toEqual({ max: Number(((1.1 * sizes.createBig) / sizes.createMid).toFixed(2)) });
    expect(byId.get("create.big")?.baseline).toBe(byId.get("create.mid")?.value);

    // The table on stdout carries the same figures.
    expect(run.stdout).toMatch(/Figure\s+Value\s+Baseline\s+Ratio\s+Target\s+p99, × baseline p99\s+Peer/);
    for (const f of results.figures) expect(run.stdout).toContain(f.name);
    // What the run measured, for whoever reads the test's output.
    console.log(run.stdout);
  });
});
