// Reading the mail people send. postal-mime parses MIME asynchronously and a twin's handler runs
// inside one synchronous transaction, so the twin's `prepare` hook parses the message of a call
// before it is served (JSON `raw`, `message.raw`, or the upload forms' bodies) and the handler
// reads the result from `req.prepared`.
import PostalMime, { decodeWords } from "postal-mime";
import { binaryString, decodeBase64, fromBase64, fromUtf8, toBase64, utf8 } from "../kit/bytes";
import { isBody } from "../kit/input";
import type { TwinRequest, WorldReader } from "../types";
import { type BatchRead, isCall, MAX_BATCH_CALLS, readBatch } from "./batch-wire";
import { uploadSession } from "./store/uploads";
import { completes, readRange } from "./upload-range";
import { isMimeHeader, type AttachmentContent, type Header, type MailContent } from "./mime";

/** A message parsed ahead of its call. */
export class ParsedMail {
  constructor(
    /** The RFC 822 message's bytes as sent, one char per byte (a binary string; kit/bytes `fromBinaryString` gives them back). */
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

/**
 * A request body's bytes. The upload URIs are declared binary (index.ts `binaryBody`), so the
 * platform hands their bodies over base64-encoded and sizes are counted on the bytes sent, not on
 * text decoded from them; any other body is UTF-8 text.
 */
export const bodyBytes = (req: Pick<TwinRequest, "body" | "bodyEncoding">): Uint8Array =>
  req.bodyEncoding === "base64" ? fromBase64(req.body) : utf8(req.body);

/** A request body as text (an upload's JSON metadata, say): its bytes read as UTF-8. */
export const bodyText = (req: Pick<TwinRequest, "body" | "bodyEncoding">): string =>
  req.bodyEncoding === "base64" ? fromUtf8(fromBase64(req.body)) : req.body;

/** Whether a body holds more than white space (an empty upload carries no message). */
const hasContent = (bytes: Uint8Array): boolean => bytes.some((b) => b > 0x20);

export async function parseMail(bytes: Uint8Array): Promise<ParsedMail | "invalid"> {
  const raw = binaryString(bytes);
  if (!/^[\x21-\x39\x3b-\x7e]+:/m.test(raw.split(/\r?\n\r?\n/)[0] ?? "")) return "invalid";
  // postal-mime reads the bytes, so a part's charset (UTF-8, ISO-8859-1 in 8bit…) decodes as written.
  const email = await PostalMime.parse(bytes, { attachmentEncoding: "arraybuffer" });
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
  return bytes ? parseMail(bytes) : "invalid";
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

/** One part of a multipart body: its headers (lower-case names) and its content, one char per byte. */
interface BodyPart {
  headers: Record<string, string>;
  content: string;
}

/**
 * The parts of a multipart body, split on its boundary by hand rather than by a MIME parser: the
 * message part must keep its bytes as sent (a parser gives its lines back ending in `\n`).
 */
function splitMultipart(contentType: string, body: string): BodyPart[] {
  const m = /;\s*boundary\s*=\s*(?:"([^"]{1,200})"|([^\s;]{1,200}))/i.exec(contentType);
  const boundary = m?.[1] ?? m?.[2];
  if (!boundary) return [];
  const sections = body.split(`--${boundary}`);
  const parts: BodyPart[] = [];
  // sections[0] is the preamble; a section opening `--` is the close delimiter's epilogue.
  for (const section of sections.slice(1)) {
    if (section.startsWith("--")) break;
    // The line break after the delimiter opens the part; the one before the next belongs to that delimiter.
    const text = section.replace(/^[ \t]*\r?\n/, "").replace(/\r?\n$/, "");
    const end = /\r?\n\r?\n/.exec(text);
    const head = end ? text.slice(0, end.index) : text;
    const headers: Record<string, string> = {};
    for (const line of head.replace(/\r?\n[ \t]+/g, " ").split(/\r?\n/)) {
      const at = line.indexOf(":");
      if (at > 0) headers[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim();
    }
    parts.push({ headers, content: end ? text.slice(end.index + end[0].length) : "" });
  }
  return parts;
}

/** A part's bytes, its transfer encoding undone (a client may send the message base64). */
function partBytes(part: BodyPart): Uint8Array {
  const encoding = (part.headers["content-transfer-encoding"] ?? "").toLowerCase();
  if (encoding === "base64") return decodeBase64(part.content) ?? new Uint8Array();
  return Uint8Array.from(part.content, (c) => c.charCodeAt(0));
}

/** The two parts of a multipart/related upload: its JSON metadata and its message/rfc822 part. */
async function fromMultipart(contentType: string, body: Uint8Array): Promise<PreparedCall> {
  const [meta, mail] = splitMultipart(contentType, binaryString(body));
  let metadata: unknown;
  try {
    const text = meta ? fromUtf8(partBytes(meta)) : "";
    metadata = text.trim() ? (JSON.parse(text) as unknown) : undefined;
  } catch {
    metadata = undefined;
  }
  return new PreparedCall(metadata, mail ? await parseMail(partBytes(mail)) : undefined);
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
  if (uploadId === null) return new PreparedCall(metadataOf(bodyText(req)), undefined);
  const session = uploadSession(world, uploadId);
  const chunk = bodyBytes(req);
  if (!session || !completes(session, readRange(req.headers["content-range"]), chunk.length)) return undefined;
  const kept = session.received;
  const whole = new Uint8Array(kept.length + chunk.length);
  whole.set(kept);
  whole.set(chunk, kept.length);
  const mail = hasContent(whole) ? await parseMail(whole) : undefined;
  return new PreparedCall(metadataOf(session.metadata), mail, session.receivedBytes);
}

/** The batch endpoint's path (batch-wire.ts reads its body). */
export const BATCH_PATH = "/batch/gmail/v1";
/**
 * The same endpoint as Google's Python client reaches it: `new_batch_http_request()` posts to the
 * discovery document's rootUrl + batchPath, and Gmail's document says `"batchPath": "batch"`
 * (googleapiclient/discovery.py; test/fixtures/service-specs/gmail/gmail.v1.json).
 */
export const ROOT_BATCH_PATH = "/batch";
export const isBatchPath = (path: string) => path === BATCH_PATH || path === ROOT_BATCH_PATH;

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
    if (!isCall(part) || part.path.startsWith(ROOT_BATCH_PATH)) {
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
  if (isBatchPath(req.path)) return { ...req, prepared: await fromBatch(req, world) };
  const uploadType = new URLSearchParams(req.query).get("uploadType");
  const contentType = req.headers["content-type"] ?? "";
  let prepared: PreparedCall | undefined;
  if (req.path.startsWith("/upload/") && uploadType === "resumable") {
    prepared = await fromResumable(req, world);
  } else if (req.path.startsWith("/upload/") && uploadType === "multipart" && /^multipart\//i.test(contentType)) {
    prepared = await fromMultipart(contentType, bodyBytes(req));
  } else if (req.path.startsWith("/upload/")) {
    const bytes = bodyBytes(req);
    if (hasContent(bytes)) prepared = new PreparedCall(undefined, await parseMail(bytes));
  } else if (req.body.includes('"raw"')) {
    prepared = await fromJson(req.body);
  }
  return prepared ? { ...req, prepared } : req;
}
