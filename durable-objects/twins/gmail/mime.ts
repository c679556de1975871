// A message's MIME, composed from its structured form: text → text/plain; text + html →
// multipart/alternative; attachments → multipart/mixed (body first, then one part per file).
// One tree serves both the RFC 822 text (format=raw) and Gmail's `payload` (format=full), so
// the two always agree. Leaf parts are written by mimetext; raw mail people send is parsed by
// postal-mime (see parse.ts) into the same structured form.
import { MIMEMessageContent, type MIMEMessage } from "mimetext";
import { decodeBase64, toBase64, toBase64Url, utf8 } from "../kit/bytes";

export interface Header {
  name: string;
  value: string;
}

export interface AttachmentContent {
  filename: string;
  mimeType: string;
  /** Standard base64 of the bytes. */
  data: string;
}

/** What a message says: its headers as given (no MIME headers), its bodies and its files. */
export interface MailContent {
  headers: Header[];
  text?: string;
  html?: string;
  attachments: AttachmentContent[];
}

/** One node of the MIME tree, in Gmail's own terms. */
export interface MimeNode {
  mimeType: string;
  filename: string;
  headers: Header[];
  /** Decoded bytes of a leaf. */
  data?: Uint8Array;
  /** Index of the attachment this leaf holds. */
  attachment?: number;
  parts?: MimeNode[];
}

const MIME_HEADERS = new Set(["mime-version", "content-type", "content-transfer-encoding"]);
export const isMimeHeader = (name: string) => MIME_HEADERS.has(name.toLowerCase());

const EOL = "\r\n";

// mimetext's content parts only read these of their environment; the line ending is RFC 822's.
const envctx: MIMEMessage["envctx"] = {
  toBase64: (v) => toBase64(utf8(v)),
  toBase64WebSafe: (v) => toBase64Url(utf8(v)),
  eol: EOL,
  validateContentType: (v) => v,
};

const wrap76 = (text: string) => text.replace(/(.{76})/g, `$1${EOL}`).replace(/\r\n$/, "");

/**
 * How a mail server writes a text body: as it is (7bit, which needs no header, RFC 2045 §6.1)
 * when it is ASCII in lines of at most 998 octets (RFC 5322 §2.1.1), quoted-printable otherwise.
 * Gmail's own mail reads so: `Content-Type: text/plain; charset="UTF-8"` alone for ASCII text,
 * `Content-Transfer-Encoding: quoted-printable` beside it for other text; never base64.
 */
export type TextEncoding = "7bit" | "quoted-printable";

export function textEncodingOf(text: string): TextEncoding {
  // Control characters other than tab and line ends, and bare CRs, need encoding too.
  if (/[^\t\n\r\x20-\x7e]|\r(?!\n)/.test(text)) return "quoted-printable";
  return text.split(/\r?\n/).some((line) => line.length > 998) ? "quoted-printable" : "7bit";
}

const HEX = "0123456789ABCDEF";
const escapeByte = (b: number) => `=${HEX.charAt(b >> 4)}${HEX.charAt(b & 15)}`;

/**
 * Quoted-printable (RFC 2045 §6.7) of UTF-8 text: line ends become CRLF; `=`, non-ASCII bytes and
 * a space or tab that ends a line are escaped; lines are cut with soft breaks (`=`) at 76 characters.
 */
export function quotedPrintable(text: string): string {
  return text
    .split(/\r?\n/)
    .map((line) => {
      const bytes = utf8(line);
      const out: string[] = [];
      let current = "";
      bytes.forEach((b, i) => {
        const last = i === bytes.length - 1;
        const literal = (b >= 33 && b <= 126 && b !== 61) || ((b === 32 || b === 9) && !last);
        const piece = literal ? String.fromCharCode(b) : escapeByte(b);
        if (current.length + piece.length > 75) {
          out.push(`${current}=`);
          current = "";
        }
        current += piece;
      });
      out.push(current);
      return out.join(EOL);
    })
    .join(EOL);
}

function textLeaf(mimeType: "text/plain" | "text/html", text: string): MimeNode {
  const headers: Header[] = [{ name: "Content-Type", value: `${mimeType}; charset="UTF-8"` }];
  if (textEncodingOf(text) === "quoted-printable") headers.push({ name: "Content-Transfer-Encoding", value: "quoted-printable" });
  return { mimeType, filename: "", headers, data: utf8(text) };
}

/** A leaf's body as its Content-Transfer-Encoding writes it. */
function encodedBody(node: MimeNode): string {
  const data = node.data ?? new Uint8Array();
  const encoding = headerValue(node.headers, "Content-Transfer-Encoding")?.toLowerCase();
  if (encoding === "base64") return wrap76(toBase64(data));
  const text = new TextDecoder().decode(data);
  // 7bit text goes as it is, with RFC 822's line ends.
  return encoding === "quoted-printable" ? quotedPrintable(text) : text.replace(/\r?\n/g, EOL);
}

