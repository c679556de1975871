// Resumable uploads (uploadType=resumable) of the methods that take a message: messages.send,
// insert and import, drafts.create and update. Google's protocol, as the Gmail guide documents it
// (developers.google.com/gmail/api/guides/uploads, "Resumable upload"):
// 1. the opening call (the method's own upload URI and HTTP method, `uploadType=resumable`, the
//    JSON metadata as its body, `X-Upload-Content-Type`/`X-Upload-Content-Length`) is answered
//    200 with an empty body and the session URI in `Location`;
// 2. the media is PUT to that URI, whole or in chunks with `Content-Range: bytes a-b/N`; a chunk
//    that does not finish it is answered `308 Resume Incomplete` with `Range: bytes=0-k`;
// 3. `Content-Range: bytes */N` and no body asks which bytes the session kept (308, no Range
//    when none);
// 4. the chunk that finishes it is answered as the method answers: the message or draft;
// 5. a session that is unknown or past its week is 404 (the guide: start the upload over).
import type { Route, TwinContext, TwinResponse } from "../types";
import { badRequest, fail, gError, invalidJson, notFound } from "./errors";
import { bodyBytes, bodyText, PreparedCall, UNREADABLE_METADATA } from "./parse";
import { appendBytes, closeSession, openSession, SESSION_LIFETIME_MS, type UploadSession, uploadSession } from "./store/uploads";
import { completes, readRange, SESSION_LIMIT } from "./upload-range";

