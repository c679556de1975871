// Slack's error shape: every refusal is HTTP 200 `{ok:false, error}` with Slack's own code, since
// @slack/web-api retries any other status for half an hour. Only a rate limit is a 429.
import { jsonResponse } from "../kit/response";
import { refuse } from "../kit/response";
import type { TwinResponse } from "../types";

export function slackError(error: string, extra: Record<string, unknown> = {}): TwinResponse {
  return jsonResponse(200, { ok: false, error, ...extra });
}

/** Refuses the call with Slack's error code, from anywhere below a method handler. */
export const fail = (error: string, extra: Record<string, unknown> = {}): never => refuse(slackError(error, extra));

/**
 * What an `invalid_arguments` refusal carries: Slack explains it in `response_metadata.messages`,
 * each line `[ERROR] …` (its description's own example answers for views.open and views.push).
 */
export const explained = (sentence: string) => ({ response_metadata: { messages: [`[ERROR] ${sentence}`] } });
