// Runs after finalize: listing, the whole run, report.md, and signed downloads of the evidence.
import { SELF, env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { signBlobUrl } from "../../../workers/blobs/sign";
import { readSettings } from "../../../workers/settings";
import { api, createSandbox, postJson, twinFetch } from "../helpers";
import { code, finalizeOk, getJson } from "./run-helpers";

interface Download {
  blob: string;
  key: string;
  url: string;
  expires_in: number;
  expires_at: string;
  per_twin?: Record<string, { key: string; url: string }>;
}

async function gradedRun(body: Record<string, unknown> = {}) {
  const sandbox = await createSandbox(body);
  await twinFetch(sandbox, "/repos/acme/api");
  await twinFetch(sandbox, "/repos/acme/api/pages", { method: "POST", body: "{}" });
  const run = await finalizeOk(
    sandbox.session_id,
    [
      code("c1", "Issue #1 exists in `acme/api`", { always_scored: true }),
      code("c2", "No unsupported endpoint was called", { always_scored: true }),
    ],
    { scenario_name: "Runs fixture", agent_sdk: "test-sdk" },
  );
  return { sandbox, run };
}

async function otherTeamKey(slug: string): Promise<string> {
  const res = await postJson("/v1/admin/teams", { slug, email: `${slug}@example.com` }, { key: "test-admin-secret" });
  return ((await res.json()) as { api_key: { key: string } }).api_key.key;
}

describe("GET /v1/runs", () => {
  it("lists compact rows newest first, filtered by group and task name", async () => {
    const group = `grp_${crypto.randomUUID().slice(0, 8)}`;
    const first = await gradedRun({ group_id: group });
    const second = await gradedRun({ group_id: group });
    await gradedRun();
    const { status, body } = await getJson<Record<string, unknown>[]>(`/v1/runs?group_id=${group}`);
    expect(status).toBe(200);
    expect(body.map((r) => r.id)).toEqual([second.run.run_id, first.run.run_id]);
    expect(Object.keys(body[0]).sort()).toEqual(
      [
        "agent_model",
        "agent_version",
        "created_at",
        "environment",
        "finished_at",
        "group_id",
        "id",
        "satisfaction_score",
        "session_id",
        "task_hash",
        "task_name",
        "verdict",
      ].sort(),
    );
    expect(body[0]).toMatchObject({ task_name: "Runs fixture", satisfaction_score: 50, group_id: group, agent_model: "test-model" });
    const byTask = await getJson<unknown[]>("/v1/runs?task_name=Runs%20fixture&limit=2");
    expect(byTask.body).toHaveLength(2);
  });

  it("refuses a limit outside 1–200", async () => {
    expect((await api("/v1/runs?limit=0")).status).toBe(422);
    expect((await api("/v1/runs?limit=201")).status).toBe(422);
  });
});

describe("GET /v1/runs/:id", () => {
  it("returns the whole run with steps, lanes, narration and storage keys", async () => {
    const { sandbox, run } = await gradedRun();
    const { body } = await getJson<Record<string, unknown>>(`/v1/runs/${run.run_id}`);
    expect(body).toMatchObject({
      id: run.run_id,
      session_id: sandbox.session_id,
      satisfaction_score: 50,
      provenance: "hosted",
      agent_sdk: "test-sdk",
      source: "twin-pull",
      tape_length: 2,
      trace_s3_key: `team-tm_local/session-${sandbox.session_id}/events.jsonl`,
      events_jsonl_url: `team-tm_local/session-${sandbox.session_id}/events.jsonl`,
      state_s3_key: `team-tm_local/session-${sandbox.session_id}/state_final.github.json`,
      baseline_group_id: null,
    });
    expect(body.steps).toEqual([expect.objectContaining({ index: 0, first_seq: 1, last_seq: 2, calls: 2, unsupported: 1 })]);
    expect(body.lanes).toEqual([
      expect.objectContaining({ key: "github repos.get", calls: 1 }),
      expect.objectContaining({ key: "github POST /repos/acme/api/pages", unsupported: 1 }),
    ]);
    // The verdict opens the summary, then the score (issue 38).
    expect(body).toMatchObject({ verdict: "failed", exit_signal: null, stderr_tail: null, regraded_from: null });
    expect(String(body.summary)).toMatch(/^Verdict: failed \(score 50 is below 100: `c2` failed\)\. Scored 50\/100/);
    expect(String(body.fix_prompt)).toContain("No unsupported endpoint was called");
  });

  it("answers 404, never 403, for another team's run and its downloads", async () => {
    const { run } = await gradedRun();
    const key = await otherTeamKey(`runs-other-${crypto.randomUUID().slice(0, 6)}`);
    for (const path of ["", "/report.md", "/trace", "/state"]) {
      const res = await api(`/v1/runs/${run.run_id}${path}`, { key });
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ error: { type: "not_found" } });
    }
    const { body } = await getJson<unknown[]>("/v1/runs", key);
    expect(body).toEqual([]);
  });
});

