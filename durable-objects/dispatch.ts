// Runs one call against one twin: match the route, run its handler, shape the tape entry.
// Pure over its inputs (a Db and a clock); the Sandbox wraps it in a transaction with the tape.
import type { Db } from "./sql";
import { enqueueWebhook } from "./outbox";
import { type EgressPolicy, checkEgress, egressPolicyFrom, withOwnOrigin } from "./egress";
import { type Savepoint, faultFor, fireDue, recordDeliveryFailure, schedule } from "./timed";
import { TwinError } from "./twins/kit/response";
import { MAX_RESPONSE_BODY_BYTES, overBytes } from "./twins/kit/response-bounds";
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

/** Whether a call only reads the world: by the twin's word, else by its method (TwinDefinition.readsOnly). */
export const readsOnly = (twin: TwinDefinition, req: TwinRequest): boolean =>
  twin.readsOnly?.(req) ?? (req.method === "GET" || req.method === "HEAD");

export interface DispatchResult {
  response: TwinResponse;
  tape: Omit<TapeEntry, "at">;
}

/** The request half of a tape entry, keeping the headers the platform and this twin's vendor want. */
export function requestEntry(twin: TwinDefinition, req: TwinRequest) {
  const headers = tapeHeaders(req.headers, twin.tapeHeaders);
  return { twin: twin.id, transport: req.transport, method: req.method, path: req.path, query: req.query, headers, requestBody: req.body };
}

/** The refusal sent (and taped) instead of an answer over the response bound, in the twin's own shape. */
const responseTooLarge = (twin: TwinDefinition): TwinResponse => twin.errors.responseTooLarge(MAX_RESPONSE_BODY_BYTES);

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

/** What the sandbox around a call provides: its egress policy and a savepoint for deliveries. */
export interface DispatchHost {
  egress: EgressPolicy;
  savepoint?: Savepoint;
}

/** A harness that runs twins without a Sandbox gets the local default: loopback receivers only. */
const HARNESS_HOST: DispatchHost = { egress: egressPolicyFrom({ ENVIRONMENT: "development" }) };

/**
 * Serves one call: deliveries due before it fire first (they are not part of the call), then a
 * seeded fault or the route's handler answers. `twinFor` finds the twin a delivery belongs to.
 */
export function dispatch(
  twin: TwinDefinition,
  db: Db,
  clock: Clock,
  req: TwinRequest,
  call: { sessionId: string; seq: number },
  twinFor: (id: string) => TwinDefinition | undefined = (id) => (id === twin.id ? twin : undefined),
  host: DispatchHost = HARNESS_HOST,
): DispatchResult {
  const base = requestEntry(twin, req);
  fireDue(db, clock, twinFor, true, host.savepoint);
  const match = matchRoute(twin, req.method, req.path);
  if (!match) {
    // The twin may name the vendor operation that was asked for (`operation` on its answer), so
    // the tape says what the agent reached for; otherwise the row reads `unsupported`.
    const { operation: asked, unsupported: _unsupported, ...response } = twin.errors.notImplemented(req);
    return {
      response,
      tape: {
        ...base,
        status: response.status,
        responseBody: response.body,
        mutated: false,
        fidelity: "unsupported",
        operation: asked ?? "unsupported",
      },
    };
  }
  const operation = twin.operationOf?.(req) ?? match.route.operation;
  const fault = faultFor(db, twin, operation, req);
  if (fault) {
    return {
      response: fault,
      tape: { ...base, status: fault.status, responseBody: fault.body, mutated: false, fidelity: "supported", operation },
    };
  }
  const writesBefore = db.rowsWritten;
  let query: URLSearchParams | undefined;
  let policy: EgressPolicy | undefined;
  // Built when a handler first asks: most calls never register or send a webhook.
  const egress = (url: string) => {
    if (!policy) policy = withOwnOrigin(host.egress, req.baseUrl);
    return checkEgress(url, policy);
  };
  const response = runHandler(match, {
    db,
    clock,
    req,
    params: match.params,
    // Made when a handler first reads it: most calls of some twins (GraphQL, JSON-RPC) never do.
    get query() {
      query ??= new URLSearchParams(req.query);
      return query;
    },
    sessionId: call.sessionId,
    seq: call.seq,
    schedule: (kind, payload, after) => schedule(db, twin.id, kind, payload, after, clock.now()),
    webhook: (delivery) => {
      // A URL the policy refuses is never queued (it names this call's origin, say): recorded instead.
      const verdict = egress(delivery.url);
      if (verdict.allowed) enqueueWebhook(db, twin.id, delivery);
      else recordDeliveryFailure(db, twin.id, "webhook", clock.now(), `refused by the egress policy: ${verdict.reason}`);
    },
    egress,
    fault: (inner, innerReq) => faultFor(db, twin, inner, innerReq),
    ...(host.savepoint ? { savepoint: host.savepoint } : {}),
  });
  const mutated = db.rowsWritten > writesBefore;
  // What this call scheduled with `{ calls: 0 }` lands with it.
  if (mutated) fireDue(db, clock, twinFor, false, host.savepoint);
  const { operation: answered, unsupported, ...built } = response;
  // No answer over the bound is sent or taped whole (kit/response-bounds.ts states the numbers).
  const wire = overBytes(built.body, MAX_RESPONSE_BODY_BYTES) ? responseTooLarge(twin) : built;
  return {
    response: wire,
    tape: {
      ...base,
      status: wire.status,
      responseBody: wire.body,
      mutated,
      fidelity: unsupported ? "unsupported" : "supported",
      operation: answered ?? operation,
    },
  };
}
