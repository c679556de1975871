// Reliability arithmetic over a set of trials (runs of one task by one agent version): pass rate
// with a Wilson interval, pass^k, the verdict against the task's threshold, and per-criterion
// rates with a flaky flag. Plain functions over plain data, shared by the API, the dashboard, the
// CLI (loaded through Node's type stripping, so this file imports nothing at run time) and MCP.

/** The two-sided 95% normal quantile. */
export const Z95 = 1.959963984540054;

export const DEFAULT_PASS_SCORE = 100;
export const DEFAULT_PASS_THRESHOLD = 100;

export interface Interval {
  low: number;
  high: number;
}

/**
 * The Wilson score interval for `passed` successes in `n` trials. Unlike the normal
 * approximation it stays inside [0, 1] and is not zero-width at 0/n or n/n, which is where small
 * trial counts live. With no trials it is the whole of [0, 1]: nothing is known.
 */
export function wilson(passed: number, n: number, z = Z95): Interval {
  if (n <= 0) return { low: 0, high: 1 };
  const p = passed / n;
  const z2 = z * z;
  const denom = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denom;
  const half = (z / denom) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  // At 0/n and n/n the bound is exactly 0 or 1; floating point lands a hair inside it.
  return { low: passed <= 0 ? 0 : Math.max(0, centre - half), high: passed >= n ? 1 : Math.min(1, centre + half) };
}

/**
 * pass^k for k = 1…n: the probability that k independent trials all pass, estimated without bias
 * from n trials with c passes as C(c, k) / C(n, k) (drawing k of the n observed trials without
 * replacement). The naive (c/n)^k is biased upward: one lucky pass in a small sample counts k times.
 * Computed as a running product, so it never forms a large binomial coefficient.
 */
export function passHatK(n: number, c: number): number[] {
  const out: number[] = [];
  let estimate = 1;
  for (let k = 1; k <= n; k++) {
    estimate *= Math.max(0, c - (k - 1)) / (n - (k - 1));
    out.push(estimate);
  }
  return out;
}

/** log(n!) by summation; trial counts are small (at most a few hundred). */
function logFactorials(n: number): number[] {
  const out = [0];
  for (let i = 1; i <= n; i++) out.push(out[i - 1] + Math.log(i));
  return out;
}

/**
 * Fisher's exact test, two-sided, of a1/n1 against a2/n2: the probability, with both margins
 * fixed, of a table at least as unlikely as the one observed. Chosen over the two-proportion
 * z-test because trial counts are small (3–20), where the z-test's normal approximation is poor
 * and undefined at 0/n against 0/n.
 */
export function fisherExact(a1: number, n1: number, a2: number, n2: number): number {
  const total = n1 + n2;
  const successes = a1 + a2;
  if (n1 <= 0 || n2 <= 0) return 1;
  const lf = logFactorials(total);
  const logChoose = (n: number, k: number) => lf[n] - lf[k] - lf[n - k];
  const logDenominator = logChoose(total, n1);
  const prob = (x: number) => Math.exp(logChoose(successes, x) + logChoose(total - successes, n1 - x) - logDenominator);
  const observed = prob(a1);
  let p = 0;
  for (let x = Math.max(0, successes - n2); x <= Math.min(successes, n1); x++) {
    const px = prob(x);
    // The relative tolerance keeps tables exactly as likely as the observed one from being lost to rounding.
    if (px <= observed * (1 + 1e-7)) p += px;
  }
  return Math.min(1, p);
}

// ---- trials ----

export type CriterionStatus = "passed" | "failed" | "skipped" | "unmatched";

export interface TrialCriterion {
  id: string;
  text: string;
  kind: string;
  status: CriterionStatus;
}

export interface Trial {
  run_id: string;
  /** The run's score /100; null when nothing was evaluated. */
  score: number | null;
  /** The run's stored verdict (workers/grading/verdict.ts); absent for runs graded before verdicts. */
  verdict?: string | null;
  criteria: readonly TrialCriterion[];
}

export interface PassConfig {
  /** Minimum score for one trial to pass (default 100). */
  passScore?: number;
  /** Percentage of graded trials that must pass (default 100). */
  passThreshold?: number;
}

export type TrialOutcome = "passed" | "failed" | "incomplete" | "errored";
const OUTCOMES: readonly string[] = ["passed", "failed", "incomplete", "errored"];

/**
 * A trial's outcome is its run's verdict: passed, failed (the agent's doing, a crash included),
 * incomplete (not fully graded: an unbound [code] criterion, a configured judge that failed) or
 * errored (nothing graded). Incomplete and errored trials say nothing sure about the agent: both
 * are shown and counted apart, never in the fraction. A run stored before verdicts has only its
 * score: no score errored, else the pass score decides.
 */
export function trialOutcome(score: number | null, passScore = DEFAULT_PASS_SCORE, verdict?: string | null): TrialOutcome {
  if (verdict && OUTCOMES.includes(verdict)) return verdict as TrialOutcome;
  if (score === null) return "errored";
  return score >= passScore ? "passed" : "failed";
}

/** A criterion's status across several trials. */
export type StatusAcross = "passed" | "failed" | "flaky" | "excluded" | "absent";

