// Reading the mail people send. postal-mime parses MIME asynchronously and a twin's handler runs
// inside one synchronous transaction, so the twin's `prepare` hook parses the message of a call
// before it is served (JSON `raw`, `message.raw`, or the upload forms' bodies) and the handler
// reads the result from `req.prepared`.
import PostalMime, { decodeWords } from "postal-mime";
import { decodeBase64, toBase64, fromUtf8, utf8 } from "../kit/bytes";
import { isBody } from "../kit/input";
import type { TwinRequest } from "../types";
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
    readonly metadata: unknown,
    /** The parsed message; `invalid` when `raw` was there but is not base64 or not mail. */
    readonly mail: ParsedMail | "invalid" | undefined,
  ) {}
}

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

/**
 * Parses the mail a call carries, if any; nothing here reads or writes the world. Mail the parser
 * cannot read is marked `invalid`, so the handler answers Gmail's 400 rather than the call failing.
 */
export async function prepareGmailCall(req: TwinRequest): Promise<TwinRequest> {
  try {
    return await prepareCall(req);
  } catch (err) {
    console.warn("gmail: the call's message could not be parsed", req.method, req.path, err);
    return { ...req, prepared: new PreparedCall(undefined, "invalid") };
  }
}

async function prepareCall(req: TwinRequest): Promise<TwinRequest> {
  if (req.method !== "POST" && req.method !== "PUT") return req;
  const uploadType = new URLSearchParams(req.query).get("uploadType");
  const contentType = req.headers["content-type"] ?? "";
  let prepared: PreparedCall | undefined;
  if (req.path.startsWith("/upload/") && uploadType === "multipart" && /^multipart\//i.test(contentType)) {
    prepared = await fromMultipart(contentType, req.body);
  } else if (req.path.startsWith("/upload/") && req.body.trim()) {
    prepared = new PreparedCall(undefined, await parseMail(req.body));
  } else if (req.body.includes('"raw"')) {
    prepared = await fromJson(req.body);
  }
  return prepared ? { ...req, prepared } : req;
}
