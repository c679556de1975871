// Twin traffic: authenticate the caller for one sandbox, then hand the call to that sandbox's
// Durable Object untouched. Two ways in (DESIGN.md §2): the prefixed `/<twin>/s/<ses>/…` form,
// and the credential-routed root form where the provider-shaped credential names the sandbox.
import type { Context } from "hono";
import { TWINS, TWIN_IDS, isTwinId } from "../durable-objects/twins/registry";
import type { TwinId, TwinRequest, TwinResponse } from "../durable-objects/twins/types";
import { ApiError } from "./errors";
import type { AppEnv } from "./app-env";
import { bearerFrom, parseProviderToken, verifyAgentToken } from "./credentials";
import { sandboxStub } from "./stubs";
import { twinsOrigin } from "./urls";

export interface TwinTarget {
  twin: TwinId;
  sessionId: string;
  /** Absolute URL the twin's own paths hang under (prefix form) or the origin (root form). */
  baseUrl: string;
  path: string;
}

/** A twin path naming no registered twin: the platform's own refusal, in its one error shape. */
export const unknownTwin = (twin: string | undefined) =>
  new ApiError("not_found", `There is no twin "${twin ?? ""}"; known twins: ${TWIN_IDS.join(", ")}`, { known_twins: TWIN_IDS });

/**
 * The answer to a root-form call whose credential opens no sandbox: the twin whose paths these
 * are refuses it in its vendor's shape; a path no twin claims gets the platform's 401.
 */
export function rootUnauthorized(path: string): Response {
  const owner = TWIN_IDS.map((id) => TWINS[id]).find((t) => t.claimsRootPath(path));
  if (owner) return toResponse(owner.errors.unauthorized("Bad credentials"));
  throw new ApiError("unauthorized", "The credential opens no sandbox: send a sandbox's agent_token or provider credential");
}

/** Who a twin credential belongs to: the sandbox, and for a provider token, its twin. */
export async function resolveTwinCredential(
  secrets: readonly string[],
  token: string | undefined,
): Promise<{ sessionId: string; twin?: TwinId; twins: TwinId[] } | null> {
  if (!token) return null;
  if (token.split(".").length === 3 && token.startsWith("eyJ")) {
    const claims = await verifyAgentToken(secrets, token);
    return claims ? { sessionId: claims.sessionId, twins: claims.twins } : null;
  }
  const provider = await parseProviderToken(secrets, token);
  return provider ? { sessionId: provider.sessionId, twin: provider.twin, twins: [provider.twin] } : null;
}

/** Whether a resolved credential opens this twin of this sandbox: the one rule for REST and MCP. */
export function credentialOpens(who: { sessionId: string; twin?: TwinId; twins: TwinId[] } | null, twin: TwinId, sessionId: string): boolean {
  return who !== null && who.sessionId === sessionId && (who.twin === undefined || who.twin === twin) && who.twins.includes(twin);
}

export function toResponse(res: TwinResponse): Response {
  return new Response(res.status === 204 || res.status === 304 ? null : res.body, { status: res.status, headers: res.headers });
}

const lowerHeaders = (headers: Headers) => {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    out[name.toLowerCase()] = value;
  });
  return out;
};

/** Forwards a request to a twin of a sandbox whose credential has been checked. */
export async function forwardToTwin(c: Context<AppEnv>, target: TwinTarget): Promise<Response> {
  const url = new URL(c.req.url);
  const { twin, sessionId } = target;
  if (target.path.startsWith("/_pome/")) {
    const what = target.path.slice("/_pome/".length);
    if (what === "openapi.json") return c.json(openapiFor(twin, target.baseUrl));
    if (what !== "state" && what !== "events" && what !== "health") return toResponse(TWINS[twin].errors.notImplemented({ method: c.req.method, path: target.path } as TwinRequest));
    return toResponse(await sandboxStub(c.env, sessionId).pome(twin, what, url.search.slice(1)));
  }
  const method = c.req.method.toUpperCase();
  const req: TwinRequest = {
    method,
    // A client with a trailing-slash base URL sends `//path`; the vendors answer those too.
    path: target.path.replace(/\/{2,}/g, "/") || "/",
    query: url.search.slice(1),
    headers: lowerHeaders(c.req.raw.headers),
    // Decoded from bytes: workerd warns on .text() of a form-encoded body, which some vendors send.
    body: method === "GET" || method === "HEAD" ? "" : new TextDecoder().decode(await c.req.arrayBuffer()),
    baseUrl: target.baseUrl,
    transport: TWINS[twin].transportFor?.(target.path) ?? "rest",
  };
  return toResponse(await sandboxStub(c.env, sessionId).twinCall(twin, req));
}

/** `/<twin>/s/<ses_id>/…`: the credential must belong to that very sandbox (and twin). */
export async function prefixedTwinHandler(c: Context<AppEnv>): Promise<Response> {
  const twin = c.req.param("twin");
  const sessionId = c.req.param("sid") ?? "";
  if (!isTwinId(twin)) throw unknownTwin(twin);
  const definition = TWINS[twin];
  const who = await resolveTwinCredential(c.get("settings").tokenSecrets, bearerFrom(c.req.header("authorization")));
  if (!credentialOpens(who, twin, sessionId)) {
    return toResponse(definition.errors.unauthorized("Bad credentials"));
  }
  const prefix = `/${twin}/s/${sessionId}`;
  const path = new URL(c.req.url).pathname.slice(prefix.length) || "/";
  return forwardToTwin(c, { twin, sessionId, baseUrl: `${twinsOrigin(c)}${prefix}`, path });
}

/**
 * The root form: the provider's own paths on the origin. A provider token names its twin; an
 * agent_token names its sandbox, and the twin is the one whose paths these are.
 */
export async function rootTwinHandler(c: Context<AppEnv>, token: string): Promise<Response | null> {
  const who = await resolveTwinCredential(c.get("settings").tokenSecrets, token);
  if (!who) return null;
  const path = new URL(c.req.url).pathname;
  const twin = who.twin ?? who.twins.find((t) => TWINS[t].claimsRootPath(path)) ?? who.twins[0];
  if (!twin) return null;
  return forwardToTwin(c, { twin, sessionId: who.sessionId, baseUrl: twinsOrigin(c), path });
}

function openapiFor(twin: TwinId, baseUrl: string) {
  const paths: Record<string, Record<string, { operationId: string; summary: string }>> = {};
  for (const route of TWINS[twin].routes) {
    const path = route.pattern.replace(/:([A-Za-z_]+)/g, "{$1}").replace(/\*([A-Za-z_]+)/g, "{$1}");
    paths[path] = { ...paths[path], [route.method.toLowerCase()]: { operationId: route.operation, summary: route.summary } };
  }
  return {
    openapi: "3.0.3",
    info: { title: `Pome ${twin} twin`, version: "1", description: "The routes this twin implements; any other route answers 501." },
    servers: [{ url: baseUrl }],
    paths,
  };
}
