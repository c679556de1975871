// The fix-loop delta: a baseline run-set against its rerun. Per criterion, whether it flipped;
// overall and per criterion, whether the change in pass rate is larger than the noise two samples
// of this size allow (Fisher's exact test, two-sided, at alpha 0.05). Plain functions.
import type { CriterionReliability, Interval, Reliability, StatusAcross } from "./reliability";
import { fisherExact } from "./reliability";

export const ALPHA = 0.05;

export interface NoiseTest {
  method: "fisher_exact_two_sided";
  p_value: number;
  alpha: number;
  /** p_value < alpha: the change is larger than these sample sizes' noise. */
  significant: boolean;
}

/**
 * `failed→passed`: it failed in at least one graded baseline trial and passed in every graded
 * rerun trial. `passed→failed`: the reverse. Anything else (still flaky, newly excluded) is not a
 * flip; `changed` still says whether the status across trials moved.
 */
export type Flip = "failed→passed" | "passed→failed" | null;

export interface CriterionDelta {
  key: string;
  id: string;
  text: string;
  before: { status: StatusAcross; passed: number; failed: number; pass_rate: number | null };
  after: { status: StatusAcross; passed: number; failed: number; pass_rate: number | null };
  flip: Flip;
  changed: boolean;
  test: NoiseTest | null;
}

export interface Comparison {
  pass_rate_change: number | null;
  test: NoiseTest | null;
  /** Whether the two 95% Wilson intervals overlap; shown beside the test, not used for it. */
  intervals_overlap: boolean | null;
  criteria: CriterionDelta[];
  fixed: number;
  broken: number;
}

export function noiseTest(a1: number, n1: number, a2: number, n2: number): NoiseTest | null {
  if (!n1 || !n2) return null;
  const p = fisherExact(a1, n1, a2, n2);
  return { method: "fisher_exact_two_sided", p_value: p, alpha: ALPHA, significant: p < ALPHA };
}

const side = (c: CriterionReliability | undefined) =>
  c
    ? { status: c.status, passed: c.passed, failed: c.failed, pass_rate: c.pass_rate }
    : { status: "absent" as const, passed: 0, failed: 0, pass_rate: null };

const hadFailure = (s: StatusAcross) => s === "failed" || s === "flaky";

export function flipOf(before: StatusAcross, after: StatusAcross): Flip {
  if (hadFailure(before) && after === "passed") return "failed→passed";
  if (before === "passed" && hadFailure(after)) return "passed→failed";
  return null;
}

const overlap = (a: Interval | null, b: Interval | null) => (a && b ? a.low <= b.high && b.low <= a.high : null);

export function compareReliability(baseline: Reliability, rerun: Reliability): Comparison {
  const was = new Map(baseline.criteria.map((c) => [c.key, c]));
  const now = new Map(rerun.criteria.map((c) => [c.key, c]));
  const keys = [...now.keys(), ...[...was.keys()].filter((k) => !now.has(k))];
  const criteria = keys.map((key): CriterionDelta => {
    const b = was.get(key);
    const a = now.get(key);
    const before = side(b);
    const after = side(a);
    const named = a ?? b;
    return {
      key,
      id: named?.id ?? key,
      text: named?.text ?? key,
      before,
      after,
      flip: flipOf(before.status, after.status),
      changed: before.status !== after.status,
      test: noiseTest(before.passed, before.passed + before.failed, after.passed, after.passed + after.failed),
    };
  });
  return {
    pass_rate_change: baseline.pass_rate === null || rerun.pass_rate === null ? null : rerun.pass_rate - baseline.pass_rate,
    test: noiseTest(baseline.passed, baseline.graded, rerun.passed, rerun.graded),
    intervals_overlap: overlap(baseline.interval, rerun.interval),
    criteria,
    fixed: criteria.filter((c) => c.flip === "failed→passed").length,
    broken: criteria.filter((c) => c.flip === "passed→failed").length,
  };
}
