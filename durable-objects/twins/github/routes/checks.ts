// Checks: check runs (create, update, get, annotations, list for a ref or a suite) and check suites
// (create, get, list for a ref, rerequest). The sandbox's token stands in for a GitHub App
// installation, so it may create check runs (GitHub refuses a personal token here; see fidelity.ts).
import { z } from "zod";
import type { Route, TwinContext } from "../../types";
import { ok, storeOf } from "../context";
import { lenient, pageQuery, repoParams, route } from "../declare";
import { fail, ghError, ghNotFound } from "../errors";
import { pageOf, paged } from "../pagination";
import { requireRepo, requireWritableRepo, type RepoRow } from "../repos";
import { View } from "../serialize";
import { CHECK_CONCLUSIONS, CHECK_STATUSES } from "../seed-ci";
import {
  type CheckRunInput,
  type CheckRunRow,
  annotationsOf,
  checkRunsOfSuite,
  checkRunsOnSha,
  createCheckRun,
  findCheckRun,
  findCheckSuite,
  rerequestSuite,
  suiteFor,
  suitesOnSha,
  updateCheckRun,
} from "../store/checks";
import { resolveRef } from "../store/git";
import { annotationObject, checkRunObject, checkSuiteObject } from "../view-ci";
import { emitRepoEvent } from "../webhooks";

const annotation = z.object({
  path: z.string().min(1),
  start_line: z.number().int().positive(),
  end_line: z.number().int().positive(),
  start_column: z.number().int().positive().optional(),
  end_column: z.number().int().positive().optional(),
  annotation_level: z.enum(["notice", "warning", "failure"]),
  message: z.string().min(1),
  title: z.string().optional(),
  raw_details: z.string().optional(),
});

const output = z
  .object({
    title: z.string().describe("The check run's title"),
    summary: z.string().max(65535).describe("A summary (Markdown)"),
    text: z.string().max(65535).optional().describe("Details (Markdown)"),
    // GitHub takes at most 50 annotations per request; more are added by further updates.
    annotations: z.array(annotation).max(50).optional().describe("Up to 50 annotations on lines of files"),
  })
  .describe("The check run's output: title, summary, text, annotations");

const runBody = {
  name: z.string().min(1).describe('The check\'s name, e.g. "lint"'),
  status: z.enum(CHECK_STATUSES).optional().describe("queued, in_progress or completed"),
  conclusion: z
    .enum(CHECK_CONCLUSIONS)
    .optional()
    .describe("Required when completed: success, failure, neutral, cancelled, skipped, timed_out or action_required"),
  external_id: z.string().optional().describe("Your own id for the check"),
  details_url: z.string().optional().describe("Link to the check's details"),
  started_at: z.string().optional().describe("ISO 8601 time it started"),
  completed_at: z.string().optional().describe("ISO 8601 time it completed"),
  output: output.optional(),
};

const refParams = { ...repoParams, ref: z.string().min(1).describe("Branch name, tag or commit SHA") };
const checkRunId = z.number().int().positive().describe("The check run's id");
const checkSuiteId = z.number().int().positive().describe("The check suite's id");
const runFilters = {
  ...pageQuery,
  check_name: z.string().optional().describe("Only check runs with this name"),
  status: lenient(z.enum(["queued", "in_progress", "completed"])).describe("Only check runs with this status"),
  filter: lenient(z.enum(["latest", "all"])).describe("latest (the newest run of each name, default) or all"),
};

/** GitHub's rule: a completed run (or one with `completed_at`) needs a conclusion. */
function inputOf(
  body: { status?: string; conclusion?: string; completed_at?: string } & Partial<z.output<z.ZodObject<typeof runBody>>>,
): CheckRunInput {
  if ((body.status === "completed" || body.completed_at) && !body.conclusion)
    fail(ghError(422, 'Invalid request.\n\n"conclusion" wasn\'t supplied.'));
  const { output: out, ...rest } = body;
  return {
    ...rest,
    output: out ? { title: out.title, summary: out.summary, text: out.text ?? null } : undefined,
    annotations: out?.annotations?.map((a) => ({
      ...a,
      start_column: a.start_column ?? null,
      end_column: a.end_column ?? null,
      title: a.title ?? null,
      raw_details: a.raw_details ?? null,
    })),
  };
}

function shaOf(ctx: TwinContext, repo: RepoRow, ref: string, status: 404 | 422) {
  return resolveRef(ctx.db, repo.id, ref) ?? fail(status === 404 ? ghNotFound() : ghError(422, `No commit found for SHA: ${ref}`));
}

