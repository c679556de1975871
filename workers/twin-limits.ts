// What a twin refuses before it reads a call: bodies over a stated size. A twin keeps what it
// accepts, on its tape and in its world, so it refuses what it could not keep, in its vendor's
// own "too large" shape, and nothing is written.
import type { TwinDefinition, TwinResponse } from "../durable-objects/twins/types";

/** The largest request body any twin takes (docs/reliability.md states it). */
export const TWIN_BODY_LIMIT_BYTES = 1024 * 1024;

const byteLength = (text: string) => new TextEncoder().encode(text).length;

/** The twin's refusal of an oversized body; a twin without its own shape answers a plain 413. */
export function tooLarge(twin: TwinDefinition): TwinResponse {
  if (twin.errors.tooLarge) return twin.errors.tooLarge(TWIN_BODY_LIMIT_BYTES);
  return {
    status: 413,
    headers: { "content-type": "application/json; charset=utf-8" },
    body: JSON.stringify({ message: `Request body too large: the limit is ${TWIN_BODY_LIMIT_BYTES} bytes` }),
  };
}

/** Whether a read body is over the limit (workers/body.ts `bodyWithin` checks it before reading). */
export const bodyTooLarge = (body: string) =>
  body.length > TWIN_BODY_LIMIT_BYTES || (body.length * 3 > TWIN_BODY_LIMIT_BYTES && byteLength(body) > TWIN_BODY_LIMIT_BYTES);
