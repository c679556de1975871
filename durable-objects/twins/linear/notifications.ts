// The viewer's inbox. Linear notifies a user of what other people do: assigning them an issue,
// commenting on an issue they created or subscribe to, mentioning them. In a sandbox every call is
// made by the viewer (the API key and OAuth tokens act as the viewer), and Linear does not notify
// you of your own actions, so the only such events are the ones the seed describes. The inbox is
// therefore derived from the seed at boot; what the seed cannot imply (read, snoozed or archived
// state, notifications calls made for other users, reminders) is exported under `notifications`
// and written over the derived inbox at boot; what the world implies but the inbox lacks (a later
// change by the viewer, which notifies nobody) is exported under `notificationsNotInInbox` and
// left out at boot. Deleting the comment or issue a notification points
// at removes the notification.
import type { Db } from "../types";
import type { Gql } from "./context";
import { bulkInsert } from "../kit/sql";
import { uuidFor } from "./ids";

import type { NotificationKind } from "./notification-kinds";

export { NOTIFICATION_KINDS, type NotificationKind } from "./notification-kinds";

interface Derived {
  id: string;
  type: NotificationKind;
  userId: string;
  actorId: string;
  issueId: string;
  commentId: string | null;
  createdAt: string;
}

/**
 * Whether a notification is in the inbox yet: a reminder (resolvers/reminders.ts) is dated at its
 * reminder time and arrives then; every other one is there from the start. The `?` is now as ISO
 * text (the reminder's time is written in the same format, so the two compare as text).
 */
export const arrivedSql = (alias: string) => `(${alias}.type <> 'issueReminder' OR ${alias}.created_at <= ?)`;
export const hasArrived = (row: Readonly<Record<string, unknown>>, nowMs: number) =>
  row.type !== "issueReminder" || typeof row.created_at !== "string" || Date.parse(row.created_at) <= nowMs;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Whether `text` mentions the user: `@displayName` as a whole word, as Linear's editor writes a mention. */
export function mentions(text: string | null, displayName: string): boolean {
  if (!text || !displayName) return false;
  return new RegExp(`(^|[^\\w@])@${escapeRegExp(displayName)}(?![\\w.-]*\\w)`, "i").test(text);
}

/** Derives the viewer's notifications from the booted world and writes them. */
export function deriveNotifications(db: Db, viewerId: string): void {
  const out = derivedNotifications(db, viewerId);
  bulkInsert(
    db,
    `INSERT INTO lin_notifications (id, type, user_id, actor_id, issue_id, comment_id, created_at, updated_at)
     SELECT value->>0, value->>1, value->>2, value->>3, value->>4, value->>5, value->>6, value->>6 FROM json_each(?)`,
    out
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id))
      .map((n) => [n.id, n.type, n.userId, n.actorId, n.issueId, n.commentId, n.createdAt]),
  );
}

/**
 * The viewer's notifications the world implies (set-wise: one read per source). The export reads
 * them too: a stored notification that is one of these, untouched, need not be exported.
 */