function runsPage(ctx: TwinContext, repo: RepoRow, rows: CheckRunRow[]) {
  const page = pageOf(ctx);
  const v = new View(ctx);
  const runs = rows.slice(page.offset, page.offset + page.limit).map((c) => checkRunObject(v, repo, c));
  return paged(ctx, { total_count: rows.length, check_runs: runs }, page, rows.length, repo.id);
}

const filterOf = (q: { check_name?: string; status?: (typeof CHECK_STATUSES)[number]; filter?: string }) => ({
  check_name: q.check_name,
  status: q.status,
  latestOnly: q.filter !== "all",
});

const checkRunEvent = (ctx: TwinContext, repo: RepoRow, run: CheckRunRow, action: string) =>
  emitRepoEvent(ctx, repo, "check_run", action, (v) => ({ check_run: checkRunObject(v, repo, run) }));

const checkRunRoutes: readonly Route[] = [
  route({
    method: "POST",
    pattern: "/repos/:owner/:repo/check-runs",
    operation: "checks.create",
    summary: "Create a check run",
    resource: "CheckRun",
    params: repoParams,
    body: { ...runBody, head_sha: z.string().min(1).describe("The commit the check is about") },
    tool: {
      name: "create_check_run",
      description: "Report a check run on a commit: name, status, conclusion and output (title, summary, annotations).",
    },
    handler(ctx, { body }) {
      const repo = requireWritableRepo(ctx);
      const head = shaOf(ctx, repo, body.head_sha, 422);
      const run = createCheckRun(storeOf(ctx), repo.id, head.sha, head.branch, { ...inputOf(body), name: body.name });
      checkRunEvent(ctx, repo, run, "created");
      return ok(checkRunObject(new View(ctx), repo, run), 201);
    },
  }),
  route({
    method: "PATCH",
    pattern: "/repos/:owner/:repo/check-runs/:check_run_id",
    operation: "checks.update",
    summary: "Update a check run",
    resource: "CheckRun",
    params: { ...repoParams, check_run_id: checkRunId },
    body: { ...runBody, name: runBody.name.optional() },
    tool: { name: "update_check_run", description: "Update a check run: status, conclusion, output; annotations given are added." },
    handler(ctx, { params, body }) {
      const repo = requireWritableRepo(ctx);
      const before = findCheckRun(ctx.db, repo.id, params.check_run_id) ?? fail(ghNotFound());
      // Only the app that made a check run may change it: an Actions job is GitHub Actions'.
      if (before.app) fail(ghError(403, "Resource not accessible by integration"));
      const run = updateCheckRun(storeOf(ctx), before, inputOf(body));
      if (run.status === "completed" && before.status !== "completed") checkRunEvent(ctx, repo, run, "completed");
      return ok(checkRunObject(new View(ctx), repo, run));
    },
  }),
  route({
    method: "GET",
    pattern: "/repos/:owner/:repo/check-runs/:check_run_id",
    operation: "checks.get",
    summary: "Get a check run",
    params: { ...repoParams, check_run_id: checkRunId },
    tool: { name: "get_check_run", description: "Get one check run: status, conclusion and output." },
    handler(ctx, { params }) {
      const repo = requireRepo(ctx);
      return ok(checkRunObject(new View(ctx), repo, findCheckRun(ctx.db, repo.id, params.check_run_id) ?? fail(ghNotFound())));
    },
  }),
  route({
    method: "GET",
    pattern: "/repos/:owner/:repo/check-runs/:check_run_id/annotations",
    operation: "checks.listAnnotations",
    summary: "List check run annotations",
    params: { ...repoParams, check_run_id: checkRunId },
    query: pageQuery,
    tool: { name: "list_check_run_annotations", description: "List the annotations (file, lines, level, message) of a check run." },
    handler(ctx, { params }) {
      const repo = requireRepo(ctx);
      const run = findCheckRun(ctx.db, repo.id, params.check_run_id) ?? fail(ghNotFound());
      const all = annotationsOf(run);
      const page = pageOf(ctx);
      const v = new View(ctx);
      return paged(
        ctx,
        all.slice(page.offset, page.offset + page.limit).map((a) => annotationObject(v, repo, run, a)),
        page,
        all.length,
        repo.id,
      );
    },
  }),
  route({
    method: "GET",
    pattern: "/repos/:owner/:repo/commits/:ref/check-runs",
    operation: "checks.listForRef",
    summary: "List check runs for a Git reference",
    params: refParams,
    query: runFilters,
    tool: {
      name: "list_check_runs_for_ref",
      description: "List the check runs on a branch, tag or commit (newest run of each name by default).",
    },
    handler(ctx, { params, query }) {
      const repo = requireRepo(ctx);
      const head = shaOf(ctx, repo, params.ref, 404);
      return runsPage(ctx, repo, checkRunsOnSha(ctx.db, repo.id, head.sha, filterOf(query)));
    },
  }),
  route({
    method: "GET",
    pattern: "/repos/:owner/:repo/check-suites/:check_suite_id/check-runs",
    operation: "checks.listForSuite",
    summary: "List check runs in a check suite",
    params: { ...repoParams, check_suite_id: checkSuiteId },
    query: runFilters,
    tool: { name: "list_check_runs_for_suite", description: "List the check runs of one check suite." },
    handler(ctx, { params, query }) {
      const repo = requireRepo(ctx);
      const suite = findCheckSuite(ctx.db, repo.id, params.check_suite_id) ?? fail(ghNotFound());
      return runsPage(ctx, repo, checkRunsOfSuite(ctx.db, suite, filterOf(query)));
    },
  }),
];

