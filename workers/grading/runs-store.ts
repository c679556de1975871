// Runs and evaluations in D1. Every read is scoped to the caller's team: another team's run is
// indistinguishable from one that does not exist.
import { and, desc, eq } from "drizzle-orm";
import type { TwinId } from "../../durable-objects/twins/registry";
import { database } from "../db/client";
import { evaluations, runs, type EvaluationRow, type NewRunRow, type RunRow } from "../db/schema-runs";
import type { Lane, Step } from "./correlate";
import type { RunView } from "./run-view";
import type { CriteriaBreakdown, CriterionResult } from "./types";
import { ownerOf, storedVerdict } from "./verdict";

/** Inserts the run unless the sandbox already has one; returns the sandbox's run either way. */
export async function insertRun(env: Env, row: NewRunRow): Promise<RunRow> {
  await database(env).insert(runs).values(row).onConflictDoNothing({ target: runs.sessionId });
  const stored = await findRunBySession(env, row.teamId, row.sessionId);
  if (!stored) throw new Error(`run for ${row.sessionId} vanished after insert`);
  return stored;
}

export async function findRunBySession(env: Env, teamId: string, sessionId: string): Promise<RunRow | undefined> {
  const rows = await database(env)
    .select()
    .from(runs)
    .where(and(eq(runs.teamId, teamId), eq(runs.sessionId, sessionId)))
    .limit(1);
  return rows[0];
}

export async function findRun(env: Env, teamId: string, id: string): Promise<RunRow | undefined> {
  const rows = await database(env)
    .select()
    .from(runs)
    .where(and(eq(runs.teamId, teamId), eq(runs.id, id)))
    .limit(1);
  return rows[0];
}

export async function listRuns(env: Env, teamId: string, opts: { groupId?: string; taskName?: string; limit: number }) {
  const filters = [eq(runs.teamId, teamId)];
  if (opts.groupId !== undefined) filters.push(eq(runs.groupId, opts.groupId));
  if (opts.taskName !== undefined) filters.push(eq(runs.taskName, opts.taskName));
  return database(env)
    .select({
      id: runs.id,
      session_id: runs.sessionId,
      task_name: runs.taskName,
      task_hash: runs.taskHash,
      satisfaction_score: runs.satisfactionScore,
      verdict: runs.verdict,
      group_id: runs.groupId,
      environment: runs.environment,
      agent_model: runs.agentModel,
      agent_version: runs.agentVersion,
      created_at: runs.createdAt,
      finished_at: runs.finishedAt,
    })
    .from(runs)
    .where(and(...filters))
    .orderBy(desc(runs.createdAt), desc(runs.id))
    .limit(opts.limit);
}

const json = <T>(text: string): T => JSON.parse(text) as T;

export const dashboardUrl = (origin: string, runId: string) => `${origin}/app/runs/${runId}`;

