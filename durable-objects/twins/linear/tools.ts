// MCP tools of the Linear twin: not built yet. Every route is listed with the reason it has no tool.
import type { TwinTool } from "../types";

export const linearTools: readonly TwinTool[] = [];

export const LINEAR_UNTOOLED: Readonly<Record<string, string>> = {
  graphql: "MCP tools for the GraphQL operations are not built yet; agents use the GraphQL endpoint",
  "oauth.authorize": "a browser redirect step of the OAuth flow, not an agent action",
  "oauth.token": "an app's server-side token exchange, not an agent action",
  "oauth.revoke": "an app's server-side token revocation, not an agent action",
};
