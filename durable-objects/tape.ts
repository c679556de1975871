// The append-only tape: one row per twin call, gap-free `seq`, written in the same synchronous
// transaction as the state change it records.
import type { Db } from "./sql";
import { isVerbatimJson } from "./json-text";
import { REDACTED, redactText } from "./redact";
import type { TapeRow, Transport, TwinId } from "./twins/types";

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
  twin: TwinId;
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

export function appendTape(db: Db, seq: number, e: TapeEntry): void {
  db.run(
    `INSERT INTO _tape (seq, at, twin, transport, method, path, query, request_headers, request_body, status,
       response_body, mutated, fidelity, operation) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    seq,
    new Date(e.at).toISOString(),
    e.twin,
    e.transport,
    e.method,
    redactText(e.path),
    redactText(e.query),
    JSON.stringify(e.headers),
    redactText(e.requestBody),
    e.status,
    redactText(e.responseBody),
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

function parseBody(text: string): unknown {
  if (text === "") return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export function readTape(db: Db, opts: { afterSeq?: number; twin?: TwinId; limit?: number } = {}): TapeRow[] {
  const rows = db.all<StoredRow>(
    `SELECT * FROM _tape WHERE seq > ? ${opts.twin ? "AND twin = ?" : ""} ORDER BY seq LIMIT ?`,
    ...(opts.twin ? [opts.afterSeq ?? 0, opts.twin, opts.limit ?? -1] : [opts.afterSeq ?? 0, opts.limit ?? -1]),
  );
  return rows.map((r) => ({
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

/** Rows read per query when writing a whole tape out, so a long tape is never all in memory twice. */
const JSONL_PAGE_ROWS = 500;

/** The tape as `events.jsonl`, written from the stored text: no body is parsed unless it must be. */
export function tapeJsonl(db: Db): string {
  const lines: string[] = [];
  for (let after = 0; ; ) {
    const rows = db.all<StoredRow>("SELECT * FROM _tape WHERE seq > ? ORDER BY seq LIMIT ?", after, JSONL_PAGE_ROWS);
    for (const r of rows) lines.push(storedLine(r));
    if (rows.length < JSONL_PAGE_ROWS) break;
    after = rows[rows.length - 1].seq;
  }
  return lines.length ? `${lines.join("\n")}\n` : "";
}

export const tapeToJsonl = (rows: readonly TapeRow[]) => rows.map((r) => JSON.stringify(r)).join("\n") + (rows.length ? "\n" : "");
