// users.labels.*: system labels are fixed; user labels are `Label_n` with unique names.
import type { Db } from "../../../sql";
import type { Route, TwinContext } from "../../types";
import { gmailRoute, jsonBody } from "../context";
import { badRequest, fail, gJson, gNoContent, labelConflict, notFound, readers } from "../errors";
import { isSystemLabel, SYSTEM_LABELS, systemLabel } from "../labels";
import { onPalette } from "../palette";
import { getMessage, relabel } from "../store/messages";
import { nextCount } from "../store/meta";
import { userLabel, userLabels, type LabelRow } from "../store/labels";
import { isBody, type Body } from "../../kit/input";

function userView(l: LabelRow): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: l.id,
    name: l.name,
    messageListVisibility: l.message_visibility,
    labelListVisibility: l.list_visibility,
    type: "user",
  };
  if (l.color) out.color = JSON.parse(l.color) as unknown;
  return out;
}

/** Counts Gmail serves on labels.get: messages and threads, all and unread. */
function counts(db: Db, id: string) {
  const rows = db.all<{ thread_id: string; unread: number }>(
    `SELECT m.thread_id, EXISTS (SELECT 1 FROM gm_message_labels u WHERE u.label_id = 'UNREAD' AND u.message_id = m.id) AS unread
     FROM gm_message_labels l JOIN gm_messages m ON m.id = l.message_id WHERE l.label_id = ?`,
    id,
  );
  const threads = new Set(rows.map((r) => r.thread_id));
  const unreadThreads = new Set(rows.filter((r) => r.unread).map((r) => r.thread_id));
  return {
    messagesTotal: rows.length,
    messagesUnread: rows.filter((r) => r.unread).length,
    threadsTotal: threads.size,
    threadsUnread: unreadThreads.size,
  };
}

function labelAt(ctx: TwinContext): LabelRow {
  const id = ctx.params.id ?? "";
  return userLabel(ctx.db, id) ?? fail(notFound());
}

/**
 * Names Gmail keeps for its own folders besides the system label ids (the names its UI shows for
 * them); a user label cannot take one, case aside.
 */
const RESERVED_NAMES = ["drafts", "sent mail", "all mail", "chats", "bin", "snoozed", "scheduled", "muted", "outbox"];

/** The longest label name Gmail's UI takes (225 characters); a longer one is refused. */
export const LABEL_NAME_MAX = 225;

function nameTaken(db: Db, name: string, except?: string): boolean {
  const lower = name.toLowerCase();
  if (SYSTEM_LABELS.some((s) => s.toLowerCase() === lower) || RESERVED_NAMES.includes(lower)) return true;
  const row = db.one<{ id: string }>("SELECT id FROM gm_labels WHERE name = ? COLLATE NOCASE", name);
  return !!row && row.id !== except;
}

const LIST_VIS = ["labelShow", "labelShowIfUnread", "labelHide"] as const;
const MSG_VIS = ["show", "hide"] as const;

function fields(body: Body, current?: LabelRow) {
  const name = readers.optString(body, "name") ?? current?.name;
  if (!name?.trim() || name.trim().length > LABEL_NAME_MAX) return fail(badRequest("Invalid label name"));
  const list = readers.oneOf(body.labelListVisibility, LIST_VIS, "label", "labelListVisibility") ?? current?.list_visibility ?? "labelShow";
  const msg = readers.oneOf(body.messageListVisibility, MSG_VIS, "label", "messageListVisibility") ?? current?.message_visibility ?? "show";
  let color = current?.color ?? null;
  if (body.color !== undefined) {
    const c = body.color;
    if (!isBody(c)) return fail(badRequest("Invalid label color"));
    const { textColor, backgroundColor } = c;
    if (typeof textColor !== "string" || typeof backgroundColor !== "string") return fail(badRequest("Invalid label color"));
    // Gmail takes only its palette's colours (googleapis' LabelColor: "Only the following
    // predefined set of color values are allowed").
    for (const hex of [backgroundColor, textColor])
      if (!onPalette(hex)) return fail(badRequest(`Label color ${hex} is not on the allowed color palette`));
    color = JSON.stringify({ textColor, backgroundColor });
  }
  return { name: name.trim(), list, msg, color };
}

function create(ctx: TwinContext) {
  const f = fields(jsonBody(ctx));
  if (nameTaken(ctx.db, f.name)) return fail(labelConflict());
  const id = `Label_${nextCount(ctx.db, "next_label", 1)}`;
  const position = nextCount(ctx.db, "label_position", 1);
  ctx.db.run(
    "INSERT INTO gm_labels (id, name, list_visibility, message_visibility, color, position) VALUES (?, ?, ?, ?, ?, ?)",
    id,
    f.name,
    f.list,
    f.msg,
    f.color,
    position,
  );
  return gJson(200, userView({ id, name: f.name, list_visibility: f.list, message_visibility: f.msg, color: f.color }));
}

function update(ctx: TwinContext, partial: boolean) {
  if (isSystemLabel(ctx.params.id ?? "")) return fail(badRequest("Invalid label name"));
  const current = labelAt(ctx);
  const body = jsonBody(ctx);
  const f = fields(body, partial ? current : undefined);
  if (nameTaken(ctx.db, f.name, current.id)) return fail(labelConflict());
  ctx.db.run(
    "UPDATE gm_labels SET name = ?, list_visibility = ?, message_visibility = ?, color = ? WHERE id = ?",
    f.name,
    f.list,
    f.msg,
    f.color,
    current.id,
  );
  return gJson(200, userView({ id: current.id, name: f.name, list_visibility: f.list, message_visibility: f.msg, color: f.color }));
}

function remove(ctx: TwinContext) {
  if (isSystemLabel(ctx.params.id ?? "")) return fail(badRequest("Invalid delete request"));
  const label = labelAt(ctx);
  const tagged = ctx.db.all<{ message_id: string }>("SELECT message_id FROM gm_message_labels WHERE label_id = ?", label.id);
  for (const { message_id } of tagged) {
    const m = getMessage(ctx.db, message_id);
    if (m) relabel(ctx.db, m, [], [label.id]);
  }
  ctx.db.run("DELETE FROM gm_labels WHERE id = ?", label.id);
  return gNoContent();
}

function get(ctx: TwinContext) {
  const id = ctx.params.id ?? "";
  const base = isSystemLabel(id) ? systemLabel(id) : userView(labelAt(ctx));
  return gJson(200, { ...base, ...counts(ctx.db, id) });
}

const L = "gmail.users.labels";

export const labelRoutes: readonly Route[] = [
  gmailRoute("GET", "/labels", `${L}.list`, "List labels", (ctx) =>
    gJson(200, { labels: [...SYSTEM_LABELS.map(systemLabel), ...userLabels(ctx.db).map(userView)] }),
  ),
  gmailRoute("POST", "/labels", `${L}.create`, "Create a label", create),
  gmailRoute("GET", "/labels/:id", `${L}.get`, "Get a label with its counts", get),
  gmailRoute("PUT", "/labels/:id", `${L}.update`, "Replace a label", (ctx) => update(ctx, false)),
  gmailRoute("PATCH", "/labels/:id", `${L}.patch`, "Change some of a label's fields", (ctx) => update(ctx, true)),
  gmailRoute("DELETE", "/labels/:id", `${L}.delete`, "Delete a label", remove),
];
