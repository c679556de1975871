// The Gmail twin, not built yet: a placeholder answering in Google's error shape.
import { placeholderTwin } from "../kit/placeholder";
import { jsonResponse } from "../kit/response";

const GOOGLE_STATUS: Record<number, string> = { 401: "UNAUTHENTICATED", 410: "NOT_FOUND", 500: "INTERNAL", 501: "UNIMPLEMENTED" };

export const gmailTwin = placeholderTwin({
  id: "gmail",
  displayName: "Gmail",
  credential: { prefix: "ya29.", separator: ".", header: "Authorization", scheme: "Bearer" },
  rootPrefixes: ["/gmail/v1/", "/upload/gmail/v1/"],
  error: (status, message) => jsonResponse(status, { error: { code: status, message, status: GOOGLE_STATUS[status] ?? "UNKNOWN" } }),
});
