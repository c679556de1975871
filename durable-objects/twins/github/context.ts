// Small helpers every GitHub route uses: the route wrapper, URLs, ids, time and body parsing.
import type { Route, TwinContext, TwinResponse } from "../types";
import { GithubHttpError, fail, ghError, ghJson } from "./errors";
import { authenticatedLogin as actorOf, nextId as nextIdIn, toIso, type Store } from "./store/base";

export function route(method: string, pattern: string, operation: string, summary: string, handler: (ctx: TwinContext) => TwinResponse): Route {
  return {
    method,
    pattern,
    operation,
    summary,
    handler(ctx) {
      try {
        return handler(ctx);
      } catch (err) {
        if (err instanceof GithubHttpError) return err.response;
        throw err;
      }
    },
  };
}

/** GitHub's timestamps: second resolution, `Z`. */
export const isoNow = (ctx: TwinContext) => toIso(ctx.clock.now());

export const nextId = (ctx: TwinContext): number => nextIdIn(ctx.db);

export const authenticatedLogin = (ctx: TwinContext) => actorOf(ctx.db);

/** The state functions' view of this call: its tables, its moment, its actor. */
export const storeOf = (ctx: TwinContext): Store => ({ db: ctx.db, now: isoNow(ctx), actor: authenticatedLogin(ctx) });

/** The JSON body of a request; Octokit sends an empty body for parameterless PUT/PATCH. */
export function jsonBody(ctx: TwinContext): Record<string, unknown> {
  const value = jsonValue(ctx);
  if (value === undefined) return {};
  if (value && typeof value === "object" && !Array.isArray(value)) return value as Record<string, unknown>;
  return fail(ghError(400, "Problems parsing JSON"));
}

/** The body as any JSON value (some endpoints take a bare array); undefined when empty. */
export function jsonValue(ctx: TwinContext): unknown {
  const text = ctx.req.body.trim();
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return fail(ghError(400, "Problems parsing JSON"));
  }
}

export const ok = (body: unknown, status = 200, headers: Record<string, string> = {}) => ghJson(status, body, headers);

/** The API root of this sandbox's GitHub (absolute, so agents can follow every `url`). */
export const apiUrl = (ctx: TwinContext, path = "") => `${ctx.req.baseUrl}${path}`;
/** The web URLs GitHub returns in `html_url`. */
export const htmlUrl = (path = "") => `https://github.com${path}`;
