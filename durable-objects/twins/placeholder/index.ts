// A twin whose own issue has not landed: it boots whatever it is given (its state export is that
// seed, untouched), and answers every call 501 in the vendor's own error shape, taped
// `unsupported`. It never fakes success.
import type { TwinDefinition, TwinId, TwinRequest, TwinResponse } from "../types";

const json = (status: number, body: unknown, headers: Record<string, string> = {}): TwinResponse => ({
  status,
  headers: { "content-type": "application/json; charset=utf-8", ...headers },
  body: JSON.stringify(body),
});

type Shape = (status: number, message: string, req?: TwinRequest) => TwinResponse;

// Each vendor's error shape, and the one refusal its official client will not retry.
const SHAPES: Record<Exclude<TwinId, "github">, Shape> = {
  stripe: (status, message) =>
    json(status, { error: { type: status === 401 ? "invalid_request_error" : "api_error", message } }, { "stripe-should-retry": "false" }),
  // @slack/web-api retries every non-200 for half an hour: refusals travel as HTTP 200.
  slack: (status, message) =>
    json(200, { ok: false, error: status === 501 ? "method_not_supported" : status === 401 ? "invalid_auth" : "fatal_error", detail: message }),
  gmail: (status, message) => json(status, { error: { code: status, message, status: status === 501 ? "UNIMPLEMENTED" : "UNAUTHENTICATED" } }),
  linear: (status, message) => json(status, { errors: [{ message, extensions: { code: status === 501 ? "NOT_IMPLEMENTED" : "AUTHENTICATION_ERROR" } }] }),
};

const CREDENTIALS: Record<Exclude<TwinId, "github">, { prefix: string; header: string; scheme: string }> = {
  stripe: { prefix: "sk_test_", header: "Authorization", scheme: "Bearer" },
  slack: { prefix: "xoxb-", header: "Authorization", scheme: "Bearer" },
  gmail: { prefix: "ya29.", header: "Authorization", scheme: "Bearer" },
  linear: { prefix: "lin_api_", header: "Authorization", scheme: "" },
};

const ROOT_PREFIXES: Record<Exclude<TwinId, "github">, string[]> = {
  stripe: ["/v1/"],
  slack: ["/api/"],
  gmail: ["/gmail/v1/", "/upload/gmail/v1/"],
  linear: ["/graphql"],
};

export function placeholderTwin(id: Exclude<TwinId, "github">): TwinDefinition<unknown> {
  const shape = SHAPES[id];
  return {
    id,
    implemented: false,
    parseSeed: (raw) => ({ ok: true, seed: raw ?? {} }),
    defaultSeed: () => ({}),
    migrations: [`CREATE TABLE IF NOT EXISTS ${id}_placeholder_state (id INTEGER PRIMARY KEY CHECK (id = 1), seed TEXT NOT NULL)`],
    boot(db, seed) {
      db.run(`INSERT OR REPLACE INTO ${id}_placeholder_state (id, seed) VALUES (1, ?)`, JSON.stringify(seed ?? {}));
    },
    exportState(db) {
      const row = db.one<{ seed: string }>(`SELECT seed FROM ${id}_placeholder_state WHERE id = 1`);
      return row ? (JSON.parse(row.seed) as unknown) : {};
    },
    routes: [],
    errors: {
      notImplemented: (req) => shape(501, `The ${id} twin does not implement ${req.method} ${req.path} yet`, req),
      unauthorized: (message) => shape(401, message),
      gone: (message) => shape(410, message),
      internal: (message) => shape(500, message),
      tooLarge: (limit) => shape(413, `Request body too large: the ${id} twin takes bodies up to ${limit} bytes`),
    },
    credential: CREDENTIALS[id],
    claimsRootPath: (path) => ROOT_PREFIXES[id].some((p) => path.startsWith(p)),
    tools: [],
    checks: [],
  };
}
