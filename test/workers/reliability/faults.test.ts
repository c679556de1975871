// Faults injected into a real Sandbox: R2 or D1 failing during finalize, an alarm that throws, a
// Durable Object aborted mid-run. Each leaves a sandbox that is intact and still finalizable, and
// never a half-written run.
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { Sandbox } from "../../../durable-objects/Sandbox";
import { sandboxStub } from "../../../workers/stubs";
import { code, finalize, finalizeOk, getJson } from "../grading/run-helpers";
import { api, createSandbox, octokitFor, twinFetch, type CreatedSandbox } from "../helpers";

const EXISTS = [code("c1", "Issue #1 exists in `acme/api`", { always_scored: true })];

const faultCounts = { injected: 0 };

/** Replaces bindings of one live Sandbox instance; returns the undo. */
async function patchSandboxEnv(sessionId: string, patch: (current: Env) => Partial<Env>): Promise<() => Promise<void>> {
  const stub = sandboxStub(env, sessionId);
  const original = await runInDurableObject(stub, (instance: Sandbox) => {
    const current: Env = Reflect.get(instance, "env");
    Reflect.set(instance, "env", { ...current, ...patch(current) });
    return current;
  });
  return async () => {
    await runInDurableObject(stub, (instance: Sandbox) => {
      Reflect.set(instance, "env", original);
    });
  };
}

/** A wrapper whose listed methods fail (while `failing()` says so) and that counts what succeeds. */
function faulty<T extends object>(target: T, fails: (method: string, args: unknown[]) => boolean, seen: string[] = []): T {
  return new Proxy(target, {
    get(obj, prop) {
      const value: unknown = Reflect.get(obj, prop);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        if (fails(String(prop), args)) {
          faultCounts.injected++;
          throw new Error(`injected fault: ${String(prop)}`);
        }
        seen.push(`${String(prop)} ${typeof args[0] === "string" ? args[0] : ""}`);
        return Reflect.apply(value, obj, args);
      };
    },
  });
}

const runsFor = async (sessionId: string) =>
  (await env.DB.prepare("SELECT count(*) AS n FROM runs WHERE session_id = ?").bind(sessionId).first<{ n: number }>())?.n ?? 0;

const stateOf = async (sessionId: string) => (await getJson<{ state: string }>(`/v1/sandboxes/${sessionId}`)).body.state;

const tapeOf = async (sandbox: CreatedSandbox) =>
  await (await twinFetch(sandbox, "/_pome/events")).json<{ seq: number; operation: string; status: number }[]>();

/** Runs the Sandbox's alarm now, as the runtime would (and as it retries one that threw). */
const alarm = (sessionId: string) => runInDurableObject(sandboxStub(env, sessionId), (instance: Sandbox) => instance.alarm());

const dueNow = (sessionId: string, timer: string) =>
  runInDurableObject(sandboxStub(env, sessionId), (_instance, state) => {
    state.storage.sql.exec("UPDATE _timers SET due_at = 0 WHERE name = ?", timer);
  });

describe("R2 failing during finalize", () => {
  it("answers 503, writes no run, and leaves the sandbox open and finalizable", async () => {
    const sandbox = await createSandbox();
    await octokitFor(sandbox).issues.get({ owner: "acme", repo: "api", issue_number: 1 });
    const undo = await patchSandboxEnv(sandbox.session_id, (current) => ({
      EVIDENCE: faulty(current.EVIDENCE, (method) => method === "put" || method === "createMultipartUpload"),
    }));
    const failed = await finalize(sandbox.session_id, EXISTS);
    expect(failed.status).toBe(503);
    expect((await failed.json<{ error: { type: string } }>()).error.type).toBe("downstream_unavailable");
    expect(await runsFor(sandbox.session_id)).toBe(0);
    expect(await stateOf(sandbox.session_id)).toBe("running");
    await undo();
    const run = await finalizeOk(sandbox.session_id, EXISTS);
    expect(run.criteria_results[0].status).toBe("passed");
    expect(await runsFor(sandbox.session_id)).toBe(1);
    expect(await stateOf(sandbox.session_id)).toBe("done");
  });
});

// D1 failing during an asynchronous finalize: the Workflow's retries, in
// test/workers/finalize/finalize-workflow.test.ts.

