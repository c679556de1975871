// What a timeline row says about a call. A GraphQL API answers every operation at one path, so
// "POST /graphql" says nothing: a GraphQL call is named by its operation (its type and name, and
// the tape's operation column: the field it reached), and its query is shown as the GraphQL text
// it is, with its variables, rather than as one JSON-escaped string. Plain functions over a row.
import type { TapeRow } from "../../durable-objects/twins/types";

export interface GraphqlCall {
  /** query, mutation or subscription. */
  type: string;
  /** The operation's own name, when it has one. */
  name: string | null;
  query: string;
  variables: unknown;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** A URL-encoded text decoded for reading; the text itself when it is not valid encoding. */
export function decodeQueryString(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, " "));
  } catch {
    return text;
  }
}

// An operation definition at the top level: at the start of the document or after a closing brace.
const DEFINITION = /(?:^|\})\s*(query|mutation|subscription)\b\s*([_A-Za-z][_0-9A-Za-z]*)?/;

/** The operation a GraphQL document runs: its type and name (`operationName` wins, as servers read it). */
export function graphqlOperation(query: string, operationName?: unknown): { type: string; name: string | null } {
  // Comments may mention other operations; they are not part of the document.
  const text = query.replace(/#[^\n]*/g, "").trim();
  const named = typeof operationName === "string" && /^[_A-Za-z][_0-9A-Za-z]*$/.test(operationName) ? operationName : null;
  if (named) {
    const own = new RegExp(`(?:^|\\})\\s*(query|mutation|subscription)\\s+${named}\\b`).exec(text);
    if (own) return { type: own[1], name: named };
  }
  // The shorthand `{ … }` is a query without a name.
  if (text.startsWith("{")) return { type: "query", name: named };
  const first = DEFINITION.exec(text);
  return first ? { type: first[1], name: named ?? first[2] ?? null } : { type: "query", name: named };
}

/** The GraphQL request a row carries (a POST body, or a GET's ?query=), or null for any other call. */
export function graphqlCall(row: Pick<TapeRow, "transport" | "method" | "path" | "query" | "request_body">): GraphqlCall | null {
  let body: unknown = row.request_body;
  if (typeof body === "string") {
    try {
      body = JSON.parse(body);
    } catch {
      body = undefined;
    }
  }
  if (Array.isArray(body)) body = body[0];
  let fields: { query?: unknown; variables?: unknown; operationName?: unknown } | undefined;
  if (isRecord(body) && typeof body.query === "string") fields = body;
  else if (row.method === "GET" && row.query) {
    const params = new URLSearchParams(row.query);
    const query = params.get("query");
    if (query !== null) {
      let variables: unknown = params.get("variables") ?? undefined;
      try {
        variables = typeof variables === "string" ? JSON.parse(variables) : variables;
      } catch {
        // Shown as the text it was.
      }
      fields = { query, variables, operationName: params.get("operationName") ?? undefined };
    }
  }
  if (!fields || typeof fields.query !== "string") return null;
  if (row.transport !== "graphql" && !/graphql/i.test(row.path)) return null;
  const { type, name } = graphqlOperation(fields.query, fields.operationName);
  return { type, name, query: fields.query.trim(), variables: fields.variables ?? null };
}

/** One line naming a call: its GraphQL operation when it is one, else method, path and decoded query. */
export function callTitle(row: Pick<TapeRow, "transport" | "method" | "path" | "query" | "request_body" | "operation">): string {
  const gql = graphqlCall(row);
  if (gql) {
    const name = gql.name ?? row.operation;
    const field = row.operation && row.operation !== name ? ` (${row.operation})` : "";
    return `${gql.type} ${name || "(anonymous)"}${field}`;
  }
  return `${row.method} ${row.path}${row.query ? `?${decodeQueryString(row.query)}` : ""}`;
}
