// What a coach hands the examinee: the task it sees (prompt and twins, never the criteria) and
// the launch spec (URLs, credentials and environment for a REST or an MCP examinee). Pure, with
// type-only imports, so the same spec can be built anywhere a sandbox's create response is.
import type { TwinId } from "../../durable-objects/twins/types";

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

/**
 * The environment names an ordinary client of each provider reads its credential (and, where the
 * client takes one, its base URL) from, so an examinee built for the real service needs no change.
 */
const PROVIDER_ENV: Record<TwinId, { token: string; baseUrl?: string }> = {
  github: { token: "GITHUB_TOKEN", baseUrl: "GITHUB_API_URL" },
  stripe: { token: "STRIPE_API_KEY" },
  slack: { token: "SLACK_BOT_TOKEN" },
  gmail: { token: "GMAIL_ACCESS_TOKEN" },
  linear: { token: "LINEAR_API_KEY" },
};

const upper = (twin: string) => twin.toUpperCase();

export function examineeEnv(sandbox: CreatedSandbox, prompt: string): Record<string, string> {
  const env: Record<string, string> = {
    POME_SESSION_ID: sandbox.session_id,
    POME_AUTH_TOKEN: sandbox.agent_token,
    POME_TWINS: sandbox.twins.join(","),
    POME_TASK_PROMPT: prompt,
  };
  for (const twin of sandbox.twins) {
    const urls = sandbox.per_twin[twin];
    const credential = sandbox.provider_credentials[twin];
    if (urls) {
      env[`POME_${upper(twin)}_REST_URL`] = urls.api_url;
      env[`POME_${upper(twin)}_MCP_URL`] = urls.mcp_url;
    }
    if (credential) {
      env[`POME_${upper(twin)}_TOKEN`] = credential.token;
      env[PROVIDER_ENV[twin].token] = credential.token;
    }
    const baseUrlName = PROVIDER_ENV[twin].baseUrl;
    if (baseUrlName && urls) env[baseUrlName] = urls.api_url;
  }
  return env;
}

export function examineeTask(sandbox: Pick<CreatedSandbox, "twins">, prompt: string, taskName: string | null) {
  return { name: taskName, prompt, twins: sandbox.twins };
}

export function examineeLaunch(sandbox: CreatedSandbox, prompt: string, transport: LaunchTransport) {
  const rest_urls: Record<string, string> = {};
  for (const twin of sandbox.twins) if (sandbox.per_twin[twin]) rest_urls[twin] = sandbox.per_twin[twin].api_url;
  return {
    transport,
    session_id: sandbox.session_id,
    expires_at: sandbox.expires_at,
    prompt,
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
    env: examineeEnv(sandbox, prompt),
  };
}
