// Writing a sandbox's evidence straight from its Durable Object to R2, in bounded pieces: the tape
// is read a page at a time and uploaded in multipart parts, so neither an RPC value nor one string
// ever has to hold a whole large tape.
import { evidenceKey } from "./evidence-keys";

/** R2 multipart parts must be at least 5 MiB and, all but the last, of one size. */
const PART_BYTES = 8 * 1024 * 1024;
/**
 * Up to this size a blob is one plain put (one object is cheaper to read back than its parts);
 * past it, a multipart upload, so memory holds one part at a time whatever the tape's length.
 */
const SINGLE_PUT_BYTES = 32 * 1024 * 1024;

const encoder = new TextEncoder();

/** Uploads the concatenation of `pieces` under `key`: one put when small, a multipart upload when not. */
export async function putPieces(bucket: R2Bucket, key: string, pieces: Iterable<string>, contentType: string): Promise<void> {
  const httpMetadata = { contentType };
  // Encoded pieces waiting to be sent, copied once into the body or part they end up in.
  const chunks: Uint8Array[] = [];
  let size = 0;
  const take = (n: number): Uint8Array<ArrayBuffer> => {
    const out = new Uint8Array(n);
    let at = 0;
    while (at < n) {
      const chunk = chunks[0];
      const used = Math.min(chunk.length, n - at);
      out.set(chunk.subarray(0, used), at);
      at += used;
      if (used === chunk.length) chunks.shift();
      else chunks[0] = chunk.subarray(used);
    }
    size -= n;
    return out;
  };
  let upload: R2MultipartUpload | undefined;
  const parts: R2UploadedPart[] = [];
  const send = async (body: Uint8Array) => {
    upload ??= await bucket.createMultipartUpload(key, { httpMetadata });
    parts.push(await upload.uploadPart(parts.length + 1, body));
  };
  try {
    for (const piece of pieces) {
      const bytes = encoder.encode(piece);
      chunks.push(bytes);
      size += bytes.length;
      if (!upload && size < SINGLE_PUT_BYTES) continue;
      while (size >= PART_BYTES) await send(take(PART_BYTES));
    }
    if (!upload) {
      await bucket.put(key, take(size), { httpMetadata });
      return;
    }
    if (size > 0) await send(take(size));
    await upload.complete(parts);
  } catch (err) {
    // A half-written upload is abandoned, never completed: the key holds all of it or nothing new.
    if (upload) await upload.abort().catch(() => undefined);
    throw err;
  }
}

export interface EvidenceSource {
  teamId: string;
  sessionId: string;
  /** The tape as JSONL lines, each ending in a newline, read lazily page by page. */
  tapeLines(): Iterable<string>;
  /** Each state blob as JSON text in pieces (a large world's text is never encoded in one go). */
  states: { name: string; pieces: () => Iterable<string> }[];
}

/** Writes events.jsonl and every state blob of a sandbox; returns the keys written. */
export async function writeEvidence(bucket: R2Bucket, source: EvidenceSource): Promise<string[]> {
  const keys: string[] = [];
  const key = (name: string) => evidenceKey(source.teamId, source.sessionId, name);
  await putPieces(bucket, key("events.jsonl"), source.tapeLines(), "application/x-ndjson; charset=utf-8");
  keys.push(key("events.jsonl"));
  for (const state of source.states) {
    await putPieces(bucket, key(state.name), state.pieces(), "application/json; charset=utf-8");
    keys.push(key(state.name));
  }
  return keys;
}
