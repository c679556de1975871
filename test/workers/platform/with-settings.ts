// The router Worker called directly with settings of a test's choosing (what a deployment's vars
// and secrets would be), instead of SELF's fixed bindings. Durable Objects, D1 and R2 are the
// test runtime's real ones.
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import worker from "../../../workers/index";
import { LOCAL_KEY, ORIGIN, STUB_TASK, type CreatedSandbox } from "../helpers";

/** `path` is absolute (an api_url, a signed URL) or a path on the test origin. */
export async function callWith(settings: Env, path: string, init: RequestInit & { bearer?: string } = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set("authorization", `Bearer ${init.bearer ?? LOCAL_KEY}`);
  if (init.body !== undefined && !headers.has("content-type")) headers.set("content-type", "application/json");
  const url = path.startsWith("http") ? path : `${ORIGIN}${path}`;
  const ctx = createExecutionContext();
  const res = await worker.fetch(new Request(url, { ...init, headers }), settings, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

export async function sandboxWith(settings: Env, body: Record<string, unknown> = {}): Promise<CreatedSandbox> {
  const res = await callWith(settings, "/v1/sandboxes", { method: "POST", body: JSON.stringify({ task_source: STUB_TASK, ...body }) });
  if (res.status !== 201) throw new Error(`create sandbox: ${res.status} ${await res.text()}`);
  return res.json<CreatedSandbox>();
}
