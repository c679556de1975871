// Test helpers: the platform as a user reaches it, through the router (SELF), with the local key.
import { SELF } from "cloudflare:test";
import { Octokit } from "@octokit/rest";
import { rememberSandbox } from "./conformance";

export const ORIGIN = "http://pome.test";
export const LOCAL_KEY = "pme_local_dev";

export function api(path: string, init: RequestInit & { key?: string | null } = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  const key = init.key === undefined ? LOCAL_KEY : init.key;
  if (key) headers.set("authorization", `Bearer ${key}`);
  if (init.body !== undefined && !headers.has("content-type")) headers.set("content-type", "application/json");
  return SELF.fetch(`${ORIGIN}${path}`, { ...init, headers });
}

export const postJson = (path: string, body: unknown, init: RequestInit & { key?: string | null } = {}) =>
  api(path, { ...init, method: "POST", body: JSON.stringify(body) });

export interface CreatedSandbox {
  session_id: string;
  expires_at: string;
  agent_token: string;
  per_twin: Record<string, { api_url: string; mcp_url: string; openapi_url: string }>;
  provider_credentials: Record<string, { token: string; header: string; scheme: string; user_token?: string }>;
  twin_url: string;
  openapi_url: string;
  state: string;
}

/** `# ..` in base64: the stub task the reference's CLI sends when only a seed matters. */
export const STUB_TASK = "IyAuLgo=";

export async function createSandbox(body: Record<string, unknown> = {}, key?: string): Promise<CreatedSandbox> {
  const res = await postJson("/v1/sandboxes", { task_source: STUB_TASK, ...body }, { key });
  if (res.status !== 201) throw new Error(`create sandbox: ${res.status} ${await res.text()}`);
  const sandbox = (await res.json()) as CreatedSandbox;
  // After the test, its answers are checked against the vendors' schemas (test/workers/setup.ts).
  rememberSandbox(sandbox);
  return sandbox;
}

/** Fetch from inside the Workers runtime: Octokit's requests go through the router. */
const selfFetch: typeof fetch = (input, init) => SELF.fetch(new Request(input as RequestInfo, init));

export function octokitFor(sandbox: CreatedSandbox, opts: { auth?: string; twin?: string } = {}): Octokit {
  return new Octokit({
    baseUrl: sandbox.per_twin[opts.twin ?? "github"].api_url,
    auth: opts.auth ?? sandbox.provider_credentials.github.token,
    request: { fetch: selfFetch },
    // Expected 4xx answers are part of the tests; keep Octokit from printing each one.
    log: { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} },
  });
}

export const twinFetch = (sandbox: CreatedSandbox, path: string, init: RequestInit = {}, twin = "github") => {
  const headers = new Headers(init.headers);
  if (!headers.has("authorization")) headers.set("authorization", `Bearer ${sandbox.agent_token}`);
  return SELF.fetch(`${sandbox.per_twin[twin].api_url}${path}`, { ...init, headers });
};
