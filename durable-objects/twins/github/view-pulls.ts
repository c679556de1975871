// Pull-request shapes: the list form (pull-request-simple) and the full form GitHub returns for
// a single pull request (merge state, diff stats), plus reviews.
import type { Db } from "../types";
import { findUser, type RepoRow } from "./repos";
import { nodeId, type View } from "./serialize";
import { blobContent } from "./store/git";
import { diffLines } from "./store/diff";
import { comparePull, pullBaseSha, pullCommits, pullFiles, pullHeadSha } from "./store/merge";
import { mergeability, requestedReviewers } from "./store/pulls";
import { requestedTeams } from "./store/team-reviews";
import { teamObject, teamSimple } from "./view-orgs";
import type { IssueRow, ReviewRow } from "./store/rows";
import { combinedState, latestStatuses } from "./store/statuses";
import type { IssueExtras } from "./store/issue-extras";
import { labelObject, loadExtras, milestoneFor } from "./view-issues";

function branchSide(v: View, r: RepoRow, ref: string, sha: string | null) {
  return { label: `${r.owner}:${ref}`, ref, sha: sha ?? "", user: v.user(r.owner), repo: v.repository(r) };
}

export function pullObject(v: View, r: RepoRow, row: IssueRow, extras?: IssueExtras) {
  const x = extras ?? loadExtras(v, [row]);
  const url = v.repoApi(r, `/pulls/${row.number}`);
  const issueUrl = v.repoApi(r, `/issues/${row.number}`);
  const html = v.repoHtml(r, `/pull/${row.number}`);
  const headSha = pullHeadSha(v.ctx.db, row);
  const statusesUrl = v.repoApi(r, `/statuses/${headSha ?? ""}`);
  const assignees = (x.assignees.get(row.id) ?? []).map((a) => v.user(a));
  return {
    url,
    id: row.id,
    node_id: nodeId("PullRequest", row.id),
    html_url: html,
    diff_url: `${html}.diff`,
    patch_url: `${html}.patch`,
    issue_url: issueUrl,
    number: row.number,
    state: row.state,
    locked: row.locked === 1,
    title: row.title,
    user: v.user(row.user),
    body: row.body,
    created_at: row.created_at,
    updated_at: row.updated_at,
    closed_at: row.closed_at,
    merged_at: row.merged_at,
    merge_commit_sha: row.merge_commit_sha,
    assignee: assignees[0] ?? null,
    assignees,
    requested_reviewers: requestedReviewers(row).map((l) => v.user(l)),
    requested_teams: requestedTeamObjects(v, row),
    labels: (x.labels.get(row.id) ?? []).map((l) => labelObject(v, r, l)),
    milestone: milestoneFor(v, r, row.milestone),
    draft: row.draft === 1,
    commits_url: `${url}/commits`,
    review_comments_url: `${url}/comments`,
    review_comment_url: v.repoApi(r, "/pulls/comments{/number}"),
    comments_url: `${issueUrl}/comments`,
    statuses_url: statusesUrl,
    head: branchSide(v, r, row.head ?? "", headSha),
    base: branchSide(v, r, row.base ?? "", pullBaseSha(v.ctx.db, row)),
    _links: {
      self: { href: url },
      html: { href: html },
      issue: { href: issueUrl },
      comments: { href: `${issueUrl}/comments` },
      review_comments: { href: `${url}/comments` },
      review_comment: { href: v.repoApi(r, "/pulls/comments{/number}") },
      commits: { href: `${url}/commits` },
      statuses: { href: statusesUrl },
    },
    author_association: v.authorAssociation(r, row.user),
    auto_merge: null,
    active_lock_reason: row.active_lock_reason,
  };
}

/** The size of a pull request's change: lines added and deleted, files changed (REST and GraphQL). */
export function changeSize(db: Db, row: IssueRow): { additions: number; deletions: number; files: number } {
  const comparison = comparePull(db, row);
  const files = comparison ? pullFiles(comparison) : [];
  let additions = 0;
  let deletions = 0;
  for (const f of files) {
    const d = diffLines(
      f.previous_blob_sha ? (blobContent(db, f.previous_blob_sha) ?? "") : "",
      f.blob_sha ? (blobContent(db, f.blob_sha) ?? "") : "",
    );
    additions += d.additions;
    deletions += d.deletions;
  }
  return { additions, deletions, files: files.length };
}

/** The single pull request: merge state and the size of its change. */
export function fullPullObject(v: View, r: RepoRow, row: IssueRow) {
  const db = v.ctx.db;
  const { additions, deletions, files: changed } = changeSize(db, row);
  const merge = mergeability(db, row, () => {
    const head = pullHeadSha(db, row);
    return head ? combinedState(latestStatuses(db, r.id, head)) : "pending";
  });
  return {
    ...pullObject(v, r, row),
    // The full form's requested teams are `team-simple` (no parent); the list form's are `team`
    // (pull-request vs pull-request-simple in @octokit/openapi's api.github.com.json).
    requested_teams: requestedTeamObjects(v, row, teamSimple),
    merged: row.merged === 1,
    mergeable: merge.mergeable,
    rebaseable: merge.mergeable,
    mergeable_state: merge.mergeable_state,
    merged_by: v.maybeUser(row.merged_by),
    comments: row.comment_count,
    review_comments: 0,
    maintainer_can_modify: false,
    commits: pullCommits(db, row).length,
    additions,
    deletions,
    changed_files: changed,
  };
}

export function reviewObject(v: View, r: RepoRow, pull: IssueRow, review: ReviewRow) {
  const html = v.repoHtml(r, `/pull/${pull.number}#pullrequestreview-${review.id}`);
  const pullUrl = v.repoApi(r, `/pulls/${pull.number}`);
  return {
    id: review.id,
    node_id: nodeId("PullRequestReview", review.id),
    user: v.user(review.user),
    body: review.body,
    state: review.state,
    html_url: html,
    pull_request_url: pullUrl,
    author_association: v.authorAssociation(r, review.user),
    _links: { html: { href: html }, pull_request: { href: pullUrl } },
    // A pending review has not been submitted; GitHub leaves the field out.
    ...(review.submitted_at ? { submitted_at: review.submitted_at } : {}),
    commit_id: review.commit_id ?? pullHeadSha(v.ctx.db, pull),
  };
}

export function requestedReviewersObject(v: View, pull: IssueRow) {
  // `teams` are `team` objects (with their parent), as are a pull request's `requested_teams`.
  const orgId = findUser(v.ctx, v.repoRow(pull.repo_id)?.owner ?? "")?.id ?? 0;
  return {
    users: requestedReviewers(pull).map((l) => v.user(l)),
    teams: requestedTeams(v.ctx.db, pull.id).map((t) => teamObject(v, t, orgId)),
  };
}

/** The teams asked to review a pull request: `team` (with its parent) unless told otherwise. */
function requestedTeamObjects(v: View, pull: IssueRow, shape: typeof teamObject | typeof teamSimple = teamObject) {
  const teams = requestedTeams(v.ctx.db, pull.id);
  if (!teams.length) return [];
  const orgId = findUser(v.ctx, teams[0]?.org ?? "")?.id ?? 0;
  return teams.map((t) => shape(v, t, orgId));
}
