// Issue reminders. Linear's schema: issueReminder "Adds an issue reminder. Will cause a notification
// to be sent when the issue reminder time is reached", answering an IssuePayload. The twin writes the
// viewer's `issueReminder` notification (NotificationCategory `reminders`) dated at the reminder
// time: it stays out of the inbox (`notifications`, `notification`, the notification writes) until
// the sandbox's clock reaches that time, and then appears unread, as a notification sent then would.
// A reminder is set by the viewer for the viewer, so it has no actor.
import type { Gql } from "../context";
import { invalidInput } from "../errors";
import { uuidFor } from "../ids";
import { iso, syncId } from "./mutation";
import { mustFind } from "./query";
import type { Args, Resolver } from "./types";

function issueReminder(gql: Gql, args: Args) {
  const issue = mustFind(gql, "Issue", String(args.id), "Issue");
  const at = typeof args.reminderAt === "string" ? Date.parse(args.reminderAt) : Number.NaN;
  if (Number.isNaN(at)) throw invalidInput("reminderAt must be a date-time");
  const when = new Date(at).toISOString();
  gql.db.run(
    `INSERT OR REPLACE INTO lin_notifications (id, type, user_id, actor_id, issue_id, comment_id, created_at, updated_at)
     VALUES (?, 'issueReminder', ?, NULL, ?, NULL, ?, ?)`,
    uuidFor("notification", "issueReminder", issue.id, gql.viewerId, when),
    gql.viewerId,
    issue.id,
    when,
    iso(gql),
  );
  // Setting a reminder changes nothing on the issue itself, so no Issue webhook is sent.
  return { success: true, lastSyncId: syncId(gql), issue };
}

export const REMINDER_MUTATIONS: Record<string, Resolver> = {
  issueReminder: (_s, a, g) => issueReminder(g, a),
};
