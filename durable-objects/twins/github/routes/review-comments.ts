// Pull-request review comments (inline on a line or range of the diff, threads by reply), their
// reactions, and updating a pull request's branch with its base. These routes come before the
// pull-request routes, so `/pulls/comments` is never read as a pull number.
import { z } from "zod";
import type { Route, TwinContext } from "../../types";
import { ok, storeOf } from "../context";
import { commentId, direction, lenient, pageQuery, pullNumber, repoParams, route, since } from "../declare";
import { fail, ghError, ghNoContent, ghNotFound } from "../errors";
import { invalidRequest, notSupplied, oneOf, optNumber, optString, queryTime } from "../input";
import { isBody } from "../../kit/input";
import { pageOf, paged } from "../pagination";
import { requireRepo, requireWritableRepo, type RepoRow } from "../repos";
import { View } from "../serialize";
import { findCommit, mergeBase, moveBranch, findBranch, writeCommit } from "../store/git";
import { compare, mergeTrees } from "../store/merge";
import { requirePull } from "../store/pulls";
import {
  filePatch,
  insertReviewComment,
  listReviewComments,
  locate,
  patchLines,
  replyTo,
  requireReviewComment,
  soloReview,
  type Anchor,
  type NewReviewComment,
  type ReviewCommentOrder,
} from "../store/review-comments";
import { requireReview } from "../store/reviews";
import type { IssueRow } from "../store/rows";
import { reactionRoutes } from "./activity";
import { reviewCommentObject } from "../view-review-comments";

const SIDES = ["LEFT", "RIGHT"] as const;

/** Where a comment goes, read from a request body (or one entry of a review's `comments`). */
export function readAnchor(body: Record<string, unknown>): Anchor {
  const path = optString(body, "path") ?? notSupplied("path");
  const subject_type = oneOf(body.subject_type, ["line", "file"] as const, "PullRequestReviewComment", "subject_type") ?? "line";
  const line = optNumber(body, "line") ?? undefined;
  const side = oneOf(body.side, SIDES, "PullRequestReviewComment", "side");
  const start_line = optNumber(body, "start_line") ?? undefined;
  const start_side = oneOf(body.start_side, SIDES, "PullRequestReviewComment", "start_side");
  const position = optNumber(body, "position") ?? undefined;
  if (subject_type === "line" && line === undefined && position === undefined) notSupplied("line");
  return {
    path,
    subject_type,
    ...(line !== undefined ? { line } : {}),
    ...(side ? { side } : {}),
    ...(start_line !== undefined ? { start_line } : {}),
    ...(start_side ? { start_side } : {}),
    ...(line === undefined && position !== undefined ? { position } : {}),
  };
}

/** The deprecated `position` (a line index in the file's patch) turned into a line and side. */
function resolvePosition(ctx: TwinContext, pull: IssueRow, a: Anchor): Anchor {
  if (a.position === undefined) return a;
  const lines = patchLines(filePatch(ctx.db, pull, a.path)).lines;
  const at = lines.find((l) => l.position === a.position);
  if (!at || (at.left === null && at.right === null))
    return fail(ghError(422, "Unprocessable Entity", { errors: ["Pull request review thread position is invalid"] }));
  const { position: _position, ...rest } = a;
  return at.right !== null ? { ...rest, line: at.right, side: "RIGHT" } : { ...rest, line: at.left ?? 0, side: "LEFT" };
}

function createComment(ctx: TwinContext, repo: RepoRow, pull: IssueRow, body: Record<string, unknown>, reviewId?: number) {
  const s = storeOf(ctx);
  const text = optString(body, "body") ?? notSupplied("body");
  const anchor = resolvePosition(ctx, pull, readAnchor(body));
  const at = locate(ctx.db, pull, anchor);
  const comment: NewReviewComment = { ...anchor, body: text, review_id: reviewId ?? soloReview(s, pull) };
  return insertReviewComment(s, pull, comment, at);
}

/**
 * A thread outlives its first comment while it has replies: the earliest reply starts it from then
 * on (taking its resolution), and the other replies answer that one, so the thread still has a
 * first comment to hang from (store/review-threads.ts) and the export still boots.
 */
function keepThread(ctx: TwinContext, root: { id: number; resolved_by: string | null }) {
  const next = ctx.db.one<{ id: number }>("SELECT id FROM gh_review_comments WHERE in_reply_to_id = ? ORDER BY id LIMIT 1", root.id);
  if (!next) return;
  ctx.db.run("UPDATE gh_review_comments SET in_reply_to_id = NULL, resolved_by = ? WHERE id = ?", root.resolved_by, next.id);
  ctx.db.run("UPDATE gh_review_comments SET in_reply_to_id = ? WHERE in_reply_to_id = ?", next.id, root.id);
}

