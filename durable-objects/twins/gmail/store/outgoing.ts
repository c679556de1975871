// Sending: what Gmail adds to outgoing mail (From, Date, Message-ID), how a reply joins a thread,
// and the scripted replies of seeded correspondents, delivered later through the platform's
// timed mechanism (ctx.schedule → deliver).
import { addressParser } from "postal-mime";
import { binaryString, utf8 } from "../../kit/bytes";
import { isBody } from "../../kit/input";
import type { Db } from "../../types";
import type { Clock, TwinContext } from "../../types";
import { badRequest, fail, notFound } from "../errors";
import { checkedId } from "../ids";
import { headerValue, rfc2822, type Header, type MailContent } from "../mime";
import type { ParsedMail } from "../parse";
import type { GmailCorrespondent, GmailSendAs } from "../seed";
import { getJson, mailboxAddress, mailboxAddresses, nextMessageId } from "./meta";
import { insertMessage, threadMessages, threadOfRfc822Id, type NewMessage, type StoredMessage } from "./messages";
import { filterMatcher, storedCriteria } from "./filters";
import { searchDoc } from "./search";
import { labelNames } from "./labels";

/** A message to be stored: its structured content and, for mail sent as RFC 822, that text. */
export interface Mail {
  content: MailContent;
  /** Mail sent as RFC 822: its bytes as sent (a binary string, one char per byte). */
  raw?: { text: string; headers: Header[]; fits: boolean };
}

export const mailOf = (parsed: ParsedMail): Mail => ({
  content: parsed.content,
  raw: { text: parsed.raw, headers: parsed.headers, fits: parsed.fits },
});

/** Adds headers above the existing ones, in the raw text as well as in both header lists. */
function withHeaders(mail: Mail, added: Header[]): Mail {
  if (!added.length) return mail;
  const content = { ...mail.content, headers: [...added, ...mail.content.headers] };
  if (!mail.raw) return { content };
  const eol = mail.raw.text.includes("\r\n") ? "\r\n" : "\n";
  // The kept text is the mail's bytes one char per byte: the added lines go in as their UTF-8 bytes.
  const lines = binaryString(utf8(added.map((h) => `${h.name}: ${h.value}${eol}`).join("")));
  return { content, raw: { ...mail.raw, text: lines + mail.raw.text, headers: [...added, ...mail.raw.headers] } };
}

const headersOf = (mail: Mail) => mail.raw?.headers ?? mail.content.headers;

/** Every address in To, Cc and Bcc, lower case. */
export function recipients(headers: readonly Header[]): string[] {
  const out: string[] = [];
  for (const h of headers) {
    if (!/^(to|cc|bcc)$/i.test(h.name)) continue;
    for (const a of addressParser(h.value, { flatten: true })) if (a.address) out.push(a.address.toLowerCase());
  }
  return out;
}

/** What Gmail fills in on mail the mailbox sends: From (the default send-as), Date, Message-ID. */
export function completeOutgoing(db: Db, given: Mail, id: string, now: number): Mail {
  const sendAs = getJson<GmailSendAs[]>(db, "send_as", []);
  const primary = sendAs.find((s) => s.isDefault) ??
    sendAs.find((s) => s.isPrimary) ?? { sendAsEmail: mailboxAddress(db), displayName: "" };
  const from = headerValue(headersOf(given), "From");
  const fromAddress = from ? addressParser(from, { flatten: true })[0]?.address?.toLowerCase() : undefined;
  // An alias still waiting for its owner to confirm it (verificationStatus pending) cannot send yet.
  const allowed =
    sendAs.some((s) => s.sendAsEmail.toLowerCase() === fromAddress && s.verificationStatus !== "pending") ||
    fromAddress === mailboxAddress(db).toLowerCase();
  // Gmail sends only as the mailbox's own addresses: a missing or foreign From becomes the default send-as.
  const mail = from && !allowed ? withoutHeader(given, "From") : given;
  const added: Header[] = [];
  if (!from || !allowed)
    added.push({ name: "From", value: primary.displayName ? `${primary.displayName} <${primary.sendAsEmail}>` : primary.sendAsEmail });
  const headers = headersOf(mail);
  if (!headerValue(headers, "Date")) added.push({ name: "Date", value: rfc2822(now) });
  if (!headerValue(headers, "Message-ID")) added.push({ name: "Message-ID", value: `<CAPOME${id}@mail.gmail.com>` });
  return withHeaders(mail, added);
}

