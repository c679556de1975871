// Writing a sandbox's evidence straight from its Durable Object to R2, in bounded pieces: the tape
// is read a page at a time and uploaded in multipart parts, so neither an RPC value nor one string
// ever has to hold a whole large tape.
import { evidenceKey } from "./evidence-keys";

/** R2 multipart parts must be at least 5 MiB and, all but the last, of one size. */
const PART_BYTES = 8 * 1024 * 1024;

const encoder = new TextEncoder();

/** Uploads the concatenation of `pieces` under `key`: one put when small, a multipart upload when not. */
export async function putPieces(bucket: R2Bucket, key: string, pieces: Iterable<string>, contentType: string): Promise<void> {
  const httpMetadata = { contentType };
  let pending: Uint8Array<ArrayBuffer> = new Uint8Array(0);
  let upload: R2MultipartUpload | undefined;
  const parts: R2UploadedPart[] = [];
  const send = async (body: Uint8Array) => {
    upload ??= await bucket.createMultipartUpload(key, { httpMetadata });
    parts.push(await upload.uploadPart(parts.length + 1, body));
  };
  try {
    for (const piece of pieces) {
      pending = join(pending, encoder.encode(piece));
      while (pending.length >= PART_BYTES) {
        await send(pending.slice(0, PART_BYTES));
        pending = pending.slice(PART_BYTES);
      }
    }
    if (!upload) {
      await bucket.put(key, pending, { httpMetadata });
      return;
    }
    if (pending.length > 0) await send(pending);
    await upload.complete(parts);
  } catch (err) {
    // A half-written upload is abandoned, never completed: the key holds all of it or nothing new.
    if (upload) await upload.abort().catch(() => undefined);
    throw err;
  }
}

function join(a: Uint8Array<ArrayBuffer>, b: Uint8Array): Uint8Array<ArrayBuffer> {
  if (a.length === 0) return new Uint8Array(b);
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

export interface EvidenceSource {
  teamId: string;
  sessionId: string;
  /** The tape as JSONL lines, each ending in a newline, read lazily page by page. */
  tapeLines(): Iterable<string>;
  states: { name: string; json: () => string }[];
}

/** Writes events.jsonl and every state blob of a sandbox; returns the keys written. */
export async function writeEvidence(bucket: R2Bucket, source: EvidenceSource): Promise<string[]> {
  const keys: string[] = [];
  const key = (name: string) => evidenceKey(source.teamId, source.sessionId, name);
  await putPieces(bucket, key("events.jsonl"), source.tapeLines(), "application/x-ndjson; charset=utf-8");
  keys.push(key("events.jsonl"));
  for (const state of source.states) {
    await putPieces(bucket, key(state.name), [state.json()], "application/json; charset=utf-8");
    keys.push(key(state.name));
  }
  return keys;
}
