// Pull-request review comments (inline on a line or range of the diff, threads by reply), their
// reactions, and updating a pull request's branch with its base. These routes come before the
// pull-request routes, so `/pulls/comments` is never read as a pull number.
import type { Route, TwinContext } from "../../types";
import { jsonBody, ok, route, storeOf } from "../context";
import { fail, ghError, ghNoContent, ghNotFound } from "../errors";
import { invalidRequest, notSupplied, oneOf, optNumber, optString, queryEnum, queryTime } from "../input";
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

function updateBranch(ctx: TwinContext) {
  const repo = requireWritableRepo(ctx);
  const pull = requirePull(ctx.db, repo.id, ctx.params.pull_number);
  const s = storeOf(ctx);
  const expected = optString(jsonBody(ctx), "expected_head_sha");
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

const order = (ctx: TwinContext) => ({
  sort: queryEnum(ctx.query.get("sort"), ["created", "updated"] as const, "created"),
  direction: queryEnum(ctx.query.get("direction"), ["asc", "desc"] as const, "asc"),
});

export const reviewCommentRoutes: readonly Route[] = [
  route("GET", "/repos/:owner/:repo/pulls/comments", "pulls.listReviewCommentsForRepo", "List review comments in a repository", (ctx) => {
    const repo = requireRepo(ctx);
    const page = pageOf(ctx);
    const since = queryTime(ctx.query.get("since"), "PullRequestReviewComment", "since");
    const { rows, total } = listReviewComments(ctx.db, repo.id, since ? { since } : {}, order(ctx), page.limit, page.offset);
    const v = new View(ctx);
    return paged(
      ctx,
      rows.map((c) => reviewCommentObject(v, repo, c)),
      page,
      total,
      repo.id,
    );
  }),
  route(
    "GET",
    "/repos/:owner/:repo/pulls/comments/:comment_id",
    "pulls.getReviewComment",
    "Get a review comment for a pull request",
    (ctx) => {
      const repo = requireRepo(ctx);
      return ok(reviewCommentObject(new View(ctx), repo, requireReviewComment(ctx.db, repo.id, ctx.params.comment_id)));
    },
  ),
  route(
    "PATCH",
    "/repos/:owner/:repo/pulls/comments/:comment_id",
    "pulls.updateReviewComment",
    "Update a review comment for a pull request",
    (ctx) => {
      const repo = requireWritableRepo(ctx);
      const comment = requireReviewComment(ctx.db, repo.id, ctx.params.comment_id);
      const text = optString(jsonBody(ctx), "body") ?? notSupplied("body");
      const s = storeOf(ctx);
      ctx.db.run("UPDATE gh_review_comments SET body = ?, updated_at = ? WHERE id = ?", text, s.now, comment.id);
      return ok(reviewCommentObject(new View(ctx), repo, { ...comment, body: text, updated_at: s.now }));
    },
  ),
  route(
    "DELETE",
    "/repos/:owner/:repo/pulls/comments/:comment_id",
    "pulls.deleteReviewComment",
    "Delete a review comment for a pull request",
    (ctx) => {
      const repo = requireWritableRepo(ctx);
      const comment = requireReviewComment(ctx.db, repo.id, ctx.params.comment_id);
      ctx.db.run("DELETE FROM gh_review_comments WHERE id = ?", comment.id);
      ctx.db.run("DELETE FROM gh_reactions WHERE subject = 'review_comment' AND subject_id = ?", comment.id);
      return ghNoContent();
    },
  ),
  ...reactionRoutes(
    "/repos/:owner/:repo/pulls/comments/:comment_id",
    {
      list: "reactions.listForPullRequestReviewComment",
      create: "reactions.createForPullRequestReviewComment",
      delete: "reactions.deleteForPullRequestComment",
    },
    (ctx, repo) => ({ subject: "review_comment", id: requireReviewComment(ctx.db, repo.id, ctx.params.comment_id).id }),
  ),
  route(
    "GET",
    "/repos/:owner/:repo/pulls/:pull_number/comments",
    "pulls.listReviewComments",
    "List review comments on a pull request",
    (ctx) => {
      const repo = requireRepo(ctx);
      const pull = requirePull(ctx.db, repo.id, ctx.params.pull_number);
      const page = pageOf(ctx);
      const since = queryTime(ctx.query.get("since"), "PullRequestReviewComment", "since");
      const where = { pull: pull.number, ...(since ? { since } : {}) };
      const { rows, total } = listReviewComments(ctx.db, repo.id, where, order(ctx), page.limit, page.offset);
      const v = new View(ctx);
      return paged(
        ctx,
        rows.map((c) => reviewCommentObject(v, repo, c)),
        page,
        total,
        repo.id,
      );
    },
  ),
  route(
    "POST",
    "/repos/:owner/:repo/pulls/:pull_number/comments",
    "pulls.createReviewComment",
    "Create a review comment for a pull request",
    (ctx) => {
      const repo = requireWritableRepo(ctx);
      const pull = requirePull(ctx.db, repo.id, ctx.params.pull_number);
      const body = jsonBody(ctx);
      const inReplyTo = optNumber(body, "in_reply_to");
      if (inReplyTo !== undefined && inReplyTo !== null) {
        const parent = requireReviewComment(ctx.db, repo.id, String(inReplyTo));
        if (parent.pull_number !== pull.number) fail(ghNotFound());
        const reply = replyTo(storeOf(ctx), pull, parent, optString(body, "body") ?? notSupplied("body"));
        return ok(reviewCommentObject(new View(ctx), repo, reply), 201);
      }
      const commitId = (optString(body, "commit_id") ?? notSupplied("commit_id")).toLowerCase();
      if (!findCommit(ctx.db, repo.id, commitId))
        fail(
          ghError(422, "Validation Failed", { errors: [{ resource: "PullRequestReviewComment", code: "invalid", field: "commit_id" }] }),
        );
      const comment = createComment(ctx, repo, pull, body);
      return ok(reviewCommentObject(new View(ctx), repo, comment), 201);
    },
  ),
  route(
    "POST",
    "/repos/:owner/:repo/pulls/:pull_number/comments/:comment_id/replies",
    "pulls.createReplyForReviewComment",
    "Create a reply for a review comment",
    (ctx) => {
      const repo = requireWritableRepo(ctx);
      const pull = requirePull(ctx.db, repo.id, ctx.params.pull_number);
      const parent = requireReviewComment(ctx.db, repo.id, ctx.params.comment_id);
      if (parent.pull_number !== pull.number) fail(ghNotFound());
      const reply = replyTo(storeOf(ctx), pull, parent, optString(jsonBody(ctx), "body") ?? notSupplied("body"));
      return ok(reviewCommentObject(new View(ctx), repo, reply), 201);
    },
  ),
  route(
    "GET",
    "/repos/:owner/:repo/pulls/:pull_number/reviews/:review_id/comments",
    "pulls.listCommentsForReview",
    "List comments for a pull request review",
    (ctx) => {
      const repo = requireRepo(ctx);
      const pull = requirePull(ctx.db, repo.id, ctx.params.pull_number);
      const review = requireReview(ctx.db, pull, ctx.params.review_id, storeOf(ctx).actor);
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
  ),
  route("PUT", "/repos/:owner/:repo/pulls/:pull_number/update-branch", "pulls.updateBranch", "Update a pull request branch", updateBranch),
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
