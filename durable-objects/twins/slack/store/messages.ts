// Messages and threads: writing a message (a reply moves its parent's reply_count, reply_users
// and latest_reply), reading one or a page, and the message object Slack answers with.
import type { Db } from "../../types";
import { groupBy } from "../../kit/sql";
import type { Clock } from "../../types";
import type { Call } from "../context";
import { fail } from "../errors";
import { derivedBlock, directoryOf } from "../mrkdwn";
import type { SlackMessage } from "../seed";
import { fileView } from "./files";
import { type MessageData, type MessageRow, type ReactionRow, inHistory, messageData, newTs, stringList } from "./rows";
import { userById } from "./users";

export const messageRow = (db: Db, channel: string, ts: string) =>
  db.one<MessageRow>("SELECT * FROM sl_messages WHERE channel = ? AND ts = ?", channel, ts);
export const requireMessage = (db: Db, channel: string, ts: string | undefined, error = "message_not_found"): MessageRow =>
  (ts === undefined ? undefined : messageRow(db, channel, ts)) ?? fail(error);

export interface NewMessage {
  channel: string;
  user: string;
  text: string;
  data: MessageData;
  /** The thread it replies in (a reply's own thread_ts is resolved to its parent's). */
  threadTs?: string;
}

/** Writes a message with a fresh ts; a reply updates its parent's thread fields. */
export function writeMessage(db: Db, clock: Clock, m: NewMessage): MessageRow {
  const ts = newTs(db, clock);
  let threadTs: string | null = null;
  if (m.threadTs !== undefined) {
    const parent = messageRow(db, m.channel, m.threadTs);
    // A reply to a reply joins the parent's thread, as on Slack.
    threadTs = parent && parent.thread_ts !== null && parent.thread_ts !== parent.ts ? parent.thread_ts : m.threadTs;
  }
  const visible = inHistory({ ts, thread_ts: threadTs, subtype: m.data.subtype });
  db.run(
    "INSERT INTO sl_messages (channel, ts, thread_ts, user, in_history, text, data) VALUES (?, ?, ?, ?, ?, ?, ?)",
    m.channel,
    ts,
    threadTs,
    m.user,
    visible ? 1 : 0,
    m.text,
    JSON.stringify(m.data),
  );
  if (threadTs !== null) refreshThread(db, m.channel, threadTs);
  for (const f of m.data.files ?? []) db.run("INSERT OR IGNORE INTO sl_file_shares (file, channel, ts) VALUES (?, ?, ?)", f, m.channel, ts);
  return messageRow(db, m.channel, ts) ?? fail("message_not_found");
}

/** Recounts a thread's replies into its parent (the cost is the thread's length). */
export function refreshThread(db: Db, channel: string, threadTs: string): void {
  const replies = db.all<{ ts: string; user: string }>(
    "SELECT ts, user FROM sl_messages WHERE channel = ? AND thread_ts = ? AND ts != ? ORDER BY ts",
    channel,
    threadTs,
    threadTs,
  );
  const users = [...new Set(replies.map((r) => r.user))];
  db.run(
    "UPDATE sl_messages SET reply_count = ?, reply_users = ?, latest_reply = ? WHERE channel = ? AND ts = ?",
    replies.length,
    JSON.stringify(users),
    replies.at(-1)?.ts ?? null,
    channel,
    threadTs,
  );
}

export function deleteMessage(db: Db, row: MessageRow): void {
  const replies =
    row.reply_count > 0
      ? db.all<{ ts: string }>("SELECT ts FROM sl_messages WHERE channel = ? AND thread_ts = ? AND ts != ?", row.channel, row.ts, row.ts)
      : [];
  for (const ts of [row.ts, ...replies.map((r) => r.ts)]) {
    db.run("DELETE FROM sl_messages WHERE channel = ? AND ts = ?", row.channel, ts);
    db.run("DELETE FROM sl_reactions WHERE channel = ? AND ts = ?", row.channel, ts);
    db.run("DELETE FROM sl_pins WHERE channel = ? AND ts = ?", row.channel, ts);
    db.run("DELETE FROM sl_file_shares WHERE channel = ? AND ts = ?", row.channel, ts);
  }
  if (row.thread_ts !== null && row.thread_ts !== row.ts) refreshThread(db, row.channel, row.thread_ts);
}

