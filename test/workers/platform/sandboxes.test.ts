import { describe, expect, it } from "vitest";
import { api, createSandbox, postJson, STUB_TASK, twinFetch, type CreatedSandbox } from "../helpers";

type ErrorBody = { error: { type: string; message: string; details: Record<string, unknown> } };
const b64 = (text: string) => btoa(String.fromCharCode(...new TextEncoder().encode(text)));

describe("POST /v1/sandboxes starts a sandbox with everything an agent needs", () => {
  it("returns 201 with ids, token, per-twin URLs and provider credentials", async () => {
    const res = await postJson("/v1/sandboxes", { task_source: STUB_TASK });
    expect(res.status).toBe(201);
    const body = await res.json<CreatedSandbox & { twins: string[] }>();
    expect(body.session_id).toMatch(/^ses_[A-Za-z0-9]{16}$/);
    expect(body.twins).toEqual(["github"]);
    expect(body.agent_token.split(".")).toHaveLength(3);
    expect(Date.parse(body.expires_at) - Date.now()).toBeGreaterThan(29 * 60_000);
    const urls = body.per_twin.github;
    expect(urls.api_url).toBe(`http://pome.test/github/s/${body.session_id}`);
    expect(urls.mcp_url).toBe(`${urls.api_url}/mcp`);
    expect(urls.openapi_url).toBe(`${urls.api_url}/_pome/openapi.json`);
    expect(body.twin_url).toBe(urls.api_url);
    expect(body.provider_credentials.github).toEqual({
      token: expect.stringMatching(/^github_pat_/),
      header: "Authorization",
      scheme: "Bearer",
    });
  });

  it("takes at most one of task_source or task_id (none starts an ad-hoc sandbox)", async () => {
    const res = await postJson("/v1/sandboxes", { task_source: STUB_TASK, task_id: "tsk_x" });
    expect(res.status).toBe(422);
    const err = await res.json<ErrorBody>();
    expect(err.error.message).toBe("Provide at most one of task_source or task_id");
    expect(err.error.details.error).toBeUndefined();
  });

  it("refuses more than three twins and unknown twins", async () => {
    const many = await postJson("/v1/sandboxes", { task_source: STUB_TASK, twins: ["github", "stripe", "slack", "gmail"] });
    expect(many.status).toBe(422);
    expect((await many.json<ErrorBody>()).error.details.error).toBe("too_many_twins");
    const unknown = await postJson("/v1/sandboxes", { task_source: STUB_TASK, twins: ["github", "jira"] });
    expect((await unknown.json<ErrorBody>()).error.details).toMatchObject({ error: "unknown_twins", unknown_twins: ["jira"] });
  });

  it("replaces the default world with the seed", async () => {
    const sandbox = await createSandbox({
      seed: { repositories: [{ owner: "northwind", name: "payments", issues: [{ number: 1, title: "Refunds fail" }] }] },
    });
    expect((await twinFetch(sandbox, "/repos/northwind/payments")).status).toBe(200);
    expect((await twinFetch(sandbox, "/repos/acme/api")).status).toBe(404);
  });

  it("boots the task's Seed State when no seed is sent, and lets an explicit seed win", async () => {
    const task = [
      "# Seeded task",
      "",
      "## Seed State",
      "```json",
      JSON.stringify({ github: { repositories: [{ owner: "fromtask", name: "repo" }] } }),
      "```",
      "",
    ].join("\n");
    const fromTask = await createSandbox({ task_source: b64(task) });
    expect((await twinFetch(fromTask, "/repos/fromtask/repo")).status).toBe(200);
    const overridden = await createSandbox({ task_source: b64(task), seed: { repositories: [{ owner: "explicit", name: "repo" }] } });
    expect((await twinFetch(overridden, "/repos/fromtask/repo")).status).toBe(404);
    expect((await twinFetch(overridden, "/repos/explicit/repo")).status).toBe(200);
  });

  it("takes a per-twin envelope for several twins and boots a missing twin's default world", async () => {
    const sandbox = await createSandbox({
      twins: ["github", "slack"],
      seed: { github: { repositories: [{ owner: "multi", name: "repo" }] } },
    });
    expect(Object.keys(sandbox.per_twin)).toEqual(["github", "slack"]);
    expect((await twinFetch(sandbox, "/repos/multi/repo")).status).toBe(200);
    expect((await twinFetch(sandbox, "/_pome/state", {}, "slack")).status).toBe(200);
  });

  it("returns the original sandbox for a repeated idempotency key", async () => {
    const key = crypto.randomUUID();
    const first = await createSandbox({ idempotency_key: key });
    const second = await createSandbox({ idempotency_key: key });
    expect(second.session_id).toBe(first.session_id);
    const other = await createSandbox({ idempotency_key: crypto.randomUUID() });
    expect(other.session_id).not.toBe(first.session_id);
  });

  it("checks group_id, agent_version and idempotency_key", async () => {
    const res = await postJson("/v1/sandboxes", { task_source: STUB_TASK, group_id: "no", idempotency_key: "nope" });
    expect(res.status).toBe(422);
    const paths = (await res.json<{ error: { details: { issues: { path: string }[] } } }>()).error.details.issues.map((i) => i.path);
    expect(paths).toEqual(expect.arrayContaining(["group_id", "idempotency_key"]));
  });

  it("answers 402 quota_exceeded with the usage once the plan's limit is reached", async () => {
    const team = await (
      await postJson("/v1/admin/teams", { slug: "tiny-plan", email: "t@p.co", sessions_quota: 1 }, { key: "test-admin-secret" })
    ).json<{ api_key: { key: string } }>();
    await createSandbox({}, team.api_key.key);
    const res = await postJson("/v1/sandboxes", { task_source: STUB_TASK }, { key: team.api_key.key });
    expect(res.status).toBe(402);
    const body = await res.json<ErrorBody>();
    expect(body.error.type).toBe("quota_exceeded");
    expect(body.error.details.usage).toEqual({ sessions_used: 1, sessions_quota: 1, sessions_remaining: 0 });
  });

  it("checks the seed before provisioning anything", async () => {
    const before = (await (await api("/v1/sandboxes?limit=200")).json<unknown[]>()).length;
    const res = await postJson("/v1/sandboxes", { task_source: STUB_TASK, seed: { repositories: [{ owner: "x" }] } });
    expect(res.status).toBe(422);
    expect((await (await api("/v1/sandboxes?limit=200")).json<unknown[]>()).length).toBe(before);
  });

  it("answers 400 for a non-JSON body", async () => {
    expect((await api("/v1/sandboxes", { method: "POST", body: "twins=github" })).status).toBe(400);
  });
});

