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

/** Every figure the bench reports, by id: the six measurements issue 5 asks for, and issue 10's bare baseline. */
const FIGURE_IDS = [
  "bare.router.p50",
  "bare.floor.p50",
  "bare.read.p50",
  "bare.write.p50",
  "bare.repo-read.p50",
  "bare.list.p50",
  // With its state in memory (tmpfs), the bench also times reads and writes on a disk-backed server.
  ...(existsSync("/dev/shm") ? ["bare.read-disk.p50", "bare.write-disk.p50"] : []),
  "memory.peak",
  "memory.per-sandbox",
  "memory.added",
  "overhead.read.p50",
  "overhead.read.p99",
  "overhead.write.p50",
  "overhead.write.p99",
  "overhead.repo-read.p50",
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
];

/** Figures read from /proc, which only Linux has: memory, and the runtime's CPU time (concurrency, dashboard). */
const READ_FROM_PROC = /^(memory\.|dashboard\.|concurrency\.(cpu-per-call|busiest-thread)$)/;

/** The figures each twin's own bench section adds, under its id: the same five for every twin. */
const TWIN_FIGURES = ["overhead.read.p50", "overhead.write.p50", "world.read.p50", "world.write.p50", "world.list.p50"];
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
  it("runs every figure end to end and writes a well-formed result", { timeout: 180_000 }, async () => {
    const out = path.join(outDir, "results.json");
    const run = await runQuickBench(out);
    expect(run.code, run.stderr).toBe(0);

    const results = JSON.parse(readFileSync(out, "utf8")) as { mode: string; figures: Figure[]; summary: string; markdown: string };
    expect(results.mode).toBe("quick");
    // The markdown table is pasted into the README as it is: plain cells, one row per figure.
    expect(results.markdown).toContain("| Point read p50 (GET issue) |");
    expect(results.markdown).not.toMatch(/%[0-9A-F]{2}/);
    const ids = results.figures.map((f) => f.id);
    expect(ids.filter((id) => !TWIN_SECTION.test(id)).sort()).toEqual([...FIGURE_IDS].sort());
    const twins = [...new Set(ids.filter((id) => TWIN_SECTION.test(id)).map((id) => id.split(".")[0]))];
    for (const twin of twins)
      expect(ids.filter((id) => id.startsWith(`${twin}.`)).sort(), twin).toEqual(TWIN_FIGURES.map((f) => `${twin}.${f}`).sort());
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

    // The table on stdout carries the same figures.
    expect(run.stdout).toMatch(/Figure\s+Value\s+Floor or baseline\s+Ratio\s+Target/);
    for (const f of results.figures) expect(run.stdout).toContain(f.name);
  });
});
