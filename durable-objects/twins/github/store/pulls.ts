// Pull requests: rows of gh_issues with is_pull = 1, so they share the issue number space and
// everything issues have (labels, assignees, comments). Merging writes a real commit to the base.
import type { Db } from "../../types";
import { fail, ghError, ghValidationFailed } from "../errors";
import type { RepoRow } from "../repos";
import { assignable } from "./assignees";
import { bool, nextId, type Store } from "./base";
import { recordEvent } from "./events";
import { commitsBetween, findBranch, moveBranch, writeCommit } from "./git";
import { adjustOpenCount, allocateNumber, findIssue, requireIssue, setIssueState, touchIssue } from "./issues";
import { compare, comparePull, mergeTrees, pullCommits, pullHeadSha } from "./merge";
import { protectionRefusal } from "./protection";
import { requestTeamReviews, reviewingTeam } from "./team-reviews";
import type { IssueRow } from "./rows";

export function requirePull(db: Db, repoId: number, number: string | number): IssueRow {
  const row = requireIssue(db, repoId, number);
  return row.is_pull ? row : fail(ghError(404, "Not Found"));
}

const invalid = (field: string) => fail(ghValidationFailed([{ resource: "PullRequest", field, code: "invalid" }]));
const custom = (message: string) => fail(ghValidationFailed([{ resource: "PullRequest", code: "custom", message }]));

/** `branch` or `owner:branch`; forks are not part of the twin's world. */
function headBranch(repo: RepoRow, head: string): string {
  const [owner, branch] = head.includes(":") ? head.split(/:(.*)/s) : [repo.owner, head];
  if (owner.toLowerCase() !== repo.owner.toLowerCase()) invalid("head");
  return branch;
}

export interface NewPull {
  title: string;
  body: string | null;
  head: string;
  base: string;
  draft: boolean;
}

export function createPull(s: Store, repo: RepoRow, input: NewPull): IssueRow {
  const headName = headBranch(repo, input.head);
  const base = findBranch(s.db, repo.id, input.base) ?? invalid("base");
  const head = findBranch(s.db, repo.id, headName) ?? invalid("head");
  if (head.name === base.name || !commitsBetween(s.db, repo.id, base.head_sha, head.head_sha).length)
    custom(`No commits between ${base.name} and ${head.name}`);
  const existing = s.db.one<{ number: number }>(
    "SELECT number FROM gh_issues WHERE repo_id = ? AND head = ? AND base = ? AND is_pull = 1 AND state = 'open'",
    repo.id,
    head.name,
    base.name,
  );
  if (existing) custom(`A pull request already exists for ${repo.owner}:${head.name}.`);
  const id = nextId(s.db);
  const number = allocateNumber(s.db, repo.id);
  s.db.run(
    `INSERT INTO gh_issues (id, repo_id, number, is_pull, title, body, state, state_reason, user, milestone, locked,
       active_lock_reason, created_at, updated_at, closed_at, comment_count, head, base, draft, merged, merged_at, merged_by,
       merge_commit_sha, requested_reviewers) VALUES (?, ?, ?, 1, ?, ?, 'open', NULL, ?, NULL, 0, NULL, ?, ?, NULL, 0, ?, ?, ?, 0, NULL, NULL, NULL, '[]')`,
    id,
    repo.id,
    number,
    input.title,
    input.body,
    s.actor,
    s.now,
    s.now,
    head.name,
    base.name,
    bool(input.draft),
  );
  adjustOpenCount(s.db, repo.id, 1);
  return findIssue(s.db, repo.id, number) as IssueRow;
}

export interface PullPatch {
  title?: string;
  body?: string | null;
  state?: "open" | "closed";
  base?: string;
}

