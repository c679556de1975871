// Issues (and the issue side of pull requests): point reads by (repo, number), list pages by
// index with LIMIT/OFFSET, and every state change bumping updated_at.
import type { Db, SqlValue } from "../../types";
import { TwinError } from "../../kit/response";
import { fail, ghJson, ghNotFound, ghValidationFailed } from "../errors";
import type { RepoRow } from "../repos";
import { addAssignees, assignable, issueAssignees, setAssignees } from "./assignees";
import { bool, nextId, type Store } from "./base";
import { recordAssigneeChanges, recordEvent } from "./events";
import { applyLabels, findLabel } from "./labels";
import { pullHeadSha } from "./merge";
import type { IssueRow } from "./rows";

export const findIssue = (db: Db, repoId: number, number: number) =>
  db.one<IssueRow>("SELECT * FROM gh_issues WHERE repo_id = ? AND number = ?", repoId, number);

/** Where the issue that had `number` in a repository is now, if it was transferred away. */
export function movedIssue(db: Db, repoId: number, number: number): { repo_id: number; number: number } | undefined {
  return db.one<{ repo_id: number; number: number }>(
    "SELECT i.repo_id, i.number FROM gh_issue_moves m JOIN gh_issues i ON i.id = m.issue_id WHERE m.repo_id = ? AND m.number = ?",
    repoId,
    number,
  );
}

/**
 * Thrown for a number whose issue was transferred: the route wrapper (declare.ts) answers it 301
 * with the issue's new address, which needs the request.
 */
export class IssueMoved extends TwinError {
  constructor(readonly to: { repo_id: number; number: number }) {
    super(ghJson(301, { message: "Moved Permanently", url: `/repositories/${to.repo_id}/issues/${to.number}` }));
  }
}

export function requireIssue(db: Db, repoId: number, number: string | number): IssueRow {
  const n = Number(number);
  if (!Number.isInteger(n) || n <= 0) fail(ghNotFound());
  const found = findIssue(db, repoId, n);
  if (found) return found;
  const moved = movedIssue(db, repoId, n);
  throw moved ? new IssueMoved(moved) : new TwinError(ghNotFound());
}

/** Issues and pull requests share one number space per repository. */
export function allocateNumber(db: Db, repoId: number): number {
  const row = db.one<{ next_number: number }>("SELECT next_number FROM gh_repos WHERE id = ?", repoId);
  const number = row?.next_number ?? 1;
  db.run("UPDATE gh_repos SET next_number = ? WHERE id = ?", number + 1, repoId);
  return number;
}

export const adjustOpenCount = (db: Db, repoId: number, delta: number) =>
  db.run("UPDATE gh_repos SET open_issues = open_issues + ? WHERE id = ?", delta, repoId);

export const touchIssue = (s: Store, issueId: number) => s.db.run("UPDATE gh_issues SET updated_at = ? WHERE id = ?", s.now, issueId);

export interface IssueListQuery {
  state: "open" | "closed" | "all";
  labels: string[];
  /** A login, `none` (unassigned) or `*` (assigned to anyone). */
  assignee?: string;
  creator?: string;
  mentioned?: string;
  /** A milestone number, `none` or `*`. */
  milestone?: string;
  since?: string;
  sort: "created" | "updated" | "comments";
  direction: "asc" | "desc";
  /** Pulls only (the pulls list), issues only, or both (the issues list). */
  kind?: "pull" | "issue";
  head?: string;
  base?: string;
}

