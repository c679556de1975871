// Security, for every registered twin: credentials that must open nothing (alg "none", claims
// edited under a valid signature, another twin's key, a revoked team key), other teams' resources
// answering 404, signed URLs tampered or expired, and every token the suite issued searched for, in
// plain, JSON-escaped, URL-encoded and base64 form, in tapes, states, blobs, listings and errors.
import { SELF, env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { TWIN_IDS, twinById } from "../../../durable-objects/twins/registry";
import type { TwinId } from "../../../durable-objects/twins/registry";
import { signBlobUrl } from "../../../workers/blobs/sign";
import { readSettings } from "../../../workers/settings";
import { code, finalizeOk } from "../grading/run-helpers";
import { ORIGIN, api, createSandbox, postJson, twinFetch, type CreatedSandbox } from "../helpers";

const ADMIN = "test-admin-secret";
const b64url = (text: string) => btoa(text).replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_");

/** Every way a credential reaches a twin, each asking for something the sandbox holds. */
function probes(sandbox: CreatedSandbox, id: TwinId, authorization: string): Record<string, () => Promise<Response>> {
  const base = sandbox.per_twin[id].api_url;
  const firstGet = twinById(id).routes.find((r) => r.method === "GET" && !r.pattern.includes(":") && !r.pattern.includes("*"));
  return {
    "prefixed REST": () => SELF.fetch(`${base}${firstGet?.pattern ?? "/"}`, { headers: { authorization } }),
    "/_pome/state": () => SELF.fetch(`${base}/_pome/state`, { headers: { authorization } }),
    "/_pome/events": () => SELF.fetch(`${base}/_pome/events`, { headers: { authorization } }),
    "MCP tools/list": () =>
      SELF.fetch(sandbox.per_twin[id].mcp_url, {
        method: "POST",
        headers: { authorization, "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
      }),
  };
}

describe.each(TWIN_IDS)("credentials that open nothing on the %s twin", (id) => {
  const twin = twinById(id);
  const other = TWIN_IDS.find((t) => t !== id) ?? id;

  it("refuses alg none, edited claims, a token naming a twin it was not given, and another twin's key", async () => {
    const sandbox = await createSandbox({ twins: [id, other] });
    const [header, payload, signature] = sandbox.agent_token.split(".");
    const claims = JSON.parse(atob(payload.replace(/-/g, "+").replace(/_/g, "/"))) as Record<string, unknown>;
    const theirs = await createSandbox({ twins: [id] });
    const credentials: Record<string, string> = {
      'alg "none", no signature': `Bearer ${b64url(JSON.stringify({ alg: "none", typ: "JWT" }))}.${payload}.`,
      'alg "none" keeping the signature': `Bearer ${b64url(JSON.stringify({ alg: "none", typ: "JWT" }))}.${payload}.${signature}`,
      "claims moved to another sandbox under the same signature": `Bearer ${header}.${b64url(JSON.stringify({ ...claims, sub: theirs.session_id }))}.${signature}`,
      "a later expiry under the same signature": `Bearer ${header}.${b64url(JSON.stringify({ ...claims, exp: Number(claims.exp) + 86_400 }))}.${signature}`,
      "a truncated signature": `Bearer ${header}.${payload}.${signature.slice(0, -3)}`,
    };
    if (other !== id) {
      const key = sandbox.provider_credentials[other].token;
      const scheme = twinById(other).credential.scheme;
      credentials[`the ${other} twin's own key`] = scheme ? `${scheme} ${key}` : key;
    }
    const mineBefore = await (await twinFetch(sandbox, "/_pome/state", {}, id)).text();
    for (const [what, authorization] of Object.entries(credentials)) {
      for (const [where, send] of Object.entries({ ...probes(sandbox, id, authorization), ...probes(theirs, id, authorization) })) {
        const res = await send();
        const text = await res.text();
        // The twin's own refusal (Slack's is an HTTP 200 `ok: false`), or the platform's 401 on /_pome.
        expect([twin.errors.unauthorized("x").status, 401], `${what} on ${where}: ${text.slice(0, 200)}`).toContain(res.status);
        expect(text, `${what} on ${where}`).not.toMatch(/"seq"|"repositories"|"channels"|"tools"/);
        if (res.status === 200) expect(text, `${what} on ${where}`).toMatch(/"ok":\s*false/);
        expect(text, `${what} on ${where}`).not.toContain(sandbox.session_id);
      }
    }
    expect(await (await twinFetch(sandbox, "/_pome/state", {}, id)).text()).toBe(mineBefore);
    expect(await (await twinFetch(sandbox, "/_pome/events?all_twins=true", {}, id)).json()).toEqual([]);
    expect(await (await twinFetch(theirs, "/_pome/events", {}, id)).json()).toEqual([]);
  });
});

async function newTeam(slug: string) {
  const res = await postJson("/v1/admin/teams", { slug, email: `${slug}@example.com`, sessions_quota: 5 }, { key: ADMIN });
  expect(res.status).toBe(201);
  return res.json<{ team: { id: string }; api_key: { id: string; key: string } }>();
}

describe("teams see only their own resources", () => {
  it("answers 404 for every resource of another team, and 403 everywhere once a key is revoked", async () => {
    const sandbox = await createSandbox();
    const run = await finalizeOk(sandbox.session_id, [code("c1", "Issue #1 exists in `acme/api`", { always_scored: true })]);
    const open = await createSandbox();
    const task = await postJson("/v1/tasks", {
      source: "# T\n\n## Prompt\nGo.\n\n## Success Criteria\n- [code] Issue #1 exists in `acme/api`\n",
    });
    const taskId = (await task.json<{ id: string }>()).id;
    const agent = await postJson("/v1/agents", { name: "security-agent", twins: ["github"] });
    const agentId = (await agent.json<{ agent: { id: string } } & { id?: string }>()).id ?? "";
    const { api_key } = await newTeam("security-b");
    const theirs: [string, string, unknown?][] = [
      ["GET", `/v1/sandboxes/${open.session_id}`],
      ["GET", `/v1/sessions/${open.session_id}`],
      ["POST", `/v1/sandboxes/${open.session_id}/heartbeat`],
      [
        "POST",
        `/v1/sandboxes/${open.session_id}/finalize`,
        { criteria: [{ id: "c", text: "x", kind: "code" }], stop_reason: "s", exit_code: 0, duration_ms: 1, agent_model: "m" },
      ],
      ["GET", `/v1/sandboxes/${open.session_id}/evaluation`],
      ["POST", `/v1/sandboxes/${open.session_id}/uploads`],
      ["DELETE", `/v1/sandboxes/${open.session_id}`],
      ["GET", `/v1/runs/${run.run_id}`],
      ["GET", `/v1/runs/${run.run_id}/report.md`],
      ["GET", `/v1/runs/${run.run_id}/trace`],
      ["GET", `/v1/runs/${run.run_id}/state`],
      ["GET", `/v1/tasks/${taskId}`],
      ...(agentId ? ([["GET", `/v1/agents/${agentId}`]] as [string, string][]) : []),
    ];
    for (const [method, path, body] of theirs) {
      const res = await api(path, { method, key: api_key.key, body: body === undefined ? undefined : JSON.stringify(body) });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(await res.text()).not.toContain(sandbox.session_id.slice(4));
    }
    // Their listings hold none of ours.
    for (const path of ["/v1/sandboxes", "/v1/runs", "/v1/tasks", "/v1/agents"]) {
      const text = await (await api(path, { key: api_key.key })).text();
      expect(text, path).not.toContain(open.session_id);
      expect(text, path).not.toContain(run.run_id);
    }
    // The sandbox they probed is untouched.
    expect((await (await api(`/v1/sandboxes/${open.session_id}`)).json<{ state: string }>()).state).toBe("ready");
    expect((await postJson(`/v1/admin/keys/${encodeURIComponent(api_key.id)}/revoke`, {}, { key: ADMIN })).status).toBe(200);
    for (const [method, path] of [
      ["GET", "/v1/me"],
      ["GET", "/v1/sandboxes"],
      ["POST", "/v1/sandboxes"],
      ["GET", "/v1/runs"],
      ["POST", "/v1/seeds/validate"],
      ["GET", "/v1/checks"],
    ]) {
      const res = await api(path, { method, key: api_key.key, body: method === "POST" ? "{}" : undefined });
      expect(res.status, `${method} ${path} with a revoked key`).toBe(403);
    }
    const mcp = await SELF.fetch(`${ORIGIN}/mcp`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${api_key.key}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(mcp.status).toBe(403);
  });
});

describe("signed evidence URLs", () => {
  it("refuse a tampered signature, another key, another operation and an expired link", async () => {
    const sandbox = await createSandbox();
    const run = await finalizeOk(sandbox.session_id, [code("c1", "Issue #1 exists in `acme/api`", { always_scored: true })]);
    const trace = await (await api(`/v1/runs/${run.run_id}/trace`)).json<{ url: string; key: string }>();
    expect((await SELF.fetch(trace.url)).status).toBe(200);
    const url = new URL(trace.url);
    const sig = url.searchParams.get("sig") ?? "";
    const tampered = new URL(url);
    tampered.searchParams.set("sig", `${sig.slice(0, -1)}${sig.endsWith("A") ? "B" : "A"}`);
    const otherKey = new URL(url);
    otherKey.pathname = otherKey.pathname.replace("events.jsonl", "state_final.github.json");
    const later = new URL(url);
    later.searchParams.set("expires", String(Number(url.searchParams.get("expires")) + 3600));
    const expired = await signBlobUrl({
      secret: readSettings(env).tokenSecret,
      origin: ORIGIN,
      key: trace.key,
      op: "get",
      now: Date.now() - 3_600_000,
    });
    for (const [what, u, init] of [
      ["a tampered signature", tampered.toString(), {}],
      ["another key", otherKey.toString(), {}],
      ["a later expiry", later.toString(), {}],
      ["a download link used to upload", trace.url, { method: "PUT", body: "{}" }],
      ["an expired link", expired.url, {}],
    ] as const) {
      const res = await SELF.fetch(u, init);
      expect(res.status, what).toBe(403);
      expect(await res.text(), what).not.toContain('"seq"');
    }
    // The blob a refused upload aimed at is unchanged.
    expect((await SELF.fetch(trace.url)).status).toBe(200);
  });
});

/** The forms a token may be written in: plain, JSON-escaped, URL-encoded, and base64 at every alignment. */
function forms(token: string): string[] {
  const base64 = [0, 1, 2].map((shift) => {
    const encoded = btoa(`${"\u0000".repeat(shift)}${token}`);
    return encoded.slice(Math.ceil((shift * 4) / 3) + 1, -4);
  });
  return [
    token,
    JSON.stringify(token).slice(1, -1),
    token.replace(/_/g, "\\u005f"),
    encodeURIComponent(token),
    token.replace(/_/g, "%5F"),
    ...base64,
  ];
}

describe("no issued token is ever kept", () => {
  it("finds none, in any form, in tapes, states, blobs, listings, run views or error bodies", async () => {
    // Three twins, so three vendors' credential shapes are issued and searched for.
    const sandbox = await createSandbox({ twins: TWIN_IDS.slice(0, 3) });
    const issued = [sandbox.agent_token, ...Object.values(sandbox.provider_credentials).map((c) => c.token), "pme_local_dev"];
    const pat = sandbox.provider_credentials.github.token;
    const errors: string[] = [];
    const send = async (path: string, init: RequestInit = {}) => {
      const res = await twinFetch(sandbox, path, { ...init, headers: { "content-type": "application/json", ...init.headers } });
      const text = await res.text();
      if (res.status >= 400) errors.push(text);
      return res.status;
    };
    // An agent pasting credentials every way it could.
    await send("/repos/acme/api/issues/1/comments", {
      method: "POST",
      body: JSON.stringify({ body: `token ${pat} and ${sandbox.agent_token}` }),
    });
    await send("/repos/acme/api/issues/1/comments", { method: "POST", body: `{"body":"escaped ${pat.replace(/_/g, "\\u005f")}"}` });
    await send("/repos/acme/api/issues", {
      method: "POST",
      body: JSON.stringify({ title: `url ${encodeURIComponent(pat)}`, body: `b64 ${btoa(pat)}` }),
    });
    await send("/repos/acme/api/contents/secrets.env", {
      method: "PUT",
      body: JSON.stringify({ message: "add", content: btoa(`GITHUB_TOKEN=${pat}\nAGENT=${sandbox.agent_token}\n`) }),
    });
    await send(`/repos/acme/api/issues?access_token=${pat}`);
    await send(`/repos/acme/${encodeURIComponent(pat)}/issues`);
    await send(`/repos/acme/api/labels/${pat}`, { method: "DELETE" });
    await send("/repos/acme/api/issues", { method: "POST", body: JSON.stringify({ title: 7, labels: pat }) });
    for (const other of Object.values(sandbox.provider_credentials)) {
      await send("/repos/acme/api/issues/2/comments", { method: "POST", body: JSON.stringify({ body: `pasted ${other.token}` }) });
    }
    const tape = await (await twinFetch(sandbox, "/_pome/events")).text();
    const state = await (await twinFetch(sandbox, "/_pome/state")).text();
    const run = await finalizeOk(sandbox.session_id, [code("c1", "Issue #1 exists in `acme/api`", { always_scored: true })]);
    const views = await Promise.all(
      ["/v1/sandboxes", "/v1/runs", `/v1/runs/${run.run_id}`, `/v1/runs/${run.run_id}/report.md`].map(async (p) => (await api(p)).text()),
    );
    const blobs: string[] = [];
    const listed = await env.EVIDENCE.list({ prefix: `team-tm_local/session-${sandbox.session_id}/` });
    expect(listed.objects.length).toBeGreaterThan(2);
    for (const object of listed.objects) blobs.push((await (await env.EVIDENCE.get(object.key))?.text()) ?? "");
    const places: Record<string, string[]> = { tape: [tape], state: [state], blobs, listings: views, errors };
    let searched = 0;
    for (const token of issued) {
      for (const form of forms(token)) {
        for (const [where, texts] of Object.entries(places)) {
          for (const text of texts) {
            searched++;
            expect(text.includes(form), `a token (${form.slice(0, 14)}…) in ${where}`).toBe(false);
          }
        }
      }
    }
    expect(searched).toBeGreaterThan(100);
  });
});
