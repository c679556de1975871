// POST /graphql: parse, find the root fields, refuse the ones Linear has but the twin lacks (501),
// refuse a document over Linear's complexity limit (limits.ts) before anything else reads it,
// validate against the twin's schema (graphql-js's own messages), execute synchronously over the
// world, and shape errors the way Linear does. The tape row names the root fields selected.
import {
  GraphQLError,
  TypeInfo,
  execute,
  getNamedType,
  validate,
  visit,
  visitWithTypeInfo,
  type DocumentNode,
  type OperationDefinitionNode,
} from "graphql";
import { z } from "zod";
import type { TwinContext, TwinRequest, TwinResponse } from "../types";
import { parseBounded } from "../kit/graphql-limits";
import { jsonDepth } from "../kit/json-depth";
import { jsonResponse } from "../kit/response";
import { MAX_RESPONSE_BODY_BYTES } from "../kit/response-bounds";
import { makeGql } from "./context";
import {
  LinearFault,
  Unsupported,
  authenticationRequired,
  graphqlBody,
  notImplementedBody,
  responseTooLarge,
  type LinearErrorBody,
} from "./errors";
import { LINEAR_GRAPHQL_LIMITS, limitRefusal, measureFor, type LimitMemo } from "./limits";
import { RateMeter } from "./ratemeter";
import { viewerFor } from "./oauth";
import { fieldResolver, linearSchema, typeResolver, withTextBudget } from "./schema";
import { LINEAR_MUTATION_FIELDS, LINEAR_QUERY_FIELDS, LINEAR_UNSERVED_FIELDS } from "./schema-sdl";
import { pickOperation, rootFields } from "../kit/graphql-operation";

const graphqlError = (status: number, message: string, code: string, extra: Partial<LinearErrorBody> = {}): TwinResponse =>
  graphqlBody(
    status,
    [
      {
        message,
        ...extra,
        extensions: { type: "graphql error", code, statusCode: status, userError: true, userPresentableMessage: message },
      },
    ],
    false,
  );

const tagged = (res: TwinResponse, operation: string, unsupported = false): TwinResponse => ({
  ...res,
  operation,
  ...(unsupported ? { unsupported: true } : {}),
});

/**
 * What POST /graphql takes, the GraphQL-over-HTTP request: the route declares it (routes.ts), so
 * OpenAPI describes it. A `variables` or `operationName` of the wrong type reads as absent, as the
 * twin always read them; a body without a query string is Linear's "Must provide query string.".
 */
export const GRAPHQL_BODY = z.object({
  query: z.string().describe("The GraphQL document: one or more operations, and their fragments"),
  variables: z.record(z.string(), z.unknown()).optional().catch(undefined).describe("The document's variables, by name"),
  operationName: z.string().optional().catch(undefined).describe("Which operation of the document to run, when it holds several"),
});
export type GraphqlBody = z.output<typeof GRAPHQL_BODY>;

/** A body as read off the wire: its JSON, or Linear's refusal of it. */
export type RawBody = { json: unknown } | { refused: TwinResponse };

/** Request bodies already read, by request: the platform asks for the operation before the handler runs. */
const bodies = new WeakMap<TwinRequest, RawBody>();

/** The request's body as JSON, read once per request. */
export function rawBody(req: TwinRequest): RawBody {
  let body = bodies.get(req);
  if (!body) {
    body = readJson(req.body);
    bodies.set(req, body);
  }
  return body;
}

/** Far deeper than any input within the filter bounds (linear/filters.ts), and well short of what overflows graphql-js. */
const MAX_BODY_DEPTH = 512;

function readJson(text: string): RawBody {
  // graphql-js coerces variables recursively: input nested past any filter Linear takes is refused first.
  if (jsonDepth(text) > MAX_BODY_DEPTH)
    return {
      refused: graphqlError(400, `Argument Validation Error: the request nests deeper than ${MAX_BODY_DEPTH} levels.`, "BAD_REQUEST"),
    };
  try {
    return { json: text ? (JSON.parse(text) as unknown) : undefined };
  } catch {
    return { refused: notJson() };
  }
}

export const notJson = (): TwinResponse => graphqlError(400, "The request body is not valid JSON.", "BAD_REQUEST");

/** Linear's answer to a body GRAPHQL_BODY refuses: not an object, or no query string in it. */
export const noQueryString = (): TwinResponse => graphqlError(400, "Must provide query string.", "BAD_REQUEST");

/**
 * A body refused before its document is read, answered as Linear answers it: an unknown caller
 * hears that first (401), and a known one's refusal carries its rate-limit headers, charged as a
 * request of no complexity.
 */
export function refusedBody(ctx: TwinContext, refusal: TwinResponse): TwinResponse {
  const viewerId = viewerFor(ctx);
  if (!viewerId) return tagged(authenticationRequired(), "unauthenticated");
  return new RateMeter(ctx, viewerId).decorate(tagged(refusal, "invalid"));
}

