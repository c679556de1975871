// The control MCP at `/mcp`: the coach's run loop (list_checks, save_task, run_task, run_trials,
// finalize_run, get_report, list_runs, register_agent), authenticated with the team API key.
import type { Context, Hono } from "hono";
import type { AppEnv } from "../app-env";
import { authenticateTeamKey } from "../auth";
import { bearerFrom } from "../credentials";
import { ApiError, errorResponse, requestIdOf } from "../errors";
import { v1Client, type Fetcher } from "./control-api";
import { registerControlTools } from "./control-tools";
import { newMcpServer, readJsonRpc, serveStateless } from "./serve";
import { requestUrl } from "../urls";

/** The router itself, so tools reach /v1 in-process rather than over the network. */
export type InProcessApp = Pick<Hono<AppEnv>, "fetch">;

const INSTRUCTIONS =
  "Pome's control plane for a coach agent. Loop: register_agent, save_task (or list_checks to write criteria that bind), run_task or run_trials, launch the examinee from examinee_launch, finalize_run the moment it idles, then get_report. After a fix, rerun with a new group_id, baseline_group_id set to the failing group, and a new agent_version.";

function refuse(err: ApiError, requestId: string): Response {
  const res = errorResponse(err, requestId);
  if (err.status === 401) res.headers.set("www-authenticate", 'Bearer realm="pome"');
  return res;
}

export async function controlMcpHandler(c: Context<AppEnv>, app: InProcessApp): Promise<Response> {
  const requestId = requestIdOf(c);
  const authorization = c.req.header("authorization") ?? "";
  const key = bearerFrom(authorization);
  if (!key?.startsWith("pme_"))
    return refuse(new ApiError("unauthorized", "Missing team API key: send Authorization: Bearer pme_…"), requestId);
  const settings = c.get("settings");
  try {
    const caller = await authenticateTeamKey(c.env, key, { development: settings.development, localQuota: settings.defaultSessionQuota });
    const fetcher: Fetcher = async (request) => app.fetch(request, c.env, c.executionCtx);
    const v1 = v1Client(fetcher, requestUrl(c).origin, `Bearer ${key}`);
    // A batch the SDK refuses whole is refused before any tool runs.
    const body = await readJsonRpc(c);
    if ("refusal" in body) return body.refusal;
    const server = newMcpServer("pome-control", INSTRUCTIONS);
    registerControlTools(server, { v1, env: c.env, teamId: caller.team.id, requestId });
    return await serveStateless(body.request, server, body.messages);
  } catch (err) {
    if (err instanceof ApiError) return refuse(err, requestId);
    throw err;
  }
}
