// Trials, kept pure: group ids, whether a trial passed, the outcome fields of a set of trials
// (their arithmetic is the control plane's, workers/stats/reliability.ts), and the per-criterion
// flips between a baseline group and its rerun.
import { randomBytes } from "node:crypto";

/** A group id for one exam: every trial of it, and its pre-fix retries, share it. */
export const newGroupId = () => `grp_${randomBytes(8).toString("hex")}`;

export const DEFAULT_PASS_SCORE = 100;

/** A trial passes when its score reaches passScore (default 100). A run nothing was evaluated in (score null) never passes. */
export const trialPassed = (score, passScore = DEFAULT_PASS_SCORE) => typeof score === "number" && score >= passScore;

/**
 * The outcome fields `pome run` reports, from the shared reliability of its trials
 * (workers/stats/reliability.ts): a trial with no score errored and is left out of the rate.
 * @param {import("../../workers/stats/reliability.ts").Reliability} stats
 */
export function summarize(stats) {
  return {
    trials: stats.trials,
    passed_trials: stats.passed,
    errored_trials: stats.errored,
    incomplete_trials: stats.incomplete ?? 0,
    graded_trials: stats.graded,
    pass_rate: stats.pass_rate === null ? 0 : Math.round(stats.pass_rate * 10000) / 100,
    pass_threshold: stats.pass_threshold,
    pass_score: stats.pass_score,
    passed: stats.verdict === "passed",
    /** passed | failed | incomplete | errored: the set's verdict, which `pome run`'s exit code reports. */
    verdict: stats.verdict === "no_data" ? "errored" : stats.verdict,
    reliability: stats,
  };
}

const keyOf = (result) => result.id ?? result.text;

/** One label for a criterion across several runs: its status when they agree, else "passed k/n". */
function statusAcross(statuses) {
  if (statuses.every((s) => s === statuses[0])) return statuses[0];
  return `passed ${statuses.filter((s) => s === "passed").length}/${statuses.length}`;
}

/**
 * The criteria whose status changed between two groups of runs.
 * @param {{ criteria_results: { id?: string, text: string, status: string }[] }[]} before
 * @param {{ criteria_results: { id?: string, text: string, status: string }[] }[]} after
 */
export function criterionFlips(before, after) {
  const collect = (runs) => {
    const byKey = new Map();
    for (const run of runs)
      for (const result of run.criteria_results ?? []) {
        const entry = byKey.get(keyOf(result)) ?? { id: result.id ?? null, text: result.text, statuses: [] };
        entry.statuses.push(result.status);
        byKey.set(keyOf(result), entry);
      }
    return byKey;
  };
  const was = collect(before);
  const now = collect(after);
  const flips = [];
  for (const [key, entry] of now) {
    const from = was.has(key) ? statusAcross(was.get(key).statuses) : "absent";
    const to = statusAcross(entry.statuses);
    flips.push({ id: entry.id, text: entry.text, before: from, after: to, changed: from !== to });
  }
  return flips;
}
