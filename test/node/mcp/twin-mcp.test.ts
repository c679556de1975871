import { StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { LOCAL_KEY } from "../server";
import { connect, createSandbox, jsonOf, pomeUrl, tapeOf, textOf, type Sandbox } from "./helpers";

let sandbox: Sandbox;
let client: Client;

beforeAll(async () => {
  sandbox = await createSandbox();
  client = await connect(sandbox.per_twin.github.mcp_url, sandbox.agent_token);
});
afterAll(async () => {
  await client?.close();
});

describe("the GitHub twin's MCP server offers its operations as typed tools", () => {
  it("lists tools with input schemas and hints", async () => {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual(
      expect.arrayContaining(["list_issues", "get_issue", "add_labels", "create_comment", "merge_pull_request", "get_file_contents"]),
    );
    const getIssue = tools.find((t) => t.name === "get_issue");
    expect(getIssue?.inputSchema).toMatchObject({
      type: "object",
      properties: { owner: { type: "string" }, repo: { type: "string" }, issue_number: { type: "integer" } },
      required: ["owner", "repo", "issue_number"],
      additionalProperties: false,
    });
    expect(getIssue?.description).toBeTruthy();
    expect(getIssue?.annotations).toMatchObject({ readOnlyHint: true });
    expect(tools.find((t) => t.name === "merge_pull_request")?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
  });
});

describe("a tool call is a twin call, taped with transport mcp", () => {
  it("reads, labels, comments and merges through the twin", async () => {
    const issue = jsonOf<{ number: number; title: string }>(
      await client.callTool({ name: "get_issue", arguments: { owner: "acme", repo: "api", issue_number: 1 } }),
    );
    expect(issue).toMatchObject({ number: 1, title: "Requests time out after 10 seconds" });

    const labels = jsonOf<{ name: string }[]>(
      await client.callTool({ name: "add_labels", arguments: { owner: "acme", repo: "api", issue_number: 1, labels: ["bug"] } }),
    );
    expect(labels.map((l) => l.name)).toContain("bug");

    const comment = jsonOf<{ body: string }>(
      await client.callTool({ name: "create_comment", arguments: { owner: "acme", repo: "api", issue_number: 1, body: "Fixed by #4" } }),
    );
    expect(comment.body).toBe("Fixed by #4");

    const merge = jsonOf<{ merged: boolean }>(
      await client.callTool({ name: "merge_pull_request", arguments: { owner: "acme", repo: "api", pull_number: 4 } }),
    );
    expect(merge.merged).toBe(true);

    const tape = await tapeOf(sandbox);
    const mcpRows = tape.filter((r) => r.transport === "mcp");
    expect(mcpRows.map((r) => [r.method, r.operation, r.status])).toEqual([
      ["GET", "issues.get", 200],
      ["POST", "issues.addLabels", 200],
      ["POST", "issues.createComment", 201],
      ["PUT", "pulls.merge", 200],
    ]);
    expect(mcpRows[1].path).toBe("/repos/acme/api/issues/1/labels");
    expect(mcpRows[1].request_body).toEqual({ labels: ["bug"] });
    expect(mcpRows[1].request_headers.authorization).toBe("[REDACTED]");
  });

  it("shares one gap-free tape with REST calls", async () => {
    const before = await tapeOf(sandbox);
    const rest = await fetch(`${sandbox.per_twin.github.api_url}/repos/acme/api`, {
      headers: { authorization: `Bearer ${sandbox.agent_token}` },
    });
    expect(rest.status).toBe(200);
    await client.callTool({ name: "get_repository", arguments: { owner: "acme", repo: "api" } });
    const added = (await tapeOf(sandbox)).slice(before.length);
    expect(added.map((r) => [r.transport, r.operation])).toEqual([
      ["rest", "repos.get"],
      ["mcp", "repos.get"],
    ]);
    expect(added[1].seq).toBe(added[0].seq + 1);
  });

  it("answers a vendor error as an error result with GitHub's body", async () => {
    const result = await client.callTool({ name: "get_repository", arguments: { owner: "acme", repo: "no-such-repo" } });
    expect(result.isError).toBe(true);
    expect(JSON.parse(textOf(result))).toMatchObject({ message: "Not Found" });
    expect((await tapeOf(sandbox)).at(-1)).toMatchObject({ transport: "mcp", status: 404, operation: "repos.get" });
  });

  it("refuses arguments that miss the schema without calling the twin, and tapes the attempt", async () => {
    const before = (await tapeOf(sandbox)).length;
    const result = await client.callTool({ name: "get_issue", arguments: { owner: "acme", repo: "api", issue_number: "one" } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/issue_number/);
    const tape = await tapeOf(sandbox);
    expect(tape.length).toBe(before + 1);
    expect(tape.at(-1)).toMatchObject({ transport: "mcp", status: 422, operation: "mcp.get_issue", mutated: false });
  });
});

describe("the MCP server takes the REST twin's credentials and no others", () => {
  it("accepts the sandbox's provider credential", async () => {
    const viaPat = await connect(sandbox.per_twin.github.mcp_url, sandbox.provider_credentials.github.token);
    const me = jsonOf<{ login: string }>(await viaPat.callTool({ name: "get_me", arguments: {} }));
    expect(me.login).toBe("octo-agent");
    await viaPat.close();
  });

  it("refuses a request without a token", async () => {
    const refused = connect(sandbox.per_twin.github.mcp_url, undefined);
    await expect(refused).rejects.toBeInstanceOf(StreamableHTTPError);
    await expect(refused).rejects.toMatchObject({ code: 401 });
  });

  it("refuses another sandbox's token", async () => {
    const other = await createSandbox();
    await expect(connect(sandbox.per_twin.github.mcp_url, other.agent_token)).rejects.toMatchObject({ code: 401 });
    await expect(connect(sandbox.per_twin.github.mcp_url, other.provider_credentials.github.token)).rejects.toMatchObject({ code: 401 });
  });

  it.each(["github", "stripe", "slack", "gmail", "linear"])(
    "refuses a bad token on the %s twin with HTTP 401, as MCP's authorization rule says",
    async (twin) => {
      const own = await createSandbox({ twins: [twin] });
      const refused = connect(own.per_twin[twin].mcp_url, `${own.provider_credentials[twin].token}x`);
      await expect(refused).rejects.toMatchObject({ code: 401 });
    },
  );

  it("refuses the team API key, which is not a twin credential", async () => {
    await expect(connect(sandbox.per_twin.github.mcp_url, "pme_local_dev")).rejects.toMatchObject({ code: 401 });
  });
});

describe("each twin of a sandbox serves its own tools", () => {
  it("lists the Stripe twin's tools on its own MCP server", async () => {
    const both = await createSandbox({ twins: ["github", "stripe"] });
    const stripe = await connect(both.per_twin.stripe.mcp_url, both.agent_token);
    const names = (await stripe.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(["create_refund", "get_customer", "advance_test_clock"]));
    expect(names).not.toContain("get_issue");
    await stripe.close();
  });

  // A twin whose issue has not landed (no check vocabulary yet) serves an empty list; none may be left.
  it("serves an empty tool list for a twin without tools yet", async (ctx) => {
    let bare: string | undefined;
    for (const twin of ["slack", "gmail", "linear"]) {
      const res = await fetch(`${pomeUrl()}/v1/checks?twin=${twin}`, { headers: { authorization: `Bearer ${LOCAL_KEY}` } });
      if (((await res.json()) as { count: number }).count === 0) bare = twin;
    }
    if (!bare) return ctx.skip();
    const both = await createSandbox({ twins: ["github", bare] });
    const client = await connect(both.per_twin[bare].mcp_url, both.agent_token);
    expect((await client.listTools()).tools).toEqual([]);
    await client.close();
  });
});
