// Google's hosted Gmail MCP server (https://gmailmcp.googleapis.com/mcp/v1, documented at
// https://developers.google.com/workspace/gmail/api/reference/mcp): its 13 tools, listed exactly as
// its tools/list answers them (test/fixtures/vendor-mcp/gmail-hosted-server.json, with the capture's
// date, commit and sha), each carried out as Gmail API calls over the sandbox's mailbox, so every
// effect is one a googleapis client then sees, and every call is taped.
//
// Google publishes what each tool takes and answers (the input and output schemas and their
// descriptions) but not its code; what it does between is read from those descriptions:
// - success: the tool's output message as JSON (proto3 JSON: camelCase names, empty strings,
//   empty lists and zero numbers left out, int64 as a string), compact. The same object is the
//   tool's structured content once the platform passes it on (NOTES.md, "Structured content").
// - failure (Gmail's refusal, or an argument the description rules out): an MCP tool error,
//   `isError: true`, with the reason as text.
// What the twin settles where the descriptions leave it open is listed in NOTES.md ("Hosted MCP").
import published from "../../../test/fixtures/vendor-mcp/gmail-hosted-server.json";
import { decodeBase64, fromUtf8, toBase64Url, utf8 } from "../kit/bytes";
import { officialToolSet } from "../kit/official-tools";
import { seg } from "../kit/tools";
import type {
  OfficialToolSet,
  ToolCall,
  TwinResponse,
  OfficialToolArgs as Args,
  OfficialToolCaller as Call,
  OfficialToolResult as Result,
  OfficialToolRun as Run,
} from "../types";
import { type Json, MAILBOX, str, isJson, strings, jsons } from "./tool-values";
import { type AttachmentContent, type Header, mimeTree, serialize } from "./mime";

/** proto3 JSON leaves out a field at its default: empty string, empty list, zero, false, absent. */
function proto(fields: Json): Json {
  const out: Json = {};
  for (const [k, v] of Object.entries(fields)) {
    if (v === undefined || v === null || v === "" || v === 0 || v === false) continue;
    if (Array.isArray(v) && v.length === 0) continue;
    out[k] = v;
  }
  return out;
}

const answered = (value: Json): Result => ({ text: JSON.stringify(value), isError: false });
const refused = (message: string): Result => ({ text: message, isError: true });

/** Gmail's refusal as text: its `error.message`, else the status. */
function refusalOf(res: TwinResponse): string {
  try {
    const body = JSON.parse(res.body) as unknown;
    if (isJson(body) && isJson(body.error) && typeof body.error.message === "string") return body.error.message;
  } catch {
    // not JSON: fall through to the status
  }
  return `Request failed with status code ${res.status}`;
}

/** One Gmail API call: its JSON, or the refusal's text. */
async function gmail(call: Call, req: ToolCall): Promise<{ ok: true; data: Json } | { ok: false; message: string }> {
  const res = await call(req);
  if (res.status >= 400) return { ok: false, message: refusalOf(res) };
  try {
    const data = JSON.parse(res.body || "{}") as unknown;
    return { ok: true, data: isJson(data) ? data : {} };
  } catch {
    return { ok: true, data: {} };
  }
}

/** The page size a tool's `pageSize` asks for: 20 when absent or not positive, at most 50. */
const pageSizeOf = (v: unknown) => (typeof v === "number" && v > 0 ? Math.min(Math.floor(v), 50) : 20);

// --- messages as the server's Message shows them ------------------------------------------------

/** The bare addresses of an address header ("Dana <dana@x.test>, lee@y.test" → both addresses). */
export function addressesOf(value: string | undefined): string[] {
  if (!value) return [];
  const out: string[] = [];
  let current = "";
  let quoted = false;
  let depth = 0;
  const flush = () => {
    const angle = /<([^<>]*)>\s*$/.exec(current);
    const address = (angle ? angle[1] : current.replace(/\([^)]*\)/g, "")).trim();
    if (address) out.push(address);
    current = "";
  };
  for (const ch of value) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && ch === "<") depth++;
    else if (!quoted && ch === ">") depth = Math.max(0, depth - 1);
    if (ch === "," && !quoted && depth === 0) flush();
    else current += ch;
  }
  flush();
  return out;
}

