// The server killed (SIGKILL, no shutdown) and restarted on the same state folder keeps its open
// sandboxes (world and tape), its runs and its blobs.
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { LOCAL_KEY, startDevServer, type DevServer } from "../server";

const stateDir = mkdtempSync(path.join(os.tmpdir(), "pome-restart-"));
let server: DevServer | undefined;
afterAll(async () => {
  await server?.stop();
  rmSync(stateDir, { recursive: true, force: true });
});

const start = () => startDevServer({ env: { POME_STATE_DIR: stateDir } });
const key = { authorization: `Bearer ${LOCAL_KEY}`, "content-type": "application/json" };

interface Sandbox {
  session_id: string;
  agent_token: string;
  per_twin: { github: { api_url: string } };
}

describe("a server killed and restarted on the same state", () => {
  it("keeps open sandboxes, runs and blobs", async () => {
    // Folders an older `npm start` left in the OS temp folder (it bundled there) are not this run's.
    const bundleFolders = () => readdirSync(os.tmpdir()).filter((name) => name.startsWith("pome-bundle-"));
    const bundlesBefore = bundleFolders();
    server = await start();
    const create = async () =>
      (await (
        await fetch(`${server?.url}/v1/sandboxes`, { method: "POST", headers: key, body: JSON.stringify({ task_source: "IyAuLgo=" }) })
      ).json()) as Sandbox;
    const open = await create();
    const graded = await create();
    const auth = (s: Sandbox) => ({ authorization: `Bearer ${s.agent_token}`, "content-type": "application/json" });
    for (let i = 0; i < 5; i++) {
      const res = await fetch(`${open.per_twin.github.api_url}/repos/acme/api/issues/1/comments`, {
        method: "POST",
        headers: auth(open),
        body: JSON.stringify({ body: `kept ${i}` }),
      });
      expect(res.status).toBe(201);
    }
    const finalize = await fetch(`${server.url}/v1/sandboxes/${graded.session_id}/finalize`, {
      method: "POST",
      headers: key,
      body: JSON.stringify({
        criteria: [{ id: "c1", kind: "code", text: "Issue #1 exists in `acme/api`", always_scored: true }],
        stop_reason: "done",
        exit_code: 0,
        duration_ms: 1,
        agent_model: "m",
      }),
    });
    expect(finalize.status).toBe(200);
    const run = (await finalize.json()) as { run_id: string };
    const tapeBefore = await (await fetch(`${open.per_twin.github.api_url}/_pome/events`, { headers: auth(open) })).text();
    const stateBefore = await (await fetch(`${open.per_twin.github.api_url}/_pome/state`, { headers: auth(open) })).text();

    await server.kill();
    // What the killed server ran from stays in its state folder (the next start replaces it);
    // nothing of it is left in the OS temp folder.
    expect(existsSync(path.join(stateDir, "bundle", "index.js"))).toBe(true);
    expect(bundleFolders().filter((name) => !bundlesBefore.includes(name))).toEqual([]);
    server = await start();

    const base = open.per_twin.github.api_url.replace(/^http:\/\/127\.0\.0\.1:\d+/, server.url);
    const rows = (text: string) =>
      (JSON.parse(text) as { seq: number; status: number; path: string; request_body: unknown; mutated: boolean }[]).map((r) => [
        r.seq,
        r.status,
        r.path,
        r.request_body,
        r.mutated,
      ]);
    expect(rows(await (await fetch(`${base}/_pome/events`, { headers: auth(open) })).text())).toEqual(rows(tapeBefore));
    const noOrigin = (text: string) => text.replaceAll(/http:\/\/127\.0\.0\.1:\d+/g, "");
    expect(noOrigin(await (await fetch(`${base}/_pome/state`, { headers: auth(open) })).text())).toBe(noOrigin(stateBefore));
    const detail = (await (await fetch(`${server.url}/v1/sandboxes/${open.session_id}`, { headers: key })).json()) as {
      state: string;
      tape_length: number;
    };
    expect(detail).toMatchObject({ state: "running", tape_length: 5 });
    // The open sandbox still takes calls, after the last seq.
    expect((await fetch(`${base}/repos/acme/api/issues/1`, { headers: auth(open) })).status).toBe(200);
    const runView = await fetch(`${server.url}/v1/runs/${run.run_id}`, { headers: key });
    expect(runView.status).toBe(200);
    const trace = (await (await fetch(`${server.url}/v1/runs/${run.run_id}/trace`, { headers: key })).json()) as { url: string };
    const blob = await fetch(trace.url);
    expect(blob.status).toBe(200);
    await blob.text();
  });
});