export const isReply = (row: MessageRow) => row.thread_ts !== null && row.thread_ts !== row.ts;

/** The reactions of some messages of one channel, in one query. */
export function reactionsOf(db: Db, channel: string, tss: readonly string[]): Map<string, ReactionRow[]> {
  if (!tss.length) return new Map();
  // One message (reactions.get, a reaction's own answer) reads its rows by key: the json_each form
  // cost three times as much for a single timestamp.
  const rows =
    tss.length === 1
      ? db.all<ReactionRow>("SELECT * FROM sl_reactions WHERE channel = ? AND ts = ? ORDER BY seq", channel, tss[0] ?? "")
      : db.all<ReactionRow>(
          "SELECT * FROM sl_reactions WHERE channel = ? AND ts IN (SELECT value FROM json_each(?)) ORDER BY seq",
          channel,
          JSON.stringify(tss),
        );
  return groupBy(rows, (r) => r.ts);
}

export function reactionList(rows: readonly ReactionRow[]): { name: string; users: string[]; count: number }[] {
  return [...groupBy(rows, (r) => r.name)].map(([name, list]) => ({ name, users: list.map((r) => r.user), count: list.length }));
}

/** The message object Slack answers with; the bot's messages carry both `user` and `bot_id`. */
export function messageView(call: Call, row: MessageRow, reactions: readonly ReactionRow[] = []): Record<string, unknown> {
  const data = messageData(row);
  const author = userById(call.db, row.user);
  const view: Record<string, unknown> = { type: "message" };
  if (data.subtype !== undefined) view.subtype = data.subtype;
  view.user = row.user;
  view.text = row.text;
  view.ts = row.ts;
  view.team = call.team.id;
  const botId = data.bot_id ?? author?.profile.bot_id;
  if (botId !== undefined) {
    view.bot_id = botId;
    view.app_id = call.installation.app_id;
    view.bot_profile = {
      id: botId,
      app_id: call.installation.app_id,
      name: author?.name ?? "",
      icons: {},
      deleted: false,
      updated: 1700000000,
      team_id: call.team.id,
    };
  }
  if (data.blocks) view.blocks = data.blocks;
  else if (row.text !== "" && (data.subtype === undefined || data.subtype === "thread_broadcast")) {
    // Slack derives a rich_text block from a text-only message's mrkdwn (mrkdwn.ts).
    view.blocks = [derivedBlock(row.text, directoryOf(call))];
  }
  if (data.attachments) view.attachments = data.attachments;
  if (data.files) {
    view.files = data.files.map((id) => fileView(call, id) ?? { id, mode: "tombstone" });
    view.upload = false;
    view.display_as_bot = false;
  }
  if (data.edited) view.edited = data.edited;
  if (isReply(row)) {
    view.thread_ts = row.thread_ts;
    const parent = row.thread_ts === null ? undefined : messageRow(call.db, row.channel, row.thread_ts);
    if (parent) view.parent_user_id = parent.user;
  } else if (row.reply_count > 0 || row.thread_ts === row.ts) {
    view.thread_ts = row.ts;
    view.reply_count = row.reply_count;
    const users = stringList(row.reply_users);
    view.reply_users = users;
    view.reply_users_count = users.length;
    view.latest_reply = row.latest_reply ?? row.ts;
    view.is_locked = false;
    view.subscribed = false;
  }
  if (reactions.length) view.reactions = reactionList(reactions);
  return view;
}

/** Views of several messages of one channel, their reactions read in one query. */
export function messageViews(call: Call, channel: string, rows: readonly MessageRow[]): Record<string, unknown>[] {
  const reactions = reactionsOf(
    call.db,
    channel,
    rows.map((r) => r.ts),
  );
  return rows.map((r) => messageView(call, r, reactions.get(r.ts) ?? []));
}

/** What a posted message keeps beyond its text: blocks, attachments, files, a subtype, the bot's id. */
export function newMessageData(fields: Partial<SlackMessage>): MessageData {
  const data: MessageData = {};
  if (fields.subtype !== undefined) data.subtype = fields.subtype;
  if (fields.blocks !== undefined) data.blocks = fields.blocks;
  if (fields.attachments !== undefined) data.attachments = fields.attachments;
  if (fields.files !== undefined) data.files = fields.files;
  if (fields.bot_id !== undefined) data.bot_id = fields.bot_id;
  return data;
}
