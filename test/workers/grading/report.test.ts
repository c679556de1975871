// report.md: the sections a person or a coach agent reads.
import { describe, expect, it } from "vitest";
import { correlate } from "../../../workers/grading/correlate";
import { fixPrompt, summarize } from "../../../workers/grading/narrate";
import { renderReport } from "../../../workers/grading/report";
import type { RunView } from "../../../workers/grading/run-view";
import { scoreResults } from "../../../workers/grading/score";
import type { CriterionResult } from "../../../workers/grading/types";
import { ownerOf, runVerdict } from "../../../workers/grading/verdict";
import { row } from "./fixtures";

const result = (id: string, status: CriterionResult["status"], reason: string, extra: Partial<CriterionResult> = {}): CriterionResult => {
  const r: Omit<CriterionResult, "owner"> & { owner?: CriterionResult["owner"] } = {
    id,
    text: `Criterion ${id}`,
    kind: "code",
    twin: "github",
    check_id: null,
    status,
    passed: status === "passed",
    skipped: status === "skipped",
    reason,
    skip_reason: null,
    always_scored: false,
    ...extra,
  };
  return { ...r, owner: ownerOf(r) };
};

function run(results: CriterionResult[], extra: Partial<RunView> = {}): RunView {
  const score = scoreResults(results);
  const tape = [
    row({ seq: 1 }),
    row({ seq: 2, fidelity: "unsupported", status: 501, method: "PUT", path: "/repos/acme/api/pages", operation: "unsupported" }),
  ];
  const { steps, lanes } = correlate(tape);
  const verdict = runVerdict({ results, score: score.score, examinee: { stop_reason: "done", exit_code: 0 } });
  const narration = {
    taskName: "Triage the timeout",
    score,
    results,
    steps,
    lanes,
    stopReason: "done",
    exitCode: 0,
    durationMs: 12_300,
    verdict,
  };
  return {
    id: "run_test",
    session_id: "ses_test",
    task_name: "Triage the timeout",
    task_hash: "abc",
    satisfaction_score: score.score,
    score: score.score,
    all_skipped: score.all_skipped,
    verdict: verdict.verdict,
    verdict_reason: verdict.reason,
    criteria_results: results,
    criteria_breakdown: score.breakdown,
    group_id: "grp_baseline",
    baseline_group_id: null,
    environment: "development",
    twins: ["github"],
    agent_model: "claude-test",
    agent_sdk: "claude-agent-sdk",
    agent_version: "v1",
    judge_model: null,
    stop_reason: "done",
    exit_code: 0,
    exit_signal: null,
    stderr_tail: null,
    regraded_from: null,
    flipped: null,
    duration_ms: 12_300,
    provenance: "hosted",
    source: "twin-pull",
    tape_length: tape.length,
    steps,
    lanes,
    summary: summarize(narration),
    fix_prompt: fixPrompt(narration),
    scenario_prompt: null,
    expected_behavior: null,
    trace_s3_key: "team-tm/session-ses_test/events.jsonl",
    state_s3_key: "team-tm/session-ses_test/state_final.github.json",
    events_jsonl_url: "team-tm/session-ses_test/events.jsonl",
    state_keys: {},
    state_initial_keys: {},
    dashboard_url: "http://pome.test/app/runs/run_test",
    created_at: "2026-01-02T00:00:00.000Z",
    finished_at: "2026-01-02T00:01:00.000Z",
    ...extra,
  };
}

const MIXED = [
  result("c1", "passed", "issue #1 has the `bug` label"),
  result("c2", "failed", "issue #1 is not assigned to `alice` (assignees: none)"),
  result("c3", "skipped", "already_true_in_seed: issue #3 has the `bug` label before the agent acted; still true at the end", {
    skip_reason: "already_true_in_seed",
  }),
  result(
    "c4",
    "unmatched",
    "unmatched: the sentence binds no github check; nearest: github.issue-exists — Issue #{issue} exists in `{repo}`",
  ),
];

