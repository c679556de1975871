// Listing messages newest first (internalDate, then id), as one walk over an index: the first
// requested label's (label, date) index, or the messages' own date index. Further labels (AND),
// the spam/trash default and the `q` search filter the walk; a page stops at maxResults + 1. The
// position is compared as a row value, so SQLite seeks the index to it instead of scanning down.
import type { Db } from "../../types";
import { badRequest, fail } from "../errors";
import { fromRow, messageColumns, type StoredMessage } from "./messages";
import { labelNames } from "./labels";
import { mailboxAddresses } from "./meta";
import { parseQuery, searchDoc } from "./search";

export interface ListOptions {
  labelIds: readonly string[];
  q: string | undefined;
  includeSpamTrash: boolean;
  now: number;
}

const BATCH = 200;
const COLUMNS = messageColumns("m");

export interface Position {
  date: number;
  id: string;
}

export const tokenOf = (m: StoredMessage) => `${m.internalDate}:${m.id}`;

export function positionOf(token: string | null): Position | undefined {
  if (!token) return undefined;
  const m = /^(\d+):([0-9a-f]{1,16})$/.exec(token);
  return m ? { date: Number(m[1]), id: m[2] } : fail(badRequest("Invalid pageToken"));
}

/** Whether a message stands at a position or before it in list order (newer, or as new with a greater or equal id). */
export const isAtOrBefore = (m: StoredMessage, p: Position) => m.internalDate > p.date || (m.internalDate === p.date && m.id >= p.id);

/** The list's filters as one test: every label (AND), the spam/trash default, the `q` search. */
export function matcher(db: Db, opts: ListOptions): (m: StoredMessage) => boolean {
  const query = opts.q?.trim() ? parseQuery(opts.q, opts.now) : undefined;
  const names = query ? labelNames(db) : new Map<string, string>();
  const own = query ? mailboxAddresses(db) : [];
  const hiddenOk =
    opts.includeSpamTrash || opts.labelIds.includes("SPAM") || opts.labelIds.includes("TRASH") || (query?.reachesSpamTrash ?? false);
  return (m) =>
    opts.labelIds.every((l) => m.labelIds.includes(l)) &&
    (hiddenOk || !(m.labelIds.includes("SPAM") || m.labelIds.includes("TRASH"))) &&
    (!query || query.matches(searchDoc(m, names, own)));
}

/** Messages in list order from `after` on, each passing the filters. */
export function* walk(db: Db, opts: ListOptions, after?: Position, batch = BATCH): Generator<StoredMessage> {
  const passes = matcher(db, opts);
  const [first] = opts.labelIds;
  let cursor: Position = after ?? { date: Number.MAX_SAFE_INTEGER, id: "g" };
  for (;;) {
    const rows = first
      ? db.all<Parameters<typeof fromRow>[0]>(
          `SELECT ${COLUMNS} FROM gm_message_labels l JOIN gm_messages m ON m.id = l.message_id
           WHERE l.label_id = ? AND (l.internal_date, l.message_id) < (?, ?)
           ORDER BY l.internal_date DESC, l.message_id DESC LIMIT ?`,
          first,
          cursor.date,
          cursor.id,
          batch,
        )
      : db.all<Parameters<typeof fromRow>[0]>(
          `SELECT ${COLUMNS} FROM gm_messages m WHERE (m.internal_date, m.id) < (?, ?)
           ORDER BY m.internal_date DESC, m.id DESC LIMIT ?`,
          cursor.date,
          cursor.id,
          batch,
        );
    for (const row of rows) {
      const m = fromRow(row);
      cursor = { date: m.internalDate, id: m.id };
      if (passes(m)) yield m;
    }
    if (rows.length < batch) return;
  }
}

/** One page of the walk, and the token of the next when there is one. */
export function page(db: Db, opts: ListOptions, maxResults: number, token: string | null): { items: StoredMessage[]; next?: string } {
  const items: StoredMessage[] = [];
  // The first batch is the page and one more (to know a next page exists); filtered walks read on.
  for (const m of walk(db, opts, positionOf(token), Math.min(BATCH, maxResults + 1))) {
    if (items.length === maxResults) {
      const last = items[items.length - 1];
      return { items, next: last ? tokenOf(last) : undefined };
    }
    items.push(m);
  }
  return { items };
}