describe("GET /v1/runs/:id/report.md", () => {
  it("renders markdown with the score, criteria, handoff and rerun sections", async () => {
    const { run } = await gradedRun({ group_id: "grp_reportbase" });
    const res = await api(`/v1/runs/${run.run_id}/report.md`);
    expect(res.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    const md = await res.text();
    expect(md).toMatch(/^# Evaluation report — Runs fixture\n/);
    expect(md).toContain("**Score: 50/100** — 1 of 2 evaluated criteria passed; none excluded");
    expect(md).toContain("| ✅ | Issue #1 exists in `acme/api` | code | passed | — | issue #1 exists in acme/api |");
    expect(md).toContain("**Verdict: ❌ failed** — score 50 is below 100: `c2` failed");
    expect(md).toContain("## Handoff (fix prompt)");
    expect(md).toContain("## Rerun after fixing");
    expect(md).toContain("npx pome rerun grp_reportbase --agent-version v2 -- <your agent's command>");
  });
});

describe("signed downloads", () => {
  it("mints a no-store trace URL that downloads the plain tape with its content type", async () => {
    const { run } = await gradedRun();
    const res = await api(`/v1/runs/${run.run_id}/trace`);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const link = (await res.json()) as Download;
    expect(link).toMatchObject({ blob: "trace", expires_in: 300 });
    expect(Date.parse(link.expires_at) - Date.now()).toBeGreaterThan(290_000);
    const download = await SELF.fetch(link.url);
    expect(download.status).toBe(200);
    expect(download.headers.get("content-type")).toBe("application/x-ndjson; charset=utf-8");
    expect(download.headers.get("content-encoding")).toBeNull();
    const rows = (await download.text())
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { seq: number; path: string });
    expect(rows.map((r) => [r.seq, r.path])).toEqual([
      [1, "/repos/acme/api"],
      [2, "/repos/acme/api/pages"],
    ]);
  });

  it("mints state URLs per twin, only for twins whose blob exists", async () => {
    const { sandbox, run } = await gradedRun();
    const link = (await (await api(`/v1/runs/${run.run_id}/state`)).json()) as Download;
    expect(link.blob).toBe("state");
    expect(link.key).toBe(`team-tm_local/session-${sandbox.session_id}/state_final.github.json`);
    expect(Object.keys(link.per_twin ?? {})).toEqual(["github"]);
    const state = (await (await SELF.fetch(link.url)).json()) as { repositories: { name: string }[] };
    expect(state.repositories[0].name).toBe("api");
  });

  it("answers 404 blob_absent when the stored blob is gone", async () => {
    const { run } = await gradedRun();
    const { body } = await getJson<{ trace_s3_key: string; state_s3_key: string }>(`/v1/runs/${run.run_id}`);
    await env.EVIDENCE.delete([body.trace_s3_key, body.state_s3_key]);
    for (const path of ["trace", "state"]) {
      const res = await api(`/v1/runs/${run.run_id}/${path}`);
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ error: { details: { reason: "blob_absent" } } });
    }
  });

  it("refuses a tampered URL with 403", async () => {
    const { run } = await gradedRun();
    const link = (await (await api(`/v1/runs/${run.run_id}/trace`)).json()) as Download;
    const url = new URL(link.url);
    const other = new URL(url);
    other.pathname = url.pathname.replace("events.jsonl", "state_final.github.json");
    const later = new URL(url);
    later.searchParams.set("expires", String(Number(url.searchParams.get("expires")) + 3600));
    const unsigned = new URL(url);
    unsigned.searchParams.delete("sig");
    for (const bad of [other, later, unsigned]) {
      const res = await SELF.fetch(bad.toString());
      expect(res.status).toBe(403);
      expect(await res.json()).toMatchObject({ error: { type: "forbidden", details: { reason: "invalid_signature" } } });
    }
  });

  it("refuses an expired URL with 403", async () => {
    const { run } = await gradedRun();
    const { body } = await getJson<{ trace_s3_key: string }>(`/v1/runs/${run.run_id}`);
    const expired = await signBlobUrl({
      secret: readSettings(env).tokenSecret,
      origin: "http://pome.test",
      key: body.trace_s3_key,
      op: "get",
      now: Date.now() - 301_000,
    });
    const res = await SELF.fetch(expired.url);
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ error: { details: { reason: "expired" } } });
  });
});
