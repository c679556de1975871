// What bounds one GraphQL document before it runs, for any GraphQL twin: a token limit at parse
// time (graphql-js's own `maxTokens`), then graphql-armor's depth, alias and cost rules measured
// in one validation pass that runs before graphql-js's own rules (those are quadratic in the
// worst case; these run in time proportional to the document). The twin chooses the numbers and words the refusal; this module
// only measures.
//
// graphql-armor's cost rule prices every selection set as an object (fragments and a connection's
// wrapper included), multiplies by a literal `first`/`last` only, and knows no default page size.
// A vendor that prices as the public GraphQL APIs document (an object a point, a scalar a tenth, a connection
// its page size times its nodes, 50 when no size is given) is measured over a copy of the document
// in those terms (costDocument): page sizes written out as literals (the request's variable, else
// the default), and each object's point carried by a spread of one added fragment worth
// `objectCost / scalarCost` leaves, so the rule's own object cost can be 0 and fragments,
// connections and their `edges` and `pageInfo` cost nothing of their own (a spread still costs
// the rule's one leaf: a tenth of a point over the vendor's count per fragment). The rule's memo of
// each fragment's cost stays, so fragments spread twice at every level cost time in proportion to the document.
import { costLimitRule } from "@escape.tech/graphql-armor-cost-limit";
import { maxAliasesRule } from "@escape.tech/graphql-armor-max-aliases";
import { maxDepthRule } from "@escape.tech/graphql-armor-max-depth";
import {
  GraphQLObjectType,
  Kind,
  TypeInfo,
  getNamedType,
  parse,
  validate,
  visit,
  visitWithTypeInfo,
  type ArgumentNode,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type FragmentSpreadNode,
  type GraphQLError,
  type GraphQLNamedType,
  type GraphQLSchema,
  type ValidationRule,
} from "graphql";

export interface GraphqlLimits {
  /** Lexical tokens a document may have; parsing stops past it. */
  maxTokens: number;
  /** Nested selection levels one operation may reach (fragments flattened: a spread is not a level). */
  maxDepth: number;
  /** Aliased fields one operation may have; undefined for no limit of its own (aliases still cost). */
  maxAliases?: number;
  /** The most an operation may cost. */
  maxCost: number;
  /** The points of a field with a selection (an object) and of a leaf (a scalar or enum). */
  objectCost: number;
  scalarCost: number;
  /** The page size a connection is priced at when the query gives neither `first` nor `last`. */
  defaultPageSize: number;
  /** Whether a type is a paginated connection (its cost is multiplied by its page size). */
  isConnection(type: GraphQLNamedType): boolean;
}

/** A Relay-style connection: a `…Connection` object type with `nodes` or `edges`. */
export function isRelayConnection(type: GraphQLNamedType): boolean {
  if (!(type instanceof GraphQLObjectType) || !type.name.endsWith("Connection")) return false;
  const fields = type.getFields();
  return "nodes" in fields || "edges" in fields;
}

/** The largest figures of a document's operations. */
export interface GraphqlMeasure {
  depth: number;
  aliases: number;
  cost: number;
}

export type GraphqlLimitBreach =
  | { limit: "depth"; found: number; max: number }
  | { limit: "aliases"; found: number; max: number }
  | { limit: "cost"; found: number; max: number };

/**
 * Brackets (`{`, `[`, `(`) a document may nest. graphql-js's parser and graphql-armor's depth rule
 * recurse once per level, so a document nested a thousand deep can overflow the stack in the
 * parser or, depending on how warm the code is, just after it; a bound well under either, and
 * far over any real document (a depth limit of 30 selections with argument objects inside), keeps
 * every later walk safe.
 */
export const MAX_NESTING = 512;

/** Whether a document's brackets nest deeper than `max`, strings and comments aside: one pass over the text. */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "#") {
      while (i < text.length && text[i] !== "\n" && text[i] !== "\r") i++;
    } else if (c === '"') {
      if (text.startsWith('""', i + 1)) {
        // A block string ends at the next unescaped `"""`.
        i += 3;
        while (i < text.length && !(text.startsWith('"""', i) && text[i - 1] !== "\\")) i++;
        i += 2;
      } else {
        i++;
        while (i < text.length && text[i] !== '"' && text[i] !== "\n") i += text[i] === "\\" ? 2 : 1;
      }
    } else if (c === "{" || c === "[" || c === "(") {
      if (++depth > max) return true;
    } else if (c === "}" || c === "]" || c === ")") {
      depth = Math.max(0, depth - 1);
    }
  }
  return false;
}

