// Issue comments. The repository-wide comment routes come first in the table, so
// `/issues/comments` is never read as an issue number.
import type { Route } from "../../types";
import { jsonBody, ok, route, storeOf } from "../context";
import { fail, ghNoContent, ghValidationFailed } from "../errors";
import { queryEnum, queryTime } from "../input";
import { pageOf, paged } from "../pagination";
import { requireRepo, requireWritableRepo } from "../repos";
import { View } from "../serialize";
import { createComment, deleteComment, listComments, requireComment, updateComment } from "../store/comments";
import { findIssue, requireIssue } from "../store/issues";
import { commentObject } from "../view-issues";
import type { Db } from "../../../sql";

function commentBody(body: Record<string, unknown>): string {
  const text = body.body;
  if (typeof text !== "string" || !text.trim())
    return fail(ghValidationFailed([{ resource: "IssueComment", code: "missing_field", field: "body" }]));
  return text;
}

const isPull = (db: Db, repoId: number, number: number) => findIssue(db, repoId, number)?.is_pull === 1;

export const commentRoutes: readonly Route[] = [
  route("GET", "/repos/:owner/:repo/issues/comments", "issues.listCommentsForRepo", "List issue comments for a repository", (ctx) => {
    const repo = requireRepo(ctx);
    const page = pageOf(ctx);
    const { rows, total } = listComments(ctx.db, repo.id, {
      since: queryTime(ctx.query.get("since"), "IssueComment", "since"),
      direction: queryEnum(ctx.query.get("direction"), ["asc", "desc"] as const, "asc"),
      limit: page.limit,
      offset: page.offset,
    });
    const v = new View(ctx);
    return paged(
      ctx,
      rows.map((c) => commentObject(v, repo, c, isPull(ctx.db, repo.id, c.issue_number))),
      page,
      total,
      repo.id,
    );
  }),
  route("GET", "/repos/:owner/:repo/issues/comments/:comment_id", "issues.getComment", "Get an issue comment", (ctx) => {
    const repo = requireRepo(ctx);
    const c = requireComment(ctx.db, repo.id, ctx.params.comment_id);
    return ok(commentObject(new View(ctx), repo, c, isPull(ctx.db, repo.id, c.issue_number)));
  }),
  route("PATCH", "/repos/:owner/:repo/issues/comments/:comment_id", "issues.updateComment", "Update an issue comment", (ctx) => {
    const repo = requireWritableRepo(ctx);
    const c = requireComment(ctx.db, repo.id, ctx.params.comment_id);
    const updated = updateComment(storeOf(ctx), c, commentBody(jsonBody(ctx)));
    return ok(commentObject(new View(ctx), repo, updated, isPull(ctx.db, repo.id, c.issue_number)));
  }),
  route("DELETE", "/repos/:owner/:repo/issues/comments/:comment_id", "issues.deleteComment", "Delete an issue comment", (ctx) => {
    const repo = requireWritableRepo(ctx);
    deleteComment(storeOf(ctx), requireComment(ctx.db, repo.id, ctx.params.comment_id));
    return ghNoContent();
  }),
  route("GET", "/repos/:owner/:repo/issues/:issue_number/comments", "issues.listComments", "List issue comments", (ctx) => {
    const repo = requireRepo(ctx);
    const issue = requireIssue(ctx.db, repo.id, ctx.params.issue_number);
    const page = pageOf(ctx);
    const { rows, total } = listComments(ctx.db, repo.id, {
      issueNumber: issue.number,
      since: queryTime(ctx.query.get("since"), "IssueComment", "since"),
      limit: page.limit,
      offset: page.offset,
    });
    const v = new View(ctx);
    return paged(
      ctx,
      rows.map((c) => commentObject(v, repo, c, issue.is_pull === 1)),
      page,
      total,
      repo.id,
    );
  }),
  route("POST", "/repos/:owner/:repo/issues/:issue_number/comments", "issues.createComment", "Create an issue comment", (ctx) => {
    const repo = requireWritableRepo(ctx);
    const issue = requireIssue(ctx.db, repo.id, ctx.params.issue_number);
    const c = createComment(storeOf(ctx), issue, commentBody(jsonBody(ctx)));
    const v = new View(ctx);
    const body = commentObject(v, repo, c, issue.is_pull === 1);
    return ok(body, 201, { location: body.url });
  }),
];
