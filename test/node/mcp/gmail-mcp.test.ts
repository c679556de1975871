// The Gmail twin's MCP tools through the official MCP client against the running platform: each
// tool call is the REST call googleapis would make, taped with transport mcp.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { connect, createSandbox, jsonOf, tapeOf, type Sandbox } from "./helpers";

let sandbox: Sandbox;
let client: Client;

beforeAll(async () => {
  sandbox = await createSandbox({ twins: ["gmail"] });
  client = await connect(sandbox.per_twin.gmail.mcp_url, sandbox.agent_token);
});
afterAll(async () => {
  await client?.close();
});

describe("the Gmail twin's MCP tools", () => {
  it("lists typed tools with hints", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(
      expect.arrayContaining(["list_messages", "get_message", "send_message", "modify_message", "create_draft", "send_draft"]),
    );
    expect(tools.find((t) => t.name === "get_message")?.annotations).toMatchObject({ readOnlyHint: true });
  });

  it("searches, reads, replies in a thread, archives and drafts", async () => {
    const list = jsonOf<{ messages: { id: string; threadId: string }[] }>(
      await client.callTool({ name: "list_messages", arguments: { q: "from:dana@customer.test", labelIds: ["INBOX"] } }),
    );
    expect(list.messages).toEqual([{ id: "19a0c0de0000a001", threadId: "19a0c0de0000a001" }]);
    const message = jsonOf<{ snippet: string }>(
      await client.callTool({ name: "get_message", arguments: { id: "19a0c0de0000a001", format: "metadata" } }),
    );
    expect(message.snippet).toContain("charged twice");
    const sent = jsonOf<{ threadId: string; labelIds: string[] }>(
      await client.callTool({
        name: "send_message",
        arguments: {
          to: "dana@customer.test",
          subject: "Re: Refund request for order #1234",
          body: "Refunded.",
          inReplyTo: "<m1@customer.test>",
          threadId: "19a0c0de0000a001",
        },
      }),
    );
    expect(sent).toMatchObject({ threadId: "19a0c0de0000a001", labelIds: ["SENT"] });
    const archived = jsonOf<{ labelIds: string[] }>(
      await client.callTool({ name: "modify_message", arguments: { id: "19a0c0de0000a001", removeLabelIds: ["INBOX", "UNREAD"] } }),
    );
    expect(archived.labelIds ?? []).not.toContain("INBOX");
    const draft = jsonOf<{ id: string }>(
      await client.callTool({
        name: "create_draft",
        arguments: { to: "lee@partner.test", subject: "Renewal", body: "Let's talk Tuesday." },
      }),
    );
    const fromDraft = jsonOf<{ labelIds: string[] }>(await client.callTool({ name: "send_draft", arguments: { id: draft.id } }));
    expect(fromDraft.labelIds).toEqual(["SENT"]);
    const tape = await tapeOf(sandbox, "gmail");
    expect(tape.filter((r) => r.transport === "mcp").map((r) => [r.operation, r.status])).toEqual([
      ["gmail.users.messages.list", 200],
      ["gmail.users.messages.get", 200],
      ["gmail.users.messages.send", 200],
      ["gmail.users.messages.modify", 200],
      ["gmail.users.drafts.create", 200],
      ["gmail.users.drafts.send", 200],
    ]);
  });

  it("manages labels, filters, drafts and the vacation responder", async () => {
    const label = jsonOf<{ id: string; name: string }>(await client.callTool({ name: "create_label", arguments: { name: "Escalations" } }));
    expect(
      jsonOf<{ name: string }>(await client.callTool({ name: "update_label", arguments: { id: label.id, name: "Escalated" } })).name,
    ).toBe("Escalated");
    expect(
      jsonOf<{ messagesTotal: number }>(await client.callTool({ name: "get_label", arguments: { id: "Label_1" } })).messagesTotal,
    ).toBe(2);
    const filter = jsonOf<{ id: string; action: { addLabelIds: string[] } }>(
      await client.callTool({
        name: "create_filter",
        arguments: { from: "news@deals.test", addLabelIds: [label.id], removeLabelIds: ["INBOX"] },
      }),
    );
    expect(filter.action.addLabelIds).toEqual([label.id]);
    expect(jsonOf<{ filter: unknown[] }>(await client.callTool({ name: "list_filters", arguments: {} })).filter).toHaveLength(1);
    const vacation = jsonOf<{ enableAutoReply: boolean }>(
      await client.callTool({ name: "update_vacation", arguments: { enableAutoReply: true, responseSubject: "Away" } }),
    );
    expect(vacation.enableAutoReply).toBe(true);
    const updated = jsonOf<{ id: string; message: { id: string } }>(
      await client.callTool({
        name: "update_draft",
        arguments: {
          id: "r7390128431662530001",
          to: "alex@customer.test",
          subject: "Re: Question about pricing",
          body: "15% off annual plans.",
        },
      }),
    );
    expect(updated.id).toBe("r7390128431662530001");
    await client.callTool({ name: "delete_draft", arguments: { id: "r7390128431662530001" } });
    const refused = await client.callTool({ name: "get_draft", arguments: { id: "r7390128431662530001" } });
    expect(refused.isError).toBe(true);
  });
});
