// Reading the mail people send. postal-mime parses MIME asynchronously and a twin's handler runs
// inside one synchronous transaction, so the twin's `prepare` hook parses the message of a call
// before it is served (JSON `raw`, `message.raw`, or the upload forms' bodies) and the handler
// reads the result from `req.prepared`.
import PostalMime, { decodeWords } from "postal-mime";
import { decodeBase64, toBase64, fromUtf8, utf8 } from "../kit/bytes";
import { isBody } from "../kit/input";
import type { TwinRequest, WorldReader } from "../types";
import { type BatchRead, isCall, MAX_BATCH_CALLS, readBatch } from "./batch-wire";
import { uploadSession } from "./store/uploads";
import { byteLength, completes, readRange } from "./upload-range";
import { isMimeHeader, type AttachmentContent, type Header, type MailContent } from "./mime";

/** A message parsed ahead of its call. */
export class ParsedMail {
  constructor(
    /** The RFC 822 text as sent. */
    readonly raw: string,
    /** The headers of the top-level entity, decoded, in order (MIME headers included). */
    readonly headers: Header[],
    /** The same message in the structured form (its headers without the MIME ones). */
    readonly content: MailContent,
    /** Whether the structured form reproduces it (one text, html or both, plus attached files). */
    readonly fits: boolean,
  ) {}
}

/** What a call's body held before the handler runs: the upload's JSON metadata and its message. */
export class PreparedCall {
  constructor(
    /** The metadata as parsed JSON; `UNREADABLE_METADATA` when a resumable upload's is not JSON. */
    readonly metadata: unknown,
    /** The parsed message; `invalid` when `raw` was there but is not base64 or not mail. */
    readonly mail: ParsedMail | "invalid" | undefined,
    /**
     * For the chunk that completes a resumable upload: how many bytes the session had kept when
     * `prepare` read them, so the handler knows the message it parsed is still the session's.
     */
    readonly resumedAt?: number,
  ) {}
}

/** A resumable upload's opening metadata that is not JSON (the handler refuses it as Google does). */
export const UNREADABLE_METADATA = Symbol("unreadable metadata");

const bytesOf = (content: ArrayBuffer | Uint8Array | string): Uint8Array =>
  typeof content === "string" ? utf8(content) : content instanceof Uint8Array ? content : new Uint8Array(content);

export async function parseMail(raw: string): Promise<ParsedMail | "invalid"> {
  if (!/^[\x21-\x39\x3b-\x7e]+:/m.test(raw.split(/\r?\n\r?\n/)[0] ?? "")) return "invalid";
  const email = await PostalMime.parse(raw, { attachmentEncoding: "arraybuffer" });
  const headers = email.headers.map((h) => ({ name: h.originalKey, value: decodeWords(h.value) }));
  const attachments: AttachmentContent[] = email.attachments.map((a) => ({
    filename: a.filename ?? "",
    mimeType: a.mimeType,
    data: toBase64(bytesOf(a.content)),
  }));
  const content: MailContent = { headers: headers.filter((h) => !isMimeHeader(h.name)), attachments };
  if (email.text !== undefined) content.text = email.text;
  if (email.html !== undefined) content.html = email.html;
  // Inline parts, nested messages and unnamed files have no place in the structured form.
  const fits = email.attachments.every((a) => a.disposition !== "inline" && !a.related && a.filename && a.mimeType !== "message/rfc822");
  return new ParsedMail(raw, headers, content, fits);
}

/** Decodes a `raw` field (base64url or base64) and parses it. */
export async function parseRawField(value: string): Promise<ParsedMail | "invalid"> {
  const bytes = decodeBase64(value);
  return bytes ? parseMail(fromUtf8(bytes)) : "invalid";
}

async function fromJson(text: string): Promise<PreparedCall | undefined> {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isBody(body)) return undefined;
  const message = isBody(body.message) ? body.message : body;
  return typeof message.raw === "string" ? new PreparedCall(undefined, await parseRawField(message.raw)) : undefined;
}