describe("an alarm that throws", () => {
  it("is retried, archives exactly once, and the D1 index converges", async () => {
    const sandbox = await createSandbox();
    const gh = octokitFor(sandbox);
    await gh.issues.createComment({ owner: "acme", repo: "api", issue_number: 1, body: "before expiry" });
    let mirrorFails = 1;
    const writes: string[] = [];
    const undo = await patchSandboxEnv(sandbox.session_id, (current) => ({
      DB: faulty(current.DB, (method, args) => method === "prepare" && /^UPDATE sandboxes/.test(String(args[0])) && mirrorFails-- > 0),
      EVIDENCE: faulty(current.EVIDENCE, () => false, writes),
    }));
    await dueNow(sandbox.session_id, "lifetime");
    await expect(alarm(sandbox.session_id)).rejects.toThrow(/injected fault/);
    await alarm(sandbox.session_id);
    await undo();
    expect(writes.filter((w) => w.endsWith("events.jsonl"))).toHaveLength(1);
    const row = await env.DB.prepare("SELECT state FROM sandboxes WHERE id = ?").bind(sandbox.session_id).first<{ state: string }>();
    expect(row?.state).toBe("expired");
    // The archive grades: nothing was lost at expiry.
    const run = await finalizeOk(sandbox.session_id, [code("c1", 'A comment containing "before expiry" exists on issue #1 in `acme/api`')]);
    expect(run.criteria_results[0].status).toBe("passed");
  });
});

describe("a Sandbox aborted mid-run", () => {
  it("comes back with world and tape intact: every call landed fully or not at all", async () => {
    const sandbox = await createSandbox();
    const gh = octokitFor(sandbox);
    const send = (i: number) =>
      gh.issues.createComment({ owner: "acme", repo: "api", issue_number: 2, body: `abort test ${i}` }).then(
        (r) => r.status,
        (e: { status?: number }) => e.status ?? 0,
      );
    const first = await Promise.all(Array.from({ length: 10 }, (_, i) => send(i)));
    const inFlight = Array.from({ length: 10 }, (_, i) => send(10 + i));
    await runInDurableObject(sandboxStub(env, sandbox.session_id), (_instance, state) => {
      try {
        state.abort("injected abort");
      } catch {
        // abort throws into the caller by design
      }
    }).catch(() => undefined);
    faultCounts.injected++;
    const second = await Promise.all(inFlight);
    const third = await Promise.all(Array.from({ length: 5 }, (_, i) => send(20 + i)));
    expect(first.every((s) => s === 201)).toBe(true);
    expect(third.every((s) => s === 201)).toBe(true);
    const tape = await tapeOf(sandbox);
    expect(tape.map((r) => r.seq)).toEqual(tape.map((_, i) => i + 1));
    const comments = (await gh.issues.listComments({ owner: "acme", repo: "api", issue_number: 2, per_page: 100 })).data;
    const ours = comments.filter((c) => c.body?.startsWith("abort test "));
    const taped = tape.filter((r) => r.operation === "issues.createComment" && r.status === 201);
    // Same transaction: a comment exists exactly when its 201 is on the tape, and no body twice.
    expect(ours.length).toBe(taped.length);
    expect(new Set(ours.map((c) => c.body)).size).toBe(ours.length);
    // Every call the client saw succeed is in the world.
    expect(ours.length).toBeGreaterThanOrEqual([...first, ...second, ...third].filter((s) => s === 201).length);
    await finalizeOk(sandbox.session_id, EXISTS);
    expect((await api(`/v1/sandboxes/${sandbox.session_id}`)).status).toBe(200);
  });
});

describe("the D1 sandbox index", () => {
  it("converges with the Durable Object's truth when a row was left behind", async () => {
    const sandbox = await createSandbox();
    await octokitFor(sandbox).issues.get({ owner: "acme", repo: "api", issue_number: 1 });
    await finalizeOk(sandbox.session_id, EXISTS);
    // A mirror that never landed: the index still says the sandbox is open.
    await env.DB.prepare("UPDATE sandboxes SET state = 'running', closed_at = NULL WHERE id = ?").bind(sandbox.session_id).run();
    faultCounts.injected++;
    expect(await stateOf(sandbox.session_id)).toBe("done");
    const row = await env.DB.prepare("SELECT state, closed_at FROM sandboxes WHERE id = ?")
      .bind(sandbox.session_id)
      .first<{ state: string; closed_at: string | null }>();
    expect(row?.state).toBe("done");
    expect(row?.closed_at).not.toBeNull();
  });
});
