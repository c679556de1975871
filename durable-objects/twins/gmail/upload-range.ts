// The bytes of a resumable upload (uploadType=resumable), as Google's upload protocol counts them:
// each PUT to the session URI says with `Content-Range` which bytes it carries and of how many
// (developers.google.com/gmail/api/guides/uploads, "Resumable upload"). Pure functions, shared by
// the call's `prepare` (which parses the message a completing chunk finishes) and its handler.

/**
 * The most an upload session keeps: the platform's body limit (1 MiB, workers/twin-limits.ts),
 * so a message uploaded in chunks is no larger than one the twin takes in a single call. (Gmail's
 * own bound, the discovery document's `maxSize` for its uploads, is 35 MB.)
 */
export const SESSION_LIMIT = 1024 * 1024;

/** What a PUT to a session says it carries. */
export type UploadRange =
  /** No Content-Range: the whole media in this one request. */
  | { kind: "whole" }
  // `bytes */N` (or `bytes */*`) with no body: which bytes has the session kept?
  | { kind: "status"; total: number | undefined }
  /** `bytes a-b/N` (N may be `*` until the last chunk). */
  | { kind: "chunk"; first: number; last: number; total: number | undefined }
  | { kind: "invalid" };

/** Reads a Content-Range header as Google's upload protocol writes it. */
export function readRange(header: string | undefined): UploadRange {
  if (header === undefined || header.trim() === "") return { kind: "whole" };
  const m = /^\s*bytes\s+(?:\*|(\d{1,12})-(\d{1,12}))\/(\*|\d{1,12})\s*$/i.exec(header);
  if (!m) return { kind: "invalid" };
  const total = m[3] === "*" ? undefined : Number(m[3]);
  if (m[1] === undefined || m[2] === undefined) return { kind: "status", total };
  const first = Number(m[1]);
  const last = Number(m[2]);
  if (last < first || (total !== undefined && last >= total)) return { kind: "invalid" };
  return { kind: "chunk", first, last, total };
}

/** The session as a chunk meets it. */
export interface SessionBytes {
  /** Bytes kept so far. */
  receivedBytes: number;
  /** The size the session was opened for (`X-Upload-Content-Length`), if it was given. */
  total: number | null;
}

/**
 * Whether this PUT, taken, ends the upload: the whole media at once, or the chunk whose last byte
 * is the last of the total it or the session names. A chunk that does not follow on from the
 * bytes kept ends nothing (the handler answers it with what it kept).
 */
export function completes(session: SessionBytes, range: UploadRange, size: number): boolean {
  if (range.kind === "whole") return session.receivedBytes === 0;
  if (range.kind !== "chunk" || range.first !== session.receivedBytes) return false;
  const total = range.total ?? session.total;
  return total !== undefined && total !== null && range.last + 1 === total && range.last - range.first + 1 === size;
}
