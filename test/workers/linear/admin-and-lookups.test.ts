// Administration of labels and workflow states, attachments found by URL, and the issue a VCS
// branch is named for, through @linear/sdk.
import { beforeAll, describe, expect, it } from "vitest";
import { identifiersIn } from "../../../durable-objects/twins/linear/resolvers/admin";
import { acmeWorld, linearFor, linearSandbox, routeFetchThroughSelf } from "./fixtures";

beforeAll(routeFetchThroughSelf);

describe("linear twin: labels are deleted through @linear/sdk", () => {
  it("deletes a label, which leaves the issues it was on", async () => {
    const client = linearFor(await linearSandbox());
    const bug = (await client.issueLabels({ filter: { name: { eq: "Bug" } } })).nodes[0];
    expect((await (await client.issue("ENG-1")).labels()).nodes.map((l) => l.name)).toEqual(["Bug"]);
    expect((await client.deleteIssueLabel(bug.id)).success).toBe(true);
    expect((await (await client.issue("ENG-1")).labels()).nodes).toEqual([]);
    await expect(client.issueLabel(bug.id)).rejects.toThrow(/Entity not found/);
  });
});

describe("linear twin: workflow states are administered through @linear/sdk", () => {
  it("renames and recolours a state, and refuses a name its team already has", async () => {
    const client = linearFor(await linearSandbox());
    const todo = (await client.workflowStates({ filter: { name: { eq: "Todo" } } })).nodes[0];
    const renamed = await (await client.updateWorkflowState(todo.id, { name: "Ready", color: "#00aa00" })).workflowState;
    expect([renamed?.name, renamed?.color]).toEqual(["Ready", "#00aa00"]);
    await expect(client.updateWorkflowState(todo.id, { name: "Done" })).rejects.toThrow(/already exists/);
  });

  it("archives an empty state out of the lists, and refuses one with issues or the default", async () => {
    const client = linearFor(await linearSandbox());
    const states = (await client.workflowStates()).nodes;
    const byName = (n: string) => states.find((s) => s.name === n)?.id ?? "";
    await expect(client.archiveWorkflowState(byName("Todo"))).rejects.toThrow(/default state|has issues/);
    const archived = await client.archiveWorkflowState(byName("Canceled"));
    expect(archived.success).toBe(true);
    expect((await client.workflowStates()).nodes.map((s) => s.name)).not.toContain("Canceled");
    expect((await client.workflowStates({ includeArchived: true })).nodes.map((s) => s.name)).toContain("Canceled");
  });
});

describe("linear twin: attachments are found by URL through @linear/sdk", () => {
  it("lists the attachments with a URL, across issues", async () => {
    const client = linearFor(await linearSandbox());
    await client.attachmentLinkURL("ENG-2", "https://sentry.example.test/e/1");
    const found = await client.attachmentsForURL("https://sentry.example.test/e/1");
    const issues = [];
    for (const a of found.nodes) issues.push((await a.issue)?.identifier);
    expect(issues.sort()).toEqual(["ENG-1", "ENG-2"]);
    expect((await client.attachmentsForURL("https://nowhere.example.test/")).nodes).toEqual([]);
  });
});

describe("linear twin: the issue of a VCS branch is found through @linear/sdk", () => {
  it("finds the issue whose identifier the branch name holds, as Linear's branchName writes it", async () => {
    const client = linearFor(await linearSandbox());
    const issue = await client.issue("ENG-2");
    expect((await client.issueVcsBranchSearch(issue.branchName))?.identifier).toBe("ENG-2");
    expect((await client.issueVcsBranchSearch("feature/ENG-1-checkout"))?.identifier).toBe("ENG-1");
    expect(await client.issueVcsBranchSearch("main")).toBeUndefined();
  });

  it("reads identifiers out of branch names", () => {
    expect(identifiersIn("ada/eng-12-fix-login")).toEqual(["ENG-12"]);
    expect(identifiersIn("OPS-3_and_ENG-4")).toEqual(["OPS-3", "ENG-4"]);
    expect(identifiersIn("release-2026")).toEqual(["RELEASE-2026"]);
    expect(identifiersIn("v1.2.3")).toEqual([]);
  });
});

describe("linear twin: archived workflow states are seed state", () => {
  it("boots a seeded archived state and keeps it out of the team's states", async () => {
    const world = acmeWorld();
    Object.assign(world.teams[0].states[4], { archivedAt: "2026-06-01T00:00:00Z" });
    const client = linearFor(await linearSandbox(world));
    expect((await client.workflowStates()).nodes.map((s) => s.name)).toEqual(["Backlog", "Todo", "In Progress", "Done"]);
  });
});
