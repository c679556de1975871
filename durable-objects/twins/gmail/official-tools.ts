// Google's own Gmail MCP tools. Listed first, the 13 tools of Google's hosted Gmail MCP server
// (hosted-tools.ts); then, here, the eight gmail.* tools of the MCP server in Google's Workspace
// extension for Gemini CLI (gemini-cli-extensions/workspace, workspace-server, Apache-2.0,
// Copyright 2025 Google LLC), listed with the names, descriptions and input schemas its
// tools/list gives (test/fixtures/vendor-mcp/gmail-workspace-server.json, with commit and
// license). Each is carried out as the googleapis call its GmailService makes
// (workspace-server/src/services/GmailService.ts), with the same arguments and defaults, and
// answers the text that service answers, so an agent built against Google's server works against
// a sandbox unchanged:
// - success: the service's chosen fields, `JSON.stringify(value, null, 2)`;
// - any failure (Gmail's refusal included): `{"error": <GaxiosError message>}`, compact, and never
//   flagged `isError` (the service catches every error and returns it as an ordinary text).
//
// What googleapis does around each call is done here too: requests GET-ed are retried up to 3 times
// on 429 and 5xx (the server's GaxiosConfig.ts retryConfig; the twin does not wait between them),
// and a refusal's message is gaxios 7's (GaxiosError.extractAPIErrorFromResponse).
//
// One tool touches the machine the server runs on: gmail.downloadAttachment writes the attachment
// to `localPath`. A sandbox has no such machine; the twin makes the same attachments.get call,
// answers what the server answers, and writes the bytes nowhere (NOTES.md says so).
import published from "../../../test/fixtures/vendor-mcp/gmail-workspace-server.json";
import { decodeBase64, toBase64, toBase64Url, utf8 } from "../kit/bytes";
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
import { type Json, MAILBOX, str, isJson, strings } from "./tool-values";
import { gmailHostedTools } from "./hosted-tools";

/** The server's GMAIL_SEARCH_MAX_RESULTS (workspace-server/src/utils/constants.ts). */
const SEARCH_MAX_RESULTS = 100;

/** What the service answers on success: its chosen fields, pretty-printed. */
const shown = (value: unknown): Result => ({ text: JSON.stringify(value, null, 2), isError: false });
/** What its handleError answers: `{"error": message}`, compact, not flagged. */
const failed = (message: string): Result => ({ text: JSON.stringify({ error: message }), isError: false });

function bodyOf(res: TwinResponse): unknown {
  try {
    return JSON.parse(res.body);
  } catch {
    return res.body;
  }
}

/** gaxios 7's message for a refused call: the `errors[].message`s, else `error.message`, else the text. */
function refusalMessage(res: TwinResponse): string {
  const fallback = `Request failed with status code ${res.status}`;
  const data = bodyOf(res);
  if (typeof data === "string") return data || fallback;
  if (!isJson(data) || !data.error) return fallback;
  if (typeof data.error === "string") return data.error;
  if (!isJson(data.error)) return fallback;
  const message = typeof data.error.message === "string" ? data.error.message : fallback;
  if (!Array.isArray(data.error.errors)) return message;
  const listed = data.error.errors.filter(isJson).flatMap((e) => (typeof e.message === "string" ? [e.message] : []));
  return listed.join("\n") || message;
}

/** The server's gaxios retryConfig: GET (as HEAD, OPTIONS, DELETE, PUT) retried 3 times on 429 and 5xx. */
const RETRIES = 3;
const retried = (req: ToolCall, res: TwinResponse) =>
  ["GET", "HEAD", "OPTIONS", "DELETE", "PUT"].includes(req.method) && (res.status === 429 || (res.status >= 500 && res.status <= 599));

/** One googleapis call: its JSON on success, or the error the service turns into its error text. */
async function gmail(call: Call, req: ToolCall): Promise<{ ok: true; data: Json } | { ok: false; message: string }> {
  let res = await call(req);
  for (let attempt = 0; attempt < RETRIES && retried(req, res); attempt++) res = await call(req);
  if (res.status >= 400) return { ok: false, message: refusalMessage(res) };
  const data = bodyOf(res);
  return { ok: true, data: isJson(data) ? data : {} };
}

/** A tool that makes one call and shapes its answer, or answers the error text. */
const oneCall =
  (toCall: (a: Args) => ToolCall, pick: (data: Json, a: Args) => unknown): Run =>
  async (a, call) => {
    const out = await gmail(call, toCall(a));
    return out.ok ? shown(pick(out.data, a)) : failed(out.message);
  };

// --- gmail.get: the summary the service writes for `full` and `metadata` ---------------------

interface Attachment {
  filename: unknown;
  mimeType: unknown;
  attachmentId: unknown;
  size: unknown;
}

