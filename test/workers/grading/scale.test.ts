// Grading at the limits: 200 criteria over a 10,000-row tape all bind, grade and correlate. How
// long that takes is the bench's finalize figure (bench/sections/finalize.mjs), not a timed test.
import { describe, expect, it } from "vitest";
import { githubChecks } from "../../../durable-objects/twins/github/checks";
import { exampleSentence } from "../../../workers/grading/binding";
import { correlate } from "../../../workers/grading/correlate";
import { gradeCriteria } from "../../../workers/grading/evaluate";
import { scoreResults } from "../../../workers/grading/score";
import type { Criterion } from "../../../workers/grading/types";
import { row, world } from "./fixtures";

describe("grading at the limits", () => {
  it("grades 200 criteria over a 10,000-row tape and correlates it", async () => {
    const tape = Array.from({ length: 10_000 }, (_, i) =>
      row({ seq: i + 1, at: new Date(Date.UTC(2026, 0, 1) + i * 700).toISOString(), path: `/repos/acme/api/issues/${(i % 50) + 1}` }),
    );
    const criteria: Criterion[] = Array.from({ length: 200 }, (_, i) => {
      const check = githubChecks[i % githubChecks.length];
      return { id: `c${i}`, text: exampleSentence(check), kind: "code", always_scored: i % 2 === 0 };
    });
    const results = await gradeCriteria({
      criteria,
      evidence: { twins: ["github"], tape, perTwin: { github: { initial: world(), final: world(), tape } } },
      task: { name: null, prompt: null, expectedBehavior: null },
      judge: undefined,
    });
    const { steps, lanes } = correlate(tape);
    expect(results).toHaveLength(200);
    expect(results.every((r) => r.status !== "unmatched")).toBe(true);
    expect(scoreResults(results).breakdown.total).toBe(200);
    expect(steps.length).toBeGreaterThan(0);
    expect(lanes).toHaveLength(1);
  });
});
