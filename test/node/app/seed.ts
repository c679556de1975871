// Real runs for the dashboard's browser tests, made over HTTP against the running platform: a
// sandbox, twin calls through its URLs, and finalize.
export const LOCAL_KEY = "pme_local_dev";

export interface Sandbox {
  session_id: string;
  expires_at: string;
  agent_token: string;
  per_twin: Record<string, { api_url: string }>;
}

export interface Finalized {
  run_id: string;
  score: number | null;
  dashboard_url: string;
}

export function platform(url: string) {
  const v1 = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: { authorization: `Bearer ${LOCAL_KEY}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return JSON.parse(text) as T;
  };
  const sandbox = (body: Record<string, unknown> = {}) => v1<Sandbox>("POST", "/v1/sandboxes", { task_source: "IyAuLgo=", ...body });
  const twin = async (s: Sandbox, name: string, method: string, path: string, body?: unknown) => {
    const res = await fetch(`${s.per_twin[name].api_url}${path}`, {
      method,
      headers: { authorization: `Bearer ${s.agent_token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    await res.arrayBuffer();
    return res.status;
  };
  const finalize = (s: Sandbox, criteria: unknown[], extra: Record<string, unknown> = {}) =>
    v1<Finalized>("POST", `/v1/sandboxes/${s.session_id}/finalize`, {
      stop_reason: "done",
      exit_code: 0,
      duration_ms: 1000,
      agent_model: "browser-test-model",
      criteria,
      ...extra,
    });
  return { v1, sandbox, twin, finalize };
}

export const LABELLED = { id: "c1", kind: "code", text: "Issue #1 in `acme/api` has the `bug` label applied" };
export const NO_UNSUPPORTED = { id: "c2", kind: "code", text: "No unsupported endpoint was called", always_scored: true };
export const EXISTS = { id: "c3", kind: "code", text: "Issue #1 exists in `acme/api`" };
