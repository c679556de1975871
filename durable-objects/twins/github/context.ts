// Small helpers every GitHub route uses: the route wrapper, URLs, ids, time and body parsing.
import type { Route, TwinContext, TwinResponse } from "../types";
import { GithubHttpError, fail, ghError, ghJson } from "./errors";

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
export const isoNow = (ctx: TwinContext) => new Date(ctx.clock.now()).toISOString().replace(/\.\d{3}Z$/, "Z");

export function nextId(ctx: TwinContext): number {
  const row = ctx.db.one<{ value: string }>("SELECT value FROM gh_meta WHERE key = 'next_id'");
  const id = Number(row?.value ?? 1);
  ctx.db.run("UPDATE gh_meta SET value = ? WHERE key = 'next_id'", String(id + 1));
  return id;
}

export const authenticatedLogin = (ctx: TwinContext) =>
  ctx.db.one<{ value: string }>("SELECT value FROM gh_meta WHERE key = 'authenticated_user'")?.value ?? "";

/** The JSON body of a request; Octokit sends an empty body for parameterless PUT/PATCH. */
export function jsonBody(ctx: TwinContext): Record<string, unknown> {
  const text = ctx.req.body.trim();
  if (!text) return {};
  try {
    const value: unknown = JSON.parse(text);
    if (value && typeof value === "object" && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // fall through
  }
  return fail(ghError(400, "Problems parsing JSON"));
}

export const ok = (body: unknown, status = 200, headers: Record<string, string> = {}) => ghJson(status, body, headers);

/** The API root of this sandbox's GitHub (absolute, so agents can follow every `url`). */
export const apiUrl = (ctx: TwinContext, path = "") => `${ctx.req.baseUrl}${path}`;
/** The web URLs GitHub returns in `html_url`. */
export const htmlUrl = (path = "") => `https://github.com${path}`;
