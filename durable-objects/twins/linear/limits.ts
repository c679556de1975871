// Linear's bounds on one GraphQL document, measured before it runs (kit/graphql-limits.ts).
//
// Complexity, as Linear documents it (linear.app/developers/rate-limiting: "by default our
// pagination returns up to 50 records. When querying for children this can quickly multiply the
// requested complexity"; a single query is refused above 10,000 points): each object 1 point,
// each scalar 0.1, a connection's cost multiplied by its `first`/`last` (50 when neither is
// given). Aliased fields are counted as fields, each at its own cost. graphql-armor's cost rule
// also charges 1 point for a fragment (spread or inline) as for an object, so the twin's figure
// is a little above Linear's for fragment-heavy documents: the largest document @linear/sdk
// 88.3.0 sends (`notifications`, with every notification type's fragment) comes to 9,785 points
// at the default page size (test/workers/linear/limits.test.ts checks every one).
//
// Linear publishes no depth or token limit. The twin keeps both far above anything the SDK
// sends (its deepest document has 8 levels, its longest about 1,000 tokens) so that only hostile
// documents meet them: parsing stops past 6,000 tokens (which also keeps a nesting of braces
// under what the parser's recursion can take), and a document nested over 32 levels is refused
// in the complexity refusal's shape.
import type { GraphQLSchema } from "graphql";
import type { DocumentNode } from "graphql";
import { checkDocument, isRelayConnection, pageVariables, type GraphqlLimitBreach, type GraphqlLimits } from "../kit/graphql-limits";
import type { TwinResponse } from "../types";
import { queryTooComplex } from "./errors";

export const LINEAR_GRAPHQL_LIMITS: GraphqlLimits = {
  maxTokens: 6_000,
  maxDepth: 32,
  maxCost: 10_000,
  objectCost: 1,
  scalarCost: 0.1,
  defaultPageSize: 50,
  isConnection: isRelayConnection,
};

/** Linear's refusal for a breach, with the figure found. */
export function limitRefusal(breach: GraphqlLimitBreach): TwinResponse {
  switch (breach.limit) {
    case "cost":
      return queryTooComplex(`The query is too complex. Complexity: ${breach.found}. Maximum allowed complexity: ${breach.max}.`);
    case "depth":
      return queryTooComplex(`The query is too deeply nested. Depth: ${breach.found}. Maximum allowed depth: ${breach.max}.`);
    case "aliases":
      return queryTooComplex(`The query has too many aliases. Aliases: ${breach.found}. Maximum allowed aliases: ${breach.max}.`);
  }
}

/** What a parsed document's limits depend on, kept beside it: its page-size variables and the answers so far. */
export interface LimitMemo {
  pageVariables?: string[];
  /** The breach (or none) by the values of those variables; a few kept per document. */
  byPageSizes: Map<string, GraphqlLimitBreach | undefined>;
}

const MEMO_ENTRIES = 8;

/** The limit a request's document passes with its variables, if any; measured once per page sizes. */
export function breachFor(
  schema: GraphQLSchema,
  doc: DocumentNode,
  variables: Record<string, unknown>,
  memo: LimitMemo,
): GraphqlLimitBreach | undefined {
  memo.pageVariables ??= pageVariables(doc);
  const key = JSON.stringify(memo.pageVariables.map((name) => variables[name] ?? null));
  if (memo.byPageSizes.has(key)) return memo.byPageSizes.get(key);
  const { breach } = checkDocument(schema, doc, variables, LINEAR_GRAPHQL_LIMITS);
  if (memo.byPageSizes.size < MEMO_ENTRIES) memo.byPageSizes.set(key, breach);
  return breach;
}
