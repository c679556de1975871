// Resumable upload sessions in the seed and the export (`uploadSessions`): an upload under way is
// state the mailbox accepted (its opening call was answered 200 with a session URI), so a snapshot
// keeps it and a world booted from the snapshot resumes it: the client's next chunk, sent to the
// same session URI, carries on from the bytes kept. Not a Gmail resource: the twin's own shape.
import { z } from "zod";
import { decodeBase64 } from "../kit/bytes";
import type { SeedProblems } from "../kit/seed";
import { SESSION_LIMIT } from "./upload-range";

/** The upload URIs that take the resumable protocol (messages.send, insert, import; drafts.create, update, send). */
const UPLOAD_URI = /^\/upload\/gmail\/v1\/users\/[^/]+\/(?:messages(?:\/send|\/import)?|drafts(?:\/send|\/[0-9A-Za-z_-]{1,64})?)$/;

export const uploadSessionSchema = z.strictObject({
  /** The session URI's `upload_id`. */
  id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "an upload id of 1 to 64 letters, digits, _ or -"),
  /** The upload URI and HTTP method the session was opened with. */
  method: z.enum(["POST", "PUT"]),
  path: z.string().regex(UPLOAD_URI, "a Gmail upload URI, /upload/gmail/v1/users/me/messages/send say"),
  /** The opening call's query (`internalDateSource=…`), read when the upload completes. */
  query: z.string().max(2048).default(""),
  /** The opening call's JSON metadata, as sent. */
  metadata: z.string().max(SESSION_LIMIT).default(""),
  /** `X-Upload-Content-Length`, when the opening call gave it. */
  total: z.number().int().min(0).max(SESSION_LIMIT).optional(),
  /** The bytes kept so far, base64url (the export writes it without padding). */
  received: z.string().default(""),
  /** When the session was opened, ms since the epoch: it lasts a week from then. */
  createdAt: z.string().regex(/^\d{1,15}$/),
});

export type GmailUploadSession = z.infer<typeof uploadSessionSchema>;

/** What a seed's sessions must also be: distinct ids, bytes that decode, no more than the session may keep. */
export function checkUploadSessions(sessions: readonly GmailUploadSession[], problems: SeedProblems): void {
  const ids = new Set<string>();
  sessions.forEach((s, i) => {
    const path = `uploadSessions[${i}]`;
    if (ids.has(s.id)) problems.add(`${path}.id`, `upload id ${s.id} is used twice`, "duplicate");
    ids.add(s.id);
    const bytes = decodeBase64(s.received);
    if (!bytes) return problems.add(`${path}.received`, "received is base64url or base64 of the bytes kept", "invalid_base64");
    if (bytes.length > SESSION_LIMIT) problems.add(`${path}.received`, `a session keeps at most ${SESSION_LIMIT} bytes`, "too_big");
    if (s.total !== undefined && bytes.length > 0 && bytes.length >= s.total)
      problems.add(`${path}.received`, `the session was opened for ${s.total} bytes: all of them kept would have finished it`, "too_big");
  });
}
