// Messages as state: insert, read, relabel, delete. Every change writes one history record and
// moves the mailbox's historyId; labels are mirrored into gm_message_labels for indexed lists.
import { binaryString, fromBinaryString, utf8 } from "../../kit/bytes";
import type { Db } from "../../types";
import { isSystemLabel, SPAM_TRASH } from "../labels";
import { headerValue, mimeTree, serialize, snippetOf, type Header, type MailContent, type MimeNode } from "../mime";
import { addToTotal, bumpHistory, nextCount } from "./meta";

export type Form = "structured" | "parsed" | "raw";

export interface StoredMessage {
  id: string;
  threadId: string;
  internalDate: number;
  historyId: number;
  labelIds: string[];
  /**
   * `structured`: composed from `content`. `parsed`: kept as sent in `raw`, and its structured
   * form (`content`) says all of it. `raw`: kept as sent, exported as sent.
   */
  form: Form;
  /** The top-level headers as Gmail serves them (MIME headers included). */
  headers: Header[];
  content: MailContent;
  /** Mail kept as sent: its bytes, one char per byte (a binary string); null for composed mail. */
  raw: string | null;
  snippet: string;
  /** The message's size in bytes (its RFC 822 form), as Gmail estimates it. */
  sizeEstimate: number;
  isDraft: boolean;
}

export interface MessageRow {
  id: string;
  thread_id: string;
  internal_date: number;
  history_id: number;
  label_ids: string;
  form: Form;
  headers: string;
  content: string;
  /** Mail stored before its bytes were kept (UTF-8 text). */
  raw: string | null;
  raw_bytes: ArrayBuffer | null;
  snippet: string;
  size_estimate: number;
  is_draft: number;
}

const NAMES = ["id", "thread_id", "internal_date", "history_id", "label_ids", "form", "headers", "content", "raw", "raw_bytes"] as const;
const MORE_NAMES = ["snippet", "size_estimate", "is_draft"] as const;

/** The columns `fromRow` reads, each under `alias.` when given. */
export const messageColumns = (alias = ""): string => [...NAMES, ...MORE_NAMES].map((c) => (alias ? `${alias}.${c}` : c)).join(", ");
const COLUMNS = messageColumns();

/** The kept bytes of mail stored as sent, as a binary string. */
function rawOfRow(r: Pick<MessageRow, "raw" | "raw_bytes">): string | null {
  if (r.raw_bytes instanceof ArrayBuffer) return binaryString(new Uint8Array(r.raw_bytes));
  return r.raw === null ? null : binaryString(utf8(r.raw));
}

export function fromRow(r: MessageRow): StoredMessage {
  return {
    id: r.id,
    threadId: r.thread_id,
    internalDate: r.internal_date,
    historyId: r.history_id,
    labelIds: JSON.parse(r.label_ids) as string[],
    form: r.form,
    headers: JSON.parse(r.headers) as Header[],
    content: JSON.parse(r.content) as MailContent,
    raw: rawOfRow(r),
    snippet: r.snippet,
    sizeEstimate: r.size_estimate,
    isDraft: r.is_draft === 1,
  };
}

export function getMessage(db: Db, id: string): StoredMessage | undefined {
  const row = db.one<MessageRow>(`SELECT ${COLUMNS} FROM gm_messages WHERE id = ?`, id);
  return row ? fromRow(row) : undefined;
}

export function messagesWhere(db: Db, where: string, ...params: (string | number)[]): StoredMessage[] {
  return db.all<MessageRow>(`SELECT ${COLUMNS} FROM gm_messages WHERE ${where}`, ...params).map(fromRow);
}

export const threadMessages = (db: Db, threadId: string) => messagesWhere(db, "thread_id = ? ORDER BY internal_date, seq", threadId);

/** The tree Gmail's payload is drawn from; a raw message keeps its own top-level headers. */
export function treeOf(m: Pick<StoredMessage, "id" | "form" | "headers" | "content">): MimeNode {
  const tree = mimeTree(m.content, m.id);
  return m.form === "structured" ? tree : { ...tree, headers: m.headers };
}

