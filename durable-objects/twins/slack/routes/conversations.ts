// The conversations.* methods: listing and reading channels (history without thread replies
// unless broadcast, replies parent-first), and managing them, with Slack's membership rules:
// the bot sees every public channel but reads and writes only where it is a member.
import type { Route } from "../../types";
import { type Call, method } from "../context";
import { TS_TEXT, USER_TEXT, channelId, cursor, flag, limit, list, text, typeList } from "../declare";
import { fail } from "../errors";
import {
  channelByName,
  channelRow,
  channelView,
  imWith,
  isMember,
  mpimWith,
  joinedChannel,
  notArchived,
  setChannelData,
  visibleChannel,
} from "../store/channels";
import { messageRow, messageViews, writeMessage } from "../store/messages";
import { cut, metadata, pageOf } from "../store/paging";
import { type ChannelData, type ChannelRow, type MessageData, type MessageRow, channelData, newId, nowSeconds } from "../store/rows";
import { requireUser } from "../store/users";

const READ = ["channels:read", "groups:read", "im:read", "mpim:read"];
const HISTORY = ["channels:history", "groups:history", "im:history", "mpim:history"];
// A bot manages public channels with channels:manage, a user with channels:write.
const MANAGE = ["channels:manage", "channels:write", "groups:write"];
const TYPES = ["public_channel", "private_channel", "mpim", "im"] as const;
const excludeArchived = () => flag().optional().describe("Leave archived conversations out");
type ConversationType = (typeof TYPES)[number];

/** The conversation types a `types` argument names (default public channels), else `invalid_types`. */
export function conversationTypes(raw: readonly string[] = ["public_channel"]): ConversationType[] {
  return raw.map((t) => TYPES.find((k) => k === t) ?? fail("invalid_types"));
}

/** The SQL condition for a set of conversation types on the channel table aliased `alias`. */
export function typeFilter(types: readonly ConversationType[], alias: string): string {
  const parts: string[] = [];
  if (types.includes("public_channel")) parts.push(`(${alias}.is_im = 0 AND ${alias}.is_private = 0)`);
  if (types.includes("private_channel")) parts.push(`(${alias}.is_im = 0 AND ${alias}.is_private = 1 AND ${alias}.is_mpim = 0)`);
  if (types.includes("mpim")) parts.push(`${alias}.is_mpim = 1`);
  if (types.includes("im")) parts.push(`${alias}.is_im = 1`);
  return parts.length ? `(${parts.join(" OR ")})` : "0";
}

/** A channel name as Slack accepts it, else its own error code. */
function validName(raw: string): string {
  if (raw === "") return fail("invalid_name_required");
  const name = raw.startsWith("#") ? raw.slice(1) : raw;
  if (name.length > 80) return fail("invalid_name_maxlength");
  if (!/^[a-z0-9_-]+$/.test(name)) return fail("invalid_name_specials");
  return name;
}

const newChannelId = (call: Call, prefix: string) => newId(call.db, prefix, (id) => channelRow(call.db, id) !== undefined);

/** A channel event message (a join, a topic change…) the twin writes as Slack does. */
function event(call: Call, channel: string, user: string, subtype: MessageData["subtype"], text: string): MessageRow {
  return writeMessage(call.db, call.clock, { channel, user, text, data: { subtype } });
}

function requireManage(call: Call, row: ChannelRow): void {
  const needed = row.is_private ? "groups:write" : call.actor.kind === "user" ? "channels:write" : "channels:manage";
  if (!call.actor.scopes.has(needed)) fail("missing_scope", { needed, provided: call.actor.scope });
}

/** The history bounds Slack takes: `oldest`, `latest`, `inclusive`. */
const boundArgs = {
  oldest: text().optional().describe(`Only messages after this ts (${TS_TEXT})`),
  latest: text().optional().describe(`Only messages before this ts (${TS_TEXT})`),
  inclusive: flag().optional().describe("Include messages at oldest and latest themselves"),
};

function bounds(args: { oldest?: string; latest?: string; inclusive?: boolean }) {
  return { oldest: args.oldest ?? "0", latest: args.latest ?? "9999999999.999999", inclusive: args.inclusive ?? false };
}

function setText(call: Call, which: "topic" | "purpose", channel: string, value = "") {
  const row = notArchived(joinedChannel(call, channel));
  requireManage(call, row);
  if (value.length > 250) fail("too_long");
  const data = channelData(row);
  const next: ChannelData = { ...data, [which]: { value, creator: call.actor.user, last_set: nowSeconds(call.clock) } };
  setChannelData(call.db, row.id, next);
  const text = which === "topic" ? `set the channel topic: ${value}` : `set the channel purpose: ${value}`;
  event(call, row.id, call.actor.user, which === "topic" ? "channel_topic" : "channel_purpose", text);
  return { channel: channelView(call, channelRow(call.db, row.id) ?? row) };
}

