// What a coach hands the examinee: the task it sees (prompt and twins, never the criteria) and
// the launch spec (URLs, credentials and environment for a REST or an MCP examinee). The
// environment is the one `pome run` sets (cli/lib/examinee.mjs), never the team's API key.
import type { TwinId } from "../../durable-objects/twins/registry";

/** The fields of a POST /v1/sandboxes answer that a launch needs. */
export interface CreatedSandbox {
  session_id: string;
  expires_at: string;
  agent_token: string;
  twins: TwinId[];
  per_twin: Record<string, { api_url: string; mcp_url: string; openapi_url: string }>;
  provider_credentials: Record<string, { token: string; header: string; scheme: string }>;
}

export type LaunchTransport = "rest" | "mcp";

/** What the examinee is told besides its sandbox: the task and where this trial sits in its group. */
export interface LaunchTask {
  prompt: string;
  name: string | null;
  groupId: string;
  trial: number;
  trials: number;
}

/** POME_<TWIN>_REST_URL and the like: the names `pome run` gives the examinee, so one examinee runs under both. */
const twinVar = (twin: string, what: string) => `POME_${twin.toUpperCase()}_${what}`;

export function examineeEnv(sandbox: CreatedSandbox, task: LaunchTask): Record<string, string> {
  const env: Record<string, string> = {};
  for (const twin of sandbox.twins) {
    const urls = sandbox.per_twin[twin];
    if (urls) {
      env[twinVar(twin, "REST_URL")] = urls.api_url;
      env[twinVar(twin, "MCP_URL")] = urls.mcp_url;
      env[twinVar(twin, "OPENAPI_URL")] = urls.openapi_url;
    }
    const credential = sandbox.provider_credentials[twin];
    if (credential) env[twinVar(twin, "TOKEN")] = credential.token;
  }
  env.POME_AUTH_TOKEN = sandbox.agent_token;
  env.POME_SESSION_ID = sandbox.session_id;
  env.POME_EXPIRES_AT = sandbox.expires_at;
  env.POME_TWINS = sandbox.twins.join(",");
  env.POME_TASK_PROMPT = task.prompt;
  if (task.name) env.POME_TASK_NAME = task.name;
  env.POME_GROUP_ID = task.groupId;
  env.POME_TRIAL = String(task.trial);
  env.POME_TRIALS = String(task.trials);
  return env;
}

export function examineeTask(sandbox: Pick<CreatedSandbox, "twins">, task: Pick<LaunchTask, "prompt" | "name">) {
  return { name: task.name, prompt: task.prompt, twins: sandbox.twins };
}

export function examineeLaunch(sandbox: CreatedSandbox, task: LaunchTask, transport: LaunchTransport) {
  const rest_urls: Record<string, string> = {};
  for (const twin of sandbox.twins) if (sandbox.per_twin[twin]) rest_urls[twin] = sandbox.per_twin[twin].api_url;
  return {
    transport,
    session_id: sandbox.session_id,
    expires_at: sandbox.expires_at,
    prompt: task.prompt,
    twins: sandbox.twins,
    rest_urls,
    // One MCP server per twin; the agent_token is the bearer on each, as on the REST URLs.
    mcp_servers: sandbox.twins
      .filter((twin) => sandbox.per_twin[twin])
      .map((twin) => ({
        name: `pome-${twin}`,
        type: "url" as const,
        url: sandbox.per_twin[twin].mcp_url,
        headers: { Authorization: `Bearer ${sandbox.agent_token}` },
      })),
    env: examineeEnv(sandbox, task),
  };
}
