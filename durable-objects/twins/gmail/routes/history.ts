// users.history.list: the mailbox's changes after `startHistoryId`, oldest first. The mailbox's
// history starts at the historyId it booted with; an older start is 404, as Gmail answers a
// startHistoryId it no longer keeps history for.
import { z } from "zod";
import type { Route, TwinContext } from "../../types";
import { gmailRoute, maxResults, pageSize, queryList } from "../declare";
import { badRequest, fail, gJson, notFound } from "../errors";
import { currentHistoryId, getMeta } from "../store/meta";

interface HistoryRow {
  id: number;
  message_id: string;
  thread_id: string;
  kind: "messageAdded" | "messageDeleted" | "labelAdded" | "labelRemoved";
  label_ids: string;
  message_labels: string;
}

const LIST_FIELD = {
  messageAdded: "messagesAdded",
  messageDeleted: "messagesDeleted",
  labelAdded: "labelsAdded",
  labelRemoved: "labelsRemoved",
} as const;
const TYPES = Object.keys(LIST_FIELD);

/** The history rows after `after`, oldest first, read in batches so filters never cut a page short. */
function* changesAfter(ctx: TwinContext, after: number): Generator<HistoryRow> {
  let cursor = { id: after, seq: Number.MAX_SAFE_INTEGER };
  for (;;) {
    const rows = ctx.db.all<HistoryRow & { seq: number }>(
      `SELECT seq, id, message_id, thread_id, kind, label_ids, message_labels FROM gm_history
       WHERE id > ? OR (id = ? AND seq > ?) ORDER BY id, seq LIMIT 500`,
      cursor.id,
      cursor.id,
      cursor.seq,
    );
    for (const r of rows) {
      cursor = { id: r.id, seq: r.seq };
      yield r;
    }
    if (rows.length < 500) return;
  }
}

const historyQuery = {
  startHistoryId: z
    .string()
    .regex(/^\d{1,20}$/)
    .describe("The historyId to list changes after (from a message, a profile, or a previous list)"),
  // Read as strings: Gmail ignores an empty value, and refuses an unknown one by its proto name.
  historyTypes: z
    .array(z.string())
    .optional()
    .describe("Only these kinds of change: messageAdded, messageDeleted, labelAdded, labelRemoved"),
  labelId: z.string().optional().describe("Only changes to messages with this label"),
  maxResults,
  pageToken: z.string().optional().describe("nextPageToken of the previous page"),
};

function list(ctx: TwinContext, query: z.output<z.ZodObject<typeof historyQuery>>) {
  const start = query.startHistoryId;
  // A uint64 in Gmail's request: digits, at most 2^64 - 1.
  if (BigInt(start) > 0xffff_ffff_ffff_ffffn) fail(badRequest(`Invalid value at 'start_history_id' (TYPE_UINT64), "${start}"`));
  // History before the mailbox's first record is gone: Gmail answers 404, and clients do a full sync.
  if (Number(start) < Number(getMeta(ctx.db, "boot_history_id") ?? "1")) fail(notFound());
  const types = queryList(ctx, query.historyTypes);
  for (const t of types) if (!TYPES.includes(t)) fail(badRequest(`Invalid value at 'history_types', "${t}"`));
  const labelId = query.labelId;
  const max = pageSize(query.maxResults);
  const token = query.pageToken;
  const after = token === undefined ? Number(start) : /^\d+$/.test(token) ? Number(token) : fail(badRequest("Invalid pageToken"));
  const records = new Map<number, { id: string; lists: Record<string, unknown[]> }>();
  let next: string | undefined;
  for (const r of changesAfter(ctx, after)) {
    const labels = JSON.parse(r.label_ids) as string[];
    const current = JSON.parse(r.message_labels) as string[];
    if (types.length && !types.includes(r.kind)) continue;
    if (labelId && !labels.includes(labelId) && !current.includes(labelId)) continue;
    if (!records.has(r.id) && records.size === max) {
      next = String([...records.keys()].pop() ?? after);
      break;
    }
    const record = records.get(r.id) ?? { id: String(r.id), lists: { messages: [] } };
    const message = { id: r.message_id, threadId: r.thread_id };
    record.lists.messages = [...(record.lists.messages ?? []), message];
    const field = LIST_FIELD[r.kind];
    const withLabels = current.length ? { ...message, labelIds: current } : message;
    const entry =
      r.kind === "labelAdded" || r.kind === "labelRemoved"
        ? { message: withLabels, labelIds: labels }
        : { message: r.kind === "messageAdded" ? withLabels : message };
    record.lists[field] = [...(record.lists[field] ?? []), entry];
    records.set(r.id, record);
  }
  const out: Record<string, unknown> = {};
  if (records.size) out.history = [...records.values()].map((r) => ({ id: r.id, ...r.lists }));
  if (next) out.nextPageToken = next;
  out.historyId = String(currentHistoryId(ctx.db));
  return gJson(200, out);
}

export const historyRoutes: readonly Route[] = [
  gmailRoute({
    method: "GET",
    path: "/history",
    operation: "gmail.users.history.list",
    summary: "List the mailbox's changes",
    query: historyQuery,
    handler: (ctx, { query }) => list(ctx, query),
  }),
];
