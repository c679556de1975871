// The Gmail twin's seed, which is also its export: Gmail's own resource names (Profile, Label,
// Message, Draft, Filter, SendAs, VacationSettings) plus two fields Gmail has not, `correspondents`
// and `faults`. Strict: an unknown key is refused at its path. Normalizing fills Gmail's defaults
// (ids, thread ids, dates, visibility) so export(boot(seed)) equals the normalized seed.
import { z } from "zod";
import { binaryString, decodeBase64, toBase64Url } from "../kit/bytes";
import { refusedUnderEverySetting } from "../kit/platform";
import { parseSeedWith, SeedProblems } from "../kit/seed";
import type { SeedResult } from "../types";
import { FIRST_GENERATED_ID, hexId, isGmailId } from "./ids";
import { isSystemLabel, reservedName } from "./labels";
import { onPalette } from "./palette";
import { sanitizeSignature } from "./sanitize";
import { headerValue, rfc2822, type Header } from "./mime";
import { criteriaProblem } from "./store/filters";
import type { ParsedMail } from "./parse";
import { GMAIL_OPERATIONS } from "./operations";
import type { GmailWatch, PubsubSubscription } from "./store/watch";
import { checkUploadSessions, type GmailUploadSession, uploadSessionSchema } from "./upload-sessions";
import {
  autoForwardingSchema,
  DEFAULT_IMAP,
  DEFAULT_LANGUAGE,
  DEFAULT_POP,
  delegateSchema,
  forwardingAddressSchema,
  imapSchema,
  languageSchema,
  popSchema,
  type GmailAutoForwarding,
  type GmailDelegate,
  type GmailForwardingAddress,
  type GmailImap,
  type GmailLanguage,
  type GmailPop,
} from "./settings";

const headerSchema = z.strictObject({ name: z.string().min(1), value: z.string() });
const attachmentSchema = z.strictObject({
  filename: z.string().min(1),
  mimeType: z.string().min(1).default("application/octet-stream"),
  data: z.string(),
});

const messageFields = {
  id: z.string().optional(),
  threadId: z.string().optional(),
  labelIds: z.array(z.string()).optional(),
  internalDate: z.string().regex(/^\d+$/, "internalDate is milliseconds since the epoch, as a string").optional(),
  raw: z.string().optional(),
  headers: z.array(headerSchema).optional(),
  text: z.string().optional(),
  html: z.string().optional(),
  attachments: z.array(attachmentSchema).optional(),
};
const messageSchema = z.strictObject(messageFields);

/** A label colour from Gmail's palette (palette.ts): Gmail has no label of any other colour. */
const paletteColor = z.string().refine(onPalette, "not a colour of Gmail's label palette");
const colorSchema = z.strictObject({ textColor: paletteColor, backgroundColor: paletteColor });
const labelSchema = z.strictObject({
  id: z.string().optional(),
  name: z.string().min(1),
  labelListVisibility: z.enum(["labelShow", "labelShowIfUnread", "labelHide"]).default("labelShow"),
  messageListVisibility: z.enum(["show", "hide"]).default("show"),
  color: colorSchema.optional(),
});

const criteriaSchema = z.strictObject({
  from: z.string().optional(),
  to: z.string().optional(),
  subject: z.string().optional(),
  query: z.string().optional(),
  negatedQuery: z.string().optional(),
  hasAttachment: z.boolean().optional(),
  excludeChats: z.boolean().optional(),
  size: z.number().int().optional(),
  sizeComparison: z.enum(["larger", "smaller", "unspecified"]).optional(),
});
const actionSchema = z.strictObject({
  addLabelIds: z.array(z.string()).optional(),
  removeLabelIds: z.array(z.string()).optional(),
  forward: z.string().optional(),
});
const filterSchema = z.strictObject({ id: z.string().optional(), criteria: criteriaSchema, action: actionSchema });

const sendAsSchema = z.strictObject({
  sendAsEmail: z.string().min(1),
  displayName: z.string().default(""),
  replyToAddress: z.string().optional(),
  signature: z.string().default(""),
  isPrimary: z.boolean().default(false),
  isDefault: z.boolean().default(false),
  treatAsAlias: z.boolean().optional(),
  verificationStatus: z.enum(["accepted", "pending"]).optional(),
});

