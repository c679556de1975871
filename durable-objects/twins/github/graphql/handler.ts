// POST /graphql (and /api/graphql, GitHub Enterprise's path): parse within the platform's bounds,
// validate against the twin's schema, check GitHub's node limit and price the call, then execute
// synchronously over the world. Errors come back as GitHub sends them: HTTP 200 with `errors`
// (and the partial `data` when execution ran). The tape row names the root fields selected.
import { GraphQLError, Kind, execute, type DocumentNode, type OperationDefinitionNode } from "graphql";
import { validateAsGithub } from "./validation";
import { pageVariables, parseBounded } from "../../kit/graphql-limits";
import { jsonDepth } from "../../kit/json-depth";
import { jsonResponse } from "../../kit/response";
import type { TwinContext, TwinRequest, TwinResponse } from "../../types";
import { ghError } from "../errors";
import { Unsupported, makeGql } from "./context";
import { type GithubErrorBody, errorsOnly, executionError } from "./errors";
import { countGraphqlPoints } from "../rate-limit";
import { GITHUB_DOCUMENT_LIMITS, documentBreach, measureCall } from "./limits";
import { parseErrorBody, validationErrorBody } from "./messages";
import { fieldResolver, githubSchema } from "./schema";
import { pickOperation, rootFields } from "../../kit/graphql-operation";

export const GRAPHQL_PATHS = ["/graphql", "/api/graphql"];
const DOCS = "https://docs.github.com/graphql";

interface Body {
  query: string;
  variables: Record<string, unknown>;
  operationName: string | undefined;
}

/** Far deeper than any variables GitHub's inputs take, well short of what overflows graphql-js. */
const MAX_BODY_DEPTH = 64;

const bodies = new WeakMap<TwinRequest, Body | TwinResponse>();

function readBody(req: TwinRequest): Body | TwinResponse {
  let body = bodies.get(req);
  if (!body) {
    body = parseBody(req.body);
    bodies.set(req, body);
  }
  return body;
}

function parseBody(text: string): Body | TwinResponse {
  if (jsonDepth(text) > MAX_BODY_DEPTH) return ghError(400, "Problems parsing JSON", {}, DOCS);
  let raw: unknown;
  try {
    raw = text ? JSON.parse(text) : undefined;
  } catch {
    return ghError(400, "Problems parsing JSON", {}, DOCS);
  }
  const query = typeof raw === "object" && raw !== null ? (raw as { query?: unknown }).query : undefined;
  if (typeof query !== "string") return errorsOnly([{ message: "A query attribute must be specified and must be a string." }]);
  const { variables, operationName } = raw as { variables?: unknown; operationName?: unknown };
  return {
    query,
    variables:
      typeof variables === "object" && variables !== null && !Array.isArray(variables) ? (variables as Record<string, unknown>) : {},
    operationName: typeof operationName === "string" && operationName ? operationName : undefined,
  };
}

/** Parsed documents by text, with their validation errors: clients send the same few over and over. */
interface Known {
  doc: DocumentNode;
  errors?: readonly GraphQLError[];
  /** The variables its page sizes read, and its measures by their values (a few kept). */
  pageVariables?: string[];
  measures: Map<string, Measures>;
}

interface Measures {
  breach: ReturnType<typeof documentBreach>;
  call?: ReturnType<typeof measureCall>;
}

const MEASURES_KEPT = 8;

/** The bounds and node count of a document with these page sizes, measured once per page sizes. */
function measuresOf(k: Known, variables: Record<string, unknown>, operationName: string | undefined): Measures {
  k.pageVariables ??= pageVariables(k.doc);
  const key = JSON.stringify([operationName ?? null, ...k.pageVariables.map((name) => variables[name] ?? null)]);
  let m = k.measures.get(key);
  if (!m) {
    m = { breach: documentBreach(githubSchema(), k.doc, variables) };
    if (k.measures.size < MEASURES_KEPT) k.measures.set(key, m);
  }
  return m;
}
const documents = new Map<string, Known>();
const DOCUMENT_CACHE = 128;

function known(text: string): Known {
  let hit = documents.get(text);
  if (!hit) {
    hit = { doc: parseBounded(text, GITHUB_DOCUMENT_LIMITS), measures: new Map() };
    if (documents.size >= DOCUMENT_CACHE) documents.delete(documents.keys().next().value ?? "");
    documents.set(text, hit);
  }
  return hit;
}

function pickedOf(req: TwinRequest): OperationDefinitionNode | undefined {
  const body = readBody(req);
  if ("status" in body) return undefined;
  try {
    return pickOperation(known(body.query).doc, body.operationName);
  } catch {
    return undefined;
  }
}

