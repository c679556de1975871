// The grading rules over evidence: skip semantics, twin routing, tape scoping, and the score.
import { describe, expect, it } from "vitest";
import { gradeCriteria } from "../../../workers/grading/evaluate";
import type { Judge } from "../../../workers/grading/judge/types";
import { scoreResults } from "../../../workers/grading/score";
import type { Criterion, GradingEvidence } from "../../../workers/grading/types";
import type { TapeRow } from "../../../durable-objects/twins/types";
import { issue, row, world } from "./fixtures";

const TASK = { name: "Triage", prompt: "Label issue #1", expectedBehavior: null };

function evidence(opts: { initial?: unknown; final?: unknown; tape?: TapeRow[]; twins?: GradingEvidence["twins"] } = {}): GradingEvidence {
  const tape = opts.tape ?? [];
  const twins = opts.twins ?? ["github"];
  const perTwin: GradingEvidence["perTwin"] = {};
  for (const t of twins)
    perTwin[t] =
      t === "github"
        ? { initial: "initial" in opts ? opts.initial : world(), final: opts.final ?? world(), tape: tape.filter((r) => r.twin === t) }
        : { initial: {}, final: {}, tape: tape.filter((r) => r.twin === t) };
  return { twins, perTwin, tape };
}

const code = (id: string, text: string, extra: Partial<Criterion> = {}): Criterion => ({ id, text, kind: "code", ...extra });
const grade = (criteria: Criterion[], ev: GradingEvidence, judge?: Judge) => gradeCriteria({ criteria, evidence: ev, task: TASK, judge });