const vacationSchema = z.strictObject({
  enableAutoReply: z.boolean().default(false),
  responseSubject: z.string().optional(),
  responseBodyPlainText: z.string().optional(),
  responseBodyHtml: z.string().optional(),
  restrictToContacts: z.boolean().optional(),
  restrictToDomain: z.boolean().optional(),
  startTime: z.string().regex(/^\d+$/).optional(),
  endTime: z.string().regex(/^\d+$/).optional(),
});

/** A Pub/Sub push subscription, in Pub/Sub's Subscription shape: where a watched topic's pushes go. */
const pubsubSubscriptionSchema = z.strictObject({
  name: z.string().regex(/^projects\/[^/]+\/subscriptions\/[^/]+$/, "projects/<project>/subscriptions/<name>"),
  topic: z.string().regex(/^projects\/[^/]+\/topics\/[^/]+$/, "projects/<project>/topics/<name>"),
  pushConfig: z.strictObject({ pushEndpoint: z.url({ protocol: /^https?$/ }) }),
});
/** A watch already running (users.watch), as the export shows one. */
const watchSchema = z.strictObject({
  topicName: z.string().regex(/^projects\/[^/]+\/topics\/[^/]+$/),
  labelIds: z.array(z.string()).optional(),
  labelFilterBehavior: z.enum(["include", "exclude"]).optional(),
  expiration: z.string().regex(/^\d+$/),
  historyId: z.string().regex(/^\d+$/),
});

const correspondentSchema = z.strictObject({
  address: z.string().min(3),
  name: z.string().default(""),
  reply: z.strictObject({
    afterCalls: z.number().int().min(0).default(1),
    text: z.string(),
    html: z.string().optional(),
    labelIds: z.array(z.string()).default(["INBOX", "UNREAD"]),
  }),
});

const faultSchema = z.strictObject({
  operation: z.string(),
  status: z.union([z.literal(429), z.literal(500), z.literal(503)]),
  reason: z.enum(["rateLimitExceeded", "userRateLimitExceeded", "backendError"]),
  skip: z.number().int().min(0).default(0),
  times: z.number().int().min(1).default(1),
});

const rawSchema = z.strictObject({
  profile: z.strictObject({ emailAddress: z.string().min(3), historyId: z.string().regex(/^\d+$/).default("1") }),
  sendAs: z.array(sendAsSchema).optional(),
  labels: z.array(labelSchema).default([]),
  messages: z.array(messageSchema).default([]),
  drafts: z.array(z.strictObject({ id: z.string().optional(), message: messageSchema })).default([]),
  filters: z.array(filterSchema).default([]),
  vacation: vacationSchema.default({ enableAutoReply: false }),
  forwardingAddresses: z.array(forwardingAddressSchema).default([]),
  autoForwarding: autoForwardingSchema.default({ enabled: false }),
  delegates: z.array(delegateSchema).default([]),
  imap: imapSchema.default(DEFAULT_IMAP),
  pop: popSchema.default(DEFAULT_POP),
  language: languageSchema.default(DEFAULT_LANGUAGE),
  pubsubSubscriptions: z.array(pubsubSubscriptionSchema).default([]),
  watch: watchSchema.optional(),
  correspondents: z.array(correspondentSchema).default([]),
  faults: z.array(faultSchema).default([]),
  uploadSessions: z.array(uploadSessionSchema).max(100).default([]),
});

type RawSeed = z.infer<typeof rawSchema>;
type RawMessage = z.infer<typeof messageSchema>;

export type Attachment = z.infer<typeof attachmentSchema>;
interface MessageBase {
  id: string;
  threadId: string;
  labelIds: string[];
  /** Absent only when the message has no date of its own: the sandbox clock gives it one (completeSeed, boot). */
  internalDate?: string;
}
export interface StructuredMessage extends MessageBase {
  headers: Header[];
  text?: string;
  html?: string;
  attachments?: Attachment[];
}
export interface RawMessageSeed extends MessageBase {
  raw: string;
  /** Set by prepareSeed before boot; never part of a seed or an export. */
  parsed?: ParsedMail;
}
export type GmailMessage = StructuredMessage | RawMessageSeed;
export type DraftMessage = Omit<StructuredMessage, "labelIds"> | Omit<RawMessageSeed, "labelIds">;
export const isRawMessage = <T extends object>(m: T): m is T & { raw: string; parsed?: ParsedMail } => "raw" in m;

