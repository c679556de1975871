// Where finalize reads its evidence: the live sandbox, the archive of an expired one, or uploaded
// blobs; and the asynchronous form that answers at once.
import { SELF, env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { Sandbox } from "../../../durable-objects/Sandbox";
import { sandboxStub } from "../../../workers/stubs";
import { api, createSandbox, twinFetch } from "../helpers";
import { code, finalize, finalizeOk, getJson } from "./run-helpers";

const EXISTS = code("c1", "Issue #1 exists in `acme/api`", { always_scored: true });
const NO_UNSUPPORTED = code("c2", "No unsupported endpoint was called", { always_scored: true });

describe("an expired sandbox", () => {
  it("is graded from the archive it left in R2", async () => {
    const sandbox = await createSandbox();
    await twinFetch(sandbox, "/repos/acme/api/pages", { method: "POST", body: "{}" });
    await sandboxStub(env, sandbox.session_id).close("expired", "lifetime");
    const run = await finalizeOk(sandbox.session_id, [EXISTS, NO_UNSUPPORTED]);
    expect(run.criteria_results.map((r) => r.status)).toEqual(["passed", "failed"]);
    const { body } = await getJson<{ source: string; tape_length: number }>(`/v1/runs/${run.run_id}`);
    expect(body).toMatchObject({ source: "archive", tape_length: 1 });
  });

  it("cannot be finalized once its run was discarded", async () => {
    const sandbox = await createSandbox();
    const refusal = (await (await api(`/v1/sandboxes/${sandbox.session_id}`, { method: "DELETE" })).json()) as {
      error: { details: { discard_token: string } };
    };
    const token = refusal.error.details.discard_token;
    expect((await api(`/v1/sandboxes/${sandbox.session_id}?confirm_discard=${token}`, { method: "DELETE" })).status).toBe(200);
    const res = await finalize(sandbox.session_id, [EXISTS]);
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ error: { type: "conflict", details: { reason: "session_discarded" } } });
  });
});

describe("redaction", () => {
  it("keeps secrets out of the stored tape", async () => {
    const sandbox = await createSandbox();
    const secret = "ghp_abcdefghijklmnopqrstuvwxyz0123456789";
    await twinFetch(sandbox, `/repos/acme/api/pages?token=${secret}`, { method: "POST", body: JSON.stringify({ note: secret }) });
    const run = await finalizeOk(sandbox.session_id, [NO_UNSUPPORTED]);
    const link = (await (await api(`/v1/runs/${run.run_id}/trace`)).json()) as { url: string };
    const tape = await (await SELF.fetch(link.url)).text();
    expect(tape).not.toContain(secret);
    expect(tape).toContain("[REDACTED]");
  });

  it("keeps a seed's secrets out of the stored initial state, whether or not an escape stands before them", async () => {
    const plain = "ghp_abcdefghijklmnopqrstuvwxyz0123456789";
    const afterEscape = "pme_abcdefghijklmnop";
    const seed = {
      repositories: [
        { owner: "acme", name: "api", issues: [{ number: 1, title: "Leaked", body: `first ${plain}\nsecond line\n${afterEscape}` }] },
      ],
    };
    const sandbox = await createSandbox({ seed });
    const stored = JSON.stringify(
      await runInDurableObject(sandboxStub(env, sandbox.session_id), (instance: Sandbox) => instance.initialStates()),
    );
    expect(stored).not.toContain(plain);
    expect(stored).not.toContain(afterEscape);
    expect(stored).toContain("[REDACTED]");
    // The world itself holds what the seed said: only what is stored for grading is redacted.
    const issue = (await (await twinFetch(sandbox, "/repos/acme/api/issues/1")).json()) as { body: string };
    expect(issue.body).toContain(afterEscape);
  });
});

interface Uploads {
  uploads: Record<"trace" | "state_initial" | "state_final", { key: string; url: string; method: string; headers: Record<string, string> }>;
  finalize_fields: Record<string, string>;
}

const gzip = (text: string) => new Response(new Blob([text]).stream().pipeThrough(new CompressionStream("gzip"))).arrayBuffer();

