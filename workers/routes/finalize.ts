// POST /v1/sandboxes/:id/finalize grades a sandbox into a run; with `Prefer: respond-async` it
// answers 202 at once and GET /v1/sandboxes/:id/evaluation polls the job.
import { Hono, type Context } from "hono";
import type { AppEnv } from "../app-env";
import { readJson } from "../body";
import type { SandboxRow } from "../db/schema";
import type { EvaluationRow } from "../db/schema-runs";
import { ApiError } from "../errors";
import { newId } from "../ids";
import { finalizeSandbox } from "../finalize/finalize";
import { FINALIZE_BODY_LIMIT, parseFinalizeBody, withTaskCriteria, type FinalizeInput } from "../finalize/finalize-input";
import { judgeFromEnv } from "../grading/judge";
import { finalizeResult, findEvaluation, findRun, restartEvaluation, runView, startEvaluation } from "../grading/runs-store";
import { apiOrigin, dashboardOrigin } from "../urls";
import { requireSandbox } from "./require-sandbox";

const prefersAsync = (header: string | undefined) => /(?:^|[\s,;])respond-async(?:$|[\s,;])/i.test(header ?? "");

async function evaluationBody(c: Context<AppEnv>, row: EvaluationRow) {
  const base = {
    evaluation_id: row.id,
    session_id: row.sessionId,
    run_id: row.runId,
    status: row.status,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
  if (row.status === "completed" && row.runId) {
    const run = await findRun(c.env, row.teamId, row.runId);
    if (run) {
      return { ...base, result: finalizeResult(runView(run, dashboardOrigin(c)), apiOrigin(c)) };
    }
  }
  if (row.status === "failed") return { ...base, error: row.error ? (JSON.parse(row.error) as unknown) : null };
  return base;
}

async function finalizeAsync(c: Context<AppEnv>, sandbox: SandboxRow, body: FinalizeInput) {
  const { row, created } = await startEvaluation(c.env, {
    id: newId("evl"),
    teamId: sandbox.teamId,
    sessionId: sandbox.id,
    now: new Date().toISOString(),
  });
  // A job already running (or done) is not started twice; a failed one is retried.
  if (created || row.status === "failed") {
    if (!created) await restartEvaluation(c.env, row.id);
    // The finalize workflow runs the job (workers/finalize/finalize-job.ts): it finishes or is
    // retried by the platform. Its instance is keyed by the evaluation; a restarted evaluation
    // gets a fresh instance, since an instance id is never reused.
    const instanceId = created ? row.id : `${row.id}-${newId("try")}`;
    await c.env.FINALIZE.create({ id: instanceId, params: { evaluationId: row.id, teamId: sandbox.teamId, sessionId: sandbox.id, body } });
  }
  const current = (await findEvaluation(c.env, sandbox.teamId, sandbox.id)) ?? row;
  c.header("location", `${apiOrigin(c)}/v1/sandboxes/${sandbox.id}/evaluation`);
  c.header("preference-applied", "respond-async");
  return c.json(await evaluationBody(c, current), 202);
}

export const finalizeRoutes = new Hono<AppEnv>()
  .post("/:id/finalize", async (c) => {
    const sandbox = await requireSandbox(c);
    const raw = withTaskCriteria(await readJson(c, FINALIZE_BODY_LIMIT), sandbox.taskMarkdown);
    const body = parseFinalizeBody(raw, sandbox.twins);
    if (prefersAsync(c.req.header("prefer"))) return finalizeAsync(c, sandbox, body);
    const run = await finalizeSandbox({ env: c.env, sandbox, body, judge: judgeFromEnv(c.env) });
    return c.json(finalizeResult(runView(run, dashboardOrigin(c)), apiOrigin(c)));
  })
  .get("/:id/evaluation", async (c) => {
    const sandbox = await requireSandbox(c);
    const row = await findEvaluation(c.env, sandbox.teamId, sandbox.id);
    if (!row) throw new ApiError("not_found", "No evaluation exists for this sandbox; finalize with Prefer: respond-async to start one");
    return c.json(await evaluationBody(c, row));
  });
