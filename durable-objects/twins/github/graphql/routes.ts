// The GraphQL endpoint, at GitHub's path and at GitHub Enterprise Server's (`/api/graphql`).
import { z } from "zod";
import type { Route, RouteDeclaration } from "../../types";
import { route } from "../context";
import { GRAPHQL_PATHS, graphqlHandler } from "./handler";

export const GRAPHQL_OPERATION = "graphql";

/**
 * The request GitHub's GraphQL endpoint takes, declared for OpenAPI. The handler reads and refuses
 * it itself, in GraphQL's own error shape (`errors: [...]`), so the declaration only describes it;
 * it has no MCP tool (GRAPHQL_UNTOOLED says why).
 */
const graphqlDeclaration: RouteDeclaration = {
  params: z.object({}),
  query: z.object({}),
  body: z.object({
    query: z.string().describe("The GraphQL document: a query or a mutation"),
    variables: z.record(z.string(), z.unknown()).nullable().optional().describe("Values for the document's variables"),
    operationName: z.string().nullable().optional().describe("Which operation of the document to run, when it holds several"),
  }),
  bodyEncoding: "json",
};

export const graphqlRoutes: readonly Route[] = GRAPHQL_PATHS.map((path) => ({
  ...route("POST", path, GRAPHQL_OPERATION, "GitHub's GraphQL API (the tape names the root fields selected)", graphqlHandler),
  declaration: graphqlDeclaration,
}));

/** Why GraphQL has no per-operation MCP tool (TwinDefinition.untooledOperations). */
export const GRAPHQL_UNTOOLED: Readonly<Record<string, string>> = {
  [GRAPHQL_OPERATION]:
    "GitHub's own MCP server exposes no raw GraphQL tool; its tools map onto the REST operations, which the twin's tools cover.",
};
