// pome run --concurrency N: trials run side by side, with one progress line per trial, and their
// outcome reads exactly as one-at-a-time trials do. The quota rules: concurrency-quota.test.mjs.
import { describe, expect, it } from "vitest";
import { agent, example, pome, pomeJson } from "./helpers";

const node = process.execPath;

interface Outcome {
  group_id: string;
  trials: number;
  passed_trials: number;
  verdict: string;
  runs: { trial: number; session_id: string; run_id: string; outcome: string; criteria_results: unknown[] }[];
}

interface SandboxTimes {
  created_at: string;
  closed_at: string | null;
}

/** The keys of an outcome and of its trials, with the group-specific values left out. */
const shape = (o: Outcome) => ({ outcome: Object.keys(o).sort(), trial: Object.keys(o.runs[0] ?? {}).sort() });

describe("pome run --concurrency runs trials side by side", () => {
  it("keeps three trials open at once and reports them as sequential trials are reported", async () => {
    const parallel = await pomeJson<Outcome>([
      "run",
      example("triage-bug-report"),
      "--runs",
      "3",
      "--concurrency",
      "3",
      "--agent-version",
      "reference",
      "--",
      node,
      agent("triage-bug-report"),
    ]);
    expect(parallel.code, parallel.stderr).toBe(0);
    expect(parallel.json.runs.map((r) => r.trial)).toEqual([1, 2, 3]);
    expect(parallel.json).toMatchObject({ trials: 3, passed_trials: 3, verdict: "passed" });

    // Every sandbox was created before any of them closed: all three trials overlapped.
    const times = await Promise.all(
      parallel.json.runs.map(async (r) => (await pomeJson<SandboxTimes>(["sandbox", "get", r.session_id])).json),
    );
    const lastCreated = Math.max(...times.map((t) => Date.parse(t.created_at)));
    const firstClosed = Math.min(...times.map((t) => Date.parse(t.closed_at ?? "")));
    expect(lastCreated).toBeLessThan(firstClosed);

    // One progress line per trial, none of the step-by-step narration of one trial at a time.
    const trialLines = parallel.stderr.split("\n").filter((l) => /^\[\d\/3\] /.test(l));
    expect(trialLines).toHaveLength(3);
    expect(trialLines.every((l) => /^\[\d\/3\] run run_\w+: score 100 → passed/.test(l))).toBe(true);
    expect(parallel.stderr).not.toContain("creating a sandbox");

    const sequential = await pomeJson<Outcome>([
      "run",
      example("triage-bug-report"),
      "--runs",
      "2",
      "--agent-version",
      "reference",
      "--",
      node,
      agent("triage-bug-report"),
    ]);
    expect(sequential.code).toBe(0);
    expect(shape(parallel.json)).toEqual(shape(sequential.json));
    // Sequential trials never overlap.
    const [first, second] = await Promise.all(
      sequential.json.runs.map(async (r) => (await pomeJson<SandboxTimes>(["sandbox", "get", r.session_id])).json),
    );
    expect(Date.parse(second.created_at)).toBeGreaterThanOrEqual(Date.parse(first.closed_at ?? ""));
  });

  it("refuses a concurrency that is not a whole number from 1", async () => {
    const { code, stderr } = await pome(["run", example("triage-bug-report"), "--concurrency", "0", "--", node, agent("do-nothing")]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/--concurrency must be a whole number from 1 to 50/);
  });
});
