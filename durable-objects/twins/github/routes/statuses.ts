// Commit statuses and the combined status of a ref.
import type { Route, TwinContext } from "../../types";
import { jsonBody, ok, route, storeOf } from "../context";
import { fail, ghError, ghValidationFailed } from "../errors";
import { nullableString, oneOf, optString } from "../input";
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

export const statusRoutes: readonly Route[] = [
  route("POST", "/repos/:owner/:repo/statuses/:sha", "repos.createCommitStatus", "Create a commit status", (ctx) => {
    const repo = requireWritableRepo(ctx);
    const body = jsonBody(ctx);
    if (body.state === undefined) fail(ghValidationFailed([{ resource: "Status", code: "missing_field", field: "state" }]));
    const state = oneOf(body.state, STATUS_STATES, "Status", "state") ?? "pending";
    const sha = commitSha(ctx, repo, ctx.params.sha, 422);
    const created = createStatus(storeOf(ctx), repo.id, sha, {
      state,
      context: optString(body, "context") || "default",
      description: nullableString(body, "description") ?? null,
      target_url: nullableString(body, "target_url") ?? null,
    });
    const out = statusObject(new View(ctx), repo, created);
    return ok(out, 201, { location: out.url });
  }),
  route(
    "GET",
    "/repos/:owner/:repo/commits/:ref/statuses",
    "repos.listCommitStatusesForRef",
    "List commit statuses for a reference",
    (ctx) => {
      const repo = requireRepo(ctx);
      const sha = commitSha(ctx, repo, ctx.params.ref, 404);
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
  ),
  route(
    "GET",
    "/repos/:owner/:repo/commits/:ref/status",
    "repos.getCombinedStatusForRef",
    "Get the combined status for a specific reference",
    (ctx) => {
      const repo = requireRepo(ctx);
      const sha = commitSha(ctx, repo, ctx.params.ref, 404);
      return ok(combinedStatusObject(new View(ctx), repo, sha, latestStatuses(ctx.db, repo.id, sha)));
    },
  ),
];
