// users.labels.*: system labels are fixed; user labels are `Label_n` with unique names.
import type { Db } from "../../types";
import { z } from "zod";
import type { InputProblem } from "../../kit/route";
import type { Route, TwinContext, TwinResponse } from "../../types";
import { gmailRoute } from "../declare";
import { badRequest, fail, gJson, gNoContent, labelConflict, notFound } from "../errors";
import { isSystemLabel, reservedName, SYSTEM_LABELS, systemLabel } from "../labels";
import { onPalette } from "../palette";
import { getMessage, relabel } from "../store/messages";
import { nextCount } from "../store/meta";
import { userLabel, userLabels, type LabelRow } from "../store/labels";

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

function labelAt(ctx: TwinContext, id: string): LabelRow {
  return userLabel(ctx.db, id) ?? fail(notFound());
}

/** The longest label name Gmail's UI takes (225 characters); a longer one is refused. */
export const LABEL_NAME_MAX = 225;

/** Another user label has this name, case aside (Gmail's 409, gauteh/lieer#207). */
function nameTaken(db: Db, name: string, except?: string): boolean {
  const row = db.one<{ id: string }>("SELECT id FROM gm_labels WHERE name = ? COLLATE NOCASE", name);
  return !!row && row.id !== except;
}

const LIST_VIS = ["labelShow", "labelShowIfUnread", "labelHide"] as const;
const MSG_VIS = ["show", "hide"] as const;

const labelName = z.string().describe("The label's name; unique, case aside, and not a system label's");
const labelFields = {
  name: labelName.optional(),
  labelListVisibility: z.enum(LIST_VIS).optional().describe("Shown in the label list (default labelShow)"),
  messageListVisibility: z.enum(MSG_VIS).optional().describe("Shown on messages (default show)"),
  // Gmail takes only its palette's colours (googleapis' LabelColor: "Only the following
  // predefined set of color values are allowed"); the handler checks the palette.
  color: z
    .object({
      textColor: z.string().describe("Text colour, e.g. #ffffff"),
      backgroundColor: z.string().describe("Background colour, e.g. #fb4c2f"),
    })
    .optional()
    .describe("Colours from Gmail's palette"),
};
/** A patch changes the fields it names. */
const patchBody = z.object(labelFields).default({});
/** A create or a replace (PUT) names the label. */
const fullBody = z.object({ ...labelFields, name: labelName }).default({ name: "" });
type LabelBody = z.output<typeof patchBody>;

/** Gmail's own words for a label without a name or with a colour that is not two strings. */
function labelRefusal(problem: InputProblem): TwinResponse | undefined {
  if (problem.place !== "body") return undefined;
  if (problem.path[0] === "color") return badRequest("Invalid label color");
  if (problem.path[0] === "name" && problem.received === undefined) return badRequest("Invalid label name");
  return undefined;
}

function fields(body: LabelBody, current?: LabelRow) {
  const name = body.name ?? current?.name;
  if (!name?.trim() || name.trim().length > LABEL_NAME_MAX || reservedName(name.trim())) return fail(badRequest("Invalid label name"));
  const list = body.labelListVisibility ?? current?.list_visibility ?? "labelShow";
  const msg = body.messageListVisibility ?? current?.message_visibility ?? "show";
  let color = current?.color ?? null;
  if (body.color) {
    const { textColor, backgroundColor } = body.color;
    for (const hex of [backgroundColor, textColor])
      if (!onPalette(hex)) return fail(badRequest(`Label color ${hex} is not on the allowed color palette`));
    color = JSON.stringify({ textColor, backgroundColor });
  }
  return { name: name.trim(), list, msg, color };
}

function create(ctx: TwinContext, body: LabelBody) {
  const f = fields(body);
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

function update(ctx: TwinContext, id: string, body: LabelBody, partial: boolean) {
  if (isSystemLabel(id)) return fail(badRequest("Invalid label name"));
  const current = labelAt(ctx, id);
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

function remove(ctx: TwinContext, id: string) {
  if (isSystemLabel(id)) return fail(badRequest("Invalid delete request"));
  const label = labelAt(ctx, id);
  const tagged = ctx.db.all<{ message_id: string }>("SELECT message_id FROM gm_message_labels WHERE label_id = ?", label.id);
  for (const { message_id } of tagged) {
    const m = getMessage(ctx.db, message_id);
    if (m) relabel(ctx.db, m, [], [label.id]);
  }
  ctx.db.run("DELETE FROM gm_labels WHERE id = ?", label.id);
  return gNoContent();
}

function get(ctx: TwinContext, id: string) {
  const base = isSystemLabel(id) ? systemLabel(id) : userView(labelAt(ctx, id));
  return gJson(200, { ...base, ...counts(ctx.db, id) });
}

const L = "gmail.users.labels";

const byId = { id: z.string().min(1).describe('The label id, e.g. "INBOX" or "Label_1"') };
const byUserLabel = { id: z.string().min(1).describe('The user label id, e.g. "Label_1"') };

export const labelRoutes: readonly Route[] = [
  gmailRoute({
    method: "GET",
    path: "/labels",
    operation: `${L}.list`,
    summary: "List labels",
    tool: { name: "list_labels", description: "List system and user labels with their ids." },
    handler: (ctx) => gJson(200, { labels: [...SYSTEM_LABELS.map(systemLabel), ...userLabels(ctx.db).map(userView)] }),
  }),
  gmailRoute({
    method: "POST",
    path: "/labels",
    operation: `${L}.create`,
    summary: "Create a label",
    body: fullBody,
    refuse: labelRefusal,
    tool: { name: "create_label", description: "Create a user label; names are unique, case-insensitively." },
    handler: (ctx, { body }) => create(ctx, body),
  }),
  gmailRoute({
    method: "GET",
    path: "/labels/:id",
    operation: `${L}.get`,
    summary: "Get a label with its counts",
    params: byId,
    tool: { name: "get_label", description: "Get a label with its message and thread counts (total and unread)." },
    handler: (ctx, { params }) => get(ctx, params.id),
  }),
  gmailRoute({
    method: "PUT",
    path: "/labels/:id",
    operation: `${L}.update`,
    summary: "Replace a label",
    params: byUserLabel,
    body: fullBody,
    refuse: labelRefusal,
    handler: (ctx, { params, body }) => update(ctx, params.id, body, false),
  }),
  gmailRoute({
    method: "PATCH",
    path: "/labels/:id",
    operation: `${L}.patch`,
    summary: "Change some of a label's fields",
    params: byUserLabel,
    body: patchBody,
    refuse: labelRefusal,
    tool: { name: "update_label", description: "Rename a user label or change its visibility." },
    handler: (ctx, { params, body }) => update(ctx, params.id, body, true),
  }),
  gmailRoute({
    method: "DELETE",
    path: "/labels/:id",
    operation: `${L}.delete`,
    summary: "Delete a label",
    params: byUserLabel,
    tool: { name: "delete_label", description: "Delete a user label; messages keep everything else." },
    handler: (ctx, { params }) => remove(ctx, params.id),
  }),
];
