// search.messages (a user token's method: with the bot token it is `not_allowed_token_type`, as on
// Slack) and emoji.list.
import type { Route } from "../../types";
import { type Call, method } from "../context";
import { int, text } from "../declare";
import { customEmoji } from "../store/emoji";
import type { MessageRow } from "../store/rows";
import { userById } from "../store/users";

interface Query {
  words: string[];
  inChannel?: string;
  fromUser?: string;
}

/** Slack's search syntax, the parts the twin understands: words, `in:#name` / `in:<#C…>`, `from:@name` / `from:<@U…>`. */
function parseQuery(call: Call, q: string): Query {
  const out: Query = { words: [] };
  for (const token of q.split(/\s+/).filter(Boolean)) {
    const inMatch = /^in:(?:<#([A-Z0-9]+)(?:\|[^>]*)?>|#?([a-z0-9_-]+))$/i.exec(token);
    const fromMatch = /^from:(?:<@([A-Z0-9]+)>|@?([a-z0-9._-]+))$/i.exec(token);
    if (inMatch) {
      out.inChannel =
        inMatch[1] ?? call.db.one<{ id: string }>("SELECT id FROM sl_channels WHERE name = ?", (inMatch[2] ?? "").toLowerCase())?.id ?? "-";
    } else if (fromMatch) {
      out.fromUser = fromMatch[1] ?? call.db.one<{ id: string }>("SELECT id FROM sl_users WHERE name = ?", fromMatch[2] ?? "")?.id ?? "-";
    } else out.words.push(token.toLowerCase());
  }
  return out;
}

export const miscRoutes: Route[] = [
  ...method({
    name: "search.messages",
    summary: "Messages matching a query, in conversations the user can see",
    scopes: ["search:read"],
    token: "user",
    args: {
      query: text().optional().describe("Words, with in:#channel and from:@user"),
      count: int().optional().describe("Matches per page (1-100, default 20)"),
      page: int().optional().describe("The page, from 1"),
      sort_dir: text().optional().describe("asc or desc (default desc, newest first)"),
    },
    tool: {
      description:
        "Searches messages (needs a user token; the bot token is refused with not_allowed_token_type, as on Slack). Supports in:#channel and from:@user.",
      readOnly: true,
    },
    handler: (call, args) => {
      const raw = args.query ?? "";
      const q = parseQuery(call, raw);
      const count = Math.min(Math.max(args.count ?? 20, 1), 100);
      const page = Math.max(args.page ?? 1, 1);
      const asc = args.sort_dir === "asc";
      // Search reads every message of the conversations in scope: it is the one method whose cost is the corpus.
      const rows = call.db.all<MessageRow & { name: string | null; is_private: number; is_im: number }>(
        `SELECT m.*, c.name, c.is_private, c.is_im FROM sl_messages m JOIN sl_channels c ON c.id = m.channel
         WHERE (c.is_private = 0 OR EXISTS (SELECT 1 FROM sl_members x WHERE x.channel = c.id AND x.user = ?))
           AND (? IS NULL OR m.channel = ?) AND (? IS NULL OR m.user = ?)
         ORDER BY m.ts ${asc ? "ASC" : "DESC"}`,
        call.actor.user,
        q.inChannel ?? null,
        q.inChannel ?? null,
        q.fromUser ?? null,
        q.fromUser ?? null,
      );
      const hits = rows.filter((r) => q.words.every((w) => r.text.toLowerCase().includes(w)));
      const shown = hits.slice((page - 1) * count, page * count);
      const pages = Math.max(1, Math.ceil(hits.length / count));
      const matches = shown.map((r) => {
        return {
          iid: `${r.channel}-${r.ts}`,
          team: call.team.id,
          type: "message",
          channel: {
            id: r.channel,
            name: r.name ?? "",
            is_channel: r.is_private === 0,
            is_private: r.is_private === 1,
            is_im: r.is_im === 1,
            is_mpim: false,
          },
          user: r.user,
          username: userById(call.db, r.user)?.name ?? "",
          ts: r.ts,
          text: r.text,
          permalink: `https://${call.team.domain}.slack.com/archives/${r.channel}/p${r.ts.replace(".", "")}`,
        };
      });
      return {
        query: raw,
        messages: {
          total: hits.length,
          matches,
          pagination: {
            total_count: hits.length,
            page,
            per_page: count,
            page_count: pages,
            first: shown.length ? (page - 1) * count + 1 : 0,
            last: (page - 1) * count + shown.length,
          },
          paging: { count, total: hits.length, page, pages },
        },
      };
    },
  }),
  ...method({
    name: "emoji.list",
    summary: "The workspace's custom emoji: each name's image URL, or alias:<name>",
    scopes: ["emoji:read"],
    tool: { description: "The workspace's custom emoji: each name's image URL or alias:<name>.", readOnly: true },
    handler: (call) => ({ emoji: customEmoji(call.db), cache_ts: `${Math.floor(call.clock.now() / 1000)}.000000` }),
  }),
];
