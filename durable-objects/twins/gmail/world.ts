// Boot and export: the seed goes into the gm_ tables and comes back out in the seed's own shape,
// in insertion order, so export(boot(seed)) equals the normalized seed (complete.ts finishes
// normalizing). Tables the seed fills directly are declared once, as column maps, in
// world-tables.ts; messages go in and out through the message store. Raw mail the structured
// form cannot say is parsed by prepareSeed (asynchronous, before the boot transaction).
import type { Db } from "../types";
import { decodeBase64, toBase64Url } from "../kit/bytes";
import type { Clock } from "../types";
import { FIRST_GENERATED_ID, hexId, isGmailId } from "./ids";
import { withDates } from "./complete";
import { isMimeHeader, type MailContent } from "./mime";
import { parseMail, ParsedMail } from "./parse";
import { isRawMessage, type DraftMessage, type GmailMessage, type GmailSeed, type StructuredMessage } from "./seed";
import { fromRow, insertMessage, messageColumns, type MessageRow, type NewMessage, rawBytes, type StoredMessage } from "./store/messages";
import { currentHistoryId, getJson, getMeta, setJson, setMeta } from "./store/meta";
import { DEFAULT_IMAP, DEFAULT_LANGUAGE, DEFAULT_POP } from "./settings";
import { watchOf } from "./store/watch";
import * as T from "./world-tables";
import type { GmailDraft } from "./world-tables";
import { insertObjects, insertPlaced, objectOf, readRows } from "../kit/world-table";

/** A seed list's items, each placed at its position (the order export gives them back in). */
const inList = <V>(items: readonly V[]) => items.map((value, place) => ({ value, place }));

type AnyMessage = GmailMessage | DraftMessage;

async function prepared<T extends AnyMessage>(m: T): Promise<T> {
  if (!isRawMessage(m)) return m;
  const bytes = decodeBase64(m.raw);
  const parsed = bytes ? await parseMail(bytes) : "invalid";
  if (!(parsed instanceof ParsedMail)) throw new Error(`message ${m.id}: raw is not an RFC 822 message`);
  return { ...m, parsed };
}

/** Parses the seed's raw mail ahead of boot. */
export async function prepareGmailSeed(seed: GmailSeed): Promise<GmailSeed> {
  return {
    ...seed,
    messages: await Promise.all(seed.messages.map(prepared)),
    drafts: await Promise.all(seed.drafts.map(async (d) => ({ ...d, message: await prepared(d.message) }))),
  };
}

function newMessage(m: AnyMessage, labelIds: string[], isDraft: boolean, now: number): NewMessage {
  const base = { id: m.id, threadId: m.threadId, internalDate: Number(m.internalDate ?? now), labelIds, isDraft };
  if (isRawMessage(m)) {
    const parsed = m.parsed;
    if (!parsed) throw new Error(`message ${m.id}: raw mail must be parsed (prepareSeed) before boot`);
    // Raw mail left raw by normalization is the mail the structured form cannot say: kept as sent.
    return { ...base, content: parsed.content, raw: { text: parsed.raw, headers: parsed.headers, fits: false } };
  }
  const content: MailContent = { headers: m.headers, attachments: m.attachments ?? [] };
  if (m.text !== undefined) content.text = m.text;
  if (m.html !== undefined) content.html = m.html;
  return { ...base, content };
}

