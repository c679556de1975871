// Issues and pull requests, and what hangs off them: comments, labels, assignees, milestones,
// reviews and review requests, over the same rows the REST answers serialize.
import type { SqlValue } from "../../../types";
import type { RepoRow } from "../../repos";
import { issueAssignees } from "../../store/assignees";
import { listComments } from "../../store/comments";
import { issueLabels } from "../../store/labels";
import { pullBaseSha, pullHeadSha } from "../../store/merge";
import { findMilestone } from "../../store/milestones";
import { mergeability, requestedReviewers } from "../../store/pulls";
import { requestedTeams } from "../../store/team-reviews";
import type { ReviewRow } from "../../store/rows";
import { combinedState, latestStatuses } from "../../store/statuses";
import { type PageArgs, connectionOf, connectionOfList } from "../connection";
import type {
  CommentSource,
  Gql,
  IssueSource,
  LabelSource,
  MilestoneSource,
  Resolvers,
  ReviewRequestSource,
  ReviewSource,
} from "../context";
import { nodeId } from "../ids";
import { actorSource, issueByNumber, maybeActor, repositorySource } from "../sources";
import { commentActivity, issueActivity, pullActivity, reviewActivity } from "./activity";
import { branchRef } from "./git";
import { commitSource } from "../sources";
import { labelSource, milestoneSource } from "./repository";
import { reviewCommentConnection, reviewThreadConnection } from "./review-threads";
import { changeSize } from "../../view-pulls";

const WEB = "https://github.com";
const repoPath = (repo: RepoRow) => `/${repo.owner}/${repo.name}`;
const issuePath = (s: IssueSource) => `${repoPath(s.repo)}/${s.row.is_pull ? "pull" : "issues"}/${s.row.number}`;

export const commentSource = (repo: RepoRow, row: CommentSource["row"]): CommentSource => ({ __typename: "IssueComment", repo, row });
export const reviewSource = (repo: RepoRow, row: ReviewRow): ReviewSource => ({ __typename: "PullRequestReview", repo, row });

/** What issues and pull requests share. */
const shared = {
  id: (s: IssueSource) => nodeId(s.__typename, s.row.id),
  databaseId: (s: IssueSource) => s.row.id,
  body: (s: IssueSource) => s.row.body ?? "",
  url: (s: IssueSource) => `${WEB}${issuePath(s)}`,
  resourcePath: (s: IssueSource) => issuePath(s),
  createdAt: (s: IssueSource) => s.row.created_at,
  updatedAt: (s: IssueSource) => s.row.updated_at,
  closedAt: (s: IssueSource) => s.row.closed_at,
  closed: (s: IssueSource) => s.row.state === "closed",
  locked: (s: IssueSource) => s.row.locked === 1,
  author: (s: IssueSource, _a: unknown, gql: Gql) => actorSource(gql, s.row.user),
  repository: (s: IssueSource) => repositorySource(s.repo),
  milestone: (s: IssueSource, _a: unknown, gql: Gql) => {
    const row = s.row.milestone === null ? undefined : findMilestone(gql.ctx.db, s.repo.id, s.row.milestone);
    return row ? milestoneSource(s.repo, row) : null;
  },
  labels: (s: IssueSource, a: PageArgs, gql: Gql) =>
    connectionOfList(
      a,
      issueLabels(gql.ctx.db, s.row.id).map((row) => labelSource(s.repo, row)),
    ),
  assignees: (s: IssueSource, a: PageArgs, gql: Gql) =>
    connectionOfList(
      a,
      issueAssignees(gql.ctx.db, s.row.id).map((login) => actorSource(gql, login)),
    ),
  comments: (s: IssueSource, a: PageArgs, gql: Gql) =>
    connectionOf(a, s.row.comment_count, (limit, offset) =>
      listComments(gql.ctx.db, s.repo.id, { issueNumber: s.row.number, limit, offset }).rows.map((row) => commentSource(s.repo, row)),
    ),
  viewerCanClose: () => true,
  viewerCanReopen: () => true,
};

