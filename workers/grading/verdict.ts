// A run's verdict, and who owns each criterion that did not pass (DESIGN.md §7, issue 38).
// A score alone cannot say whether the agent, the task or the grader failed: a typo in a [code]
// criterion and an unreachable judge both used to leave a run "passed" on what was left.
//
//   passed      every criterion that could be graded was, and the score reached the pass score
//   failed      the agent's doing: a criterion failed, the score fell short, or the examinee
//               crashed or timed out
//   incomplete  the run was not fully graded: a [code] criterion bound no check, one failed over a
//               subject the seed lacks (a repository, a user the agent could not create), or a
//               configured judge failed. Never passed, whatever the score of the rest.
//   errored     nothing could be graded at all, or the examinee never started
//
// Plain functions over plain data: the server, the dashboard and the CLI (through Node's type
// stripping) share them, so `pome grade` offline says what the server says.
import type { CriterionResult, Owner } from "./types";

export type { Owner };
export type RunVerdict = "passed" | "failed" | "incomplete" | "errored";
export const RUN_VERDICTS: readonly RunVerdict[] = ["passed", "failed", "incomplete", "errored"];

/** The detail the evaluator writes when no judge is configured: excluded by choice, not a failure. */
export const NO_JUDGE_DETAIL = "no judge is configured (JUDGE_PROVIDER is empty); [model] criteria are excluded by configuration";

type Graded = Pick<CriterionResult, "status" | "skip_reason" | "reason" | "kind"> & { owner?: Owner | null };

/** Whether a skipped [model] criterion was left out because no judge is configured (a choice, not a fault). */
export const excludedByConfiguration = (r: Graded) =>
  r.status === "skipped" && r.skip_reason === "judge_unavailable" && r.reason.includes("no judge is configured");

/**
 * Who owns a criterion that did not pass; null for one that passed.
 *   failed                 the agent
 *   unmatched              the task (its sentence binds no check)
 *   already_true_in_seed   the task (the criterion cannot tell a working agent from an idle one)
 *   subject_redacted       the task (it looks for a secret the evidence never holds)
 *   field_absent           the grader (evidence it could not read)
 *   judge_unavailable      the grader when a judge is configured and failed; the platform's
 *                          configuration when none is (excluded by configuration)
 *   seed_missing           the platform (the seed the sandbox booted with was not recovered)
 * Rows stored before owners existed are read the same way.
 */
export function ownerOf(r: Graded): Owner | null {
  if (r.owner !== undefined) return r.owner;
  if (r.status === "passed") return null;
  if (r.status === "failed") return "agent";
  if (r.status === "unmatched") return "task";
  switch (r.skip_reason) {
    case "already_true_in_seed":
    case "subject_redacted":
      return "task";
    case "field_absent":
      return "grader";
    case "judge_unavailable":
      return excludedByConfiguration(r) ? "platform" : "grader";
    default:
      return "platform";
  }
}

/** How the examinee ended, as finalize was told. */
export interface ExamineeEnd {
  stop_reason: string;
  exit_code: number;
  /** The signal that ended it (SIGKILL, …), when one did. */
  exit_signal?: string | null;
  /** False when the examinee never started: nothing it did can be graded. */
  started?: boolean;
}

/** The examinee crashed or was stopped for running too long: the agent's failure, named. */
export function examineeFault(end: ExamineeEnd): string | null {
  if (/^timeout\b/i.test(end.stop_reason) || /timed out/i.test(end.stop_reason)) return `the examinee timed out (${end.stop_reason})`;
  if (/^interrupted\b/i.test(end.stop_reason)) return null;
  if (end.exit_signal) return `the examinee was killed by ${end.exit_signal} (exit code ${end.exit_code})`;
  if (end.exit_code !== 0) return `the examinee crashed: exit code ${end.exit_code} (${end.stop_reason})`;
  return null;
}