/** Buffer#toString("utf-8"): invalid bytes become U+FFFD and a leading BOM is kept. */
const decodeText = (data: string) =>
  new TextDecoder("utf-8", { fatal: false, ignoreBOM: true }).decode(decodeBase64(data) ?? new Uint8Array());

/**
 * The service's extractAttachmentsAndBody, walked in the same order: a text part's data is the
 * body (a text/plain one replaces whatever came before, another text/* only fills an empty one);
 * a part with a filename and an attachmentId is an attachment.
 */
function extractAttachmentsAndBody(part: unknown, result: { body: string; attachments: Attachment[] }) {
  if (!isJson(part)) return result;
  const body = isJson(part.body) ? part.body : undefined;
  const mimeType = typeof part.mimeType === "string" ? part.mimeType : "";
  if (typeof body?.data === "string" && body.data && (!part.filename || !body.attachmentId) && mimeType.startsWith("text/")) {
    if (!result.body || mimeType === "text/plain") result.body = decodeText(body.data);
  }
  if (part.filename && body?.attachmentId) {
    result.attachments.push({ filename: part.filename, mimeType: part.mimeType, attachmentId: body.attachmentId, size: body.size });
  }
  if (Array.isArray(part.parts)) for (const p of part.parts) extractAttachmentsAndBody(p, result);
  return result;
}

function messageSummary(message: Json, format: string): unknown {
  if (format !== "metadata" && format !== "full") return message;
  const payload = isJson(message.payload) ? message.payload : undefined;
  const headers = Array.isArray(payload?.headers) ? payload.headers.filter(isJson) : [];
  // Exact, case-sensitive names, as the service's getHeader compares them.
  const header = (name: string) => headers.find((h) => h.name === name)?.value;
  const extracted =
    format === "full" && payload ? extractAttachmentsAndBody(payload, { body: "", attachments: [] }) : { body: "", attachments: [] };
  return {
    id: message.id,
    threadId: message.threadId,
    labelIds: message.labelIds,
    snippet: message.snippet,
    subject: header("Subject"),
    from: header("From"),
    to: header("To"),
    date: header("Date"),
    body: extracted.body || message.snippet,
    attachments: extracted.attachments,
  };
}

// --- gmail.send and gmail.createDraft: the message the service's MimeHelper writes -------------

/**
 * The email check of the server's utils/validation.ts (`z.string().email("Invalid email format")`,
 * as a string or a list of them) with the zod its lockfile resolves (4.1.13): that version's email
 * pattern, and its error message (the issues, JSON with two-space indents). The project's zod is
 * newer and its pattern differs, so the check is written out rather than rebuilt with it.
 */
const EMAIL_SOURCE = String.raw`^(?!\.)(?!.*\.\.)([A-Za-z0-9_'+\-\.]*)[A-Za-z0-9_+-]@([A-Za-z0-9][A-Za-z0-9\-]*\.)+[A-Za-z]{2,}$`;
const EMAIL = new RegExp(EMAIL_SOURCE);

/** The zod issues of an address list that is not all addresses, or undefined when it is. */
function emailIssues(value: unknown): string | undefined {
  const issue = (path: number[]) => ({
    origin: "string",
    code: "invalid_format",
    format: "email",
    pattern: `/${EMAIL_SOURCE}/`,
    path,
    message: "Invalid email format",
  });
  const issues =
    typeof value === "string"
      ? EMAIL.test(value)
        ? []
        : [issue([])]
      : strings(value).flatMap((v, i) => (EMAIL.test(v) ? [] : [issue([i])]));
  return issues.length ? JSON.stringify(issues, null, 2) : undefined;
}

/** `to`, `cc` or `bcc` as the service passes it on: a list joined with ", ", absent when empty. */
const addresses = (v: unknown) => (Array.isArray(v) ? strings(v).join(", ") : str(v));

/** MimeHelper.createMimeMessage: the headers, a blank line and the body, CRLF-joined, base64url. */
function mimeMessage(a: Args): string {
  const lines = [`To: ${addresses(a.to)}`];
  const cc = a.cc ? addresses(a.cc) : "";
  const bcc = a.bcc ? addresses(a.bcc) : "";
  if (cc) lines.push(`Cc: ${cc}`);
  if (bcc) lines.push(`Bcc: ${bcc}`);
  lines.push(`Subject: =?utf-8?B?${toBase64(utf8(str(a.subject)))}?=`);
  lines.push(a.isHtml === true ? "Content-Type: text/html; charset=utf-8" : "Content-Type: text/plain; charset=utf-8");
  lines.push("", str(a.body));
  return toBase64Url(utf8(lines.join("\r\n")));
}

/** What send and sendDraft answer: the sent message's id, thread and labels. */
const sentSummary = (data: Json) => ({ id: data.id, threadId: data.threadId, labelIds: data.labelIds, status: "sent" });

// --- gmail.downloadAttachment ------------------------------------------------------------------

