// Resumable upload sessions (uploadType=resumable): what a session was opened for and the bytes it
// has kept, in gm_uploads. A session is not part of the mailbox: export leaves it out, and a
// restored world starts with none (a client then hears 404 and starts over, as after expiry).
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
  /** The bytes kept so far, as text, and how many bytes that is. */
  received: string;
  receivedBytes: number;
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
  received_bytes: number;
  created_at: number;
}

const COLUMNS = "id, method, path, query, metadata, total, received, received_bytes, created_at";

const fromRow = (r: SessionRow): UploadSession => ({
  id: r.id,
  method: r.method,
  path: r.path,
  query: r.query,
  metadata: r.metadata,
  total: r.total,
  received: r.received,
  receivedBytes: r.received_bytes,
  createdAt: r.created_at,
});

/** A session by its upload id; `world` is the call's db or, ahead of the call, a read-only view. */
export function uploadSession(world: WorldReader, id: string): UploadSession | undefined {
  const row = world.all<SessionRow>(`SELECT ${COLUMNS} FROM gm_uploads WHERE id = ?`, id)[0];
  return row ? fromRow(row) : undefined;
}

export function openSession(db: Db, s: Omit<UploadSession, "id" | "received" | "receivedBytes">): string {
  // Upload ids read like Google's (opaque, URL-safe), numbered so a sandbox replays the same.
  const id = `AHVrFxN${nextCount(db, "upload_seq", 1).toString(36).padStart(6, "0")}`;
  db.run(
    "INSERT INTO gm_uploads (id, method, path, query, metadata, total, received, received_bytes, created_at) VALUES (?, ?, ?, ?, ?, ?, '', 0, ?)",
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

export function appendBytes(db: Db, id: string, text: string, bytes: number): void {
  db.run("UPDATE gm_uploads SET received = received || ?, received_bytes = received_bytes + ? WHERE id = ?", text, bytes, id);
}

export const closeSession = (db: Db, id: string): void => {
  db.run("DELETE FROM gm_uploads WHERE id = ?", id);
};
