// Reading and validating request bodies: 400 for what is not JSON, 413 over the limit, 422 for
// what misses the schema, each naming the failing field.
//
// A body over a limit is still read (and thrown away) before the refusal is sent, up to a bound:
// a server that answers and closes while the client is still sending makes Node's `fetch`
// (undici, under every official Node client) fail with EPIPE about half the time instead of
// reporting the 413. Past the bound the connection is closed unread, as it always was.
import type { Context } from "hono";
import type { z } from "zod";
import { formatPath } from "../durable-objects/twins/kit/seed";
import { ApiError } from "./errors";

export const MiB = 1024 * 1024;

/** How much of a refused body is read before answering: this many times the limit it broke. */
const DISCARD_FACTOR = 4;
/**
 * What is read of a body nothing read (a refusal before the route got to it, a 404): twice the
 * largest body any route takes (the 32 MiB evidence upload).
 */
export const UNREAD_DISCARD_BYTES = 64 * MiB;

const declaredLength = (req: Request): number | undefined => {
  const header = req.headers.get("content-length");
  if (header === null || header.trim() === "") return undefined;
  const n = Number(header);
  return Number.isFinite(n) && n >= 0 ? n : undefined;
};

/**
 * Reads and drops what is left of a body, up to `maxBytes`; a body declared larger than that is
 * not read at all, and one that turns out larger is cancelled there (the connection then closes).
 */
export async function discardBody(req: Request, maxBytes: number): Promise<void> {
  const body = req.body;
  if (!body || req.bodyUsed || body.locked) return;
  if ((declaredLength(req) ?? 0) > maxBytes) return;
  await drain(body.getReader(), maxBytes);
}

async function drain(reader: ReadableStreamDefaultReader<Uint8Array>, maxBytes: number, alreadyRead = 0): Promise<void> {
  let read = alreadyRead;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      read += value.byteLength;
      if (read > maxBytes) {
        await reader.cancel();
        return;
      }
    }
  } catch {
    // The client went away mid-body: there is no one left to answer.
  }
}

/** Whether a request's body fits, memoized per request: a second reader sees the same answer. */
const withinLimit = new WeakMap<Request, Promise<boolean>>();

/**
 * Whether the body fits in `limitBytes`. A body that fits stays readable through Hono
 * (`c.req.text()`, `arrayBuffer()`…); one that does not is read and dropped up to
 * DISCARD_FACTOR × the limit, so the refusal the caller sends next reaches the client. A body
 * without a Content-Length (chunked) is read here with the cap, never buffered whole.
 */
export function bodyWithin(c: Context, limitBytes: number): Promise<boolean> {
  const req = c.req.raw;
  let known = withinLimit.get(req);
  if (!known) {
    known = checkBody(c, limitBytes);
    withinLimit.set(req, known);
  }
  return known;
}

async function checkBody(c: Context, limitBytes: number): Promise<boolean> {
  const req = c.req.raw;
  // Already read by Hono (its cache holds it) or nothing to read: the reader checks what it got.
  if (!req.body || Object.keys(c.req.bodyCache).length > 0) return true;
  const declared = declaredLength(req);
  if (declared !== undefined) {
    if (declared <= limitBytes) return true;
    await discardBody(req, limitBytes * DISCARD_FACTOR);
    return false;
  }
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limitBytes) {
      await drain(reader, limitBytes * DISCARD_FACTOR, size);
      return false;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  // Hono answers text(), json(), arrayBuffer() from its cache, converting from this one entry.
  // (Its cache holds promises at run time, which its `BodyCache` type does not say.)
  Object.assign(c.req.bodyCache, { arrayBuffer: Promise.resolve(bytes.buffer) });
  return true;
}

export async function readJson(c: Context, limitBytes: number): Promise<unknown> {
  if (!(await bodyWithin(c, limitBytes))) throw tooLarge(limitBytes);
  const text = await c.req.text();
  if (new TextEncoder().encode(text).length > limitBytes) throw tooLarge(limitBytes);
  if (!text.trim()) throw new ApiError("bad_request", "The request body is empty; send a JSON object");
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError("bad_request", "The request body is not valid JSON");
  }
}

const tooLarge = (limit: number) =>
  new ApiError("payload_too_large", `The request body is larger than ${limit >= MiB ? `${limit / MiB} MiB` : `${limit / 1024} KiB`}`, {
    limit_bytes: limit,
  });

export function parseWith<T extends z.ZodType>(schema: T, value: unknown): z.infer<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issues = result.error.issues.map((i) => {
    const path = formatPath(i.code === "unrecognized_keys" ? [...i.path, i.keys[0]] : i.path);
    return { path, message: i.code === "unrecognized_keys" ? `Unrecognized key: "${i.keys[0]}"` : i.message };
  });
  const first = issues[0];
  throw new ApiError("validation_failed", first.path ? `${first.path}: ${first.message}` : first.message, { issues });
}