/** A pull request's reviews, oldest first; pending reviews are their author's alone. */
function reviewConnection(gql: Gql, s: IssueSource, a: PageArgs & { states?: readonly string[] | null; author?: string | null }) {
  const where = ["repo_id = ?", "pull_number = ?", "(state != 'PENDING' OR user = ? COLLATE NOCASE)"];
  const params: SqlValue[] = [s.repo.id, s.row.number, gql.view.actor];
  if (a.states?.length) {
    where.push("state IN (SELECT value FROM json_each(?))");
    params.push(JSON.stringify(a.states));
  }
  if (a.author) {
    where.push("user = ? COLLATE NOCASE");
    params.push(a.author);
  }
  const sql = `FROM gh_reviews WHERE ${where.join(" AND ")}`;
  const total = gql.ctx.db.one<{ n: number }>(`SELECT count(*) AS n ${sql}`, ...params)?.n ?? 0;
  return connectionOf(a, total, (limit, offset) =>
    gql.ctx.db
      .all<ReviewRow>(`SELECT * ${sql} ORDER BY id LIMIT ? OFFSET ?`, ...params, limit, offset)
      .map((row) => reviewSource(s.repo, row)),
  );
}

export const issueResolvers: Resolvers = {
  Issue: {
    ...shared,
    ...issueActivity,
    number: (s: IssueSource) => s.row.number,
    title: (s: IssueSource) => s.row.title,
    state: (s: IssueSource) => (s.row.state === "open" ? "OPEN" : "CLOSED"),
    stateReason: (s: IssueSource) => s.row.state_reason?.toUpperCase() ?? null,
  },
  PullRequest: {
    ...shared,
    ...pullActivity,
    number: (s: IssueSource) => s.row.number,
    title: (s: IssueSource) => s.row.title,
    state: (s: IssueSource) => (s.row.merged ? "MERGED" : s.row.state === "open" ? "OPEN" : "CLOSED"),
    permalink: (s: IssueSource) => `${WEB}${issuePath(s)}`,
    merged: (s: IssueSource) => s.row.merged === 1,
    mergedAt: (s: IssueSource) => s.row.merged_at,
    mergedBy: (s: IssueSource, _a: unknown, gql: Gql) => maybeActor(gql, s.row.merged_by),
    isDraft: (s: IssueSource) => s.row.draft === 1,
    headRefName: (s: IssueSource) => s.row.head ?? "",
    baseRefName: (s: IssueSource) => s.row.base ?? "",
    headRefOid: (s: IssueSource, _a: unknown, gql: Gql) => pullHeadSha(gql.ctx.db, s.row) ?? "",
    baseRefOid: (s: IssueSource, _a: unknown, gql: Gql) => pullBaseSha(gql.ctx.db, s.row) ?? "",
    headRef: (s: IssueSource, _a: unknown, gql: Gql) => (s.row.head ? (branchRef(gql, s.repo, s.row.head) ?? null) : null),
    baseRef: (s: IssueSource, _a: unknown, gql: Gql) => (s.row.base ? (branchRef(gql, s.repo, s.row.base) ?? null) : null),
    mergeable: (s: IssueSource, _a: unknown, gql: Gql) => {
      if (s.row.state !== "open") return "UNKNOWN";
      const m = mergeability(gql.ctx.db, s.row, () => {
        const sha = pullHeadSha(gql.ctx.db, s.row);
        return sha ? combinedState(latestStatuses(gql.ctx.db, s.repo.id, sha)) : "pending";
      });
      return m.mergeable === null ? "UNKNOWN" : m.mergeable ? "MERGEABLE" : "CONFLICTING";
    },
    // The twin keeps no forks of a pull request's head: head and base are one repository.
    headRepository: (s: IssueSource) => repositorySource(s.repo),
    headRepositoryOwner: (s: IssueSource, _a: unknown, gql: Gql) => actorSource(gql, s.repo.owner),
    isCrossRepository: () => false,
    maintainerCanModify: () => false,
    additions: (s: IssueSource, _a: unknown, gql: Gql) => changeSize(gql.ctx.db, s.row).additions,
    deletions: (s: IssueSource, _a: unknown, gql: Gql) => changeSize(gql.ctx.db, s.row).deletions,
    changedFiles: (s: IssueSource, _a: unknown, gql: Gql) => changeSize(gql.ctx.db, s.row).files,
    mergeCommit: (s: IssueSource, _a: unknown, gql: Gql) =>
      s.row.merge_commit_sha ? (commitSource(s.repo, s.row.merge_commit_sha, gql) ?? null) : null,
    reviews: (s: IssueSource, a: PageArgs & { states?: readonly string[] | null; author?: string | null }, gql: Gql) =>
      reviewConnection(gql, s, a),
    reviewThreads: (s: IssueSource, a: PageArgs, gql: Gql) => reviewThreadConnection(gql, s, a),
    // Users asked first, then teams, each in the order asked (as REST's requested_reviewers and requested_teams).
    reviewRequests: (s: IssueSource, a: PageArgs, gql: Gql) =>
      connectionOfList(a, [
        ...requestedReviewers(s.row).map(
          (login): ReviewRequestSource => ({ __typename: "ReviewRequest", repo: s.repo, pull: s.row, login }),
        ),
        ...requestedTeams(gql.ctx.db, s.row.id).map(
          (team): ReviewRequestSource => ({ __typename: "ReviewRequest", repo: s.repo, pull: s.row, login: "", team }),
        ),
      ]),
  },
  IssueComment: {
    ...commentActivity,
    id: (c: CommentSource) => nodeId("IssueComment", c.row.id),
    databaseId: (c: CommentSource) => c.row.id,
    body: (c: CommentSource) => c.row.body,
    author: (c: CommentSource, _a: unknown, gql: Gql) => actorSource(gql, c.row.user),
    createdAt: (c: CommentSource) => c.row.created_at,
    updatedAt: (c: CommentSource) => c.row.updated_at,
    url: (c: CommentSource, _a: unknown, gql: Gql) => {
      const issue = issueByNumber(gql, c.repo, c.row.issue_number);
      return `${WEB}${issue ? issuePath(issue) : repoPath(c.repo)}#issuecomment-${c.row.id}`;
    },
    issue: (c: CommentSource, _a: unknown, gql: Gql) => issueByNumber(gql, c.repo, c.row.issue_number),
  },
  Label: {
    id: (l: LabelSource) => nodeId("Label", l.row.id),
    url: (l: LabelSource) => `${WEB}${repoPath(l.repo)}/labels/${encodeURIComponent(l.row.name)}`,
    resourcePath: (l: LabelSource) => `${repoPath(l.repo)}/labels/${encodeURIComponent(l.row.name)}`,
    isDefault: () => false,
    name: (l: LabelSource) => l.row.name,
    color: (l: LabelSource) => l.row.color,
    description: (l: LabelSource) => l.row.description,
    repository: (l: LabelSource) => repositorySource(l.repo),
  },
  Milestone: {
    id: (m: MilestoneSource) => nodeId("Milestone", m.row.id),
    number: (m: MilestoneSource) => m.row.number,
    title: (m: MilestoneSource) => m.row.title,
    description: (m: MilestoneSource) => m.row.description,
    state: (m: MilestoneSource) => m.row.state.toUpperCase(),
    dueOn: (m: MilestoneSource) => m.row.due_on,
    url: (m: MilestoneSource) => `${WEB}${repoPath(m.repo)}/milestone/${m.row.number}`,
    resourcePath: (m: MilestoneSource) => `${repoPath(m.repo)}/milestone/${m.row.number}`,
    closed: (m: MilestoneSource) => m.row.state === "closed",
    closedAt: (m: MilestoneSource) => m.row.closed_at,
    createdAt: (m: MilestoneSource) => m.row.created_at,
    updatedAt: (m: MilestoneSource) => m.row.updated_at,
    repository: (m: MilestoneSource) => repositorySource(m.repo),
    viewerCanClose: () => true,
    viewerCanReopen: () => true,
  },
  PullRequestReview: {
    ...reviewActivity,
    id: (r: ReviewSource) => nodeId("PullRequestReview", r.row.id),
    databaseId: (r: ReviewSource) => r.row.id,
    body: (r: ReviewSource) => r.row.body,
    state: (r: ReviewSource) => r.row.state,
    author: (r: ReviewSource, _a: unknown, gql: Gql) => actorSource(gql, r.row.user),
    submittedAt: (r: ReviewSource) => r.row.submitted_at,
    createdAt: (r: ReviewSource) => r.row.submitted_at ?? r.repo.created_at,
    url: (r: ReviewSource) => `${WEB}${repoPath(r.repo)}/pull/${r.row.pull_number}#pullrequestreview-${r.row.id}`,
    pullRequest: (r: ReviewSource, _a: unknown, gql: Gql) => issueByNumber(gql, r.repo, r.row.pull_number),
    comments: (r: ReviewSource, a: PageArgs, gql: Gql) => reviewCommentConnection(gql, r, a),
  },
  ReviewRequest: {
    id: (r: ReviewRequestSource) => nodeId("ReviewRequest", r.pull.id),
    requestedReviewer: (r: ReviewRequestSource, _a: unknown, gql: Gql) =>
      r.team ? { __typename: "Team", row: r.team } : { ...actorSource(gql, r.login), __typename: "User" },
    pullRequest: (r: ReviewRequestSource) => ({ __typename: "PullRequest", repo: r.repo, row: r.pull }),
  },
};