export function updatePull(s: Store, repo: RepoRow, pull: IssueRow, patch: PullPatch): IssueRow {
  // Refusals first, so a 422 changes nothing.
  const base = patch.base === undefined ? undefined : (findBranch(s.db, repo.id, patch.base) ?? invalid("base"));
  const reopening = patch.state === "open" && pull.state === "closed";
  if (reopening && pull.merged) custom("A merged pull request cannot be reopened");
  if (reopening && !findBranch(s.db, repo.id, pull.head ?? "")) custom("The head branch of this pull request was deleted");
  if (base) s.db.run("UPDATE gh_issues SET base = ? WHERE id = ?", base.name, pull.id);
  if (patch.title !== undefined) s.db.run("UPDATE gh_issues SET title = ? WHERE id = ?", patch.title, pull.id);
  if (patch.body !== undefined) s.db.run("UPDATE gh_issues SET body = ? WHERE id = ?", patch.body, pull.id);
  if (patch.state !== undefined) setIssueState(s, pull, patch.state);
  touchIssue(s, pull.id);
  return findIssue(s.db, repo.id, pull.number) as IssueRow;
}

export interface Mergeability {
  mergeable: boolean | null;
  mergeable_state: "blocked" | "clean" | "dirty" | "draft" | "unstable" | "unknown";
}

export function mergeability(db: Db, pull: IssueRow, combinedState: () => string): Mergeability {
  if (pull.state !== "open") return { mergeable: null, mergeable_state: "unknown" };
  const c = comparePull(db, pull);
  if (!c) return { mergeable: false, mergeable_state: "dirty" };
  if (mergeTrees(db, c).conflicts.length) return { mergeable: false, mergeable_state: "dirty" };
  if (pull.draft) return { mergeable: true, mergeable_state: "draft" };
  const head = pullHeadSha(db, pull);
  const unmet = head ? protectionRefusal(db, pull, head) : undefined;
  // An admin who may bypass the rules sees unmet checks as unstable, not blocked (tsouza/cerberus#1830).
  if (unmet && !(unmet.bypassed && unmet.rule === "checks")) return { mergeable: true, mergeable_state: "blocked" };
  if (unmet) return { mergeable: true, mergeable_state: "unstable" };
  const state = combinedState();
  return { mergeable: true, mergeable_state: state === "failure" || state === "error" ? "unstable" : "clean" };
}

export const MERGE_METHODS = ["merge", "squash", "rebase"] as const;
export type MergeMethod = (typeof MERGE_METHODS)[number];

export interface MergeInput {
  sha?: string;
  merge_method: MergeMethod;
  commit_title?: string;
  commit_message?: string;
}

const CLOSING = /\b(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)\b:?\s+#(\d+)\b/gi;

/** Issues a pull request's description closes when it is merged into the default branch. */
export function closingIssueNumbers(body: string | null): number[] {
  return [...new Set([...(body ?? "").matchAll(CLOSING)].map((m) => Number(m[1])))];
}