export interface Verdict {
  verdict: RunVerdict;
  /** One sentence: why this verdict, naming the criteria or the crash behind it. */
  reason: string;
  /** Who the verdict is on: the agent for failed, the task, grader or platform otherwise; null when passed. */
  owner: Owner | null;
  /** [model] criteria left out because no judge is configured: said, never hidden. */
  excluded_by_configuration: number;
}

const ids = (rows: readonly { id: string }[]) => rows.map((r) => `\`${r.id}\``).join(", ");

export interface VerdictInput {
  results: readonly (Graded & { id: string })[];
  /** Score needed for a pass (the task's passScore, default 100). */
  passScore?: number;
  score: number | null;
  examinee: ExamineeEnd;
}

export function runVerdict(input: VerdictInput): Verdict {
  const { results, examinee } = input;
  const passScore = input.passScore ?? 100;
  const excluded = results.filter(excludedByConfiguration).length;
  const note = excluded
    ? `; ${excluded} [model] criteri${excluded === 1 ? "on" : "a"} excluded by configuration (no judge configured)`
    : "";
  const make = (verdict: RunVerdict, reason: string, owner: Owner | null): Verdict => ({
    verdict,
    reason: `${reason}${note}`,
    owner,
    excluded_by_configuration: excluded,
  });
  if (examinee.started === false) return make("errored", "the examinee never started; there is nothing to grade", "platform");
  const fault = examineeFault(examinee);
  if (fault) return make("failed", fault, "agent");
  const unbound = results.filter((r) => r.status === "unmatched" && r.kind === "code");
  const judgeFailed = results.filter((r) => r.skip_reason === "judge_unavailable" && ownerOf(r) === "grader");
  const graded = results.filter((r) => r.status === "passed" || r.status === "failed");
  if (!graded.length) {
    const blame = results.map(ownerOf).find((o) => o && o !== "agent") ?? "platform";
    const why = results.length ? "no criterion could be graded" : "the run has no criteria";
    return make("errored", `${why}${unbound.length ? ` (${ids(unbound)} bound no check)` : ""}`, blame);
  }
  // A failure over a subject the seed lacks says nothing about the agent either.
  const taskFailed = results.filter((r) => r.status === "failed" && ownerOf(r) === "task");
  if (unbound.length || judgeFailed.length || taskFailed.length) {
    const parts = [
      unbound.length ? `${ids(unbound)} bound no check (the task's fault)` : "",
      taskFailed.length ? `${ids(taskFailed)} name a subject the seed does not have (the task's fault)` : "",
      judgeFailed.length ? `the configured judge failed on ${ids(judgeFailed)} (the grader's fault)` : "",
    ].filter(Boolean);
    return make("incomplete", `not fully graded: ${parts.join("; ")}`, unbound.length || taskFailed.length ? "task" : "grader");
  }
  const failed = results.filter((r) => r.status === "failed");
  const score = input.score ?? 0;
  // A score rounds (199 of 200 is 100): at the default pass score of 100, any failure fails.
  if (score >= passScore && (passScore < 100 || !failed.length)) return make("passed", `score ${score} reached ${passScore}`, null);
  return make("failed", `score ${score} is below ${passScore}${failed.length ? `: ${ids(failed)} failed` : ""}`, "agent");
}

/** A stored run's verdict, recomputed for rows written before verdicts were stored. */
export function storedVerdict(run: {
  verdict?: string | null;
  verdict_reason?: string | null;
  criteria_results: VerdictInput["results"];
  score: number | null;
  stop_reason: string;
  exit_code: number;
  exit_signal?: string | null;
}): Pick<Verdict, "verdict" | "reason"> {
  if (run.verdict && (RUN_VERDICTS as readonly string[]).includes(run.verdict))
    return { verdict: run.verdict as RunVerdict, reason: run.verdict_reason ?? "" };
  return runVerdict({
    results: run.criteria_results,
    score: run.score,
    examinee: { stop_reason: run.stop_reason, exit_code: run.exit_code, exit_signal: run.exit_signal },
  });
}
