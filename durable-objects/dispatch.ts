// Runs one call against one twin: match the route, run its handler, shape the tape entry.
// Pure over its inputs (a Db and a clock); the Sandbox wraps it in a transaction with the tape.
import type { Db } from "./sql";
import { TwinError } from "./twins/kit/response";
import { createMatcher, type RouteMatch } from "./twins/router";
import type { Clock, TwinDefinition, TwinRequest, TwinResponse } from "./twins/types";
import { tapeHeaders, type TapeEntry } from "./tape";

const matchers = new WeakMap<TwinDefinition, (method: string, path: string) => RouteMatch | undefined>();

function matcherFor(twin: TwinDefinition) {
  let matcher = matchers.get(twin);
  if (!matcher) {
    matcher = createMatcher(twin.routes);
    matchers.set(twin, matcher);
  }
  return matcher;
}

export function matchRoute(twin: TwinDefinition, method: string, path: string): RouteMatch | undefined {
  return matcherFor(twin)(method, path);
}

export interface DispatchResult {
  response: TwinResponse;
  tape: Omit<TapeEntry, "at">;
}

/** The request half of a tape entry, keeping the headers the platform and this twin's vendor want. */
export function requestEntry(twin: TwinDefinition, req: TwinRequest) {
  const headers = tapeHeaders(req.headers, twin.tapeHeaders);
  return { twin: twin.id, transport: req.transport, method: req.method, path: req.path, query: req.query, headers, requestBody: req.body };
}

/** Runs a route's handler; a refusal thrown anywhere below it is the vendor-shaped answer it carries. */
function runHandler(match: RouteMatch, ctx: Parameters<RouteMatch["route"]["handler"]>[0]) {
  try {
    return match.route.handler(ctx);
  } catch (err) {
    if (!(err instanceof TwinError)) throw err;
    if (err.cause !== undefined) console.warn("twin refused a call", ctx.req.method, ctx.req.path, err.cause);
    return err.response;
  }
}

export function dispatch(twin: TwinDefinition, db: Db, clock: Clock, req: TwinRequest, sessionId: string): DispatchResult {
  const base = requestEntry(twin, req);
  const match = matchRoute(twin, req.method, req.path);
  if (!match) {
    const response = twin.errors.notImplemented(req);
    return {
      response,
      tape: { ...base, status: response.status, responseBody: response.body, mutated: false, fidelity: "unsupported", operation: "unsupported" },
    };
  }
  const writesBefore = db.rowsWritten;
  const response = runHandler(match, { db, clock, req, params: match.params, query: new URLSearchParams(req.query), sessionId });
  return {
    response,
    tape: {
      ...base,
      status: response.status,
      responseBody: response.body,
      mutated: db.rowsWritten > writesBefore,
      fidelity: "supported",
      operation: match.route.operation,
    },
  };
}
