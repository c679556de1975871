// Google's error body as gaxios reads it (`err.response.data.error`), with the statuses and texts
// Gmail itself answers. JSON goes out as `application/json; charset=UTF-8`, the way Google writes it.
import { refuse } from "../kit/response";
import type { TwinResponse } from "../types";

export const GOOGLE_JSON = "application/json; charset=UTF-8";

export function gJson(status: number, body: unknown): TwinResponse {
  return { status, headers: { "content-type": GOOGLE_JSON }, body: JSON.stringify(body) };
}

export const gNoContent = (): TwinResponse => ({ status: 204, headers: {}, body: "" });

const CANONICAL: Record<number, string> = {
  400: "INVALID_ARGUMENT",
  401: "UNAUTHENTICATED",
  403: "PERMISSION_DENIED",
  404: "NOT_FOUND",
  409: "ABORTED",
  410: "FAILED_PRECONDITION",
  429: "RESOURCE_EXHAUSTED",
  500: "INTERNAL",
  503: "UNAVAILABLE",
};

export function gError(
  code: number,
  message: string,
  reason: string,
  domain = "global",
  extraHeaders: Record<string, string> = {},
): TwinResponse {
  const res = gJson(code, { error: { code, message, errors: [{ message, domain, reason }], status: CANONICAL[code] ?? "UNKNOWN" } });
  return { ...res, headers: { ...res.headers, ...extraHeaders } };
}

export const notFound = () => gError(404, "Requested entity was not found.", "notFound");
export const invalidId = () => gError(400, "Invalid id value", "invalidArgument");
export const badRequest = (message: string) => gError(400, message, "invalidArgument");
/**
 * A search query the twin cannot read: past its bounds, or an operator given a value it does not
 * take. The text is Google's for an unreadable `q` (Drive's measured answer, `Invalid query`);
 * Gmail's own wording for this case is not measured.
 */
export const invalidQuery = () => gError(400, "Invalid query", "invalidArgument");
/**
 * Gmail's refusal of a call whose precondition does not hold: 400 with the canonical status
 * FAILED_PRECONDITION (not INVALID_ARGUMENT), as Gmail's body reads in google-api-php-client#2558
 * and google-api-java-client#1648 (`"reason": "failedPrecondition"`, `"status": "FAILED_PRECONDITION"`).
 */
export const failedPrecondition = (message = "Precondition check failed."): TwinResponse =>
  gJson(400, {
    error: { code: 400, message, errors: [{ message, domain: "global", reason: "failedPrecondition" }], status: "FAILED_PRECONDITION" },
  });
/**
 * A pending send-as alias made or set the default: Gmail's words as GAM quotes them
 * (taers232c/GAMADV-XTD3#37, `Add Failed: Unverified send-as cannot be set as the default`). GAM
 * shows only the message; the status and reason here are the failed-precondition body above.
 */
export const unverifiedDefault = () => failedPrecondition("Unverified send-as cannot be set as the default");
/**
 * A user label's name taken again, case aside: 409 with reason `aborted` (status ABORTED), as
 * Gmail's body reads in gauteh/lieer#207 (`{'message': 'Label name exists or conflicts', 'domain':
 * 'global', 'reason': 'aborted'}`) and GAM-team/got-your-back#105, #124, #152 (`409: Label name
 * exists or conflicts - aborted`). A name Gmail keeps for itself is not this: it is 400 `Invalid
 * label name` (routes/labels.ts).
 */
export const labelConflict = () => gError(409, "Label name exists or conflicts", "aborted");
/** Google's ALREADY_EXISTS, for a settings resource (send-as, forwarding address, delegate) made twice. */
export const alreadyExists = (): TwinResponse => {
  const message = "Requested entity already exists";
  return gJson(409, {
    error: { code: 409, message, errors: [{ message, domain: "global", reason: "duplicate" }], status: "ALREADY_EXISTS" },
  });
};
/** A JSON key the resource has not, in the words of Google's request parser. */
export const unknownField = (key: string, at: string) =>
  gError(400, `Invalid JSON payload received. Unknown name "${key}" at '${at}': Cannot find field.`, "invalid");

/** Refuses the call from anywhere below its handler. */
export const fail = refuse;

export const UNAUTHENTICATED_MESSAGE =
  "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.";

/** The seeded faults' answers: what Gmail sends when it sheds load. */
export function faultResponse(status: number, reason: string): TwinResponse {
  if (status === 429) {
    const message = reason === "userRateLimitExceeded" ? "User-rate limit exceeded." : "Rate Limit Exceeded";
    return gError(429, message, reason, "usageLimits");
  }
  return gError(status, "Backend Error", "backendError");
}

/** A body that is not JSON, or not the JSON object a method takes. */
export const invalidJson = () => gError(400, "Invalid JSON payload received. Unexpected token.", "invalid");
