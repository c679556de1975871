// The dashboard behind the team key, as a production deployment serves it: the router called with
// a production environment (no local team), so nothing opens without a key entered into the form.
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import app from "../../../workers/index";
import { postJson } from "../helpers";

const production = { ...env, ENVIRONMENT: "production", TOKEN_SECRET: "production-test-secret", ADMIN_SECRET: "production-admin" };

async function call(path: string, init: RequestInit = {}): Promise<Response> {
  const ctx = createExecutionContext();
  const res = await app.fetch(new Request(`https://pome.example${path}`, { redirect: "manual", ...init }), production, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

describe("the dashboard in production", () => {
  it("asks for the key, refuses the local development key, and opens with a real one", async () => {
    const form = await call("/app/runs");
    expect(form.status).toBe(401);
    const html = await form.text();
    expect(html).toContain('<form method="post" action="/app/login">');
    expect(html).toContain('type="password"');

    const local = await call("/app/login", { method: "POST", body: new URLSearchParams({ key: "pme_local_dev", next: "/app/runs" }) });
    expect(local.status).toBe(401);

    const created = await postJson(
      "/v1/admin/teams",
      { slug: `prod-${crypto.randomUUID().slice(0, 6)}`, email: "p@example.com" },
      { key: "test-admin-secret" },
    );
    const { api_key } = await created.json<{ api_key: { key: string } }>();
    const signed = await call("/app/login", { method: "POST", body: new URLSearchParams({ key: api_key.key, next: "/app/sandboxes" }) });
    expect(signed.status).toBe(303);
    expect(signed.headers.get("location")).toBe("/app/sandboxes");
    const cookie = signed.headers.get("set-cookie") ?? "";
    // Over https the cookie is Secure as well.
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/Secure/i);
    const opened = await call("/app/sandboxes", { headers: { cookie: cookie.split(";")[0] } });
    expect(opened.status).toBe(200);
    expect(await opened.text()).toContain("No open sandboxes.");

    const out = await call("/app/logout", { method: "POST", headers: { cookie: cookie.split(";")[0] } });
    expect(out.headers.get("set-cookie")).toMatch(/pome_key=;/);
  });
});
