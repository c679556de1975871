// Small helpers every GitHub route uses: the route wrapper, URLs, ids, time and body parsing.
import type { Route, TwinContext, TwinResponse } from "../types";
import { conditional } from "./conditional";
import { metered, rateClassOf } from "./rate-limit";
import { lastModifiedHeader } from "./conditional";
import { ghJson } from "./errors";
import { authenticatedLogin as actorOf, nextId as nextIdIn, toIso, type Store } from "./store/base";

/** One entry of the route table; a refusal thrown below the handler is answered by dispatch. */
export function route(
  method: string,
  pattern: string,
  operation: string,
  summary: string,
  handler: (ctx: TwinContext) => TwinResponse,
): Route {
  // Every answer gets its ETag (and a GET its 304) here, once for all routes, and its call is
  // counted in its rate-limit bucket.
  const rate = rateClassOf(pattern);
  return { method, pattern, operation, summary, handler: (ctx) => metered(ctx, rate, () => conditional(ctx, handler(ctx))) };
}

/** GitHub's timestamps: second resolution, `Z`. */
export const isoNow = (ctx: TwinContext) => toIso(ctx.clock.now());

export const nextId = (ctx: TwinContext): number => nextIdIn(ctx.db);

export const authenticatedLogin = (ctx: TwinContext) => actorOf(ctx.db);

/** The state functions' view of this call: its tables, its moment, its actor. */
export const storeOf = (ctx: TwinContext): Store => ({ db: ctx.db, now: isoNow(ctx), actor: authenticatedLogin(ctx) });

/** The JSON body of a request; Octokit sends an empty body for parameterless PUT/PATCH. */
export { jsonBody, jsonValue } from "./input";

/** A successful JSON answer; a single resource's `updated_at` is its `Last-Modified` (conditional.ts). */
export const ok = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  ghJson(status, body, { ...lastModifiedHeader(body), ...headers });

/** The API root of this sandbox's GitHub (absolute, so agents can follow every `url`). */
export const apiUrl = (ctx: TwinContext, path = "") => `${ctx.req.baseUrl}${path}`;
/** The web URLs GitHub returns in `html_url`. */
export const htmlUrl = (path = "") => `https://github.com${path}`;