describe("listing and reading sandboxes", () => {
  it("lists newest first, filters by state, honours limit, and never carries a token", async () => {
    const a = await createSandbox();
    const b = await createSandbox();
    const rows = await (await api("/v1/sandboxes?limit=2")).json<Record<string, unknown>[]>();
    expect(rows.map((r) => r.id)).toEqual([b.session_id, a.session_id]);
    expect(JSON.stringify(rows)).not.toContain("agent_token");
    expect(Object.keys(rows[0])).toEqual(
      expect.arrayContaining(["id", "twins", "state", "twin_url", "created_at", "ready_at", "expires_at", "closed_at"]),
    );
    await twinFetch(b, "/user");
    const running = await (await api("/v1/sandboxes?state=running&limit=200")).json<{ id: string }[]>();
    expect(running.map((r) => r.id)).toContain(b.session_id);
    expect(running.map((r) => r.id)).not.toContain(a.session_id);
  });

  it("returns one sandbox with its token, last request time and task markdown", async () => {
    const sandbox = await createSandbox({ task_source: b64("# Triage the backlog\n") });
    let body = await (await api(`/v1/sandboxes/${sandbox.session_id}`)).json<Record<string, unknown>>();
    expect(body).toMatchObject({
      id: sandbox.session_id,
      state: "ready",
      last_request_at: null,
      task_markdown: "# Triage the backlog\n",
      task_name: "Triage the backlog",
    });
    expect(body.agent_token).toEqual(expect.any(String));
    await twinFetch(sandbox, "/user");
    body = await (await api(`/v1/sessions/${sandbox.session_id}`)).json<Record<string, unknown>>();
    expect(body.state).toBe("running");
    expect(body.last_request_at).toEqual(expect.any(String));
  });

  it("answers 404 for an unknown id and for another team's sandbox", async () => {
    const team = await (await postJson("/v1/admin/teams", { slug: "other-team", email: "o@t.co" }, { key: "test-admin-secret" })).json<{
      api_key: { key: string };
    }>();
    const mine = await createSandbox();
    for (const [path, method] of [
      [`/v1/sandboxes/${mine.session_id}`, "GET"],
      [`/v1/sandboxes/${mine.session_id}/heartbeat`, "POST"],
      [`/v1/sandboxes/${mine.session_id}`, "DELETE"],
    ] as const) {
      const res = await api(path, { method, key: team.api_key.key });
      expect(res.status).toBe(404);
      expect((await res.json<ErrorBody>()).error.type).toBe("not_found");
    }
    expect((await api("/v1/sandboxes/ses_doesnotexist0000")).status).toBe(404);
  });
});

