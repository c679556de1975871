// The authenticated user's notifications: one thread per issue or pull request, with the reason
// GitHub gives (docs.github.com › About notifications › Notification reasons): `assign`,
// `review_requested`, `mention`, `author`, `comment`, `subscribed`. GitHub never notifies people
// of their own actions, so threads come from what others did: the seeded world (bootNotifications)
// and, since then, others' comments and issue events (syncNotifications, which reads only rows
// past a cursor: its cost is the activity since the last read, not the world).
import type { Db } from "../../types";
import type { GithubSeed } from "../seed";
import { authenticatedLogin } from "./base";

export type NotificationReason = "assign" | "review_requested" | "mention" | "author" | "comment" | "subscribed" | "manual";

/** Reasons that mean the user takes part in the conversation (`participating=true`). */
export const PARTICIPATING: readonly NotificationReason[] = ["assign", "review_requested", "mention", "author", "comment"];

export interface ThreadRow {
  id: number;
  repo_id: number;
  issue_id: number;
  reason: NotificationReason;
  unread: number;
  updated_at: string;
  last_read_at: string | null;
  /** The user's own choice: 1 subscribed, 0 unsubscribed, null none (the thread's reason stands). */
  subscribed: number | null;
  ignored: number;
  subscribed_at: string | null;
}

const CURSOR = "notifications_cursor";

/** Whether `text` @mentions `login` as a whole word. */
export function mentions(text: string | null, login: string): boolean {
  if (!text) return false;
  const at = `@${login.toLowerCase()}`;
  const lower = text.toLowerCase();
  for (let i = lower.indexOf(at); i >= 0; i = lower.indexOf(at, i + 1)) {
    const next = lower[i + at.length];
    const before = i === 0 ? " " : lower[i - 1];
    if (!/[a-z0-9-]/.test(next ?? " ") && !/[a-z0-9]/.test(before)) return true;
  }
  return false;
}

/** Opens (or brings back to unread) the thread of an issue; an ignored thread stays quiet. */
export function notify(db: Db, repoId: number, issueId: number, reason: NotificationReason, at: string): void {
  const thread = db.one<ThreadRow>("SELECT * FROM gh_notifications WHERE issue_id = ?", issueId);
  if (!thread) {
    db.run(
      "INSERT INTO gh_notifications (repo_id, issue_id, reason, unread, updated_at) VALUES (?, ?, ?, 1, ?)",
      repoId,
      issueId,
      reason,
      at,
    );
    return;
  }
  if (thread.ignored) return;
  db.run("UPDATE gh_notifications SET reason = ?, unread = 1, updated_at = max(updated_at, ?) WHERE id = ?", reason, at, thread.id);
}

type Item = GithubSeed["repositories"][number]["issues"][number] | GithubSeed["repositories"][number]["pulls"][number];

/** Why the seeded world notifies `me` of an item, if it does; the latest reason GitHub would give. */
function seededReason(item: Item, me: string): NotificationReason | undefined {
  const mine = (login: string) => login.toLowerCase() === me.toLowerCase();
  const others = item.comments.filter((c) => !mine(c.user));
  if (others.some((c) => mentions(c.body, me)) || (!mine(item.user) && mentions(item.body, me))) return "mention";
  if ("requested_reviewers" in item && item.requested_reviewers.some(mine)) return "review_requested";
  if (item.assignees.some(mine) && !mine(item.user)) return "assign";
  if (mine(item.user) && others.length) return "author";
  const lastMine = item.comments.findLastIndex((c) => mine(c.user));
  if (lastMine >= 0 && item.comments.slice(lastMine + 1).some((c) => !mine(c.user))) return "comment";
  return undefined;
}

/** The threads the seeded world holds for its user, unread, and the cursor past every seeded row. */
export function bootNotifications(db: Db, seed: GithubSeed): void {
  const me = seed.authenticated_user;
  for (const r of seed.repositories) {
    for (const item of [...r.issues, ...r.pulls]) {
      const reason = seededReason(item, me);
      // The thread was last updated by the item or its latest comment, whichever came later.
      const times = [item.updated_at, ...item.comments.map((c) => c.updated_at)].sort();
      if (reason) notify(db, r.id, item.id, reason, times[times.length - 1] ?? item.updated_at);
    }
  }
  // A seed holds comments but no issue events ("seeds describe state, not history": store/events.ts),
  // so the cursor starts past the seeded comments.
  setCursor(db, db.one<{ n: number }>("SELECT coalesce(max(id), 0) AS n FROM gh_comments")?.n ?? 0);
}

const setCursor = (db: Db, past: number) =>
  db.run("INSERT INTO gh_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value", CURSOR, String(past));

/** Moves the cursor past every comment and issue event there is. */
function markCursor(db: Db): void {
  const past = db.one<{ n: number }>(
    "SELECT max(coalesce((SELECT max(id) FROM gh_comments), 0), coalesce((SELECT max(id) FROM gh_issue_events), 0)) AS n",
  )?.n;
  setCursor(db, past ?? 0);
}