export type GmailLabel = z.infer<typeof labelSchema> & { id: string };
export type GmailFilter = z.infer<typeof filterSchema> & { id: string };
export type GmailSendAs = z.infer<typeof sendAsSchema>;
export type GmailVacation = z.infer<typeof vacationSchema>;
export type GmailCorrespondent = z.infer<typeof correspondentSchema>;
export type GmailFault = z.infer<typeof faultSchema>;

export interface GmailSeed {
  profile: { emailAddress: string; historyId: string };
  sendAs: GmailSendAs[];
  labels: GmailLabel[];
  messages: GmailMessage[];
  drafts: { id: string; message: DraftMessage }[];
  filters: GmailFilter[];
  vacation: GmailVacation;
  forwardingAddresses: GmailForwardingAddress[];
  autoForwarding: GmailAutoForwarding;
  delegates: GmailDelegate[];
  imap: GmailImap;
  pop: GmailPop;
  language: GmailLanguage;
  pubsubSubscriptions: PubsubSubscription[];
  watch?: GmailWatch;
  correspondents: GmailCorrespondent[];
  faults: GmailFault[];
  /** Resumable uploads under way (upload-sessions.ts). */
  uploadSessions: GmailUploadSession[];
}

/** The Date header of raw mail, read from its header block only (the body is postal-mime's job at boot). */
function rawDate(raw: string): number | undefined {
  const bytes = decodeBase64(raw);
  if (!bytes) return undefined;
  const head = binaryString(bytes).split(/\r?\n\r?\n/)[0] ?? "";
  const match = /^date:[ \t]*(.+)$/im.exec(head);
  const ms = match ? Date.parse(match[1]) : NaN;
  return Number.isFinite(ms) ? ms : undefined;
}

/**
 * A message's dates made whole: with `now` (the sandbox clock) a message without internalDate
 * takes it, and a structured message without a Date header gets one from its internalDate.
 */
export function datedMessage<T extends { internalDate?: string; headers?: Header[] }>(m: T, now?: number): T {
  const internalDate = m.internalDate ?? (now === undefined ? undefined : String(now));
  if (internalDate === undefined) return m;
  const headers =
    m.headers && !headerValue(m.headers, "Date") ? [...m.headers, { name: "Date", value: rfc2822(Number(internalDate)) }] : m.headers;
  return headers ? { ...m, internalDate, headers } : { ...m, internalDate };
}

class IdSource {
  private next = FIRST_GENERATED_ID;
  constructor(taken: readonly string[]) {
    for (const id of taken) if (isGmailId(id) && BigInt(`0x${id}`) >= this.next) this.next = BigInt(`0x${id}`) + 1n;
  }
  take(): string {
    const id = hexId(this.next);
    this.next += 1n;
    return id;
  }
}

