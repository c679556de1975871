// The narrator: a run's summary and its fix prompt, written from the verdicts and the correlated
// tape. Deterministic prose, so the same run always reads the same way.
import type { Lane, Step } from "./correlate";
import type { CriterionResult, Score } from "./types";
import { ownerOf, type Verdict } from "./verdict";

export interface NarrateInput {
  taskName: string | null;
  score: Score;
  results: readonly CriterionResult[];
  steps: readonly Step[];
  lanes: readonly Lane[];
  stopReason: string;
  exitCode: number;
  durationMs: number;
  /** The run's verdict; the summary opens with it. */
  verdict?: Verdict;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** "2 excluded (1 already true in the seed, 1 unmatched)" — or "none excluded". */
export function exclusionPhrase(score: Score): string {
  const b = score.breakdown;
  const excluded = b.skipped + b.unmatched;
  if (!excluded) return "none excluded";
  const parts = Object.entries(b.skip_reasons).map(
    ([reason, n]) => `${n} ${reason === "already_true_in_seed" ? "already true in the seed" : reason.replace(/_/g, " ")}`,
  );
  if (b.unmatched) parts.push(`${b.unmatched} unmatched`);
  return `${excluded} excluded (${parts.join(", ")})`;
}

export function scoreLine(score: Score): string {
  const b = score.breakdown;
  const head = score.score === null ? "**Score: —/100** (nothing was evaluated)" : `**Score: ${score.score}/100**`;
  return `${head} — ${b.passed} of ${b.evaluated} evaluated criteria passed; ${exclusionPhrase(score)}`;
}

function activity(input: NarrateInput): string {
  const calls = input.steps.reduce((n, s) => n + s.calls, 0);
  if (!calls) return "The agent made no calls to the twins.";
  const mutated = input.steps.reduce((n, s) => n + s.mutated, 0);
  const unsupported = input.steps.reduce((n, s) => n + s.unsupported, 0);
  const twins = [...new Set(input.lanes.map((l) => l.twin))].join(", ");
  const extra = unsupported ? `; ${plural(unsupported, "call")} hit an unsupported endpoint` : "";
  return `The agent made ${plural(calls, "call")} to ${twins} over ${plural(input.steps.length, "step")}, ${mutated} of which changed state${extra}.`;
}

export function summarize(input: NarrateInput): string {
  const b = input.score.breakdown;
  const verdict =
    input.score.score === null
      ? `No criterion was evaluated (${exclusionPhrase(input.score)}), so the run has no score.`
      : `Scored ${input.score.score}/100: ${b.passed} of ${b.evaluated} evaluated criteria passed${b.failed ? `, ${b.failed} failed` : ""}; ${exclusionPhrase(input.score)}.`;
  const stop = `It stopped with "${input.stopReason}" (exit ${input.exitCode}) after ${(input.durationMs / 1000).toFixed(1)} s.`;
  const head = input.verdict ? `Verdict: ${input.verdict.verdict} (${input.verdict.reason}). ` : "";
  return `${head}${verdict} ${activity(input)} ${stop}`;
}

/**
 * What to tell the agent's author: the failed criteria with their evidence, and calls the twins
 * could not serve. Null when nothing failed and nothing was unsupported.
 */
export function fixPrompt(input: NarrateInput): string | null {
  // Only what the agent owns goes to the agent's author: a criterion the task got wrong is the
  // task's to fix, and the report says so apart.
  const failed = input.results.filter((r) => r.status === "failed" && ownerOf(r) === "agent");
  const unsupported = input.lanes.filter((l) => l.unsupported > 0);
  const crash = input.verdict?.verdict === "failed" && input.verdict.owner === "agent" && /examinee/.test(input.verdict.reason);
  if (!failed.length && !unsupported.length && !crash) return null;
  const name = input.taskName ? `"${input.taskName}"` : "this task";
  const lines = [
    `The agent's last run of ${name} ${input.score.score === null ? "was not scored" : `scored ${input.score.score}/100`}. Change the agent (its prompt or tools), not the task, so that it:`,
  ];
  if (crash && input.verdict) lines.push(`First, make it run to completion: ${input.verdict.reason}.`);
  failed.forEach((r, i) => lines.push(`${i + 1}. meets "${r.text}" (${r.kind}) — it failed because ${r.reason}.`));
  if (unsupported.length) {
    const calls = unsupported.map((l) => `${l.key.replace(`${l.twin} `, "")} on ${l.twin} (${plural(l.unsupported, "call")})`).join("; ");
    lines.push(`Avoid endpoints the twins do not implement, which answered 501: ${calls}. Use a supported call for the same job.`);
  }
  return lines.join("\n");
}