/** Gmail takes mail, and only mail, as upload media (the discovery document's `accept`: message/*). */
function checkMediaType(type: string | undefined): void {
  if (type === undefined || type.trim() === "") return;
  if (/^message\//i.test(type.trim())) return;
  fail(badRequest(`Media type '${type.trim()}' is not supported. Valid media types: [message/*]`));
}

/**
 * Media over what a session may keep (Gmail's 35 MB, or the twin's own bound below it). Google's
 * upload front end answers an over-large upload 413 Request Entity Too Large (as reported against
 * Gmail's upload URIs: jennybc/send-email-with-r#6, Stack Overflow 24462184); the JSON body's
 * words are the status line's, and `uploadTooLarge` is the reason Google's JSON APIs give a 413
 * (Cloud Storage's status codes). `Media larger than: N` is google-api-python-client's own
 * client-side error (GAM-team/got-your-back#7), never a server answer.
 */
const tooLarge = (): TwinResponse => gError(413, "Request Entity Too Large", "uploadTooLarge");

/** The declared upload size: absent, or a whole number of bytes within the bounds. */
function declaredSize(header: string | undefined): number | null {
  if (header === undefined || header.trim() === "") return null;
  if (!/^\d{1,15}$/.test(header.trim())) return fail(badRequest(`Invalid X-Upload-Content-Length: ${header}`));
  const size = Number(header.trim());
  if (size > SESSION_LIMIT) fail(tooLarge());
  return size;
}

/** Step 1: opens a session on this very URI and answers where to send the media. */
function open(ctx: TwinContext): TwinResponse {
  const prepared = ctx.req.prepared instanceof PreparedCall ? ctx.req.prepared.metadata : undefined;
  if (prepared === UNREADABLE_METADATA) return fail(invalidJson());
  checkMediaType(ctx.req.headers["x-upload-content-type"]);
  const total = declaredSize(ctx.req.headers["x-upload-content-length"]);
  const query = new URLSearchParams(ctx.req.query);
  query.delete("upload_id");
  const id = openSession(ctx.db, {
    method: ctx.req.method,
    path: ctx.req.path,
    query: query.toString(),
    metadata: bodyText(ctx.req),
    total,
    createdAt: ctx.clock.now(),
  });
  const location = `${ctx.req.baseUrl}${ctx.req.path}?${new URLSearchParams({ uploadType: "resumable", upload_id: id })}`;
  return { status: 200, headers: { location, "x-guploader-uploadid": id }, body: "" };
}

/** Step 2's answer to an unfinished upload: 308 with the bytes kept (none: no Range at all). */
function incomplete(kept: number): TwinResponse {
  return { status: 308, headers: kept > 0 ? { range: `bytes=0-${kept - 1}` } : {}, body: "" };
}

/** Whether a session takes a chunk sent to `path` at `now`: one opened on that URI, within its week. */
export const sessionUsable = (session: UploadSession, path: string, now: number): boolean =>
  session.path === path && now - session.createdAt < SESSION_LIFETIME_MS;

/** The session a call names, or Google's 404 (the guide: the upload must be restarted). */
function sessionFor(ctx: TwinContext, id: string): UploadSession {
  const session = uploadSession(ctx.db, id);
  if (!session || !sessionUsable(session, ctx.req.path, ctx.clock.now())) return fail(notFound());
  return session;
}

/** The total a chunk names must be the one the session was opened for. */
function checkTotal(session: UploadSession, named: number | undefined): void {
  if (named === undefined || session.total === null || named === session.total) return;
  fail(badRequest(`The upload was opened for ${session.total} bytes, not ${named}`));
}

/** Steps 2 to 4: takes a chunk (or a status query) and, when it finishes the upload, serves the method. */
function resume(ctx: TwinContext, id: string, complete: (ctx: TwinContext) => TwinResponse): TwinResponse {
  const session = sessionFor(ctx, id);
  const range = readRange(ctx.req.headers["content-range"]);
  // Counted on the bytes sent (the upload URIs are binary, index.ts): a chunk may end inside a character.
  const chunk = bodyBytes(ctx.req);
  const size = chunk.length;
  if (range.kind === "invalid") return fail(badRequest(`Invalid Content-Range: ${ctx.req.headers["content-range"] ?? ""}`));
  if (range.kind === "status") {
    checkTotal(session, range.total);
    return incomplete(session.receivedBytes);
  }
  // The whole media again, after chunks were taken, is not taken: the answer says where to resume.
  if (range.kind === "whole" && session.receivedBytes > 0) return incomplete(session.receivedBytes);
  if (range.kind === "whole" && session.total !== null && size !== session.total)
    return fail(badRequest(`The upload was opened for ${session.total} bytes, not ${size}`));
  if (range.kind === "chunk") {
    checkTotal(session, range.total);
    if (range.last - range.first + 1 !== size)
      return fail(badRequest(`Content-Range names ${range.last - range.first + 1} bytes; the request carries ${size}`));
    // A chunk that does not follow on from the bytes kept is not taken: the answer says where to resume.
    if (range.first !== session.receivedBytes) return incomplete(session.receivedBytes);
  }
  if (session.receivedBytes + size > SESSION_LIMIT) return fail(tooLarge());
  if (!completes(session, range, size)) {
    appendBytes(ctx.db, session, chunk);
    return incomplete(session.receivedBytes + size);
  }
  const prepared = ctx.req.prepared instanceof PreparedCall ? ctx.req.prepared : undefined;
  // The message was parsed ahead of the call from the bytes kept then; another chunk since would
  // make it not this session's message: the client asks again where to resume.
  if (!prepared || prepared.resumedAt !== session.receivedBytes) return incomplete(session.receivedBytes);
  closeSession(ctx.db, id);
  // The method runs as the opening call asked for it: its query, its JSON metadata as the body (text).
  const { bodyEncoding: _chunkEncoding, ...chunkCall } = ctx.req;
  const req = { ...chunkCall, query: session.query, body: session.metadata, prepared };
  return complete({ ...ctx, req, query: new URLSearchParams(session.query) });
}

/**
 * Serves an upload route's call: a resumable one through the session protocol (the method itself
 * runs once, when the upload completes), any other as the route does. `method` is the route's own
 * HTTP method: a PUT to the upload URI of a POST method is only ever a session's chunk.
 */
export function serveUpload(ctx: TwinContext, method: string, serve: (ctx: TwinContext) => TwinResponse): TwinResponse {
  const uploadId = ctx.query.get("upload_id");
  if (uploadId !== null) return resume(ctx, uploadId, serve);
  if (ctx.req.method !== method) return fail(notFound());
  if (ctx.query.get("uploadType") === "resumable") return open(ctx);
  return serve(ctx);
}

/**
 * The session URIs of the upload methods Gmail serves by POST: the same path, by PUT, where a
 * session's chunks go (a method served by PUT, drafts.update, takes them on its own route).
 */
export function sessionRoutes(routes: readonly Route[]): Route[] {
  return routes
    .filter((r) => r.method === "POST" && r.pattern.startsWith("/upload/"))
    .map((r) => ({ ...r, method: "PUT", summary: `${r.summary}: a resumable upload's media` }));
}
