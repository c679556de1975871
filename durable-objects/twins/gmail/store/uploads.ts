// Resumable upload sessions (uploadType=resumable): what a session was opened for and the bytes it
// has kept, in gm_uploads (the bytes base64url-encoded in `received`, counted as bytes). A session
// is state the mailbox accepted: it is exported with the world (world-tables.ts `uploadSessions`)
// and a world booted from that export resumes it, so an upload under way survives a snapshot.
import { decodeBase64, toBase64Url } from "../../kit/bytes";
import type { Db, WorldReader } from "../../types";
import { nextCount } from "./meta";

export interface UploadSession {
  id: string;
  /** The method and path (the upload URI) the session was opened on; its chunks come to the same path. */
  method: string;
  path: string;
  /** The opening call's query (internalDateSource, say), read again when the upload completes. */
  query: string;
  /** The opening call's JSON metadata, as sent. */
  metadata: string;
  /** `X-Upload-Content-Length`, when given. */
  total: number | null;
  /** The bytes kept so far, and how many. */
  received: Uint8Array;
  receivedBytes: number;
  /** When it was opened (ms since the epoch): a session lasts a week from then. */
  createdAt: number;
}

/** Google's upload sessions last a week (developers.google.com/gmail/api/guides/uploads). */
export const SESSION_LIFETIME_MS = 7 * 24 * 3600 * 1000;

interface SessionRow {
  id: string;
  method: string;
  path: string;
  query: string;
  metadata: string;
  total: number | null;
  received: string;
  created_at: number;
}

const COLUMNS = "id, method, path, query, metadata, total, received, created_at";

/** The kept bytes of a row (base64url; a migration dropped the sessions that kept text). */
const keptBytes = (cell: string): Uint8Array => decodeBase64(cell) ?? new Uint8Array();

function fromRow(r: SessionRow): UploadSession {
  const received = keptBytes(r.received);
  const { created_at: createdAt, ...rest } = r;
  return { ...rest, received, receivedBytes: received.length, createdAt };
}

/** A session by its upload id; `world` is the call's db or, ahead of the call, a read-only view. */
export function uploadSession(world: WorldReader, id: string): UploadSession | undefined {
  const row = world.all<SessionRow>(`SELECT ${COLUMNS} FROM gm_uploads WHERE id = ?`, id)[0];
  return row ? fromRow(row) : undefined;
}

export function openSession(db: Db, s: Omit<UploadSession, "id" | "received" | "receivedBytes">): string {
  // Upload ids read like Google's (opaque, URL-safe), numbered so a sandbox replays the same; one
  // a seeded session already holds is passed over.
  let id = "";
  do id = `AHVrFxN${nextCount(db, "upload_seq", 1).toString(36).padStart(6, "0")}`;
  while (db.one("SELECT 1 AS x FROM gm_uploads WHERE id = ?", id));
  db.run(
    `INSERT INTO gm_uploads (${COLUMNS}, received_bytes) VALUES (?, ?, ?, ?, ?, ?, '', ?, 0)`,
    id,
    s.method,
    s.path,
    s.query,
    s.metadata,
    s.total,
    s.createdAt,
  );
  return id;
}

/** Keeps a chunk after the bytes already kept. */
export function appendBytes(db: Db, session: UploadSession, chunk: Uint8Array): void {
  const whole = new Uint8Array(session.received.length + chunk.length);
  whole.set(session.received);
  whole.set(chunk, session.received.length);
  db.run("UPDATE gm_uploads SET received = ?, received_bytes = ? WHERE id = ?", toBase64Url(whole), whole.length, session.id);
}

export const closeSession = (db: Db, id: string): void => {
  db.run("DELETE FROM gm_uploads WHERE id = ?", id);
};
