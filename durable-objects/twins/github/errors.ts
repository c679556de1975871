// GitHub's error and success shapes on the wire, as Octokit reads them.
import type { TwinResponse } from "../types";

const DOCS = "https://docs.github.com/rest";

export function ghJson(status: number, body: unknown, headers: Record<string, string> = {}): TwinResponse {
  return { status, headers: { "content-type": "application/json; charset=utf-8", ...headers }, body: body === undefined ? "" : JSON.stringify(body) };
}

export const ghNoContent = (): TwinResponse => ({ status: 204, headers: {}, body: "" });

export function ghError(status: number, message: string, extra: Record<string, unknown> = {}, docs = DOCS): TwinResponse {
  return ghJson(status, { message, ...extra, documentation_url: docs, status: String(status) });
}

export const ghNotFound = () => ghError(404, "Not Found");

export interface ValidationError {
  resource: string;
  field?: string;
  code: "missing" | "missing_field" | "invalid" | "already_exists" | "unprocessable" | "custom";
  message?: string;
  value?: unknown;
}

export const ghValidationFailed = (errors: ValidationError[], message = "Validation Failed") => ghError(422, message, { errors });

/** Thrown from deep inside a handler to answer with a GitHub error; the route wrapper turns it back into a response. */
export class GithubHttpError extends Error {
  constructor(readonly response: TwinResponse) {
    super(`GitHub error ${response.status}`);
  }
}

export const fail = (response: TwinResponse): never => {
  throw new GithubHttpError(response);
};
