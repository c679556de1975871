// The dashboard's pages as the Worker serves them: the key check, the Run page a run's
// dashboard_url opens, Runs, Reliability and Sandboxes, over runs the platform really graded.
import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createSandbox, postJson, twinFetch } from "../helpers";
import { hasStoredLayout } from "../../../workers/dashboard/tape-view";
import { code, finalizeOk } from "../grading/run-helpers";

const ORIGIN = "http://pome.test";

const page = (path: string, init: RequestInit = {}) => SELF.fetch(`${ORIGIN}${path}`, { redirect: "manual", ...init });

async function otherTeamKey(slug: string): Promise<string> {
  const res = await postJson("/v1/admin/teams", { slug, email: `${slug}@example.com` }, { key: "test-admin-secret" });
  return ((await res.json()) as { api_key: { key: string } }).api_key.key;
}

async function signIn(key: string): Promise<string> {
  const res = await page("/app/login", { method: "POST", body: new URLSearchParams({ key, next: "/app/runs" }) });
  expect(res.status).toBe(303);
  expect(res.headers.get("location")).toBe("/app/runs");
  const cookie = res.headers.get("set-cookie") ?? "";
  expect(cookie).toMatch(/^pome_key=/);
  expect(cookie).toMatch(/HttpOnly/i);
  expect(cookie).toMatch(/SameSite=Strict/i);
  expect(cookie).toMatch(/Path=\/app/);
  // A session cookie: no expiry, so it ends with the browser session.
  expect(cookie).not.toMatch(/Expires|Max-Age/i);
  return cookie.split(";")[0];
}

async function gradedRun(opts: { group?: string; task?: string } = {}) {
  const sandbox = await createSandbox(opts.group ? { group_id: opts.group } : {});
  await twinFetch(sandbox, "/repos/acme/api");
  await twinFetch(sandbox, "/repos/acme/api/issues/1/labels", { method: "POST", body: JSON.stringify({ labels: ["bug"] }) });
  await twinFetch(sandbox, "/repos/acme/api/pages", { method: "POST", body: "{}" });
  const run = await finalizeOk(
    sandbox.session_id,
    [
      code("c1", "Issue #1 in `acme/api` has the `bug` label applied"),
      code("c2", "No unsupported endpoint was called", { always_scored: true }),
      code("c3", "Issue #1 exists in `acme/api`"),
    ],
    { scenario_name: opts.task ?? "Dashboard fixture" },
  );
  return { sandbox, run };
}

describe("the Run page a run's dashboard_url opens", () => {
  it("shows the score with its denominator and exclusions, the criteria, the timeline, the world diff and the downloads", async () => {
    const { run } = await gradedRun();
    expect(run.dashboard_url).toBe(`${ORIGIN}/app/runs/${run.run_id}`);
    const res = await SELF.fetch(run.dashboard_url);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const body = await res.text();
    // c1 passed, c2 failed (an unsupported call), c3 was already true in the seed.
    expect(body).toContain('data-score="50"');
    expect(body).toContain("1 of 2 evaluated criteria passed, 1 failed");
    expect(body).toContain("Excluded from the denominator: 1");
    expect(body).toContain("already_true_in_seed: Issue #1 exists in <code>acme/api</code>");
    expect(body).toMatch(/<details class="call mutated" id="seq-2"/);
    expect(body).toMatch(/<details class="call unsupported error" id="seq-3"/);
    expect(body).toContain('href="?page=1#seq-2"');
    // The world diff names the issue once, with its changed field under it.
    expect(body).toMatch(
      /<tr class="object"><th colspan="3"><code>[^<]*issues\[number=1\]<\/code><\/th><\/tr><tr class="added"><td><code>labels<\/code>/,
    );
    expect(body).toContain(`/app/runs/${run.run_id}/download/trace`);
    expect(body).toContain("Fix prompt");
  });

  it("redirects a download to a short-lived signed URL of the blob", async () => {
    const { run } = await gradedRun();
    const res = await page(`/app/runs/${run.run_id}/download/trace`);
    expect(res.status).toBe(302);
    const signed = await SELF.fetch(res.headers.get("location") ?? "");
    expect(signed.status).toBe(200);
    const lines = (await signed.text()).split("\n").filter(Boolean);
    expect(lines).toHaveLength(3);
    // The stored tape has the layout the timeline's fast path reads without parsing bodies.
    expect(lines.every(hasStoredLayout)).toBe(true);
    const state = await page(`/app/runs/${run.run_id}/download/state_final/github`);
    expect(state.status).toBe(302);
  });

  it("answers 404 for something that is not a run id, and for a run of another team", async () => {
    expect((await page("/app/runs/%3Cscript%3E")).status).toBe(404);
    const { run } = await gradedRun();
    const cookie = await signIn(await otherTeamKey(`app-iso-${crypto.randomUUID().slice(0, 6)}`));
    expect((await page(`/app/runs/${run.run_id}`, { headers: { cookie } })).status).toBe(404);
  });
});

