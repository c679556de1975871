// The Slack twin, not built yet: a placeholder. @slack/web-api retries every non-200 for half an
// hour, so its refusals travel as HTTP 200 `ok:false`.
import { placeholderTwin } from "../kit/placeholder";
import { jsonResponse } from "../kit/response";

const SLACK_ERRORS: Record<number, string> = { 401: "invalid_auth", 410: "invalid_auth", 501: "method_not_supported" };

export const slackTwin = placeholderTwin({
  id: "slack",
  displayName: "Slack",
  credential: { prefix: "xoxb-", separator: "-", header: "Authorization", scheme: "Bearer" },
  secretPatterns: [/\bxox[abposr]-[A-Za-z0-9-]{10,}/g],
  rootPrefixes: ["/api/"],
  // @slack/web-api retries every non-200 answer (429 after Retry-After).
  clientRetries: (res) => res.status !== 200,
  error: (status, message) => jsonResponse(200, { ok: false, error: SLACK_ERRORS[status] ?? "fatal_error", detail: message }),
});