function normalizeMessage(m: RawMessage, path: string, ids: IdSource, problems: SeedProblems): GmailMessage | undefined {
  const id = m.id ?? ids.take();
  const threadId = m.threadId ?? id;
  if (!isGmailId(id)) problems.add(`${path}.id`, "a message id is up to 16 lowercase hex digits below 2^63", "invalid_id");
  if (!isGmailId(threadId)) problems.add(`${path}.threadId`, "a thread id is up to 16 lowercase hex digits below 2^63", "invalid_id");
  const labelIds = m.labelIds ?? [];
  const structured = m.headers !== undefined || m.text !== undefined || m.html !== undefined || m.attachments !== undefined;
  if (m.raw !== undefined) {
    if (structured)
      problems.add(path, "a message is either `raw` or structured (`headers`, `text`, `html`, `attachments`), not both", "invalid_message");
    const decoded = decodeBase64(m.raw);
    // An RFC 822 message opens with a header field (`Name: value`); the rest is postal-mime's at boot.
    if (!decoded || !/^[\x21-\x39\x3b-\x7e]+:/.test(binaryString(decoded.subarray(0, 1000)))) {
      problems.add(`${path}.raw`, "raw is base64url or base64 of an RFC 822 message (header lines, a blank line, the body)", "invalid_raw");
    }
    const dated = rawDate(m.raw);
    const internalDate = m.internalDate ?? (dated === undefined ? undefined : String(dated));
    // One spelling for raw mail: base64url without padding, the form Gmail serves and exports.
    const bytes = decodeBase64(m.raw);
    const out: RawMessageSeed = { id, threadId, labelIds, raw: bytes ? toBase64Url(bytes) : m.raw };
    // A message with no date of its own waits for the sandbox clock (completeSeed with it, or boot).
    return internalDate === undefined ? out : { ...out, internalDate };
  }
  const headers = m.headers ?? [];
  if (!headerValue(headers, "From")) {
    problems.add(`${path}.headers`, "a structured message needs a From header (or give `raw`)", "missing_from");
    return undefined;
  }
  headers.forEach((h, i) => {
    if (/^(mime-version|content-type|content-transfer-encoding)$/i.test(h.name)) {
      problems.add(`${path}.headers[${i}].name`, `${h.name} is implied by the structured form; give \`raw\` to set it`, "implied_header");
    }
  });
  const dateHeader = headerValue(headers, "Date");
  const fromHeader = dateHeader ? Date.parse(dateHeader) : NaN;
  const internalDate = m.internalDate ?? (Number.isFinite(fromHeader) ? String(fromHeader) : undefined);
  // Without any date the message waits for the sandbox clock, Date header included (datedMessage).
  const out: StructuredMessage = datedMessage(
    internalDate === undefined ? { id, threadId, labelIds, headers } : { id, threadId, labelIds, internalDate, headers },
  );
  if (m.text !== undefined) out.text = m.text;
  if (m.html !== undefined) out.html = m.html;
  if (m.attachments?.length) {
    out.attachments = m.attachments;
    m.attachments.forEach((a, i) => {
      if (!decodeBase64(a.data)) problems.add(`${path}.attachments[${i}].data`, "attachment data is base64 of its bytes", "invalid_base64");
    });
  }
  return out;
}

/** User labels: unique ids `Label_n` (missing ones numbered past the given), names unique case-insensitively and not a system name. */
function normalizeLabels(raw: RawSeed["labels"], problems: SeedProblems) {
  let nextLabel = 1;
  for (const l of raw) {
    const n = /^Label_(\d+)$/.exec(l.id ?? "");
    if (n) nextLabel = Math.max(nextLabel, Number(n[1]) + 1);
  }
  const labels: GmailLabel[] = raw.map((l) => ({ ...l, id: l.id ?? `Label_${nextLabel++}` }));
  const labelIds = new Set<string>();
  const labelNames = new Set<string>();
  labels.forEach((l, i) => {
    if (labelIds.has(l.id) || isSystemLabel(l.id)) problems.add(`labels[${i}].id`, `label id ${l.id} is already taken`, "duplicate_id");
    labelIds.add(l.id);
    const name = l.name.toLowerCase();
    // As labels.create answers: a name Gmail keeps for itself is invalid, a second label of one name a conflict.
    if (reservedName(l.name)) problems.add(`labels[${i}].name`, `label name ${l.name} is reserved by Gmail`, "reserved_name");
    else if (labelNames.has(name)) problems.add(`labels[${i}].name`, `label name ${l.name} exists or conflicts`, "duplicate_name");
    labelNames.add(name);
  });
  /** Each id of `ids` names a system label or a seeded user label. */
  const checkLabels = (ids: readonly string[], path: string) =>
    ids.forEach((id, i) => {
      if (!isSystemLabel(id) && !labelIds.has(id))
        problems.add(`${path}[${i}]`, `label ${id} is neither a system label nor a seeded user label`);
    });
  return { labels, checkLabels };
}
type CheckLabels = ReturnType<typeof normalizeLabels>["checkLabels"];