describe("report.md", () => {
  const md = renderReport(run(MIXED), { rerunGroupId: "grp_0123456789abcdef" });

  it("opens with the title and the score with its denominator and exclusions", () => {
    expect(md.split("\n")[0]).toBe("# Evaluation report — Triage the timeout");
    expect(md).toContain("**Score: 50/100** — 1 of 2 evaluated criteria passed; 2 excluded (1 already true in the seed, 1 unmatched)");
  });

  it("has a criteria table with a reason on every row, pipes escaped", () => {
    expect(md).toContain("| | Criterion | Kind | Status | Owner | Reason |");
    expect(md).toContain("| ✅ | Criterion c1 | code | passed | — | issue #1 has the `bug` label |");
    expect(md).toContain("| ❌ | Criterion c2 | code | failed | agent | issue #1 is not assigned to `alice` (assignees: none) |");
    expect(md).toContain("| ⏭️ | Criterion c3 | code | skipped | task | already_true_in_seed: ");
    expect(md).toContain("| ❔ | Criterion c4 | code | unmatched | task | unmatched: ");
    const rows = md.split("\n").filter((l) => /^\| (✅|❌|⏭️|❔) \|/.test(l));
    expect(rows).toHaveLength(4);
    for (const line of rows) expect(line.split(" | ").at(-1)).not.toBe("— |");
  });

  it("names the agent and judge models, the twin runtime and the dashboard link", () => {
    expect(md).toContain("- Agent model: claude-test via claude-agent-sdk; agent version: v1");
    expect(md).toContain("- Judge model: none configured");
    expect(md).toMatch(/- Twin runtime: .*github \(2 calls, 0 mutating, 1 unsupported\)/);
    expect(md).toContain("[http://pome.test/app/runs/run_test](http://pome.test/app/runs/run_test)");
  });

  it("hands off a fix prompt naming what failed and the unsupported calls", () => {
    const handoff = md.slice(md.indexOf("## Handoff (fix prompt)"), md.indexOf("## Rerun after fixing"));
    expect(handoff).toContain("What failed: `c2`.");
    expect(handoff).toContain('meets "Criterion c2" (code) — it failed because issue #1 is not assigned to `alice`');
    expect(handoff).toContain("PUT /repos/acme/api/pages on github (1 call)");
    expect(handoff).toContain("bound no check");
  });

  it("pre-fills the pome rerun line to paste, with this run's group as the baseline", () => {
    const rerun = md.slice(md.indexOf("## Rerun after fixing"));
    const block = /```bash\n(.+)\n```/.exec(rerun);
    expect(block?.[1]).toBe("npx pome rerun grp_baseline --agent-version v1-next -- <your agent's command>");
    expect(rerun).not.toContain("```json");
    // For API callers: the fields a rerun's sandboxes carry.
    expect(rerun).toContain('`"group_id": "grp_0123456789abcdef"`, `"baseline_group_id": "grp_baseline"` and `"agent_version": "v1-next"`');
  });

  it("mints a new group id of the form pome run mints (grp_ and 16 hex digits)", () => {
    const minted = /"group_id": "(grp_[^"]+)"/.exec(renderReport(run(MIXED)))?.[1];
    expect(minted).toMatch(/^grp_[0-9a-f]{16}$/);
  });

  it("sends a run without a group to pome run, since no rerun can be compared with it", () => {
    const rerun = renderReport(run(MIXED, { group_id: null }));
    expect(rerun).not.toContain("pome rerun");
    expect(rerun).toContain("npx pome run <task.md> -- <your agent's command>");
  });

  it("says nothing needs handing off on a clean run, and shows a dash score when nothing was evaluated", () => {
    const clean = renderReport(
      run([result("c3", "skipped", "already_true_in_seed: x", { skip_reason: "already_true_in_seed" })], {
        lanes: [],
        steps: [],
        fix_prompt: null,
      }),
    );
    expect(clean).toContain(
      "**Score: —/100** (nothing was evaluated) — 0 of 0 evaluated criteria passed; 1 excluded (1 already true in the seed)",
    );
    expect(clean).toContain("Nothing to hand off");
  });
});
