// Issue 36, point 6: the dashboard is hardened. Every /app answer forbids framing, sniffing and
// inline scripts; a form posted from another site changes nothing; evidence blobs are attachments.
import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { isSameOriginRequest } from "../../../workers/routes/app/security";
import { createSandbox, postJson, twinFetch } from "../helpers";
import { code, finalizeOk } from "../grading/run-helpers";

const ORIGIN = "http://pome.test";
const EVIL = "https://evil.example";

const call = (path: string, init: RequestInit = {}) => SELF.fetch(`${ORIGIN}${path}`, { redirect: "manual", ...init });

async function teamKey(): Promise<string> {
  const slug = `harden-${crypto.randomUUID().slice(0, 8)}`;
  const res = await postJson("/v1/admin/teams", { slug, email: `${slug}@example.com` }, { key: "test-admin-secret" });
  return ((await res.json()) as { api_key: { key: string } }).api_key.key;
}

const loginForm = (key: string) => new URLSearchParams({ key, next: "/app/runs" });

function expectHardened(res: Response) {
  const csp = res.headers.get("content-security-policy") ?? "";
  expect(csp).toContain("frame-ancestors 'none'");
  const scriptSrc = csp.split(";").find((d) => d.trim().startsWith("script-src")) ?? "";
  expect(scriptSrc.trim()).toBe("script-src 'self'");
  expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
  expect(res.headers.get("x-frame-options")).toBe("DENY");
  expect(res.headers.get("x-content-type-options")).toBe("nosniff");
  expect(res.headers.get("referrer-policy")).toBe("no-referrer");
}

async function gradedRun() {
  const sandbox = await createSandbox();
  await twinFetch(sandbox, "/repos/acme/api/issues/1/labels", { method: "POST", body: JSON.stringify({ labels: ["bug"] }) });
  return finalizeOk(sandbox.session_id, [code("c1", "Issue #1 in `acme/api` has the `bug` label applied")], {
    scenario_name: "Hardening fixture",
  });
}

describe("every dashboard answer forbids framing, sniffing and inline scripts", () => {
  it("sets the headers on pages, the sign-in form, report.md, assets, refusals and not-found pages", async () => {
    const run = await gradedRun();
    for (const path of [
      "/app/login",
      "/app/runs",
      `/app/runs/${run.run_id}`,
      `/app/runs/${run.run_id}/report.md`,
      "/app/runs/run_doesnotexist00",
      "/app/reliability",
      "/app/sandboxes",
      "/app/sandboxes/rows",
      "/app/assets/dashboard.js",
    ]) {
      const res = await call(path);
      expect(res.status, path).toBeLessThan(500);
      expectHardened(res);
    }
  });

  it("has no inline script on any page: scripts are files under /app/assets/, served as JavaScript", async () => {
    for (const path of ["/app/login", "/app/runs", "/app/sandboxes"]) {
      const html = await (await call(path)).text();
      const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
      expect(scripts.length, path).toBeGreaterThan(0);
      for (const [, attrs, body] of scripts) {
        expect(attrs).toMatch(/src="\/app\/assets\/[a-z-]+\.js"/);
        expect(body).toBe("");
      }
      expect(html).not.toMatch(/\son[a-z]+=/);
      for (const [, src] of html.matchAll(/src="(\/app\/assets\/[^"]+)"/g)) {
        const asset = await call(src);
        expect(asset.status).toBe(200);
        expect(asset.headers.get("content-type")).toMatch(/^text\/javascript/);
      }
    }
    expect((await call("/app/assets/nothing.js")).status).toBe(404);
  });

  it("serves an evidence download as an attachment that cannot run", async () => {
    const run = await gradedRun();
    const redirect = await call(`/app/runs/${run.run_id}/download/trace`);
    expect(redirect.status).toBe(302);
    expectHardened(redirect);
    const blob = await SELF.fetch(redirect.headers.get("location") ?? "");
    expect(blob.status).toBe(200);
    expect(blob.headers.get("content-disposition")).toMatch(/^attachment; filename="[^"]+\.jsonl"$/);
    expect(blob.headers.get("x-content-type-options")).toBe("nosniff");
    expect(blob.headers.get("content-security-policy")).toMatch(/^sandbox(;|$)/);
    await blob.arrayBuffer();
  });
});

describe("a form posted from another site changes nothing", () => {
  it("refuses a cross-site login with 403 and sets no cookie", async () => {
    const key = await teamKey();
    const crossSite: Record<string, string>[] = [
      { origin: EVIL },
      { "sec-fetch-site": "cross-site" },
      { "sec-fetch-site": "same-site", origin: "http://app.pome.test" },
      { origin: "null" },
    ];
    for (const headers of crossSite) {
      const res = await call("/app/login", { method: "POST", headers, body: loginForm(key) });
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(res.headers.get("set-cookie")).toBeNull();
      expectHardened(res);
      expect(await res.text()).toContain("nothing was changed");
    }
  });

  it("refuses a cross-site logout with 403 and keeps the cookie", async () => {
    const res = await call("/app/logout", {
      method: "POST",
      headers: { "sec-fetch-site": "cross-site", cookie: "pome_key=pme_local_dev" },
    });
    expect(res.status).toBe(403);
    expect(res.headers.get("set-cookie")).toBeNull();
  });

  it("accepts the same form from the dashboard's own origin", async () => {
    const key = await teamKey();
    const sameOrigin: Record<string, string>[] = [{ origin: ORIGIN, "sec-fetch-site": "same-origin" }, { origin: ORIGIN }, {}];
    for (const headers of sameOrigin) {
      const res = await call("/app/login", { method: "POST", headers, body: loginForm(key) });
      expect(res.status, JSON.stringify(headers)).toBe(303);
      expect(res.headers.get("set-cookie")).toMatch(/^pome_key=/);
      expectHardened(res);
    }
    const out = await call("/app/logout", { method: "POST", headers: { origin: ORIGIN, "sec-fetch-site": "same-origin" } });
    expect(out.status).toBe(303);
    expect(out.headers.get("set-cookie")).toMatch(/^pome_key=;/);
  });
});

describe("isSameOriginRequest", () => {
  const own = ["https://pome.example"];
  it("trusts Sec-Fetch-Site when the browser sends it", () => {
    expect(isSameOriginRequest({ secFetchSite: "same-origin", origin: "https://pome.example" }, own)).toBe(true);
    expect(isSameOriginRequest({ secFetchSite: "none" }, own)).toBe(true);
    expect(isSameOriginRequest({ secFetchSite: "same-site", origin: "https://pome.example" }, own)).toBe(false);
    expect(isSameOriginRequest({ secFetchSite: "cross-site" }, own)).toBe(false);
  });
  it("falls back to Origin, and lets a request with neither through (not a browser's)", () => {
    expect(isSameOriginRequest({ origin: "https://pome.example" }, own)).toBe(true);
    expect(isSameOriginRequest({ origin: "https://pome.example.evil.test" }, own)).toBe(false);
    expect(isSameOriginRequest({ origin: "null" }, own)).toBe(false);
    expect(isSameOriginRequest({}, own)).toBe(true);
  });
});
