// The Gmail twin, not built yet: a placeholder answering in Google's error shape. googleapis
// retries 5xx answers on its own, so a call the twin does not serve is answered as Google answers
// a path it does not know, 404, with a message saying what is missing; it is still taped
// `unsupported`.
import { placeholderTwin } from "../kit/placeholder";
import { jsonResponse } from "../kit/response";

const GOOGLE_STATUS: Record<number, string> = { 401: "UNAUTHENTICATED", 404: "NOT_FOUND", 410: "NOT_FOUND", 500: "INTERNAL" };

export const gmailTwin = placeholderTwin({
  id: "gmail",
  displayName: "Gmail",
  credential: { prefix: "ya29.", separator: ".", header: "Authorization", scheme: "Bearer" },
  secretPatterns: [/\bya29\.[A-Za-z0-9._-]{10,}/g],
  rootPrefixes: ["/gmail/v1/", "/upload/gmail/v1/"],
  // googleapis (gaxios, retry on by default) retries 408, 429 and every 5xx.
  clientRetries: (res) => res.status === 408 || res.status === 429 || res.status >= 500,
  error: (status, message) => {
    const answered = status === 501 ? 404 : status;
    return jsonResponse(answered, { error: { code: answered, message, status: GOOGLE_STATUS[answered] ?? "UNKNOWN" } });
  },
});
