// Linear's own hosted MCP server's tool set (mcp.linear.app, 58 tools under a `read write` grant)
// at a sandbox's `…/mcp/official`: listed exactly as that server's tools/list answered it
// (test/fixtures/vendor-mcp/linear-hosted-server.json), every modelled tool carried out over the
// twin's world through its GraphQL resolvers, with its effect read back through @linear/sdk, and
// the tools over areas the twin does not model answering an MCP tool error that names the area.
import { readFileSync } from "node:fs";
import path from "node:path";
import { LinearClient } from "@linear/sdk";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, createSandbox, jsonOf, type Sandbox, tapeOf, textOf } from "./helpers";

/** The tools Linear's server lists that the twin answers with "not modelled" (FIDELITY.md lists them). */
const LINEAR_OFFICIAL_UNMODELLED: readonly string[] = [
  "prepare_attachment_upload",
  "create_attachment",
  "delete_attachment",
  "list_agent_skills",
  "get_agent_skill",
  "extract_images",
  "list_project_labels",
  "list_release_pipelines",
  "list_releases",
  "get_release",
  "save_release",
  "list_release_notes",
  "get_release_note",
  "save_release_note",
  "get_diff",
  "list_diffs",
  "get_diff_threads",
  "save_diff_comment",
  "resolve_diff_thread",
  "delete_diff_comment",
  "submit_diff_review",
  "merge_diff",
  "search_documentation",
  "list_initiative_labels",
  "create_initiative_label",
];

const published = JSON.parse(
  readFileSync(path.resolve(import.meta.dirname, "../../fixtures/vendor-mcp/linear-hosted-server.json"), "utf8"),
) as { source: string; version: string; license: string; tools: { name: string }[] };

const WORLD = {
  organization: { name: "Acme", urlKey: "acme" },
  viewer: "ada@acme.test",
  users: [
    { email: "ada@acme.test", name: "Ada Lovelace", displayName: "ada", admin: true },
    { email: "bob@acme.test", name: "Bob Stone", displayName: "bob" },
  ],
  labels: [{ name: "Customer", color: "#f2994a" }],
  teams: [
    {
      key: "ENG",
      name: "Engineering",
      members: ["ada@acme.test", "bob@acme.test"],
      defaultIssueState: "Todo",
      states: [
        { name: "Backlog", type: "backlog" },
        { name: "Todo", type: "unstarted" },
        { name: "In Progress", type: "started" },
        { name: "Done", type: "completed" },
        { name: "Canceled", type: "canceled" },
      ],
      labels: [
        { name: "Bug", color: "#eb5757" },
        { name: "Feature", color: "#bb87fc" },
      ],
      cycles: [
        { number: 1, startsAt: "2020-01-06T00:00:00Z", endsAt: "2020-01-20T00:00:00Z" },
        { number: 2, startsAt: "2020-01-20T00:00:00Z", endsAt: "2099-01-01T00:00:00Z" },
      ],
    },
    { key: "OPS", name: "Operations", members: ["bob@acme.test"] },
  ],
  projects: [
    {
      name: "Checkout revamp",
      teams: ["ENG"],
      state: "started",
      lead: "ada@acme.test",
      milestones: [{ name: "Beta", targetDate: "2026-07-15" }],
      updates: [{ body: "On track so far.", health: "onTrack", user: "bob@acme.test", createdAt: "2026-07-03T09:00:00Z" }],
    },
  ],
  initiatives: [{ name: "Q3 growth", status: "Active", projects: ["Checkout revamp"] }],
  documents: [{ title: "Checkout spec", content: "# Checkout\n\nRetry expired cards.", project: "Checkout revamp" }],
  issues: [
    {
      identifier: "ENG-1",
      title: "Checkout fails with 500",
      description: "Steps: pay with an expired card.",
      state: "Todo",
      priority: 1,
      assignee: "bob@acme.test",
      creator: "ada@acme.test",
      labels: ["Bug"],
      project: "Checkout revamp",
      attachments: [{ title: "Sentry event", url: "https://sentry.example.test/e/1" }],
      comments: [{ user: "bob@acme.test", body: "Seen on iOS too." }],
      createdAt: "2026-07-01T10:00:00Z",
    },
    { identifier: "ENG-2", title: "Refund flow times out", createdAt: "2026-07-02T10:00:00Z" },
  ],
};

