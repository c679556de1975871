// bench/README.md is for someone who wants to know how fast the platform is: its results tables are
// written from bench/results.json (npm run bench:report) and must show that file; its history
// lives in bench/HISTORY.md, one dated heading per pass.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { figure } from "../../../bench/lib/figures.mjs";
import { BLOCK_END, BLOCK_START, resultsBlock, withResultsBlock } from "../../../bench/lib/report.mjs";

const bench = path.resolve(import.meta.dirname, "../../../bench");
const read = (name) => readFileSync(path.join(bench, name), "utf8");

/** A results file as bench/run.mjs writes one, with two sections. */
function sampleResults() {
  return {
    mode: "full",
    generated_at: "2026-12-06T21:05:00.000Z",
    duration_s: 600,
    state_folder: "in /dev/shm (tmpfs)",
    machine: { cpus: 2, cpu_model: "Test CPU", load_average_at_start: [1.25, 1, 1], load_average_at_end: [2, 1, 1], node: "v22.23.0" },
    summary: "1 of 2 targets met",
    figures: [
      figure({
        id: "bare.read.p50",
        section: "1. Twin calls against a bare Node round trip",
        name: "GitHub point read p50 (GET issue)",
        value: 0.9,
        baseline: 0.5,
        baselineLabel: "bare Node p50",
        target: { max: 2 },
        p99: { value: 2.4, baseline: 1.2, ratio: 2 },
      }),
      figure({
        id: "create.big",
        section: "3. Sandbox creation",
        name: "Create, 10,000-issue world",
        value: 240,
        baseline: 20,
        baselineLabel: "1,000-issue create",
        target: { max: 11 },
      }),
    ],
  };
}

describe("the results tables are written from a results file", () => {
  it("names the run and the targets met, then one table per section with the p99 beside its median", () => {
    const block = resultsBlock(sampleResults());
    expect(block).toContain("The full run of 6 Dec 2026, 21:05 UTC, 600 s: 2 × Test CPU, Node v22.23.0");
    expect(block).toContain("load average 1.3 at the start and 2.0 at the end");
    expect(block).toContain("**1 of 2 targets met.**");
    expect(block).toContain("### 1. Twin calls against a bare Node round trip");
    expect(block).toContain(
      "| GitHub point read p50 (GET issue) | 0.90 ms | 0.50 ms bare Node p50 | 1.80× | ≤ 2× | ✓ | 2.40 ms, 2.00× |  |",
    );
    expect(block).toContain("### 3. Sandbox creation");
    expect(block).toContain("| Create, 10,000-issue world | 240 ms | 20.00 ms 1,000-issue create | 12.00× | ≤ 11× | ✗ |  |  |");
  });

  it("replaces only what lies between the README's markers", () => {
    const readme = `# Title\n\nBefore.\n\n${BLOCK_START}\n\nold tables\n\n${BLOCK_END}\n\nAfter.\n`;
    const next = withResultsBlock(readme, "new tables");
    expect(next).toBe(`# Title\n\nBefore.\n\n${BLOCK_START}\n\nnew tables\n\n${BLOCK_END}\n\nAfter.\n`);
    expect(withResultsBlock(next, "new tables")).toBe(next);
    expect(() => withResultsBlock("# No markers\n", "tables")).toThrow(/no results markers/);
  });
});

describe("bench/README.md", () => {
  const readme = read("README.md");

  it("shows bench/results.json (run npm run bench:report after a bench run)", () => {
    const results = JSON.parse(read("results.json"));
    expect(withResultsBlock(readme, resultsBlock(results))).toBe(readme);
  });

  it("states each target", () => {
    for (const target of ["≤ 2× bare Node", "≤ 3× bare Node", "≤ 1.2×", "≤ 1.5×", "≤ 11×", "≤ 250 ms"]) expect(readme).toContain(target);
  });

  it("speaks to its reader: no issue numbers, no pass counts", () => {
    expect(readme).not.toMatch(/\bissues? #?\d+\b/i);
    expect(readme).not.toMatch(/\b(first|second|third|\w+th) pass\b/i);
  });
});

describe("bench/HISTORY.md", () => {
  it("has one dated heading per pass, oldest first", () => {
    const headings = read("HISTORY.md")
      .split("\n")
      .filter((line) => line.startsWith("## "));
    expect(headings.length).toBeGreaterThanOrEqual(18);
    const dates = headings.map((h) => {
      const match = /^## (\d{1,2} [A-Z][a-z]{2} \d{4}), [a-z-]+ pass: \S/.exec(h);
      expect(match, h).not.toBeNull();
      return Date.parse(`${match?.[1]} UTC`);
    });
    expect(dates).toEqual([...dates].sort((a, b) => a - b));
  });
});
