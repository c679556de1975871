// Review threads and review comments (PullRequestReviewThread, PullRequestReviewComment) and the
// mutations agents use on them, over the rows REST's pull-request review comments are: a thread
// made here is listed by pulls.listReviewComments, and a comment made there starts a thread here.
// Shapes: @octokit/graphql-schema (PullRequestReviewThread, AddPullRequestReviewThreadInput…).
import type { RepoRow } from "../../repos";
import { nextNodeId } from "../../serialize";
import { findIssue } from "../../store/issues";
import {
  type Anchor,
  type ReviewCommentRow,
  type Side,
  insertReviewComment,
  locate,
  replyTo,
  soloReview,
} from "../../store/review-comments";
import { isOutdated, listThreads, setResolved, threadComments } from "../../store/review-threads";
import type { IssueRow, ReviewRow } from "../../store/rows";
import { type PageArgs, connectionOf } from "../connection";
import type { Gql, IssueSource, ReviewCommentSource, ReviewSource, Resolvers, ThreadSource } from "../context";
import { notFound } from "../errors";
import { actorSource, issueByNumber, maybeActor, nodeSource, repositorySource } from "../sources";
import { commitSource } from "../sources";
import { type Mutation, done } from "./payload";
import { invalid, issueTarget, reviewTarget, writable } from "./targets";

const WEB = "https://github.com";

export const threadSource = (repo: RepoRow, row: ReviewCommentRow): ThreadSource => ({ __typename: "PullRequestReviewThread", repo, row });
export const reviewCommentSource = (repo: RepoRow, row: ReviewCommentRow): ReviewCommentSource => ({
  __typename: "PullRequestReviewComment",
  repo,
  row,
});

const pullOf = (gql: Gql, repo: RepoRow, row: ReviewCommentRow) => findIssue(gql.ctx.db, repo.id, row.pull_number) as IssueRow;

/** PullRequest.reviewThreads: the pull request's threads, oldest first. */
export function reviewThreadConnection(gql: Gql, s: IssueSource, a: PageArgs) {
  const total = listThreads(gql.ctx.db, s.repo.id, s.row.number, 0, 0).total;
  return connectionOf(a, total, (limit, offset) =>
    listThreads(gql.ctx.db, s.repo.id, s.row.number, limit, offset).rows.map((row) => threadSource(s.repo, row)),
  );
}

/** PullRequestReview.comments: the review's inline comments, oldest first. */
export function reviewCommentConnection(gql: Gql, r: ReviewSource, a: PageArgs) {
  const sql = "FROM gh_review_comments WHERE review_id = ?";
  const total = gql.ctx.db.one<{ n: number }>(`SELECT count(*) AS n ${sql}`, r.row.id)?.n ?? 0;
  return connectionOf(a, total, (limit, offset) =>
    gql.ctx.db
      .all<ReviewCommentRow>(`SELECT * ${sql} ORDER BY id LIMIT ? OFFSET ?`, r.row.id, limit, offset)
      .map((row) => reviewCommentSource(r.repo, row)),
  );
}

const reviewOf = (gql: Gql, id: number | null) =>
  id === null ? undefined : gql.ctx.db.one<ReviewRow>("SELECT * FROM gh_reviews WHERE id = ?", id);

const discussionPath = (c: { repo: RepoRow; row: ReviewCommentRow }) =>
  `/${c.repo.owner}/${c.repo.name}/pull/${c.row.pull_number}#discussion_r${c.row.id}`;