/** Messages and drafts, normalized; a message id once across both, a draft id once. */
function normalizeMail(raw: RawSeed, problems: SeedProblems, checkLabels: CheckLabels) {
  const ids = new IdSource([...raw.messages.map((m) => m.id ?? ""), ...raw.drafts.map((d) => d.message.id ?? "")]);
  const messages: GmailMessage[] = [];
  raw.messages.forEach((m, i) => {
    const out = normalizeMessage(m, `messages[${i}]`, ids, problems);
    if (!out) return;
    checkLabels(out.labelIds, `messages[${i}].labelIds`);
    if (out.labelIds.includes("DRAFT"))
      problems.add(`messages[${i}].labelIds`, "drafts are seeded under `drafts`, not as messages with DRAFT");
    messages.push(out);
  });
  let nextDraft = 1n;
  const drafts: GmailSeed["drafts"] = [];
  raw.drafts.forEach((d, i) => {
    const path = `drafts[${i}].message`;
    const extra = (d.message.labelIds ?? []).filter((l) => l !== "DRAFT");
    if (extra.length) problems.add(`${path}.labelIds`, "a draft's message carries DRAFT only");
    const out = normalizeMessage({ ...d.message, labelIds: undefined }, path, ids, problems);
    if (!out) return;
    const { labelIds: _none, ...message } = out;
    drafts.push({ id: d.id ?? `r${(7390128431662530000n + nextDraft++).toString()}`, message });
  });
  const messageIds = new Set<string>();
  [
    ...messages.map((m, i) => [m.id, `messages[${i}].id`] as const),
    ...drafts.map((d, i) => [d.message.id, `drafts[${i}].message.id`] as const),
  ].forEach(([id, path]) => {
    if (messageIds.has(id)) problems.add(path, `message id ${id} is used twice`, "duplicate_id");
    messageIds.add(id);
  });
  const draftIds = new Set<string>();
  drafts.forEach((d, i) => {
    if (draftIds.has(d.id)) problems.add(`drafts[${i}].id`, `draft id ${d.id} is used twice`, "duplicate_id");
    draftIds.add(d.id);
  });
  return { messages, drafts };
}

function normalizeFilters(raw: RawSeed["filters"], problems: SeedProblems, checkLabels: CheckLabels): GmailFilter[] {
  let nextFilter = 1;
  return raw.map((f, i) => {
    checkLabels(f.action.addLabelIds ?? [], `filters[${i}].action.addLabelIds`);
    checkLabels(f.action.removeLabelIds ?? [], `filters[${i}].action.removeLabelIds`);
    // The query is read now, as filters.create reads it, so it can run at every delivery.
    const problem = criteriaProblem(f.criteria);
    if (problem)
      problems.add(
        problem.field === "criteria" ? `filters[${i}].criteria` : `filters[${i}].criteria.${problem.field}`,
        `Gmail cannot read this search query: ${problem.reason}`,
        "invalid_query",
      );
    return { ...f, id: f.id ?? `ANe1Bmj${String(nextFilter++).padStart(3, "0")}` };
  });
}

/** Forwarding addresses and delegates once each; auto-forwarding only to an accepted address. */
function checkForwarding(raw: RawSeed, problems: SeedProblems): void {
  const forwarding = new Set<string>();
  raw.forwardingAddresses.forEach((f, i) => {
    const key = f.forwardingEmail.toLowerCase();
    if (forwarding.has(key))
      problems.add(`forwardingAddresses[${i}].forwardingEmail`, "this forwarding address is listed twice", "duplicate_id");
    forwarding.add(key);
  });
  const target = raw.autoForwarding.emailAddress?.toLowerCase();
  // Gmail forwards only to a confirmed forwarding address.
  if (
    raw.autoForwarding.enabled &&
    !raw.forwardingAddresses.some((f) => f.forwardingEmail.toLowerCase() === target && f.verificationStatus === "accepted")
  )
    problems.add("autoForwarding.emailAddress", "auto-forwarding needs an accepted address of forwardingAddresses", "invalid_reference");
  const delegates = new Set<string>();
  raw.delegates.forEach((d, i) => {
    const key = d.delegateEmail.toLowerCase();
    if (delegates.has(key)) problems.add(`delegates[${i}].delegateEmail`, "this delegate is listed twice", "duplicate_id");
    delegates.add(key);
  });
}

/**
 * A push endpoint must be one the platform's egress policy would deliver to under some setting, as
 * the other twins check their webhook URLs: a private address, another spelling of one, or
 * credentials in the URL is refused at the field. What depends on the setting is checked at each push.
 */
function checkSubscriptions(raw: RawSeed["pubsubSubscriptions"], problems: SeedProblems): void {
  raw.forEach((s, i) => {
    const refused = refusedUnderEverySetting(s.pushConfig.pushEndpoint);
    if (refused)
      problems.add(`pubsubSubscriptions[${i}].pushConfig.pushEndpoint`, `pushEndpoint is not allowed: ${refused}`, "invalid_url");
  });
}