/** path.isAbsolute of the machine the server runs on: a POSIX path, or a Windows drive or UNC path. */
const isAbsolutePath = (p: string) => p.startsWith("/") || /^[A-Za-z]:[\\/]/.test(p) || p.startsWith("\\\\");

const RUNS: Record<string, Run> = {
  "gmail.search": oneCall(
    (a) => {
      const query: Record<string, string | string[]> = {};
      if (a.query !== undefined) query.q = str(a.query);
      query.maxResults = String(a.maxResults ?? SEARCH_MAX_RESULTS);
      if (a.pageToken !== undefined) query.pageToken = str(a.pageToken);
      // googleapis repeats labelIds in the query, one parameter per label.
      const labels = strings(a.labelIds);
      if (labels.length) query.labelIds = labels;
      query.includeSpamTrash = String(a.includeSpamTrash === true);
      return { method: "GET", path: `${MAILBOX}/messages`, query };
    },
    (data) => ({
      messages: (Array.isArray(data.messages) ? data.messages.filter(isJson) : []).map((m) => ({ id: m.id, threadId: m.threadId })),
      nextPageToken: data.nextPageToken,
      resultSizeEstimate: data.resultSizeEstimate,
    }),
  ),
  "gmail.get": oneCall(
    (a) => ({ method: "GET", path: `${MAILBOX}/messages/${seg(str(a.messageId))}`, query: { format: str(a.format) || "full" } }),
    (data, a) => messageSummary(data, str(a.format) || "full"),
  ),
  "gmail.downloadAttachment": async (a, call) => {
    const localPath = str(a.localPath);
    if (!isAbsolutePath(localPath)) return failed("localPath must be an absolute path.");
    const out = await gmail(call, {
      method: "GET",
      path: `${MAILBOX}/messages/${seg(str(a.messageId))}/attachments/${seg(str(a.attachmentId))}`,
    });
    if (!out.ok) return failed(out.message);
    if (typeof out.data.data !== "string" || !out.data.data) return failed("Attachment data is empty");
    // Compact, unlike the service's other answers.
    return { text: JSON.stringify({ message: `Attachment downloaded successfully to ${localPath}`, path: localPath }), isError: false };
  },
  // The service always sends both lists, empty when not given.
  "gmail.modify": oneCall(
    (a) => ({
      method: "POST",
      path: `${MAILBOX}/messages/${seg(str(a.messageId))}/modify`,
      body: { addLabelIds: strings(a.addLabelIds), removeLabelIds: strings(a.removeLabelIds) },
    }),
    (data) => data,
  ),
  "gmail.send": async (a, call) => {
    // `to`, then `cc` and `bcc` when given (truthy), the first failure answered, before any call.
    const details = emailIssues(a.to) ?? (a.cc ? emailIssues(a.cc) : undefined) ?? (a.bcc ? emailIssues(a.bcc) : undefined);
    if (details) return { text: JSON.stringify({ error: "Invalid email address format", details }), isError: false };
    const out = await gmail(call, { method: "POST", path: `${MAILBOX}/messages/send`, body: { raw: mimeMessage(a) } });
    return out.ok ? shown(sentSummary(out.data)) : failed(out.message);
  },
  // No address check here: the service checks addresses only before sending.
  "gmail.createDraft": oneCall(
    (a) => ({ method: "POST", path: `${MAILBOX}/drafts`, body: { message: { raw: mimeMessage(a) } } }),
    (data) => {
      const message = isJson(data.message) ? data.message : {};
      return { id: data.id, message: { id: message.id, threadId: message.threadId, labelIds: message.labelIds }, status: "draft_created" };
    },
  ),
  "gmail.sendDraft": oneCall((a) => ({ method: "POST", path: `${MAILBOX}/drafts/send`, body: { id: a.draftId } }), sentSummary),
  "gmail.listLabels": oneCall(
    () => ({ method: "GET", path: `${MAILBOX}/labels` }),
    (data) => ({
      labels: (Array.isArray(data.labels) ? data.labels.filter(isJson) : []).map((l) => ({
        id: l.id,
        name: l.name,
        type: l.type,
        messageListVisibility: l.messageListVisibility,
        labelListVisibility: l.labelListVisibility,
      })),
    }),
  ),
};

const workspaceTools: OfficialToolSet = officialToolSet(published, RUNS);

/**
 * What `…/mcp/official` serves: Google's hosted Gmail MCP server's 13 tools first (hosted-tools.ts),
 * then the Workspace extension's eight. No name is shared (snake_case beside `gmail.*`), so an agent
 * written against either server finds its tools unchanged.
 */
export const gmailOfficialTools: OfficialToolSet = {
  source: `${gmailHostedTools.source} | ${workspaceTools.source}`,
  tools: [...gmailHostedTools.tools, ...workspaceTools.tools],
  unrun: [...gmailHostedTools.unrun, ...workspaceTools.unrun],
};
