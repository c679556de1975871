// The append-only tape: one row per twin call, gap-free `seq`, written in the same synchronous
// transaction as the state change it records (a call that changed nothing is stored just after
// its answer: Sandbox.pendingTape). A body longer than one SQLite value may be is kept whole:
// its head in the row, the rest in `_tape_parts`. No body over MAX_RESPONSE_BODY_BYTES (8 MiB)
// reaches a row: dispatch() refuses such an answer and the router refuses such a request, and a
// body that still gets here is stored as a note of its size (see boundedBody).
import type { Db } from "./sql";
import { isVerbatimJson } from "./json-text";
import { MAX_PARSED_DEPTH, REDACTED, redactBody, redactPath, redactQuery, redactText } from "./redact";
import { jsonDepth } from "./twins/kit/json-depth";
import { MAX_RESPONSE_BODY_BYTES, overBytes } from "./twins/kit/response-bounds";
import type { TwinId } from "./twins/registry";
import type { TapeRow, Transport } from "./twins/types";

export const TAPE_MIGRATION = {
  name: "0001_tape",
  sql: `CREATE TABLE _tape (
    seq INTEGER PRIMARY KEY,
    at TEXT NOT NULL,
    twin TEXT NOT NULL,
    transport TEXT NOT NULL,
    method TEXT NOT NULL,
    path TEXT NOT NULL,
    query TEXT NOT NULL,
    request_headers TEXT NOT NULL,
    request_body TEXT NOT NULL,
    status INTEGER NOT NULL,
    response_body TEXT NOT NULL,
    mutated INTEGER NOT NULL,
    fidelity TEXT NOT NULL,
    operation TEXT NOT NULL
  )`,
};

/** Tails of bodies too long for one row (Durable Object SQLite values stop at 2 MB). */
export const TAPE_PARTS_MIGRATION = {
  name: "0007_tape_parts",
  sql: "CREATE TABLE _tape_parts (seq INTEGER NOT NULL, field TEXT NOT NULL, part INTEGER NOT NULL, data TEXT NOT NULL, PRIMARY KEY (seq, field, part))",
};

/** Characters per stored piece: at most 3 bytes each in UTF-8, well under the value limit. */
const PIECE_CHARS = 512 * 1024;

type LongField = "request_body" | "response_body";

/** The head of a long text for the row itself; the rest goes to `_tape_parts`. */
function storeLong(db: Db, seq: number, field: LongField, text: string): string {
  // OR REPLACE: a deferred row whose insert failed is stored again later, its pieces with it.
  for (let part = 1, at = PIECE_CHARS; at < text.length; part++, at += PIECE_CHARS) {
    db.run(
      "INSERT OR REPLACE INTO _tape_parts (seq, field, part, data) VALUES (?, ?, ?, ?)",
      seq,
      field,
      part,
      text.slice(at, at + PIECE_CHARS),
    );
  }
  return text.length > PIECE_CHARS ? text.slice(0, PIECE_CHARS) : text;
}

/** The request headers every twin's tape keeps; a twin adds its vendor's own (API versions, idempotency keys). */
const KEPT_HEADERS = ["accept", "content-type", "user-agent"];

/** The headers of a request as the tape keeps them; authorization only as a marker. */
export function tapeHeaders(headers: Record<string, string>, vendorHeaders: readonly string[] = []): Record<string, string> {
  const kept: Record<string, string> = {};
  if (headers.authorization !== undefined) kept.authorization = REDACTED;
  for (const name of [...KEPT_HEADERS, ...vendorHeaders]) if (headers[name] !== undefined) kept[name] = redactText(headers[name]);
  return kept;
}

export interface TapeEntry {
  at: number;
  twin: string;
  transport: Transport;
  method: string;
  path: string;
  query: string;
  /** The request headers already chosen for the tape (see tapeHeaders). */
  headers: Record<string, string>;
  requestBody: string;
  status: number;
  responseBody: string;
  mutated: boolean;
  fidelity: "supported" | "unsupported";
  operation: string;
}

/**
 * A body as a row may hold it: whole up to the platform's bound, else a note of what was left
 * out. Every path to the tape is bounded before this (router body limits, dispatch's response
 * bound); this keeps one missed path from writing a row of any size.
 */
function boundedBody(text: string): string {
  if (!overBytes(text, MAX_RESPONSE_BODY_BYTES)) return text;
  return JSON.stringify({
    pome_omitted: { characters: text.length, reason: `over the tape's ${MAX_RESPONSE_BODY_BYTES}-byte body bound` },
  });
}

