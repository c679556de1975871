// GitHub's limits on one GraphQL call, checked before it runs (docs.github.com › GraphQL ›
// "Rate limits and query limits for the GraphQL API", § Node limit): "Clients must supply a
// `first` or `last` argument on any connection. Values of `first` and `last` must be within
// 1-100. Individual calls cannot request more than 500,000 total nodes." A connection's nodes
// are its page size times the page sizes of the connections around it; the call's cost (§ Primary
// rate limit) is the requests needed to fill every connection (one per page of the connection
// around it) over 100, rounded, at least 1. The refusals use GitHub's words and types as its
// answers show them:
//   MISSING_PAGINATION_BOUNDARIES "You must provide a `first` or `last` value to properly paginate the `issues` connection."
//   EXCESSIVE_PAGINATION "Requesting 101 records on the `organizations` connection exceeds the `first` limit of 100 records."
//   MAX_NODE_LIMIT_EXCEEDED "This query requests up to 2,010,050 possible nodes which exceeds the maximum limit of 500,000."
// Depth and size bounds of the platform's own (GitHub publishes none) come from the kit.
import {
  GraphQLInterfaceType,
  GraphQLObjectType,
  Kind,
  getNamedType,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLNamedType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValueNode,
} from "graphql";
import { checkDocument, isRelayConnection, type GraphqlLimits } from "../../kit/graphql-limits";
import type { GithubErrorBody } from "./errors";

export const MAX_PAGE = 100;
export const MAX_NODES = 500_000;

/**
 * The twin's own bounds (GitHub states none): far above what gh or Octokit users send (their
 * deepest documents have about 12 levels), low enough that hostile documents stop early. The cost
 * limit is not GitHub's measure (that is the node limit below): it only bounds the work of
 * documents of many aliases and fragments that stay under the node limit.
 */
export const GITHUB_DOCUMENT_LIMITS: GraphqlLimits = {
  maxTokens: 15_000,
  maxDepth: 30,
  maxAliases: 500,
  maxCost: 1_000_000,
  objectCost: 1,
  scalarCost: 0.1,
  defaultPageSize: 1,
  isConnection: isRelayConnection,
};

export interface CallMeasure {
  nodeCount: number;
  /** The points the call costs against the hourly limit. */
  cost: number;
  errors: GithubErrorBody[];
}

type Vars = Record<string, unknown>;

/** A page size as given: a literal, or the request's variable (else its default); undefined when absent or null. */
function pageSize(value: ValueNode | undefined, vars: Vars, defaults: Map<string, ValueNode>): number | undefined {
  if (!value) return undefined;
  if (value.kind === Kind.INT) return Number(value.value);
  if (value.kind === Kind.VARIABLE) {
    const name = value.name.value;
    const given = name in vars ? vars[name] : undefined;
    if (typeof given === "number") return given;
    if (given === undefined) return pageSize(defaults.get(name), vars, defaults);
  }
  return undefined;
}

const loc = (node: { loc?: { startToken: { line: number; column: number } } }) =>
  node.loc ? [{ line: node.loc.startToken.line, column: node.loc.startToken.column }] : undefined;

/** What a walk over one operation reads and what it has counted so far. */
interface CallWalk {
  schema: GraphQLSchema;
  fragments: Map<string, FragmentDefinitionNode>;
  /** The operation's variable defaults, for page sizes given as variables the request leaves out. */
  defaults: Map<string, ValueNode>;
  vars: Vars;
  out: CallMeasure;
  /** Requests needed to fill every connection: one per page of the connection around it. */
  requests: number;
}

/** Measures one operation (already validated) against GitHub's node limit and prices it. */
export function measureCall(schema: GraphQLSchema, doc: DocumentNode, op: OperationDefinitionNode, vars: Vars): CallMeasure {
  const fragments = new Map(
    doc.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]),
  );
  const defaults = new Map<string, ValueNode>();
  for (const v of op.variableDefinitions ?? []) if (v.defaultValue) defaults.set(v.variable.name.value, v.defaultValue);
  const walk: CallWalk = { schema, fragments, defaults, vars, out: { nodeCount: 0, cost: 0, errors: [] }, requests: 0 };
  const root = op.operation === "mutation" ? schema.getMutationType() : schema.getQueryType();
  if (root) walkSelections(walk, op.selectionSet, root, 1, [], new Set());
  const { out } = walk;
  if (!out.errors.length && out.nodeCount > MAX_NODES)
    out.errors.push({
      type: "MAX_NODE_LIMIT_EXCEEDED",
      message: `This query requests up to ${out.nodeCount.toLocaleString("en-US")} possible nodes which exceeds the maximum limit of ${MAX_NODES.toLocaleString("en-US")}.`,
    });
  // Mutations cost a point each, as a query of one request does.
  out.cost = op.operation === "mutation" ? 1 : Math.max(1, Math.round(walk.requests / 100));
  return out;
}

/**
 * Walks a selection set whose items each appear `pages` times in the answer. Fragments are
 * followed into their type; a fragment already being spread on this path is not followed again.
 */