const checkSuiteRoutes: readonly Route[] = [
  route({
    method: "POST",
    pattern: "/repos/:owner/:repo/check-suites",
    operation: "checks.createSuite",
    summary: "Create a check suite",
    resource: "CheckSuite",
    params: repoParams,
    body: { head_sha: z.string().min(1).describe("The commit the suite is for") },
    tool: {
      name: "create_check_suite",
      description: "Create the sandbox app's check suite on a commit (answers the existing one with 200).",
    },
    handler(ctx, { body }) {
      const repo = requireWritableRepo(ctx);
      const head = shaOf(ctx, repo, body.head_sha, 422);
      const { suite, created } = suiteFor(storeOf(ctx), repo.id, head.sha, head.branch);
      const runs = checkRunsOfSuite(ctx.db, suite, { latestOnly: true });
      return ok(checkSuiteObject(new View(ctx), repo, suite, runs), created ? 201 : 200);
    },
  }),
  route({
    method: "GET",
    pattern: "/repos/:owner/:repo/check-suites/:check_suite_id",
    operation: "checks.getSuite",
    summary: "Get a check suite",
    params: { ...repoParams, check_suite_id: checkSuiteId },
    tool: { name: "get_check_suite", description: "Get one check suite: its status and conclusion over its check runs." },
    handler(ctx, { params }) {
      const repo = requireRepo(ctx);
      const suite = findCheckSuite(ctx.db, repo.id, params.check_suite_id) ?? fail(ghNotFound());
      return ok(checkSuiteObject(new View(ctx), repo, suite, checkRunsOfSuite(ctx.db, suite, { latestOnly: true })));
    },
  }),
  route({
    method: "POST",
    pattern: "/repos/:owner/:repo/check-suites/:check_suite_id/rerequest",
    operation: "checks.rerequestSuite",
    summary: "Rerequest a check suite",
    params: { ...repoParams, check_suite_id: checkSuiteId },
    tool: { name: "rerequest_check_suite", description: "Ask the suite's app to run its checks again." },
    handler(ctx, { params }) {
      const repo = requireWritableRepo(ctx);
      const suite = findCheckSuite(ctx.db, repo.id, params.check_suite_id) ?? fail(ghNotFound());
      rerequestSuite(storeOf(ctx), suite);
      return ok({}, 201);
    },
  }),
  route({
    method: "GET",
    pattern: "/repos/:owner/:repo/commits/:ref/check-suites",
    operation: "checks.listSuitesForRef",
    summary: "List check suites for a Git reference",
    params: refParams,
    query: { ...pageQuery, check_name: z.string().optional().describe("Only suites holding a check run of this name") },
    tool: {
      name: "list_check_suites_for_ref",
      description: "List the check suites on a branch, tag or commit, each with its status and conclusion.",
    },
    handler(ctx, { params, query }) {
      const repo = requireRepo(ctx);
      const head = shaOf(ctx, repo, params.ref, 404);
      const v = new View(ctx);
      const all = suitesOnSha(ctx.db, repo.id, head.sha)
        .map((s) => ({ s, runs: checkRunsOfSuite(ctx.db, s, { latestOnly: true, check_name: query.check_name }) }))
        .filter((x) => !query.check_name || x.runs.length > 0);
      const page = pageOf(ctx);
      const suites = all.slice(page.offset, page.offset + page.limit).map((x) => checkSuiteObject(v, repo, x.s, x.runs));
      return paged(ctx, { total_count: all.length, check_suites: suites }, page, all.length, repo.id);
    },
  }),
];

export const checkRoutes: readonly Route[] = [...checkRunRoutes, ...checkSuiteRoutes];