describe("heartbeat and delete", () => {
  it("heartbeats with 204 while open and 410 session_expired once closed", async () => {
    const sandbox = await createSandbox();
    const hb = await api(`/v1/sandboxes/${sandbox.session_id}/heartbeat`, { method: "POST" });
    expect(hb.status).toBe(204);
    expect(await hb.text()).toBe("");
    const refusal = await (await api(`/v1/sandboxes/${sandbox.session_id}`, { method: "DELETE" })).json<ErrorBody>();
    await api(`/v1/sandboxes/${sandbox.session_id}?confirm_discard=${String(refusal.error.details.discard_token)}`, { method: "DELETE" });
    const after = await api(`/v1/sandboxes/${sandbox.session_id}/heartbeat`, { method: "POST" });
    expect(after.status).toBe(410);
    expect((await after.json<ErrorBody>()).error.type).toBe("session_expired");
  });

  it("refuses to delete an ungraded sandbox until the discard is confirmed", async () => {
    const sandbox = await createSandbox({ task_source: b64("# Delete me\n") });
    const res = await api(`/v1/sandboxes/${sandbox.session_id}`, { method: "DELETE" });
    expect(res.status).toBe(409);
    const body = await res.json<ErrorBody>();
    expect(body.error.type).toBe("conflict");
    expect(body.error.details).toMatchObject({
      reason: "ungraded_session",
      task_name: "Delete me",
      open_seconds: expect.any(Number),
      discard_token: expect.stringMatching(/^dsc_/),
    });
    const wrong = await api(`/v1/sandboxes/${sandbox.session_id}?confirm_discard=dsc_wrong`, { method: "DELETE" });
    expect(wrong.status).toBe(422);
    const ok = await api(`/v1/sandboxes/${sandbox.session_id}?confirm_discard=${String(body.error.details.discard_token)}`, {
      method: "DELETE",
    });
    expect(ok.status).toBe(200);
    const closed = await ok.json<{ state: string; closed_at: string | null }>();
    expect(closed.state).toBe("expired");
    expect(closed.closed_at).toEqual(expect.any(String));
    // The twins stop answering once the sandbox is closed.
    expect((await twinFetch(sandbox, "/user")).status).toBe(410);
  });
});

describe("sandboxes started for a registered agent or as a rerun", () => {
  it("answers 400 twins not enabled when the agent lacks a twin, and starts once it is registered", async () => {
    const reg = await (await postJson("/v1/agents", { name: "triage-bot", twins: ["github"] })).json<{ id: string }>();
    const refused = await postJson("/v1/sandboxes", { task_source: STUB_TASK, twins: ["github", "slack"], agent_id: reg.id });
    expect(refused.status).toBe(400);
    const body = await refused.json<ErrorBody>();
    expect(body.error.message).toMatch(/twins not enabled/);
    expect(body.error.details).toMatchObject({ missing_twins: ["slack"] });
    await postJson("/v1/agents", { name: "triage-bot", twins: ["slack"] });
    const ok = await postJson("/v1/sandboxes", { task_source: STUB_TASK, twins: ["github", "slack"], agent_id: reg.id });
    expect(ok.status).toBe(201);
    expect(await ok.json()).toMatchObject({ agent_id: reg.id });
  });

  it("keeps the baseline group of a rerun", async () => {
    const sandbox = await createSandbox({ group_id: "grp_rerun_2", baseline_group_id: "grp_baseline_1", agent_version: "v2" });
    const row = await (await api(`/v1/sandboxes/${sandbox.session_id}`)).json<Record<string, unknown>>();
    expect(row).toMatchObject({ group_id: "grp_rerun_2", baseline_group_id: "grp_baseline_1", agent_version: "v2" });
  });
});
