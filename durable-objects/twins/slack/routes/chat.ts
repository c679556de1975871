// The chat.* methods: posting (by channel id or name, or a user id for the bot's DM with them),
// threads with reply_broadcast, edits, deletes, ephemeral messages, permalinks, /me messages and
// scheduled messages. The bot posts only where it is a member, unless the installation has
// `chat:write.public` and the channel is public.
import type { Route } from "../../types";
import { MAX_ATTACHMENTS, attachmentAsKept, attachmentProblems } from "../attachments";
import { blockProblems, invalidBlocksExtra } from "../blocks";
import { directoryOf, storedText } from "../mrkdwn";
import { type Call, method } from "../context";
import { TS_TEXT, USER_TEXT, channelId, cursor, flag, int, json, limit, objects, postChannel, text } from "../declare";
import { fail } from "../errors";
import type { SlackMessage } from "../seed";
import { channelRow, findChannel, imWith, isMember, canSee } from "../store/channels";
import { isReply, messageRow, messageView, newMessageData, requireMessage, deleteMessage, writeMessage } from "../store/messages";
import { cut, metadata, pageOf } from "../store/paging";
import { type ChannelRow, type MessageData, SCHEDULED_KIND, messageData, newId, nowSeconds, scheduledData } from "../store/rows";
import { triggerScripted } from "../store/scripted";
import { userById } from "../store/users";

const WRITE = ["chat:write"];
/** chat.scheduleMessage accepts post_at up to 120 days ahead. */
const MAX_SCHEDULE_SECONDS = 120 * 24 * 3600;

const newChannelId = (call: Call, prefix: string) => newId(call.db, prefix, (id) => channelRow(call.db, id) !== undefined);

/** The conversation a post goes to: an id, a name (`#general` or `general`), or a user id for the DM with them. */
export function postTarget(call: Call, raw: string | undefined): ChannelRow {
  if (raw === undefined) return fail("channel_not_found");
  let row = findChannel(call, raw, true);
  if (!row && /^[UW][A-Z0-9]+$/.test(raw) && userById(call.db, raw)) row = imWith(call, raw, () => newChannelId(call, "D"));
  if (!row || !canSee(call, row)) return fail("channel_not_found");
  if (row.is_archived) fail("is_archived");
  if (!isMember(call.db, row.id, call.actor.user)) {
    const publicOk = row.is_private === 0 && call.actor.scopes.has("chat:write.public");
    if (!publicOk) fail("not_in_channel");
  }
  return row;
}

/** A message's content arguments: text, blocks, attachments (at least one of them, the handler says). */
const contentArgs = {
  text: text().optional().describe("Message text (Slack mrkdwn)"),
  parse: text().optional().describe("full: read the text as typed by a person (escaped, names and URLs linked); none (default)"),
  link_names: flag().optional().describe("Turn @name, @here and #channel in the text into mentions"),
  blocks: json(objects, { wrong: "invalid_blocks" }).optional().describe("Block Kit blocks"),
  attachments: json(objects, { wrong: "invalid_attachments" }).optional().describe("Legacy attachments"),
};

type Json = Record<string, unknown>;

interface Content {
  text?: string;
  parse?: string;
  link_names?: boolean;
  /** Lists of objects: the declaration refused anything else with the method's own code. */
  blocks?: Json[];
  attachments?: Json[];
}

/** A message's content from the arguments: text (as Slack stores it), blocks or attachments, at least one of them. */
function content(call: Call, args: Content): { text: string; fields: Partial<SlackMessage> } {
  const { blocks, attachments } = args;
  const text = args.text === undefined ? undefined : storedText(args.text, args.parse, args.link_names, directoryOf(call));
  if (blocks !== undefined) {
    const problems = blockProblems(blocks);
    if (problems.length) fail("invalid_blocks", invalidBlocksExtra(problems));
  }
  if (attachments && attachments.length > MAX_ATTACHMENTS) fail("too_many_attachments");
  if (attachments) {
    const problems = attachmentProblems(attachments);
    if (problems.length) fail("invalid_attachments", invalidBlocksExtra(problems));
  }
  const kept = attachments?.map(attachmentAsKept);
  if (text === undefined && !blocks?.length && !attachments?.length) fail("no_text");
  const fields: Partial<SlackMessage> = {};
  if (blocks?.length) fields.blocks = blocks;
  if (kept?.length) fields.attachments = kept;
  return { text: text ?? "", fields };
}

/** The bot's id on what it writes: the bot user's profile.bot_id. */
const botIdOf = (call: Call) => (call.actor.kind === "bot" ? userById(call.db, call.actor.user)?.profile.bot_id : undefined);

/** The thread a post replies in, which must be a message of that channel. */
function threadOf(call: Call, channel: string, threadTs: string | undefined): string | undefined {
  if (threadTs === undefined) return undefined;
  requireMessage(call.db, channel, threadTs, "thread_not_found");
  return threadTs;
}