export interface CriterionReliability {
  /** Criteria are matched across trials by their sentence: ids are positions in one task file. */
  key: string;
  id: string;
  text: string;
  kind: string;
  trials: number;
  passed: number;
  failed: number;
  /** Skipped or unmatched: out of this criterion's denominator, as in a run's score. */
  excluded: number;
  /** passed / (passed + failed); null when it was never graded. */
  pass_rate: number | null;
  interval: Interval | null;
  /** Both passed and failed across the trials. */
  flaky: boolean;
  status: StatusAcross;
}

export interface PassHatK {
  k: number;
  estimate: number;
}

export interface Reliability {
  trials: number;
  /** Trials that count: passed + failed. */
  graded: number;
  passed: number;
  failed: number;
  /** Shown, never counted in the fraction. */
  errored: number;
  errored_runs: string[];
  /** Not fully graded (an unbound criterion, a failed judge): shown apart, never counted in the fraction. */
  incomplete: number;
  incomplete_runs: string[];
  /** passed / graded; null when no trial was graded. */
  pass_rate: number | null;
  /** The 95% Wilson interval of pass_rate. */
  interval: Interval | null;
  pass_hat_k: PassHatK[];
  mean_score: number | null;
  pass_score: number;
  /** A percentage, as the task file writes it. */
  pass_threshold: number;
  /**
   * Against the threshold, over graded trials. `incomplete` when the graded trials would pass but
   * some trial was not fully graded: a set with an ungraded trial is never passed.
   */
  verdict: "passed" | "failed" | "incomplete" | "no_data";
  /** False when the threshold lies inside the interval: more trials could turn the verdict. */
  verdict_settled: boolean;
  criteria: CriterionReliability[];
}

const statusAcross = (passed: number, failed: number, excluded: number): StatusAcross => {
  if (passed && failed) return "flaky";
  if (passed) return "passed";
  if (failed) return "failed";
  return excluded ? "excluded" : "absent";
};

export function criterionReliability(trials: readonly Trial[]): CriterionReliability[] {
  const byKey = new Map<string, CriterionReliability>();
  for (const trial of trials)
    for (const c of trial.criteria) {
      let entry = byKey.get(c.text);
      if (!entry) {
        entry = {
          key: c.text,
          id: c.id,
          text: c.text,
          kind: c.kind,
          trials: 0,
          passed: 0,
          failed: 0,
          excluded: 0,
          pass_rate: null,
          interval: null,
          flaky: false,
          status: "absent",
        };
        byKey.set(c.text, entry);
      }
      entry.trials++;
      if (c.status === "passed") entry.passed++;
      else if (c.status === "failed") entry.failed++;
      else entry.excluded++;
    }
  for (const entry of byKey.values()) {
    const graded = entry.passed + entry.failed;
    entry.pass_rate = graded ? entry.passed / graded : null;
    entry.interval = graded ? wilson(entry.passed, graded) : null;
    entry.flaky = entry.passed > 0 && entry.failed > 0;
    entry.status = statusAcross(entry.passed, entry.failed, entry.excluded);
  }
  return [...byKey.values()];
}

function setVerdict(rate: number | null, threshold: number, anyIncomplete: boolean): Reliability["verdict"] {
  if (rate === null) return anyIncomplete ? "incomplete" : "no_data";
  if (rate * 100 < threshold - 1e-9) return "failed";
  return anyIncomplete ? "incomplete" : "passed";
}

export function reliability(trials: readonly Trial[], config: PassConfig = {}): Reliability {
  const passScore = config.passScore ?? DEFAULT_PASS_SCORE;
  const threshold = config.passThreshold ?? DEFAULT_PASS_THRESHOLD;
  const outcomes = trials.map((t) => trialOutcome(t.score, passScore, t.verdict));
  const passed = outcomes.filter((o) => o === "passed").length;
  const failed = outcomes.filter((o) => o === "failed").length;
  const graded = passed + failed;
  const scores = trials.map((t) => t.score).filter((s): s is number => s !== null);
  const rate = graded ? passed / graded : null;
  const interval = graded ? wilson(passed, graded) : null;
  const t = threshold / 100;
  return {
    trials: trials.length,
    graded,
    passed,
    failed,
    errored: outcomes.filter((o) => o === "errored").length,
    errored_runs: trials.filter((_, i) => outcomes[i] === "errored").map((trial) => trial.run_id),
    incomplete: outcomes.filter((o) => o === "incomplete").length,
    incomplete_runs: trials.filter((_, i) => outcomes[i] === "incomplete").map((trial) => trial.run_id),
    pass_rate: rate,
    interval,
    pass_hat_k: passHatK(graded, passed).map((estimate, i) => ({ k: i + 1, estimate })),
    mean_score: scores.length ? scores.reduce((a, b) => a + b, 0) / scores.length : null,
    pass_score: passScore,
    pass_threshold: threshold,
    verdict: setVerdict(rate, threshold, outcomes.includes("incomplete")),
    verdict_settled: interval !== null && (interval.low >= t || interval.high < t),
    criteria: criterionReliability(trials),
  };
}
