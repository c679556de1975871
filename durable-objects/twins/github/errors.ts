// GitHub's error and success shapes on the wire, as Octokit reads them.
import { jsonResponse, noContent, refuse } from "../kit/response";

const DOCS = "https://docs.github.com/rest";

export const ghJson = jsonResponse;

export const ghNoContent = () => noContent();

export function ghError(status: number, message: string, extra: Record<string, unknown> = {}, docs = DOCS) {
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

/** Answers with a GitHub error from deep inside a handler; dispatch turns it back into the response. */
export const fail = refuse;
