// Issue events as the twin records them: every change a state function makes to an issue or a
// pull request (closing, labels, assignees, milestone, title, lock, merge, review requests)
// leaves one row, in the order it happened. The issue events API lists them; the timeline adds
// comments, reviews and commits. Seeded history has no events: seeds describe state, not history.
import type { Db } from "../../types";
import { nextId, type Store } from "./base";

export type IssueEventKind =
  | "closed"
  | "reopened"
  | "labeled"
  | "unlabeled"
  | "assigned"
  | "unassigned"
  | "milestoned"
  | "demilestoned"
  | "renamed"
  | "locked"
  | "unlocked"
  | "merged"
  | "review_requested"
  | "review_request_removed"
  | "convert_to_draft"
  | "ready_for_review";

/** What an event carries beyond its kind, in the shape the API answers it (label, rename...). */
export interface EventDetail {
  label?: { name: string; color: string };
  assignee?: string;
  milestone?: { title: string };
  rename?: { from: string; to: string };
  lock_reason?: string | null;
  state_reason?: string | null;
  requested_reviewer?: string;
  /** The id of the team asked (or no longer asked) to review. */
  requested_team?: number;
}

export interface IssueEventRow {
  id: number;
  repo_id: number;
  issue_id: number;
  event: IssueEventKind;
  actor: string;
  created_at: string;
  commit_id: string | null;
  detail: string;
}

export function recordEvent(
  s: Store,
  issue: { id: number; repo_id: number },
  event: IssueEventKind,
  detail: EventDetail = {},
  commitId: string | null = null,
): void {
  s.db.run(
    "INSERT INTO gh_issue_events (id, repo_id, issue_id, event, actor, created_at, commit_id, detail) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    nextId(s.db),
    issue.repo_id,
    issue.id,
    event,
    s.actor,
    s.now,
    commitId,
    JSON.stringify(detail),
  );
}

/** Records who was assigned and unassigned between two lists of logins. */
export function recordAssigneeChanges(
  s: Store,
  issue: { id: number; repo_id: number },
  before: readonly string[],
  after: readonly string[],
) {
  const key = (l: string) => l.toLowerCase();
  const had = new Set(before.map(key));
  const has = new Set(after.map(key));
  for (const login of before) if (!has.has(key(login))) recordEvent(s, issue, "unassigned", { assignee: login });
  for (const login of after) if (!had.has(key(login))) recordEvent(s, issue, "assigned", { assignee: login });
}

export function readDetail(row: IssueEventRow): EventDetail {
  try {
    return JSON.parse(row.detail) as EventDetail;
  } catch {
    return {};
  }
}

export const issueEvents = (db: Db, issueId: number) =>
  db.all<IssueEventRow>("SELECT * FROM gh_issue_events WHERE issue_id = ? ORDER BY id", issueId);

export function repoEvents(db: Db, repoId: number, limit: number, offset: number): { rows: IssueEventRow[]; total: number } {
  const rows = db.all<IssueEventRow>(
    "SELECT * FROM gh_issue_events WHERE repo_id = ? ORDER BY id DESC LIMIT ? OFFSET ?",
    repoId,
    limit,
    offset,
  );
  const total = db.one<{ n: number }>("SELECT count(*) AS n FROM gh_issue_events WHERE repo_id = ?", repoId)?.n ?? 0;
  return { rows, total };
}

export const findEvent = (db: Db, repoId: number, id: number) =>
  db.one<IssueEventRow>("SELECT * FROM gh_issue_events WHERE repo_id = ? AND id = ?", repoId, id);
