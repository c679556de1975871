// Linear's error bodies, as api.linear.app sends them and @linear/sdk maps them: the SDK picks its
// error class from `errors[0].extensions.type` and shows `userPresentableMessage` when present.
import { jsonResponse } from "../kit/response";
import type { TwinResponse } from "../types";

export interface LinearErrorExtensions {
  type: string;
  code: string;
  statusCode?: number;
  userError?: boolean;
  userPresentableMessage?: string;
  [key: string]: unknown;
}

export interface LinearErrorBody {
  message: string;
  path?: readonly (string | number)[];
  locations?: readonly { line: number; column: number }[];
  extensions: LinearErrorExtensions;
}

/** A refusal raised inside a resolver; the executor places it at the field's path. */
export class LinearFault extends Error {
  constructor(
    message: string,
    readonly extensions: LinearErrorExtensions,
  ) {
    super(message);
  }
}

/** Linear's "Entity not found" refusal for an id that names nothing (HTTP 400, invalid input). */
export const entityNotFound = (entity: string) =>
  new LinearFault(`Entity not found: ${entity}`, {
    type: "invalid input",
    code: "INPUT_ERROR",
    statusCode: 400,
    userError: true,
    userPresentableMessage: `Could not find referenced ${entity}.`,
  });

/** An argument Linear would reject (bad value, out of range, wrong team). */
export const invalidInput = (message: string, userPresentableMessage = message) =>
  new LinearFault(message, { type: "invalid input", code: "INPUT_ERROR", statusCode: 400, userError: true, userPresentableMessage });

export const forbidden = (message: string) =>
  new LinearFault(message, { type: "forbidden", code: "FORBIDDEN", statusCode: 403, userError: true, userPresentableMessage: message });

/** A part of Linear's schema the twin has not built: the call answers 501, taped unsupported. */
export class Unsupported extends Error {
  constructor(readonly what: string) {
    super(`The Linear twin does not implement ${what}`);
  }
}

export const graphqlBody = (
  status: number,
  errors: LinearErrorBody[],
  withData: boolean,
  headers: Record<string, string> = {},
): TwinResponse => jsonResponse(status, withData ? { errors, data: null } : { errors }, headers);

/** The 401 Linear sends for a missing, bad or foreign key: no `data`. */
export const authenticationRequired = (message = "Authentication required, not authenticated"): TwinResponse =>
  graphqlBody(
    401,
    [
      {
        message,
        extensions: {
          type: "authentication error",
          code: "AUTHENTICATION_ERROR",
          statusCode: 401,
          userError: true,
          userPresentableMessage: "You need to authenticate to access this operation.",
        },
      },
    ],
    false,
  );

export const notImplementedBody = (what: string): TwinResponse =>
  graphqlBody(
    501,
    [
      {
        message: `The Linear twin does not implement ${what}`,
        extensions: {
          type: "internal error",
          code: "NOT_IMPLEMENTED",
          statusCode: 501,
          userError: false,
          userPresentableMessage: `This twin does not implement ${what}.`,
        },
      },
    ],
    false,
  );

export const internalError = (message: string): TwinResponse =>
  graphqlBody(
    500,
    [{ message, extensions: { type: "internal error", code: "INTERNAL_SERVER_ERROR", statusCode: 500, userError: false } }],
    false,
  );

export const goneBody = (message: string): TwinResponse =>
  graphqlBody(
    410,
    [
      {
        message,
        extensions: { type: "forbidden", code: "SANDBOX_CLOSED", statusCode: 410, userError: true, userPresentableMessage: message },
      },
    ],
    false,
  );

/**
 * Linear's refusal of a query over its complexity limit, before anything runs: HTTP 400, no
 * `data`, the figure in `userPresentableMessage`. Body as api.linear.app sends it
 * (mvanhorn/printing-press-library#946, contentful-labs/gqli.rb#23):
 * `{"errors":[{"message":"Query too complex","extensions":{"type":"invalid input","code":"INPUT_ERROR",
 * "statusCode":400,"userError":true,"userPresentableMessage":"The query is too complex. Complexity:
 * 12304.999999999998. Maximum allowed complexity: 10000.","http":{"status":400}}}]}`.
 */
export const queryTooComplex = (userPresentableMessage: string): TwinResponse =>
  graphqlBody(
    400,
    [
      {
        message: "Query too complex",
        extensions: {
          type: "invalid input",
          code: "INPUT_ERROR",
          statusCode: 400,
          userError: true,
          userPresentableMessage,
          http: { status: 400 },
        },
      },
    ],
    false,
  );

/**
 * A response the twin will not build or keep because it passes the platform's size bound
 * (kit/response-bounds.ts). Linear has no such refusal (its complexity limit is its only bound);
 * the twin answers in the shape of that one, so @linear/sdk raises its InvalidInputLinearError
 * and nothing retries. A declared divergence (NOTES.md).
 */
export const responseTooLarge = (limitBytes: number): TwinResponse =>
  queryTooComplex(
    `The response is too large: the Linear twin answers at most ${limitBytes} bytes per query. Ask for fewer records (first) or fewer fields.`,
  );

/** The error classes a seeded fault can answer with, in Linear's shapes. */
export const FAULT_KINDS = ["ratelimited", "internal", "forbidden", "authentication"] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export function faultBody(kind: FaultKind, nowMs: number): TwinResponse {
  switch (kind) {
    case "ratelimited":
      return graphqlBody(
        429,
        [
          {
            message: "Rate limit exceeded",
            extensions: {
              type: "ratelimited",
              code: "RATELIMITED",
              statusCode: 429,
              userError: true,
              userPresentableMessage: "Too many requests. Please wait and try again.",
            },
          },
        ],
        false,
        {
          "retry-after": "60",
          "x-ratelimit-requests-limit": "1500",
          "x-ratelimit-requests-remaining": "0",
          "x-ratelimit-requests-reset": String(nowMs + 60_000),
        },
      );
    case "forbidden":
      return graphqlBody(
        403,
        [
          {
            message: "Forbidden",
            extensions: {
              type: "forbidden",
              code: "FORBIDDEN",
              statusCode: 403,
              userError: true,
              userPresentableMessage: "You don't have permission to do this.",
            },
          },
        ],
        false,
      );
    case "authentication":
      return authenticationRequired();
    default:
      return internalError("Internal server error");
  }
}
