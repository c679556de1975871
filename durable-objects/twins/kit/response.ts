// Responses every twin writes: JSON with the charset official clients expect, 204s, and the one
// error type a handler throws to answer early. dispatch() catches it, so no twin wraps its routes.
import type { TwinResponse } from "../types";

export const JSON_CONTENT_TYPE = "application/json; charset=utf-8";

export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): TwinResponse {
  return { status, headers: { "content-type": JSON_CONTENT_TYPE, ...headers }, body: body === undefined ? "" : JSON.stringify(body) };
}

export const noContent = (headers: Record<string, string> = {}): TwinResponse => ({ status: 204, headers, body: "" });

/**
 * A vendor's refusal thrown from deep inside a handler. The response is already in the vendor's
 * own shape (built by the twin's errors.ts); the cause, when there is one, is for the log only.
 */
export class TwinError extends Error {
  constructor(
    readonly response: TwinResponse,
    options?: { cause?: unknown },
  ) {
    super(`twin refused the call with ${response.status}`, options);
  }
}

/** Answers the call with `response` from anywhere below a route handler. */
export const refuse = (response: TwinResponse, cause?: unknown): never => {
  throw new TwinError(response, cause === undefined ? undefined : { cause });
};
