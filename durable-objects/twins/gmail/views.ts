// Gmail's resources as googleapis reads them: 64-bit values as strings, empty lists left out.
import { toBase64Url, utf8 } from "../kit/bytes";
import { payloadOf, type MimeNode } from "./mime";
import { rawBytes, treeOf, type StoredMessage } from "./store/messages";

export type Format = "full" | "metadata" | "minimal" | "raw";
export const FORMATS: readonly Format[] = ["full", "metadata", "minimal", "raw"];

/** Attachment ids are opaque to clients; this one names the message and the file it holds. */
export const attachmentId = (messageId: string, index: number) => `ANGjdJ${toBase64Url(utf8(`${messageId}:${index}`))}`;

const withLabels = (m: StoredMessage, out: Record<string, unknown>) => {
  if (m.labelIds.length) out.labelIds = m.labelIds;
  return out;
};

export const messageStub = (m: StoredMessage) => ({ id: m.id, threadId: m.threadId });

export const messageRef = (m: StoredMessage) => withLabels(m, { id: m.id, threadId: m.threadId });

function metadataPayload(tree: MimeNode, wanted: readonly string[]) {
  const names = wanted.map((w) => w.toLowerCase());
  const headers = names.length ? tree.headers.filter((h) => names.includes(h.name.toLowerCase())) : tree.headers;
  return { mimeType: tree.mimeType, headers };
}

export function messageView(m: StoredMessage, format: Format, metadataHeaders: readonly string[] = []): Record<string, unknown> {
  const out = withLabels(m, { id: m.id, threadId: m.threadId });
  out.snippet = m.snippet;
  if (format === "full") out.payload = payloadOf(treeOf(m), (i) => attachmentId(m.id, i));
  if (format === "metadata") out.payload = metadataPayload(treeOf(m), metadataHeaders);
  out.sizeEstimate = m.sizeEstimate;
  out.historyId = String(m.historyId);
  out.internalDate = String(m.internalDate);
  if (format === "raw") out.raw = toBase64Url(rawBytes(m));
  return out;
}
