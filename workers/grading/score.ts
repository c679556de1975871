// Scoring: skipped and unmatched criteria leave the denominator.
import type { CriteriaBreakdown, CriterionKind, CriterionResult, Score } from "./types";

const emptyKind = () => ({ total: 0, passed: 0, failed: 0, skipped: 0, unmatched: 0 });

export function breakdownOf(results: readonly CriterionResult[]): CriteriaBreakdown {
  const b: CriteriaBreakdown = {
    total: results.length,
    evaluated: 0,
    passed: 0,
    failed: 0,
    skipped: 0,
    unmatched: 0,
    skip_reasons: {},
    by_kind: { code: emptyKind(), model: emptyKind() },
  };
  for (const r of results) {
    const kind = b.by_kind[r.kind as CriterionKind];
    kind.total++;
    b[r.status]++;
    kind[r.status]++;
    if (r.skip_reason) b.skip_reasons[r.skip_reason] = (b.skip_reasons[r.skip_reason] ?? 0) + 1;
  }
  b.evaluated = b.passed + b.failed;
  return b;
}

export function scoreResults(results: readonly CriterionResult[]): Score {
  const breakdown = breakdownOf(results);
  const all_skipped = breakdown.evaluated === 0;
  const score = all_skipped ? null : Math.round((100 * breakdown.passed) / breakdown.evaluated);
  return { score, all_skipped, breakdown };
}
