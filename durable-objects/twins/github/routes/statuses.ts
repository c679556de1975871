// Commit statuses and the combined status of a ref.
import { z } from "zod";
import type { Route, TwinContext } from "../../types";
import { ok, storeOf } from "../context";
import { pageQuery, repoParams, route } from "../declare";
import { fail, ghError } from "../errors";
import { pageOf, paged } from "../pagination";
import { requireRepo, requireWritableRepo, type RepoRow } from "../repos";
import { View } from "../serialize";
import { resolveRef } from "../store/git";
import { STATUS_STATES, createStatus, latestStatuses, listStatuses } from "../store/statuses";
import { combinedStatusObject, statusObject } from "../view-git";

/** A sha, branch or abbreviated sha, resolved to the commit statuses hang on. */
function commitSha(ctx: TwinContext, repo: RepoRow, ref: string, status: 404 | 422): string {
  return resolveRef(ctx.db, repo.id, ref)?.sha ?? fail(ghError(status, `No commit found for SHA: ${ref}`));
}

const refParams = { ...repoParams, ref: z.string().min(1).describe("Branch name, tag or commit SHA") };

export const statusRoutes: readonly Route[] = [
  route({
    method: "POST",
    pattern: "/repos/:owner/:repo/statuses/:sha",
    operation: "repos.createCommitStatus",
    summary: "Create a commit status",
    resource: "Status",
    missingField: ["state"],
    params: { ...repoParams, sha: z.string().min(1).describe("The commit SHA (a branch's head is `commit.sha` from get_branch)") },
    body: {
      state: z.enum(STATUS_STATES).describe("The status"),
      context: z.string().optional().describe('Which check this is, e.g. "ci/build" (default "default")'),
      description: z.string().nullable().optional().describe("A short human-readable summary"),
      target_url: z.string().nullable().optional().describe("Link to the build's details"),
    },
    tool: {
      name: "create_commit_status",
      description: 'Report a CI status (error, failure, pending or success) on a commit under a context such as "ci/build".',
    },
    handler(ctx, { params, body }) {
      const repo = requireWritableRepo(ctx);
      const sha = commitSha(ctx, repo, params.sha, 422);
      const created = createStatus(storeOf(ctx), repo.id, sha, {
        state: body.state,
        context: body.context || "default",
        description: body.description ?? null,
        target_url: body.target_url ?? null,
      });
      const out = statusObject(new View(ctx), repo, created);
      return ok(out, 201, { location: out.url });
    },
  }),
  route({
    method: "GET",
    pattern: "/repos/:owner/:repo/commits/:ref/statuses",
    operation: "repos.listCommitStatusesForRef",
    summary: "List commit statuses for a reference",
    params: refParams,
    query: pageQuery,
    tool: { name: "list_commit_statuses", description: "List every status reported for a branch, tag or commit, newest first." },
    handler(ctx, { params }) {
      const repo = requireRepo(ctx);
      const sha = commitSha(ctx, repo, params.ref, 404);
      const page = pageOf(ctx);
      const { rows, total } = listStatuses(ctx.db, repo.id, sha, page.limit, page.offset);
      const v = new View(ctx);
      return paged(
        ctx,
        rows.map((s) => statusObject(v, repo, s)),
        page,
        total,
        repo.id,
      );
    },
  }),
  route({
    method: "GET",
    pattern: "/repos/:owner/:repo/commits/:ref/status",
    operation: "repos.getCombinedStatusForRef",
    summary: "Get the combined status for a specific reference",
    params: refParams,
    tool: {
      name: "get_combined_status",
      description:
        "Get the combined CI status of a branch, tag or commit: `state` is failure if any check failed, pending if any is pending, success if all passed; `statuses` lists each context.",
    },
    handler(ctx, { params }) {
      const repo = requireRepo(ctx);
      const sha = commitSha(ctx, repo, params.ref, 404);
      return ok(combinedStatusObject(new View(ctx), repo, sha, latestStatuses(ctx.db, repo.id, sha)));
    },
  }),
];
