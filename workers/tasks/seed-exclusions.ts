// Which [code] criteria the seed already satisfies: finalize excludes those from the score (an
// idle agent would pass them) unless they are marked always_scored. Saying so when a task is
// stored or checked, rather than only in a report, lets its author decide before any run.
import { TWINS, isTwinId } from "../../durable-objects/twins/registry";
import type { TwinId } from "../../durable-objects/twins/registry";
import { bindSentence } from "../grading/binding";
import { gradeCheck } from "../grading/evaluate";
import { vocabularyFor } from "../grading/vocabulary";

export interface SeedExclusion {
  /** 0-based position of the criterion among those given. */
  index: number;
  text: string;
  twin: TwinId;
  check_id: string;
  /** Why the seed satisfies it, in the grader's own words. */
  reason: string;
  message: string;
}

export interface CriterionToCheck {
  kind: "code" | "model";
  text: string;
  /** The criterion's twin; a name that is no twin binds nothing and is passed over. */
  twin: string;
  alwaysScored?: boolean;
}

/** The booted world a check sees as `initial`: the normalized seed, or the twin's default world, as stored (JSON). */
function initialState(twin: TwinId, seeds: Partial<Record<TwinId, unknown>>): unknown {
  const seed = seeds[twin] ?? TWINS[twin].defaultSeed();
  return JSON.parse(JSON.stringify(seed)) as unknown;
}

export const keepScoredHint = (text: string) =>
  `mark it always_scored to keep it in the score ("- [code always_scored] ${text}" in the task, or "always_scored": true in the criterion)`;

/**
 * Grades each bound criterion on a world nobody touched (the initial state at both ends, an empty
 * tape), exactly as finalize's exclusion rule does, and lists those it would exclude.
 * `seeds` are the twins' normalized seeds; a twin without one boots its default world.
 */
export function criteriaTrueInSeed(criteria: readonly CriterionToCheck[], seeds: Partial<Record<TwinId, unknown>>): SeedExclusion[] {
  const out: SeedExclusion[] = [];
  criteria.forEach((criterion, index) => {
    const twin = criterion.twin;
    if (criterion.kind !== "code" || criterion.alwaysScored || !isTwinId(twin)) return;
    const bound = bindSentence(vocabularyFor(twin), criterion.text);
    if (!bound) return;
    const initial = initialState(twin, seeds);
    const verdict = gradeCheck(bound.check, bound.args, { initial, final: initial, tape: [] }, false);
    if (verdict.skip_reason !== "already_true_in_seed") return;
    out.push({
      index,
      text: criterion.text,
      twin,
      check_id: bound.check.id,
      reason: verdict.reason,
      message: `"${criterion.text}" is already true in the seed, so finalize will exclude it from the score; ${keepScoredHint(criterion.text)}`,
    });
  });
  return out;
}