function fileLeaf(a: AttachmentContent, index: number): MimeNode {
  return {
    mimeType: a.mimeType,
    filename: a.filename,
    headers: [
      { name: "Content-Type", value: `${a.mimeType}; name="${a.filename}"` },
      { name: "Content-Disposition", value: `attachment; filename="${a.filename}"` },
      { name: "Content-Transfer-Encoding", value: "base64" },
    ],
    data: decodeBase64(a.data) ?? new Uint8Array(),
    attachment: index,
  };
}

function multipart(subtype: string, boundary: string, parts: MimeNode[]): MimeNode {
  return {
    mimeType: `multipart/${subtype}`,
    filename: "",
    headers: [{ name: "Content-Type", value: `multipart/${subtype}; boundary="${boundary}"` }],
    parts,
  };
}

/**
 * The tree of a structured message. Boundaries derive from `seed` (the message id), so the same
 * message always serializes to the same bytes.
 */
export function mimeTree(content: MailContent, seed: string): MimeNode {
  const bodies: MimeNode[] = [];
  if (content.text !== undefined || content.html === undefined) bodies.push(textLeaf("text/plain", content.text ?? ""));
  if (content.html !== undefined) bodies.push(textLeaf("text/html", content.html));
  const body = bodies.length > 1 ? multipart("alternative", `000000000000${seed}a`, bodies) : bodies[0];
  const root = content.attachments.length ? multipart("mixed", `000000000000${seed}m`, [body, ...content.attachments.map(fileLeaf)]) : body;
  // The message's own headers come first, then the MIME headers of its root part.
  return { ...root, headers: [...content.headers, { name: "MIME-Version", value: "1.0" }, ...root.headers] };
}

/** A header value as RFC 2047 wants it on the wire: non-ASCII text as an encoded word. */
const encodeHeader = (value: string) => (/^[\x20-\x7e\t]*$/.test(value) ? value : `=?UTF-8?B?${toBase64(utf8(value))}?=`);

function serializeNode(node: MimeNode): string {
  if (node.parts) {
    const boundary = /boundary="([^"]+)"/.exec(node.headers.find((h) => h.name === "Content-Type")?.value ?? "")?.[1] ?? "boundary";
    const head = node.headers.map((h) => `${h.name}: ${encodeHeader(h.value)}`).join(EOL);
    const parts = node.parts.map((p) => `--${boundary}${EOL}${serializeNode(p)}${EOL}`).join("");
    return `${head}${EOL}${EOL}${parts}--${boundary}--`;
  }
  const headers: Record<string, string> = {};
  const extra: Header[] = [];
  for (const h of node.headers) {
    if (/^content-/i.test(h.name)) headers[h.name] = h.value;
    else extra.push(h);
  }
  // mimetext writes the part; the message headers of a single-part mail go above it.
  const leaf = new MIMEMessageContent(envctx, encodedBody(node), headers).dump();
  return extra.length ? `${extra.map((h) => `${h.name}: ${encodeHeader(h.value)}`).join(EOL)}${EOL}${leaf}` : leaf;
}

/** The RFC 822 text of a tree. */
export const serialize = (root: MimeNode): string => `${serializeNode(root)}${EOL}`;

export const headerValue = (headers: readonly Header[], name: string): string | undefined =>
  headers.find((h) => h.name.toLowerCase() === name.toLowerCase())?.value;

/** RFC 2822 date, the form Gmail writes in `Date` headers. */
export function rfc2822(ms: number): string {
  const d = new Date(ms);
  const day = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"][d.getUTCDay()];
  const month = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"][d.getUTCMonth()];
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${day}, ${d.getUTCDate()} ${month} ${d.getUTCFullYear()} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} +0000`;
}

const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Gmail's snippet: the body's text, whitespace folded, cut near 200 characters, HTML-escaped. */
export function snippetOf(content: MailContent): string {
  const source =
    content.text ?? (content.html ?? "").replace(/<style[\s\S]*?<\/style>|<script[\s\S]*?<\/script>/gi, " ").replace(/<[^>]*>/g, " ");
  const folded = source.replace(/\s+/g, " ").trim();
  const cut = folded.length > 200 ? folded.slice(0, 200).replace(/\s+\S*$/, "") : folded;
  return cut.replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);
}

/** Gmail's `payload` of a tree: part ids `""`, `0`, `0.1`…, attachments by id, bodies base64url. */
export function payloadOf(root: MimeNode, attachmentId: (index: number) => string): unknown {
  const render = (node: MimeNode, partId: string): Record<string, unknown> => {
    const out: Record<string, unknown> = { partId, mimeType: node.mimeType, filename: node.filename, headers: node.headers };
    if (node.parts) {
      out.body = { size: 0 };
      out.parts = node.parts.map((p, i) => render(p, partId === "" ? String(i) : `${partId}.${i}`));
    } else if (node.attachment !== undefined) {
      out.body = { attachmentId: attachmentId(node.attachment), size: node.data?.length ?? 0 };
    } else {
      const data = node.data ?? new Uint8Array();
      out.body = data.length ? { size: data.length, data: toBase64Url(data) } : { size: 0 };
    }
    return out;
  };
  return render(root, "");
}
