// The GraphQL endpoint, at GitHub's path and at GitHub Enterprise Server's (`/api/graphql`).
import type { Route } from "../../types";
import { route } from "../context";
import { GRAPHQL_PATHS, graphqlHandler } from "./handler";

export const GRAPHQL_OPERATION = "graphql";

export const graphqlRoutes: readonly Route[] = GRAPHQL_PATHS.map((path) =>
  route("POST", path, GRAPHQL_OPERATION, "GitHub's GraphQL API (the tape names the root fields selected)", graphqlHandler),
);

/** Why GraphQL has no per-operation MCP tool (TwinDefinition.untooledOperations). */
export const GRAPHQL_UNTOOLED: Readonly<Record<string, string>> = {
  [GRAPHQL_OPERATION]:
    "GitHub's own MCP server exposes no raw GraphQL tool; its tools map onto the REST operations, which the twin's tools cover.",
};
