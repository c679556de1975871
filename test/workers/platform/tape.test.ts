import { describe, expect, it } from "vitest";
import type { TapeRow } from "../../../durable-objects/twins/types";
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
});