/** One page of a repository's issues, and how many match in all (for the `last` link). */
export function listIssues(db: Db, repoId: number, q: IssueListQuery, limit: number, offset: number): { rows: IssueRow[]; total: number } {
  const where: string[] = ["i.repo_id = ?"];
  const params: SqlValue[] = [repoId];
  if (q.state !== "all") {
    where.push("i.state = ?");
    params.push(q.state);
  }
  // Written out, not bound: SQLite matches a partial index's condition (the pulls index holds
  // is_pull = 1 rows only) against literals, never against a parameter.
  if (q.kind) where.push(q.kind === "pull" ? "i.is_pull = 1" : "i.is_pull = 0");
  const labelIds = new Set<number>();
  for (const name of q.labels) {
    const label = findLabel(db, repoId, name);
    if (!label) return { rows: [], total: 0 };
    labelIds.add(label.id);
  }
  if (labelIds.size) {
    // Issues carrying every label: one condition over one JSON parameter however many labels are
    // named (SQLite in workerd takes at most 100 parameters per statement).
    where.push(
      "i.id IN (SELECT issue_id FROM gh_issue_labels WHERE label_id IN (SELECT value FROM json_each(?)) GROUP BY issue_id HAVING count(*) = ?)",
    );
    params.push(JSON.stringify([...labelIds]), labelIds.size);
  }
  if (q.assignee === "none") where.push("NOT EXISTS (SELECT 1 FROM gh_issue_assignees a WHERE a.issue_id = i.id)");
  else if (q.assignee === "*") where.push("EXISTS (SELECT 1 FROM gh_issue_assignees a WHERE a.issue_id = i.id)");
  else if (q.assignee) {
    where.push("i.id IN (SELECT issue_id FROM gh_issue_assignees WHERE repo_id = ? AND login = ?)");
    params.push(repoId, q.assignee);
  }
  if (q.creator) {
    where.push("i.user = ? COLLATE NOCASE");
    params.push(q.creator);
  }
  if (q.mentioned) {
    // GitHub indexes @-mentions; the twin looks for them in the body, literally (instr, not LIKE:
    // `_` is common in logins and would be a wildcard there).
    where.push("instr(lower(i.body), lower(?)) > 0");
    params.push(`@${q.mentioned}`);
  }
  if (q.milestone === "none") where.push("i.milestone IS NULL");
  else if (q.milestone === "*") where.push("i.milestone IS NOT NULL");
  else if (q.milestone !== undefined) {
    where.push("i.milestone = ?");
    params.push(Number(q.milestone));
  }
  if (q.since) {
    where.push("i.updated_at >= ?");
    params.push(q.since);
  }
  if (q.head) {
    where.push("i.head = ?");
    params.push(q.head);
  }
  if (q.base) {
    where.push("i.base = ?");
    params.push(q.base);
  }
  const column = q.sort === "updated" ? "i.updated_at" : q.sort === "comments" ? "i.comment_count" : "i.created_at";
  const dir = q.direction === "asc" ? "ASC" : "DESC";
  const sql = `FROM gh_issues i WHERE ${where.join(" AND ")}`;
  return {
    rows: db.all<IssueRow>(`SELECT i.* ${sql} ORDER BY ${column} ${dir}, i.number ${dir} LIMIT ? OFFSET ?`, ...params, limit, offset),
    total: db.one<{ n: number }>(`SELECT count(*) AS n ${sql}`, ...params)?.n ?? 0,
  };
}

function checkMilestone(db: Db, repoId: number, value: number | null): number | null {
  if (value === null) return null;
  const found = db.one<{ number: number }>("SELECT number FROM gh_milestones WHERE repo_id = ? AND number = ?", repoId, value);
  return found ? found.number : fail(ghValidationFailed([{ resource: "Issue", field: "milestone", code: "invalid", value }]));
}

/** Assignees named on create or update must be assignable; GitHub refuses the call otherwise. */
function checkAssignees(s: Store, repo: RepoRow, logins: readonly string[]): string[] {
  return logins.map(
    (login) =>
      assignable(s.db, repo, s.actor, login) ??
      fail(ghValidationFailed([{ resource: "Issue", field: "assignees", code: "invalid", value: login }])),
  );
}

export interface NewIssue {
  title: string;
  body: string | null;
  labels: string[];
  assignees: string[];
  milestone: number | null;
}

export function createIssue(s: Store, repo: RepoRow, input: NewIssue): IssueRow {
  const milestone = checkMilestone(s.db, repo.id, input.milestone);
  const assignees = checkAssignees(s, repo, input.assignees);
  const id = nextId(s.db);
  const number = allocateNumber(s.db, repo.id);
  s.db.run(
    `INSERT INTO gh_issues (id, repo_id, number, is_pull, title, body, state, state_reason, user, milestone, locked,
       active_lock_reason, created_at, updated_at, closed_at, comment_count) VALUES (?, ?, ?, 0, ?, ?, 'open', NULL, ?, ?, 0, NULL, ?, ?, NULL, 0)`,
    id,
    repo.id,
    number,
    input.title,
    input.body,
    s.actor,
    milestone,
    s.now,
    s.now,
  );
  applyLabels(s, repo.id, id, input.labels, false);
  addAssignees(s.db, repo.id, id, assignees);
  recordAssigneeChanges(s, { id, repo_id: repo.id }, [], issueAssignees(s.db, id));
  if (milestone !== null) recordMilestone(s, { id, repo_id: repo.id }, "milestoned", milestone);
  adjustOpenCount(s.db, repo.id, 1);
  return findIssue(s.db, repo.id, number) as IssueRow;
}

export type StateReason = "completed" | "not_planned" | "reopened";

function recordMilestone(s: Store, issue: { id: number; repo_id: number }, event: "milestoned" | "demilestoned", number: number) {
  const title = s.db.one<{ title: string }>(
    "SELECT title FROM gh_milestones WHERE repo_id = ? AND number = ?",
    issue.repo_id,
    number,
  )?.title;
  recordEvent(s, issue, event, { milestone: { title: title ?? "" } });
}

