// A JSON-RPC body is bounded before anything runs or is taped, as the MCP SDK bounds it
// (@modelcontextprotocol/sdk server/requestBody.js): a batch of more than 100 messages is refused
// whole (400, -32600), a body over 4 MiB is refused (413), and neither leaves a tape row. A batch
// within the bound is served whole, each call taped once.
import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { LOCAL_KEY, createSandbox, twinFetch, type CreatedSandbox } from "../helpers";

const MCP_HEADERS = { accept: "application/json, text/event-stream", "content-type": "application/json" };

const toolCall = (id: number, name = "get_me", args: Record<string, unknown> = {}) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: args },
});

function postMcp(url: string, authorization: string, body: string) {
  return SELF.fetch(url, { method: "POST", headers: { ...MCP_HEADERS, authorization }, body });
}

const twinMcp = (sb: CreatedSandbox, body: string) => postMcp(sb.per_twin.github.mcp_url, `Bearer ${sb.agent_token}`, body);

async function tapeRows(sb: CreatedSandbox) {
  return (await (await twinFetch(sb, "/_pome/events")).json()) as { transport: string; operation: string; status: number }[];
}

/** A batch the SDK refuses whole: every entry a call, some of them ones the platform would tape as refused. */
const oversizedBatch = (entries: number) =>
  JSON.stringify(Array.from({ length: entries }, (_, i) => (i % 2 ? toolCall(i) : toolCall(i, "no_such_tool"))));

describe("a twin's MCP refuses a batch over 100 entries whole, before anything is taped", () => {
  it("answers a 5,000-entry batch at once with the SDK's own refusal, and tapes nothing", async () => {
    const sb = await createSandbox({ twins: ["github"] });
    const started = Date.now();
    const res = await twinMcp(sb, oversizedBatch(5000));
    const took = Date.now() - started;
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      jsonrpc: "2.0",
      error: { code: -32600, message: "Invalid Request: Batch must not exceed 100 messages" },
      id: null,
    });
    // Served, 5,000 calls would take many seconds; refused, it is one parse. The bound leaves room for a
    // loaded CI machine (1.1–1.3 s seen beside a parallel suite), not for running the calls.
    expect(took).toBeLessThan(3000);
    expect(await tapeRows(sb)).toEqual([]);
  });

  it("refuses 101 entries the same way", async () => {
    const sb = await createSandbox({ twins: ["github"] });
    const res = await twinMcp(sb, oversizedBatch(101));
    expect(res.status).toBe(400);
    expect(await tapeRows(sb)).toEqual([]);
  });

  it("refuses a body over 4 MiB with the SDK's 413, and tapes nothing", async () => {
    const sb = await createSandbox({ twins: ["github"] });
    const res = await twinMcp(sb, JSON.stringify(toolCall(1, "get_me", { padding: "x".repeat(4 * 1024 * 1024) })));
    expect(res.status).toBe(413);
    expect(((await res.json()) as { error: { code: number; message: string } }).error).toEqual({
      code: -32000,
      message: "Payload Too Large: Request body must not exceed 4194304 bytes",
    });
    expect(await tapeRows(sb)).toEqual([]);
  });
});

describe("a batch within the bound is served whole", () => {
  it("answers 100 calls and tapes each once, a refused one included", async () => {
    const sb = await createSandbox({ twins: ["github"] });
    const batch = [...Array.from({ length: 99 }, (_, i) => toolCall(i + 1)), toolCall(100, "no_such_tool")];
    const res = await twinMcp(sb, JSON.stringify(batch));
    expect(res.status).toBe(200);
    const answers = (await res.json()) as { id: number; result?: { isError?: boolean }; error?: unknown }[];
    expect(answers).toHaveLength(100);
    expect(answers.filter((a) => a.result && !a.result.isError)).toHaveLength(99);
    const rows = await tapeRows(sb);
    expect(rows).toHaveLength(100);
    expect(rows.every((r) => r.transport === "mcp")).toBe(true);
    expect(rows.filter((r) => r.operation === "mcp.unknown_tool")).toHaveLength(1);
  });
});

describe("the control MCP refuses an oversized batch whole too", () => {
  it("answers a 5,000-entry batch at once, before any tool runs", async () => {
    const batch = JSON.stringify(Array.from({ length: 5000 }, (_, i) => toolCall(i, "list_runs")));
    const started = Date.now();
    const res = await postMcp("http://pome.test/mcp", `Bearer ${LOCAL_KEY}`, batch);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: number } }).error.code).toBe(-32600);
  });

  it("still serves a small batch", async () => {
    const res = await postMcp(
      "http://pome.test/mcp",
      `Bearer ${LOCAL_KEY}`,
      JSON.stringify([
        { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} },
        { jsonrpc: "2.0", id: 2, method: "ping" },
      ]),
    );
    expect(res.status).toBe(200);
    const answers = (await res.json()) as { id: number; result: unknown }[];
    expect(answers.map((a) => a.id).sort()).toEqual([1, 2]);
  });
});