/** The mail without one header: gone from both header lists and from the raw text's header block. */
function withoutHeader(mail: Mail, name: string): Mail {
  const keep = (h: Header) => h.name.toLowerCase() !== name.toLowerCase();
  const content = { ...mail.content, headers: mail.content.headers.filter(keep) };
  if (!mail.raw) return { content };
  const text = mail.raw.text;
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const cut = text.search(/\r?\n\r?\n/);
  const lines = (cut < 0 ? text : text.slice(0, cut)).split(/\r?\n/);
  const rest = cut < 0 ? "" : text.slice(cut);
  // A header field runs on over the lines that start with white space (RFC 5322 folding).
  const kept: string[] = [];
  let dropping = false;
  for (const line of lines) {
    if (/^[ \t]/.test(line)) {
      if (!dropping) kept.push(line);
      continue;
    }
    dropping = line.toLowerCase().startsWith(`${name.toLowerCase()}:`);
    if (!dropping) kept.push(line);
  }
  const rebuilt = kept.length ? kept.join(eol) + rest : rest.slice(eol.length);
  return { content, raw: { ...mail.raw, text: rebuilt, headers: mail.raw.headers.filter(keep) } };
}

const stripPrefixes = (subject: string) =>
  subject
    .replace(/^\s*((re|fwd?|aw|wg)\s*:\s*)+/i, "")
    .trim()
    .toLowerCase();
const messageIdsIn = (value: string | undefined) => (value ?? "").match(/<[^>]+>/g) ?? [];

/**
 * The thread a message joins. Gmail puts it in the requested thread only when its In-Reply-To or
 * References name a message of that thread and the subjects match (ignoring Re:/Fwd:); otherwise
 * it starts a thread of its own. An unknown thread id is refused.
 */
export function resolveThread(db: Db, requested: string | undefined, headers: readonly Header[], ownId: string): string {
  if (requested === undefined || requested === "") return ownId;
  return joinThread(db, requested, headers, ownId);
}

/**
 * The thread mail arriving in the mailbox (insert, import) joins: the requested one under the
 * rules above, else, as Gmail threads received mail, the thread of a message its In-Reply-To or
 * References name when the subjects agree.
 */
export function arrivingThread(db: Db, requested: string | undefined, headers: readonly Header[], ownId: string): string {
  if (requested !== undefined && requested !== "") return joinThread(db, requested, headers, ownId);
  const refs = [...messageIdsIn(headerValue(headers, "In-Reply-To")), ...messageIdsIn(headerValue(headers, "References"))];
  const subject = stripPrefixes(headerValue(headers, "Subject") ?? "");
  for (const ref of refs) {
    const thread = threadOfRfc822Id(db, ref);
    if (thread && threadMessages(db, thread).some((m) => stripPrefixes(headerValue(m.headers, "Subject") ?? "") === subject)) return thread;
  }
  return ownId;
}

function joinThread(db: Db, requested: string, headers: readonly Header[], ownId: string): string {
  const thread = threadMessages(db, checkedId(requested));
  if (!thread.length) return fail(notFound());
  const refs = new Set([...messageIdsIn(headerValue(headers, "In-Reply-To")), ...messageIdsIn(headerValue(headers, "References"))]);
  const linked = thread.some((m) => messageIdsIn(headerValue(m.headers, "Message-ID")).some((id) => refs.has(id)));
  const subject = stripPrefixes(headerValue(headers, "Subject") ?? "");
  const sameSubject = thread.some((m) => stripPrefixes(headerValue(m.headers, "Subject") ?? "") === subject);
  return linked && sameSubject ? requested : ownId;
}

interface ReplyPayload {
  address: string;
  name: string;
  text: string;
  html?: string;
  labelIds: string[];
  subject: string;
  inReplyTo: string;
  references: string;
  threadId: string;
}

const isReplyPayload = (v: unknown): v is ReplyPayload =>
  isBody(v) &&
  ["address", "text", "subject", "threadId", "inReplyTo", "references", "name"].every((k) => typeof v[k] === "string") &&
  Array.isArray(v.labelIds);

