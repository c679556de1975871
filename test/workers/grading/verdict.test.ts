// A verdict says who failed (issue 38, point 1): passed, failed, incomplete or errored, and an
// owner for every criterion that did not pass.
import { describe, expect, it } from "vitest";
import { gradeCriteria } from "../../../workers/grading/evaluate";
import type { Judge } from "../../../workers/grading/judge/types";
import { scoreResults } from "../../../workers/grading/score";
import type { Criterion, CriterionResult, GradingEvidence } from "../../../workers/grading/types";
import { examineeFault, ownerOf, runVerdict } from "../../../workers/grading/verdict";
import { issue, world } from "./fixtures";

const TASK = { name: "Triage", prompt: "Label issue #1", expectedBehavior: null };
const CLEAN_EXIT = { stop_reason: "completed", exit_code: 0 };

/** The seed, and a final state where the agent labelled issue #1 `bug`. */
function labelled(): GradingEvidence {
  const final = world();
  issue(final, 1).labels.push("bug");
  return { twins: ["github"], perTwin: { github: { initial: world(), final, tape: [] } }, tape: [] };
}

const code = (id: string, text: string): Criterion => ({ id, text, kind: "code" });
const model = (id: string, text: string): Criterion => ({ id, text, kind: "model" });
const LABELLED = code("c1", "Issue #1 in `acme/api` has the `bug` label applied");
const TYPO = code("c2", "Issue #1 in `acme/api` has the `bug` clasification");

async function verdictOf(criteria: Criterion[], opts: { judge?: Judge; examinee?: typeof CLEAN_EXIT & { exit_signal?: string } } = {}) {
  const results = await gradeCriteria({ criteria, evidence: labelled(), task: TASK, judge: opts.judge });
  const score = scoreResults(results);
  return { results, score, ...runVerdict({ results, score: score.score, examinee: opts.examinee ?? CLEAN_EXIT }) };
}

const failingJudge: Judge = {
  model: "test-judge",
  judge: async () => ({ ok: false, detail: "the judge answered 503 three times" }),
};
const passingJudge: Judge = {
  model: "test-judge",
  judge: async () => ({ ok: true, verdict: "pass", reason: "the agent explained itself" }),
};

describe("a run whose [code] criteria all bind and pass is passed", () => {
  it("passes, with no owner", async () => {
    const v = await verdictOf([LABELLED]);
    expect(v).toMatchObject({ verdict: "passed", owner: null });
    expect(v.results[0].owner).toBeNull();
  });
});

describe("an unmatched [code] criterion makes the run incomplete, never passed, and the task owns it", () => {
  it("the score of the rest is 100, and the verdict is still incomplete", async () => {
    const v = await verdictOf([LABELLED, TYPO]);
    expect(v.score.score).toBe(100);
    expect(v.verdict).toBe("incomplete");
    expect(v.owner).toBe("task");
    expect(v.reason).toContain("`c2` bound no check");
    expect(v.results[1]).toMatchObject({ status: "unmatched", owner: "task" });
  });
});

describe("a configured judge that fails makes the run incomplete; no judge at all is a stated choice", () => {
  it("a configured judge's failure is the grader's, and the run is incomplete", async () => {
    const v = await verdictOf([LABELLED, model("m1", "The agent explains the label")], { judge: failingJudge });
    expect(v.verdict).toBe("incomplete");
    expect(v.owner).toBe("grader");
    expect(v.results[1]).toMatchObject({ skip_reason: "judge_unavailable", owner: "grader" });
    expect(v.results[1].reason).toContain("the configured judge failed");
  });

  it("with no judge configured the model criterion is excluded by configuration, and the verdict says so", async () => {
    const v = await verdictOf([LABELLED, model("m1", "The agent explains the label")]);
    expect(v.verdict).toBe("passed");
    expect(v.excluded_by_configuration).toBe(1);
    expect(v.reason).toContain("1 [model] criterion excluded by configuration (no judge configured)");
    expect(v.results[1]).toMatchObject({ skip_reason: "judge_unavailable", owner: "platform" });
  });

  it("a judge that answers grades the criterion", async () => {
    const v = await verdictOf([LABELLED, model("m1", "The agent explains the label")], { judge: passingJudge });
    expect(v).toMatchObject({ verdict: "passed", excluded_by_configuration: 0 });
  });
});

