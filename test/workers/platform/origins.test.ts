// Behind custom domains each role has a hostname of its own (API_ORIGIN, TWINS_ORIGIN,
// DASHBOARD_ORIGIN, or PUBLIC_ORIGIN for all three). The one Worker answers on all of them, so
// every absolute URL it hands out must name the host of its role, whichever host the request came
// in on.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { readSettings } from "../../../workers/settings";
import { originFor } from "../../../workers/urls";
import { REQUIRED, code } from "../grading/run-helpers";
import { ORIGIN } from "../helpers";
import { callWith, sandboxWith } from "./with-settings";

const API = "https://api.example.com";
const TWINS = "https://twins.example.com";
const DASHBOARD = "https://app.example.com";
const split = { ...env, API_ORIGIN: `${API}/`, TWINS_ORIGIN: TWINS, DASHBOARD_ORIGIN: DASHBOARD };

async function finalizedRun(settings: Env) {
  const sandbox = await sandboxWith(settings);
  expect((await callWith(settings, `${sandbox.per_twin.github.api_url}/repos/acme/api`, { bearer: sandbox.agent_token })).status).toBe(200);
  const res = await callWith(settings, `/v1/sandboxes/${sandbox.session_id}/finalize`, {
    method: "POST",
    body: JSON.stringify({ ...REQUIRED, criteria: [code("c1", "Issue #1 exists in `acme/api`", { always_scored: true })] }),
  });
  expect(res.status).toBe(200);
  return { sandbox, run: await res.json<{ run_id: string; dashboard_url: string; report_url: string }>() };
}

describe("per-role origins", () => {
  it("resolve each role to its own setting, then PUBLIC_ORIGIN, then the request's origin", () => {
    const origins = readSettings(split).origins;
    expect(origins).toEqual({ api: API, twins: TWINS, dashboard: DASHBOARD });
    const one = readSettings({ ...env, PUBLIC_ORIGIN: "https://pome.example.com//", DASHBOARD_ORIGIN: DASHBOARD }).origins;
    expect(one).toEqual({ api: "https://pome.example.com", twins: "https://pome.example.com", dashboard: DASHBOARD });
    const none = readSettings(env).origins;
    expect(originFor(none, "api", new URL("http://127.0.0.1:9999/v1/me"))).toBe("http://127.0.0.1:9999");
    expect(originFor(none, "twins", new URL("http://127.0.0.1:9999/x"))).toBe("http://127.0.0.1:9999");
  });

  it("put the twins' host in api_url, mcp_url, openapi_url and the URLs twins answer with", async () => {
    const sandbox = await sandboxWith(split);
    const base = `${TWINS}/github/s/${sandbox.session_id}`;
    expect(sandbox.per_twin.github).toEqual({ api_url: base, mcp_url: `${base}/mcp`, openapi_url: `${base}/_pome/openapi.json` });
    expect(sandbox.twin_url).toBe(base);
    expect(sandbox.openapi_url).toBe(`${base}/_pome/openapi.json`);

    // A request on the API's host (or any other) still gets twin URLs on the twins' host.
    const prefixed = await callWith(split, `${API}/github/s/${sandbox.session_id}/repos/acme/api/issues/1`, {
      bearer: sandbox.agent_token,
    });
    expect(prefixed.status).toBe(200);
    expect((await prefixed.json<{ url: string }>()).url).toBe(`${base}/repos/acme/api/issues/1`);

    const root = await callWith(split, `${TWINS}/repos/acme/api/issues/1`, { bearer: sandbox.provider_credentials.github.token });
    expect(root.status).toBe(200);
    expect((await root.json<{ url: string }>()).url).toBe(`${TWINS}/repos/acme/api/issues/1`);
  });

  it("put the dashboard's host in dashboard_url and the API's in report_url and signed download URLs", async () => {
    const { run } = await finalizedRun(split);
    expect(run.dashboard_url).toBe(`${DASHBOARD}/app/runs/${run.run_id}`);
    expect(run.report_url).toBe(`${API}/v1/runs/${run.run_id}/report.md`);

    const view = await (await callWith(split, `/v1/runs/${run.run_id}`)).json<{ dashboard_url: string }>();
    expect(view.dashboard_url).toBe(`${DASHBOARD}/app/runs/${run.run_id}`);
    const report = await (await callWith(split, `/v1/runs/${run.run_id}/report.md`)).text();
    expect(report).toContain(`${DASHBOARD}/app/runs/${run.run_id}`);

    const trace = await (await callWith(split, `/v1/runs/${run.run_id}/trace`)).json<{ url: string }>();
    expect(trace.url.startsWith(`${API}/_blobs/`)).toBe(true);
    // The signed URL opens on the host it names.
    expect((await callWith(split, trace.url)).status).toBe(200);
  });

  it("put the API's host in upload URLs and an asynchronous finalize's Location", async () => {
    const sandbox = await sandboxWith(split);
    const uploads = await (await callWith(split, `/v1/sandboxes/${sandbox.session_id}/uploads`, { method: "POST" })).json<{
      uploads: Record<string, { url: string }>;
    }>();
    for (const upload of Object.values(uploads.uploads)) expect(upload.url.startsWith(`${API}/_blobs/`)).toBe(true);

    const res = await callWith(split, `/v1/sandboxes/${sandbox.session_id}/finalize`, {
      method: "POST",
      headers: { prefer: "respond-async" },
      body: JSON.stringify({ ...REQUIRED, criteria: [code("c1", "Issue #1 exists in `acme/api`", { always_scored: true })] }),
    });
    expect(res.status).toBe(202);
    expect(res.headers.get("location")).toBe(`${API}/v1/sandboxes/${sandbox.session_id}/evaluation`);
  });

  it("fall back to the request's own origin when nothing is set", async () => {
    const { sandbox, run } = await finalizedRun(env);
    expect(sandbox.per_twin.github.api_url).toBe(`${ORIGIN}/github/s/${sandbox.session_id}`);
    expect(run.dashboard_url).toBe(`${ORIGIN}/app/runs/${run.run_id}`);
    expect(run.report_url).toBe(`${ORIGIN}/v1/runs/${run.run_id}/report.md`);
  });
});