/** The two parts of a multipart/related upload: its JSON metadata and its message/rfc822 part. */
async function fromMultipart(contentType: string, body: string): Promise<PreparedCall> {
  const outer = await PostalMime.parse(`Content-Type: ${contentType}\r\n\r\n${body}`, {
    forceRfc822Attachments: true,
    attachmentEncoding: "utf8",
  });
  const [meta, mail] = outer.attachments;
  let metadata: unknown;
  try {
    metadata = meta && typeof meta.content === "string" && meta.content.trim() ? (JSON.parse(meta.content) as unknown) : undefined;
  } catch {
    metadata = undefined;
  }
  const raw = mail && typeof mail.content === "string" ? mail.content : undefined;
  return new PreparedCall(metadata, raw === undefined ? undefined : await parseMail(raw));
}

/** JSON text as a resumable upload's metadata: none is `undefined`, text that is not JSON unreadable. */
function metadataOf(text: string): unknown {
  if (!text.trim()) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return UNREADABLE_METADATA;
  }
}

/**
 * A resumable upload (upload-range.ts): the opening call's metadata, or, for the chunk that
 * completes the upload, the whole message (the bytes the session kept, read from the world, and
 * this chunk's), parsed here because the handler runs synchronously.
 */
async function fromResumable(req: TwinRequest, world: WorldReader): Promise<PreparedCall | undefined> {
  const uploadId = new URLSearchParams(req.query).get("upload_id");
  if (uploadId === null) return new PreparedCall(metadataOf(req.body), undefined);
  const session = uploadSession(world, uploadId);
  if (!session || !completes(session, readRange(req.headers["content-range"]), byteLength(req.body))) return undefined;
  const whole = session.received + req.body;
  const mail = whole.trim() ? await parseMail(whole) : undefined;
  return new PreparedCall(metadataOf(session.metadata), mail, session.receivedBytes);
}

/** The batch endpoint's path (batch-wire.ts reads its body). */
export const BATCH_PATH = "/batch/gmail/v1";

/** A batch body read ahead of the call, each inner call prepared as it would be on its own. */
export class PreparedBatch {
  constructor(
    readonly read: BatchRead,
    /** By part: what `prepare` read from that call (its message); undefined for a part it did not. */
    readonly prepared: readonly unknown[],
  ) {}
}

async function fromBatch(req: TwinRequest, world: WorldReader): Promise<PreparedBatch> {
  const read = readBatch(req.headers["content-type"], req.body);
  // A batch past Google's cap is refused whole; its calls are not read.
  if (!("parts" in read) || read.parts.length > MAX_BATCH_CALLS) return new PreparedBatch(read, []);
  const prepared: unknown[] = [];
  for (const part of read.parts) {
    if (!isCall(part) || part.path.startsWith(BATCH_PATH)) {
      prepared.push(undefined);
      continue;
    }
    // Each call's message is its own: one that cannot be parsed is that call's 400 alone.
    prepared.push((await prepareGmailCall({ ...req, ...part, prepared: undefined }, world)).prepared);
  }
  return new PreparedBatch(read, prepared);
}

/**
 * Parses the mail a call carries, if any; nothing here writes the world (a resumable upload's
 * earlier chunks are read from it). Mail the parser cannot read is marked `invalid`, so the
 * handler answers Gmail's 400 rather than the call failing.
 */
export async function prepareGmailCall(req: TwinRequest, world: WorldReader): Promise<TwinRequest> {
  try {
    return await prepareCall(req, world);
  } catch (err) {
    console.warn("gmail: the call's message could not be parsed", req.method, req.path, err);
    return { ...req, prepared: new PreparedCall(undefined, "invalid") };
  }
}

async function prepareCall(req: TwinRequest, world: WorldReader): Promise<TwinRequest> {
  if (req.method !== "POST" && req.method !== "PUT") return req;
  if (req.path === BATCH_PATH) return { ...req, prepared: await fromBatch(req, world) };
  const uploadType = new URLSearchParams(req.query).get("uploadType");
  const contentType = req.headers["content-type"] ?? "";
  let prepared: PreparedCall | undefined;
  if (req.path.startsWith("/upload/") && uploadType === "resumable") {
    prepared = await fromResumable(req, world);
  } else if (req.path.startsWith("/upload/") && uploadType === "multipart" && /^multipart\//i.test(contentType)) {
    prepared = await fromMultipart(contentType, req.body);
  } else if (req.path.startsWith("/upload/") && req.body.trim()) {
    prepared = new PreparedCall(undefined, await parseMail(req.body));
  } else if (req.body.includes('"raw"')) {
    prepared = await fromJson(req.body);
  }
  return prepared ? { ...req, prepared } : req;
}
