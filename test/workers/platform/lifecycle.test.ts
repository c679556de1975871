import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { api, createSandbox, twinFetch } from "../helpers";

const stubOf = (id: string) => env.SANDBOX.getByName(id);

/** Moves one of the sandbox's timers into the past, then lets the alarm run. */
async function elapse(sessionId: string, timer: "lifetime" | "idle") {
  await runInDurableObject(stubOf(sessionId), (_instance, state) => {
    state.storage.sql.exec("UPDATE _timers SET due_at = ? WHERE name = ?", Date.now() - 1, timer);
  });
  return runDurableObjectAlarm(stubOf(sessionId));
}

/** Moves a stored timer `ms` earlier, so the next reset is seen to move it without waiting for the clock. */
const rewind = (sessionId: string, timer: string, ms: number) =>
  runInDurableObject(stubOf(sessionId), (_i, state) => {
    state.storage.sql.exec("UPDATE _timers SET due_at = due_at - ? WHERE name = ?", ms, timer);
  });

const timers = (sessionId: string) =>
  runInDurableObject(stubOf(sessionId), (_i, state) =>
    Object.fromEntries(
      state.storage.sql
        .exec<{ name: string; due_at: number }>("SELECT name, due_at FROM _timers")
        .toArray()
        .map((t) => [t.name, t.due_at]),
    ),
  );

describe("one alarm drives the lifetime and the idle timer", () => {
  it("expires a sandbox at the end of its lifetime and archives its evidence to R2", async () => {
    const sandbox = await createSandbox();
    await twinFetch(sandbox, "/repos/acme/api");
    expect(await elapse(sandbox.session_id, "lifetime")).toBe(true);
    const row = await (await api(`/v1/sandboxes/${sandbox.session_id}`)).json<{ state: string; closed_at: string | null }>();
    expect(row.state).toBe("expired");
    expect(row.closed_at).toEqual(expect.any(String));
    expect((await twinFetch(sandbox, "/repos/acme/api")).status).toBe(410);

    const prefix = `team-tm_local/session-${sandbox.session_id}`;
    const tape = await (await env.EVIDENCE.get(`${prefix}/events.jsonl`))?.text();
    expect(
      tape
        ?.trim()
        .split("\n")
        .map((l) => JSON.parse(l).operation),
    ).toEqual(["repos.get"]);
    const final = await (await env.EVIDENCE.get(`${prefix}/state_final.github.json`))?.json<{ repositories: { name: string }[] }>();
    expect(final?.repositories[0].name).toBe("api");
    expect(await env.EVIDENCE.head(`${prefix}/state_initial.github.json`)).not.toBeNull();
  });

  it("expires an idle sandbox and releases its quota", async () => {
    const sandbox = await createSandbox();
    const used = async () => (await (await api("/v1/usage")).json<{ sessions_used: number }>()).sessions_used;
    const before = await used();
    await elapse(sandbox.session_id, "idle");
    expect((await api(`/v1/sandboxes/${sandbox.session_id}`).then((r) => r.json<{ state: string }>())).state).toBe("expired");
    expect(await used()).toBe(before - 1);
  });

  it("re-arms without closing when only a moved idle timer woke it", async () => {
    const sandbox = await createSandbox();
    await runInDurableObject(stubOf(sandbox.session_id), async (_i, state) => {
      await state.storage.setAlarm(Date.now() - 1);
    });
    await runDurableObjectAlarm(stubOf(sandbox.session_id));
    expect((await twinFetch(sandbox, "/user")).status).toBe(200);
  });

  it("resets only the idle timer on a heartbeat or a twin call; the lifetime never moves", async () => {
    const sandbox = await createSandbox();
    await rewind(sandbox.session_id, "idle", 60_000);
    const t0 = await timers(sandbox.session_id);
    await api(`/v1/sandboxes/${sandbox.session_id}/heartbeat`, { method: "POST" });
    const t1 = await timers(sandbox.session_id);
    expect(t1.lifetime).toBe(t0.lifetime);
    expect(t1.idle).toBeGreaterThan(t0.idle);
    await twinFetch(sandbox, "/user");
    // A call moves the idle deadline in memory only: an alarm at the stored timer brings the
    // timer up to the last call's deadline instead of closing the sandbox.
    expect(await elapse(sandbox.session_id, "idle")).toBe(true);
    const t2 = await timers(sandbox.session_id);
    expect(t2.lifetime).toBe(t0.lifetime);
    expect(t2.idle).toBeGreaterThan(Date.now());
    expect((await twinFetch(sandbox, "/user")).status).toBe(200);
    expect(t0.lifetime).toBe(Date.parse(sandbox.expires_at));
  });

  it("closes at the idle deadline of the last call once it has passed", async () => {
    const sandbox = await createSandbox();
    await twinFetch(sandbox, "/user");
    await runInDurableObject(stubOf(sandbox.session_id), (_i, state) => {
      // The call an idle period ago, as a restarted object reads it (the tape and the meta row).
      const hourAgo = Date.now() - 3_600_000;
      state.storage.sql.exec("UPDATE _tape SET at = ?", new Date(hourAgo).toISOString());
      state.storage.sql.exec("UPDATE _meta SET value = json_set(value, '$.lastRequestAt', ?) WHERE key = 'sandbox'", hourAgo);
    });
    const { Sandbox } = await import("../../../durable-objects/Sandbox");
    const closed = await runInDurableObject(stubOf(sandbox.session_id), async (_i, state) => {
      const fresh = new Sandbox(state, env);
      await state.blockConcurrencyWhile(async () => {});
      state.storage.sql.exec("UPDATE _timers SET due_at = ? WHERE name = 'idle'", Date.now() - 1);
      await fresh.alarm();
      const described = await fresh.describe();
      return described.ok ? described.meta.state : null;
    });
    expect(closed).toBe("expired");
  });
});

