import { describe, expect, it } from "vitest";
import { api, postJson } from "../helpers";

const ADMIN = "test-admin-secret";

async function newTeam(slug: string, quota = 3) {
  const res = await postJson("/v1/admin/teams", { slug, email: `${slug}@example.com`, sessions_quota: quota }, { key: ADMIN });
  expect(res.status).toBe(201);
  return res.json<{ team: { id: string }; api_key: { id: string; key: string } }>();
}

describe("GET /v1/me tells who a key belongs to", () => {
  it("names the user, the team and the key presented", async () => {
    const body = await (await api("/v1/me")).json<Record<string, Record<string, string>>>();
    expect(body.user.id).toMatch(/^usr_/);
    expect(body.team).toMatchObject({ slug: "local", plan_tier: "local" });
    expect(body.api_key).toEqual({ id: expect.stringMatching(/^pme_/), name: "local development" });
  });

  it("answers 401 in the error envelope without a key, and for an unknown key", async () => {
    for (const key of [null, "pme_unknown_key_123"]) {
      const res = await api("/v1/me", { key });
      expect(res.status).toBe(401);
      const body = await res.json<{ error: { type: string; message: string; details: object; request_id: string } }>();
      expect(body.error).toMatchObject({ type: "unauthorized", details: {} });
      expect(body.error.request_id).toBe(res.headers.get("x-request-id"));
    }
  });

  it("answers 403 for a revoked key", async () => {
    const { api_key } = await newTeam("revoked-team");
    expect((await api("/v1/me", { key: api_key.key })).status).toBe(200);
    const revoke = await postJson(`/v1/admin/keys/${encodeURIComponent(api_key.id)}/revoke`, {}, { key: ADMIN });
    expect(revoke.status).toBe(200);
    const res = await api("/v1/me", { key: api_key.key });
    expect(res.status).toBe(403);
    expect((await res.json<{ error: { type: string } }>()).error.type).toBe("forbidden");
  });
});

describe("the admin path creates teams and keys for real deployments", () => {
  it("refuses callers without the admin secret", async () => {
    expect((await postJson("/v1/admin/teams", { slug: "x1", email: "a@b.co" }, { key: "wrong" })).status).toBe(401);
    expect((await postJson("/v1/admin/teams", { slug: "x1", email: "a@b.co" })).status).toBe(401);
  });

  it("creates a team whose key works, once per slug", async () => {
    const { api_key } = await newTeam("acme-co");
    expect(api_key.key).toMatch(/^pme_[A-Za-z0-9]{40}$/);
    const me = await (await api("/v1/me", { key: api_key.key })).json<{ team: { slug: string } }>();
    expect(me.team.slug).toBe("acme-co");
    const again = await postJson("/v1/admin/teams", { slug: "acme-co", email: "x@acme.co" }, { key: ADMIN });
    expect(again.status).toBe(409);
  });

  it("names the failing field of a bad request", async () => {
    const res = await postJson("/v1/admin/teams", { slug: "Bad Slug", email: "nope" }, { key: ADMIN });
    expect(res.status).toBe(422);
    const body = await res.json<{ error: { details: { issues: { path: string }[] } } }>();
    expect(body.error.details.issues.map((i) => i.path)).toEqual(expect.arrayContaining(["slug", "email"]));
  });
});

describe("GET /v1/usage counts sandboxes open right now", () => {
  it("rises when a sandbox opens and falls when it closes", async () => {
    const { api_key } = await newTeam("usage-team", 5);
    const usage = async () => (await api("/v1/usage", { key: api_key.key })).json<Record<string, number | string>>();
    expect(await usage()).toMatchObject({ sessions_used: 0, sessions_quota: 5, sessions_remaining: 5, plan_tier: "pro" });
    const created = await (await postJson("/v1/sandboxes", { task_source: "IyAuLgo=" }, { key: api_key.key })).json<{
      session_id: string;
    }>();
    expect(await usage()).toMatchObject({ sessions_used: 1, sessions_remaining: 4 });
    const refusal = await (await api(`/v1/sandboxes/${created.session_id}`, { method: "DELETE", key: api_key.key })).json<{
      error: { details: { discard_token: string } };
    }>();
    await api(`/v1/sandboxes/${created.session_id}?confirm_discard=${refusal.error.details.discard_token}`, {
      method: "DELETE",
      key: api_key.key,
    });
    expect(await usage()).toMatchObject({ sessions_used: 0, sessions_remaining: 5 });
  });
});
