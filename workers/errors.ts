// The control plane's one error type and its one renderer. Every /v1 error leaves as
// {"error":{"type","message","details","request_id"}}; internal causes are logged, never sent.
import type { Context } from "hono";
import type { AppEnv } from "./app-env";
import { newId } from "./ids";

/**
 * The request's id, made the first time something asks (a /v1 answer, an error): twin calls and
 * the bench floor never show one, and minting it cost each of them a random draw.
 */
export function requestIdOf(c: Context<AppEnv>): string {
  let id = c.get("requestId");
  if (!id) {
    id = newId("req", 12);
    c.set("requestId", id);
  }
  return id;
}

export type ErrorType =
  | "bad_request"
  | "unauthorized"
  | "forbidden"
  | "quota_exceeded"
  | "not_found"
  | "conflict"
  | "session_expired"
  | "payload_too_large"
  | "validation_failed"
  | "internal_error"
  | "downstream_unavailable";

const STATUS: Record<ErrorType, number> = {
  bad_request: 400,
  unauthorized: 401,
  quota_exceeded: 402,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  session_expired: 410,
  payload_too_large: 413,
  validation_failed: 422,
  internal_error: 500,
  downstream_unavailable: 503,
};

export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly type: ErrorType,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.status = STATUS[type];
  }
}

export const notFound = (what = "Resource") => new ApiError("not_found", `${what} not found`);

export function errorBody(err: ApiError, requestId: string) {
  return { error: { type: err.type, message: err.message, details: err.details, request_id: requestId } };
}

export function errorResponse(err: ApiError, requestId: string): Response {
  return new Response(JSON.stringify(errorBody(err, requestId)), {
    status: err.status,
    headers: { "content-type": "application/json; charset=utf-8", "x-request-id": requestId },
  });
}
