import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { Sandbox } from "../../../durable-objects/Sandbox";
import type { TapeRow, TwinRequest } from "../../../durable-objects/twins/types";
import { sandboxStub } from "../../../workers/stubs";
import { createSandbox, twinFetch } from "../helpers";

type Row = TapeRow;

const tapeOf = async (sandbox: Awaited<ReturnType<typeof createSandbox>>) => (await twinFetch(sandbox, "/_pome/events")).json<Row[]>();

describe("the tape records every twin call in order", () => {
  it("keeps gap-free seq under concurrent calls, one row per call", async () => {
    const sandbox = await createSandbox();
    const calls = Array.from({ length: 40 }, (_, i) => twinFetch(sandbox, i % 2 ? "/user" : "/repos/acme/api"));
    const statuses = (await Promise.all(calls)).map((r) => r.status);
    expect(statuses.every((s) => s === 200)).toBe(true);
    const tape = await tapeOf(sandbox);
    expect(tape.map((r) => r.seq)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    const times = tape.map((r) => Date.parse(r.at));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
  });

  it("carries the fields of DESIGN.md §5 with the authorization redacted", async () => {
    const sandbox = await createSandbox();
    await twinFetch(sandbox, "/repos/acme/api?per_page=5", { headers: { "user-agent": "octokit-rest.js/22" } });
    const [row] = await tapeOf(sandbox);
    expect(row).toMatchObject({
      seq: 1,
      twin: "github",
      transport: "rest",
      method: "GET",
      path: "/repos/acme/api",
      query: "per_page=5",
      status: 200,
      mutated: false,
      fidelity: "supported",
      operation: "repos.get",
      request_body: null,
    });
    expect(row.request_headers.authorization).toBe("[REDACTED]");
    expect(row.response_body).toMatchObject({ full_name: "acme/api" });
    expect(JSON.stringify(row)).not.toContain(sandbox.agent_token);
  });

  it("redacts secrets an agent sends in a body", async () => {
    const sandbox = await createSandbox();
    const secret = sandbox.provider_credentials.github.token;
    await twinFetch(sandbox, "/repos/acme/api/hooks", {
      method: "POST",
      body: JSON.stringify({ config: { secret, note: `Bearer ${secret}` } }),
    });
    const tape = await tapeOf(sandbox);
    expect(JSON.stringify(tape)).not.toContain(secret);
    expect(JSON.stringify(tape[0].request_body)).toContain("[REDACTED]");
  });

  it("reads incrementally with after_seq", async () => {
    const sandbox = await createSandbox();
    for (let i = 0; i < 3; i++) await twinFetch(sandbox, "/user");
    const rest = await (await twinFetch(sandbox, "/_pome/events?after_seq=2")).json<Row[]>();
    expect(rest.map((r) => r.seq)).toEqual([3]);
  });

  describe("a call that changed nothing is stored just after its answer", () => {
    const call = (method: string, path: string, body = ""): TwinRequest => ({
      method,
      path,
      query: "",
      headers: { accept: "application/vnd.github+json", "content-type": "application/json" },
      body,
      baseUrl: "http://127.0.0.1/github",
      transport: "rest",
    });
    const storedSeqs = (state: DurableObjectState) =>
      state.storage.sql
        .exec<{ seq: number }>("SELECT seq FROM _tape ORDER BY seq")
        .toArray()
        .map((r) => r.seq);

    it("before the next call is taped and before any tape read, so seq stays gap-free and in order", async () => {
      const sandbox = await createSandbox();
      // The first call moves the sandbox to running, a write: stored with its answer.
      await twinFetch(sandbox, "/user");
      await runInDurableObject(sandboxStub(env, sandbox.session_id), async (instance: Sandbox, state) => {
        expect((await instance.twinCall("github", call("GET", "/repos/acme/api"))).status).toBe(200);
        expect(storedSeqs(state)).toEqual([1]);
        // A write stores the pending read first, then itself in its own transaction.
        expect((await instance.twinCall("github", call("POST", "/repos/acme/api/issues", '{"title":"x"}'))).status).toBe(201);
        expect(storedSeqs(state)).toEqual([1, 2, 3]);
        // An unsupported route and a refused read change nothing either; each call stores the rows before it.
        expect((await instance.twinCall("github", call("GET", "/nowhere"))).status).toBe(501);
        expect(storedSeqs(state)).toEqual([1, 2, 3]);
        expect((await instance.twinCall("github", call("GET", "/repos/acme/missing"))).status).toBe(404);
        expect(storedSeqs(state)).toEqual([1, 2, 3, 4]);
        const events = await instance.pome("github", "events", "");
        const rows = JSON.parse(events.body) as Row[];
        expect(rows.map((r) => [r.seq, r.operation, r.mutated])).toEqual([
          [1, "users.getAuthenticated", false],
          [2, "repos.get", false],
          [3, "issues.create", true],
          [4, "unsupported", false],
          [5, "repos.get", false],
        ]);
        expect(rows[1].request_headers).toEqual({ accept: "application/vnd.github+json", "content-type": "application/json" });
        expect(storedSeqs(state)).toEqual([1, 2, 3, 4, 5]);
      });
    });

    it("by a timer once the answer has left, with no other request", async () => {
      const sandbox = await createSandbox();
      await twinFetch(sandbox, "/user");
      await twinFetch(sandbox, "/repos/acme/api");
      await runInDurableObject(sandboxStub(env, sandbox.session_id), async (instance: Sandbox, state) => {
        expect(storedSeqs(state)).toEqual([1, 2]);
        await instance.twinCall("github", call("GET", "/user"));
        expect(storedSeqs(state)).toEqual([1, 2]);
        await new Promise((resolve) => setTimeout(resolve, 20));
        expect(storedSeqs(state)).toEqual([1, 2, 3]);
      });
    });

    it("in the evidence an expiry archives", async () => {
      const sandbox = await createSandbox();
      await twinFetch(sandbox, "/user");
      await runInDurableObject(sandboxStub(env, sandbox.session_id), async (instance: Sandbox) => {
        await instance.twinCall("github", call("GET", "/repos/acme/api"));
        expect((await instance.close("expired", "lifetime")).ok).toBe(true);
      });
      const listed = await env.EVIDENCE.list({ prefix: "" });
      const key = listed.objects.map((o) => o.key).find((k) => k.includes(sandbox.session_id) && k.endsWith("events.jsonl"));
      expect(key).toBeDefined();
      const lines = (await (await env.EVIDENCE.get(key ?? ""))?.text())?.trimEnd().split("\n") ?? [];
      expect(lines.map((l) => (JSON.parse(l) as Row).operation)).toEqual(["users.getAuthenticated", "repos.get"]);
    });
  });
});