/** Sends a message from the mailbox: it is stored SENT (and in the inbox when sent to itself). */
export function sendMail(ctx: TwinContext, given: Mail, requestedThread: string | undefined): StoredMessage {
  const db = ctx.db;
  const now = ctx.clock.now();
  const id = nextMessageId(db);
  const mail = completeOutgoing(db, given, id, now);
  const headers = headersOf(mail);
  const to = recipients(headers);
  if (!to.length) return fail(badRequest("Recipient address required"));
  const threadId = resolveThread(db, requestedThread, headers, id);
  const self = mailboxAddress(db).toLowerCase();
  const labelIds = to.includes(self) ? ["SENT", "INBOX", "UNREAD"] : ["SENT"];
  const sent = insertMessage(db, { id, threadId, internalDate: now, labelIds, ...mail });
  scheduleReplies(ctx, sent, to);
  return sent;
}

function scheduleReplies(ctx: TwinContext, sent: StoredMessage, to: readonly string[]): void {
  const correspondents = getJson<GmailCorrespondent[]>(ctx.db, "correspondents", []);
  const messageId = headerValue(sent.headers, "Message-ID") ?? "";
  const references = [headerValue(sent.headers, "References"), messageId].filter(Boolean).join(" ");
  for (const c of correspondents) {
    if (!to.includes(c.address.toLowerCase())) continue;
    const payload: ReplyPayload = {
      address: c.address,
      name: c.name,
      text: c.reply.text,
      labelIds: c.reply.labelIds,
      subject: headerValue(sent.headers, "Subject") ?? "",
      inReplyTo: messageId,
      references,
      threadId: sent.threadId,
      ...(c.reply.html !== undefined ? { html: c.reply.html } : {}),
    };
    ctx.schedule("reply", payload, { calls: c.reply.afterCalls });
  }
}

/**
 * The labels the mailbox's filters give an arriving message. A filter whose stored criteria or
 * actions cannot be read (every query is checked when stored, so only a damaged row) does not
 * match: running filters never fails a delivery.
 */
function filtered(db: Db, message: NewMessage, now: number): string[] {
  const filters = db.all<{ criteria: string; action: string }>("SELECT criteria, action FROM gm_filters ORDER BY seq");
  let labels = [...message.labelIds];
  const probe: StoredMessage = {
    ...message,
    historyId: 0,
    form: "structured",
    headers: message.content.headers,
    raw: null,
    snippet: "",
    sizeEstimate: 0,
    isDraft: false,
  };
  const doc = searchDoc(probe, labelNames(db), mailboxAddresses(db));
  for (const f of filters) {
    const criteria = storedCriteria(f.criteria);
    const action = storedAction(f.action);
    const query = criteria && filterMatcher(criteria, now);
    if (!query || !action || !query.matches(doc)) continue;
    labels = labels.filter((l) => !action.removeLabelIds.includes(l));
    for (const l of action.addLabelIds) if (!labels.includes(l)) labels.push(l);
  }
  return labels;
}

const labelList = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);

function storedAction(json: string): { addLabelIds: string[]; removeLabelIds: string[] } | undefined {
  try {
    const value: unknown = JSON.parse(json);
    return isBody(value) ? { addLabelIds: labelList(value.addLabelIds), removeLabelIds: labelList(value.removeLabelIds) } : undefined;
  } catch {
    return undefined;
  }
}

/** A correspondent's reply arrives: composed as real MIME, in the sent message's thread. */
export function deliverReply(db: Db, clock: Clock, payload: unknown): void {
  if (!isReplyPayload(payload)) return;
  const now = clock.now();
  const id = nextMessageId(db);
  const subject = /^re:/i.test(payload.subject) ? payload.subject : `Re: ${payload.subject}`;
  const headers: Header[] = [
    { name: "From", value: payload.name ? `${payload.name} <${payload.address}>` : payload.address },
    { name: "To", value: mailboxAddress(db) },
    { name: "Subject", value: subject },
    { name: "Date", value: rfc2822(now) },
    { name: "Message-ID", value: `<reply-${id}@${payload.address.split("@")[1] ?? "correspondent.test"}>` },
  ];
  if (payload.inReplyTo) headers.push({ name: "In-Reply-To", value: payload.inReplyTo });
  if (payload.references) headers.push({ name: "References", value: payload.references });
  const content: MailContent = { headers, text: payload.text, attachments: [] };
  if (payload.html !== undefined) content.html = payload.html;
  const threadExists = threadMessages(db, payload.threadId).length > 0;
  const message: NewMessage = {
    id,
    threadId: threadExists ? payload.threadId : id,
    internalDate: now,
    labelIds: payload.labelIds,
    content,
  };
  insertMessage(db, { ...message, labelIds: filtered(db, message, now) });
}