/** The message's RFC 822 bytes: as sent for mail kept as sent, else composed from its structured form. */
export const rawBytes = (m: StoredMessage): Uint8Array => (m.raw !== null ? fromBinaryString(m.raw) : utf8(serialize(treeOf(m))));

export interface NewMessage {
  id: string;
  threadId: string;
  internalDate: number;
  labelIds: string[];
  content: MailContent;
  /** Present for mail kept as sent: its bytes (a binary string) and its decoded top-level headers. */
  raw?: { text: string; headers: Header[]; fits: boolean };
  isDraft?: boolean;
}

function writeLabels(db: Db, id: string, internalDate: number, add: readonly string[], remove: readonly string[]): void {
  for (const label of remove)
    db.run("DELETE FROM gm_message_labels WHERE label_id = ? AND internal_date = ? AND message_id = ?", label, internalDate, id);
  for (const label of add)
    db.run("INSERT OR IGNORE INTO gm_message_labels (label_id, internal_date, message_id) VALUES (?, ?, ?)", label, internalDate, id);
}

const hiddenBy = (labels: readonly string[]) => (labels.some((l) => (SPAM_TRASH as readonly string[]).includes(l)) ? 1 : 0);

/** One change: the labels it added or removed, and the message's labels once it was made. */
function recordHistory(
  db: Db,
  historyId: number,
  m: { id: string; threadId: string; labelIds: readonly string[] },
  kind: string,
  changed: readonly string[],
): void {
  db.run(
    "INSERT INTO gm_history (id, message_id, thread_id, kind, label_ids, message_labels) VALUES (?, ?, ?, ?, ?, ?)",
    historyId,
    m.id,
    m.threadId,
    kind,
    JSON.stringify(changed),
    JSON.stringify(m.labelIds),
  );
}

/**
 * Stores a message. `historyId` is given at boot (seeded mail has no history of its own);
 * otherwise the insert is a change and is recorded as `messageAdded`.
 */
