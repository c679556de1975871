// Issue comments. The repository-wide comment routes come first in the table, so
// `/issues/comments` is never read as an issue number.
import { z } from "zod";
import type { Route } from "../../types";
import { ok, storeOf } from "../context";
import { commentId, direction, issueNumber, lenient, pageQuery, repoParams, route, since } from "../declare";
import { fail, ghNoContent, ghValidationFailed } from "../errors";
import { queryTime } from "../input";
import { pageOf, paged } from "../pagination";
import { requireRepo, requireWritableRepo } from "../repos";
import { View } from "../serialize";
import { createComment, deleteComment, listComments, requireComment, updateComment } from "../store/comments";
import { findIssue, requireIssue } from "../store/issues";
import { commentObject } from "../view-issues";
import { issueCommentEvent } from "../webhooks";
import type { Db } from "../../types";

/** A comment's text: GitHub refuses a blank one as a missing field. */
function commentText(text: string): string {
  if (!text.trim()) return fail(ghValidationFailed([{ resource: "IssueComment", code: "missing_field", field: "body" }]));
  return text;
}

const isPull = (db: Db, repoId: number, number: number) => findIssue(db, repoId, number)?.is_pull === 1;

const commentParams = { ...repoParams, comment_id: commentId };
const issueParams = { ...repoParams, issue_number: issueNumber };

export const commentRoutes: readonly Route[] = [
  route({
    method: "GET",
    pattern: "/repos/:owner/:repo/issues/comments",
    operation: "issues.listCommentsForRepo",
    summary: "List issue comments for a repository",
    resource: "IssueComment",
    params: repoParams,
    query: {
      sort: lenient(z.enum(["created", "updated"])).describe("What to sort by (default created)"),
      direction,
      since,
      ...pageQuery,
    },
    tool: {
      name: "list_repository_comments",
      description: "List the comments on every issue and pull request of a repository, oldest first.",
    },
    handler(ctx, { query }) {
      const repo = requireRepo(ctx);
      const page = pageOf(ctx);
      const { rows, total } = listComments(ctx.db, repo.id, {
        since: queryTime(query.since ?? null, "IssueComment", "since"),
        direction: query.direction ?? "asc",
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
    },
  }),
  route({
    method: "GET",
    pattern: "/repos/:owner/:repo/issues/comments/:comment_id",
    operation: "issues.getComment",
    summary: "Get an issue comment",
    params: commentParams,
    tool: { name: "get_comment", description: "Get one comment on an issue or pull request by its id: author, body and times." },
    handler(ctx, { params }) {
      const repo = requireRepo(ctx);
      const c = requireComment(ctx.db, repo.id, String(params.comment_id));
      return ok(commentObject(new View(ctx), repo, c, isPull(ctx.db, repo.id, c.issue_number)));
    },
  }),
  route({
    method: "PATCH",
    pattern: "/repos/:owner/:repo/issues/comments/:comment_id",
    operation: "issues.updateComment",
    summary: "Update an issue comment",
    resource: "IssueComment",
    missingField: ["body"],
    params: commentParams,
    body: { body: z.string().min(1).describe("The new text") },
    tool: {
      name: "update_comment",
      description: "Replace the whole text of an existing comment on an issue or pull request.",
      destructive: true,
    },
    handler(ctx, { params, body }) {
      const repo = requireWritableRepo(ctx);
      const c = requireComment(ctx.db, repo.id, String(params.comment_id));
      const updated = updateComment(storeOf(ctx), c, commentText(body.body));
      return ok(commentObject(new View(ctx), repo, updated, isPull(ctx.db, repo.id, c.issue_number)));
    },
  }),
  route({
    method: "DELETE",
    pattern: "/repos/:owner/:repo/issues/comments/:comment_id",
    operation: "issues.deleteComment",
    summary: "Delete an issue comment",
    params: commentParams,
    tool: { name: "delete_comment", description: "Delete a comment on an issue or pull request. This cannot be undone." },
    handler(ctx, { params }) {
      const repo = requireWritableRepo(ctx);
      deleteComment(storeOf(ctx), requireComment(ctx.db, repo.id, String(params.comment_id)));
      return ghNoContent();
    },
  }),
  route({
    method: "GET",
    pattern: "/repos/:owner/:repo/issues/:issue_number/comments",
    operation: "issues.listComments",
    summary: "List issue comments",
    resource: "IssueComment",
    params: issueParams,
    query: { since, ...pageQuery },
    tool: { name: "list_comments", description: "List the comments on one issue or pull request, oldest first." },
    handler(ctx, { params, query }) {
      const repo = requireRepo(ctx);
      const issue = requireIssue(ctx.db, repo.id, params.issue_number);
      const page = pageOf(ctx);
      const { rows, total } = listComments(ctx.db, repo.id, {
        issueNumber: issue.number,
        since: queryTime(query.since ?? null, "IssueComment", "since"),
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
    },
  }),
  route({
    method: "POST",
    pattern: "/repos/:owner/:repo/issues/:issue_number/comments",
    operation: "issues.createComment",
    summary: "Create an issue comment",
    resource: "IssueComment",
    missingField: ["body"],
    params: issueParams,
    body: { body: z.string().min(1).describe("The comment, in GitHub-flavoured markdown") },
    tool: { name: "create_comment", description: "Add a comment to an issue or pull request, as the authenticated user." },
    handler(ctx, { params, body }) {
      const repo = requireWritableRepo(ctx);
      const issue = requireIssue(ctx.db, repo.id, params.issue_number);
      const c = createComment(storeOf(ctx), issue, commentText(body.body));
      issueCommentEvent(ctx, repo, issue.number, c.id);
      const v = new View(ctx);
      const out = commentObject(v, repo, c, issue.is_pull === 1);
      return ok(out, 201, { location: out.url });
    },
  }),
];