export function derivedNotifications(db: Db, viewerId: string): Derived[] {
  const viewer = db.one<{ display_name: string }>("SELECT display_name FROM lin_users WHERE id = ?", viewerId);
  if (!viewer) return [];
  const out: Derived[] = [];
  const add = (type: NotificationKind, sourceId: string, actorId: string, issueId: string, commentId: string | null, createdAt: string) =>
    out.push({ id: uuidFor("notification", type, sourceId), type, userId: viewerId, actorId, issueId, commentId, createdAt });
  // Issues someone else created: assigned to the viewer, or mentioning the viewer in the description.
  for (const i of db.all<{ id: string; creator_id: string; assignee_id: string | null; description: string | null; created_at: string }>(
    "SELECT id, creator_id, assignee_id, description, created_at FROM lin_issues WHERE creator_id IS NOT NULL AND creator_id <> ?1 AND (assignee_id = ?1 OR instr(description, '@') > 0)",
    viewerId,
  )) {
    if (i.assignee_id === viewerId) add("issueAssignedToYou", i.id, i.creator_id, i.id, null, i.created_at);
    if (mentions(i.description, viewer.display_name)) add("issueMention", i.id, i.creator_id, i.id, null, i.created_at);
  }
  // Comments by someone else: a mention of the viewer, else a new comment on an issue the viewer
  // created or subscribes to, or a reply in a thread the viewer started.
  for (const c of db.all<{ id: string; issue_id: string; user_id: string; body: string; created_at: string; follows: number }>(
    `SELECT c.id, c.issue_id, c.user_id, c.body, c.created_at,
       (i.creator_id = ?1 OR EXISTS (SELECT 1 FROM lin_subscribers s WHERE s.issue_id = c.issue_id AND s.user_id = ?1)
        OR EXISTS (SELECT 1 FROM lin_comments p WHERE p.id = c.parent_id AND p.user_id = ?1)) AS follows
     FROM lin_comments c JOIN lin_issues i ON i.id = c.issue_id
     WHERE c.user_id IS NOT NULL AND c.user_id <> ?1`,
    viewerId,
  )) {
    if (mentions(c.body, viewer.display_name)) add("issueCommentMention", c.id, c.user_id, c.issue_id, c.id, c.created_at);
    else if (c.follows === 1) add("issueNewComment", c.id, c.user_id, c.issue_id, c.id, c.created_at);
  }
  return out;
}

/**
 * What a call notifies other people of, as Linear does: the viewer made the call, so the viewer
 * is the actor and is never notified. These land in the other users' inboxes (the API shows
 * each user only their own, so a sandbox's viewer does not see them; a grader reading the world
 * does), and like the derived inbox they are not seed state.
 */
export function notifyOthers(
  gql: Gql,
  event:
    | { kind: "assigned"; issueId: string; assigneeId: string | null }
    | { kind: "described"; issueId: string; text: string | null; before?: string | null }
    | { kind: "commented"; issueId: string; commentId: string; text: string },
): void {
  const now = new Date(gql.clock.now()).toISOString();
  const add = (type: NotificationKind, userId: string, commentId: string | null) =>
    gql.db.run(
      `INSERT OR IGNORE INTO lin_notifications (id, type, user_id, actor_id, issue_id, comment_id, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      uuidFor("notification", type, commentId ?? event.issueId, userId, now),
      type,
      userId,
      gql.viewerId,
      event.issueId,
      commentId,
      now,
      now,
    );
  if (event.kind === "assigned") {
    if (event.assigneeId && event.assigneeId !== gql.viewerId) add("issueAssignedToYou", event.assigneeId, null);
    return;
  }
  const mentioned = mentionedUsers(gql, event.text).filter((id) => id !== gql.viewerId);
  if (event.kind === "described") {
    // Only a mention the text did not already make.
    const already = mentionedUsers(gql, event.before ?? null);
    for (const id of mentioned) if (!already.includes(id)) add("issueMention", id, null);
    return;
  }
  for (const id of mentioned) add("issueCommentMention", id, event.commentId);
  // Everyone else following the issue hears of the new comment.
  for (const s of gql.db.all<{ user_id: string }>("SELECT user_id FROM lin_subscribers WHERE issue_id = ?", event.issueId))
    if (s.user_id !== gql.viewerId && !mentioned.includes(s.user_id)) add("issueNewComment", s.user_id, event.commentId);
}

/** The active users a text mentions by `@displayName`. */
function mentionedUsers(gql: Gql, text: string | null): string[] {
  if (!text?.includes("@")) return [];
  return gql.db
    .all<{ id: string; display_name: string }>(
      "SELECT id, display_name FROM lin_users WHERE active = 1 AND instr(lower(?), '@' || lower(display_name)) > 0",
      text,
    )
    .filter((u) => mentions(text, u.display_name))
    .map((u) => u.id);
}
