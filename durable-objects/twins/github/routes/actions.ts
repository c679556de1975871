// GitHub Actions, enough for CI agents: workflows, workflow runs (list, get, re-run, re-run failed
// jobs, cancel, delete, dispatch), jobs and their logs, artifacts. Runs are seeded world objects;
// the twin executes nothing (see store/actions.ts).
import { z } from "zod";
import type { Route, TwinContext, TwinResponse } from "../../types";
import { ok, storeOf } from "../context";
import { lenient, pageQuery, repoParams, route } from "../declare";
import { fail, ghError, ghNoContent, ghNotFound } from "../errors";
import { pageOf, paged } from "../pagination";
import { requireRepo, requireWritableRepo, type RepoRow } from "../repos";
import { View } from "../serialize";
import {
  type RunRow,
  cancelRun,
  deleteRun,
  dispatchRun,
  findArtifact,
  findJob,
  findRun,
  findWorkflow,
  findWorkflowById,
  jobsOfAttempt,
  jobsOfEveryAttempt,
  listArtifacts,
  listRuns,
  listWorkflows,
  rerunRun,
} from "../store/actions";
import { findBranch } from "../store/git";
import { artifactObject, jobObject, workflowObject, workflowRunObject } from "../view-ci";
import { workflowRunEvent } from "../webhooks";
import { zipFiles } from "../zip";
import { toBase64 } from "../../kit/bytes";
import { attachmentDisposition } from "../../kit/download-headers";

const workflowId = z.string().min(1).describe('The workflow\'s id or its file name, e.g. "ci.yml"');
const runId = z.number().int().positive().describe("The workflow run's id (from list_workflow_runs)");
const jobId = z.number().int().positive().describe("The job's id (from list_workflow_jobs)");

const runFilters = {
  ...pageQuery,
  actor: z.string().optional().describe("Only runs started by this login"),
  branch: z.string().optional().describe("Only runs on this branch"),
  event: z.string().optional().describe('Only runs triggered by this event, e.g. "push" or "pull_request"'),
  status: z
    .string()
    .optional()
    .describe("Only runs with this status or conclusion: completed, in_progress, queued, success, failure, cancelled, ..."),
  head_sha: z.string().optional().describe("Only runs on this commit"),
};

function requireRun(ctx: TwinContext, repo: RepoRow, id: number): RunRow {
  return findRun(ctx.db, repo.id, id) ?? fail(ghNotFound());
}

function runsPage(
  ctx: TwinContext,
  repo: RepoRow,
  workflow: number | undefined,
  q: { branch?: string; event?: string; status?: string; head_sha?: string; actor?: string },
): TwinResponse {
  const page = pageOf(ctx);
  const filter = { workflow_id: workflow, branch: q.branch, event: q.event, status: q.status, head_sha: q.head_sha, actor: q.actor };
  const { rows, total } = listRuns(ctx.db, repo.id, filter, page.limit, page.offset);
  const v = new View(ctx);
  const runs = rows.map((r) => workflowRunObject(v, repo, r, findWorkflowById(ctx.db, r.workflow_id)));
  return paged(ctx, { total_count: total, workflow_runs: runs }, page, total, repo.id);
}

/** GitHub's answer to acting on a run that is still going, or re-running one that is. */
function requireCompleted(run: RunRow): void {
  if (run.status !== "completed") fail(ghError(403, "This workflow run is not completed"));
}

