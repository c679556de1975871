// An asynchronous finalize (`Prefer: respond-async`) as a job the Sandbox's alarm runs: stored in
// the sandbox's own storage with a named timer, so it finishes or is retried even if the request
// that asked for it, or the isolate that answered it, is long gone (a waitUntil would not be).
import { ApiError } from "../errors";
import { findSandbox } from "../sandbox-index";
import { finalizeSandbox } from "./finalize";
import type { FinalizeInput } from "./finalize-input";
import { judgeFromEnv } from "./judge";
import { settleEvaluation } from "./runs-store";

export interface FinalizeJob {
  evaluationId: string;
  teamId: string;
  sessionId: string;
  body: FinalizeInput;
  attempts: number;
}

/** How many times an unexpected failure is retried before the evaluation is settled as failed. */
export const FINALIZE_JOB_ATTEMPTS = 5;

/** Seconds before the next attempt: 2, 4, 8, 16… */
export const retryDelayMs = (attempts: number) => 1000 * 2 ** Math.min(attempts, 6);

/** An error as an evaluation stores it: what the client would have seen, never an internal cause. */
export function publicError(err: unknown) {
  if (err instanceof ApiError) return { type: err.type, message: err.message, details: err.details };
  console.error("evaluation failed", err);
  return { type: "internal_error", message: "The evaluation failed on our side; finalize again to retry", details: {} };
}

/**
 * Runs the job once. "done" when the evaluation is settled (a run, or a refusal the client must
 * act on); "retry" when an unexpected failure should be tried again later.
 */
export async function runFinalizeJob(env: Env, job: FinalizeJob): Promise<"done" | "retry"> {
  try {
    const sandbox = await findSandbox(env, job.teamId, job.sessionId);
    if (!sandbox) throw new ApiError("not_found", "Sandbox not found");
    const run = await finalizeSandbox({ env, sandbox, body: job.body, judge: judgeFromEnv(env) });
    await settleEvaluation(env, job.evaluationId, { runId: run.id });
    return "done";
  } catch (err) {
    // Expected refusals (and downstream outages past the last attempt) settle the evaluation.
    const retryable = !(err instanceof ApiError) || err.type === "downstream_unavailable";
    if (retryable && job.attempts + 1 < FINALIZE_JOB_ATTEMPTS) {
      console.error("finalize job failed; retrying", job.sessionId, err);
      return "retry";
    }
    await settleEvaluation(env, job.evaluationId, { error: publicError(err) });
    return "done";
  }
}