/** The system labels the server's Message lists (its labelIds description); user labels pass. */
const SHOWN_SYSTEM = new Set(["INBOX", "SPAM", "TRASH", "UNREAD", "STARRED", "IMPORTANT", "SENT", "DRAFT", "CHAT"]);
const shownLabels = (ids: unknown) => strings(ids).filter((id) => SHOWN_SYSTEM.has(id) || !/^[A-Z_]+$/.test(id));

/** YYYY-MM-DD of an internalDate (UTC). */
const dayOf = (internalDate: unknown) => {
  const ms = Number(internalDate);
  return Number.isFinite(ms) && str(internalDate) !== "" ? new Date(ms).toISOString().slice(0, 10) : "";
};

const textOfPart = (data: unknown) => fromUtf8(decodeBase64(str(data)) ?? new Uint8Array());

/** The first text/plain and text/html bodies, and the attachments, of a `full` payload. */
function walk(part: unknown, into: { plain?: string; html?: string; attachments: Json[] }) {
  if (!isJson(part)) return into;
  const body = isJson(part.body) ? part.body : {};
  const mimeType = str(part.mimeType);
  if (str(body.attachmentId)) {
    into.attachments.push(proto({ filename: str(part.filename), id: str(body.attachmentId), mimeType }));
  } else if (!part.filename && mimeType === "text/plain" && into.plain === undefined) into.plain = textOfPart(body.data);
  else if (!part.filename && mimeType === "text/html" && into.html === undefined) into.html = textOfPart(body.data);
  for (const p of jsons(part.parts)) walk(p, into);
  return into;
}

type MessageFormat = "MINIMAL" | "FULL_CONTENT" | "METADATA_ONLY";
const messageFormatOf = (v: unknown): MessageFormat => (v === "MINIMAL" || v === "METADATA_ONLY" ? v : "FULL_CONTENT");
/** The Gmail format that carries what a message format shows. */
const gmailFormat = (f: MessageFormat) => (f === "FULL_CONTENT" ? "full" : "metadata");

/** A Gmail message (format full or metadata) as the server's Message, with the fields `format` shows. */
function messageOf(m: Json, format: MessageFormat): Json {
  const payload = isJson(m.payload) ? m.payload : {};
  const headers = jsons(payload.headers);
  const header = (name: string) => {
    const h = headers.find((x) => str(x.name).toLowerCase() === name.toLowerCase());
    return h ? str(h.value) : undefined;
  };
  const shown = format !== "METADATA_ONLY";
  const full = format === "FULL_CONTENT" ? walk(payload, { attachments: [] }) : undefined;
  return proto({
    id: m.id,
    snippet: shown ? m.snippet : undefined,
    subject: shown ? header("Subject") : undefined,
    sender: addressesOf(header("From"))[0],
    toRecipients: addressesOf(header("To")),
    ccRecipients: addressesOf(header("Cc")),
    bccRecipients: addressesOf(header("Bcc")),
    date: dayOf(m.internalDate),
    labelIds: shownLabels(m.labelIds),
    attachmentIds: full?.attachments.map((a) => a.id),
    plaintextBody: full?.plain,
    htmlBody: full?.html,
    attachments: full?.attachments,
  });
}

/** A Gmail thread as the server's Thread. */
const threadOf = (t: Json, format: MessageFormat): Json =>
  proto({ id: t.id, messages: jsons(t.messages).map((m) => messageOf(m, format)) });

// --- drafts --------------------------------------------------------------------------------------