function normalize(raw: RawSeed): SeedResult<GmailSeed> {
  const problems = new SeedProblems();
  const email = raw.profile.emailAddress;
  const { labels, checkLabels } = normalizeLabels(raw.labels, problems);
  const { messages, drafts } = normalizeMail(raw, problems, checkLabels);
  const filters = normalizeFilters(raw.filters, problems, checkLabels);
  raw.correspondents.forEach((c, i) => checkLabels(c.reply.labelIds, `correspondents[${i}].reply.labelIds`));
  raw.faults.forEach((f, i) => {
    if (!GMAIL_OPERATIONS.includes(f.operation))
      problems.add(`faults[${i}].operation`, `${f.operation} is not a Gmail method id (e.g. gmail.users.messages.send)`);
  });
  // A seeded signature is kept as Gmail would have saved it: sanitized (sanitize.ts).
  const sendAs = raw.sendAs?.map((s) => ({ ...s, signature: sanitizeSignature(s.signature) })) ?? [
    { sendAsEmail: email, displayName: "", signature: "", isPrimary: true, isDefault: true },
  ];
  checkForwarding(raw, problems);
  checkSubscriptions(raw.pubsubSubscriptions, problems);
  checkUploadSessions(raw.uploadSessions, problems);
  return problems.result<GmailSeed>({
    profile: raw.profile,
    sendAs,
    labels,
    messages,
    drafts,
    filters,
    vacation: raw.vacation,
    forwardingAddresses: raw.forwardingAddresses,
    autoForwarding: raw.autoForwarding,
    delegates: raw.delegates,
    imap: raw.imap,
    pop: raw.pop,
    language: raw.language,
    pubsubSubscriptions: raw.pubsubSubscriptions,
    ...(raw.watch ? { watch: raw.watch } : {}),
    correspondents: raw.correspondents,
    faults: raw.faults,
    // One spelling for the kept bytes: base64url without padding, as the export writes them.
    uploadSessions: raw.uploadSessions.map((u) => ({ ...u, received: toBase64Url(decodeBase64(u.received) ?? new Uint8Array()) })),
  });
}

export const parseGmailSeed = parseSeedWith(rawSchema, normalize);

const MAILBOX = "agent@northwind.test";
const hour = 3_600_000;
const base = Date.UTC(2026, 0, 5, 9, 0, 0);
const mail = (n: number, from: string, subject: string, text: string, extra: Partial<RawMessage> = {}): RawMessage => ({
  id: `19a0c0de0000a0${n.toString(16).padStart(2, "0")}`,
  labelIds: ["INBOX", "UNREAD"],
  internalDate: String(base + n * hour),
  headers: [
    { name: "From", value: from },
    { name: "To", value: MAILBOX },
    { name: "Subject", value: subject },
    { name: "Message-ID", value: `<m${n}@${from.replace(/^.*@|>$/g, "")}>` },
  ],
  text,
  ...extra,
});