export function mergePull(s: Store, repo: RepoRow, pull: IssueRow, input: MergeInput): { sha: string } {
  if (pull.merged || pull.state !== "open") fail(ghError(405, "Pull Request is not mergeable"));
  if (pull.draft) fail(ghError(405, "Pull Request is still a draft"));
  const base = findBranch(s.db, repo.id, pull.base ?? "") ?? fail(ghError(405, "Pull Request is not mergeable"));
  const headSha = pullHeadSha(s.db, pull) ?? fail(ghError(405, "Pull Request is not mergeable"));
  if (input.sha !== undefined && input.sha !== headSha) fail(ghError(409, "Head branch was modified. Review and try the merge again."));
  const comparison = compare(s.db, repo.id, base.head_sha, headSha);
  const merged = mergeTrees(s.db, comparison);
  if (merged.conflicts.length) fail(ghError(405, "Pull Request is not mergeable"));
  const refusal = protectionRefusal(s.db, pull, headSha);
  if (refusal && !refusal.bypassed) fail(ghError(405, refusal.message, {}, "https://docs.github.com/articles/about-protected-branches"));
  const commits = pullCommits(s.db, pull);
  const title =
    input.commit_title ??
    (input.merge_method === "merge"
      ? `Merge pull request #${pull.number} from ${repo.owner}/${pull.head}`
      : input.merge_method === "squash"
        ? `${pull.title} (#${pull.number})`
        : (commits[commits.length - 1]?.message ?? pull.title));
  const details =
    input.commit_message ??
    (input.merge_method === "merge" ? pull.title : input.merge_method === "squash" ? commits.map((c) => `* ${c.message}`).join("\n") : "");
  const commit = writeCommit(s.db, {
    repoId: repo.id,
    branch: base.name,
    parents: input.merge_method === "merge" ? [base.head_sha, headSha] : [base.head_sha],
    tree: merged.tree,
    message: details ? `${title}\n\n${details}` : title,
    author: s.actor,
    at: s.now,
  });
  moveBranch(s.db, repo.id, base.name, commit.sha, s.now);
  s.db.run(
    "UPDATE gh_issues SET merged = 1, merged_at = ?, merged_by = ?, merge_commit_sha = ?, head_sha = ?, updated_at = ? WHERE id = ?",
    s.now,
    s.actor,
    commit.sha,
    headSha,
    s.now,
    pull.id,
  );
  recordEvent(s, pull, "merged", {}, commit.sha);
  setIssueState(s, { ...pull, head_sha: headSha }, "closed");
  if (base.name === repo.default_branch) {
    for (const number of closingIssueNumbers(pull.body)) {
      const issue = findIssue(s.db, repo.id, number);
      if (issue && !issue.is_pull && issue.state === "open") {
        setIssueState(s, issue, "closed", "completed");
        touchIssue(s, issue.id);
      }
    }
  }
  return { sha: commit.sha };
}

export const requestedReviewers = (pull: IssueRow) => JSON.parse(pull.requested_reviewers ?? "[]") as string[];

export function requestReviewers(s: Store, repo: RepoRow, pull: IssueRow, reviewers: readonly string[], teams: readonly string[]): void {
  const notCollaborator = () =>
    fail(
      ghError(
        422,
        `Reviews may only be requested from collaborators. One or more of the users or teams you specified is not a collaborator of the ${repo.owner}/${repo.name} repository.`,
      ),
    );
  const asked = teams.map((slug) => reviewingTeam(s.db, repo, slug) ?? notCollaborator());
  const current = requestedReviewers(pull);
  const added: string[] = [];
  for (const login of reviewers) {
    const user = assignable(s.db, repo, s.actor, login) ?? notCollaborator();
    if (user.toLowerCase() === pull.user.toLowerCase()) fail(ghError(422, "Review cannot be requested from pull request author."));
    if (!current.some((c) => c.toLowerCase() === user.toLowerCase())) {
      current.push(user);
      added.push(user);
    }
  }
  for (const user of added) recordEvent(s, pull, "review_requested", { requested_reviewer: user });
  requestTeamReviews(s, pull, asked);
  s.db.run("UPDATE gh_issues SET requested_reviewers = ?, updated_at = ? WHERE id = ?", JSON.stringify(current), s.now, pull.id);
}

/** `record`: an explicit removal is an event; a reviewer leaving the list by reviewing is not. */
export function removeRequestedReviewers(s: Store, pull: IssueRow, reviewers: readonly string[], record = true): void {
  const drop = new Set(reviewers.map((r) => r.toLowerCase()));
  const current = requestedReviewers(pull).filter((r) => !drop.has(r.toLowerCase()));
  for (const user of requestedReviewers(pull))
    if (record && drop.has(user.toLowerCase())) recordEvent(s, pull, "review_request_removed", { requested_reviewer: user });
  s.db.run("UPDATE gh_issues SET requested_reviewers = ?, updated_at = ? WHERE id = ?", JSON.stringify(current), s.now, pull.id);
}
