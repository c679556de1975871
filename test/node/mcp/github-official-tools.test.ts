// GitHub's own MCP server's tool set (github/github-mcp-server's default tool sets) at a sandbox's
// `…/mcp/official`: listed exactly as the server publishes it (test/fixtures/vendor-mcp/, with its
// version and license), and each tool carried out against the twin's world and taped.
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, createSandbox, jsonOf, pomeUrl, type Sandbox, tapeOf, textOf } from "./helpers";

const published = JSON.parse(
  readFileSync(path.resolve(import.meta.dirname, "../../fixtures/vendor-mcp/github-mcp-server.json"), "utf8"),
) as { version: string; license: string; tools: { name: string; description: string; inputSchema: unknown; annotations?: unknown }[] };

const WORLD = {
  authenticated_user: "octo",
  users: [{ login: "acme", type: "Organization" }, { login: "octo" }, { login: "bob" }],
  repositories: [
    {
      owner: "acme",
      name: "api",
      collaborators: ["bob"],
      labels: [{ name: "bug", color: "d73a4a" }],
      branches: [
        { name: "main", files: [{ path: "README.md", content: "# api\n" }] },
        { name: "feature", files: [{ path: "README.md", content: "# api, improved\n" }] },
      ],
      issues: [{ number: 1, title: "Crash on start", body: "It breaks", user: "bob", labels: ["bug"] }],
      pulls: [{ number: 2, title: "Improve the README", user: "bob", head: "feature", base: "main" }],
    },
  ],
};

let sandbox: Sandbox;
let client: Client;

beforeAll(async () => {
  sandbox = await createSandbox({ twins: ["github"], seed: WORLD });
  client = await connect(`${sandbox.per_twin.github.mcp_url}/official`, sandbox.agent_token);
});
afterAll(async () => {
  await client?.close();
});

const call = (name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args });
const repo = { owner: "acme", repo: "api" };

describe("the vendor's tool set is served exactly as GitHub's MCP server publishes it", () => {
  it("lists every published tool with its name, description, input schema and annotations", async () => {
    expect(published.version).toMatch(/^v\d/);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(published.tools.map((t) => t.name).sort());
    for (const tool of published.tools)
      expect(
        tools.find((t) => t.name === tool.name),
        tool.name,
      ).toEqual(tool);
  });

  it("refuses arguments the published schema refuses, and an unknown tool, without touching the world", async () => {
    const bad = await call("issue_read", { method: "get", owner: "acme", repo: "api" }); // issue_number is required
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toMatch(/issue_number/);
    await expect(call("no_such_tool", {})).resolves.toMatchObject({ isError: true });
  });
});

describe("an agent written for GitHub's MCP server works against the twin unchanged", () => {
  it("reads, writes issues and pull requests, and every call is taped as MCP", async () => {
    expect(jsonOf<{ login: string }>(await call("get_me", {})).login).toBe("octo");
    const made = jsonOf<{ number: number }>(await call("issue_write", { method: "create", ...repo, title: "Flaky test", labels: ["bug"] }));
    expect(jsonOf<{ title: string }>(await call("issue_read", { method: "get", ...repo, issue_number: made.number })).title).toBe(
      "Flaky test",
    );
    await call("add_issue_comment", { ...repo, issue_number: 1, body: "Looking into it" });
    const comments = jsonOf<{ body: string }[]>(await call("issue_read", { method: "get_comments", ...repo, issue_number: 1 }));
    expect(comments.map((c) => c.body)).toContain("Looking into it");
    await call("issue_write", { method: "update", ...repo, issue_number: 1, state: "closed", state_reason: "completed" });
    const open = jsonOf<{ number: number }[]>(await call("list_issues", { ...repo, state: "OPEN" }));
    expect(open.map((i) => i.number)).not.toContain(1);
    const found = jsonOf<{ total_count: number }>(await call("search_issues", { query: "Flaky", ...repo }));
    expect(found.total_count).toBe(1);

    const files = jsonOf<{ filename: string }[]>(await call("pull_request_read", { method: "get_files", ...repo, pullNumber: 2 }));
    expect(files.map((f) => f.filename)).toEqual(["README.md"]);
    const merged = jsonOf<{ merged: boolean }>(await call("merge_pull_request", { ...repo, pullNumber: 2, merge_method: "squash" }));
    expect(merged.merged).toBe(true);

    expect(textOf(await call("get_file_contents", { ...repo, path: "README.md" }))).toBe("# api, improved\n");
    await call("create_or_update_file", { ...repo, path: "docs/guide.md", content: "Read me.\n", message: "Add a guide", branch: "main" });
    expect(textOf(await call("get_file_contents", { ...repo, path: "docs/guide.md", ref: "main" }))).toBe("Read me.\n");
    expect(jsonOf<{ name: string }[]>(await call("list_branches", repo)).map((b) => b.name)).toEqual(["feature", "main"]);

    const tape = await tapeOf(sandbox);
    const mcp = tape.filter((r) => r.transport === "mcp");
    expect(mcp.map((r) => r.operation)).toEqual(
      expect.arrayContaining([
        "users.getAuthenticated",
        "issues.create",
        "issues.createComment",
        "repos.createOrUpdateFileContents",
        "pulls.merge",
      ]),
    );
    expect(mcp.length).toBe(tape.length);
  });

  it("answers a tool whose REST call GitHub would refuse with GitHub's refusal, as an error result", async () => {
    const missing = await call("issue_read", { method: "get", ...repo, issue_number: 999 });
    expect(missing.isError).toBe(true);
    expect(JSON.parse(textOf(missing))).toMatchObject({ message: "Not Found" });
  });

  it("is a separate server from the twin's own tools, which keep their names and arguments", async () => {
    const own = await connect(sandbox.per_twin.github.mcp_url, sandbox.agent_token);
    const { tools } = await own.listTools();
    expect(tools.find((t) => t.name === "merge_pull_request")?.inputSchema).toMatchObject({
      required: expect.arrayContaining(["pull_number"]),
    });
    await own.close();
    const none = await fetch(`${pomeUrl()}/linear/s/${sandbox.session_id}/mcp/official`, { method: "POST" });
    expect([401, 404]).toContain(none.status);
  });
});
