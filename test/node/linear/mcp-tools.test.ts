// The Linear twin's MCP tools for single gets, label updates, attachments, webhooks and the inbox,
// through the official MCP client on the real dev server: each call runs through the GraphQL
// executor and is taped with transport mcp under the root field it sends.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { connect, createSandbox, jsonOf, tapeOf, type Sandbox } from "../mcp/helpers";

const SEED = {
  organization: { name: "Acme", urlKey: "acme" },
  users: [
    { email: "ada@acme.test", name: "Ada Lovelace", displayName: "ada", admin: true },
    { email: "bob@acme.test", name: "Bob Stone", displayName: "bob" },
  ],
  teams: [
    {
      key: "ENG",
      name: "Engineering",
      labels: [{ name: "Bug", color: "#eb5757" }],
      cycles: [{ number: 1, startsAt: "2026-07-06T00:00:00Z", endsAt: "2026-07-20T00:00:00Z" }],
    },
  ],
  issues: [
    {
      identifier: "ENG-1",
      title: "Checkout fails",
      creator: "bob@acme.test",
      assignee: "ada@acme.test",
      createdAt: "2026-07-01T10:00:00Z",
      comments: [{ user: "bob@acme.test", body: "@ada can you take this?", createdAt: "2026-07-01T11:00:00Z" }],
    },
  ],
};

type Data<T> = { data: T; errors?: unknown };

let sandbox: Sandbox;
let mcp: Client;

beforeAll(async () => {
  sandbox = await createSandbox({ twins: ["linear"], seed: SEED });
  mcp = await connect(sandbox.per_twin.linear.mcp_url, sandbox.agent_token);
});
afterAll(async () => {
  await mcp?.close();
});

const call = async <T>(name: string, args: Record<string, unknown>): Promise<T> => {
  const result = await mcp.callTool({ name, arguments: args });
  expect(result.isError, `${name}: ${JSON.stringify(result)}`).toBeFalsy();
  const body = jsonOf<Data<T>>(result);
  expect(body.errors, name).toBeUndefined();
  return body.data;
};

describe("linear MCP tools beyond issues and comments", () => {
  it("lists a typed tool for each of them, reads annotated read-only and deletes destructive", async () => {
    const { tools } = await mcp.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual(
      expect.arrayContaining([
        "get_team",
        "get_user",
        "get_workflow_state",
        "get_cycle",
        "update_issue_label",
        "create_attachment",
        "link_url",
        "create_webhook",
        "update_webhook",
        "delete_webhook",
        "list_webhooks",
        "list_notifications",
        "get_notification",
      ]),
    );
    expect(tools.find((t) => t.name === "get_team")?.annotations).toMatchObject({ readOnlyHint: true });
    expect(tools.find((t) => t.name === "delete_webhook")?.annotations).toMatchObject({ destructiveHint: true });
    expect(tools.find((t) => t.name === "update_issue_label")?.inputSchema).toMatchObject({ required: ["labelId"] });
  });

  it("gets, updates, attaches, registers webhooks and reads the inbox, each taped as mcp under its root field", async () => {
    const before = (await tapeOf(sandbox, "linear")).length;
    const { team } = await call<{
      team: {
        id: string;
        states: { nodes: { id: string; name: string }[] };
        labels: { nodes: { id: string }[] };
        members: { nodes: { id: string; email: string }[] };
        cycles: { nodes: { id: string; number: number }[] };
      };
    }>("get_team", { teamId: "ENG" });
    const bob = team.members.nodes.find((m) => m.email === "bob@acme.test");
    expect((await call<{ user: { email: string } }>("get_user", { userId: bob?.id })).user.email).toBe("bob@acme.test");
    const todo = team.states.nodes.find((s) => s.name === "Todo");
    expect((await call<{ workflowState: { name: string } }>("get_workflow_state", { stateId: todo?.id })).workflowState.name).toBe("Todo");
    expect((await call<{ cycle: { number: number } }>("get_cycle", { cycleId: team.cycles.nodes[0]?.id })).cycle.number).toBe(1);
    const label = await call<{ issueLabelUpdate: { issueLabel: { name: string; color: string } } }>("update_issue_label", {
      labelId: team.labels.nodes[0]?.id,
      name: "Defect",
      color: "#ff0000",
    });
    expect(label.issueLabelUpdate.issueLabel).toEqual(expect.objectContaining({ name: "Defect", color: "#ff0000" }));
    const att = await call<{ attachmentCreate: { attachment: { title: string; url: string } } }>("create_attachment", {
      issueId: "ENG-1",
      url: "https://sentry.example.test/e/1",
      title: "Sentry event",
    });
    expect(att.attachmentCreate.attachment.title).toBe("Sentry event");
    const link = await call<{ attachmentLinkURL: { attachment: { url: string } } }>("link_url", {
      issueId: "ENG-1",
      url: "https://docs.example.test/runbook",
    });
    expect(link.attachmentLinkURL.attachment.url).toBe("https://docs.example.test/runbook");
    const hook = await call<{ webhookCreate: { webhook: { id: string; enabled: boolean } } }>("create_webhook", {
      url: "http://127.0.0.1:9/linear",
      resourceTypes: ["Issue"],
      teamId: "ENG",
    });
    const hookId = hook.webhookCreate.webhook.id;
    expect((await call<{ webhooks: { nodes: { id: string }[] } }>("list_webhooks", {})).webhooks.nodes.map((w) => w.id)).toEqual([hookId]);
    expect(
      (await call<{ webhookUpdate: { webhook: { enabled: boolean } } }>("update_webhook", { webhookId: hookId, enabled: false }))
        .webhookUpdate.webhook.enabled,
    ).toBe(false);
    expect((await call<{ webhook: { enabled: boolean } }>("get_webhook", { webhookId: hookId })).webhook.enabled).toBe(false);
    expect((await call<{ webhookDelete: { success: boolean } }>("delete_webhook", { webhookId: hookId })).webhookDelete.success).toBe(true);
    const inbox = await call<{ notifications: { nodes: { id: string; type: string; actor: { email: string } }[] } }>(
      "list_notifications",
      {},
    );
    expect(inbox.notifications.nodes.map((n) => [n.type, n.actor.email])).toEqual([
      ["issueCommentMention", "bob@acme.test"],
      ["issueAssignedToYou", "bob@acme.test"],
    ]);
    const first = inbox.notifications.nodes[0];
    const one = await call<{ notification: { type: string; issue: { identifier: string } } }>("get_notification", {
      notificationId: first?.id,
    });
    expect(one.notification).toMatchObject({ type: "issueCommentMention", issue: { identifier: "ENG-1" } });

    const sorted = await call<{ issues: { nodes: { identifier: string }[]; pageInfo: { hasPreviousPage: boolean } } }>("list_issues", {
      sort: [{ priority: { order: "Ascending" } }],
      last: 1,
    });
    expect(sorted.issues.nodes.map((i) => i.identifier)).toEqual(["ENG-1"]);
    expect(sorted.issues.pageInfo.hasPreviousPage).toBe(false);

    const rows = (await tapeOf(sandbox, "linear")).slice(before);
    expect(rows.map((r) => [r.transport, r.operation, r.status])).toEqual(
      [
        "team",
        "user",
        "workflowState",
        "cycle",
        "issueLabelUpdate",
        "attachmentCreate",
        "attachmentLinkURL",
        "webhookCreate",
        "webhooks",
        "webhookUpdate",
        "webhook",
        "webhookDelete",
        "notifications",
        "notification",
        "issues",
      ].map((op) => ["mcp", op, 200]),
    );
  });
});
