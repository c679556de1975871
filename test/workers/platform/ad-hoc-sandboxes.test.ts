// Sandboxes started without a task (a walk-through's curl, `pome doctor`, `pome sandbox create`)
// name no task anywhere, and a discarded sandbox says it was discarded.
import { describe, expect, it } from "vitest";
import { code, finalizeOk } from "../grading/run-helpers";
import { api, postJson, STUB_TASK, type CreatedSandbox } from "../helpers";

interface Listed {
  id: string;
  state: string;
  task_name: string | null;
  close_reason: string | null;
  closed_at: string | null;
}

const b64 = (text: string) => btoa(String.fromCharCode(...new TextEncoder().encode(text)));

async function start(body: Record<string, unknown>): Promise<CreatedSandbox & Listed> {
  const res = await postJson("/v1/sandboxes", body);
  expect(res.status, await res.clone().text()).toBe(201);
  return res.json();
}

async function discard(id: string): Promise<Listed> {
  const refusal = await api(`/v1/sandboxes/${id}`, { method: "DELETE" });
  const token = (await refusal.json<{ error: { details: { discard_token: string } } }>()).error.details.discard_token;
  const res = await api(`/v1/sandboxes/${id}?confirm_discard=${encodeURIComponent(token)}`, { method: "DELETE" });
  expect(res.status).toBe(200);
  return res.json();
}

describe("a sandbox started without a task names no task", () => {
  it("needs no task_source, and keeps no task", async () => {
    const sandbox = await start({ twins: ["github"] });
    expect(sandbox.task_name).toBeNull();
    const got = await (await api(`/v1/sandboxes/${sandbox.session_id}`)).json<{ task_name: string | null; task_markdown: string | null }>();
    expect(got).toMatchObject({ task_name: null, task_markdown: null });
    await discard(sandbox.session_id);
  });

  it("reads the old placeholder task (`# ..`) as no task", async () => {
    const sandbox = await start({ twins: ["github"], task_source: STUB_TASK });
    expect(sandbox.task_name).toBeNull();
    await discard(sandbox.session_id);
  });

  it("still boots a task's Seed State when a task is given", async () => {
    const task = '# Seeded\n\n## Seed State\n```json\n{"github": {"repositories": [{"owner": "northwind", "name": "payments"}]}}\n```\n';
    const sandbox = await start({ twins: ["github"], task_source: b64(task) });
    expect(sandbox.task_name).toBe("Seeded");
    await discard(sandbox.session_id);
  });

  it("grades with the criteria sent to finalize, into a run of no task that no run-set lists", async () => {
    const sandbox = await start({ twins: ["github"], agent_version: "ad-hoc-probe" });
    const run = await finalizeOk(sandbox.session_id, [code("c1", "Issue #1 exists in `acme/api`", { always_scored: true })]);
    const stored = await (await api(`/v1/runs/${run.run_id}`)).json<{ task_name: string | null }>();
    expect(stored.task_name).toBeNull();
    const sets = await (await api("/v1/run-sets")).json<{ task_name: string | null; agent_version: string | null }[]>();
    expect(sets.filter((s) => s.agent_version === "ad-hoc-probe")).toEqual([]);
    expect(sets.every((s) => s.task_name !== null && s.task_name !== "..")).toBe(true);
  });
});

describe("a discarded sandbox says it was discarded", () => {
  it("answers the delete, the read and the listing with close_reason discarded", async () => {
    const sandbox = await start({ twins: ["github"] });
    const closed = await discard(sandbox.session_id);
    expect(closed).toMatchObject({ state: "expired", close_reason: "discarded" });
    expect(Date.parse(closed.closed_at ?? "")).toBeLessThanOrEqual(Date.now());
    const got = await (await api(`/v1/sandboxes/${sandbox.session_id}`)).json<Listed>();
    expect(got.close_reason).toBe("discarded");
    const listed = await (await api("/v1/sandboxes?limit=200")).json<Listed[]>();
    expect(listed.find((s) => s.id === sandbox.session_id)).toMatchObject({ close_reason: "discarded" });
  });

  it("says finalized for a sandbox closed by finalize, and nothing while open", async () => {
    const sandbox = await start({ twins: ["github"] });
    const open = await (await api(`/v1/sandboxes/${sandbox.session_id}`)).json<Listed>();
    expect(open.close_reason).toBeNull();
    await finalizeOk(sandbox.session_id, [code("c1", "Issue #1 exists in `acme/api`", { always_scored: true })]);
    const got = await (await api(`/v1/sandboxes/${sandbox.session_id}`)).json<Listed>();
    expect(got).toMatchObject({ state: "done", close_reason: "finalized" });
  });
});
