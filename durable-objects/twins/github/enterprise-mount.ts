// GitHub Enterprise Server serves the REST API under /api/v3 (and GraphQL under /api/graphql), so
// enterprise-aware clients (`new Octokit({ baseUrl: <host>/api/v3 })`, the gh command-line tool
// with GH_HOST) reach it there. The twin answers every route it serves under that prefix too: one
// route per method takes the rest of the path and runs the route it names, taped under that
// route's own operation, so an agent's calls read the same on the tape either way.
import { z } from "zod";
import { TwinError } from "../kit/response";
import { createMatcher } from "../router";
import type { Route, TwinContext, TwinRequest, TwinResponse } from "../types";
import { route } from "./context";

export const ENTERPRISE_PREFIX = "/api/v3";
export const ENTERPRISE_OPERATION = "enterprise.mount";

/** The routes of `served` under ENTERPRISE_PREFIX, one per method they use. */
export function enterpriseMount(served: readonly Route[], notImplemented: (req: TwinRequest) => TwinResponse): Route[] {
  const match = createMatcher(served);
  const methods = [...new Set(served.map((r) => r.method))];
  return methods.map((method) => ({
    ...route(
      method,
      `${ENTERPRISE_PREFIX}/*path`,
      ENTERPRISE_OPERATION,
      `Every ${method} route under ${ENTERPRISE_PREFIX} (GitHub Enterprise Server's path)`,
      (ctx) => runMounted(ctx, match, notImplemented),
    ),
    // Its one input is the rest of the path; the route that path names reads and checks the rest.
    declaration: {
      params: z.object({ path: z.string().describe(`A REST path below ${ENTERPRISE_PREFIX}, e.g. repos/acme/api/issues`) }),
      query: z.object({}),
      bodyEncoding: "json" as const,
    },
  }));
}

/** The path a call names below the prefix, as sent (not decoded twice). */
export const mountedPath = (path: string) => path.slice(ENTERPRISE_PREFIX.length) || "/";

function runMounted(
  ctx: TwinContext,
  match: ReturnType<typeof createMatcher>,
  notImplemented: (req: TwinRequest) => TwinResponse,
): TwinResponse {
  const path = mountedPath(ctx.req.path);
  const found = match(ctx.req.method, path);
  if (!found) {
    const refusal = notImplemented({ ...ctx.req, path });
    return { ...refusal, operation: refusal.operation ?? "unsupported", unsupported: true };
  }
  const operation = found.route.operation;
  try {
    const res = found.route.handler({ ...ctx, params: found.params });
    return { ...res, operation: res.operation ?? operation };
  } catch (err) {
    if (err instanceof TwinError) return { ...err.response, operation };
    throw err;
  }
}

/** The operation a call under the prefix runs (for seeded faults); undefined elsewhere. */
export function mountedOperationOf(served: readonly Route[]): (req: TwinRequest) => string | undefined {
  let match: ReturnType<typeof createMatcher> | undefined;
  return (req) => {
    if (!req.path.startsWith(`${ENTERPRISE_PREFIX}/`)) return undefined;
    match ??= createMatcher(served);
    return match(req.method, mountedPath(req.path))?.route.operation;
  };
}
