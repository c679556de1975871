// The batch endpoint's wire form, as Google documents it (developers.google.com/gmail/api/guides/batch):
// a `multipart/mixed` body whose parts are each `Content-Type: application/http`, an optional
// `Content-ID`, then one HTTP request (request line, headers, blank line, body); answered
// `multipart/mixed` with a `batch_…` boundary, one `application/http` part per call in order,
// `Content-ID: <response-ID>`, each holding the inner HTTP response. Pure functions, no world.

/**
 * Google's cap on calls in one batch request (the batch guide: "You're limited to 100 calls in a
 * single batch request"); past it the whole batch is 400 `Inner request count exceeds the limit.
 * Received: 250, Limit: 100` (as quoted in mhasbini/gmail_analyzer#12).
 */
export const MAX_BATCH_CALLS = 100;

/** One inner call, as its part wrote it. */
export interface BatchCall {
  /** The part's Content-ID without its angle brackets; empty when the part gave none. */
  contentId: string;
  method: string;
  /** The path, from the API's root (an absolute URL is read as its path). */
  path: string;
  query: string;
  headers: Record<string, string>;
  body: string;
}

/** A part that does not hold an HTTP request: answered 400 in its place, the other calls still run. */
export interface UnreadablePart {
  contentId: string;
  problem: string;
}

export type BatchPart = BatchCall | UnreadablePart;
export const isCall = (part: BatchPart): part is BatchCall => "method" in part;

/** The batch body read: its parts in order, or why it is not a batch at all. */
export type BatchRead = { parts: BatchPart[] } | { problem: string };

/** The boundary of a `multipart/mixed` content type, quoted or not. */
export function boundaryOf(contentType: string | undefined): string | undefined {
  if (!contentType || !/^\s*multipart\/mixed\s*(;|$)/i.test(contentType)) return undefined;
  const m = /;\s*boundary\s*=\s*(?:"([^"]{1,200})"|([^\s;]{1,200}))/i.exec(contentType);
  return m?.[1] ?? m?.[2];
}

/** Header lines (`Name: value`) into a lower-cased map; a line without a colon is skipped. */
function headerMap(lines: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const at = line.indexOf(":");
    if (at > 0) headers[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim();
  }
  return headers;
}

/** Splits a head from what follows its first blank line. */
function splitHead(text: string): { head: string[]; rest: string } {
  const m = /\r?\n\r?\n/.exec(text);
  if (!m) return { head: text.split(/\r?\n/), rest: "" };
  return { head: text.slice(0, m.index).split(/\r?\n/), rest: text.slice(m.index + m[0].length) };
}

/** The request line's target as path and query; an absolute URL (Google's clients may send one) gives its path. */
function targetOf(target: string): { path: string; query: string } {
  let rest = target;
  const absolute = /^https?:\/\/[^/?#]*/i.exec(rest);
  if (absolute) rest = rest.slice(absolute[0].length) || "/";
  const hash = rest.indexOf("#");
  if (hash >= 0) rest = rest.slice(0, hash);
  const q = rest.indexOf("?");
  return q < 0 ? { path: rest, query: "" } : { path: rest.slice(0, q), query: rest.slice(q + 1) };
}

/** One part: its own headers, then the HTTP request it carries. */
function readPart(text: string): BatchPart {
  const outer = splitHead(text.replace(/^\r?\n/, ""));
  const contentId = (headerMap(outer.head)["content-id"] ?? "").replace(/^<|>$/g, "");
  const inner = splitHead(outer.rest.replace(/^(\r?\n)+/, ""));
  const requestLine = /^([A-Za-z]{1,10})\s+(\S{1,8000})(?:\s+HTTP\/\d(?:\.\d)?)?\s*$/.exec(inner.head[0] ?? "");
  if (!requestLine) return { contentId, problem: "The part does not hold an HTTP request" };
  const method = requestLine[1].toUpperCase();
  const target = requestLine[2];
  const { path, query } = targetOf(target);
  if (!path.startsWith("/")) return { contentId, problem: `Invalid request path: ${target}` };
  return { contentId, method, path, query, headers: headerMap(inner.head.slice(1)), body: inner.rest };
}

/** Reads a batch body: `multipart/mixed` with a boundary, parts between the delimiters. */
export function readBatch(contentType: string | undefined, body: string): BatchRead {
  const boundary = boundaryOf(contentType);
  if (!boundary) return { problem: "Invalid batch request: the content type must be multipart/mixed with a boundary" };
  const delimiter = `--${boundary}`;
  const sections = body.split(delimiter);
  const parts: BatchPart[] = [];
  // sections[0] is the preamble; a section starting `--` is the close delimiter's epilogue.
  for (const section of sections.slice(1)) {
    if (section.startsWith("--")) break;
    // The line break before the next delimiter belongs to the delimiter (RFC 2046 §5.1.1).
    const part = readPart(section.replace(/\r?\n$/, ""));
    // A part without a Content-ID is answered under its place in the batch.
    parts.push(part.contentId ? part : { ...part, contentId: String(parts.length + 1) });
  }
  if (parts.length === 0) return { problem: "Invalid batch request: it holds no parts" };
  return { parts };
}

/** An answer to one call, to be written as a part of the batch's answer. */
export interface PartAnswer {
  contentId: string;
  status: number;
  headers: Record<string, string>;
  body: string;
}

const REASONS: Readonly<Record<number, string>> = {
  200: "OK",
  204: "No Content",
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  409: "Conflict",
  410: "Gone",
  413: "Request Entity Too Large",
  429: "Too Many Requests",
  500: "Internal Server Error",
  503: "Service Unavailable",
};

/** Writes the batch's answer body: one `application/http` part per call, in the calls' order. */
export function writeBatch(boundary: string, answers: readonly PartAnswer[]): string {
  const encoder = new TextEncoder();
  const parts = answers.map((a) => {
    const head = [`HTTP/1.1 ${a.status} ${REASONS[a.status] ?? ""}`.trimEnd()];
    for (const [name, value] of Object.entries(a.headers)) if (name.toLowerCase() !== "content-length") head.push(`${name}: ${value}`);
    head.push(`Content-Length: ${encoder.encode(a.body).length}`);
    return [`--${boundary}`, "Content-Type: application/http", `Content-ID: <response-${a.contentId}>`, "", ...head, "", a.body].join(
      "\r\n",
    );
  });
  return `${parts.join("\r\n")}\r\n--${boundary}--\r\n`;
}
