// Evidence blobs are stored plain (never gzipped) with an explicit content type, so a download is
// served exactly as stored and no client has to guess between gzip and plain text.

const BY_EXTENSION: [suffix: string, type: string][] = [
  [".jsonl", "application/x-ndjson; charset=utf-8"],
  [".json", "application/json; charset=utf-8"],
  [".md", "text/markdown; charset=utf-8"],
  [".txt", "text/plain; charset=utf-8"],
];

/** The content type an evidence key is stored and served with. */
export function contentTypeForKey(key: string): string {
  return BY_EXTENSION.find(([suffix]) => key.endsWith(suffix))?.[1] ?? "application/octet-stream";
}

/** Decodes a request body that declares `Content-Encoding: gzip`; anything else is kept as sent. */
export async function plainBody(body: ArrayBuffer, contentEncoding: string | undefined): Promise<ArrayBuffer> {
  const encoding = (contentEncoding ?? "").trim().toLowerCase();
  if (encoding !== "gzip" && encoding !== "x-gzip") return body;
  const stream = new Blob([body]).stream().pipeThrough(new DecompressionStream("gzip"));
  return new Response(stream).arrayBuffer();
}
