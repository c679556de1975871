// The viewer's inbox written to: a notification read or unread, snoozed, archived and restored,
// one at a time or with the notifications related to it. Linear's schema: notificationMarkReadAll
// "Marks notification and all related notifications as read" (related: about the same issue, as
// the inbox groups them), by a notification's `id` or by an `issueId`. Only the viewer's own
// notifications are visible to the viewer, so another's id is "Entity not found".
import type { Gql, Row } from "../context";
import { Unsupported, entityNotFound, invalidInput } from "../errors";
import { hasArrived, arrivedSql } from "../notifications";
import { has, inputOf, iso, syncId } from "./mutation";
import type { Args, Resolver } from "./types";

const typed = (r: Row) => ({ ...r, __typename: "IssueNotification" });

function own(gql: Gql, id: unknown): Row {
  const row = typeof id === "string" ? gql.byId("Notification", id) : undefined;
  if (!row || row.user_id !== gql.viewerId || !hasArrived(row, gql.clock.now())) throw entityNotFound("Notification");
  return row;
}

function time(v: unknown, field: string): string | null {
  if (v === null) return null;
  if (typeof v !== "string" || Number.isNaN(Date.parse(v))) throw invalidInput(`${field} must be a date-time`);
  return new Date(v).toISOString();
}

function reloaded(gql: Gql, id: string): Row {
  gql.forget("Notification", id);
  return own(gql, id);
}

function notificationUpdate(gql: Gql, args: Args) {
  const input = inputOf(args, "NotificationUpdateInput", ["readAt", "snoozedUntilAt"]);
  const before = own(gql, args.id);
  const sets: string[] = [];
  const params: (string | null)[] = [];
  if (has(input, "readAt") || input.readAt === null) {
    sets.push("read_at = ?");
    params.push(time(input.readAt, "readAt"));
  }
  if (has(input, "snoozedUntilAt") || input.snoozedUntilAt === null) {
    sets.push("snoozed_until_at = ?");
    params.push(time(input.snoozedUntilAt, "snoozedUntilAt"));
  }
  if (sets.length)
    gql.db.run(`UPDATE lin_notifications SET ${sets.join(", ")}, updated_at = ? WHERE id = ?`, ...params, iso(gql), before.id);
  return { success: true, lastSyncId: syncId(gql), notification: typed(reloaded(gql, before.id)) };
}

/** The viewer's notifications a NotificationEntityInput names: one and those about the same issue, or an issue's. */
function related(gql: Gql, args: Args): Row[] {
  const input = inputOf(args, "NotificationEntityInput", ["id", "issueId"]);
  let issueId: string;
  if (typeof input.id === "string") issueId = String(own(gql, input.id).issue_id);
  else if (typeof input.issueId === "string") issueId = input.issueId;
  else throw new Unsupported("a NotificationEntityInput without `id` or `issueId`");
  return gql.db.all<Row>(
    `SELECT * FROM lin_notifications x WHERE x.user_id = ? AND x.issue_id = ? AND ${arrivedSql("x")} ORDER BY x.created_at DESC`,
    gql.viewerId,
    issueId,
    new Date(gql.clock.now()).toISOString(),
  );
}

function batch(gql: Gql, args: Args, column: "read_at" | "archived_at", value: string | null) {
  const rows = related(gql, args);
  const ids = rows.map((r) => r.id);
  if (ids.length)
    gql.db.run(
      `UPDATE lin_notifications SET ${column} = ?, updated_at = ? WHERE id IN (SELECT value FROM json_each(?))`,
      value,
      iso(gql),
      JSON.stringify(ids),
    );
  return { success: true, lastSyncId: syncId(gql), notifications: ids.map((id) => typed(reloaded(gql, id))) };
}

function archive(gql: Gql, args: Args, on: boolean) {
  const before = own(gql, args.id);
  if ((before.archived_at !== null) !== on)
    gql.db.run("UPDATE lin_notifications SET archived_at = ?, updated_at = ? WHERE id = ?", on ? iso(gql) : null, iso(gql), before.id);
  return { success: true, lastSyncId: syncId(gql), entity: typed(reloaded(gql, before.id)) };
}

export const NOTIFICATION_MUTATIONS: Record<string, Resolver> = {
  notificationUpdate: (_s, a, g) => notificationUpdate(g, a),
  notificationMarkReadAll: (_s, a, g) => batch(g, a, "read_at", time(a.readAt, "readAt")),
  notificationMarkUnreadAll: (_s, a, g) => batch(g, a, "read_at", null),
  notificationArchiveAll: (_s, a, g) => batch(g, a, "archived_at", iso(g)),
  notificationArchive: (_s, a, g) => archive(g, a, true),
  notificationUnarchive: (_s, a, g) => archive(g, a, false),
};