function walkSelections(
  walk: CallWalk,
  set: SelectionSetNode,
  parent: GraphQLNamedType,
  pages: number,
  path: string[],
  spread: Set<string>,
): void {
  for (const s of set.selections) {
    if (s.kind === Kind.INLINE_FRAGMENT) {
      const cond = s.typeCondition ? walk.schema.getType(s.typeCondition.name.value) : parent;
      if (cond) walkSelections(walk, s.selectionSet, cond, pages, path, spread);
      continue;
    }
    if (s.kind === Kind.FRAGMENT_SPREAD) {
      const f = walk.fragments.get(s.name.value);
      const cond = f && walk.schema.getType(f.typeCondition.name.value);
      if (f && cond && !spread.has(f.name.value))
        walkSelections(walk, f.selectionSet, cond, pages, path, new Set([...spread, f.name.value]));
      continue;
    }
    if (s.selectionSet) walkField(walk, s, s.selectionSet, parent, pages, path, spread);
  }
}

/** One field with a selection set: a connection multiplies the pages of what it holds (or is refused). */
function walkField(
  walk: CallWalk,
  s: FieldNode,
  selectionSet: SelectionSetNode,
  parent: GraphQLNamedType,
  pages: number,
  path: string[],
  spread: Set<string>,
): void {
  // A union has no fields of its own: its members' are reached through fragments.
  const fields = parent instanceof GraphQLObjectType || parent instanceof GraphQLInterfaceType ? parent.getFields() : {};
  const def = fields[s.name.value];
  if (!def) return;
  const type = getNamedType(def.type);
  const here = [...path, s.alias?.value ?? s.name.value];
  let inner = pages;
  if (isRelayConnection(type)) {
    // A connection asked only for its counts or pageInfo lists no records: github.com answers
    // `commits { totalCount }` and `users { totalCount }` without `first`/`last` (gh 2.23's
    // `gh pr view` and `gh issue view` send both), so only one that selects records needs them.
    const size = connectionPageSize(s, here, walk.vars, walk.defaults);
    if (typeof size !== "number" && size.type === "MISSING_PAGINATION_BOUNDARIES" && !selectsRecords(walk, selectionSet, new Set(spread))) {
      walk.requests += pages;
      return;
    }
    if (typeof size !== "number") {
      walk.out.errors.push(size);
      return;
    }
    walk.requests += pages;
    inner = pages * size;
    walk.out.nodeCount += inner;
  }
  walkSelections(walk, selectionSet, type, inner, here, spread);
}

/** Whether a connection's selection reaches its `nodes` or `edges` (through fragments too). */
function selectsRecords(walk: CallWalk, set: SelectionSetNode, spread: Set<string>): boolean {
  return set.selections.some((s) => {
    if (s.kind === Kind.FIELD) return s.name.value === "nodes" || s.name.value === "edges";
    if (s.kind === Kind.INLINE_FRAGMENT) return selectsRecords(walk, s.selectionSet, spread);
    const f = walk.fragments.get(s.name.value);
    if (!f || spread.has(f.name.value)) return false;
    spread.add(f.name.value);
    return selectsRecords(walk, f.selectionSet, spread);
  });
}

/** A connection's page size (the larger of `first` and `last`), or GitHub's refusal of them. */
function connectionPageSize(s: FieldNode, here: string[], vars: Vars, defaults: Map<string, ValueNode>): number | GithubErrorBody {
  const arg = (name: string) => s.arguments?.find((a) => a.name.value === name)?.value;
  const first = pageSize(arg("first"), vars, defaults);
  const last = pageSize(arg("last"), vars, defaults);
  const name = s.name.value;
  if (first === undefined && last === undefined) {
    return {
      type: "MISSING_PAGINATION_BOUNDARIES",
      path: here,
      locations: loc(s),
      message: `You must provide a \`first\` or \`last\` value to properly paginate the \`${name}\` connection.`,
    };
  }
  const over = [
    ["first", first],
    ["last", last],
  ].find((e): e is [string, number] => typeof e[1] === "number" && (e[1] > MAX_PAGE || e[1] < 0));
  if (over) {
    return {
      type: "EXCESSIVE_PAGINATION",
      path: here,
      locations: loc(s),
      message:
        over[1] < 0
          ? `\`${over[0]}\` on the \`${name}\` connection cannot be less than 0.`
          : `Requesting ${over[1]} records on the \`${name}\` connection exceeds the \`${over[0]}\` limit of ${MAX_PAGE} records.`,
    };
  }
  return Math.max(first ?? 0, last ?? 0);
}

/**
 * The platform's bounds on a document (depth, aliases, size of work). Depth and aliases are
 * refused before graphql-js validates the document; the size of work only after GitHub's own node
 * limit has had its say (`late`), so a document over both gets GitHub's refusal.
 */
export function documentBreach(schema: GraphQLSchema, doc: DocumentNode, vars: Vars): { early?: GithubErrorBody; late?: GithubErrorBody } {
  const { breach } = checkDocument(schema, doc, vars, GITHUB_DOCUMENT_LIMITS);
  if (!breach) return {};
  const what =
    breach.limit === "depth" ? "nested too deeply" : breach.limit === "aliases" ? "has too many aliases" : "asks for too much work";
  const refusal = { message: `This query ${what} (${breach.found} over the twin's limit of ${breach.max}).` };
  return breach.limit === "cost" ? { late: refusal } : { early: refusal };
}