let sandbox: Sandbox;
let client: Client;
let linear: LinearClient;

beforeAll(async () => {
  sandbox = await createSandbox({ twins: ["linear"], seed: WORLD });
  client = await connect(`${sandbox.per_twin.linear.mcp_url}/official`, sandbox.agent_token);
  linear = new LinearClient({ apiKey: sandbox.provider_credentials.linear.token, apiUrl: `${sandbox.per_twin.linear.api_url}/graphql` });
});
afterAll(async () => {
  await client?.close();
});

/** A tool call that must succeed, answered as JSON. */
async function ok<T = Record<string, unknown>>(name: string, args: Record<string, unknown> = {}): Promise<T> {
  const result = await client.callTool({ name, arguments: args });
  expect(result.isError, `${name}: ${JSON.stringify(result)}`).toBeFalsy();
  return jsonOf<T>(result);
}
type Row = Record<string, unknown> & { id: string; name?: string };

describe("Linear's hosted MCP tool set is served as its tools/list answered", () => {
  it("lists all 58 tools with their names, titles, descriptions, schemas, annotations and _meta, in order", async () => {
    expect(published.tools).toHaveLength(58);
    expect(published.source).toMatch(/mcp\.linear\.app.*7f909bbdcac94e17da0c68b13b7feefd0e3feaad/);
    expect(published.license).toMatch(/No licence stated/);
    const { tools } = await client.listTools();
    expect(tools).toEqual(published.tools);
  });

  it("refuses arguments the published schema refuses, without touching the world", async () => {
    const bad = await client.callTool({ name: "get_issue", arguments: {} });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toMatch(/id/);
  });

  it("answers every tool over an area the twin does not model with a tool error naming the area", async () => {
    for (const name of LINEAR_OFFICIAL_UNMODELLED) {
      const tool = (
        published.tools as {
          name: string;
          inputSchema: { required?: string[]; properties: Record<string, { type?: string; enum?: string[] }> };
        }[]
      ).find((t) => t.name === name);
      expect(tool, name).toBeDefined();
      const args: Record<string, unknown> = {};
      for (const k of tool?.inputSchema.required ?? []) {
        const p = tool?.inputSchema.properties[k];
        args[k] = k === "sha256" ? "0".repeat(64) : p?.enum ? p.enum[0] : p?.type === "integer" || p?.type === "number" ? 1 : "x";
      }
      const res = await client.callTool({ name, arguments: args });
      expect(res.isError, name).toBe(true);
      expect(textOf(res), name).toMatch(/does not model/);
    }
    const diff = await client.callTool({ name: "get_diff", arguments: { urlOrId: "D-1" } });
    expect(textOf(diff)).toMatch(/does not model code diffs/);
  });
});