/**
 * Parses within the token and nesting limits. Past the token limit it throws graphql-js's syntax
 * error, as for any bad document; past the nesting limit a RangeError, as the parser's own stack
 * overflow would, which each twin words as its refusal of a document nested too deeply.
 */
export function parseBounded(text: string, limits: Pick<GraphqlLimits, "maxTokens">): DocumentNode {
  if (nestsDeeperThan(text, MAX_NESTING)) throw new RangeError("Document is nested too deeply.");
  return parse(text, { maxTokens: limits.maxTokens, noLocation: false });
}

const PAGE_ARGUMENTS = new Set(["first", "last"]);

/** The variables a document's `first`/`last` arguments read: what its cost depends on beyond its text. */
export function pageVariables(doc: DocumentNode): string[] {
  const names = new Set<string>();
  visit(doc, {
    Argument(node) {
      if (PAGE_ARGUMENTS.has(node.name.value) && node.value.kind === Kind.VARIABLE) names.add(node.value.name.value);
    },
  });
  return [...names];
}

const intArgument = (name: string, value: number): ArgumentNode => ({
  kind: Kind.ARGUMENT,
  name: { kind: Kind.NAME, value: name },
  value: { kind: Kind.INT, value: String(value) },
});

/** A page size the way the vendor reads it: a whole number, else (null, absent, wrong type) none given. */
function pageSizeOf(value: unknown): number | undefined {
  if (typeof value === "number" && Number.isFinite(value)) return Math.max(0, Math.trunc(value));
  if (typeof value === "string" && /^-?\d+$/.test(value)) return Math.max(0, Number(value));
  return undefined;
}

/** Fields of a connection that are not objects of the price: its edges (their `node` is) and its page info. */
const CONNECTION_PARTS = new Set(["edges", "pageInfo"]);

/** The added fragment that carries an object's point; its name cannot collide (`__` is reserved). */
const POINT_FRAGMENT = "__objectPoint";
const POINT_SPREAD: FragmentSpreadNode = { kind: Kind.FRAGMENT_SPREAD, name: { kind: Kind.NAME, value: POINT_FRAGMENT } };
const TYPENAME: FieldNode = { kind: Kind.FIELD, name: { kind: Kind.NAME, value: "__typename" } };

/** A fragment of `leaves` leaves: with the spread's own leaf, it prices an object at objectCost / scalarCost leaves. */
const pointFragment = (leaves: number): FragmentDefinitionNode => ({
  kind: Kind.FRAGMENT_DEFINITION,
  name: { kind: Kind.NAME, value: POINT_FRAGMENT },
  typeCondition: { kind: Kind.NAMED_TYPE, name: { kind: Kind.NAME, value: "Query" } },
  selectionSet: { kind: Kind.SELECTION_SET, selections: Array.from({ length: leaves }, () => TYPENAME) },
});

/**
 * The document as the cost rule should see it: every connection's page size a literal (a
 * variable replaced by the value the request gives it, else the variable's default, else the
 * vendor's default page size; a connection with neither `first` nor `last` given the default),
 * and every object field carrying `objectCost / scalarCost` extra leaves, its point.
 */
