// reactions.*, pins.* and bookmarks.*: things people attach to messages and channels.
import type { Route } from "../../types";
import { type Call, method } from "../context";
import { TS_TEXT, USER_TEXT, channelId, cursor, limit, text } from "../declare";
import { fail } from "../errors";
import { channelRow, joinedChannel, notArchived, visibleChannel } from "../store/channels";
import { customEmoji, knownEmoji } from "../store/emoji";
import { messageView, reactionsOf, requireMessage } from "../store/messages";
import { cut, metadata, pageOf } from "../store/paging";
import { type ChannelRow, type MessageRow, newId, nextSeq, nowSeconds } from "../store/rows";
import { requireUser } from "../store/users";

const EMOJI = /^[a-z0-9_+'-]+$/;

/** The message a reaction or pin call names: `channel` + `timestamp`. */
const target = (call: Call, row: ChannelRow, ts: string): MessageRow => requireMessage(call.db, row.id, ts);

/** The message a reaction or pin names; absent, Slack says no item was specified. */
const timestamp = () => text({ missing: "no_item_specified" }).describe(TS_TEXT);
const emoji = () => text({ missing: "invalid_name" }).describe("Emoji name without colons, e.g. white_check_mark");
const bookmarkId = () => text({ missing: "not_found" }).describe("A bookmark id (Bk…)");

/** The reaction's emoji: a name Slack knows (standard, with a skin tone or not, or the workspace's own), else `invalid_name`. */
function emojiName(call: Call, raw: string): string {
  // Slack takes the name without colons, and tolerates them.
  const name = raw.replace(/^:|:$/g, "");
  if (!EMOJI.test(name.replaceAll("::", "")) || !knownEmoji(name, customEmoji(call.db))) fail("invalid_name");
  return name;
}

/** A message as an item of a list (reactions.get/list, pins.list, stars.list), with its permalink. */
export function messageItem(call: Call, channel: string, row: MessageRow) {
  const reactions = reactionsOf(call.db, channel, [row.ts]).get(row.ts) ?? [];
  return {
    type: "message",
    channel,
    message: {
      ...messageView(call, row, reactions),
      permalink: `https://${call.team.domain}.slack.com/archives/${channel}/p${row.ts.replace(".", "")}`,
    },
  };
}

function bookmarkView(call: Call, channel: string, data: { id: string; title: string; link: string; emoji?: string }, seq: number) {
  return {
    id: data.id,
    channel_id: channel,
    title: data.title,
    link: data.link,
    emoji: data.emoji ?? "",
    icon_url: null,
    type: "link",
    entity_id: null,
    date_created: 1700000000,
    date_updated: 0,
    rank: String(seq),
    last_updated_by_user_id: call.installation.bot_user_id,
    last_updated_by_team_id: call.team.id,
    shortcut_id: null,
    app_id: null,
  };
}

const react = { channel: channelId(), timestamp: timestamp(), name: emoji() };
const pin = { channel: channelId(), timestamp: timestamp() };

export const reactionRoutes: Route[] = [
  ...method({
    name: "reactions.add",
    summary: "Adds the caller's emoji reaction to a message",
    scopes: ["reactions:write"],
    args: react,
    tool: { description: "Adds the bot's emoji reaction to a message." },
    handler: (call, args) => {
      const row = notArchived(visibleChannel(call, args.channel));
      const name = emojiName(call, args.name);
      const msg = target(call, row, args.timestamp);
      const had = call.db.one(
        "SELECT 1 AS n FROM sl_reactions WHERE channel = ? AND ts = ? AND name = ? AND user = ?",
        row.id,
        msg.ts,
        name,
        call.actor.user,
      );
      if (had) fail("already_reacted");
      call.db.run(
        "INSERT INTO sl_reactions (channel, ts, name, user, seq) VALUES (?, ?, ?, ?, ?)",
        row.id,
        msg.ts,
        name,
        call.actor.user,
        nextSeq(call.db),
      );
      return {};
    },
  }),
  ...method({
    name: "reactions.remove",
    summary: "Removes the caller's emoji reaction from a message",
    scopes: ["reactions:write"],
    args: react,
    tool: { description: "Removes the bot's emoji reaction from a message.", destructive: true },
    handler: (call, args) => {
      const row = visibleChannel(call, args.channel);
      const name = emojiName(call, args.name);
      const msg = target(call, row, args.timestamp);
      const removed = call.db.run(
        "DELETE FROM sl_reactions WHERE channel = ? AND ts = ? AND name = ? AND user = ?",
        row.id,
        msg.ts,
        name,
        call.actor.user,
      );
      if (!removed) fail("no_reaction");
      return {};
    },
  }),
  ...method({
    name: "reactions.get",
    summary: "A message with its reactions",
    scopes: ["reactions:read"],
    args: pin,
    tool: { description: "A message with its reactions.", readOnly: true },
    handler: (call, args) => {
      const row = visibleChannel(call, args.channel);
      return messageItem(call, row.id, target(call, row, args.timestamp));
    },
  }),
  ...method({
    name: "reactions.list",
    summary: "Messages a user reacted to, most recent first",
    scopes: ["reactions:read"],
    args: { user: text().optional().describe(USER_TEXT), limit: limit(), cursor: cursor() },
    tool: { description: "Messages a user (default: the bot) reacted to.", readOnly: true },
    handler: (call, args) => {
      const user = requireUser(call.db, args.user ?? call.actor.user);
      const page = pageOf(call, "reactions.list", 100, 1000);
      // One item per message, ordered by the user's latest reaction on it.
      const rows = call.db.all<{ channel: string; ts: string; seq: number }>(
        `SELECT channel, ts, max(seq) AS seq FROM sl_reactions WHERE user = ? GROUP BY channel, ts
         HAVING max(seq) < ? ORDER BY seq DESC LIMIT ?`,
        user.id,
        page.after === undefined ? Number.MAX_SAFE_INTEGER : Number(page.after),
        page.limit + 1,
      );
      const { rows: shown, next } = cut(rows, page, "reactions.list", (r) => String(r.seq));
      const items = shown.flatMap((r) => {
        const msg = call.db.one<MessageRow>("SELECT * FROM sl_messages WHERE channel = ? AND ts = ?", r.channel, r.ts);
        const channel = channelRow(call.db, r.channel);
        return msg && channel ? [messageItem(call, r.channel, msg)] : [];
      });
      return { items, ...metadata(next) };
    },
  }),
  ...method({
    name: "pins.add",
    summary: "Pins a message in a channel the caller is in",
    scopes: ["pins:write"],
    args: pin,
    tool: { description: "Pins a message in a channel the bot is in." },
    handler: (call, args) => {
      const row = notArchived(joinedChannel(call, args.channel));
      const msg = target(call, row, args.timestamp);
      if (call.db.one("SELECT 1 AS n FROM sl_pins WHERE channel = ? AND ts = ?", row.id, msg.ts)) fail("already_pinned");
      call.db.run(
        "INSERT INTO sl_pins (channel, ts, created, created_by, seq) VALUES (?, ?, ?, ?, ?)",
        row.id,
        msg.ts,
        nowSeconds(call.clock),
        call.actor.user,
        nextSeq(call.db),
      );
      return {};
    },
  }),
  ...method({
    name: "pins.remove",
    summary: "Unpins a message",
    scopes: ["pins:write"],
    args: pin,
    tool: { description: "Unpins a message.", destructive: true },
    handler: (call, args) => {
      const row = joinedChannel(call, args.channel);
      const msg = target(call, row, args.timestamp);
      if (!call.db.run("DELETE FROM sl_pins WHERE channel = ? AND ts = ?", row.id, msg.ts)) fail("no_pin");
      return {};
    },
  }),
  ...method({
    name: "pins.list",
    summary: "A channel's pinned messages",
    scopes: ["pins:read"],
    args: { channel: channelId() },
    tool: { description: "A channel's pinned messages.", readOnly: true },
    handler: (call, args) => {
      const row = visibleChannel(call, args.channel);
      const pins = call.db.all<{ ts: string; created: number; created_by: string }>(
        "SELECT ts, created, created_by FROM sl_pins WHERE channel = ? ORDER BY seq DESC",
        row.id,
      );
      const items = pins.flatMap((p) => {
        const msg = call.db.one<MessageRow>("SELECT * FROM sl_messages WHERE channel = ? AND ts = ?", row.id, p.ts);
        return msg ? [{ ...messageItem(call, row.id, msg), created: p.created, created_by: p.created_by }] : [];
      });
      return { items };
    },
  }),
  ...method({
    name: "bookmarks.add",
    summary: "Adds a link bookmark to a channel the caller is in",
    scopes: ["bookmarks:write"],
    args: {
      channel_id: channelId(),
      title: text({ missing: "invalid_arguments" }).describe("The bookmark's title"),
      type: text().optional().describe('The bookmark\'s type: only "link" (the default)'),
      link: text({ missing: "invalid_link" }).describe("An http(s) URL"),
      emoji: text().optional().describe("An emoji shown with it, e.g. :link:"),
    },
    tool: { description: "Adds a link bookmark to a channel the bot is in." },
    handler: (call, args) => {
      const row = notArchived(joinedChannel(call, args.channel_id));
      if ((args.type ?? "link") !== "link") fail("invalid_bookmark_type");
      if (!/^https?:\/\//.test(args.link)) fail("invalid_link");
      const id = newId(call.db, "Bk", (b) => call.db.one("SELECT 1 AS n FROM sl_bookmarks WHERE id = ?", b) !== undefined);
      const data = { id, title: args.title, link: args.link, ...(args.emoji ? { emoji: args.emoji } : {}) };
      const seq = nextSeq(call.db);
      call.db.run("INSERT INTO sl_bookmarks (id, channel, seq, data) VALUES (?, ?, ?, ?)", id, row.id, seq, JSON.stringify(data));
      return { bookmark: bookmarkView(call, row.id, data, seq) };
    },
  }),
  ...method({
    name: "bookmarks.list",
    summary: "A channel's bookmarks",
    scopes: ["bookmarks:read"],
    args: { channel_id: channelId() },
    tool: { description: "A channel's bookmarks.", readOnly: true },
    handler: (call, args) => {
      const row = joinedChannel(call, args.channel_id);
      const rows = call.db.all<{ seq: number; data: string }>("SELECT seq, data FROM sl_bookmarks WHERE channel = ? ORDER BY seq", row.id);
      return {
        bookmarks: rows.map((r) =>
          bookmarkView(call, row.id, JSON.parse(r.data) as { id: string; title: string; link: string; emoji?: string }, r.seq),
        ),
      };
    },
  }),
  ...method({
    name: "bookmarks.edit",
    summary: "Edits a bookmark's title, link or emoji",
    scopes: ["bookmarks:write"],
    args: {
      channel_id: channelId(),
      bookmark_id: bookmarkId(),
      link: text().optional().describe("A new http(s) URL"),
      title: text().optional().describe("A new title"),
      emoji: text().optional().describe("A new emoji"),
    },
    tool: { description: "Edits a bookmark's title, link or emoji." },
    handler: (call, args) => {
      const row = notArchived(joinedChannel(call, args.channel_id));
      const hit = bookmarkIn(call, row.id, args.bookmark_id);
      const { link, title, emoji } = args;
      if (link !== undefined && !/^https?:\/\//.test(link)) fail("invalid_link");
      const data = {
        ...hit.data,
        ...(title !== undefined ? { title } : {}),
        ...(link !== undefined ? { link } : {}),
        ...(emoji !== undefined ? { emoji } : {}),
      };
      call.db.run("UPDATE sl_bookmarks SET data = ? WHERE id = ?", JSON.stringify(data), data.id);
      return { bookmark: bookmarkView(call, row.id, data, hit.seq) };
    },
  }),
  ...method({
    name: "bookmarks.remove",
    summary: "Removes a bookmark",
    scopes: ["bookmarks:write"],
    args: { channel_id: channelId(), bookmark_id: bookmarkId() },
    tool: { description: "Removes a bookmark.", destructive: true },
    handler: (call, args) => {
      const row = notArchived(joinedChannel(call, args.channel_id));
      const hit = bookmarkIn(call, row.id, args.bookmark_id);
      call.db.run("DELETE FROM sl_bookmarks WHERE id = ?", hit.data.id);
      return {};
    },
  }),
];

/** The bookmark `bookmark_id` names in a channel, else `not_found` (docs.slack.dev, bookmarks.edit/remove). */
function bookmarkIn(call: Call, channel: string, id: string) {
  const r =
    call.db.one<{ seq: number; data: string }>("SELECT seq, data FROM sl_bookmarks WHERE id = ? AND channel = ?", id, channel) ??
    fail("not_found");
  return { seq: r.seq, data: JSON.parse(r.data) as { id: string; title: string; link: string; emoji?: string } };
}