/** A Gmail draft (format full or metadata) as the server's Draft; subject and bodies only in full view. */
function draftOf(d: Json, full: boolean): Json {
  const m = isJson(d.message) ? d.message : {};
  const shown = messageOf(m, full ? "FULL_CONTENT" : "METADATA_ONLY");
  return proto({
    id: d.id,
    threadId: m.threadId,
    toRecipients: shown.toRecipients,
    ccRecipients: shown.ccRecipients,
    bccRecipients: shown.bccRecipients,
    date: shown.date,
    subject: full ? messageOf(m, "MINIMAL").subject : undefined,
    plaintextBody: full ? shown.plaintextBody : undefined,
    htmlBody: full ? shown.htmlBody : undefined,
  });
}

/** A plain address, as create_draft's recipients must be ("the Name <addr> format is NOT supported"). */
const PLAIN_ADDRESS = /^[^\s@<>(),;:"[\]\\]+@[^\s@<>(),;:"[\]\\]+\.[^\s@<>(),;:"[\]\\]+$/;
/** The combined attachment size create_draft's description allows. */
const ATTACHMENTS_MAX_BYTES = 25 * 1024 * 1024;

/** The MIME message create_draft writes, or why it refuses to. */
async function composeDraft(a: Args, call: Call): Promise<{ message: Json } | { refusal: string }> {
  for (const field of ["to", "cc", "bcc"] as const) {
    const bad = strings(a[field]).findIndex((v) => !PLAIN_ADDRESS.test(v));
    if (bad >= 0)
      return { refusal: `Invalid email address in ${field}[${bad}]: each recipient must be a plain address such as user@example.com` };
  }
  const attachments: AttachmentContent[] = [];
  let total = 0;
  for (const [i, att] of jsons(a.attachments).entries()) {
    const bytes = decodeBase64(str(att.content));
    if (!bytes) return { refusal: `attachments[${i}].content is not base64` };
    total += bytes.length;
    // Inline attachments are attached as files (NOTES.md).
    attachments.push({ filename: str(att.filename), mimeType: str(att.mimeType) || "application/octet-stream", data: str(att.content) });
  }
  if (total > ATTACHMENTS_MAX_BYTES) return { refusal: "The combined size of attachments exceeds 25MB" };

  const headers: Header[] = [];
  for (const [field, name] of [
    ["to", "To"],
    ["cc", "Cc"],
    ["bcc", "Bcc"],
  ] as const) {
    const list = strings(a[field]);
    if (list.length) headers.push({ name, value: list.join(", ") });
  }
  let subject = str(a.subject);
  let threadId: string | undefined;
  const replyTo = str(a.replyToMessageId);
  if (replyTo) {
    // A reply joins the original's thread: its Message-ID as In-Reply-To and References, and, when
    // no subject is given, the original's with "Re: " (Gmail threads a reply by subject too).
    const original = await gmail(call, { method: "GET", path: `${MAILBOX}/messages/${seg(replyTo)}`, query: { format: "metadata" } });
    if (!original.ok) return { refusal: original.message };
    const oh = jsons(isJson(original.data.payload) ? original.data.payload.headers : []);
    const get = (n: string) => str(oh.find((h) => str(h.name).toLowerCase() === n.toLowerCase())?.value);
    threadId = str(original.data.threadId) || undefined;
    const messageId = get("Message-ID");
    if (!subject) subject = /^re:/i.test(get("Subject")) ? get("Subject") : `Re: ${get("Subject")}`;
    if (messageId)
      headers.push({ name: "In-Reply-To", value: messageId }, { name: "References", value: `${get("References")} ${messageId}`.trim() });
  }
  headers.push({ name: "Subject", value: subject });
  const text = a.body === undefined && a.htmlBody !== undefined ? undefined : str(a.body);
  const html = a.htmlBody === undefined ? undefined : str(a.htmlBody);
  const raw = toBase64Url(utf8(serialize(mimeTree({ headers, text, html, attachments }, "hostedmcp"))));
  return { message: threadId ? { raw, threadId } : { raw } };
}

// --- labels --------------------------------------------------------------------------------------

/** A Gmail label (as labels.get answers it) as the server's Label. */
const labelOf = (l: Json): Json =>
  proto({
    color: isJson(l.color) ? proto({ backgroundColor: l.color.backgroundColor, textColor: l.color.textColor }) : undefined,
    labelId: l.id,
    messagesTotal: l.messagesTotal,
    messagesUnread: l.messagesUnread,
    name: l.name,
    threadsTotal: l.threadsTotal,
    threadsUnread: l.threadsUnread,
  });

/** The sensitive labels the label_* tools leave to apply_sensitive_*_label (their descriptions say so). */
const SENSITIVE = new Set(["TRASH", "SPAM"]);

const labelChange = (kind: "messages" | "threads", idField: "messageId" | "threadId", add: boolean): Run => {
  return async (a, call) => {
    const ids = strings(a.labelIds);
    if (!ids.length) return refused("labelIds must name at least one label");
    const sensitive = add ? ids.find((id) => SENSITIVE.has(id)) : undefined;
    if (sensitive) {
      const tool = kind === "messages" ? "apply_sensitive_message_label" : "apply_sensitive_thread_label";
      return refused(`${sensitive} cannot be added with this tool; use ${tool}`);
    }
    const out = await gmail(call, {
      method: "POST",
      path: `${MAILBOX}/${kind}/${seg(str(a[idField]))}/modify`,
      body: add ? { addLabelIds: ids } : { removeLabelIds: ids },
    });
    return out.ok ? answered({}) : refused(out.message);
  };
};

const sensitiveLabel = (kind: "messages" | "threads", idField: "messageId" | "threadId"): Run => {
  return async (a, call) => {
    const id = seg(str(a[idField]));
    const option = str(a.labelOption);
    const req: ToolCall | undefined =
      option === "TRASH"
        ? { method: "POST", path: `${MAILBOX}/${kind}/${id}/trash` }
        : option === "SPAM"
          ? { method: "POST", path: `${MAILBOX}/${kind}/${id}/modify`, body: { addLabelIds: ["SPAM"], removeLabelIds: ["INBOX"] } }
          : undefined;
    if (!req) return refused("labelOption must be TRASH or SPAM");
    const out = await gmail(call, req);
    return out.ok ? answered({}) : refused(out.message);
  };
};

const RUNS: Record<string, Run> = {
  create_draft: async (a, call) => {
    const composed = await composeDraft(a, call);
    if ("refusal" in composed) return refused(composed.refusal);
    const out = await gmail(call, { method: "POST", path: `${MAILBOX}/drafts`, body: { message: composed.message } });
    // "Returns a Draft object with only the `id` field populated."
    return out.ok ? answered(proto({ id: out.data.id })) : refused(out.message);
  },

  list_drafts: async (a, call) => {
    // The view's own documentation: unspecified is DRAFT_VIEW_METADATA_ONLY (NOTES.md).
    const full = a.view === "DRAFT_VIEW_FULL";
    const query: Record<string, string> = { maxResults: String(pageSizeOf(a.pageSize)) };
    if (str(a.query)) query.q = str(a.query);
    if (str(a.pageToken)) query.pageToken = str(a.pageToken);
    const list = await gmail(call, { method: "GET", path: `${MAILBOX}/drafts`, query });
    if (!list.ok) return refused(list.message);
    const drafts: Json[] = [];
    for (const d of jsons(list.data.drafts)) {
      const got = await gmail(call, {
        method: "GET",
        path: `${MAILBOX}/drafts/${seg(str(d.id))}`,
        query: { format: full ? "full" : "metadata" },
      });
      if (!got.ok) return refused(got.message);
      drafts.push(draftOf(got.data, full));
    }
    return answered(proto({ drafts, nextPageToken: list.data.nextPageToken }));
  },

  get_thread: async (a, call) => {
    const format = messageFormatOf(a.messageFormat);
    const out = await gmail(call, {
      method: "GET",
      path: `${MAILBOX}/threads/${seg(str(a.threadId))}`,
      query: { format: gmailFormat(format) },
    });
    return out.ok ? answered(threadOf(out.data, format)) : refused(out.message);
  },

  get_message: async (a, call) => {
    const format = messageFormatOf(a.messageFormat);
    const out = await gmail(call, {
      method: "GET",
      path: `${MAILBOX}/messages/${seg(str(a.messageId))}`,
      query: { format: gmailFormat(format) },
    });
    return out.ok ? answered(messageOf(out.data, format)) : refused(out.message);
  },

  search_threads: async (a, call) => {
    const format: MessageFormat = a.view === "THREAD_VIEW_METADATA_ONLY" ? "METADATA_ONLY" : "MINIMAL";
    const query: Record<string, string> = { maxResults: String(pageSizeOf(a.pageSize)) };
    const q = str(a.query).trim();
    if (a.includeTrash === true) {
      // Gmail's list has one switch for spam and trash together; trash alone keeps spam out by query.
      query.includeSpamTrash = "true";
      query.q = q ? `(${q}) -in:spam` : "-in:spam";
    } else if (q) query.q = q;
    if (str(a.pageToken)) query.pageToken = str(a.pageToken);
    const list = await gmail(call, { method: "GET", path: `${MAILBOX}/threads`, query });
    if (!list.ok) return refused(list.message);
    const threads: Json[] = [];
    for (const t of jsons(list.data.threads)) {
      const got = await gmail(call, { method: "GET", path: `${MAILBOX}/threads/${seg(str(t.id))}`, query: { format: "metadata" } });
      if (!got.ok) return refused(got.message);
      threads.push(threadOf(got.data, format));
    }
    const estimate = Number(list.data.resultSizeEstimate ?? 0);
    return answered(
      proto({ threads, nextPageToken: list.data.nextPageToken, resultCountEstimate: estimate ? String(estimate) : undefined }),
    );
  },

  label_thread: labelChange("threads", "threadId", true),
  unlabel_thread: labelChange("threads", "threadId", false),
  apply_sensitive_thread_label: sensitiveLabel("threads", "threadId"),

  list_labels: async (_a, call) => {
    // labels.list carries no counts; labels.get does, so each label is read once.
    const list = await gmail(call, { method: "GET", path: `${MAILBOX}/labels` });
    if (!list.ok) return refused(list.message);
    const labels: Json[] = [];
    for (const l of jsons(list.data.labels)) {
      const got = await gmail(call, { method: "GET", path: `${MAILBOX}/labels/${seg(str(l.id))}` });
      if (!got.ok) return refused(got.message);
      labels.push(labelOf(got.data));
    }
    return answered(proto({ labels }));
  },

  label_message: labelChange("messages", "messageId", true),
  unlabel_message: labelChange("messages", "messageId", false),
  apply_sensitive_message_label: sensitiveLabel("messages", "messageId"),

  create_label: async (a, call) => {
    const name = str(a.displayName);
    const body: Json = { name };
    if (isJson(a.color)) body.color = proto({ backgroundColor: a.color.backgroundColor, textColor: a.color.textColor });
    // The label itself first, so a refused name changes nothing; Gmail takes "A/B" without "A".
    const out = await gmail(call, { method: "POST", path: `${MAILBOX}/labels`, body });
    if (!out.ok) return refused(out.message);
    if (a.autoCreateParentLabels !== false && name.includes("/")) {
      // Then each parent the mailbox lacks ("Projects", then "Projects/Alpha"), matched as Gmail
      // matches names, case-insensitively. The name is at most 225 characters, so the parents are few.
      const list = await gmail(call, { method: "GET", path: `${MAILBOX}/labels` });
      const existing = new Set(list.ok ? jsons(list.data.labels).map((l) => str(l.name).toLowerCase()) : []);
      const parts = name.split("/");
      for (let i = 1; i < parts.length; i++) {
        const parent = parts.slice(0, i).join("/");
        if (!parent.trim() || existing.has(parent.toLowerCase())) continue;
        // A parent Gmail refuses (a reserved name, say) leaves the label made, unnested.
        await gmail(call, { method: "POST", path: `${MAILBOX}/labels`, body: { name: parent } });
        existing.add(parent.toLowerCase());
      }
    }
    return answered(labelOf(out.data));
  },
};

export const gmailHostedTools: OfficialToolSet = officialToolSet(published, RUNS);
