import type { Context } from "hono";
import type { TwinId } from "../durable-objects/twins/types";
import type { AppEnv } from "./app-env";

/** The origin absolute URLs are built on: the PUBLIC_ORIGIN setting, or the request's own. */
export const publicOrigin = (c: Context<AppEnv>) => c.get("settings").publicOrigin ?? new URL(c.req.url).origin;

export function twinUrls(c: Context<AppEnv>, twin: TwinId, sessionId: string) {
  const api = `${publicOrigin(c)}/${twin}/s/${sessionId}`;
  return { api_url: api, mcp_url: `${api}/mcp`, openapi_url: `${api}/_pome/openapi.json` };
}
