// The Linear twin's HTTP surface: one GraphQL endpoint (each call's tape operation is the root
// fields it selects) and the OAuth app endpoints.
import type { Route } from "../types";
import { graphqlHandler } from "./graphql";
import { authorize, revoke, token } from "./oauth";

export const linearRoutes: readonly Route[] = [
  {
    method: "POST",
    pattern: "/graphql",
    operation: "graphql",
    summary: "Linear's GraphQL API (operation: the root fields selected)",
    handler: graphqlHandler,
  },
  {
    method: "GET",
    pattern: "/oauth/authorize",
    operation: "oauth.authorize",
    summary: "OAuth 2.0 authorization (code flow, PKCE)",
    handler: authorize,
  },
  { method: "POST", pattern: "/oauth/token", operation: "oauth.token", summary: "OAuth 2.0 token exchange", handler: token },
  { method: "POST", pattern: "/oauth/revoke", operation: "oauth.revoke", summary: "OAuth 2.0 token revocation", handler: revoke },
];
