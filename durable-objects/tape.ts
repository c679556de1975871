// The append-only tape: one row per twin call, gap-free `seq`, written in the same synchronous
// transaction as the state change it records.
import type { Db } from "./sql";
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

export const tapeToJsonl = (rows: readonly TapeRow[]) => rows.map((r) => JSON.stringify(r)).join("\n") + (rows.length ? "\n" : "");
