// The Stripe twin, not built yet: a placeholder that answers 501 the way Stripe refuses, with
// `Stripe-Should-Retry: false` so stripe-node does not retry it.
import { placeholderTwin } from "../kit/placeholder";
import { jsonResponse } from "../kit/response";

export const stripeTwin = placeholderTwin({
  id: "stripe",
  displayName: "Stripe",
  credential: { prefix: "sk_test_", separator: "", header: "Authorization", scheme: "Bearer" },
  secretPatterns: [/\b[sr]k_(?:test|live)_[A-Za-z0-9]{10,}/g],
  rootPrefixes: ["/v1/"],
  tapeHeaders: ["stripe-version", "idempotency-key"],
  // stripe-node retries 409, 429 and 5xx unless the answer says `Stripe-Should-Retry: false`.
  clientRetries: (res) => res.headers["stripe-should-retry"] !== "false" && (res.status === 409 || res.status === 429 || res.status >= 500),
  error: (status, message) =>
    jsonResponse(status, { error: { type: status === 401 ? "invalid_request_error" : "api_error", message } }, { "stripe-should-retry": "false" }),
});
