// An asynchronous finalize (`Prefer: respond-async`) as a Cloudflare Workflow keyed by the
// evaluation id. The platform keeps the job and its retries: it finishes, or is retried with
// backoff, even if the request that asked for it, or the isolate that answered it, is long gone
// (a waitUntil would not be). It runs beside the Sandbox, never inside it: the Sandbox keeps the
// worlds, the tape and its two timers, and is only called (describe, freeze, export, close) like
// any other caller would.
import { WorkflowEntrypoint, type WorkflowEvent, type WorkflowStep } from "cloudflare:workers";
import { NonRetryableError } from "cloudflare:workflows";
import { ApiError } from "../errors";
import { findSandbox } from "../sandbox-index";
import { finalizeSandbox } from "./finalize";
import type { FinalizeInput } from "./finalize-input";
import { judgeFromEnv } from "../grading/judge";
import { settleEvaluation } from "../grading/runs-store";

export interface FinalizeJob {
  evaluationId: string;
  teamId: string;
  sessionId: string;
  body: FinalizeInput;
}

/** How many times the grading step runs before the evaluation is settled as failed. */
export const FINALIZE_JOB_ATTEMPTS = 5;

/** The grading step's retries: 2, 4, 8, 16 seconds apart, as the Sandbox's alarm used to space them. */
const GRADING = { retries: { limit: FINALIZE_JOB_ATTEMPTS - 1, delay: "2 seconds", backoff: "exponential" } } as const;

/** An error as an evaluation stores it: what the client would have seen, never an internal cause. */
export function publicError(err: unknown) {
  if (err instanceof ApiError) return { type: err.type, message: err.message, details: err.details };
  console.error("evaluation failed", err);
  return { type: "internal_error", message: "The evaluation failed on our side; finalize again to retry", details: {} };
}

/** Whether a failure is worth another attempt: an outage or a bug may pass, a refusal will not. */
const retryable = (err: unknown) => !(err instanceof ApiError) || err.type === "downstream_unavailable";

/**
 * Grades the sandbox (a step the platform retries), then settles the evaluation with the run or
 * with the refusal the client must act on. Each step is idempotent: a finalize that failed
 * anywhere left the sandbox open and finalizable, and settling writes the same row again.
 */
export class FinalizeWorkflow extends WorkflowEntrypoint<Env, FinalizeJob> {
  override async run(event: Readonly<WorkflowEvent<FinalizeJob>>, step: WorkflowStep): Promise<{ runId: string } | { error: string }> {
    const job = event.payload;
    let outcome: { runId: string } | { error: ReturnType<typeof publicError> };
    try {
      outcome = await step.do("grade", GRADING, async () => ({ runId: await this.grade(job) }));
    } catch (err) {
      // A refusal, or the last attempt's failure: grade() threw its public error as JSON text.
      outcome = { error: errorFromStep(err) };
    }
    await step.do("settle", async () => {
      await settleEvaluation(this.env, job.evaluationId, outcome);
    });
    return "runId" in outcome ? { runId: outcome.runId } : { error: outcome.error.type };
  }

  private async grade(job: FinalizeJob): Promise<string> {
    try {
      const sandbox = await findSandbox(this.env, job.teamId, job.sessionId);
      if (!sandbox) throw new ApiError("not_found", "Sandbox not found");
      const run = await finalizeSandbox({ env: this.env, sandbox, body: job.body, judge: judgeFromEnv(this.env) });
      return run.id;
    } catch (err) {
      // A step's error crosses into the workflow engine by its message alone: carry the public
      // error the evaluation would settle with, as JSON.
      const settled = JSON.stringify(publicError(err));
      if (!retryable(err)) throw new NonRetryableError(settled, "FinalizeRefused");
      console.error("finalize step failed; the workflow retries it", job.sessionId, err);
      throw new Error(settled);
    }
  }
}

/** The public error a failed grading step stands for. */
function errorFromStep(err: unknown): ReturnType<typeof publicError> {
  const message = err instanceof Error ? err.message : String(err);
  try {
    const parsed = JSON.parse(message) as { type?: unknown; message?: unknown; details?: unknown };
    if (typeof parsed.type === "string" && typeof parsed.message === "string") {
      return { type: parsed.type, message: parsed.message, details: (parsed.details ?? {}) as Record<string, unknown> };
    }
  } catch {
    // Not one of ours (the engine's own failure, a step timeout): said as our side's failure.
  }
  return publicError(err);
}