function updateBranch(ctx: TwinContext, pullNumber: number, expected: string | undefined) {
  const repo = requireWritableRepo(ctx);
  const pull = requirePull(ctx.db, repo.id, pullNumber);
  const s = storeOf(ctx);
  const head = findBranch(ctx.db, repo.id, pull.head ?? "") ?? fail(ghNotFound());
  const base = findBranch(ctx.db, repo.id, pull.base ?? "") ?? fail(ghNotFound());
  // Sources for the messages: GitHub's 422s for pulls/update-branch (docs: "Update a pull request branch").
  if (pull.state !== "open") fail(ghError(422, "Pull request must be open to update the branch"));
  if (expected !== undefined && expected.toLowerCase() !== head.head_sha)
    fail(ghError(422, "expected head sha didn't match current head ref."));
  if (mergeBase(ctx.db, repo.id, base.head_sha, head.head_sha) === base.head_sha)
    fail(ghError(422, "There are no new commits on the base branch."));
  const merged = mergeTrees(ctx.db, compare(ctx.db, repo.id, base.head_sha, head.head_sha));
  if (merged.conflicts.length) fail(ghError(422, "merge conflict between base and head"));
  const commit = writeCommit(ctx.db, {
    repoId: repo.id,
    branch: head.name,
    parents: [head.head_sha, base.head_sha],
    tree: merged.tree,
    message: `Merge branch '${base.name}' into ${head.name}`,
    author: s.actor,
    at: s.now,
  });
  moveBranch(ctx.db, repo.id, head.name, commit.sha, s.now);
  ctx.db.run("UPDATE gh_issues SET updated_at = ? WHERE id = ?", s.now, pull.id);
  // The docs' 202 answer: the update runs in the background on GitHub; here it is already done.
  return ok(
    { message: "Updating pull request branch.", url: `https://github.com/repos/${repo.owner}/${repo.name}/pulls/${pull.number}` },
    202,
  );
}

const pullParams = { ...repoParams, pull_number: pullNumber };
const commentParams = { ...repoParams, comment_id: commentId.describe("The review comment's id") };
const side = z.enum(SIDES);
const listQuery = {
  // The repository-wide list's description also names `created_at`, the same order as `created`.
  sort: lenient(z.enum(["created", "updated", "created_at"])).describe("What to sort by: created or updated (default: by id)"),
  direction: direction.describe("Sort direction, asc (default) or desc; ignored without sort"),
  since,
  ...pageQuery,
};
/**
 * The description: "By default, review comments are in ascending order by ID", and `direction` is
 * "Ignored without `sort` parameter".
 */
const order = (query: { sort?: "created" | "updated" | "created_at"; direction?: "asc" | "desc" }): ReviewCommentOrder =>
  query.sort
    ? { sort: query.sort === "updated" ? "updated" : "created", direction: query.direction ?? "asc" }
    : { sort: "id", direction: "asc" };
const commentText = z.string().describe("The comment, in GitHub-flavoured markdown");