export const conversationRoutes: Route[] = [
  ...method({
    name: "conversations.list",
    summary: "Conversations the caller can see, a page at a time",
    scopes: READ,
    args: { types: typeList(), exclude_archived: excludeArchived(), limit: limit(), cursor: cursor() },
    tool: {
      description: "Conversations the bot can see: every public channel, and private ones and DMs it is in.",
      readOnly: true,
    },
    handler: (call, args) => {
      const types = conversationTypes(args.types);
      const excludeArchived = args.exclude_archived ?? false;
      const page = pageOf(call, "conversations.list", 100, 1000);
      const rows = call.db.all<ChannelRow>(
        `SELECT c.* FROM sl_channels c WHERE c.id > ? AND ${typeFilter(types, "c")} AND (? = 0 OR c.is_archived = 0)
           AND (c.is_private = 0 OR EXISTS (SELECT 1 FROM sl_members m WHERE m.channel = c.id AND m.user = ?))
         ORDER BY c.id LIMIT ?`,
        page.after ?? "",
        excludeArchived ? 1 : 0,
        call.actor.user,
        page.limit + 1,
      );
      const { rows: shown, next } = cut(rows, page, "conversations.list", (r) => r.id);
      return { channels: shown.map((r) => channelView(call, r, { numMembers: true })), ...metadata(next) };
    },
  }),
  ...method({
    name: "conversations.info",
    summary: "One conversation",
    scopes: READ,
    args: { channel: channelId(), include_num_members: flag().optional().describe("Include num_members") },
    tool: { description: "One conversation: name, topic, purpose, membership.", readOnly: true },
    handler: (call, args) => {
      const row = visibleChannel(call, args.channel);
      return { channel: channelView(call, row, { numMembers: args.include_num_members ?? false }) };
    },
  }),
  ...method({
    name: "conversations.history",
    summary: "A channel's messages, newest first, without thread replies unless broadcast",
    scopes: HISTORY,
    args: { channel: channelId(), limit: limit(), cursor: cursor(), ...boundArgs },
    tool: {
      description:
        "A channel's messages, newest first; thread replies are left out unless broadcast (read them with conversations_replies). The bot must be a member.",
      readOnly: true,
    },
    handler: (call, args) => {
      const row = joinedChannel(call, args.channel);
      const page = pageOf(call, "conversations.history", 100, 999);
      const b = bounds(args);
      const latest = page.after ?? b.latest;
      const rows = call.db.all<MessageRow>(
        `SELECT * FROM sl_messages WHERE channel = ? AND in_history = 1
           AND (ts < ? OR (? AND ts = ?)) AND (ts > ? OR (? AND ts = ?))
         ORDER BY ts DESC LIMIT ?`,
        row.id,
        latest,
        page.after === undefined && b.inclusive ? 1 : 0,
        latest,
        b.oldest,
        b.inclusive ? 1 : 0,
        b.oldest,
        page.limit + 1,
      );
      const { rows: shown, next } = cut(rows, page, "conversations.history", (r) => r.ts);
      const pins = call.db.one<{ n: number }>("SELECT count(*) AS n FROM sl_pins WHERE channel = ?", row.id)?.n ?? 0;
      return {
        messages: messageViews(call, row.id, shown),
        has_more: next !== "",
        pin_count: pins,
        channel_actions_ts: null,
        channel_actions_count: 0,
        ...metadata(next),
      };
    },
  }),
  ...method({
    name: "conversations.replies",
    summary: "A thread: its parent first, then its replies oldest first",
    scopes: HISTORY,
    args: {
      channel: channelId(),
      ts: text({ missing: "invalid_arguments" }).describe(`The thread's parent or one of its replies (${TS_TEXT})`),
      limit: limit(),
      cursor: cursor(),
      ...boundArgs,
    },
    tool: { description: "A thread: its parent message first, then the replies oldest first. The bot must be a member.", readOnly: true },
    handler: (call, args) => {
      const row = joinedChannel(call, args.channel);
      const hit = messageRow(call.db, row.id, args.ts) ?? fail("thread_not_found");
      const parentTs = hit.thread_ts ?? hit.ts;
      const parent = messageRow(call.db, row.id, parentTs) ?? fail("thread_not_found");
      const page = pageOf(call, "conversations.replies", 1000, 1000);
      const b = bounds(args);
      const oldest = page.after ?? b.oldest;
      const rows = call.db.all<MessageRow>(
        `SELECT * FROM sl_messages WHERE channel = ? AND thread_ts = ? AND ts != ?
           AND (ts > ? OR (? AND ts = ?)) AND (ts < ? OR (? AND ts = ?))
         ORDER BY ts LIMIT ?`,
        row.id,
        parent.ts,
        parent.ts,
        oldest,
        page.after === undefined && b.inclusive ? 1 : 0,
        oldest,
        b.latest,
        b.inclusive ? 1 : 0,
        b.latest,
        page.limit + 1,
      );
      const { rows: shown, next } = cut(rows, page, "conversations.replies", (r) => r.ts);
      return { messages: messageViews(call, row.id, [parent, ...shown]), has_more: next !== "", ...metadata(next) };
    },
  }),
  ...method({
    name: "conversations.members",
    summary: "Who is in a conversation, a page at a time",
    scopes: READ,
    args: { channel: channelId(), limit: limit(), cursor: cursor() },
    tool: { description: "Who is in a conversation.", readOnly: true },
    handler: (call, args) => {
      const row = visibleChannel(call, args.channel);
      const page = pageOf(call, "conversations.members", 100, 1000);
      const rows = call.db.all<{ user: string }>(
        "SELECT user FROM sl_members WHERE channel = ? AND user > ? ORDER BY user LIMIT ?",
        row.id,
        page.after ?? "",
        page.limit + 1,
      );
      const { rows: shown, next } = cut(rows, page, "conversations.members", (r) => r.user);
      return { members: shown.map((r) => r.user), ...metadata(next) };
    },
  }),
  ...method({
    name: "conversations.create",
    summary: "Creates a channel; the caller is its creator and first member",
    scopes: MANAGE,
    args: {
      name: text({ missing: "invalid_name_required" }).describe("Lowercase letters, digits, - and _"),
      is_private: flag().optional().describe("Create a private channel"),
    },
    tool: { description: "Creates a channel; the bot becomes its creator and first member." },
    handler: (call, args) => {
      const name = validName(args.name);
      const isPrivate = args.is_private ?? false;
      const needed = isPrivate ? "groups:write" : call.actor.kind === "user" ? "channels:write" : "channels:manage";
      if (!call.actor.scopes.has(needed)) fail("missing_scope", { needed, provided: call.actor.scope });
      if (channelByName(call.db, name)) fail("name_taken");
      const id = newChannelId(call, "C");
      const data: ChannelData = {
        is_general: false,
        creator: call.actor.user,
        topic: { value: "", creator: "", last_set: 0 },
        purpose: { value: "", creator: "", last_set: 0 },
      };
      call.db.run(
        "INSERT INTO sl_channels (id, name, is_im, im_user, is_private, is_archived, created, data) VALUES (?, ?, 0, NULL, ?, 0, ?, ?)",
        id,
        name,
        isPrivate ? 1 : 0,
        nowSeconds(call.clock),
        JSON.stringify(data),
      );
      call.db.run("INSERT INTO sl_members (channel, user) VALUES (?, ?)", id, call.actor.user);
      const row = channelRow(call.db, id) ?? fail("channel_not_found");
      return { channel: channelView(call, row) };
    },
  }),
  ...method({
    name: "conversations.join",
    summary: "Joins a public channel",
    scopes: ["channels:join"],
    args: { channel: channelId() },
    tool: { description: "Joins a public channel." },
    handler: (call, args) => {
      const row = visibleChannel(call, args.channel);
      if (row.is_private) fail("method_not_supported_for_channel_type");
      notArchived(row);
      if (isMember(call.db, row.id, call.actor.user)) {
        return { channel: channelView(call, row), warning: "already_in_channel", response_metadata: { warnings: ["already_in_channel"] } };
      }
      call.db.run("INSERT INTO sl_members (channel, user) VALUES (?, ?)", row.id, call.actor.user);
      event(call, row.id, call.actor.user, "channel_join", `<@${call.actor.user}> has joined the channel`);
      return { channel: channelView(call, row) };
    },
  }),
  ...method({
    name: "conversations.invite",
    summary: "Adds users to a conversation the caller is in",
    scopes: MANAGE,
    args: { channel: channelId(), users: list({ missing: "no_user" }).describe("Comma list of user ids") },
    tool: { description: "Invites users to a channel the bot is in." },
    handler: (call, args) => {
      const row = notArchived(joinedChannel(call, args.channel));
      requireManage(call, row);
      if (row.is_im) fail("method_not_supported_for_channel_type");
      const users = args.users;
      if (!users.length) fail("no_user");
      const fresh: string[] = [];
      for (const id of users) {
        requireUser(call.db, id);
        if (id === call.actor.user) fail("cant_invite_self");
        if (isMember(call.db, row.id, id)) {
          if (users.length === 1) fail("already_in_channel");
          continue;
        }
        fresh.push(id);
      }
      for (const id of fresh) {
        call.db.run("INSERT INTO sl_members (channel, user) VALUES (?, ?)", row.id, id);
        event(call, row.id, id, "channel_join", `<@${id}> has joined the channel`);
      }
      return { channel: channelView(call, row) };
    },
  }),
  ...method({
    name: "conversations.kick",
    summary: "Removes a user from a conversation the caller is in",
    scopes: MANAGE,
    args: { channel: channelId(), user: text({ missing: "user_not_found" }).describe(USER_TEXT) },
    tool: { description: "Removes a user from a channel the bot is in.", destructive: true },
    handler: (call, args) => {
      const row = joinedChannel(call, args.channel);
      requireManage(call, row);
      const user = requireUser(call.db, args.user);
      if (user.id === call.actor.user) fail("cant_kick_self");
      if (channelData(row).is_general) fail("cant_kick_from_general");
      if (!isMember(call.db, row.id, user.id)) fail("not_in_channel");
      call.db.run("DELETE FROM sl_members WHERE channel = ? AND user = ?", row.id, user.id);
      return {};
    },
  }),
  ...method({
    name: "conversations.leave",
    summary: "Leaves a conversation",
    scopes: MANAGE,
    args: { channel: channelId() },
    tool: { description: "The bot leaves a channel.", destructive: true },
    handler: (call, args) => {
      const row = visibleChannel(call, args.channel);
      if (channelData(row).is_general) fail("cant_leave_general");
      if (row.is_im) fail("method_not_supported_for_channel_type");
      if (!isMember(call.db, row.id, call.actor.user)) return { not_in_channel: true };
      requireManage(call, row);
      call.db.run("DELETE FROM sl_members WHERE channel = ? AND user = ?", row.id, call.actor.user);
      event(call, row.id, call.actor.user, "channel_leave", `<@${call.actor.user}> has left the channel`);
      return {};
    },
  }),
  ...method({
    name: "conversations.archive",
    summary: "Archives a channel the caller is in",
    scopes: MANAGE,
    args: { channel: channelId() },
    tool: { description: "Archives a channel the bot is in.", destructive: true },
    handler: (call, args) => {
      const row = joinedChannel(call, args.channel);
      requireManage(call, row);
      if (row.is_archived) fail("already_archived");
      if (channelData(row).is_general) fail("cant_archive_general");
      if (row.is_im) fail("method_not_supported_for_channel_type");
      event(call, row.id, call.actor.user, "channel_archive", "archived the channel");
      call.db.run("UPDATE sl_channels SET is_archived = 1 WHERE id = ?", row.id);
      return {};
    },
  }),
  ...method({
    name: "conversations.unarchive",
    summary: "Unarchives a channel",
    scopes: MANAGE,
    args: { channel: channelId() },
    tool: { description: "Unarchives a channel." },
    handler: (call, args) => {
      const row = visibleChannel(call, args.channel);
      // docs.slack.dev: "Bot tokens (xoxb-...) cannot currently be used to unarchive conversations";
      // Slack answers them `not_in_channel` (observed: open-cli-collective/slack-chat-api#29).
      if (call.actor.kind === "bot") fail("not_in_channel");
      if (!isMember(call.db, row.id, call.actor.user)) fail("not_in_channel");
      requireManage(call, row);
      if (!row.is_archived) fail("not_archived");
      call.db.run("UPDATE sl_channels SET is_archived = 0 WHERE id = ?", row.id);
      return {};
    },
  }),
  ...method({
    name: "conversations.rename",
    summary: "Renames a channel the caller is in",
    scopes: MANAGE,
    args: {
      channel: channelId(),
      name: text({ missing: "invalid_name_required" }).describe("The new name: lowercase letters, digits, - and _"),
    },
    tool: { description: "Renames a channel the bot is in." },
    handler: (call, args) => {
      const row = notArchived(joinedChannel(call, args.channel));
      requireManage(call, row);
      if (row.is_im) fail("method_not_supported_for_channel_type");
      const name = validName(args.name);
      const taken = channelByName(call.db, name);
      if (taken && taken.id !== row.id) fail("name_taken");
      const old = row.name ?? "";
      call.db.run("UPDATE sl_channels SET name = ? WHERE id = ?", name, row.id);
      event(call, row.id, call.actor.user, "channel_name", `renamed the channel from "${old}" to "${name}"`);
      return { channel: channelView(call, channelRow(call.db, row.id) ?? row) };
    },
  }),
  ...method({
    name: "conversations.setTopic",
    summary: "Sets a channel's topic",
    scopes: MANAGE,
    args: { channel: channelId(), topic: text().optional().describe("The new topic (empty clears it)") },
    tool: { description: "Sets a channel's topic; answers the channel." },
    handler: (call, args) => setText(call, "topic", args.channel, args.topic),
  }),
  ...method({
    name: "conversations.setPurpose",
    summary: "Sets a channel's purpose",
    scopes: MANAGE,
    args: { channel: channelId(), purpose: text().optional().describe("The new purpose (empty clears it)") },
    tool: { description: "Sets a channel's purpose; answers the channel." },
    handler: (call, args) => setText(call, "purpose", args.channel, args.purpose),
  }),
  ...method({
    name: "conversations.open",
    summary: "Opens (or finds) the direct message with one user, or the group DM (mpim) with several",
    scopes: ["im:write", "mpim:write"],
    args: {
      channel: text().optional().describe("An open conversation's id, to resume it instead of naming users"),
      users: list().optional().describe("One user id, or a comma list of up to 8 for a group DM"),
      return_im: flag().optional().describe("Answer the whole conversation object"),
    },
    tool: { description: "Opens (or finds) the direct message with one user, or the group DM with several." },
    handler: (call, args) => {
      const full = args.return_im ?? false;
      if (args.channel !== undefined) {
        const row = visibleChannel(call, args.channel);
        return { no_op: true, already_open: true, channel: full ? channelView(call, row) : { id: row.id } };
      }
      const users = [...new Set(args.users ?? fail("users_list_not_supplied"))].filter((u) => u !== call.actor.user);
      if (users.length > 1) {
        // A group DM: at most 8 people besides the caller (docs.slack.dev, conversations.open `users`).
        if (users.length > 8) fail("too_many_users");
        if (!call.actor.scopes.has("mpim:write")) fail("missing_scope", { needed: "mpim:write", provided: call.actor.scope });
        for (const u of users) requireUser(call.db, u);
        const { row, existed } = mpimWith(call, users, () => newChannelId(call, "G"));
        return { no_op: existed, already_open: existed, channel: full ? channelView(call, row) : { id: row.id } };
      }
      if (!users.length) fail("users_list_not_supplied");
      if (!call.actor.scopes.has("im:write")) fail("missing_scope", { needed: "im:write", provided: call.actor.scope });
      const user = requireUser(call.db, users[0]);
      const before = call.db.one<{ id: string }>("SELECT id FROM sl_channels WHERE im_user = ? AND is_im = 1", user.id);
      const row = imWith(call, user.id, () => newChannelId(call, "D"));
      const already = before !== undefined;
      return { no_op: already, already_open: already, channel: full ? channelView(call, row) : { id: row.id } };
    },
  }),
  ...method({
    name: "conversations.close",
    summary: "Closes a direct message or group DM (it stays, with its history)",
    scopes: ["im:write", "mpim:write", "channels:manage", "groups:write"],
    args: { channel: channelId() },
    tool: { description: "Closes a direct message or group DM." },
    handler: (call, args) => {
      const row = visibleChannel(call, args.channel);
      // Only DMs and group DMs close; a channel is left or archived instead.
      if (!row.is_im && row.is_mpim !== 1) fail("method_not_supported_for_channel_type");
      const key = `closed:${row.id}:${call.actor.user}`;
      const closed = call.db.one<{ value: string }>("SELECT value FROM sl_meta WHERE key = ?", key) !== undefined;
      if (closed) return { no_op: true, already_closed: true };
      call.db.run("INSERT INTO sl_meta (key, value) VALUES (?, '1')", key);
      return {};
    },
  }),
  ...method({
    name: "conversations.mark",
    summary: "Moves the caller's read cursor in a conversation",
    scopes: ["channels:manage", "groups:write", "im:write"],
    args: { channel: channelId(), ts: text({ missing: "invalid_timestamp" }).describe(TS_TEXT) },
    tool: { description: "Moves the bot's read cursor in a conversation." },
    handler: (call, args) => {
      const row = joinedChannel(call, args.channel);
      const ts = args.ts;
      if (!/^\d{10}\.\d{6}$/.test(ts)) fail("invalid_timestamp");
      call.db.run("INSERT OR REPLACE INTO sl_meta (key, value) VALUES (?, ?)", `last_read:${row.id}:${call.actor.user}`, ts);
      return {};
    },
  }),
];
