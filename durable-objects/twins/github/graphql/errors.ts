// GitHub's GraphQL error shape: HTTP 200 with `{ data, errors }`, each error carrying GitHub's
// `type` (NOT_FOUND, FORBIDDEN, UNPROCESSABLE…), the field `path`, its `locations` and the message.
// Seen in GitHub's answers, e.g. {"type":"NOT_FOUND","path":["repository"],"locations":[{"line":1,
// "column":3}],"message":"Could not resolve to a Repository with the name 'x/y'."}.
import type { GraphQLError } from "graphql";
import { TwinError, jsonResponse } from "../../kit/response";
import type { TwinResponse } from "../../types";

/** A refusal raised by a resolver; the field resolves to null and the error is listed. */
export class GithubGraphqlError extends Error {
  constructor(
    /** GitHub's error type; undefined where GitHub's answer names none. */
    readonly type: string | undefined,
    message: string,
  ) {
    super(message);
  }
}

export const notFound = (message: string) => new GithubGraphqlError("NOT_FOUND", message);
export const unprocessable = (message: string) => new GithubGraphqlError("UNPROCESSABLE", message);
export const forbidden = (message: string) => new GithubGraphqlError("FORBIDDEN", message);

export interface GithubErrorBody {
  type?: string;
  path?: readonly (string | number)[];
  locations?: readonly { line: number; column: number }[];
  message: string;
  extensions?: Record<string, unknown>;
}

/** GitHub answers a GraphQL document it could not run (parse, validation, limits) with 200 and no data. */
export const errorsOnly = (errors: GithubErrorBody[]): TwinResponse => jsonResponse(200, { errors });

/** An error raised while executing, in GitHub's shape (the message of anything unexpected is not sent). */
export function executionError(e: GraphQLError): GithubErrorBody {
  const orig = e.originalError;
  const located = { path: e.path, locations: e.locations };
  if (orig instanceof GithubGraphqlError) return { ...(orig.type ? { type: orig.type } : {}), ...located, message: orig.message };
  // A refusal of the store functions the REST routes share (a 422 naming the field, a 404).
  if (orig instanceof TwinError) return { type: typeOfStatus(orig.response.status), ...located, message: restMessage(orig.response) };
  if (orig && orig.constructor.name !== "GraphQLError") {
    console.warn("github graphql resolver failed", e.path, orig);
    return {
      ...located,
      message: "Something went wrong while executing your query. Please include the request id when reporting this issue.",
    };
  }
  return { ...located, message: e.message };
}

function typeOfStatus(status: number): string {
  if (status === 404) return "NOT_FOUND";
  if (status === 403) return "FORBIDDEN";
  return "UNPROCESSABLE";
}

/** The words of a REST refusal: its field errors' messages, else its message. */
function restMessage(res: TwinResponse): string {
  try {
    const body = JSON.parse(res.body) as {
      message?: unknown;
      errors?: (string | { message?: unknown; field?: unknown; code?: unknown })[];
    };
    // Some of GitHub's 422s list plain sentences (review comments outside the diff).
    const details = (body.errors ?? [])
      .map((e) =>
        typeof e === "string"
          ? e
          : typeof e.message === "string"
            ? e.message
            : typeof e.field === "string"
              ? `${e.field} is ${String(e.code)}`
              : "",
      )
      .filter(Boolean);
    return details.length ? details.join(", ") : typeof body.message === "string" ? body.message : "Unprocessable";
  } catch {
    return "Unprocessable";
  }
}