export const threadResolvers: Resolvers = {
  PullRequestReviewThread: {
    id: (t: ThreadSource) => nextNodeId("PRRT", t.repo.id, t.row.id),
    isResolved: (t: ThreadSource) => t.row.resolved_by !== null,
    // GitHub folds a resolved thread away.
    isCollapsed: (t: ThreadSource) => t.row.resolved_by !== null,
    isOutdated: (t: ThreadSource, _a: unknown, gql: Gql) => isOutdated(gql.ctx.db, pullOf(gql, t.repo, t.row), t.row),
    path: (t: ThreadSource) => t.row.path,
    line: (t: ThreadSource) => t.row.line,
    startLine: (t: ThreadSource) => t.row.start_line,
    originalLine: (t: ThreadSource) => t.row.line,
    originalStartLine: (t: ThreadSource) => t.row.start_line,
    diffSide: (t: ThreadSource) => t.row.side ?? "RIGHT",
    startDiffSide: (t: ThreadSource) => t.row.start_side,
    subjectType: (t: ThreadSource) => t.row.subject_type.toUpperCase(),
    resolvedBy: (t: ThreadSource, _a: unknown, gql: Gql) => maybeActor(gql, t.row.resolved_by),
    // The sandbox's user holds admin permission on every repository of the world.
    viewerCanResolve: (t: ThreadSource) => t.row.resolved_by === null && !t.repo.archived,
    viewerCanUnresolve: (t: ThreadSource) => t.row.resolved_by !== null && !t.repo.archived,
    viewerCanReply: (t: ThreadSource) => !t.repo.archived,
    pullRequest: (t: ThreadSource, _a: unknown, gql: Gql) => issueByNumber(gql, t.repo, t.row.pull_number),
    repository: (t: ThreadSource) => repositorySource(t.repo),
    comments: (t: ThreadSource, a: PageArgs, gql: Gql) => {
      const total = threadComments(gql.ctx.db, t.row, 0, 0).total;
      return connectionOf(a, total, (limit, offset) =>
        threadComments(gql.ctx.db, t.row, limit, offset).rows.map((row) => reviewCommentSource(t.repo, row)),
      );
    },
  },
  PullRequestReviewComment: {
    id: (c: ReviewCommentSource) => nextNodeId("PRRC", c.repo.id, c.row.id),
    databaseId: (c: ReviewCommentSource) => c.row.id,
    body: (c: ReviewCommentSource) => c.row.body,
    author: (c: ReviewCommentSource, _a: unknown, gql: Gql) => actorSource(gql, c.row.user),
    createdAt: (c: ReviewCommentSource) => c.row.created_at,
    updatedAt: (c: ReviewCommentSource) => c.row.updated_at,
    publishedAt: (c: ReviewCommentSource, _a: unknown, gql: Gql) =>
      reviewOf(gql, c.row.review_id)?.state === "PENDING" ? null : c.row.created_at,
    url: (c: ReviewCommentSource) => `${WEB}${discussionPath(c)}`,
    resourcePath: (c: ReviewCommentSource) => discussionPath(c),
    path: (c: ReviewCommentSource) => c.row.path,
    line: (c: ReviewCommentSource) => c.row.line,
    startLine: (c: ReviewCommentSource) => c.row.start_line,
    originalLine: (c: ReviewCommentSource) => c.row.line,
    originalStartLine: (c: ReviewCommentSource) => c.row.start_line,
    diffHunk: (c: ReviewCommentSource) => c.row.diff_hunk,
    outdated: (c: ReviewCommentSource, _a: unknown, gql: Gql) => isOutdated(gql.ctx.db, pullOf(gql, c.repo, c.row), c.row),
    state: (c: ReviewCommentSource, _a: unknown, gql: Gql) =>
      reviewOf(gql, c.row.review_id)?.state === "PENDING" ? "PENDING" : "SUBMITTED",
    subjectType: (c: ReviewCommentSource) => c.row.subject_type.toUpperCase(),
    commit: (c: ReviewCommentSource, _a: unknown, gql: Gql) => commitSource(c.repo, c.row.commit_id, gql) ?? null,
    originalCommit: (c: ReviewCommentSource, _a: unknown, gql: Gql) => commitSource(c.repo, c.row.commit_id, gql) ?? null,
    pullRequest: (c: ReviewCommentSource, _a: unknown, gql: Gql) => issueByNumber(gql, c.repo, c.row.pull_number),
    pullRequestReview: (c: ReviewCommentSource, _a: unknown, gql: Gql) => {
      const row = reviewOf(gql, c.row.review_id);
      return row ? { __typename: "PullRequestReview", repo: c.repo, row } : null;
    },
    replyTo: (c: ReviewCommentSource, _a: unknown, gql: Gql) => {
      if (c.row.in_reply_to_id === null) return null;
      const row = gql.ctx.db.one<ReviewCommentRow>("SELECT * FROM gh_review_comments WHERE id = ?", c.row.in_reply_to_id);
      return row ? reviewCommentSource(c.repo, row) : null;
    },
    repository: (c: ReviewCommentSource) => repositorySource(c.repo),
    viewerDidAuthor: (c: ReviewCommentSource, _a: unknown, gql: Gql) => c.row.user.toLowerCase() === gql.view.actor.toLowerCase(),
  },
};

const unresolved = (id: string) => notFound(`Could not resolve to a node with the global id of '${id}'`);