describe("skip semantics", () => {
  it("skips a criterion the seed already satisfies as already_true_in_seed", async () => {
    const [r] = await grade([code("c1", "Issue #3 in `acme/api` has the `bug` label applied")], evidence());
    expect(r).toMatchObject({
      status: "skipped",
      skipped: true,
      passed: false,
      skip_reason: "already_true_in_seed",
      check_id: "github.issue-has-label",
    });
    expect(r.reason).toMatch(/^already_true_in_seed: issue #3 has the `bug` label before the agent acted/);
  });

  it("grades an already-true criterion marked always_scored", async () => {
    const [r] = await grade([code("c1", "Issue #3 in `acme/api` has the `bug` label applied", { always_scored: true })], evidence());
    expect(r).toMatchObject({ status: "passed", passed: true, skipped: false, skip_reason: null, always_scored: true });
  });

  it("keeps an already-true criterion the agent broke out of the score but says so", async () => {
    const final = world();
    issue(final, 1).state = "closed";
    const [r] = await grade([code("c1", "Issue #1 in `acme/api` is in state open")], evidence({ final }));
    expect(r.skip_reason).toBe("already_true_in_seed");
    expect(r.reason).toContain("at the end it failed: issue #1 is closed, not open");
  });

  it("judges tape checks against an empty tape for the seed", async () => {
    const [plain, scored] = await grade(
      [code("a", "No unsupported endpoint was called"), code("b", "No unsupported endpoint was called", { always_scored: true })],
      evidence({ tape: [row()] }),
    );
    expect(plain.skip_reason).toBe("already_true_in_seed");
    expect(scored.status).toBe("passed");
  });

  it("skips a seed+final check as seed_missing without the initial state", async () => {
    const [r] = await grade(
      [code("c1", "No new labels were created in `acme/api`", { always_scored: true })],
      evidence({ initial: undefined }),
    );
    expect(r).toMatchObject({ status: "skipped", skip_reason: "seed_missing" });
  });

  it("grades a final check without the initial state, since nothing can be compared", async () => {
    const final = world();
    issue(final, 1).labels.push("bug");
    const [r] = await grade([code("c1", "Issue #1 in `acme/api` has the `bug` label applied")], evidence({ initial: undefined, final }));
    expect(r.status).toBe("passed");
  });

  it("marks a sentence that binds nothing unmatched, naming the nearest template", async () => {
    const [r] = await grade([code("c1", "the agent did a good job")], evidence());
    expect(r).toMatchObject({ status: "unmatched", passed: false, skipped: false, check_id: null });
    expect(r.reason).toMatch(/^unmatched: the sentence binds no github check; nearest: github\./);
  });

  it("skips [model] criteria as judge_unavailable when no judge is configured", async () => {
    const [r] = await grade([{ id: "m1", text: "The comment is polite", kind: "model" }], evidence());
    expect(r).toMatchObject({ status: "skipped", skip_reason: "judge_unavailable", passed: false });
  });
});

describe("routing and scoping", () => {
  it("routes a criterion to its twin, and to the first twin by default", async () => {
    const [github, stripe] = await grade(
      [code("g", "Issue #1 exists in `acme/api`", { always_scored: true }), code("s", "Issue #1 exists in `acme/api`", { twin: "stripe" })],
      evidence({ twins: ["github", "stripe"] }),
    );
    expect(github).toMatchObject({ twin: "github", status: "passed" });
    // A GitHub sentence routed to Stripe matches nothing in Stripe's vocabulary.
    expect(stripe).toMatchObject({ twin: "stripe", status: "unmatched" });
    expect(stripe.reason).toContain("stripe");
  });

  it("shows a tape check only its own twin's rows", async () => {
    const tape = [row(), row({ twin: "stripe", fidelity: "unsupported", status: 501, operation: "unsupported" })];
    const [r] = await grade(
      [code("c", "No unsupported endpoint was called", { always_scored: true })],
      evidence({ twins: ["github", "stripe"], tape }),
    );
    expect(r).toMatchObject({ status: "passed", reason: "none of the 1 GitHub calls hit an unsupported endpoint" });
  });
});

describe("the score", () => {
  const labelled = () => {
    const final = world();
    issue(final, 1).labels.push("bug");
    return final;
  };

  it("is passed over passed plus failed, skipped and unmatched leaving the denominator", async () => {
    const results = await grade(
      [
        code("pass", "Issue #1 in `acme/api` has the `bug` label applied"),
        code("fail", "Issue #1 in `acme/api` is assigned to `alice`"),
        code("fail2", "Issue #2 in `acme/api` is in state closed"),
        code("seed", "Issue #3 in `acme/api` has the `bug` label applied"),
        code("none", "Everything is fine"),
      ],
      evidence({ final: labelled() }),
    );
    expect(results.map((r) => r.status)).toEqual(["passed", "failed", "failed", "skipped", "unmatched"]);
    const score = scoreResults(results);
    expect(score.score).toBe(33);
    expect(score.all_skipped).toBe(false);
    expect(score.breakdown).toMatchObject({
      total: 5,
      evaluated: 3,
      passed: 1,
      failed: 2,
      skipped: 1,
      unmatched: 1,
      skip_reasons: { already_true_in_seed: 1 },
    });
  });

  it("is null with all_skipped when nothing was evaluated", async () => {
    const results = await grade(
      [code("seed", "Issue #3 in `acme/api` has the `bug` label applied"), code("x", "nothing binds")],
      evidence(),
    );
    expect(scoreResults(results)).toMatchObject({ score: null, all_skipped: true });
  });

  it("is 100 when every evaluated criterion passed", async () => {
    const results = await grade([code("pass", "Issue #1 in `acme/api` has the `bug` label applied")], evidence({ final: labelled() }));
    expect(scoreResults(results).score).toBe(100);
  });
});

describe("the judge in grading", () => {
  it("turns a verdict into passed or failed with the judge's reason, keeping criteria order", async () => {
    const judge: Judge = {
      model: "fake:judge",
      judge: async ({ criterion }) => ({
        ok: true,
        verdict: criterion.text.includes("polite") ? "pass" : "fail",
        reason: `read: ${criterion.text}`,
      }),
    };
    const results = await grade(
      [
        { id: "m1", text: "The comment is polite", kind: "model" },
        code("c", "Everything is fine"),
        { id: "m2", text: "It cites a SHA", kind: "model" },
      ],
      evidence(),
      judge,
    );
    expect(results.map((r) => [r.id, r.status, r.reason])).toEqual([
      ["m1", "passed", "read: The comment is polite"],
      ["c", "unmatched", expect.stringMatching(/^unmatched/)],
      ["m2", "failed", "read: It cites a SHA"],
    ]);
  });

  it("skips judge_unavailable when the judge gives no usable verdict", async () => {
    const judge: Judge = { model: "fake:judge", judge: async () => ({ ok: false, detail: "no verdict" }) };
    const [r] = await grade([{ id: "m1", text: "Polite", kind: "model" }], evidence(), judge);
    // A configured judge that fails is the grader's fault (issue 38): the run it is in is incomplete.
    expect(r).toMatchObject({
      status: "skipped",
      skip_reason: "judge_unavailable",
      reason: "judge_unavailable: the configured judge failed: no verdict",
      owner: "grader",
    });
  });
});