describe("the key check", () => {
  it("refuses an unknown key with the form again and keeps no cookie", async () => {
    const res = await page("/app/login", { method: "POST", body: new URLSearchParams({ key: "pme_nope", next: "/app/runs" }) });
    expect(res.status).toBe(401);
    expect(res.headers.get("set-cookie")).toBeNull();
    expect(await res.text()).toContain("That key is not recognized.");
  });

  it("shows a signed-in team its own runs only, and never echoes the key", async () => {
    const key = await otherTeamKey(`app-own-${crypto.randomUUID().slice(0, 6)}`);
    const cookie = await signIn(key);
    const mine = await createSandbox({}, key);
    const finalized = await postJson(
      `/v1/sandboxes/${mine.session_id}/finalize`,
      {
        stop_reason: "done",
        exit_code: 0,
        duration_ms: 1,
        agent_model: "m",
        criteria: [code("c1", "Issue #1 exists in `acme/api`", { always_scored: true })],
      },
      { key },
    );
    const { run_id } = await finalized.json<{ run_id: string }>();
    const { run: local } = await gradedRun();
    const html = await (await page("/app/runs", { headers: { cookie } })).text();
    expect(html).toContain(run_id);
    expect(html).not.toContain(local.run_id);
    expect(html).not.toContain(key);
  });

  it("only sends a signed-in browser on to a dashboard path", async () => {
    const res = await page("/app/login", {
      method: "POST",
      body: new URLSearchParams({ key: "pme_local_dev", next: "https://evil.example/" }),
    });
    expect(res.headers.get("location")).toBe("/app/runs");
  });
});