function errorBody(e: GraphQLError): LinearErrorBody {
  const orig = e.originalError;
  // Linear's resolver errors carry the field's path, not its location in the query.
  if (orig instanceof LinearFault) return { message: orig.message, path: e.path, extensions: orig.extensions };
  // Anything else thrown below a resolver is the twin's own failure (a stack overflow on input
  // nested past every bound, a storage error): its text never reaches the caller.
  if (orig && !(orig instanceof GraphQLError)) {
    console.warn("linear resolver failed", e.path, orig);
    const message = orig instanceof RangeError ? "Argument Validation Error: input nested too deeply" : "Argument Validation Error";
    return {
      message,
      path: e.path,
      extensions: { type: "invalid input", code: "INPUT_ERROR", statusCode: 400, userError: true, userPresentableMessage: message },
    };
  }
  return {
    message: e.message,
    path: e.path,
    locations: e.locations,
    extensions: { type: "graphql error", code: "GRAPHQL_ERROR", statusCode: 400, userError: true, userPresentableMessage: e.message },
  };
}

/** One operation of a document, with the root fields it selects (the tape's operation). */
interface Picked {
  op: OperationDefinitionNode | undefined;
  fields: string[];
}

interface Known {
  doc: DocumentNode;
  /** graphql-js's validation errors, once asked for. */
  errors?: readonly GraphQLError[];
  /** The operation picked for each operationName sent ("" for none). */
  picks: Map<string, Picked>;
  /** Its measure against Linear's limits, by the page sizes a request gives it. */
  limits: LimitMemo;
}

/**
 * Parsed documents, by query text, with their validation errors and picked operations: clients
 * send the same few documents over and over, and parsing plus validating a full SDK fragment
 * costs more than executing it. A text that does not parse is not kept (it throws each time).
 */
const documents = new Map<string, Known>();
const DOCUMENT_CACHE = 256;

function known(text: string): Known {
  let hit = documents.get(text);
  if (!hit) {
    hit = { doc: parseDocument(text), picks: new Map(), limits: { byPageSizes: new Map() } };
    if (documents.size >= DOCUMENT_CACHE) documents.delete(documents.keys().next().value ?? "");
    documents.set(text, hit);
  }
  return hit;
}

/**
 * Parses within the token limit. A document the parser cannot take (a nesting deeper than its
 * recursion, which the token limit keeps out in practice) is a syntax error like any other.
 */
function parseDocument(text: string): DocumentNode {
  try {
    return parseBounded(text, LINEAR_GRAPHQL_LIMITS);
  } catch (err) {
    if (err instanceof GraphQLError) throw err;
    throw new GraphQLError("Syntax Error: Document is nested too deeply.");
  }
}

function validated(k: Known): readonly GraphQLError[] {
  k.errors ??= validate(linearSchema(), k.doc);
  return k.errors;
}

function picked(k: Known, operationName: string | undefined): Picked {
  let p = k.picks.get(operationName ?? "");
  if (!p) {
    const op = pickOperation(k.doc, operationName);
    p = { op, fields: op ? rootFields(k.doc, op) : [] };
    // A document is sent under a name or two; any number of made-up names is not kept.
    if (k.picks.size < 8) k.picks.set(operationName ?? "", p);
  }
  return p;
}

/** The operation a /graphql request's body picks; undefined when the body or its document does not read. */
function pickedOf(req: TwinRequest): Picked | undefined {
  const raw = rawBody(req);
  if ("refused" in raw) return undefined;
  const body = GRAPHQL_BODY.safeParse(raw.json);
  if (!body.success) return undefined;
  try {
    return picked(known(body.data.query), body.data.operationName);
  } catch {
    return undefined;
  }
}

/** The root fields a /graphql request selects (`issueCreate`), for seeded faults; undefined when unreadable. */
export function graphqlOperationOf(req: TwinRequest): string | undefined {
  if (req.path !== "/graphql") return undefined;
  const p = pickedOf(req);
  return p?.op ? p.fields.join(",") || undefined : undefined;
}

/**
 * Whether a call only reads: anything but a /graphql mutation. A body the handler refuses (not
 * JSON, no parse) is refused without a write, so it reads only too. Other paths go by their method.
 */
export function graphqlReadsOnly(req: TwinRequest): boolean | undefined {
  if (req.path !== "/graphql") return undefined;
  return pickedOf(req)?.op?.operation !== "mutation";
}

/** POST /graphql with its body read and declared well formed (a refused body is `refusedBody`'s). */
export function graphqlHandler(ctx: TwinContext, body: GraphqlBody): TwinResponse {
  const viewerId = viewerFor(ctx);
  if (!viewerId) return tagged(authenticationRequired(), "unauthenticated");
  // Every authenticated answer carries Linear's rate-limit headers (ratelimit.ts), refusals too.
  const meter = new RateMeter(ctx, viewerId);
  const res = serveGraphql(ctx, body, viewerId, meter);
  return meter.decorate(res);
}