/**
 * Opens or closes, keeping closed_at, closed_by, state_reason and the open counter in step. A pull
 * request keeps the head commit it closed with; reopening it follows its branch again.
 */
export function setIssueState(s: Store, issue: IssueRow, state: "open" | "closed", reason?: StateReason | null): void {
  if (state === issue.state) {
    if (reason !== undefined && state === "closed" && !issue.is_pull)
      s.db.run("UPDATE gh_issues SET state_reason = ? WHERE id = ?", reason, issue.id);
    return;
  }
  if (state === "closed") {
    s.db.run(
      "UPDATE gh_issues SET state = 'closed', state_reason = ?, closed_at = ?, closed_by = ? WHERE id = ?",
      issue.is_pull ? null : (reason ?? "completed"),
      s.now,
      s.actor,
      issue.id,
    );
    if (issue.is_pull && !issue.head_sha) s.db.run("UPDATE gh_issues SET head_sha = ? WHERE id = ?", pullHeadSha(s.db, issue), issue.id);
    // A merged pull request's closed event names the merge commit, as GitHub's does.
    const merge = s.db.one<{ sha: string | null }>("SELECT merge_commit_sha AS sha FROM gh_issues WHERE id = ? AND merged = 1", issue.id);
    recordEvent(s, issue, "closed", issue.is_pull ? {} : { state_reason: reason ?? "completed" }, merge?.sha ?? null);
  } else {
    s.db.run(
      "UPDATE gh_issues SET state = 'open', state_reason = ?, closed_at = NULL, closed_by = NULL, head_sha = NULL WHERE id = ?",
      issue.is_pull ? null : "reopened",
      issue.id,
    );
    recordEvent(s, issue, "reopened", issue.is_pull ? {} : { state_reason: "reopened" });
  }
  adjustOpenCount(s.db, issue.repo_id, state === "open" ? 1 : -1);
}

export interface IssuePatch {
  title?: string;
  body?: string | null;
  state?: "open" | "closed";
  state_reason?: StateReason | null;
  labels?: string[];
  assignees?: string[];
  milestone?: number | null;
}

export function updateIssue(s: Store, repo: RepoRow, issue: IssueRow, patch: IssuePatch): IssueRow {
  // Everything that can refuse the call is checked before anything is written: a 422 changes nothing.
  const milestone = patch.milestone === undefined ? undefined : checkMilestone(s.db, repo.id, patch.milestone);
  const assignees = patch.assignees === undefined ? undefined : checkAssignees(s, repo, patch.assignees);
  if (milestone !== undefined && milestone !== issue.milestone) {
    if (issue.milestone !== null) recordMilestone(s, issue, "demilestoned", issue.milestone);
    if (milestone !== null) recordMilestone(s, issue, "milestoned", milestone);
    s.db.run("UPDATE gh_issues SET milestone = ? WHERE id = ?", milestone, issue.id);
  }
  if (assignees !== undefined) {
    const before = issueAssignees(s.db, issue.id);
    setAssignees(s.db, repo.id, issue.id, assignees);
    recordAssigneeChanges(s, issue, before, issueAssignees(s.db, issue.id));
  }
  if (patch.title !== undefined && patch.title !== issue.title) {
    recordEvent(s, issue, "renamed", { rename: { from: issue.title, to: patch.title } });
    s.db.run("UPDATE gh_issues SET title = ? WHERE id = ?", patch.title, issue.id);
  }
  if (patch.body !== undefined) s.db.run("UPDATE gh_issues SET body = ? WHERE id = ?", patch.body, issue.id);
  if (patch.labels !== undefined) applyLabels(s, repo.id, issue.id, patch.labels, true);
  if (patch.state !== undefined || patch.state_reason !== undefined) {
    const state = patch.state ?? issue.state;
    setIssueState(s, issue, state, patch.state_reason);
  }
  touchIssue(s, issue.id);
  return findIssue(s.db, repo.id, issue.number) as IssueRow;
}

export const LOCK_REASONS = ["off-topic", "too heated", "resolved", "spam"] as const;
export type LockReason = (typeof LOCK_REASONS)[number];

export function setLocked(s: Store, issue: IssueRow, locked: boolean, reason: LockReason | null): void {
  if (locked) recordEvent(s, issue, "locked", { lock_reason: reason });
  else if (issue.locked) recordEvent(s, issue, "unlocked", { lock_reason: issue.active_lock_reason });
  s.db.run(
    "UPDATE gh_issues SET locked = ?, active_lock_reason = ?, updated_at = ? WHERE id = ?",
    bool(locked),
    locked ? reason : null,
    s.now,
    issue.id,
  );
}
