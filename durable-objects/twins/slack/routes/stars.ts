// Saved items (stars.add, stars.list, stars.remove): what Slack's "Save for later" keeps, a
// person's own list of messages, files and conversations. docs.slack.dev still names the methods
// stars.* ("Save an item for later. Formerly known as adding a star.") and gives them user scopes
// only (stars:write, stars:read), so a bot token is `not_allowed_token_type`. Refusals are the
// methods' pages': `no_item_specified`, `channel_not_found`, `bad_timestamp`, `message_not_found`,
// `file_not_found`, `file_comment_not_found` (file comments are not modelled), `already_starred`,
// `not_starred`. stars.list pages with `count` and `page` and answers Slack's `paging` object
// (per_page, spill, page, total, pages); newest first. Given `cursor` or `limit` it pages by cursor
// instead, as the method's page offers both (docs.slack.dev/reference/methods/stars.list: `cursor`,
// `limit`; output `response_metadata.next_cursor`), and answers `response_metadata` without `paging`.
import type { Route } from "../../types";
import { type Call, method } from "../context";
import { TS_TEXT, cursor, int, limit, text } from "../declare";
import { fail } from "../errors";
import { type SlackStar, starKey } from "../seed-surfaces";
import { canSee, channelRow } from "../store/channels";
import { fileRow, fileViewOf } from "../store/files";
import { messageRow } from "../store/messages";
import { cut, metadata, pageOf } from "../store/paging";
import { nowSeconds } from "../store/rows";
import { messageItem } from "./reactions";

const TS = /^\d+\.\d+$/;

const item = {
  channel: text().optional().describe("A conversation id: the message's (with timestamp), or the conversation itself"),
  timestamp: text().optional().describe(`The message's ts (${TS_TEXT})`),
  file: text().optional().describe("A file id (F…)"),
  file_comment: text().optional().describe("A file comment id (file comments are not modelled: never found)"),
};

/** The item a call names, checked as Slack does, without its owner and date. */
function namedItem(call: Call, args: { channel?: string; timestamp?: string; file?: string; file_comment?: string }): SlackStar {
  if (args.file_comment !== undefined) return fail("file_comment_not_found");
  if (args.file !== undefined) {
    if (!fileRow(call.db, args.file)?.complete) return fail("file_not_found");
    return { user: call.actor.user, file: args.file };
  }
  if (args.channel === undefined) return fail("no_item_specified");
  const channel = channelRow(call.db, args.channel);
  if (!channel || !canSee(call, channel)) return fail("channel_not_found");
  if (args.timestamp === undefined) return { user: call.actor.user, channel: channel.id };
  if (!TS.test(args.timestamp)) return fail("bad_timestamp");
  if (!messageRow(call.db, channel.id, args.timestamp)) return fail("message_not_found");
  return { user: call.actor.user, channel: channel.id, ts: args.timestamp };
}

/** A saved item as stars.list answers it; undefined once what it names is gone. */
function itemView(call: Call, s: SlackStar): Record<string, unknown> | undefined {
  const date_create = s.date_create ?? 0;
  if (s.file !== undefined) {
    const row = fileRow(call.db, s.file);
    return row?.complete ? { type: "file", file: fileViewOf(call, row), date_create } : undefined;
  }
  const channel = channelRow(call.db, s.channel ?? "");
  if (!channel) return undefined;
  if (s.ts === undefined) {
    const type = channel.is_im ? "im" : channel.is_private ? "group" : "channel";
    return { type, channel: channel.id, date_create };
  }
  const row = messageRow(call.db, channel.id, s.ts);
  return row ? { ...messageItem(call, channel.id, row), date_create } : undefined;
}

export const starRoutes: Route[] = [
  ...method({
    name: "stars.add",
    summary: "Saves a message, file or conversation for later (the caller's saved items)",
    scopes: ["stars:write"],
    token: "user",
    args: item,
    tool: { description: "Saves a message (channel + timestamp), a file or a conversation for later. User token only." },
    handler: (call, args) => {
      const saved = namedItem(call, args);
      const key = starKey(saved);
      if (call.db.one("SELECT 1 AS n FROM sl_stars WHERE user = ? AND item = ?", call.actor.user, key)) fail("already_starred");
      const data: SlackStar = { ...saved, date_create: nowSeconds(call.clock) };
      call.db.run("INSERT INTO sl_stars (user, item, data) VALUES (?, ?, ?)", call.actor.user, key, JSON.stringify(data));
      return {};
    },
  }),
  ...method({
    name: "stars.remove",
    summary: "Removes an item from the caller's saved items",
    scopes: ["stars:write"],
    token: "user",
    args: item,
    tool: { description: "Removes a message, file or conversation from the caller's saved items. User token only.", destructive: true },
    handler: (call, args) => {
      const key = starKey(namedItem(call, args));
      if (!call.db.run("DELETE FROM sl_stars WHERE user = ? AND item = ?", call.actor.user, key)) fail("not_starred");
      return {};
    },
  }),
  ...method({
    name: "stars.list",
    summary: "The caller's saved items, newest first, by count and page or by cursor",
    scopes: ["stars:read"],
    token: "user",
    args: {
      count: int().optional().describe("Items per page (1-1000, default 100)"),
      page: int().optional().describe("Page number (default 1)"),
      limit: limit(),
      cursor: cursor(),
    },
    tool: { description: "The caller's saved items (messages, files, conversations), newest first. User token only.", readOnly: true },
    handler: (call, args) => {
      const view = (r: { data: string }) => itemView(call, JSON.parse(r.data) as SlackStar) ?? [];
      if (args.cursor !== undefined || args.limit !== undefined) {
        // Cursor paging: a page may hold fewer items than `limit` when what one names is gone,
        // which the method's page allows ("Fewer than the requested number of items may be returned").
        const at = pageOf(call, "stars.list", 100, 1000);
        if (at.after !== undefined && !/^\d+$/.test(at.after)) fail("invalid_cursor");
        const rows = call.db.all<{ seq: number; data: string }>(
          "SELECT rowid AS seq, data FROM sl_stars WHERE user = ? AND rowid < ? ORDER BY rowid DESC LIMIT ?",
          call.actor.user,
          at.after === undefined ? Number.MAX_SAFE_INTEGER : Number(at.after),
          at.limit + 1,
        );
        const { rows: shown, next } = cut(rows, at, "stars.list", (r) => String(r.seq));
        return { items: shown.flatMap(view), ...metadata(next) };
      }
      const count = Math.min(Math.max(args.count ?? 100, 1), 1000);
      const page = Math.max(args.page ?? 1, 1);
      const rows = call.db.all<{ data: string }>("SELECT data FROM sl_stars WHERE user = ? ORDER BY rowid DESC", call.actor.user);
      const items = rows.flatMap(view);
      const pages = Math.max(1, Math.ceil(items.length / count));
      return {
        items: items.slice((page - 1) * count, page * count),
        paging: { per_page: count, spill: 0, page, total: items.length, pages },
      };
    },
  }),
];
