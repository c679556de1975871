// The batch endpoint, POST /batch/gmail/v1 (developers.google.com/gmail/api/guides/batch): each
// part's call is served by the twin's own route for it, in order, within the one call, and the
// answers go back as the parts of one multipart/mixed answer (batch-wire.ts).
//
// The batch is one call on the tape (operation `gmail.batch`): the tape records what went over the
// wire, and one HTTP request went. Grading reads Gmail's world after the run, which every inner
// call changed as it would on its own, and the tape's `fidelity`: an inner call the twin does not
// serve marks the batch's row unsupported, so `gmail.no-unsupported-endpoint` still sees it.
import { TwinError } from "../kit/response";
import { createMatcher } from "../router";
import type { Route, TwinContext, TwinRequest, TwinResponse } from "../types";
import { type BatchCall, isCall, MAX_BATCH_CALLS, type PartAnswer, readBatch, writeBatch } from "./batch-wire";
import { gmailRootRoute } from "./declare";
import { badRequest, fail, gError } from "./errors";
import { BATCH_PATH, PreparedBatch, ROOT_BATCH_PATH } from "./parse";

/** An inner call's answer, and whether the twin serves what it asked for. */
interface Served {
  response: TwinResponse;
  unsupported: boolean;
}

/** What Google's batch endpoint does not take inside a batch: another batch, a media upload. */
function refusedInside(call: BatchCall): TwinResponse | undefined {
  if (call.path.startsWith("/batch")) return badRequest("Nested batch requests are not allowed");
  if (call.path.startsWith("/upload/")) return badRequest("Media uploads are not allowed in a batch request");
  return undefined;
}

/** Serves one inner call through the route that serves it on its own. */
function serveCall(ctx: TwinContext, match: ReturnType<typeof createMatcher>, call: BatchCall, prepared: unknown): Served {
  const refused = refusedInside(call);
  if (refused) return { response: refused, unsupported: false };
  const found = match(call.method, call.path);
  if (!found) {
    // As the twin answers an unserved path on its own (index.ts `notImplemented`).
    const response = gError(404, `The Gmail twin does not implement ${call.method} ${call.path}`, "notImplemented");
    return { response, unsupported: true };
  }
  const req: TwinRequest = {
    ...ctx.req,
    method: call.method,
    path: call.path,
    query: call.query,
    headers: call.headers,
    body: call.body,
    prepared,
  };
  // A seeded fault answers the inner call it matches in that call's part, as it would the call
  // alone, counted with the calls sent alone (TwinContext.fault).
  const fault = ctx.fault(found.route.operation, req);
  if (fault) return { response: fault, unsupported: false };
  const inner: TwinContext = { ...ctx, req, params: found.params, query: new URLSearchParams(call.query) };
  try {
    // A refused call changes nothing, inside a batch as on its own: its writes are undone.
    const response = atomically(ctx, () => {
      const answer = found.route.handler(inner);
      if (answer.status >= 400) throw new TwinError(answer);
      return answer;
    });
    return { response, unsupported: response.unsupported === true };
  } catch (err) {
    if (err instanceof TwinError) return { response: err.response, unsupported: false };
    throw err;
  }
}

/** Runs `work` in a nested transaction where the platform gives one (a thrown refusal undoes its writes). */
const atomically = <T>(ctx: TwinContext, work: () => T): T => (ctx.savepoint ? ctx.savepoint(work) : work());

function serveBatch(ctx: TwinContext, match: ReturnType<typeof createMatcher>): TwinResponse {
  const batch =
    ctx.req.prepared instanceof PreparedBatch
      ? ctx.req.prepared
      : new PreparedBatch(readBatch(ctx.req.headers["content-type"], ctx.req.body), []);
  const read = batch.read;
  if (!("parts" in read)) return fail(badRequest(read.problem));
  if (read.parts.length > MAX_BATCH_CALLS)
    return fail(badRequest(`Inner request count exceeds the limit. Received: ${read.parts.length}, Limit: ${MAX_BATCH_CALLS}`));
  const answers: PartAnswer[] = [];
  let unsupported = false;
  read.parts.forEach((part, i) => {
    const served = isCall(part)
      ? serveCall(ctx, match, part, batch.prepared[i])
      : { response: badRequest(part.problem), unsupported: false };
    unsupported ||= served.unsupported;
    const { status, headers, body } = served.response;
    answers.push({ contentId: part.contentId, status, headers, body });
  });
  // Google's boundaries read `batch_` and an opaque token; this one is the call's place on the tape.
  const boundary = `batch_pome${ctx.seq}`;
  return {
    status: 200,
    headers: { "content-type": `multipart/mixed; boundary=${boundary}` },
    body: writeBatch(boundary, answers),
    ...(unsupported ? { unsupported: true } : {}),
  };
}

/**
 * The batch routes, serving their calls through `served` (every other route of the twin): Gmail's
 * documented `/batch/gmail/v1`, and `/batch`, where Google's Python client sends a batch by default
 * (the discovery document's rootUrl + batchPath). Both are one operation, `gmail.batch`.
 */
export function batchRoutes(served: readonly Route[]): Route[] {
  const match = createMatcher(served);
  return [BATCH_PATH, ROOT_BATCH_PATH].map((pattern) =>
    gmailRootRoute({
      method: "POST",
      pattern,
      operation: "gmail.batch",
      summary: "Run up to 100 calls in one multipart/mixed request",
      handler: (ctx) => serveBatch(ctx, match),
    }),
  );
}