/** The default mailbox's mail: a thread with a reply, an invoice with its PDF, a newsletter, spam, trash. */
function defaultMessages(): RawMessage[] {
  return [
    mail(
      1,
      "Dana Customer <dana@customer.test>",
      "Refund request for order #1234",
      "Hi, I was charged twice for order #1234. Could you refund one of the charges?",
      {
        html: "<p>Hi, I was charged twice for order #1234. Could you refund one of the charges?</p>",
      },
    ),
    {
      id: "19a0c0de0000a002",
      threadId: "19a0c0de0000a001",
      labelIds: ["SENT"],
      internalDate: String(base + 1.5 * hour),
      headers: [
        { name: "From", value: `Northwind Support <${MAILBOX}>` },
        { name: "To", value: "Dana Customer <dana@customer.test>" },
        { name: "Subject", value: "Re: Refund request for order #1234" },
        { name: "Message-ID", value: "<r1@northwind.test>" },
        { name: "In-Reply-To", value: "<m1@customer.test>" },
        { name: "References", value: "<m1@customer.test>" },
      ],
      text: "Hi Dana, we are looking into it and will get back to you today.",
    },
    mail(3, "Billing <billing@stripe-like.test>", "Your invoice INV-2041", "Your invoice INV-2041 for January is attached.", {
      labelIds: ["INBOX", "Label_1"],
      attachments: [
        {
          filename: "INV-2041.pdf",
          mimeType: "application/pdf",
          data: "JVBERi0xLjQKJcOkw7zDtsOfCjIgMCBvYmoKPDwvTGVuZ3RoIDM+PgpzdHJlYW0KCmVuZHN0cmVhbQplbmRvYmoK",
        },
      ],
    }),
    mail(4, "Deals Weekly <news@deals.test>", "This week's top deals", "Save 40% on everything this week only.", {
      labelIds: ["INBOX", "UNREAD", "CATEGORY_PROMOTIONS"],
      html: "<h1>Top deals</h1><p>Save 40% on everything this week only.</p>",
    }),
    mail(5, "Prize Center <winner@lottery.test>", "You have won!", "Claim your prize now by sending your bank details.", {
      labelIds: ["SPAM", "UNREAD"],
    }),
    mail(6, "Sam Ops <sam@northwind.test>", "On-call handover", "Handover notes for this week are in the shared doc.", {
      labelIds: ["INBOX", "IMPORTANT"],
    }),
    mail(7, "Lee Partner <lee@partner.test>", "Contract renewal", "Can we schedule a call about the renewal next week?", {
      labelIds: ["INBOX", "UNREAD", "IMPORTANT", "Label_2"],
    }),
    mail(8, "Carrier Desk <carrier@shipping.test>", "Shipment delayed", "Parcel 1234 is delayed by one day.", { labelIds: ["INBOX"] }),
    mail(9, "GitHub <noreply@github.test>", "[acme/api] New issue opened", "A new issue was opened: Login fails on Safari.", {
      labelIds: ["INBOX", "CATEGORY_UPDATES"],
    }),
    mail(10, "Alex Customer <alex@customer.test>", "Question about pricing", "Do you offer a discount for annual plans?", {
      labelIds: ["INBOX", "UNREAD", "STARRED"],
    }),
    mail(11, "Receipts <receipts@shop.test>", "Your receipt #5512", "Thanks for your purchase. Total: $42.00.", {
      labelIds: ["Label_1"],
    }),
    mail(12, "Old Vendor <hello@vendor.test>", "Welcome aboard", "Thanks for signing up.", { labelIds: ["TRASH"] }),
  ];
}

/** A dozen mails: a thread with a reply, an attachment, a newsletter, one spam; two labels and a draft. */
export function defaultGmailSeed(): GmailSeed {
  const raw = {
    profile: { emailAddress: MAILBOX, historyId: "1000" },
    sendAs: [{ sendAsEmail: MAILBOX, displayName: "Northwind Support", isPrimary: true, isDefault: true }],
    labels: [
      { id: "Label_1", name: "Receipts", color: { textColor: "#ffffff", backgroundColor: "#16a766" } },
      { id: "Label_2", name: "Follow-up" },
    ],
    messages: defaultMessages(),
    drafts: [
      {
        id: "r7390128431662530001",
        message: {
          id: "19a0c0de0000d001",
          internalDate: String(base + 10.5 * hour),
          headers: [
            { name: "From", value: `Northwind Support <${MAILBOX}>` },
            { name: "To", value: "Alex Customer <alex@customer.test>" },
            { name: "Subject", value: "Re: Question about pricing" },
          ],
          text: "Hi Alex, yes: annual plans are 15% off.",
        },
      },
    ],
  };
  const parsed = parseGmailSeed(raw);
  if (!parsed.ok) throw new Error(`the default Gmail seed is invalid: ${JSON.stringify(parsed.issues)}`);
  return parsed.seed;
}

/** `count` inbox mails from a rotating cast, deterministic: for the contract and the bench. */
export function generateGmailSeed(count: number): unknown {
  const senders = ["dana@customer.test", "alex@customer.test", "lee@partner.test", "sam@northwind.test"];
  return {
    profile: { emailAddress: MAILBOX },
    labels: [{ id: "Label_1", name: "Receipts" }],
    messages: Array.from({ length: count }, (_, i) => ({
      id: hexId(0x19a0000000000000n + BigInt(i + 1)),
      labelIds: i % 3 === 0 ? ["INBOX", "UNREAD"] : i % 7 === 0 ? ["Label_1"] : ["INBOX"],
      internalDate: String(base + i * 60_000),
      headers: [
        { name: "From", value: senders[i % senders.length] },
        { name: "To", value: MAILBOX },
        { name: "Subject", value: `Message ${i + 1}` },
      ],
      text: `Body of message ${i + 1}.`,
    })),
  };
}
