// Stripe's error object on the wire, with the status the real API uses for each kind, so
// stripe-node raises the same error class it would against Stripe. Every refusal carries
// `Stripe-Should-Retry: false`: none of them gets better by being sent again.
import { jsonResponse, refuse } from "../kit/response";
import type { TwinResponse } from "../types";

/**
 * The error types Stripe sends today (spec3.json's `api_errors.type` enum). stripe-node picks its
 * error class by the HTTP status (esm/Error.js `generateV1Error`: 401 authentication, 403
 * permission, 429 rate limit), so those errors come as `invalid_request_error`.
 */
export const STRIPE_ERROR_TYPES = ["invalid_request_error", "card_error", "idempotency_error", "api_error"] as const;
export type StripeErrorType = (typeof STRIPE_ERROR_TYPES)[number];

/**
 * Types Stripe no longer sends, which a seeded fault may still name by habit, with the status
 * that now carries each: refused at seed time, naming both.
 */
export const RETIRED_ERROR_TYPES: Readonly<Record<string, number>> = {
  authentication_error: 401,
  permission_error: 403,
  rate_limit_error: 429,
};

export interface StripeErrorFields {
  code?: string;
  param?: string;
  decline_code?: string;
  /** Objects Stripe attaches to card errors (`payment_intent`, `charge`, `payment_method`). */
  extra?: Record<string, unknown>;
}

const docUrl = (code: string) => `https://stripe.com/docs/error-codes/${code.replace(/_/g, "-")}`;

/** The lengths spec3.json gives an error's `param` and `message`: a hostile parameter name is cut to fit. */
const PARAM_MAX = 5000;
const MESSAGE_MAX = 40000;

export function stripeError(status: number, type: StripeErrorType, message: string, f: StripeErrorFields = {}): TwinResponse {
  const error: Record<string, unknown> = { type, message: message.slice(0, MESSAGE_MAX) };
  if (f.code) {
    error.code = f.code;
    error.doc_url = docUrl(f.code);
  }
  if (f.decline_code) error.decline_code = f.decline_code;
  if (f.param) error.param = f.param.slice(0, PARAM_MAX);
  Object.assign(error, f.extra);
  return jsonResponse(status, { error }, { "stripe-should-retry": "false" });
}

export const invalidRequest = (message: string, f: StripeErrorFields = {}) => stripeError(400, "invalid_request_error", message, f);

/** Refuses the call from anywhere below a handler. */
export const fail = (res: TwinResponse): never => refuse(res);

/** Stripe's names for object types in messages ("No such customer", "No such payment_intent"). */
export function noSuch(noun: string, id: string, param = "id"): TwinResponse {
  return stripeError(404, "invalid_request_error", `No such ${noun}: '${id}'`, { code: "resource_missing", param });
}

export const missingParam = (param: string) => invalidRequest(`Missing required param: ${param}.`, { code: "parameter_missing", param });

export const unknownParam = (param: string) => invalidRequest(`Received unknown parameter: ${param}`, { code: "parameter_unknown", param });

export const invalidInteger = (param: string, value: string) =>
  invalidRequest(`Invalid integer: ${value}`, { code: "parameter_invalid_integer", param });

export const invalidParam = (param: string, message: string) => invalidRequest(message, { code: "parameter_invalid_empty", param });

export const invalidValue = (param: string, value: string, allowed: readonly string[]) =>
  invalidRequest(`Invalid ${param}: must be one of ${allowed.join(", ")}`, { param });

export const stateError = (message: string, code = "invalid_state", param?: string) => invalidRequest(message, { code, param });
