// Grading stays linear: 200 criteria over a 10,000-row tape grade well inside a request's budget.
import { describe, expect, it } from "vitest";
import { githubChecks } from "../../../durable-objects/twins/github/checks";
import { exampleSentence } from "../../../workers/grading/binding";
import { correlate } from "../../../workers/grading/correlate";
import { gradeCriteria } from "../../../workers/grading/evaluate";
import { scoreResults } from "../../../workers/grading/score";
import type { Criterion } from "../../../workers/grading/types";
import { row, world } from "./fixtures";

describe("grading at the limits", () => {
  it("grades 200 criteria over a 10,000-row tape and correlates it in well under two seconds", async () => {
    const tape = Array.from({ length: 10_000 }, (_, i) =>
      row({ seq: i + 1, at: new Date(Date.UTC(2026, 0, 1) + i * 700).toISOString(), path: `/repos/acme/api/issues/${(i % 50) + 1}` }),
    );
    const criteria: Criterion[] = Array.from({ length: 200 }, (_, i) => {
      const check = githubChecks[i % githubChecks.length];
      return { id: `c${i}`, text: exampleSentence(check), kind: "code", always_scored: i % 2 === 0 };
    });
    const started = performance.now();
    const results = await gradeCriteria({
      criteria,
      evidence: { twins: ["github"], tape, perTwin: { github: { initial: world(), final: world(), tape } } },
      task: { name: null, prompt: null, expectedBehavior: null },
      judge: undefined,
    });
    const { steps, lanes } = correlate(tape);
    const elapsed = performance.now() - started;
    expect(results).toHaveLength(200);
    expect(results.every((r) => r.status !== "unmatched")).toBe(true);
    expect(scoreResults(results).breakdown.total).toBe(200);
    expect(steps.length).toBeGreaterThan(0);
    expect(lanes).toHaveLength(1);
    expect(elapsed).toBeLessThan(2000);
  });
});
