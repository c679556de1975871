// pome runs --group and pome rerun print the reliability the API computes (GET /v1/groups…), in
// the words of workers/stats/text.ts.
import { describe, expect, it } from "vitest";
import { agent, example, pome, pomeJson } from "./helpers";

const node = process.execPath;
const TASK = example("triage-bug-report");

interface Reliability {
  trials: number;
  graded: number;
  passed: number;
  pass_rate: number | null;
  interval: { low: number; high: number } | null;
  pass_hat_k: { k: number; estimate: number }[];
  criteria: { text: string; flaky: boolean }[];
}

describe("pome runs --group", () => {
  it("lists a group's trials and prints its pass rate, interval, pass^k and flaky criteria", async () => {
    const first = await pomeJson<{ group_id: string }>(["run", TASK, "--", node, agent("triage-bug-report")]);
    const group = first.json.group_id;
    await pomeJson(["run", TASK, "--group-id", group, "--", node, agent("do-nothing")]);

    const listed = await pomeJson<{ group_id: string; runs: { id: string }[]; reliability: Reliability }>(["runs", "--group", group]);
    expect(listed.code).toBe(0);
    expect(listed.json.runs).toHaveLength(2);
    expect(listed.json.reliability).toMatchObject({ trials: 2, graded: 2, passed: 1, pass_rate: 0.5 });
    // Wilson 95% at 1/2: centre .5, half (1.95996 / 2.92073) · √(.125 + .24009) = .40548
    expect(listed.json.reliability.interval?.low).toBeCloseTo(0.0945, 3);
    // C(1,2)/C(2,2) = 0: two trials never both passed.
    expect(listed.json.reliability.pass_hat_k.map((p) => p.estimate)).toEqual([0.5, 0]);
    expect(listed.json.reliability.criteria.filter((c) => c.flaky).length).toBeGreaterThan(0);

    const text = await pome(["runs", "--group", group]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`Reliability of group ${group}:`);
    expect(text.stdout).toContain("Pass rate 50% (1 of 2 graded trials), 95% Wilson interval 9.5%–90.5%; threshold 100%: FAILED");
    expect(text.stdout).toContain("pass^k (all of k trials pass): k=1 50% · k=2 0%");
    expect(text.stdout).toContain("Flaky criteria (passed in some trials, failed in others):");
    expect(text.stdout).toContain('  "Issue #12 in `northwind/payments` is assigned to `dana`": passed 1 of 2');
  });
});

describe("pome run with several trials", () => {
  it("computes its verdict with the same arithmetic and prints the same lines", async () => {
    const { code, stdout } = await pome(["run", TASK, "--runs", "2", "--", node, agent("do-nothing")]);
    expect(code).toBe(1);
    expect(stdout).toContain("Pass rate 0% (0 of 2 graded trials reached a score of 100); threshold 100%: FAILED");
    expect(stdout).toContain("pass^k (all of k trials pass): k=1 0% · k=2 0%");
    expect(stdout).toContain("No flaky criteria.");
  });
});

describe("pome rerun", () => {
  it("prints the server's comparison: flips, and whether the change is larger than the noise", async () => {
    const baseline = await pomeJson<{ group_id: string }>(["run", TASK, "--", node, agent("do-nothing")]);
    const { code, json } = await pomeJson<{
      comparison: { pass_rate_change: number; fixed: number; test: { p_value: number; significant: boolean } };
    }>(["rerun", baseline.json.group_id, "--agent-version", "v2", "--", node, agent("triage-bug-report")]);
    expect(code).toBe(0);
    // One trial against one: 0/1 → 1/1 is p = 1 by Fisher's exact test, so not beyond the noise.
    expect(json.comparison).toMatchObject({ pass_rate_change: 1, fixed: 3, test: { p_value: 1, significant: false } });

    const again = await pome(["rerun", baseline.json.group_id, "--agent-version", "v3", "--", node, agent("triage-bug-report")]);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(
      `Against baseline ${baseline.json.group_id}: 0% → 100% (+100 points); Fisher's exact test p = 1.000: within the noise of 1 against 1 trials`,
    );
    expect(again.stdout).toMatch(/^failed\s+passed\s+Issue #12 in `northwind\/payments` is assigned to `dana`$/m);
  });
});
