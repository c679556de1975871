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
  /** The breach (or none) and the complexity, by the values of those variables; a few kept per document. */
  byPageSizes: Map<string, Measured>;
}

/** A document's complexity (Linear's points, rounded up as its X-Complexity header is) and the limit it passes, if any. */
export interface Measured {
  complexity: number;
  breach: GraphqlLimitBreach | undefined;
}

const MEMO_ENTRIES = 8;

/** A request's document measured with its variables: its complexity and the limit it passes, if any; once per page sizes. */
export function measureFor(schema: GraphQLSchema, doc: DocumentNode, variables: Record<string, unknown>, memo: LimitMemo): Measured {
  memo.pageVariables ??= pageVariables(doc);
  const key = JSON.stringify(memo.pageVariables.map((name) => variables[name] ?? null));
  const hit = memo.byPageSizes.get(key);
  if (hit) return hit;
  const { measure, breach } = checkDocument(schema, doc, variables, LINEAR_GRAPHQL_LIMITS);
  // Float sums of 0.1 points drift (12304.999999999998): round the drift away before rounding up.
  const measured = { complexity: Math.ceil(Math.round(measure.cost * 1000) / 1000), breach };
  if (memo.byPageSizes.size < MEMO_ENTRIES) memo.byPageSizes.set(key, measured);
  return measured;
}