function serveGraphql(ctx: TwinContext, body: GraphqlBody, viewerId: string, meter: RateMeter): TwinResponse {
  const variables = body.variables ?? {};
  let k: Known;
  try {
    k = known(body.query);
  } catch (err) {
    const e = err instanceof GraphQLError ? err : new GraphQLError(String(err));
    return tagged(graphqlError(400, e.message, "GRAPHQL_PARSE_FAILED", { locations: e.locations }), "invalid");
  }
  const { doc } = k;
  const { op, fields } = picked(k, body.operationName);
  const schema = linearSchema();
  // Measured over every operation of the document, before graphql-js's own rules (some of which
  // cost more than linear time) or any resolver runs.
  const { complexity, breach } = measureFor(schema, doc, variables, k.limits);
  if (breach) return tagged(limitRefusal(breach), op ? fields.join(",") || "invalid" : "invalid");
  // The hourly buckets pay for the request and its complexity before anything runs.
  const limited = meter.admit(complexity);
  if (limited) return tagged(limited, op ? fields.join(",") || "invalid" : "invalid");
  if (op) {
    const operation = fields.join(",") || "invalid";
    const root = op.operation === "mutation" ? schema.getMutationType() : op.operation === "query" ? schema.getQueryType() : undefined;
    const linearHas = op.operation === "mutation" ? LINEAR_MUTATION_FIELDS : op.operation === "query" ? LINEAR_QUERY_FIELDS : [];
    if (op.operation === "subscription") return tagged(notImplementedBody("GraphQL subscriptions"), operation, true);
    const missing = fields.filter((f) => !root?.getFields()[f] && linearHas.includes(f));
    if (missing.length)
      return tagged(
        notImplementedBody(`the ${op.operation} field${missing.length > 1 ? "s" : ""} ${missing.map((m) => `\`${m}\``).join(", ")}`),
        operation,
        true,
      );
    const errors = validated(k);
    if (errors.length) {
      const unserved = unservedFields(doc);
      if (unserved.length)
        return tagged(
          notImplementedBody(`the field${unserved.length > 1 ? "s" : ""} ${unserved.map((f) => `\`${f}\``).join(", ")}`),
          operation,
          true,
        );
      return tagged(validationFailed(errors), operation);
    }
    // The resolvers never return a promise, so execute() completes synchronously. Past the
    // response bound, fields resolve empty so the answer stops growing, and the call is refused.
    const { result, over } = withTextBudget(MAX_RESPONSE_BODY_BYTES, () =>
      execute({
        schema,
        document: doc,
        variableValues: variables,
        operationName: body.operationName,
        contextValue: makeGql(ctx, viewerId, meter.status),
        fieldResolver,
        typeResolver,
      }),
    );
    if (result instanceof Promise) throw new Error("GraphQL execution failed to complete synchronously.");
    if (over) return tagged(responseTooLarge(MAX_RESPONSE_BODY_BYTES), operation);
    const unsupported = result.errors?.find((e) => e.originalError instanceof Unsupported);
    if (unsupported?.originalError instanceof Unsupported)
      return tagged(notImplementedBody(unsupported.originalError.what), operation, true);
    if (result.errors?.length) {
      const bodies = result.errors.map(errorBody);
      const status = bodies[0].extensions.statusCode ?? 400;
      return tagged(jsonResponse(status, { errors: bodies, data: result.data ?? null }), operation);
    }
    return tagged(jsonResponse(200, { data: result.data }), operation);
  }
  const errors = validated(k);
  if (errors.length) return tagged(validationFailed(errors), "invalid");
  return tagged(graphqlError(400, "Must provide operation name if query contains multiple operations.", "BAD_REQUEST"), "invalid");
}

/** Fields the query selects that Linear has on that type but the twin does not serve (`Issue.history`). */
function unservedFields(doc: DocumentNode): string[] {
  const info = new TypeInfo(linearSchema());
  const out: string[] = [];
  visit(
    doc,
    visitWithTypeInfo(info, {
      Field(node) {
        const parent = info.getParentType();
        if (!parent || info.getFieldDef()) return;
        const name = getNamedType(parent).name;
        if (LINEAR_UNSERVED_FIELDS[name]?.includes(node.name.value)) out.push(`${name}.${node.name.value}`);
      },
    }),
  );
  return [...new Set(out)];
}

function validationFailed(errors: readonly GraphQLError[]): TwinResponse {
  return graphqlBody(
    400,
    errors.map((e) => ({
      message: e.message,
      locations: e.locations,
      extensions: { type: "graphql error", code: "GRAPHQL_VALIDATION_FAILED" },
    })),
    false,
  );
}