/** `dashboardOrigin` is where run pages are served (the DASHBOARD_ORIGIN setting, or the request's). */
export function runView(row: RunRow, dashboardOrigin: string): RunView {
  // Rows written before owners existed get them read from their status, the same rule.
  const results = json<CriterionResult[]>(row.criteriaResults).map((r) => ({ ...r, owner: ownerOf(r) }));
  const verdict = storedVerdict({
    verdict: row.verdict,
    verdict_reason: row.verdictReason,
    criteria_results: results,
    score: row.satisfactionScore,
    stop_reason: row.stopReason,
    exit_code: row.exitCode,
    exit_signal: row.exitSignal,
  });
  return {
    id: row.id,
    session_id: row.sessionId,
    task_name: row.taskName,
    task_hash: row.taskHash,
    satisfaction_score: row.satisfactionScore,
    score: row.satisfactionScore,
    all_skipped: row.allSkipped,
    verdict: verdict.verdict,
    verdict_reason: verdict.reason,
    criteria_results: results,
    criteria_breakdown: json<CriteriaBreakdown>(row.criteriaBreakdown),
    group_id: row.groupId,
    baseline_group_id: row.baselineGroupId,
    environment: row.environment,
    twins: row.twins,
    agent_model: row.agentModel,
    agent_sdk: row.agentSdk,
    agent_version: row.agentVersion,
    judge_model: row.judgeModel,
    stop_reason: row.stopReason,
    exit_code: row.exitCode,
    exit_signal: row.exitSignal,
    stderr_tail: row.stderrTail,
    regraded_from: row.regradedFrom,
    flipped: row.flipped ? json<NonNullable<RunView["flipped"]>>(row.flipped) : null,
    duration_ms: row.durationMs,
    provenance: "hosted",
    source: row.source as RunView["source"],
    tape_length: row.tapeLength,
    steps: json<Step[]>(row.steps),
    lanes: json<Lane[]>(row.lanes),
    summary: row.summary,
    fix_prompt: row.fixPrompt,
    scenario_prompt: row.scenarioPrompt,
    expected_behavior: row.expectedBehavior,
    trace_s3_key: row.traceS3Key,
    state_s3_key: row.stateS3Key,
    events_jsonl_url: row.traceS3Key,
    state_keys: json<Partial<Record<TwinId, string>>>(row.stateKeys),
    state_initial_keys: json<Partial<Record<TwinId, string>>>(row.stateInitialKeys),
    dashboard_url: dashboardUrl(dashboardOrigin, row.id),
    created_at: row.createdAt,
    finished_at: row.finishedAt,
  };
}

/** What finalize answers (and what a completed evaluation carries as `result`). */
/** `apiOrigin` is the control plane's origin, which serves report_url. */
export function finalizeResult(view: RunView, apiOrigin: string) {
  return {
    run_id: view.id,
    session_id: view.session_id,
    score: view.satisfaction_score,
    satisfaction_score: view.satisfaction_score,
    verdict: view.verdict,
    verdict_reason: view.verdict_reason,
    criteria_results: view.criteria_results,
    criteria_breakdown: view.criteria_breakdown,
    all_skipped: view.all_skipped,
    judge_model: view.judge_model,
    provenance: view.provenance,
    summary: view.summary,
    fix_prompt: view.fix_prompt,
    dashboard_url: view.dashboard_url,
    report_url: `${apiOrigin}/v1/runs/${view.id}/report.md`,
  };
}

// ---- evaluations (asynchronous finalize) ----

/** Starts an evaluation for the sandbox, or returns the one already started. */
export async function startEvaluation(
  env: Env,
  row: { id: string; teamId: string; sessionId: string; now: string },
): Promise<{ row: EvaluationRow; created: boolean }> {
  const inserted = await database(env)
    .insert(evaluations)
    .values({ id: row.id, teamId: row.teamId, sessionId: row.sessionId, status: "running", createdAt: row.now, updatedAt: row.now })
    .onConflictDoNothing({ target: evaluations.sessionId })
    .returning();
  if (inserted[0]) return { row: inserted[0], created: true };
  const existing = await findEvaluation(env, row.teamId, row.sessionId);
  if (!existing) throw new Error(`evaluation for ${row.sessionId} vanished`);
  return { row: existing, created: false };
}

export async function findEvaluation(env: Env, teamId: string, sessionId: string): Promise<EvaluationRow | undefined> {
  const rows = await database(env)
    .select()
    .from(evaluations)
    .where(and(eq(evaluations.teamId, teamId), eq(evaluations.sessionId, sessionId)))
    .limit(1);
  return rows[0];
}

export async function settleEvaluation(env: Env, id: string, outcome: { runId: string } | { error: unknown }) {
  const now = new Date().toISOString();
  const set =
    "runId" in outcome
      ? { status: "completed", runId: outcome.runId, error: null, updatedAt: now }
      : { status: "failed", error: JSON.stringify(outcome.error), updatedAt: now };
  await database(env).update(evaluations).set(set).where(eq(evaluations.id, id));
}

/** A failed evaluation may be retried by finalizing again. */
export async function restartEvaluation(env: Env, id: string) {
  await database(env)
    .update(evaluations)
    .set({ status: "running", error: null, updatedAt: new Date().toISOString() })
    .where(eq(evaluations.id, id));
}