export function costDocument(
  schema: GraphQLSchema,
  doc: DocumentNode,
  variables: Record<string, unknown>,
  limits: Pick<GraphqlLimits, "defaultPageSize" | "isConnection" | "objectCost" | "scalarCost">,
): DocumentNode {
  const leavesPerObject = Math.round(limits.objectCost / limits.scalarCost);
  const defaults = new Map<string, number>();
  for (const d of doc.definitions) {
    if (d.kind !== Kind.OPERATION_DEFINITION) continue;
    for (const v of d.variableDefinitions ?? []) {
      if (v.defaultValue?.kind === Kind.INT) defaults.set(v.variable.name.value, Number(v.defaultValue.value));
    }
  }
  const info = new TypeInfo(schema);
  const priced = visit(
    doc,
    visitWithTypeInfo(info, {
      Field: {
        leave(node: FieldNode): FieldNode | undefined {
          const type = info.getType();
          if (!type || !node.selectionSet) return undefined;
          if (!limits.isConnection(getNamedType(type))) {
            const parent = info.getParentType();
            if (parent && limits.isConnection(parent) && CONNECTION_PARTS.has(node.name.value)) return undefined;
            return { ...node, selectionSet: { ...node.selectionSet, selections: [...node.selectionSet.selections, POINT_SPREAD] } };
          }
          let given = false;
          const args = (node.arguments ?? []).map((arg) => {
            if (!PAGE_ARGUMENTS.has(arg.name.value)) return arg;
            if (arg.value.kind !== Kind.VARIABLE) {
              given ||= arg.value.kind !== Kind.NULL;
              return arg;
            }
            const name = arg.value.name.value;
            const size = name in variables ? pageSizeOf(variables[name]) : defaults.get(name);
            if (size === undefined) return intArgument(arg.name.value, limits.defaultPageSize);
            given = true;
            return intArgument(arg.name.value, size);
          });
          if (!given && !args.some((a) => PAGE_ARGUMENTS.has(a.name.value))) args.push(intArgument("first", limits.defaultPageSize));
          return { ...node, arguments: args };
        },
      },
    }),
  );
  // The spread's own leaf is one of the object's.
  return { ...priced, definitions: [...priced.definitions, pointFragment(leavesPerObject - 1)] };
}

/**
 * Measures every operation of a document with graphql-armor's rules, all limits lifted so each
 * figure is found whole; the largest of each is returned. Depth and aliases are counted on the
 * document as sent (fragments flattened: a spread adds no level, as in the response), the cost on
 * its costDocument (each leaf there is worth `scalarCost`).
 */
export function measureDocument(schema: GraphQLSchema, doc: DocumentNode, priced: DocumentNode, scalarCost: number): GraphqlMeasure {
  const found: GraphqlMeasure = { depth: 0, aliases: 0, cost: 0 };
  const keep = (key: keyof GraphqlMeasure) => (_ctx: unknown, details: { n: number } | GraphQLError) => {
    if ("n" in details) found[key] = Math.max(found[key], details.n);
  };
  validate(schema, doc, [
    maxDepthRule({ n: Number.POSITIVE_INFINITY, flattenFragments: true, onAccept: [keep("depth")] }),
    maxAliasesRule({ n: Number.POSITIVE_INFINITY, onAccept: [keep("aliases")] }),
  ]);
  const costRule: ValidationRule = costLimitRule({
    maxCost: Number.POSITIVE_INFINITY,
    objectCost: 0,
    scalarCost: 1,
    depthCostFactor: 1,
    flattenFragments: true,
    onAccept: [keep("cost")],
  });
  validate(schema, priced, [costRule]);
  found.cost *= scalarCost;
  return found;
}

/**
 * The first limit a measure passes: the cost first (the vendor's documented limit, with its
 * figure), unless that figure is past counting; then depth, then aliases.
 */
export function breachOf(m: GraphqlMeasure, limits: GraphqlLimits): GraphqlLimitBreach | undefined {
  if (m.cost > limits.maxCost && Number.isFinite(m.cost)) return { limit: "cost", found: m.cost, max: limits.maxCost };
  if (m.depth > limits.maxDepth) return { limit: "depth", found: m.depth, max: limits.maxDepth };
  if (limits.maxAliases !== undefined && m.aliases > limits.maxAliases)
    return { limit: "aliases", found: m.aliases, max: limits.maxAliases };
  if (m.cost > limits.maxCost) return { limit: "cost", found: Number.MAX_VALUE, max: limits.maxCost };
  return undefined;
}

/** Measures a document as a request runs it (its page-size variables applied) and says which limit it passes, if any. */
export function checkDocument(
  schema: GraphQLSchema,
  doc: DocumentNode,
  variables: Record<string, unknown>,
  limits: GraphqlLimits,
): { measure: GraphqlMeasure; breach: GraphqlLimitBreach | undefined } {
  const measure = measureDocument(schema, doc, costDocument(schema, doc, variables, limits), limits.scalarCost);
  return { measure, breach: breachOf(measure, limits) };
}