function threadTarget(gql: Gql, id: string): ThreadSource {
  const found = nodeSource(gql, id);
  if (found?.__typename !== "PullRequestReviewThread") throw unresolved(id);
  writable(found.repo);
  return found;
}

/** The caller's pending review of the pull request, named by id; refused unless it is one. */
function pendingReview(gql: Gql, id: string, pull: IssueRow): ReviewRow {
  const review = reviewTarget(gql, id).row;
  if (review.repo_id !== pull.repo_id || review.pull_number !== pull.number) throw unresolved(id);
  if (review.state !== "PENDING") throw invalid("Review is not pending.");
  return review;
}

interface AddThread extends Mutation {
  body: string;
  path: string;
  line?: number | null;
  side?: Side | null;
  startLine?: number | null;
  startSide?: Side | null;
  subjectType?: "LINE" | "FILE" | null;
  pullRequestId?: string | null;
  pullRequestReviewId?: string | null;
}

export const threadMutations = {
  addPullRequestReviewThread: (_s: unknown, { input }: { input: AddThread }, gql: Gql) => {
    let pull: IssueSource | undefined = input.pullRequestId ? issueTarget(gql, input.pullRequestId, ["PullRequest"]) : undefined;
    let review: ReviewRow | undefined;
    if (input.pullRequestReviewId) {
      const found = reviewTarget(gql, input.pullRequestReviewId);
      const row = findIssue(gql.ctx.db, found.repo.id, found.row.pull_number);
      if (row) pull ??= { __typename: "PullRequest", repo: writable(found.repo), row };
      if (pull) review = pendingReview(gql, input.pullRequestReviewId, pull.row);
    }
    if (!pull) throw invalid("A pull request or a pending review of one must be given.");
    const store = gql.store();
    // Without a review named, the thread joins the caller's pending review when there is one,
    // and is published on its own (a COMMENTED review, as REST's single comment) when not.
    review ??= gql.ctx.db.one<ReviewRow>(
      "SELECT * FROM gh_reviews WHERE repo_id = ? AND pull_number = ? AND state = 'PENDING' AND user = ? COLLATE NOCASE",
      pull.repo.id,
      pull.row.number,
      store.actor,
    );
    const subject_type = input.subjectType === "FILE" ? "file" : "line";
    const anchor: Anchor = {
      path: input.path,
      subject_type,
      ...(subject_type === "line" && typeof input.line === "number" ? { line: input.line, side: input.side ?? "RIGHT" } : {}),
      ...(subject_type === "line" && typeof input.startLine === "number"
        ? { start_line: input.startLine, start_side: input.startSide ?? "RIGHT" }
        : {}),
    };
    if (!input.body.trim()) throw invalid("Body can't be blank");
    // Everything that can refuse runs before the first write.
    const at = locate(gql.ctx.db, pull.row, anchor);
    const reviewId = review?.id ?? soloReview(store, pull.row);
    const row = insertReviewComment(store, pull.row, { ...anchor, body: input.body, review_id: reviewId }, at);
    return done(input, { thread: threadSource(pull.repo, row) });
  },
  addPullRequestReviewThreadReply: (
    _s: unknown,
    { input }: { input: Mutation & { body: string; pullRequestReviewThreadId: string; pullRequestReviewId?: string | null } },
    gql: Gql,
  ) => {
    const thread = threadTarget(gql, input.pullRequestReviewThreadId);
    const pull = pullOf(gql, thread.repo, thread.row);
    const review = input.pullRequestReviewId ? pendingReview(gql, input.pullRequestReviewId, pull) : undefined;
    if (!input.body.trim()) throw invalid("Body can't be blank");
    const row = replyTo(gql.store(), pull, thread.row, input.body, review?.id);
    return done(input, { comment: reviewCommentSource(thread.repo, row) });
  },
  resolveReviewThread: (_s: unknown, { input }: { input: Mutation & { threadId: string } }, gql: Gql) => {
    const thread = threadTarget(gql, input.threadId);
    const row = thread.row.resolved_by === null ? setResolved(gql.store(), thread.row, true) : thread.row;
    return done(input, { thread: threadSource(thread.repo, row) });
  },
  unresolveReviewThread: (_s: unknown, { input }: { input: Mutation & { threadId: string } }, gql: Gql) => {
    const thread = threadTarget(gql, input.threadId);
    const row = thread.row.resolved_by !== null ? setResolved(gql.store(), thread.row, false) : thread.row;
    return done(input, { thread: threadSource(thread.repo, row) });
  },
};
