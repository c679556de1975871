// The Linear twin on the real dev server: @linear/sdk over HTTP at a local apiUrl (as users run
// it), and the twin's MCP tools through the official MCP client, taped with transport mcp.
import { LinearClient } from "@linear/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { connect, createSandbox, jsonOf, tapeOf, type Sandbox } from "../mcp/helpers";

let sandbox: Sandbox;
let mcp: Client;

beforeAll(async () => {
  sandbox = await createSandbox({ twins: ["linear"] });
  mcp = await connect(sandbox.per_twin.linear.mcp_url, sandbox.agent_token);
});
afterAll(async () => {
  await mcp?.close();
});

describe("linear twin on the dev server", () => {
  it("answers @linear/sdk pointed at the sandbox's api_url + /graphql with its lin_api_ key", async () => {
    const client = new LinearClient({
      apiKey: sandbox.provider_credentials.linear.token,
      apiUrl: `${sandbox.per_twin.linear.api_url}/graphql`,
    });
    const viewer = await client.viewer;
    expect(viewer.email).toBe("agent@acme.test");
    const issues = await client.issues();
    expect(issues.nodes.map((i) => i.identifier).sort()).toEqual(["ENG-1", "ENG-2", "ENG-3"]);
    const state = await (await client.issue("ENG-3")).state;
    expect(state?.name).toBe("In Progress");
  });

  it("offers typed tools over MCP whose calls are taped as mcp under their root field", async () => {
    const { tools } = await mcp.listTools();
    expect(tools.map((t) => t.name)).toEqual(
      expect.arrayContaining(["get_issue", "create_issue", "update_issue", "create_comment", "list_issues"]),
    );
    const got = jsonOf<{ data: { issue: { identifier: string; title: string } } }>(
      await mcp.callTool({ name: "get_issue", arguments: { issueId: "ENG-1" } }),
    );
    expect(got.data.issue.identifier).toBe("ENG-1");
    const made = jsonOf<{ data: { commentCreate: { success: boolean } } }>(
      await mcp.callTool({ name: "create_comment", arguments: { issueId: "ENG-1", body: "Looking into it" } }),
    );
    expect(made.data.commentCreate.success).toBe(true);
    const rows = (await tapeOf(sandbox, "linear")).filter((r) => r.transport === "mcp");
    expect(rows.map((r) => [r.operation, r.status])).toEqual([
      ["issue", 200],
      ["commentCreate", 200],
    ]);
  });
});