/** How the user relates to an issue when someone else comments on it; undefined: not at all. */
function relation(
  db: Db,
  issue: { id: number; repo_id: number; number: number; user: string },
  me: string,
): NotificationReason | undefined {
  const thread = db.one<ThreadRow>("SELECT * FROM gh_notifications WHERE issue_id = ?", issue.id);
  if (thread?.subscribed === 0 || thread?.ignored) return undefined;
  if (issue.user.toLowerCase() === me.toLowerCase()) return "author";
  if (db.one("SELECT 1 AS x FROM gh_issue_assignees WHERE issue_id = ? AND login = ?", issue.id, me)) return "assign";
  if (
    db.one(
      "SELECT 1 AS x FROM gh_comments WHERE repo_id = ? AND issue_number = ? AND user = ? COLLATE NOCASE",
      issue.repo_id,
      issue.number,
      me,
    )
  )
    return "comment";
  return thread ? (thread.subscribed === 1 ? "subscribed" : thread.reason) : undefined;
}

/** Turns others' comments and issue events since the cursor into notifications, then moves the cursor. */
export function syncNotifications(db: Db): void {
  const me = authenticatedLogin(db);
  const cursor = Number(db.one<{ value: string }>("SELECT value FROM gh_meta WHERE key = ?", CURSOR)?.value ?? 0);
  const issueSql = "SELECT id, repo_id, number, user FROM gh_issues WHERE repo_id = ? AND number = ?";
  type IssueRef = { id: number; repo_id: number; number: number; user: string };
  for (const c of db.all<{ repo_id: number; issue_number: number; user: string; body: string; created_at: string }>(
    "SELECT repo_id, issue_number, user, body, created_at FROM gh_comments WHERE id > ? AND user != ? COLLATE NOCASE ORDER BY id",
    cursor,
    me,
  )) {
    const issue = db.one<IssueRef>(issueSql, c.repo_id, c.issue_number);
    const reason = issue && (mentions(c.body, me) ? "mention" : relation(db, issue, me));
    if (issue && reason) notify(db, issue.repo_id, issue.id, reason, c.created_at);
  }
  for (const e of db.all<{ repo_id: number; issue_id: number; event: string; created_at: string; detail: string }>(
    "SELECT repo_id, issue_id, event, created_at, detail FROM gh_issue_events WHERE id > ? AND actor != ? COLLATE NOCASE AND event IN ('assigned', 'review_requested') ORDER BY id",
    cursor,
    me,
  )) {
    const detail = JSON.parse(e.detail) as { assignee?: string; requested_reviewer?: string };
    const whom = e.event === "assigned" ? detail.assignee : detail.requested_reviewer;
    if (whom?.toLowerCase() === me.toLowerCase())
      notify(db, e.repo_id, e.issue_id, e.event === "assigned" ? "assign" : "review_requested", e.created_at);
  }
  markCursor(db);
}

export const findThread = (db: Db, id: number) => db.one<ThreadRow>("SELECT * FROM gh_notifications WHERE id = ?", id);

export interface ThreadFilter {
  all: boolean;
  participating: boolean;
  since?: string;
  before?: string;
  repoId?: number;
}

/** A page of threads, most recently updated first. */
export function listThreads(db: Db, f: ThreadFilter, limit: number, offset: number): { rows: ThreadRow[]; total: number } {
  const where: string[] = [];
  const params: (string | number)[] = [];
  if (!f.all) where.push("unread = 1");
  if (f.participating) where.push(`reason IN (${PARTICIPATING.map((r) => `'${r}'`).join(", ")})`);
  const add = (sql: string, value: string | number) => {
    where.push(sql);
    params.push(value);
  };
  if (f.since) add("unixepoch(updated_at) >= unixepoch(?)", f.since);
  if (f.before) add("unixepoch(updated_at) < unixepoch(?)", f.before);
  if (f.repoId !== undefined) add("repo_id = ?", f.repoId);
  const sql = `FROM gh_notifications${where.length ? ` WHERE ${where.join(" AND ")}` : ""}`;
  return {
    rows: db.all<ThreadRow>(`SELECT * ${sql} ORDER BY updated_at DESC, id DESC LIMIT ? OFFSET ?`, ...params, limit, offset),
    total: db.one<{ n: number }>(`SELECT count(*) AS n ${sql}`, ...params)?.n ?? 0,
  };
}

/** Marks threads read: every thread updated at or before `lastReadAt`, of one repository or all. */
export function markRead(db: Db, lastReadAt: string, repoId?: number): void {
  db.run(
    `UPDATE gh_notifications SET unread = 0, last_read_at = ? WHERE unread = 1 AND unixepoch(updated_at) <= unixepoch(?)${repoId === undefined ? "" : " AND repo_id = ?"}`,
    lastReadAt,
    lastReadAt,
    ...(repoId === undefined ? [] : [repoId]),
  );
}

export const markThreadRead = (db: Db, id: number, now: string) =>
  db.run("UPDATE gh_notifications SET unread = 0, last_read_at = ? WHERE id = ?", now, id);

export const markThreadDone = (db: Db, id: number) => db.run("DELETE FROM gh_notifications WHERE id = ?", id);

export function setSubscription(db: Db, id: number, subscribed: boolean | null, ignored: boolean, now: string): void {
  db.run(
    "UPDATE gh_notifications SET subscribed = ?, ignored = ?, subscribed_at = ? WHERE id = ?",
    subscribed === null ? null : subscribed ? 1 : 0,
    ignored ? 1 : 0,
    subscribed === null ? null : now,
    id,
  );
}
