// The Linear twin, not built yet: a placeholder answering in GraphQL's error shape. Its one
// endpoint, /graphql, is taped with the graphql transport.
import { placeholderTwin } from "../kit/placeholder";
import { jsonResponse } from "../kit/response";

export const linearTwin = placeholderTwin({
  id: "linear",
  displayName: "Linear",
  // Linear keys are sent bare in Authorization, without a scheme.
  credential: { prefix: "lin_api_", separator: "", header: "Authorization", scheme: "" },
  secretPatterns: [/\blin_(?:api|oauth)_[A-Za-z0-9]{10,}/g],
  rootPrefixes: ["/graphql"],
  transportFor: (path) => (path === "/graphql" ? "graphql" : "rest"),
  // @linear/sdk does not retry on its own.
  clientRetries: () => false,
  error: (status, message) =>
    jsonResponse(status, { errors: [{ message, extensions: { code: status === 501 ? "NOT_IMPLEMENTED" : status === 401 ? "AUTHENTICATION_ERROR" : "INTERNAL_SERVER_ERROR" } }] }),
});
