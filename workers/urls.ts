import type { Context } from "hono";
import type { TwinId } from "../durable-objects/twins/registry";
import type { AppEnv } from "./app-env";
import type { Origins } from "./settings";

export type OriginRole = keyof Origins;

/**
 * The origin absolute URLs of one role are built on: its setting (API_ORIGIN, TWINS_ORIGIN,
 * DASHBOARD_ORIGIN, or PUBLIC_ORIGIN for all three), else the request's own origin. One Worker
 * answers on every hostname, so a URL only has to name the host its role is published under.
 */
export const originFor = (origins: Origins, role: OriginRole, requestUrl: URL) => origins[role] ?? requestUrl.origin;

const parsedUrls = new WeakMap<Request, URL>();

/**
 * The request's URL, parsed once: a twin call reads its path, query and origin in three places,
 * and each parse was a few hundredths of a millisecond of the call.
 */
export function requestUrl(c: Context<AppEnv>): URL {
  let url = parsedUrls.get(c.req.raw);
  if (!url) {
    url = new URL(c.req.url);
    parsedUrls.set(c.req.raw, url);
  }
  return url;
}

const roleOrigin = (role: OriginRole) => (c: Context<AppEnv>) => originFor(c.get("settings").origins, role, requestUrl(c));

/** The control plane's origin: /v1 links, report_url, signed blob URLs. */
export const apiOrigin = roleOrigin("api");
/** The twins' origin: api_url, mcp_url, openapi_url and the URLs in twins' own answers. */
export const twinsOrigin = roleOrigin("twins");
/** The run pages' origin: dashboard_url. */
export const dashboardOrigin = roleOrigin("dashboard");

export function twinUrlsAt(origin: string, twin: TwinId, sessionId: string) {
  const api = `${origin}/${twin}/s/${sessionId}`;
  return { api_url: api, mcp_url: `${api}/mcp`, openapi_url: `${api}/_pome/openapi.json` };
}

export const twinUrls = (c: Context<AppEnv>, twin: TwinId, sessionId: string) => twinUrlsAt(twinsOrigin(c), twin, sessionId);