export function appendTape(db: Db, seq: number, e: TapeEntry): void {
  const requestBody = storeLong(db, seq, "request_body", redactBody(boundedBody(e.requestBody)));
  const responseBody = storeLong(db, seq, "response_body", redactBody(boundedBody(e.responseBody)));
  db.run(
    `INSERT INTO _tape (seq, at, twin, transport, method, path, query, request_headers, request_body, status,
       response_body, mutated, fidelity, operation) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    seq,
    new Date(e.at).toISOString(),
    e.twin,
    e.transport,
    e.method,
    redactPath(e.path),
    redactQuery(e.query),
    JSON.stringify(e.headers),
    requestBody,
    e.status,
    responseBody,
    e.mutated ? 1 : 0,
    e.fidelity,
    e.operation,
  );
}

interface StoredRow {
  seq: number;
  at: string;
  twin: string;
  transport: string;
  method: string;
  path: string;
  query: string;
  request_headers: string;
  request_body: string;
  status: number;
  response_body: string;
  mutated: number;
  fidelity: string;
  operation: string;
}

/** A body as the tape serves it: JSON parsed, anything else (or JSON nested too deep to carry) as text. */
function parseBody(text: string): unknown {
  if (text === "") return null;
  if (jsonDepth(text) > MAX_PARSED_DEPTH) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export interface TapeQuery {
  afterSeq?: number;
  twin?: TwinId;
  limit?: number;
}

/** Stored rows with their long bodies put back together from `_tape_parts`. */
function storedRows(db: Db, opts: TapeQuery): StoredRow[] {
  const rows = db.all<StoredRow>(
    `SELECT * FROM _tape WHERE seq > ? ${opts.twin ? "AND twin = ?" : ""} ORDER BY seq LIMIT ?`,
    ...(opts.twin ? [opts.afterSeq ?? 0, opts.twin, opts.limit ?? -1] : [opts.afterSeq ?? 0, opts.limit ?? -1]),
  );
  if (rows.length === 0) return rows;
  const tails = new Map<string, string[]>();
  for (const p of db.all<{ seq: number; field: string; data: string }>(
    "SELECT seq, field, data FROM _tape_parts WHERE seq BETWEEN ? AND ? ORDER BY seq, field, part",
    rows[0].seq,
    rows[rows.length - 1].seq,
  )) {
    const key = `${p.seq}:${p.field}`;
    const list = tails.get(key);
    if (list) list.push(p.data);
    else tails.set(key, [p.data]);
  }
  if (tails.size === 0) return rows;
  const whole = (r: StoredRow, field: LongField) => {
    const rest = tails.get(`${r.seq}:${field}`);
    return rest ? r[field] + rest.join("") : r[field];
  };
  return rows.map((r) => ({ ...r, request_body: whole(r, "request_body"), response_body: whole(r, "response_body") }));
}

export function readTape(db: Db, opts: TapeQuery = {}): TapeRow[] {
  return storedRows(db, opts).map((r) => ({
    seq: r.seq,
    at: r.at,
    twin: r.twin as TwinId,
    transport: r.transport as Transport,
    method: r.method,
    path: r.path,
    query: r.query,
    request_headers: JSON.parse(r.request_headers) as Record<string, string>,
    request_body: parseBody(r.request_body),
    status: r.status,
    response_body: parseBody(r.response_body),
    mutated: r.mutated === 1,
    fidelity: r.fidelity as TapeRow["fidelity"],
    operation: r.operation,
  }));
}

/**
 * A stored body as it appears in a JSONL line: the stored text itself when it is JSON that
 * parses to the same value (every twin's own responses, most requests), else what parsing and
 * re-serializing gives, as readTape + JSON.stringify always did.
 */
export function bodyJson(text: string): string {
  if (text === "") return "null";
  if (isVerbatimJson(text)) return text;
  return JSON.stringify(parseBody(text));
}

/** One row as a JSONL line, from the stored text: the same value JSON.stringify(readTape row) has. */
function storedLine(r: StoredRow): string {
  const s = JSON.stringify;
  return (
    `{"seq":${r.seq},"at":${s(r.at)},"twin":${s(r.twin)},"transport":${s(r.transport)},"method":${s(r.method)},"path":${s(r.path)},` +
    `"query":${s(r.query)},"request_headers":${bodyJson(r.request_headers)},"request_body":${bodyJson(r.request_body)},"status":${r.status},` +
    `"response_body":${bodyJson(r.response_body)},"mutated":${r.mutated === 1},"fidelity":${s(r.fidelity)},"operation":${s(r.operation)}}`
  );
}

/** One page of the tape as JSONL lines: at most `maxRows` rows, and past `maxChars` only the row that crossed it. */
export function tapePage(
  db: Db,
  opts: TapeQuery & { maxChars: number; maxRows: number },
): { rows: string[]; lastSeq: number; more: boolean } {
  const rows: string[] = [];
  let chars = 0;
  let after = opts.afterSeq ?? 0;
  // Rows are read a few at a time so a page of huge rows never holds more than it returns.
  while (rows.length < opts.maxRows) {
    const batch = storedRows(db, { afterSeq: after, twin: opts.twin, limit: Math.min(50, opts.maxRows - rows.length) });
    if (batch.length === 0) return { rows, lastSeq: after, more: false };
    for (const row of batch) {
      const line = storedLine(row);
      if (rows.length > 0 && chars + line.length > opts.maxChars) return { rows, lastSeq: after, more: true };
      rows.push(line);
      chars += line.length;
      after = row.seq;
    }
  }
  const next = db.one<{ seq: number }>(
    `SELECT seq FROM _tape WHERE seq > ? ${opts.twin ? "AND twin = ?" : ""} LIMIT 1`,
    ...(opts.twin ? [after, opts.twin] : [after]),
  );
  return { rows, lastSeq: after, more: next !== undefined };
}

/** The tape as `events.jsonl`, page by page from the stored text. */
export function tapeJsonl(db: Db): string {
  const lines: string[] = [];
  for (let after = 0, more = true; more; ) {
    const page = tapePage(db, { afterSeq: after, maxRows: 500, maxChars: Number.POSITIVE_INFINITY });
    lines.push(...page.rows);
    ({ lastSeq: after, more } = page);
  }
  return lines.length ? `${lines.join("\n")}\n` : "";
}

export const tapeToJsonl = (rows: readonly TapeRow[]) => rows.map((r) => JSON.stringify(r)).join("\n") + (rows.length ? "\n" : "");