describe("Runs, Reliability and Sandboxes", () => {
  it("lists runs newest first with score and verdict, filtered by group", async () => {
    const group = `grp_${crypto.randomUUID().slice(0, 10).replace(/-/g, "")}`;
    const first = await gradedRun({ group });
    const second = await gradedRun({ group });
    await gradedRun();
    const html = await (await page(`/app/runs?group=${group}`)).text();
    const ids = [...html.matchAll(/data-run="(run_[A-Za-z0-9]+)"/g)].map((m) => m[1]);
    expect(ids).toEqual([second.run.run_id, first.run.run_id]);
    expect(html).toContain('<span class="badge failed">failed</span>');
  });

  it("shows a group's pass rate, interval, pass^k curve and flaky criteria", async () => {
    const group = `grp_${crypto.randomUUID().slice(0, 10).replace(/-/g, "")}`;
    await gradedRun({ group, task: "Reliability page fixture" });
    await gradedRun({ group, task: "Reliability page fixture" });
    const res = await page(`/app/reliability/groups/${group}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('<div class="big pass-rate">0%</div>');
    expect(html).toContain('aria-label="pass^k curve"');
    expect(html).toContain("pass^2 = 0%");
    const index = await (await page("/app/reliability")).text();
    expect(index).toContain("Reliability page fixture");
    expect(index).toContain('aria-label="pass rates with 95% intervals"');
  });

  it("lists open sandboxes with their call counts and time left, and serves the rows the page refreshes with", async () => {
    const sandbox = await createSandbox();
    await twinFetch(sandbox, "/repos/acme/api");
    await twinFetch(sandbox, "/repos/acme/api/issues");
    const html = await (await page("/app/sandboxes")).text();
    expect(html).toContain(`data-sandbox="${sandbox.session_id}"`);
    const rows = await (await page("/app/sandboxes/rows")).text();
    const row = rows.slice(rows.indexOf(`data-sandbox="${sandbox.session_id}"`));
    expect(row).toMatch(/<td class="num calls">2<\/td>/);
    expect(row).toContain(`data-until="${sandbox.expires_at}"`);
  });
});

describe("what criteria say, rendered and escaped", () => {
  it("shows backticks as <code> and a criterion holding HTML as text", async () => {
    const sandbox = await createSandbox();
    await twinFetch(sandbox, "/repos/acme/api");
    const run = await finalizeOk(sandbox.session_id, [
      code("c1", "Issue #1 exists in `acme/api`", { always_scored: true }),
      code("c2", "The agent never ran `<script>alert(1)</script>` <img src=x onerror=alert(2)>"),
    ]);
    const body = await (await page(`/app/runs/${run.run_id}`)).text();
    expect(body).toContain("<summary>Issue #1 exists in <code>acme/api</code></summary>");
    expect(body).toContain("The agent never ran <code>&lt;script&gt;alert(1)&lt;/script&gt;</code> &lt;img src=x onerror=alert(2)&gt;");
    expect(body).not.toContain("<script>alert");
    expect(body).not.toContain("<img src=x");
  });
});

describe("a sandbox's own page", () => {
  it("shows its tape and its world now, and discards it only when confirmed", async () => {
    const sandbox = await createSandbox();
    await twinFetch(sandbox, "/repos/acme/api");
    await twinFetch(sandbox, "/repos/acme/api/issues/1/labels", { method: "POST", body: JSON.stringify({ labels: ["bug"] }) });
    const list = await (await page("/app/sandboxes/rows")).text();
    expect(list).toContain(`<a href="/app/sandboxes/${sandbox.session_id}">`);
    const html = await (await page(`/app/sandboxes/${sandbox.session_id}`)).text();
    expect(html).toContain("Tape (2 calls)");
    expect(html).toMatch(/<details class="call mutated" id="seq-2"/);
    expect(html).toContain('<details class="world" data-twin="github">');
    expect(html).toContain("&quot;bug&quot;");
    expect(html).toContain(`action="/app/sandboxes/${sandbox.session_id}/discard"`);

    const unconfirmed = await page(`/app/sandboxes/${sandbox.session_id}/discard`, { method: "POST", body: new URLSearchParams({}) });
    expect(unconfirmed.status).toBe(303);
    expect(unconfirmed.headers.get("location")).toBe(`/app/sandboxes/${sandbox.session_id}?unconfirmed=1`);
    const still = await (
      await SELF.fetch(`${ORIGIN}/v1/sandboxes/${sandbox.session_id}`, { headers: { authorization: "Bearer pme_local_dev" } })
    ).json<{ state: string }>();
    expect(still.state).toBe("running");

    const discarded = await page(`/app/sandboxes/${sandbox.session_id}/discard`, {
      method: "POST",
      body: new URLSearchParams({ confirm: "yes" }),
    });
    expect(discarded.status).toBe(303);
    const after = await (
      await SELF.fetch(`${ORIGIN}/v1/sandboxes/${sandbox.session_id}`, { headers: { authorization: "Bearer pme_local_dev" } })
    ).json<{
      state: string;
      close_reason: string | null;
    }>();
    expect(after).toMatchObject({ state: "expired", close_reason: "discarded" });
    const closedPage = await (await page(`/app/sandboxes/${sandbox.session_id}?discarded=1`)).text();
    expect(closedPage).toContain("Discarded: the sandbox is closed");
    expect(closedPage).not.toContain('/discard"');
  });

  it("answers 404 for another team's sandbox, and discards nothing of it", async () => {
    const sandbox = await createSandbox();
    const cookie = await signIn(await otherTeamKey(`app-sbx-${crypto.randomUUID().slice(0, 6)}`));
    expect((await page(`/app/sandboxes/${sandbox.session_id}`, { headers: { cookie } })).status).toBe(404);
    const refused = await page(`/app/sandboxes/${sandbox.session_id}/discard`, {
      method: "POST",
      headers: { cookie },
      body: new URLSearchParams({ confirm: "yes" }),
    });
    expect(refused.status).toBe(404);
    const still = await (
      await SELF.fetch(`${ORIGIN}/v1/sandboxes/${sandbox.session_id}`, { headers: { authorization: "Bearer pme_local_dev" } })
    ).json<{ state: string }>();
    expect(still.state).toBe("ready");
    expect((await page("/app/sandboxes/%3Cscript%3E")).status).toBe(404);
  });

  it("serves a favicon every page links to", async () => {
    const icon = await page("/app/assets/favicon.svg");
    expect(icon.status).toBe(200);
    expect(icon.headers.get("content-type")).toBe("image/svg+xml");
    expect(await icon.text()).toMatch(/^<svg /);
    expect(await (await page("/app/runs")).text()).toContain('<link rel="icon" href="/app/assets/favicon.svg"');
  });
});