describe("a twin call writes its tape row, nothing else", () => {
  const metaRow = (sessionId: string) =>
    runInDurableObject(
      stubOf(sessionId),
      (_i, state) => state.storage.sql.exec<{ value: string }>("SELECT value FROM _meta WHERE key = 'sandbox'").one().value,
    );
  const lastRequestAt = async (sessionId: string) =>
    (await (await api(`/v1/sandboxes/${sessionId}`)).json<{ last_request_at: string | null }>()).last_request_at;

  it("rewrites the meta row only when the first call moves the sandbox to running", async () => {
    const sandbox = await createSandbox();
    await twinFetch(sandbox, "/user");
    expect(JSON.parse(await metaRow(sandbox.session_id)).state).toBe("running");
    // A marker only storage holds: any rewrite of the row from memory would drop it.
    const marked = await runInDurableObject(stubOf(sandbox.session_id), (_i, state) => {
      state.storage.sql.exec("UPDATE _meta SET value = json_set(value, '$.marker', 1) WHERE key = 'sandbox'");
      return state.storage.sql.exec<{ value: string }>("SELECT value FROM _meta WHERE key = 'sandbox'").one().value;
    });
    await twinFetch(sandbox, "/repos/acme/api");
    expect(await metaRow(sandbox.session_id)).toBe(marked);
    // The time of the last call is still served: it is the last tape row's.
    const tape = await (await twinFetch(sandbox, "/_pome/events")).json<{ at: string }[]>();
    expect(await lastRequestAt(sandbox.session_id)).toBe(tape.at(-1)?.at);
  });

  it("recovers the time of the last call from the tape after the object restarts", async () => {
    const sandbox = await createSandbox();
    await twinFetch(sandbox, "/user");
    await twinFetch(sandbox, "/repos/acme/api");
    // The first call an hour earlier, so a recovery that read the wrong row would show it.
    await runInDurableObject(stubOf(sandbox.session_id), (_i, state) => {
      state.storage.sql.exec("UPDATE _tape SET at = ? WHERE seq = 1", new Date(Date.now() - 3_600_000).toISOString());
    });
    const served = await lastRequestAt(sandbox.session_id);
    const { Sandbox } = await import("../../../durable-objects/Sandbox");
    const restarted = await runInDurableObject(stubOf(sandbox.session_id), async (_i, state) => {
      // A fresh instance over the same storage is what a restart builds.
      const fresh = new Sandbox(state, env);
      await state.blockConcurrencyWhile(async () => {}); // its start-up has run
      const described = await fresh.describe();
      return described.ok ? described.meta.lastRequestAt : null;
    });
    expect(restarted === null ? null : new Date(restarted).toISOString()).toBe(served);
  });
});