export function bootGmail(db: Db, given: GmailSeed, clock: Clock): void {
  // A message with no date of its own takes the sandbox clock (completeSeed did it already in the sandbox).
  const now = clock.now();
  const seed = withDates(given, now);
  const historyId = Number(seed.profile.historyId);
  setMeta(db, "email_address", seed.profile.emailAddress);
  setMeta(db, "history_id", String(historyId));
  setMeta(db, "boot_history_id", String(historyId));
  setJson(db, "send_as", seed.sendAs);
  setJson(db, "vacation", seed.vacation);
  setJson(db, "forwarding_addresses", seed.forwardingAddresses);
  setJson(db, "auto_forwarding", seed.autoForwarding);
  setJson(db, "delegates", seed.delegates);
  setJson(db, "imap", seed.imap);
  setJson(db, "pop", seed.pop);
  setJson(db, "language", seed.language);
  setJson(db, "pubsub_subscriptions", seed.pubsubSubscriptions);
  if (seed.watch) {
    setJson(db, "watch", seed.watch);
    setMeta(db, "watch_notified", String(historyId));
  }
  setJson(db, "correspondents", seed.correspondents);
  setJson(db, "faults", seed.faults);
  setMeta(db, "messages_total", "0");
  setMeta(db, "threads_total", "0");
  let maxLabel = 0;
  for (const l of seed.labels) {
    const n = /^Label_(\d+)$/.exec(l.id);
    if (n) maxLabel = Math.max(maxLabel, Number(n[1]));
  }
  insertPlaced(db, T.labels, inList(seed.labels), undefined);
  setMeta(db, "next_label", String(maxLabel + 1));
  setMeta(db, "label_position", String(seed.labels.length));
  let next = FIRST_GENERATED_ID;
  for (const m of [...seed.messages, ...seed.drafts.map((d) => d.message)]) {
    if (isGmailId(m.id) && BigInt(`0x${m.id}`) >= next) next = BigInt(`0x${m.id}`) + 1n;
  }
  setMeta(db, "next_message_id", hexId(next));
  for (const m of seed.messages) insertMessage(db, newMessage(m, m.labelIds, false, now), { historyId });
  for (const d of seed.drafts) insertMessage(db, newMessage(d.message, ["DRAFT"], true, now), { historyId });
  insertPlaced(db, T.drafts, inList(seed.drafts), undefined);
  setMeta(db, "draft_seq", String(seed.drafts.length));
  insertPlaced(db, T.filters, inList(seed.filters), undefined);
  setMeta(db, "filter_seq", String(seed.filters.length));
  insertObjects(db, T.uploadSessions, seed.uploadSessions, undefined);
  // New sessions are numbered past the seeded ones (store/uploads.ts writes `AHVrFxN` + base 36).
  const numbered = seed.uploadSessions.map((u) => /^AHVrFxN([0-9a-z]{1,10})$/.exec(u.id)?.[1]).filter((n) => n !== undefined);
  if (numbered.length) setMeta(db, "upload_seq", String(Math.max(...numbered.map((n) => Number.parseInt(n, 36))) + 1));
}

/** A stored message in the seed's form: structured when that form says all of it, raw otherwise. */
function exportMessage(
  m: StoredMessage,
): Omit<StructuredMessage, "labelIds"> | { id: string; threadId: string; internalDate: string; raw: string } {
  const base = { id: m.id, threadId: m.threadId, internalDate: String(m.internalDate) };
  if (m.form === "raw" && m.raw !== null) return { ...base, raw: toBase64Url(rawBytes(m)) };
  const out: Omit<StructuredMessage, "labelIds"> = { ...base, headers: m.content.headers.filter((h) => !isMimeHeader(h.name)) };
  if (m.content.text !== undefined) out.text = m.content.text;
  if (m.content.html !== undefined) out.html = m.content.html;
  if (m.content.attachments.length) out.attachments = m.content.attachments;
  return out;
}

export function exportGmail(db: Db): GmailSeed {
  const watch = watchOf(db);
  const rows = db.all<MessageRow>(`SELECT ${messageColumns()} FROM gm_messages ORDER BY seq`).map(fromRow);
  const messages: GmailMessage[] = [];
  const stored = new Map<string, StoredMessage>();
  for (const m of rows) {
    if (m.isDraft) stored.set(m.id, m);
    else messages.push({ ...exportMessage(m), labelIds: m.labelIds });
  }
  // Drafts come out in the order they were made, as they went in, each with its message.
  const drafts = readRows(db, T.drafts.table, "ORDER BY seq").flatMap((row): GmailDraft[] => {
    const message = stored.get(String(row.message_id));
    return message ? [objectOf(T.drafts, row, undefined, { message: exportMessage(message) })] : [];
  });
  return {
    profile: { emailAddress: getMeta(db, "email_address") ?? "", historyId: String(currentHistoryId(db)) },
    sendAs: getJson(db, "send_as", []),
    labels: readRows(db, T.labels.table, "ORDER BY position, id").map((l) => objectOf(T.labels, l, undefined)),
    messages,
    drafts,
    filters: readRows(db, T.filters.table, "ORDER BY seq").map((f) => objectOf(T.filters, f, undefined)),
    vacation: getJson(db, "vacation", { enableAutoReply: false }),
    forwardingAddresses: getJson(db, "forwarding_addresses", []),
    autoForwarding: getJson(db, "auto_forwarding", { enabled: false }),
    delegates: getJson(db, "delegates", []),
    imap: getJson(db, "imap", DEFAULT_IMAP),
    pop: getJson(db, "pop", DEFAULT_POP),
    language: getJson(db, "language", DEFAULT_LANGUAGE),
    pubsubSubscriptions: getJson(db, "pubsub_subscriptions", []),
    ...(watch ? { watch } : {}),
    correspondents: getJson(db, "correspondents", []),
    faults: getJson(db, "faults", []),
    uploadSessions: readRows(db, T.uploadSessions.table, "ORDER BY created_at, id").map((u) => objectOf(T.uploadSessions, u, undefined)),
  };
}
