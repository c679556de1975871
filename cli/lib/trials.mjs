// Trials arithmetic, kept pure: group ids, whether a trial passed, pass rates, and the
// per-criterion flips between a baseline group and its rerun.
import { randomBytes } from "node:crypto";

/** A group id for one exam: every trial of it, and its pre-fix retries, share it. */
export const newGroupId = () => `grp_${randomBytes(8).toString("hex")}`;

export const DEFAULT_PASS_SCORE = 100;
export const DEFAULT_PASS_THRESHOLD = 100;

/** A trial passes when its score reaches passScore (default 100). A run nothing was evaluated in (score null) never passes. */
export const trialPassed = (score, passScore = DEFAULT_PASS_SCORE) => typeof score === "number" && score >= passScore;

/**
 * @param {{ score: number | null }[]} trials
 * @param {{ passThreshold?: number, passScore?: number }} config
 */
export function summarize(trials, config = {}) {
  const passScore = config.passScore ?? DEFAULT_PASS_SCORE;
  const threshold = config.passThreshold ?? DEFAULT_PASS_THRESHOLD;
  const passed = trials.filter((t) => trialPassed(t.score, passScore)).length;
  const rate = trials.length ? (100 * passed) / trials.length : 0;
  return {
    trials: trials.length,
    passed_trials: passed,
    pass_rate: Math.round(rate * 100) / 100,
    pass_threshold: threshold,
    pass_score: passScore,
    passed: trials.length > 0 && rate >= threshold,
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
