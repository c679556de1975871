// Slack search (search.messages, search.files, search.all): the query's words and the modifiers
// the twin understands (`in:#name` / `in:<#C…>`, `from:@name` / `from:<@U…>`), over what the
// user can see, sorted by `score` (how often the words occur, then newest) or `timestamp`, and
// cut to Slack's `count`/`page` with both paging objects Slack answers (`pagination`, `paging`).
// Search reads every message or file in scope: it is the one family whose cost is the corpus.
import type { Call } from "../context";
import { fileViewOf } from "./files";
import type { FileRow, MessageRow } from "./rows";
import { userById } from "./users";

export interface Query {
  words: string[];
  inChannel?: string;
  fromUser?: string;
}

/** Slack's search syntax, the parts the twin understands; an unknown channel or user matches nothing. */
export function parseQuery(call: Call, q: string): Query {
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

export interface SearchPage {
  count: number;
  page: number;
  sort: "score" | "timestamp";
  asc: boolean;
}

/** Slack's count (1-100, default 20) and page (1-100, default 1). */
export function searchPage(args: { count?: number; page?: number; sort?: string; sort_dir?: string }): SearchPage {
  return {
    count: Math.min(Math.max(args.count ?? 20, 1), 100),
    page: Math.min(Math.max(args.page ?? 1, 1), 100),
    sort: args.sort === "timestamp" ? "timestamp" : "score",
    asc: args.sort_dir === "asc",
  };
}

/** How often the query's words occur in a text (the twin's score). */
const scoreOf = (text: string, words: readonly string[]) => words.reduce((n, w) => n + (w === "" ? 0 : text.split(w).length - 1), 0);

/** Hits ordered as asked: by time, or by score then time; `asc` turns either around. */
function ordered<T>(hits: T[], page: SearchPage, textOf: (h: T) => string, timeOf: (h: T) => string, words: string[]): T[] {
  const byTime = (a: T, b: T) => (timeOf(a) < timeOf(b) ? 1 : timeOf(a) > timeOf(b) ? -1 : 0);
  const cmp = page.sort === "timestamp" ? byTime : (a: T, b: T) => scoreOf(textOf(b), words) - scoreOf(textOf(a), words) || byTime(a, b);
  const sorted = [...hits].sort(cmp);
  return page.asc ? sorted.reverse() : sorted;
}

/** A result set's page as Slack answers it: total, matches, and both paging objects. */
function paged<T>(hits: T[], page: SearchPage, view: (h: T) => Record<string, unknown>) {
  const shown = hits.slice((page.page - 1) * page.count, page.page * page.count);
  const pages = Math.max(1, Math.ceil(hits.length / page.count));
  return {
    total: hits.length,
    matches: shown.map(view),
    pagination: {
      total_count: hits.length,
      page: page.page,
      per_page: page.count,
      page_count: pages,
      first: shown.length ? (page.page - 1) * page.count + 1 : 0,
      last: (page.page - 1) * page.count + shown.length,
    },
    paging: { count: page.count, total: hits.length, page: page.page, pages },
  };
}

type MessageHit = MessageRow & { name: string | null; is_private: number; is_im: number; is_mpim: number };

/** search.messages' `messages` object. */
export function searchMessages(call: Call, q: Query, page: SearchPage) {
  const rows = call.db.all<MessageHit>(
    `SELECT m.*, c.name, c.is_private, c.is_im, c.is_mpim FROM sl_messages m JOIN sl_channels c ON c.id = m.channel
     WHERE (c.is_private = 0 OR EXISTS (SELECT 1 FROM sl_members x WHERE x.channel = c.id AND x.user = ?))
       AND (? IS NULL OR m.channel = ?) AND (? IS NULL OR m.user = ?)`,
    call.actor.user,
    q.inChannel ?? null,
    q.inChannel ?? null,
    q.fromUser ?? null,
    q.fromUser ?? null,
  );
  const hits = rows.filter((r) => q.words.every((w) => r.text.toLowerCase().includes(w)));
  const sorted = ordered(
    hits,
    page,
    (r) => r.text.toLowerCase(),
    (r) => r.ts,
    q.words,
  );
  return paged(sorted, page, (r) => ({
    iid: `${r.channel}-${r.ts}`,
    team: call.team.id,
    type: "message",
    channel: {
      id: r.channel,
      name: r.name ?? "",
      is_channel: r.is_private === 0 && r.is_im === 0,
      is_private: r.is_private === 1,
      is_im: r.is_im === 1,
      is_mpim: r.is_mpim === 1,
    },
    user: r.user,
    username: userById(call.db, r.user)?.name ?? "",
    ts: r.ts,
    text: r.text,
    permalink: `https://${call.team.domain}.slack.com/archives/${r.channel}/p${r.ts.replace(".", "")}`,
  }));
}

/** A file's searchable text: its name, title and (text) content. */
function fileText(row: FileRow): string {
  const data = JSON.parse(row.data) as { name?: string; title?: string; encoding?: string };
  const content = data.encoding === "base64" ? "" : (row.content ?? "");
  return `${data.name ?? ""} ${data.title ?? ""} ${content}`.toLowerCase();
}

/** search.files' `files` object: complete files the user can see (shared where they can look, or their own). */
export function searchFiles(call: Call, q: Query, page: SearchPage) {
  const rows = call.db.all<FileRow>(
    `SELECT f.* FROM sl_files f
     WHERE f.complete = 1 AND (? IS NULL OR f.user = ?)
       AND (f.user = ? OR EXISTS (SELECT 1 FROM sl_file_shares s JOIN sl_channels c ON c.id = s.channel WHERE s.file = f.id
             AND (c.is_private = 0 OR EXISTS (SELECT 1 FROM sl_members x WHERE x.channel = c.id AND x.user = ?))))
       AND (? IS NULL OR EXISTS (SELECT 1 FROM sl_file_shares s WHERE s.file = f.id AND s.channel = ?))`,
    q.fromUser ?? null,
    q.fromUser ?? null,
    call.actor.user,
    call.actor.user,
    q.inChannel ?? null,
    q.inChannel ?? null,
  );
  const texts = new Map(rows.map((r) => [r.id, fileText(r)]));
  const hits = rows.filter((r) => q.words.every((w) => (texts.get(r.id) ?? "").includes(w)));
  const time = (r: FileRow) => String(r.created).padStart(12, "0");
  const sorted = ordered(hits, page, (r) => texts.get(r.id) ?? "", time, q.words);
  return paged(sorted, page, (r) => fileViewOf(call, r));
}