/** The root fields a GraphQL call selects (`createIssue`), for seeded faults and the tape; undefined when unreadable. */
export function graphqlOperationOf(req: TwinRequest): string | undefined {
  if (!GRAPHQL_PATHS.includes(req.path) || req.method !== "POST") return undefined;
  const body = readBody(req);
  if ("status" in body) return undefined;
  const op = pickedOf(req);
  return op ? rootFields(known(body.query).doc, op).join(",") || undefined : undefined;
}

/** Whether a GraphQL call only reads: anything but a mutation. Other paths go by their method. */
export function graphqlReadsOnly(req: TwinRequest): boolean | undefined {
  if (!GRAPHQL_PATHS.includes(req.path)) return undefined;
  return pickedOf(req)?.operation !== "mutation";
}

const tagged = (res: TwinResponse, operation: string, unsupported = false): TwinResponse => ({
  ...res,
  operation,
  ...(unsupported ? { unsupported: true } : {}),
});

/** Whether the operation asks `rateLimit(dryRun: true)`: GitHub then prices it without running it. */
function isDryRun(op: OperationDefinitionNode, vars: Record<string, unknown>): boolean {
  return op.selectionSet.selections.some(
    (s) =>
      s.kind === Kind.FIELD &&
      s.name.value === "rateLimit" &&
      (s.arguments ?? []).some(
        (a) =>
          a.name.value === "dryRun" &&
          ((a.value.kind === Kind.BOOLEAN && a.value.value) || (a.value.kind === Kind.VARIABLE && vars[a.value.name.value] === true)),
      ),
  );
}

export function graphqlHandler(ctx: TwinContext): TwinResponse {
  const body = readBody(ctx.req);
  if ("status" in body) return tagged(body, "invalid");
  let k: Known;
  try {
    k = known(body.query);
  } catch (err) {
    const e = err instanceof GraphQLError ? err : new GraphQLError("Document is nested too deeply.");
    return tagged(errorsOnly([parseErrorBody(body.query, e)]), "invalid");
  }
  const schema = githubSchema();
  const op = pickOperation(k.doc, body.operationName);
  const operation = op ? rootFields(k.doc, op).join(",") || "invalid" : "invalid";
  const measures = measuresOf(k, body.variables, body.operationName);
  const { breach } = measures;
  if (breach.early) return tagged(errorsOnly([breach.early]), operation);
  k.errors ??= validateAsGithub(schema, k.doc);
  if (k.errors.length) return tagged(errorsOnly(k.errors.map(validationErrorBody)), operation);
  if (!op) {
    const message = body.operationName
      ? `No operation named "${body.operationName}"`
      : "An operation name is required when the document has more than one operation.";
    return tagged(errorsOnly([{ message }]), "invalid");
  }
  if (op.operation === "subscription")
    return tagged(ghError(501, "The GitHub twin does not implement GraphQL subscriptions", {}, DOCS), operation, true);
  measures.call ??= measureCall(schema, k.doc, op, body.variables);
  const measure = measures.call;
  if (measure.errors.length) return tagged(errorsOnly(measure.errors), operation);
  if (breach.late) return tagged(errorsOnly([breach.late]), operation);
  // The points are spent before the call runs, so its own `rateLimit` and headers include them.
  countGraphqlPoints(ctx, measure.cost);
  const gql = makeGql(ctx, { cost: measure.cost, nodeCount: measure.nodeCount, dryRun: isDryRun(op, body.variables) });
  const result = execute({
    schema,
    document: k.doc,
    variableValues: body.variables,
    operationName: body.operationName,
    contextValue: gql,
    fieldResolver,
  });
  // Every resolver answers synchronously, so execute() does too.
  if (result instanceof Promise) throw new Error("GraphQL execution failed to complete synchronously.");
  const unsupported = result.errors?.find((e) => e.originalError instanceof Unsupported)?.originalError;
  if (unsupported instanceof Unsupported) return tagged(ghError(501, unsupported.message, {}, DOCS), operation, true);
  if (!result.errors?.length) return tagged(jsonResponse(200, { data: result.data }), operation);
  // Variables that do not coerce stop the call before it runs (no data), as on GitHub.
  const errors: GithubErrorBody[] = result.errors.map((e) => (result.data === undefined ? validationErrorBody(e) : executionError(e)));
  return tagged(jsonResponse(200, result.data === undefined ? { errors } : { data: result.data, errors }), operation);
}