describe('source: "blob"', () => {
  it("grades uploaded blobs, a gzip upload stored plain, with the provision snapshot as the seed", async () => {
    const sandbox = await createSandbox();
    const minted = await api(`/v1/sandboxes/${sandbox.session_id}/uploads`, { method: "POST" });
    expect(minted.status).toBe(200);
    const { uploads, finalize_fields } = (await minted.json()) as Uploads;
    const row = {
      seq: 1,
      at: new Date().toISOString(),
      twin: "github",
      method: "DELETE",
      path: "/repos/acme/api",
      status: 501,
      fidelity: "unsupported",
      operation: "unsupported",
    };
    const put = await SELF.fetch(uploads.trace.url, {
      method: "PUT",
      body: await gzip(`${JSON.stringify(row)}\n`),
      headers: { "content-encoding": "gzip" },
    });
    expect(put.status).toBe(201);
    const state = (await (await twinFetch(sandbox, "/_pome/state")).json()) as { repositories: { issues: { number: number }[] }[] };
    state.repositories[0].issues = state.repositories[0].issues.filter((i) => i.number !== 1);
    expect((await SELF.fetch(uploads.state_final.url, { method: "PUT", body: JSON.stringify(state) })).status).toBe(201);

    const run = await finalizeOk(
      sandbox.session_id,
      [EXISTS, NO_UNSUPPORTED, code("c3", "No new labels were created in `acme/api`", { always_scored: true })],
      {
        source: "blob",
        trace_storage_key: finalize_fields.trace_storage_key,
        state_final_storage_key: finalize_fields.state_final_storage_key,
      },
    );
    expect(run.criteria_results.map((r) => [r.id, r.status])).toEqual([
      ["c1", "failed"],
      ["c2", "failed"],
      ["c3", "passed"],
    ]);
    const { body } = await getJson<{ source: string }>(`/v1/runs/${run.run_id}`);
    expect(body.source).toBe("blob");
  });

  it("refuses an upload URL used for another key, and a key outside the sandbox", async () => {
    const sandbox = await createSandbox();
    const { uploads } = (await (await api(`/v1/sandboxes/${sandbox.session_id}/uploads`, { method: "POST" })).json()) as Uploads;
    const moved = uploads.trace.url.replace("events.jsonl", "state_final.github.json");
    expect((await SELF.fetch(moved, { method: "PUT", body: "{}" })).status).toBe(403);
    const res = await finalize(sandbox.session_id, [EXISTS], {
      source: "blob",
      trace_storage_key: "team-tm_local/session-ses_other/upload/events.jsonl",
    });
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ error: { details: { issues: [{ path: "trace_storage_key" }] } } });
    expect((await twinFetch(sandbox, "/repos/acme/api")).status).toBe(200);
  });

  it("requires the trace key", async () => {
    const sandbox = await createSandbox();
    const res = await finalize(sandbox.session_id, [EXISTS], { source: "blob" });
    expect(res.status).toBe(422);
  });
});

describe("Prefer: respond-async", () => {
  // Completing one is tested in finalize-workflow.test.ts, through the Workflows test helpers.
  it("has no evaluation to poll for a sandbox never finalized asynchronously", async () => {
    const sandbox = await createSandbox();
    expect((await api(`/v1/sandboxes/${sandbox.session_id}/evaluation`)).status).toBe(404);
  });
});

describe("uploads never keep a secret", () => {
  it("redacts an uploaded tape before it is stored", async () => {
    const sandbox = await createSandbox();
    const { uploads } = (await (await api(`/v1/sandboxes/${sandbox.session_id}/uploads`, { method: "POST" })).json()) as Uploads;
    const secret = sandbox.provider_credentials.github.token;
    const row = {
      seq: 1,
      at: new Date().toISOString(),
      twin: "github",
      method: "GET",
      path: "/user",
      status: 200,
      request_body: { note: secret },
    };
    expect((await SELF.fetch(uploads.trace.url, { method: "PUT", body: `${JSON.stringify(row)}\n` })).status).toBe(201);
    const stored = await (await env.EVIDENCE.get(uploads.trace.key))?.text();
    expect(stored).not.toContain(secret);
    expect(JSON.parse(stored ?? "{}").request_body.note).toBe("[REDACTED]");
  });
});
