// Project milestones and project updates through @linear/sdk: seeded and created, issues placed in
// a milestone and filtered by it, milestone progress and status, updates with their health, and
// the project's health following its latest update.
import { LinearDocument, ProjectMilestone, ProjectUpdate } from "@linear/sdk";
import { beforeAll, describe, expect, it } from "vitest";
import { linearTwin } from "../../../durable-objects/twins/linear";
import { parseLinearSeed } from "../../../durable-objects/twins/linear/seed";
import { inTwinWorld } from "../kit/world";
import { acmeWorld, gql, linearFor, linearSandbox, routeFetchThroughSelf } from "./fixtures";

beforeAll(routeFetchThroughSelf);

/** Acme whose project has two milestones (ENG-1 in the first) and one update at risk. */
function plannedWorld() {
  const world = acmeWorld();
  Object.assign(world.projects[0], {
    milestones: [
      { name: "Beta", targetDate: "2026-07-15", description: "Internal users" },
      { name: "GA", targetDate: "2027-01-01" },
    ],
    updates: [{ body: "Card retries slipped a week.", health: "atRisk", user: "bob@acme.test", createdAt: "2026-07-03T09:00:00Z" }],
  });
  Object.assign(world.issues[0], { projectMilestone: "Beta" });
  return world;
}

describe("linear twin: project milestones through @linear/sdk", () => {
  it("lists a project's seeded milestones in order, with their issues, progress and status", async () => {
    const client = linearFor(await linearSandbox(plannedWorld()));
    const project = (await client.projects()).nodes[0];
    const milestones = await project.projectMilestones();
    expect(milestones.nodes.map((m) => [m.name, m.targetDate])).toEqual([
      ["Beta", "2026-07-15"],
      ["GA", "2027-01-01"],
    ]);
    const beta = milestones.nodes[0];
    expect(beta).toBeInstanceOf(ProjectMilestone);
    expect((await beta.issues()).nodes.map((i) => i.identifier)).toEqual(["ENG-1"]);
    expect(beta.progress).toBe(0);
    expect((await client.issue("ENG-1")).projectMilestone).toBeDefined();
    expect((await (await client.issue("ENG-1")).projectMilestone)?.name).toBe("Beta");
  });

  it("creates a milestone, puts an issue in it, filters issues by it, and completes it", async () => {
    const client = linearFor(await linearSandbox());
    const project = (await client.projects()).nodes[0];
    const created = await client.createProjectMilestone({ projectId: project.id, name: "Launch", targetDate: "2099-01-01" });
    const launch = await created.projectMilestone;
    if (!launch) throw new Error("no milestone");
    expect(launch.status).toBe(LinearDocument.ProjectMilestoneStatus.Next);
    await client.updateIssue("ENG-1", { projectMilestoneId: launch.id });
    const inLaunch = await client.issues({ filter: { projectMilestone: { name: { eq: "Launch" } } } });
    expect(inLaunch.nodes.map((i) => i.identifier)).toEqual(["ENG-1"]);
    const done = (await client.workflowStates({ filter: { name: { eq: "Done" } } })).nodes[0];
    await client.updateIssue("ENG-1", { stateId: done.id });
    const after = await client.projectMilestone(launch.id);
    expect(after.progress).toBe(1);
    expect(after.status).toBe(LinearDocument.ProjectMilestoneStatus.Done);
    await client.updateProjectMilestone(launch.id, { name: "Public launch" });
    expect((await client.projectMilestones()).nodes.map((m) => m.name)).toEqual(["Public launch"]);
  });

  it("refuses a milestone of another project, and deleting one leaves its issues in the project", async () => {
    const sb = await linearSandbox(plannedWorld());
    const client = linearFor(sb);
    const other = await client.createProject({ name: "Other", teamIds: [(await client.teams()).nodes[0].id] });
    const otherProject = await other.project;
    if (!otherProject) throw new Error("no project");
    const foreign = await (await client.createProjectMilestone({ projectId: otherProject.id, name: "Elsewhere" })).projectMilestone;
    if (!foreign) throw new Error("no milestone");
    await expect(client.updateIssue("ENG-1", { projectMilestoneId: foreign.id })).rejects.toThrow(/milestone must belong/);
    const beta = (await client.projectMilestones({ filter: { name: { eq: "Beta" } } })).nodes[0];
    expect((await client.deleteProjectMilestone(beta.id)).success).toBe(true);
    const issue = await client.issue("ENG-1");
    expect(issue.projectMilestone).toBeUndefined();
    expect((await issue.project)?.name).toBe("Checkout revamp");
  });
});

describe("linear twin: project updates through @linear/sdk", () => {
  it("lists seeded updates and gives the project the latest one's health", async () => {
    const client = linearFor(await linearSandbox(plannedWorld()));
    const project = (await client.projects()).nodes[0];
    expect(project.health).toBe(LinearDocument.ProjectUpdateHealthType.AtRisk);
    const updates = await project.projectUpdates();
    expect(updates.nodes).toHaveLength(1);
    expect(updates.nodes[0]).toBeInstanceOf(ProjectUpdate);
    expect(updates.nodes[0].body).toBe("Card retries slipped a week.");
    expect((await updates.nodes[0].user)?.email).toBe("bob@acme.test");
  });

  it("posts, edits, archives and deletes an update; the project's health follows", async () => {
    const client = linearFor(await linearSandbox(plannedWorld()));
    const project = (await client.projects()).nodes[0];
    const posted = await client.createProjectUpdate({
      projectId: project.id,
      body: "Back on track.",
      health: LinearDocument.ProjectUpdateHealthType.OnTrack,
    });
    const update = await posted.projectUpdate;
    if (!update) throw new Error("no update");
    expect((await client.project(project.id)).health).toBe(LinearDocument.ProjectUpdateHealthType.OnTrack);
    const edited = await client.updateProjectUpdate(update.id, { health: LinearDocument.ProjectUpdateHealthType.OffTrack });
    expect((await edited.projectUpdate)?.editedAt).toBeInstanceOf(Date);
    expect((await client.project(project.id)).health).toBe(LinearDocument.ProjectUpdateHealthType.OffTrack);
    await client.archiveProjectUpdate(update.id);
    expect((await client.projectUpdates()).nodes.map((u) => u.body)).toEqual(["Card retries slipped a week."]);
    expect((await client.deleteProjectUpdate(update.id)).success).toBe(true);
    await expect(client.projectUpdate(update.id)).rejects.toThrow(/Entity not found/);
  });

  it("refuses a health Linear does not have", async () => {
    const sb = await linearSandbox();
    const res = await gql(sb, `mutation($p: String!) { projectUpdateCreate(input: { projectId: $p, health: sideways }) { success } }`, {
      p: "x",
    });
    expect(res.status).toBe(400);
  });
});

describe("linear twin: milestones and updates are seed state", () => {
  it("exports what it boots", async () => {
    const parsed = parseLinearSeed(plannedWorld());
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
    await inTwinWorld(linearTwin, plannedWorld(), (w) => expect(w.exportState()).toStrictEqual(parsed.seed));
  });

  it("refuses an issue's milestone its project does not have", () => {
    const world = plannedWorld();
    Object.assign(world.issues[0], { projectMilestone: "Nope" });
    expect(parseLinearSeed(world).ok).toBe(false);
  });
});