/** Posts as the caller, and arms any scripted reply the message matches. */
export function postAs(call: Call, channel: string, text: string, data: MessageData, threadTs: string | undefined) {
  const botId = botIdOf(call);
  if (botId !== undefined) data.bot_id = botId;
  const row = writeMessage(call.db, call.clock, { channel, user: call.actor.user, text, data, threadTs });
  triggerScripted(call, row);
  return row;
}

function scheduledView(s: { id: string; channel_id: string; post_at: number; text: string; thread_ts?: string }, created: number) {
  return {
    id: s.id,
    channel_id: s.channel_id,
    post_at: s.post_at,
    date_created: created,
    text: s.text,
    ...(s.thread_ts ? { thread_ts: s.thread_ts } : {}),
  };
}

const threadTs = () => text().optional().describe(TS_TEXT);

export const chatRoutes: Route[] = [
  ...method({
    name: "chat.postMessage",
    summary: "Posts a message, in a thread with thread_ts (reply_broadcast shows it in the channel too)",
    scopes: WRITE,
    args: {
      ...contentArgs,
      channel: postChannel(),
      thread_ts: threadTs(),
      reply_broadcast: flag().optional().describe("With thread_ts: also show the reply in the channel"),
    },
    tool: {
      description: "Posts a message; with thread_ts it replies in that thread (reply_broadcast also shows it in the channel).",
    },
    handler: (call, args) => {
      // Content first: a refused post must write nothing, not even the DM a user id would open.
      const { text, fields } = content(call, args);
      const row = postTarget(call, args.channel);
      const thread = threadOf(call, row.id, args.thread_ts);
      const broadcast = thread !== undefined && (args.reply_broadcast ?? false);
      const data = newMessageData({ ...fields, ...(broadcast ? { subtype: "thread_broadcast" } : {}) });
      const posted = postAs(call, row.id, text, data, thread);
      return { channel: row.id, ts: posted.ts, message: messageView(call, posted) };
    },
  }),
  ...method({
    name: "chat.meMessage",
    summary: "Posts a /me message",
    scopes: WRITE,
    args: { text: text({ missing: "no_text" }).describe("Message text (Slack mrkdwn)"), channel: postChannel() },
    tool: { description: "Posts a /me message." },
    handler: (call, args) => {
      const row = postTarget(call, args.channel);
      const posted = postAs(call, row.id, args.text, { subtype: "me_message" }, undefined);
      return { channel: row.id, ts: posted.ts };
    },
  }),
  ...method({
    name: "chat.update",
    summary: "Edits one of the caller's messages",
    scopes: WRITE,
    args: { channel: channelId(), ts: text({ missing: "message_not_found" }).describe(TS_TEXT), ...contentArgs },
    tool: { description: "Edits one of the bot's messages." },
    handler: (call, args) => {
      const row = channelRow(call.db, args.channel) ?? fail("channel_not_found");
      if (!canSee(call, row)) fail("channel_not_found");
      const msg = requireMessage(call.db, row.id, args.ts);
      if (msg.user !== call.actor.user) fail("cant_update_message");
      if (row.is_archived) fail("is_archived");
      const { text, fields } = content(call, args);
      const data: MessageData = { ...messageData(msg), ...fields, edited: { user: call.actor.user, ts: nowTs(call) } };
      call.db.run("UPDATE sl_messages SET text = ?, data = ? WHERE channel = ? AND ts = ?", text, JSON.stringify(data), row.id, msg.ts);
      const updated = messageRow(call.db, row.id, msg.ts) ?? msg;
      // chat.update's message carries no ts of its own (the answer's ts is it): @slack/web-api's
      // ChatUpdateResponse, generated from Slack's answers, has none.
      const { ts: _ts, ...view } = messageView(call, updated);
      return { channel: row.id, ts: msg.ts, text, message: view };
    },
  }),
  ...method({
    name: "chat.delete",
    summary: "Deletes one of the caller's messages (a thread's parent takes its replies with it)",
    scopes: WRITE,
    args: { channel: channelId(), ts: text({ missing: "message_not_found" }).describe(TS_TEXT) },
    tool: { description: "Deletes one of the bot's messages.", destructive: true },
    handler: (call, args) => {
      const row = channelRow(call.db, args.channel) ?? fail("channel_not_found");
      if (!canSee(call, row)) fail("channel_not_found");
      const msg = requireMessage(call.db, row.id, args.ts);
      if (msg.user !== call.actor.user) fail("cant_delete_message");
      deleteMessage(call.db, msg);
      return { channel: row.id, ts: msg.ts };
    },
  }),
  ...method({
    name: "chat.postEphemeral",
    summary: "Shows a message to one member of a channel; nothing is stored",
    scopes: WRITE,
    args: {
      ...contentArgs,
      user: text({ missing: "user_not_found" }).describe(USER_TEXT),
      channel: postChannel(),
      thread_ts: threadTs(),
    },
    tool: { description: "Shows a message to one member of a channel only; nothing is stored." },
    handler: (call, args) => {
      content(call, args);
      if (!userById(call.db, args.user)) fail("user_not_found");
      const row = postTarget(call, args.channel);
      if (!isMember(call.db, row.id, args.user)) fail("user_not_in_channel");
      threadOf(call, row.id, args.thread_ts);
      // Ephemeral messages are never stored: the ts is the clock's, not a message's.
      const now = call.clock.now();
      return { message_ts: `${Math.floor(now / 1000)}.${String((now % 1000) * 1000).padStart(6, "0")}` };
    },
  }),
  ...method({
    name: "chat.getPermalink",
    summary: "A message's permalink",
    scopes: [],
    args: { channel: channelId(), message_ts: text({ missing: "message_not_found" }).describe(TS_TEXT) },
    tool: { description: "A message's permalink.", readOnly: true },
    handler: (call, args) => {
      const row = channelRow(call.db, args.channel) ?? fail("channel_not_found");
      if (!canSee(call, row)) fail("channel_not_found");
      const msg = requireMessage(call.db, row.id, args.message_ts);
      const base = `https://${call.team.domain}.slack.com/archives/${row.id}/p${msg.ts.replace(".", "")}`;
      const permalink = isReply(msg) && msg.thread_ts !== null ? `${base}?thread_ts=${msg.thread_ts}&cid=${row.id}` : base;
      return { channel: row.id, permalink };
    },
  }),
  ...method({
    name: "chat.scheduleMessage",
    summary: "Schedules a message; it is posted when post_at passes on the sandbox clock",
    scopes: WRITE,
    args: {
      post_at: int({ missing: "invalid_time" }).describe("Unix seconds, in the future and at most 120 days ahead"),
      ...contentArgs,
      channel: postChannel(),
      thread_ts: threadTs(),
    },
    tool: { description: "Schedules a message for post_at (Unix seconds, at most 120 days ahead)." },
    handler: (call, args) => {
      const postAt = args.post_at;
      const now = nowSeconds(call.clock);
      if (postAt <= now) fail("time_in_past");
      if (postAt > now + MAX_SCHEDULE_SECONDS) fail("time_too_far");
      const { text } = content(call, args);
      const row = postTarget(call, args.channel);
      const thread = threadOf(call, row.id, args.thread_ts);
      const id = newId(call.db, "Q", (q) => call.db.one("SELECT 1 AS n FROM sl_scheduled WHERE id = ?", q) !== undefined);
      const scheduled = {
        id,
        channel_id: row.id,
        post_at: postAt,
        text,
        ...(thread ? { thread_ts: thread } : {}),
        user: call.actor.user,
      };
      call.db.run(
        "INSERT INTO sl_scheduled (id, channel, post_at, created, data) VALUES (?, ?, ?, ?, ?)",
        id,
        row.id,
        postAt,
        now,
        JSON.stringify(scheduled),
      );
      call.ctx.schedule(SCHEDULED_KIND, { id }, { seconds: Math.max(0, postAt - call.clock.now() / 1000) });
      const botId = botIdOf(call);
      return {
        channel: row.id,
        scheduled_message_id: id,
        post_at: postAt,
        message: { type: "message", text, user: call.actor.user, ...(botId ? { bot_id: botId } : {}), team: call.team.id },
      };
    },
  }),
  ...method({
    name: "chat.deleteScheduledMessage",
    summary: "Cancels a scheduled message",
    scopes: WRITE,
    args: {
      channel: channelId(),
      scheduled_message_id: text({ missing: "invalid_scheduled_message_id" }).describe("The id chat.scheduleMessage answered (Q…)"),
    },
    tool: { description: "Cancels a scheduled message.", destructive: true },
    handler: (call, args) => {
      const hit = call.db.one<{ channel: string }>("SELECT channel FROM sl_scheduled WHERE id = ?", args.scheduled_message_id);
      if (!hit || hit.channel !== args.channel) fail("invalid_scheduled_message_id");
      call.db.run("DELETE FROM sl_scheduled WHERE id = ?", args.scheduled_message_id);
      return {};
    },
  }),
  ...method({
    name: "chat.scheduledMessages.list",
    summary: "Messages scheduled and not yet posted",
    // docs.slack.dev names no scope for this method.
    scopes: [],
    args: { channel: text().optional().describe("A conversation id (C…, G…, D…)"), limit: limit(), cursor: cursor() },
    tool: { description: "Messages scheduled and not yet posted.", readOnly: true },
    handler: (call, args) => {
      const channel = args.channel;
      const page = pageOf(call, "chat.scheduledMessages.list", 100, 100);
      const rows = call.db.all<{ id: string; created: number; data: string }>(
        "SELECT id, created, data FROM sl_scheduled WHERE (? IS NULL OR channel = ?) AND id > ? ORDER BY id LIMIT ?",
        channel ?? null,
        channel ?? null,
        page.after ?? "",
        page.limit + 1,
      );
      const { rows: shown, next } = cut(rows, page, "chat.scheduledMessages.list", (r) => r.id);
      return { scheduled_messages: shown.map((r) => scheduledView(scheduledData(r.data), r.created)), ...metadata(next) };
    },
  }),
];

/** An edit's ts: the sandbox clock in Slack's form. */
function nowTs(call: Call): string {
  const now = call.clock.now();
  return `${Math.floor(now / 1000)}.${String((now % 1000) * 1000).padStart(6, "0")}`;
}