describe("a failed criterion is the agent's, and the run failed", () => {
  it("names the failed criterion", async () => {
    const v = await verdictOf([code("c1", "Issue #2 in `acme/api` has the `bug` label applied"), LABELLED]);
    expect(v.verdict).toBe("failed");
    expect(v.owner).toBe("agent");
    expect(v.reason).toContain("`c1` failed");
    expect(v.results[0].owner).toBe("agent");
  });

  it("any failure fails at the default pass score, even where the score rounds to 100", () => {
    const results = [
      ...Array.from({ length: 199 }, (_, i) => ({
        id: `p${i}`,
        kind: "code" as const,
        status: "passed" as const,
        skip_reason: null,
        reason: "",
      })),
      { id: "f", kind: "code" as const, status: "failed" as const, skip_reason: null, reason: "" },
    ];
    expect(runVerdict({ results, score: 100, examinee: CLEAN_EXIT }).verdict).toBe("failed");
    expect(runVerdict({ results, score: 100, passScore: 90, examinee: CLEAN_EXIT }).verdict).toBe("passed");
  });
});

describe("a criterion over a subject the seed lacks, which the agent could not create, is the task's", () => {
  it("`alcie` is not a user of the seed: the failure is owned by the task, and the run is incomplete", async () => {
    const v = await verdictOf([LABELLED, code("c2", "Issue #1 in `acme/api` is assigned to `alcie`")]);
    expect(v.results[1]).toMatchObject({ status: "failed", owner: "task" });
    expect(v.results[1].reason).toContain("`alcie` is not a user in the seed; did you mean `alice`?");
    expect(v).toMatchObject({ verdict: "incomplete", owner: "task" });
  });

  it("a user the seed has, not assigned, is the agent's failure", async () => {
    const v = await verdictOf([LABELLED, code("c2", "Issue #1 in `acme/api` is assigned to `alice`")]);
    expect(v.results[1]).toMatchObject({ status: "failed", owner: "agent" });
    expect(v.verdict).toBe("failed");
  });
});

describe("nothing graded, or an examinee that never started, is errored", () => {
  it("every criterion unmatched: errored, owned by the task", async () => {
    const v = await verdictOf([TYPO]);
    expect(v).toMatchObject({ verdict: "errored", owner: "task" });
    expect(v.reason).toContain("no criterion could be graded");
  });

  it("an examinee that never started", () => {
    expect(runVerdict({ results: [], score: null, examinee: { ...CLEAN_EXIT, started: false } })).toMatchObject({
      verdict: "errored",
      owner: "platform",
    });
  });
});

describe("a crash or a timeout is failed, with that reason", () => {
  it("an exit code", async () => {
    const v = await verdictOf([LABELLED], { examinee: { stop_reason: "exited with an error", exit_code: 3 } });
    expect(v).toMatchObject({ verdict: "failed", owner: "agent" });
    expect(v.reason).toContain("the examinee crashed: exit code 3");
  });
  it("a signal", () => {
    expect(examineeFault({ stop_reason: "signal SIGSEGV", exit_code: 139, exit_signal: "SIGSEGV" })).toContain("killed by SIGSEGV");
  });
  it("a timeout", async () => {
    const v = await verdictOf([LABELLED], { examinee: { stop_reason: "timeout", exit_code: 143, exit_signal: "SIGTERM" } });
    expect(v.verdict).toBe("failed");
    expect(v.reason).toContain("timed out");
  });
  it("an interrupt by the person running it is not the agent's crash", () => {
    expect(examineeFault({ stop_reason: "interrupted", exit_code: 130, exit_signal: "SIGTERM" })).toBeNull();
  });
});

describe("owners of stored rows written before owners existed are read from their status", () => {
  const row = (fields: Partial<CriterionResult>) =>
    ({ status: "skipped", skip_reason: null, reason: "", kind: "code", ...fields }) as Pick<
      CriterionResult,
      "status" | "skip_reason" | "reason" | "kind"
    >;
  it.each([
    [row({ status: "failed" }), "agent"],
    [row({ status: "unmatched" }), "task"],
    [row({ skip_reason: "already_true_in_seed" }), "task"],
    [row({ skip_reason: "subject_redacted" }), "task"],
    [row({ skip_reason: "field_absent" }), "grader"],
    [row({ skip_reason: "seed_missing" }), "platform"],
    [row({ skip_reason: "judge_unavailable", reason: "judge_unavailable: the judge timed out" }), "grader"],
    [row({ status: "passed" }), null],
  ])("%o is owned by %s", (r, owner) => expect(ownerOf(r)).toBe(owner));
});
