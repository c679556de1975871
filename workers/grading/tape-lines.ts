// The Sandbox's own events.jsonl, read for grading without parsing the bodies. A line's request and
// response bodies are nearly all of its text (a 10,000-row tape is tens of megabytes of them), and
// most checks read only a row's method, path, status and operation. So each line is scanned once
// to find where its two bodies lie, the rest of the line is parsed as usual, and each body is
// parsed the first time something reads it. A row reads, spreads and serializes as it always did:
// the bodies are enumerable getters on a plain object, in the row's own key order.
import type { TapeRow } from "../../durable-objects/twins/types";

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** The index just past the string that opens at `i`, or -1 when it never closes. */
function stringEnd(text: string, i: number): number {
  for (let from = i + 1; ; ) {
    const q = text.indexOf('"', from);
    if (q < 0) return -1;
    let slashes = 0;
    while (text.charCodeAt(q - 1 - slashes) === BACKSLASH) slashes++;
    if (slashes % 2 === 0) return q + 1;
    from = q + 1;
  }
}

/** The index just past the JSON value that starts at `i`: strings skipped whole, brackets counted. */
function valueEnd(text: string, i: number): number {
  let depth = 0;
  for (let at = i; at < text.length; ) {
    const c = text.charCodeAt(at);
    if (c === QUOTE) {
      at = stringEnd(text, at);
      if (at < 0) return -1;
      if (depth === 0) return at;
      continue;
    }
    if (c === 0x7b || c === 0x5b) depth++;
    else if (c === 0x7d || c === 0x5d) {
      // A scalar ends at its enclosing object's closing brace.
      if (depth === 0) return at;
      if (--depth === 0) return at + 1;
    } else if (c === 0x2c && depth === 0) return at;
    at++;
  }
  return depth === 0 ? text.length : -1;
}

const skipSpace = (text: string, i: number) => {
  let at = i;
  while (at < text.length && (text.charCodeAt(at) === 0x20 || text.charCodeAt(at) === 0x09)) at++;
  return at;
};

/**
 * Where the response body that starts at `start` ends, found from the line's end instead of by
 * walking the body (most of the line). The tape writes `mutated` right after the response body and
 * only scalars after that, so the last `,"mutated":` of the line is that key: inside any string a
 * quote is escaped, so the text cannot occur in the strings that follow it. When the line is not
 * laid out that way, the body is walked like any other value.
 */
function responseBodyEnd(line: string, start: number): number {
  const end = line.lastIndexOf(',"mutated":');
  return end > start ? end : valueEnd(line, start);
}

const BODY_KEYS = ['"request_body"', '"response_body"'] as const;

export interface SplitLine {
  /** The line with each body replaced by `null`: small, parsed at once. */
  head: string;
  /** Each body's JSON text; absent when the line has no such key. */
  requestBody?: string;
  responseBody?: string;
}

/**
 * Finds the two bodies of a tape line (a top-level JSON object) without parsing them. Returns
 * undefined when the line is not an object this scan can read: the caller then parses it whole.
 */
export function splitLine(line: string): SplitLine | undefined {
  let at = skipSpace(line, 0);
  if (line.charCodeAt(at) !== 0x7b) return undefined;
  const out: SplitLine = { head: "" };
  let head = "";
  let copiedTo = 0;
  let seenMutated = false;
  at = skipSpace(line, at + 1);
  if (line.charCodeAt(at) === 0x7d) return { head: line };
  for (;;) {
    if (line.charCodeAt(at) !== QUOTE) return undefined;
    const keyStart = at;
    const keyEnd = stringEnd(line, at);
    if (keyEnd < 0) return undefined;
    const bodyKey = BODY_KEYS.find((k) => k.length === keyEnd - at && line.startsWith(k, at));
    at = skipSpace(line, keyEnd);
    if (line.charCodeAt(at) !== 0x3a) return undefined;
    const start = skipSpace(line, at + 1);
    const end = bodyKey === '"response_body"' && !seenMutated ? responseBodyEnd(line, start) : valueEnd(line, start);
    if (line.startsWith('"mutated"', keyStart)) seenMutated = true;
    if (end < 0 || end === start) return undefined;
    if (bodyKey) {
      const text = line.slice(start, end);
      if (bodyKey === '"request_body"') out.requestBody = text;
      else out.responseBody = text;
      head += `${line.slice(copiedTo, start)}null`;
      copiedTo = end;
    }
    at = skipSpace(line, end);
    const c = line.charCodeAt(at);
    if (c === 0x7d) {
      if (skipSpace(line, at + 1) !== line.length) return undefined;
      out.head = head + line.slice(copiedTo);
      return out;
    }
    if (c !== 0x2c) return undefined;
    at = skipSpace(line, at + 1);
  }
}

const UNREAD: unique symbol = Symbol("unread");

/**
 * A tape row whose bodies are parsed on first read (and kept). `row` holds every other field, in
 * the row's key order; the bodies are JSON texts, `null` when the line had none.
 */
export function lazyRow(row: Omit<TapeRow, "request_body" | "response_body">, requestText: string, responseText: string): TapeRow {
  let request: unknown = UNREAD;
  let response: unknown = UNREAD;
  return {
    seq: row.seq,
    at: row.at,
    twin: row.twin,
    transport: row.transport,
    method: row.method,
    path: row.path,
    query: row.query,
    request_headers: row.request_headers,
    get request_body(): unknown {
      if (request === UNREAD) request = JSON.parse(requestText);
      return request;
    },
    set request_body(value: unknown) {
      request = value;
    },
    status: row.status,
    get response_body(): unknown {
      if (response === UNREAD) response = JSON.parse(responseText);
      return response;
    },
    set response_body(value: unknown) {
      response = value;
    },
    mutated: row.mutated,
    fidelity: row.fidelity,
    operation: row.operation,
  };
}
