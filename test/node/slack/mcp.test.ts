// The Slack twin's MCP server driven by the official MCP client against the running server: its
// methods as typed tools, each call a twin call taped with transport mcp, refusals in Slack's shape.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, createSandbox, jsonOf, tapeOf, type Sandbox } from "../mcp/helpers";

let sandbox: Sandbox;
let client: Client;

beforeAll(async () => {
  sandbox = await createSandbox({ twins: ["slack"] });
  client = await connect(sandbox.per_twin.slack.mcp_url, sandbox.agent_token);
});
afterAll(async () => {
  await client?.close();
});

describe("the Slack twin over MCP", () => {
  it("lists one tool per method with schemas and hints", async () => {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(["chat_postMessage", "conversations_history", "conversations_replies", "reactions_add", "files_upload_content"]));
    expect(tools.find((t) => t.name === "conversations_history")?.annotations).toMatchObject({ readOnlyHint: true });
    expect(tools.find((t) => t.name === "chat_delete")?.annotations).toMatchObject({ destructiveHint: true });
  });

  it("posts, reads a thread, reacts and uploads; every call is taped with transport mcp", async () => {
    const posted = jsonOf<{ ok: boolean; ts: string; channel: string }>(await client.callTool({ name: "chat_postMessage", arguments: { channel: "#general", text: "hello from MCP" } }));
    expect(posted).toMatchObject({ ok: true, channel: "C0GENERAL" });
    const reply = jsonOf<{ ok: boolean }>(await client.callTool({ name: "chat_postMessage", arguments: { channel: "C0GENERAL", text: "in thread", thread_ts: posted.ts } }));
    expect(reply.ok).toBe(true);
    const thread = jsonOf<{ messages: { text: string }[] }>(await client.callTool({ name: "conversations_replies", arguments: { channel: "C0GENERAL", ts: posted.ts } }));
    expect(thread.messages.map((m) => m.text)).toEqual(["hello from MCP", "in thread"]);
    await client.callTool({ name: "reactions_add", arguments: { channel: "C0GENERAL", timestamp: posted.ts, name: "tada" } });
    const refused = jsonOf<{ ok: boolean; error: string }>(await client.callTool({ name: "reactions_add", arguments: { channel: "C0GENERAL", timestamp: posted.ts, name: "tada" } }));
    expect(refused).toEqual({ ok: false, error: "already_reacted" });
    const reserved = jsonOf<{ file_id: string }>(await client.callTool({ name: "files_getUploadURLExternal", arguments: { filename: "n.txt", length: 2 } }));
    await client.callTool({ name: "files_upload_content", arguments: { file_id: reserved.file_id, content: "hi" } });
    const done = jsonOf<{ ok: boolean; files: { size: number }[] }>(
      await client.callTool({ name: "files_completeUploadExternal", arguments: { files: [{ id: reserved.file_id }], channel_id: "C0GENERAL" } }),
    );
    expect(done).toMatchObject({ ok: true, files: [{ size: 2 }] });
    const content = await client.callTool({ name: "files_download", arguments: { file: reserved.file_id } });
    expect((content as { content: { text: string }[] }).content[0]?.text).toBe("hi");
    const tape = await tapeOf(sandbox, "slack");
    expect(tape.every((r) => r.transport === "mcp")).toBe(true);
    expect(tape.map((r) => r.operation)).toEqual([
      "chat.postMessage",
      "chat.postMessage",
      "conversations.replies",
      "reactions.add",
      "reactions.add",
      "files.getUploadURLExternal",
      "files.uploadExternal",
      "files.completeUploadExternal",
      "files.download",
    ]);
  });
});