describe("an agent written for Linear's MCP server works against the twin unchanged", () => {
  it("reads the workspace, teams, users, statuses, labels and cycles", async () => {
    expect((await ok("get_workspace")).urlKey).toBe("acme");
    const teams = await ok<{ teams: Row[] }>("list_teams");
    expect(teams.teams.map((t) => t.key).sort()).toEqual(["ENG", "OPS"]);
    const eng = await ok<{ id: string; issueStatuses: Row[]; members: Row[] }>("get_team", { query: "Engineering" });
    expect(eng.id).toBe((await linear.team("ENG")).id);
    expect(eng.issueStatuses.map((s) => s.name)).toContain("In Progress");
    expect((await ok<{ users: Row[] }>("list_users", { team: "OPS" })).users.map((u) => u.email)).toEqual(["bob@acme.test"]);
    expect((await ok<Row>("get_user", { query: "me" })).email).toBe("ada@acme.test");
    expect((await ok<Row>("get_user", { query: "Bob Stone" })).email).toBe("bob@acme.test");
    const statuses = await ok<Row[]>("list_issue_statuses", { team: "ENG" });
    expect(statuses.map((s) => s.name)).toEqual(["Backlog", "Todo", "In Progress", "Done", "Canceled"]);
    const done = statuses.find((s) => s.name === "Done");
    expect((await ok<Row>("get_issue_status", { id: "", name: "done", team: "ENG" })).id).toBe(done?.id);
    const labels = await ok<{ labels: Row[] }>("list_issue_labels", { team: "ENG" });
    expect(labels.labels.map((l) => l.name).sort()).toEqual(["Bug", "Feature"]);
    const current = await ok<Row[]>("list_cycles", { teamId: eng.id, type: "current" });
    expect(current.map((c) => c.number)).toEqual([2]);
    expect((await ok<Row[]>("list_cycles", { teamId: eng.id })).map((c) => c.number).sort()).toEqual([1, 2]);
  });

  it("creates, updates and lists issues by name, key, email and 'me'; the SDK sees every change", async () => {
    const made = await ok<Row & { identifier: string }>("save_issue", {
      title: "Card form loses focus",
      team: "ENG",
      state: "In Progress",
      assignee: "me",
      labels: ["Bug", "Customer"],
      priority: 2,
      project: "Checkout revamp",
      milestone: "Beta",
      cycle: "2",
      links: [{ url: "https://example.test/rec/1", title: "Recording" }],
      blocks: ["ENG-2"],
    });
    const issue = await linear.issue(made.identifier);
    expect([(await issue.state)?.name, (await issue.assignee)?.email, issue.priority]).toEqual(["In Progress", "ada@acme.test", 2]);
    expect((await issue.labels()).nodes.map((l) => l.name).sort()).toEqual(["Bug", "Customer"]);
    expect([(await issue.project)?.name, (await issue.projectMilestone)?.name, (await issue.cycle)?.number]).toEqual([
      "Checkout revamp",
      "Beta",
      2,
    ]);
    expect((await issue.attachments()).nodes.map((a) => a.url)).toEqual(["https://example.test/rec/1"]);
    expect((await Promise.all((await issue.relations()).nodes.map((r) => r.relatedIssue))).map((i) => i?.identifier)).toEqual(["ENG-2"]);

    const updated = await ok<Row & { relations: { blocks: Row[] } }>("save_issue", {
      id: made.identifier,
      state: "completed",
      assignee: null,
      patch: [{ op: "append", text: "\n\nFixed in build 42." }],
      removeBlocks: ["ENG-2"],
      relatedTo: ["ENG-1"],
    });
    expect(updated.relations.blocks).toEqual([]);
    const after = await linear.issue(made.identifier);
    expect([(await after.state)?.type, after.assigneeId ?? null, after.description]).toEqual(["completed", null, "\n\nFixed in build 42."]);

    const mine = await ok<{ issues: Row[] }>("list_issues", { assignee: "bob@acme.test", team: "ENG" });
    expect(mine.issues.map((i) => i.identifier)).toEqual(["ENG-1"]);
    expect((await ok<{ issues: Row[] }>("list_issues", { state: "Done" })).issues.map((i) => i.identifier)).toEqual([made.identifier]);
    expect((await ok<{ issues: Row[] }>("list_issues", { label: "bug", query: "checkout" })).issues.map((i) => i.identifier)).toEqual([
      "ENG-1",
    ]);
    const paged = await ok<{ issues: Row[]; hasNextPage: boolean; cursor: string }>("list_issues", { limit: 1 });
    expect([paged.issues.length, paged.hasNextPage]).toEqual([1, true]);
    const next = await ok<{ issues: Row[] }>("list_issues", { limit: 1, cursor: paged.cursor });
    expect(next.issues[0].id).not.toBe(paged.issues[0].id);

    const got = await ok<Row & { attachments: Row[]; status: string; labels: string[] }>("get_issue", {
      id: "ENG-1",
      includeRelations: true,
    });
    expect([got.status, got.labels, got.attachments.map((a) => a.title)]).toEqual(["Todo", ["Bug"], ["Sentry event"]]);
    expect((await ok<Row>("get_attachment", { id: got.attachments[0].id })).url).toBe("https://sentry.example.test/e/1");
    const linked = await ok<Row>("create_attachment_from_upload", {
      issue: "ENG-2",
      assetUrl: "https://uploads.example.test/a.png",
      title: "Screenshot",
    });
    expect((await (await linear.issue("ENG-2")).attachments()).nodes.map((a) => a.id)).toEqual([linked.id]);

    const before = (await linear.issues()).nodes.length;
    const unknown = await client.callTool({ name: "save_issue", arguments: { title: "Orphan", team: "ENG", blocks: ["ENG-404"] } });
    expect(unknown.isError).toBe(true);
    const badLabel = await client.callTool({ name: "save_issue", arguments: { title: "Orphan", team: "ENG", labels: ["Nope"] } });
    expect([badLabel.isError, textOf(badLabel)]).toEqual([true, "Label not found: Nope"]);
    expect((await linear.issues()).nodes.length).toBe(before);
    const refused = await client.callTool({ name: "save_issue", arguments: { title: "No team" } });
    expect([refused.isError, textOf(refused)]).toEqual([true, "team is required when creating an issue"]);
    const missing = await client.callTool({ name: "get_issue", arguments: { id: "ENG-999" } });
    expect(missing.isError).toBe(true);
  });

  it("comments: lists, creates, replies, edits and deletes comments on issues", async () => {
    const listed = await ok<{ comments: Row[] }>("list_comments", { issueId: "ENG-1" });
    expect(listed.comments.map((c) => c.body)).toEqual(["Seen on iOS too."]);
    const made = await ok<Row>("save_comment", { issueId: "ENG-1", body: "Fix is up." });
    const reply = await ok<Row>("save_comment", { parentId: made.id, body: "Thanks!" });
    expect(reply.parentId).toBe(made.id);
    await ok("save_comment", { id: made.id, body: "Fix is up for review." });
    expect((await linear.comment({ id: made.id })).body).toBe("Fix is up for review.");
    expect(await ok("delete_comment", { id: reply.id })).toEqual({ id: reply.id, deleted: true });
    const left = (await (await linear.issue("ENG-1")).comments()).nodes.map((c) => c.body).sort();
    expect(left).toEqual(["Fix is up for review.", "Seen on iOS too."]);
    const two = await client.callTool({ name: "list_comments", arguments: { issueId: "ENG-1", projectId: "Checkout revamp" } });
    expect(two.isError).toBe(true);
  });

  it("documents: create under a project, patch, read and list", async () => {
    const made = await ok<Row & { slugId: string }>("save_document", { title: "Runbook", content: "Step 1.", project: "Checkout revamp" });
    await ok("save_document", { id: made.id, patch: [{ op: "replace", old_string: "Step 1.", new_string: "Step 1. Step 2." }] });
    const doc = await linear.document(made.id);
    expect([doc.title, doc.content, (await doc.project)?.name]).toEqual(["Runbook", "Step 1. Step 2.", "Checkout revamp"]);
    expect((await ok<Row>("get_document", { id: made.slugId })).content).toBe("Step 1. Step 2.");
    const list = await ok<{ documents: Row[] }>("list_documents", { projectId: "Checkout revamp" });
    expect(list.documents.map((d) => d.title).sort()).toEqual(["Checkout spec", "Runbook"]);
    const orphan = await client.callTool({ name: "save_document", arguments: { title: "Nowhere" } });
    expect(orphan.isError).toBe(true);
  });

  it("projects, milestones and status updates", async () => {
    const made = await ok<Row & { teams: Row[] }>("save_project", {
      name: "Billing v2",
      addTeams: ["ENG", "OPS"],
      lead: "bob@acme.test",
      description: "New billing",
    });
    expect(made.teams.map((t) => t.key).sort()).toEqual(["ENG", "OPS"]);
    await ok("save_project", {
      id: "Billing v2",
      removeTeams: ["OPS"],
      patch: [{ op: "append", text: ": invoices first." }],
      addInitiatives: ["Q3 growth"],
    });
    const project = await linear.project(made.id);
    expect([project.description, (await project.lead)?.email]).toEqual(["New billing: invoices first.", "bob@acme.test"]);
    expect((await project.teams()).nodes.map((t) => t.key)).toEqual(["ENG"]);
    expect(project.state).toBe("backlog");
    await ok("save_project", { id: made.id, state: "Completed" });
    expect((await linear.project(made.id)).state).toBe("completed");
    const paused = await client.callTool({ name: "save_project", arguments: { id: made.id, state: "paused" } });
    expect(paused.isError).toBe(true);
    expect((await ok<{ projects: Row[] }>("list_projects", { initiative: "Q3 growth" })).projects.map((p) => p.name).sort()).toEqual([
      "Billing v2",
      "Checkout revamp",
    ]);
    const got = await ok<Row & { milestones: Row[] }>("get_project", { query: "Checkout revamp", includeMilestones: true });
    expect(got.milestones.map((m) => m.name)).toEqual(["Beta"]);

    const ms = await ok<Row>("save_milestone", { project: "Billing v2", name: "Alpha", targetDate: "2026-09-01" });
    await ok("save_milestone", { project: "Billing v2", id: "Alpha", description: "First invoices" });
    expect((await linear.projectMilestone(ms.id)).description).toBe("First invoices");
    expect((await ok<{ milestones: Row[] }>("list_milestones", { project: "Billing v2" })).milestones.map((m) => m.name)).toEqual([
      "Alpha",
    ]);
    expect((await ok<Row>("get_milestone", { project: "Billing v2", query: "alpha" })).id).toBe(ms.id);

    const update = await ok<Row>("save_status_update", { type: "project", project: "Billing v2", body: "Kicked off.", health: "atRisk" });
    await ok("save_status_update", { type: "project", id: update.id, health: "onTrack" });
    expect((await linear.projectUpdate(update.id)).health).toBe("onTrack");
    const updates = await ok<{ statusUpdates: Row[] }>("get_status_updates", { type: "project", project: "Billing v2" });
    expect(updates.statusUpdates.map((u) => u.body)).toEqual(["Kicked off."]);
    expect((await ok<Row>("get_status_updates", { type: "project", id: update.id })).health).toBe("onTrack");
    const onUpdate = await client.callTool({ name: "save_comment", arguments: { statusUpdateId: update.id, body: "Nice." } });
    expect([onUpdate.isError, textOf(onUpdate)]).toEqual([
      true,
      "This twin of Linear does not model comments on status updates: only comments on issues.",
    ]);
    await ok("delete_status_update", { type: "project", id: update.id });
    expect((await ok<{ statusUpdates: Row[] }>("get_status_updates", { type: "project", project: "Billing v2" })).statusUpdates).toEqual(
      [],
    );
    const initiativeUpdate = await client.callTool({ name: "get_status_updates", arguments: { type: "initiative" } });
    expect([initiativeUpdate.isError, textOf(initiativeUpdate)]).toEqual([
      true,
      "This twin of Linear does not model initiative status updates.",
    ]);
  });

  it("initiatives and labels", async () => {
    const made = await ok<Row>("save_initiative", { name: "Reliability", status: "Planned", owner: "bob", description: "Fewer pages." });
    await ok("save_initiative", { id: "Reliability", status: "Active", patch: [{ op: "prepend", text: "Goal: " }] });
    const initiative = await linear.initiative(made.id);
    expect([initiative.status, initiative.content, (await initiative.owner)?.email]).toEqual([
      "Active",
      "Goal: Fewer pages.",
      "bob@acme.test",
    ]);
    expect((await ok<{ initiatives: Row[] }>("list_initiatives", { status: "Active" })).initiatives.map((i) => i.name).sort()).toEqual([
      "Q3 growth",
      "Reliability",
    ]);
    const q3 = await ok<Row & { projects: Row[] }>("get_initiative", { query: "Q3 growth", includeProjects: true });
    expect(q3.projects.map((p) => p.name)).toContain("Checkout revamp");

    const label = await ok<Row>("create_issue_label", { name: "Regression", teamId: "ENG", color: "#ff0000" });
    expect((await linear.issueLabel(label.id)).name).toBe("Regression");
    expect((await (await linear.issueLabel(label.id)).team)?.key).toBe("ENG");
  });

  it("tapes every call as MCP under the GraphQL root fields it ran", async () => {
    const tape = await tapeOf(sandbox, "linear");
    const mcp = tape.filter((r) => r.transport === "mcp");
    expect(mcp.map((r) => r.operation)).toEqual(
      expect.arrayContaining(["issueCreate", "issueUpdate", "commentCreate", "projectCreate", "documentUpdate"]),
    );
  });
});