export function insertMessage(db: Db, m: NewMessage, opts: { historyId?: number } = {}): StoredMessage {
  const threadIsNew = !db.one("SELECT 1 AS x FROM gm_messages WHERE thread_id = ? LIMIT 1", m.threadId);
  const historyId = opts.historyId ?? bumpHistory(db);
  const form: Form = m.raw ? (m.raw.fits ? "parsed" : "raw") : "structured";
  const tree = mimeTree(m.content, m.id);
  const headers = m.raw ? m.raw.headers : tree.headers;
  const stored: StoredMessage = {
    id: m.id,
    threadId: m.threadId,
    internalDate: m.internalDate,
    historyId,
    labelIds: m.labelIds,
    form,
    headers,
    content: m.content,
    raw: m.raw?.text ?? null,
    snippet: snippetOf(m.content),
    sizeEstimate: 0,
    isDraft: m.isDraft ?? false,
  };
  // Counted on the bytes: a non-ASCII body or an 8-bit part counts what it weighs on the wire.
  stored.sizeEstimate = stored.raw !== null ? stored.raw.length : rawBytes(stored).length;
  db.run(
    `INSERT INTO gm_messages (${COLUMNS}, hidden, seq, rfc822_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    stored.id,
    stored.threadId,
    stored.internalDate,
    historyId,
    JSON.stringify(stored.labelIds),
    form,
    JSON.stringify(headers),
    JSON.stringify(stored.content),
    null,
    stored.raw === null ? null : new Uint8Array(fromBinaryString(stored.raw)).buffer,
    stored.snippet,
    stored.sizeEstimate,
    stored.isDraft ? 1 : 0,
    hiddenBy(stored.labelIds),
    nextCount(db, "message_seq", 1),
    /<[^>]+>/.exec(headerValue(headers, "Message-ID") ?? "")?.[0] ?? null,
  );
  writeLabels(db, stored.id, stored.internalDate, stored.labelIds, []);
  addToTotal(db, "messages_total", 1);
  if (threadIsNew) addToTotal(db, "threads_total", 1);
  if (opts.historyId === undefined) recordHistory(db, historyId, stored, "messageAdded", stored.labelIds);
  return stored;
}

/** Applies a label change; an unchanged message is left as it was (no history, no write). */
export function relabel(db: Db, m: StoredMessage, add: readonly string[], remove: readonly string[]): StoredMessage {
  const removing = new Set(remove);
  const kept = m.labelIds.filter((l) => !removing.has(l));
  const added = add.filter((l) => !kept.includes(l) && !removing.has(l));
  const removed = m.labelIds.filter((l) => removing.has(l));
  if (!added.length && !removed.length) return m;
  const labelIds = [...kept, ...added];
  const historyId = bumpHistory(db);
  db.run(
    "UPDATE gm_messages SET label_ids = ?, hidden = ?, history_id = ? WHERE id = ?",
    JSON.stringify(labelIds),
    hiddenBy(labelIds),
    historyId,
    m.id,
  );
  writeLabels(db, m.id, m.internalDate, added, removed);
  const changed = { ...m, labelIds, historyId };
  if (added.length) recordHistory(db, historyId, changed, "labelAdded", added);
  if (removed.length) recordHistory(db, historyId, changed, "labelRemoved", removed);
  return changed;
}

/** Trash takes a message out of the inbox (and spam) into TRASH, remembering where it was. */
export function trashMessage(db: Db, m: StoredMessage): StoredMessage {
  if (m.labelIds.includes("TRASH")) return m;
  const from = m.labelIds.filter((l) => l === "INBOX" || l === "SPAM");
  const trashed = relabel(db, m, ["TRASH"], from);
  db.run("UPDATE gm_messages SET trashed_from = ? WHERE id = ?", JSON.stringify(from), m.id);
  return trashed;
}

/** Untrash removes TRASH and puts back what trash took away; mail labelled TRASH otherwise just loses it. */
export function untrashMessage(db: Db, m: StoredMessage): StoredMessage {
  if (!m.labelIds.includes("TRASH")) return m;
  const row = db.one<{ trashed_from: string | null }>("SELECT trashed_from FROM gm_messages WHERE id = ?", m.id);
  const parsed: unknown = JSON.parse(row?.trashed_from ?? "[]");
  const back = Array.isArray(parsed) ? parsed.filter((l): l is string => l === "INBOX" || l === "SPAM") : [];
  const restored = relabel(db, m, back, ["TRASH"]);
  db.run("UPDATE gm_messages SET trashed_from = NULL WHERE id = ?", m.id);
  return restored;
}

export function deleteMessage(db: Db, m: StoredMessage): void {
  db.run("DELETE FROM gm_messages WHERE id = ?", m.id);
  writeLabels(db, m.id, m.internalDate, [], m.labelIds);
  addToTotal(db, "messages_total", -1);
  if (!db.one("SELECT 1 AS x FROM gm_messages WHERE thread_id = ? LIMIT 1", m.threadId)) addToTotal(db, "threads_total", -1);
  recordHistory(db, bumpHistory(db), { ...m, labelIds: [] }, "messageDeleted", []);
}

/** Whether a label id can be put on a message (system, or a user label of this mailbox). */
export const labelExists = (db: Db, id: string) => isSystemLabel(id) || !!db.one("SELECT 1 AS x FROM gm_labels WHERE id = ?", id);

/** The thread of the mailbox's message with this RFC 822 Message-ID (`<…>`), if any. */
export function threadOfRfc822Id(db: Db, rfc822Id: string): string | undefined {
  return db.one<{ thread_id: string }>("SELECT thread_id FROM gm_messages WHERE rfc822_id = ? LIMIT 1", rfc822Id)?.thread_id;
}

export const subjectOf = (m: { headers: readonly Header[] }) => headerValue(m.headers, "Subject") ?? "";
