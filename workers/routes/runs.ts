// /v1/runs: list, read, report.md, and signed downloads of a run's tape and states.
import { Hono, type Context } from "hono";
import { z } from "zod";
import type { TwinId } from "../../durable-objects/twins/registry";
import type { AppEnv } from "../app-env";
import { signBlobUrl } from "../blobs/sign";
import { MiB, parseWith, readJson } from "../body";
import type { RunRow } from "../db/schema-runs";
import { ApiError, notFound } from "../errors";
import { judgeFromEnv } from "../grading/judge";
import { RegradeBody, regradeRun } from "../finalize/regrade";
import { renderReport } from "../grading/report";
import { findRun, finalizeResult, listRuns, runView } from "../grading/runs-store";
import { findSandbox } from "../sandbox-index";
import { apiOrigin, dashboardOrigin } from "../urls";
import { fromStorage } from "../blobs/storage";

const ListQuery = z.object({
  group_id: z.string().min(1).max(64).optional(),
  task_name: z.string().min(1).max(200).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

async function requireRun(c: Context<AppEnv>): Promise<RunRow> {
  const run = await findRun(c.env, c.get("caller").team.id, c.req.param("id") ?? "");
  // Another team's run is indistinguishable from one that does not exist.
  if (!run) throw notFound("Run");
  return run;
}

async function blobExists(bucket: R2Bucket, key: string | null): Promise<boolean> {
  if (!key) return false;
  return (await fromStorage(() => bucket.head(key))) !== null;
}

const blobAbsent = (blob: string) =>
  new ApiError("not_found", `This run's ${blob} blob is not retrievable`, { reason: "blob_absent", blob });

async function signedDownload(c: Context<AppEnv>, key: string) {
  const signed = await signBlobUrl({ secret: c.get("settings").tokenSecret, origin: apiOrigin(c), key, op: "get" });
  return { key, url: signed.url, expires_in: signed.expiresIn, expires_at: new Date(signed.expires * 1000).toISOString() };
}

export const runRoutes = new Hono<AppEnv>()
  .get("/", async (c) => {
    const query = parseWith(ListQuery, c.req.query());
    const rows = await listRuns(c.env, c.get("caller").team.id, { groupId: query.group_id, taskName: query.task_name, limit: query.limit });
    return c.json(rows);
  })
  .get("/:id", async (c) => c.json(runView(await requireRun(c), dashboardOrigin(c))))
  // Grade a stored run again from its evidence (after a task or a check was fixed): a new run,
  // linked to this one, with the criteria that flipped. The old run is left as it was.
  .post("/:id/regrade", async (c) => {
    const run = await requireRun(c);
    // An empty body re-grades the run's own criteria; a body carries fixed criteria or a fixed task.
    const empty = c.req.raw.body === null || c.req.header("content-length") === "0";
    const body = parseWith(RegradeBody, empty ? {} : await readJson(c, 6 * MiB));
    const sandbox = await findSandbox(c.env, run.teamId, run.sessionId);
    const regraded = await regradeRun(c.env, run, body, judgeFromEnv(c.env), sandbox?.taskMarkdown ?? null);
    const view = runView(regraded, dashboardOrigin(c));
    return c.json({ ...finalizeResult(view, apiOrigin(c)), regraded_from: view.regraded_from, flipped: view.flipped }, 201);
  })
  .get("/:id/report.md", async (c) => {
    const report = renderReport(runView(await requireRun(c), dashboardOrigin(c)));
    return c.body(report, 200, { "content-type": "text/markdown; charset=utf-8" });
  })
  .get("/:id/trace", async (c) => {
    const run = await requireRun(c);
    if (!run.traceS3Key || !(await blobExists(c.env.EVIDENCE, run.traceS3Key))) throw blobAbsent("trace");
    c.header("cache-control", "no-store");
    return c.json({ blob: "trace", ...(await signedDownload(c, run.traceS3Key)) });
  })
  .get("/:id/state", async (c) => {
    const run = await requireRun(c);
    const twins = run.twins;
    const keys = JSON.parse(run.stateKeys) as Partial<Record<TwinId, string>>;
    // A twin whose blob is missing is left out, so per_twin's keys are exactly the readable twins.
    const perTwin: Partial<Record<TwinId, { key: string; url: string }>> = {};
    for (const twin of twins) {
      const key = keys[twin] ?? null;
      if (key && (await blobExists(c.env.EVIDENCE, key))) {
        const signed = await signedDownload(c, key);
        perTwin[twin] = { key, url: signed.url };
      }
    }
    const primary = (run.stateS3Key && Object.values(perTwin).find((e) => e.key === run.stateS3Key)) || Object.values(perTwin)[0];
    if (!primary) throw blobAbsent("state");
    // The seeds too, so the evidence can be graded again elsewhere (`pome grade`, issue 38):
    // already_true_in_seed and seed+final checks read them.
    const initialKeys = JSON.parse(run.stateInitialKeys) as Partial<Record<TwinId, string>>;
    const perTwinInitial: Partial<Record<TwinId, { key: string; url: string }>> = {};
    for (const twin of twins) {
      const key = initialKeys[twin] ?? null;
      if (key && (await blobExists(c.env.EVIDENCE, key))) perTwinInitial[twin] = { key, url: (await signedDownload(c, key)).url };
    }
    const signed = await signedDownload(c, primary.key);
    c.header("cache-control", "no-store");
    return c.json({ blob: "state", ...signed, per_twin: perTwin, per_twin_initial: perTwinInitial });
  });