export const reviewCommentRoutes: readonly Route[] = [
  route({
    method: "GET",
    pattern: "/repos/:owner/:repo/pulls/comments",
    operation: "pulls.listReviewCommentsForRepo",
    summary: "List review comments in a repository",
    resource: "PullRequestReviewComment",
    params: repoParams,
    query: listQuery,
    tool: { name: "list_repository_review_comments", description: "List inline review comments across a repository's pull requests." },
    handler(ctx, { query }) {
      const repo = requireRepo(ctx);
      const page = pageOf(ctx);
      const since = queryTime(query.since ?? null, "PullRequestReviewComment", "since");
      const { rows, total } = listReviewComments(ctx.db, repo.id, since ? { since } : {}, order(query), page.limit, page.offset);
      const v = new View(ctx);
      return paged(
        ctx,
        rows.map((c) => reviewCommentObject(v, repo, c)),
        page,
        total,
        repo.id,
      );
    },
  }),
  route({
    method: "GET",
    pattern: "/repos/:owner/:repo/pulls/comments/:comment_id",
    operation: "pulls.getReviewComment",
    summary: "Get a review comment for a pull request",
    params: commentParams,
    tool: { name: "get_review_comment", description: "Get one inline review comment on a pull request's diff." },
    handler(ctx, { params }) {
      const repo = requireRepo(ctx);
      return ok(reviewCommentObject(new View(ctx), repo, requireReviewComment(ctx.db, repo.id, String(params.comment_id))));
    },
  }),
  route({
    method: "PATCH",
    pattern: "/repos/:owner/:repo/pulls/comments/:comment_id",
    operation: "pulls.updateReviewComment",
    summary: "Update a review comment for a pull request",
    resource: "PullRequestReviewComment",
    params: commentParams,
    body: { body: commentText },
    tool: { name: "update_review_comment", description: "Edit an inline review comment's text." },
    handler(ctx, { params, body }) {
      const repo = requireWritableRepo(ctx);
      const comment = requireReviewComment(ctx.db, repo.id, String(params.comment_id));
      const s = storeOf(ctx);
      ctx.db.run("UPDATE gh_review_comments SET body = ?, updated_at = ? WHERE id = ?", body.body, s.now, comment.id);
      return ok(reviewCommentObject(new View(ctx), repo, { ...comment, body: body.body, updated_at: s.now }));
    },
  }),
  route({
    method: "DELETE",
    pattern: "/repos/:owner/:repo/pulls/comments/:comment_id",
    operation: "pulls.deleteReviewComment",
    summary: "Delete a review comment for a pull request",
    params: commentParams,
    tool: { name: "delete_review_comment", description: "Delete an inline review comment." },
    handler(ctx, { params }) {
      const repo = requireWritableRepo(ctx);
      const comment = requireReviewComment(ctx.db, repo.id, String(params.comment_id));
      ctx.db.run("DELETE FROM gh_review_comments WHERE id = ?", comment.id);
      ctx.db.run("DELETE FROM gh_reactions WHERE subject = 'review_comment' AND subject_id = ?", comment.id);
      if (comment.in_reply_to_id === null) keepThread(ctx, comment);
      return ghNoContent();
    },
  }),
  ...reactionRoutes({
    base: "/repos/:owner/:repo/pulls/comments/:comment_id",
    names: {
      list: "reactions.listForPullRequestReviewComment",
      create: "reactions.createForPullRequestReviewComment",
      delete: "reactions.deleteForPullRequestComment",
    },
    idArg: "comment_id",
    kind: "review_comment",
    subjectOf: (ctx, repo, id) => ({ subject: "review_comment", id: requireReviewComment(ctx.db, repo.id, String(id)).id }),
  }),
  route({
    method: "GET",
    pattern: "/repos/:owner/:repo/pulls/:pull_number/comments",
    operation: "pulls.listReviewComments",
    summary: "List review comments on a pull request",
    resource: "PullRequestReviewComment",
    params: pullParams,
    query: listQuery,
    tool: { name: "list_review_comments", description: "List the inline review comments on a pull request." },
    handler(ctx, { params, query }) {
      const repo = requireRepo(ctx);
      const pull = requirePull(ctx.db, repo.id, params.pull_number);
      const page = pageOf(ctx);
      const since = queryTime(query.since ?? null, "PullRequestReviewComment", "since");
      const where = { pull: pull.number, ...(since ? { since } : {}) };
      const { rows, total } = listReviewComments(ctx.db, repo.id, where, order(query), page.limit, page.offset);
      const v = new View(ctx);
      return paged(
        ctx,
        rows.map((c) => reviewCommentObject(v, repo, c)),
        page,
        total,
        repo.id,
      );
    },
  }),
  route({
    method: "POST",
    pattern: "/repos/:owner/:repo/pulls/:pull_number/comments",
    operation: "pulls.createReviewComment",
    summary: "Create a review comment for a pull request",
    resource: "PullRequestReviewComment",
    params: pullParams,
    // commit_id and path are required unless the comment is a reply (`in_reply_to`); the handler says so.
    body: {
      body: commentText,
      commit_id: z.string().optional().describe("The pull request's head SHA (required unless in_reply_to is given)"),
      path: z.string().optional().describe("The file's path in the pull request (required unless in_reply_to is given)"),
      line: z.number().int().nullable().optional().describe("The line of the diff the comment is on"),
      side: side.optional().describe("RIGHT (new code, default) or LEFT (removed code)"),
      start_line: z.number().int().nullable().optional().describe("First line of a multi-line comment"),
      start_side: side.optional().describe("The side of start_line"),
      subject_type: z.enum(["line", "file"]).optional().describe('"file" comments on the whole file'),
      position: z.number().int().nullable().optional().describe("Deprecated: a line index in the file's patch; use line"),
      in_reply_to: z.number().int().nullable().optional().describe("The id of a review comment to reply to"),
    },
    tool: {
      name: "create_review_comment",
      description: "Comment on a line (or lines) of a pull request's diff. commit_id is the pull request's head SHA.",
    },
    handler(ctx, { params, body }) {
      const repo = requireWritableRepo(ctx);
      const pull = requirePull(ctx.db, repo.id, params.pull_number);
      if (body.in_reply_to !== undefined && body.in_reply_to !== null) {
        const parent = requireReviewComment(ctx.db, repo.id, String(body.in_reply_to));
        if (parent.pull_number !== pull.number) fail(ghNotFound());
        const reply = replyTo(storeOf(ctx), pull, parent, body.body);
        return ok(reviewCommentObject(new View(ctx), repo, reply), 201);
      }
      const commitId = (body.commit_id ?? notSupplied("commit_id")).toLowerCase();
      if (!findCommit(ctx.db, repo.id, commitId))
        fail(
          ghError(422, "Validation Failed", { errors: [{ resource: "PullRequestReviewComment", code: "invalid", field: "commit_id" }] }),
        );
      const comment = createComment(ctx, repo, pull, body);
      return ok(reviewCommentObject(new View(ctx), repo, comment), 201);
    },
  }),
  route({
    method: "POST",
    pattern: "/repos/:owner/:repo/pulls/:pull_number/comments/:comment_id/replies",
    operation: "pulls.createReplyForReviewComment",
    summary: "Create a reply for a review comment",
    resource: "PullRequestReviewComment",
    params: { ...pullParams, comment_id: commentId.describe("The id of the review comment replied to") },
    body: { body: commentText },
    tool: { name: "reply_to_review_comment", description: "Reply in the thread of an inline review comment." },
    handler(ctx, { params, body }) {
      const repo = requireWritableRepo(ctx);
      const pull = requirePull(ctx.db, repo.id, params.pull_number);
      const parent = requireReviewComment(ctx.db, repo.id, String(params.comment_id));
      if (parent.pull_number !== pull.number) fail(ghNotFound());
      const reply = replyTo(storeOf(ctx), pull, parent, body.body);
      return ok(reviewCommentObject(new View(ctx), repo, reply), 201);
    },
  }),
  route({
    method: "GET",
    pattern: "/repos/:owner/:repo/pulls/:pull_number/reviews/:review_id/comments",
    operation: "pulls.listCommentsForReview",
    summary: "List comments for a pull request review",
    params: { ...pullParams, review_id: z.number().int().positive().describe("The review's id (from list_reviews)") },
    query: pageQuery,
    tool: { name: "list_review_comments_of_review", description: "List the inline comments of one review." },
    handler(ctx, { params }) {
      const repo = requireRepo(ctx);
      const pull = requirePull(ctx.db, repo.id, params.pull_number);
      const review = requireReview(ctx.db, pull, String(params.review_id), storeOf(ctx).actor);
      const page = pageOf(ctx);
      const { rows, total } = listReviewComments(
        ctx.db,
        repo.id,
        { review: review.id },
        { sort: "created", direction: "asc" },
        page.limit,
        page.offset,
      );
      const v = new View(ctx);
      return paged(
        ctx,
        rows.map((c) => reviewCommentObject(v, repo, c)),
        page,
        total,
        repo.id,
      );
    },
  }),
  route({
    method: "PUT",
    pattern: "/repos/:owner/:repo/pulls/:pull_number/update-branch",
    operation: "pulls.updateBranch",
    summary: "Update a pull request branch",
    params: pullParams,
    body: { expected_head_sha: z.string().optional().describe("Refuse unless the head is still this SHA") },
    tool: { name: "update_pull_request_branch", description: "Merge the base branch's new commits into a pull request's head branch." },
    handler: (ctx, { params, body }) => updateBranch(ctx, params.pull_number, body.expected_head_sha),
  }),
];

/** The inline comments of a review being created, each checked against the diff before any is written. */
export function reviewCommentsOf(ctx: TwinContext, pull: IssueRow, value: unknown): (Anchor & { body: string })[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) return invalidRequest(`For 'properties/comments', ${JSON.stringify(value)} is not an array.`);
  return value.map((entry) => {
    if (!isBody(entry)) return invalidRequest(`For 'items', ${JSON.stringify(entry)} is not an object.`);
    const text = optString(entry, "body") ?? notSupplied("body");
    const anchor = resolvePosition(ctx, pull, readAnchor(entry));
    locate(ctx.db, pull, anchor);
    return { ...anchor, body: text };
  });
}

/** Writes a review's inline comments under it. */
export function writeReviewComments(ctx: TwinContext, pull: IssueRow, reviewId: number, comments: readonly (Anchor & { body: string })[]) {
  const s = storeOf(ctx);
  for (const c of comments) insertReviewComment(s, pull, { ...c, review_id: reviewId }, locate(ctx.db, pull, c));
}
