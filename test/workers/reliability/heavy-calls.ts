// The heaviest calls we know of, one list for the isolation test (test/workers/reliability/
// isolation.test.ts) and the benchmark (bench/sections/isolation.mjs): each is what issue 36 found
// stalling or failing a sandbox, or what the property suite (hostile-input.test.ts) timed as the
// slowest call of its twin. Each must be answered within the bound README "Reliability" states;
// while one sandbox sends them, another sandbox's point reads must keep answering.
//
// Plain data with no imports, in erasable TypeScript only, so the bench (Node, which strips the
// types) reads the same file the Workers tests do.

export interface HeavyCall {
  twin: "github" | "stripe" | "slack" | "gmail" | "linear";
  /** What the call is, for reports: "Stripe events, a 30-byte wildcard type". */
  name: string;
  method: "GET" | "POST";
  /** The twin's own path (after its api_url), or "/mcp" for the twin's MCP server. */
  path: string;
  query?: Record<string, string>;
  body?: string;
  contentType?: string;
  /** Which of the sandbox's credentials it presents: the agent token, or the twin's user token (Slack's search). */
  credential?: "agent" | "user";
}

/** `depth` levels of Linear's issues → team → issues …, the nesting issue 36 found at 17 s (10 levels) and 1.6 GB (100). */
export function deepLinearQuery(depth: number): string {
  let selection = "id";
  for (let level = 0; level < depth; level++) selection = `issues(first: 50) { nodes { id team { ${selection} } } }`;
  return `{ ${selection} }`;
}

/** `width` aliases of a full page each: wide rather than deep. */
export function wideLinearQuery(width: number): string {
  const fields = Array.from({ length: width }, (_, i) => `a${i}: issues(first: 250) { nodes { id title description team { id name } } }`);
  return `{ ${fields.join(" ")} }`;
}

/** A JSON-RPC batch of `size` tool calls: issue 36's 5,000-call batch blocked the server for seconds. */
export function mcpBatch(tool: string, args: Record<string, unknown>, size: number): string {
  return JSON.stringify(
    Array.from({ length: size }, (_, i) => ({ jsonrpc: "2.0", id: i + 1, method: "tools/call", params: { name: tool, arguments: args } })),
  );
}

/** The 30-byte value that made Stripe's event `type` wildcard backtrack for minutes. */
export const BACKTRACKING_TYPE = `${"*".repeat(29)}!`;

const json = "application/json";

export const HEAVY_CALLS: readonly HeavyCall[] = [
  { twin: "stripe", name: "Stripe events, a 30-byte wildcard type", method: "GET", path: "/v1/events", query: { type: BACKTRACKING_TYPE } },
  { twin: "stripe", name: "Stripe events, type=(*", method: "GET", path: "/v1/events", query: { type: "(*" } },
  {
    twin: "stripe",
    name: "Stripe customer search, 5,000 chars",
    method: "GET",
    path: "/v1/customers/search",
    query: { query: `name~"${"%_".repeat(2500)}"` },
  },
  {
    twin: "github",
    name: "GitHub issue search, 5,000-char term",
    method: "GET",
    path: "/search/issues",
    query: { q: `repo:acme/api ${"%_(*".repeat(1250)}` },
  },
  {
    twin: "github",
    name: "GitHub issues, page 99999999999999999999",
    method: "GET",
    path: "/repos/acme/api/issues",
    query: { state: "all", per_page: "100", page: "99999999999999999999" },
  },
  {
    twin: "github",
    name: "GitHub MCP batch of 5,000 reads",
    method: "POST",
    path: "/mcp",
    body: mcpBatch("get_issue", { owner: "acme", repo: "api", issue_number: 1 }, 5000),
    contentType: json,
  },
  {
    twin: "github",
    name: "GitHub MCP batch of 100 reads (the SDK's most)",
    method: "POST",
    path: "/mcp",
    body: mcpBatch("get_issue", { owner: "acme", repo: "api", issue_number: 1 }, 100),
    contentType: json,
  },
  { twin: "gmail", name: "Gmail q of 5,000 '('", method: "GET", path: "/gmail/v1/users/me/messages", query: { q: "(".repeat(5000) } },
  {
    twin: "gmail",
    name: "Gmail q of 400 ORs",
    method: "GET",
    path: "/gmail/v1/users/me/messages",
    query: { q: "is:unread OR ".repeat(400).trim() },
  },
  {
    twin: "gmail",
    name: "Gmail filter with a 5,000-paren query",
    method: "POST",
    path: "/gmail/v1/users/me/settings/filters",
    body: JSON.stringify({ criteria: { query: "(".repeat(5000) }, action: { addLabelIds: ["TRASH"] } }),
    contentType: json,
  },
  {
    twin: "slack",
    name: "Slack search.messages, 5,000-char query",
    method: "GET",
    path: "/api/search.messages",
    query: { query: "%_(*".repeat(1250) },
    credential: "user",
  },
  {
    twin: "linear",
    name: "Linear issues → team → issues, 100 levels",
    method: "POST",
    path: "/graphql",
    body: JSON.stringify({ query: deepLinearQuery(100) }),
    contentType: json,
  },
  {
    twin: "linear",
    name: "Linear issues → team → issues, 10 levels",
    method: "POST",
    path: "/graphql",
    body: JSON.stringify({ query: deepLinearQuery(10) }),
    contentType: json,
  },
  {
    twin: "linear",
    name: "Linear 500 aliases of a 250-issue page",
    method: "POST",
    path: "/graphql",
    body: JSON.stringify({ query: wideLinearQuery(500) }),
    contentType: json,
  },
  {
    twin: "linear",
    name: "Linear title contains a 5,000-char LIKE pattern",
    method: "POST",
    path: "/graphql",
    body: JSON.stringify({ query: `{ issues(filter: { title: { contains: "${"%_".repeat(2500)}" } }) { nodes { id } } }` }),
    contentType: json,
  },
];

/** A point read each twin serves on its default world: what sandbox B keeps asking while A is under load. */
export const POINT_READ = { twin: "github", path: "/repos/acme/api/issues/1" } as const;