const workflowRoutes: readonly Route[] = [
  route({
    method: "GET",
    pattern: "/repos/:owner/:repo/actions/workflows",
    operation: "actions.listRepoWorkflows",
    summary: "List repository workflows",
    params: repoParams,
    query: pageQuery,
    tool: { name: "list_workflows", description: "List the GitHub Actions workflows of a repository (id, name, path, state)." },
    handler(ctx) {
      const repo = requireRepo(ctx);
      const page = pageOf(ctx);
      const { rows, total } = listWorkflows(ctx.db, repo.id, page.limit, page.offset);
      const v = new View(ctx);
      return paged(ctx, { total_count: total, workflows: rows.map((w) => workflowObject(v, repo, w)) }, page, total, repo.id);
    },
  }),
  route({
    method: "GET",
    pattern: "/repos/:owner/:repo/actions/workflows/:workflow_id",
    operation: "actions.getWorkflow",
    summary: "Get a workflow",
    params: { ...repoParams, workflow_id: workflowId },
    tool: { name: "get_workflow", description: "Get one workflow by its id or file name (e.g. ci.yml)." },
    handler(ctx, { params }) {
      const repo = requireRepo(ctx);
      const wf = findWorkflow(ctx.db, repo.id, params.workflow_id) ?? fail(ghNotFound());
      return ok(workflowObject(new View(ctx), repo, wf));
    },
  }),
  route({
    method: "POST",
    pattern: "/repos/:owner/:repo/actions/workflows/:workflow_id/dispatches",
    operation: "actions.createWorkflowDispatch",
    summary: "Create a workflow dispatch event",
    resource: "Workflow",
    params: { ...repoParams, workflow_id: workflowId },
    body: {
      ref: z.string().min(1).describe("The branch or tag to run the workflow on"),
      inputs: z.record(z.string(), z.unknown()).optional().describe("The workflow's inputs, by name"),
    },
    tool: { name: "run_workflow", description: "Start a workflow (workflow_dispatch) on a branch; the run is queued." },
    handler(ctx, { params, body }) {
      const repo = requireWritableRepo(ctx);
      const wf = findWorkflow(ctx.db, repo.id, params.workflow_id) ?? fail(ghNotFound());
      const branch = body.ref.replace(/^refs\/heads\//, "");
      const head = findBranch(ctx.db, repo.id, branch) ?? fail(ghError(422, `No ref found for: ${body.ref}`));
      const run = dispatchRun(storeOf(ctx), wf, branch, head.head_sha);
      workflowRunEvent(ctx, repo, run, "requested");
      return ghNoContent();
    },
  }),
  route({
    method: "GET",
    pattern: "/repos/:owner/:repo/actions/workflows/:workflow_id/runs",
    operation: "actions.listWorkflowRuns",
    summary: "List workflow runs for a workflow",
    params: { ...repoParams, workflow_id: workflowId },
    query: runFilters,
    tool: {
      name: "list_workflow_runs_for_workflow",
      description: "List the runs of one workflow, newest first, filtered by branch, event, status or head_sha.",
    },
    handler(ctx, { params, query }) {
      const repo = requireRepo(ctx);
      const wf = findWorkflow(ctx.db, repo.id, params.workflow_id) ?? fail(ghNotFound());
      return runsPage(ctx, repo, wf.id, query);
    },
  }),
];

const runRoutes: readonly Route[] = [
  route({
    method: "GET",
    pattern: "/repos/:owner/:repo/actions/runs",
    operation: "actions.listWorkflowRunsForRepo",
    summary: "List workflow runs for a repository",
    params: repoParams,
    query: runFilters,
    tool: {
      name: "list_workflow_runs",
      description: "List the repository's workflow runs, newest first, filtered by branch, event, status (or conclusion) or head_sha.",
    },
    handler: (ctx, { query }) => runsPage(ctx, requireRepo(ctx), undefined, query),
  }),
  route({
    method: "GET",
    pattern: "/repos/:owner/:repo/actions/runs/:run_id",
    operation: "actions.getWorkflowRun",
    summary: "Get a workflow run",
    params: { ...repoParams, run_id: runId },
    tool: { name: "get_workflow_run", description: "Get one workflow run: status, conclusion, run_attempt, head branch and sha." },
    handler(ctx, { params }) {
      const repo = requireRepo(ctx);
      const run = requireRun(ctx, repo, params.run_id);
      return ok(workflowRunObject(new View(ctx), repo, run, findWorkflowById(ctx.db, run.workflow_id)));
    },
  }),
  route({
    method: "DELETE",
    pattern: "/repos/:owner/:repo/actions/runs/:run_id",
    operation: "actions.deleteWorkflowRun",
    summary: "Delete a workflow run",
    params: { ...repoParams, run_id: runId },
    tool: { name: "delete_workflow_run", description: "Delete a workflow run with its jobs, logs and artifacts." },
    handler(ctx, { params }) {
      const repo = requireWritableRepo(ctx);
      deleteRun(ctx.db, requireRun(ctx, repo, params.run_id));
      return ghNoContent();
    },
  }),
  ...(["rerun", "rerun-failed-jobs"] as const).map((kind) =>
    route({
      method: "POST",
      pattern: `/repos/:owner/:repo/actions/runs/:run_id/${kind}`,
      operation: kind === "rerun" ? "actions.reRunWorkflow" : "actions.reRunWorkflowFailedJobs",
      summary: kind === "rerun" ? "Re-run a workflow" : "Re-run failed jobs from a workflow run",
      params: { ...repoParams, run_id: runId },
      body: { enable_debug_logging: z.boolean().optional().describe("Whether to enable debug logging for the re-run") },
      tool:
        kind === "rerun"
          ? { name: "rerun_workflow_run", description: "Re-run every job of a completed workflow run (a new run_attempt)." }
          : { name: "rerun_failed_jobs", description: "Re-run only the failed jobs of a completed workflow run (a new run_attempt)." },
      handler(ctx, { params }) {
        const repo = requireWritableRepo(ctx);
        const run = requireRun(ctx, repo, params.run_id);
        requireCompleted(run);
        const after = rerunRun(storeOf(ctx), run, kind === "rerun-failed-jobs");
        workflowRunEvent(ctx, repo, after, "completed");
        return ok({}, 201);
      },
    }),
  ),
  route({
    method: "POST",
    pattern: "/repos/:owner/:repo/actions/runs/:run_id/cancel",
    operation: "actions.cancelWorkflowRun",
    summary: "Cancel a workflow run",
    params: { ...repoParams, run_id: runId },
    tool: { name: "cancel_workflow_run", description: "Cancel a queued or in-progress workflow run." },
    handler(ctx, { params }) {
      const repo = requireWritableRepo(ctx);
      const run = requireRun(ctx, repo, params.run_id);
      // https://docs.github.com/rest/actions/workflow-runs#cancel-a-workflow-run answers 409 for a finished run.
      if (run.status === "completed") fail(ghError(409, "Cannot cancel a workflow run that is completed."));
      cancelRun(storeOf(ctx), run);
      return ok({}, 202);
    },
  }),
];

const jobRoutes: readonly Route[] = [
  route({
    method: "GET",
    pattern: "/repos/:owner/:repo/actions/runs/:run_id/jobs",
    operation: "actions.listJobsForWorkflowRun",
    summary: "List jobs for a workflow run",
    params: { ...repoParams, run_id: runId },
    query: { ...pageQuery, filter: lenient(z.enum(["latest", "all"])).describe("latest (the current attempt, default) or all attempts") },
    tool: {
      name: "list_workflow_jobs",
      description: "List the jobs of a workflow run (its latest attempt, or all), with their steps and conclusions.",
    },
    handler(ctx, { params, query }) {
      const repo = requireRepo(ctx);
      const run = requireRun(ctx, repo, params.run_id);
      const all = query.filter === "all" ? jobsOfEveryAttempt(ctx.db, run.id) : jobsOfAttempt(ctx.db, run.id, run.run_attempt);
      const page = pageOf(ctx);
      const v = new View(ctx);
      const wf = findWorkflowById(ctx.db, run.workflow_id);
      const jobs = all.slice(page.offset, page.offset + page.limit).map((j) => jobObject(v, repo, j, run, wf));
      return paged(ctx, { total_count: all.length, jobs }, page, all.length, repo.id);
    },
  }),
  route({
    method: "GET",
    pattern: "/repos/:owner/:repo/actions/jobs/:job_id",
    operation: "actions.getJobForWorkflowRun",
    summary: "Get a job for a workflow run",
    params: { ...repoParams, job_id: jobId },
    tool: { name: "get_workflow_job", description: "Get one job of a workflow run, with its steps." },
    handler(ctx, { params }) {
      const repo = requireRepo(ctx);
      const job = findJob(ctx.db, repo.id, params.job_id) ?? fail(ghNotFound());
      const run = requireRun(ctx, repo, job.run_id);
      return ok(jobObject(new View(ctx), repo, job, run, findWorkflowById(ctx.db, run.workflow_id)));
    },
  }),
  route({
    method: "GET",
    pattern: "/repos/:owner/:repo/actions/jobs/:job_id/logs",
    operation: "actions.downloadJobLogsForWorkflowRun",
    summary: "Download job logs for a workflow run",
    params: { ...repoParams, job_id: jobId },
    tool: { name: "get_job_logs", description: "Get the log text of one job (GitHub answers with a redirect to the plain-text log)." },
    handler(ctx, { params }) {
      const repo = requireRepo(ctx);
      const job = findJob(ctx.db, repo.id, params.job_id) ?? fail(ghNotFound());
      // GitHub redirects to a short-lived plain-text URL; the twin's is its own, below.
      return { status: 302, headers: { location: new View(ctx).repoApi(repo, `/actions/jobs/${job.id}/logs/text`) }, body: "" };
    },
  }),
  route({
    method: "GET",
    pattern: "/repos/:owner/:repo/actions/jobs/:job_id/logs/text",
    // Where the log download redirects: the same operation, its second leg.
    operation: "actions.downloadJobLogsForWorkflowRun",
    summary: "The plain-text log a job's log download redirects to",
    params: { ...repoParams, job_id: jobId },
    handler(ctx, { params }) {
      const repo = requireRepo(ctx);
      const job = findJob(ctx.db, repo.id, params.job_id) ?? fail(ghNotFound());
      return { status: 200, headers: { "content-type": "text/plain; charset=utf-8" }, body: job.log };
    },
  }),
];

const artifactId = z.number().int().positive().describe("The artifact's id (from list_artifacts)");

function requireArtifact(ctx: TwinContext, repo: RepoRow, id: number) {
  return findArtifact(ctx.db, repo.id, id) ?? fail(ghNotFound());
}

const artifactRoutes: readonly Route[] = [
  route({
    method: "GET",
    pattern: "/repos/:owner/:repo/actions/artifacts/:artifact_id",
    operation: "actions.getArtifact",
    summary: "Get an artifact",
    params: { ...repoParams, artifact_id: artifactId },
    tool: { name: "get_artifact", description: "Get one workflow artifact: name, size, the run that uploaded it, its download URL." },
    handler(ctx, { params }) {
      const repo = requireRepo(ctx);
      const a = requireArtifact(ctx, repo, params.artifact_id);
      return ok(artifactObject(new View(ctx), repo, a, findRun(ctx.db, repo.id, a.run_id)));
    },
  }),
  route({
    method: "GET",
    pattern: "/repos/:owner/:repo/actions/artifacts/:artifact_id/:archive_format",
    operation: "actions.downloadArtifact",
    summary: "Download an artifact",
    params: {
      ...repoParams,
      artifact_id: artifactId,
      archive_format: z.string().min(1).describe('The archive format: "zip", the only one GitHub serves'),
    },
    tool: {
      name: "download_artifact",
      description: "Download a workflow artifact as a zip (GitHub answers with a redirect to the archive).",
    },
    handler(ctx, { params }) {
      const repo = requireRepo(ctx);
      // GitHub answers 404 for any format but zip (actions/download-artifact: "archive_format ... zip").
      if (params.archive_format !== "zip") fail(ghNotFound());
      const a = requireArtifact(ctx, repo, params.artifact_id);
      // GitHub redirects to a short-lived storage URL; the twin's is its own, below.
      return { status: 302, headers: { location: new View(ctx).repoApi(repo, `/actions/artifacts/${a.id}/zip/content`) }, body: "" };
    },
  }),
  route({
    method: "GET",
    pattern: "/repos/:owner/:repo/actions/artifacts/:artifact_id/zip/content",
    // Where the download redirects: the same operation, its second leg.
    operation: "actions.downloadArtifact",
    summary: "The zip archive an artifact download redirects to",
    params: { ...repoParams, artifact_id: artifactId },
    handler(ctx, { params }) {
      const repo = requireRepo(ctx);
      const a = requireArtifact(ctx, repo, params.artifact_id);
      const files = JSON.parse(a.files) as { path: string; content: string }[];
      const bytes = zipFiles(files, Date.parse(a.created_at));
      return {
        status: 200,
        headers: { "content-type": "application/zip", "content-disposition": attachmentDisposition(`${a.name}.zip`) },
        body: toBase64(bytes),
        bodyEncoding: "base64",
      };
    },
  }),
  route({
    method: "GET",
    pattern: "/repos/:owner/:repo/actions/artifacts",
    operation: "actions.listArtifactsForRepo",
    summary: "List artifacts for a repository",
    params: repoParams,
    query: { ...pageQuery, name: z.string().optional().describe("Only artifacts with this exact name") },
    tool: { name: "list_artifacts", description: "List the repository's workflow artifacts, newest first." },
    handler(ctx, { query }) {
      const repo = requireRepo(ctx);
      return artifactsPage(ctx, repo, undefined, query.name);
    },
  }),
  route({
    method: "GET",
    pattern: "/repos/:owner/:repo/actions/runs/:run_id/artifacts",
    operation: "actions.listWorkflowRunArtifacts",
    summary: "List workflow run artifacts",
    params: { ...repoParams, run_id: runId },
    query: { ...pageQuery, name: z.string().optional().describe("Only artifacts with this exact name") },
    tool: { name: "list_workflow_run_artifacts", description: "List the artifacts a workflow run uploaded." },
    handler(ctx, { params, query }) {
      const repo = requireRepo(ctx);
      const run = requireRun(ctx, repo, params.run_id);
      return artifactsPage(ctx, repo, run, query.name);
    },
  }),
];

function artifactsPage(ctx: TwinContext, repo: RepoRow, run: RunRow | undefined, name: string | undefined): TwinResponse {
  const page = pageOf(ctx);
  const { rows, total } = listArtifacts(ctx.db, repo.id, run?.id, name, page.limit, page.offset);
  const v = new View(ctx);
  const artifacts = rows.map((a) => artifactObject(v, repo, a, run ?? findRun(ctx.db, repo.id, a.run_id)));
  return paged(ctx, { total_count: total, artifacts }, page, total, repo.id);
}

export const actionRoutes: readonly Route[] = [...workflowRoutes, ...runRoutes, ...jobRoutes, ...artifactRoutes];
