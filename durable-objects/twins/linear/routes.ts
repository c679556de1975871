// The Linear twin's HTTP surface: one GraphQL endpoint (each call's tape operation is the root
// fields it selects) and the OAuth app endpoints, each declaring its inputs once (declare.ts).
// No MCP tool stands on /graphql itself: each tool is one operation sent to it (tools.ts).
import type { Route } from "../types";
import { graphqlRoute, oauthRoute } from "./declare";
import { GRAPHQL_BODY, graphqlHandler } from "./graphql";
import { AUTHORIZE_QUERY, REVOKE_FORM, TOKEN_FORM, authorize, revoke, token } from "./oauth";

export const linearRoutes: readonly Route[] = [
  graphqlRoute({
    method: "POST",
    pattern: "/graphql",
    operation: "graphql",
    summary: "Linear's GraphQL API (operation: the root fields selected)",
    body: GRAPHQL_BODY,
    handler: (ctx, input) => graphqlHandler(ctx, input.body),
  }),
  oauthRoute({
    method: "GET",
    pattern: "/oauth/authorize",
    operation: "oauth.authorize",
    summary: "OAuth 2.0 authorization (code flow, PKCE)",
    query: AUTHORIZE_QUERY,
    handler: (ctx, input) => authorize(ctx, input.query),
  }),
  oauthRoute({
    method: "POST",
    pattern: "/oauth/token",
    operation: "oauth.token",
    summary: "OAuth 2.0 token exchange",
    body: TOKEN_FORM,
    handler: (ctx, input) => token(ctx, input.body),
  }),
  oauthRoute({
    method: "POST",
    pattern: "/oauth/revoke",
    operation: "oauth.revoke",
    summary: "OAuth 2.0 token revocation",
    body: REVOKE_FORM,
    handler: (ctx, input) => revoke(ctx, input.body),
  }),
];
