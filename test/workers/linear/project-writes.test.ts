// Project and initiative writes through @linear/sdk, each named by the GraphQL mutation it sends:
// milestones created, edited and deleted; project updates edited, archived, unarchived and
// deleted; initiatives archived, unarchived and deleted (trashed); projects linked to and unlinked
// from initiatives. Payload shapes are Linear's schema (@linear/sdk's schema types): deletes answer
// DeletePayload `{ success, lastSyncId, entityId }`, archives `{ success, lastSyncId, entity }`; an id
// naming nothing is `Entity not found: <Type>` (InvalidInputLinearError to the SDK).
import { beforeAll, describe, expect, it } from "vitest";
import { acmeWorld, gql, linearFor, linearSandbox, routeFetchThroughSelf, refusedInput, UNKNOWN_ID } from "./fixtures";

beforeAll(routeFetchThroughSelf);

/** Acme whose project has a milestone holding ENG-1 and two updates, the latest at risk. */
function plannedWorld() {
  const world = acmeWorld();
  Object.assign(world.projects[0], {
    milestones: [{ name: "Beta", targetDate: "2026-07-15" }],
    updates: [
      { body: "Kick-off done.", health: "onTrack", user: "ada@acme.test", createdAt: "2026-07-02T09:00:00Z" },
      { body: "Card retries slipped a week.", health: "atRisk", user: "ada@acme.test", createdAt: "2026-07-03T09:00:00Z" },
    ],
  });
  Object.assign(world.issues[0], { projectMilestone: "Beta" });
  return world;
}

describe("linear twin: project milestones written through @linear/sdk", () => {
  it("projectMilestoneCreate adds a milestone after the project's others, and refuses no name, a bad date and an unknown project", async () => {
    const client = linearFor(await linearSandbox(plannedWorld()));
    const project = (await client.projects()).nodes[0];
    const payload = await client.createProjectMilestone({
      projectId: project.id,
      name: "GA",
      targetDate: "2027-01-01",
      description: "Everyone",
    });
    expect(payload.success).toBe(true);
    const milestone = await payload.projectMilestone;
    expect([milestone?.name, milestone?.targetDate, milestone?.description, (await milestone?.project)?.id]).toEqual([
      "GA",
      "2027-01-01",
      "Everyone",
      project.id,
    ]);
    expect((await project.projectMilestones()).nodes.map((m) => m.name)).toEqual(["Beta", "GA"]);
    expect((await client.projectMilestone(milestone?.id ?? "")).name).toBe("GA");
    await refusedInput(client.createProjectMilestone({ projectId: project.id, name: " " }), /name must not be empty|needs a name/);
    await refusedInput(client.createProjectMilestone({ projectId: project.id, name: "RC", targetDate: "soon" }), /targetDate/);
    await refusedInput(client.createProjectMilestone({ projectId: UNKNOWN_ID, name: "RC" }), /Entity not found: Project/);
  });

  it("projectMilestoneUpdate renames and re-dates a milestone, and refuses an unknown id", async () => {
    const client = linearFor(await linearSandbox(plannedWorld()));
    const [beta] = (await client.projectMilestones()).nodes;
    const payload = await client.updateProjectMilestone(beta?.id ?? "", { name: "Public beta", targetDate: "2026-08-01" });
    const milestone = await payload.projectMilestone;
    expect([payload.success, milestone?.id, milestone?.name, milestone?.targetDate]).toEqual([true, beta?.id, "Public beta", "2026-08-01"]);
    expect((await (await client.issue("ENG-1")).projectMilestone)?.name).toBe("Public beta");
    await refusedInput(client.updateProjectMilestone(beta?.id ?? "", { name: "" }), /name must not be empty|needs a name/);
    await refusedInput(client.updateProjectMilestone(UNKNOWN_ID, { name: "x" }), /Entity not found/);
  });

  it("projectMilestoneDelete removes the milestone, leaving its issues in the project, and refuses an unknown id", async () => {
    const client = linearFor(await linearSandbox(plannedWorld()));
    const [beta] = (await client.projectMilestones()).nodes;
    const deleted = await client.deleteProjectMilestone(beta?.id ?? "");
    expect([deleted.success, deleted.entityId]).toEqual([true, beta?.id]);
    expect((await client.projectMilestones()).nodes).toEqual([]);
    const issue = await client.issue("ENG-1");
    expect([await issue.projectMilestone, (await issue.project)?.name]).toEqual([undefined, "Checkout revamp"]);
    await refusedInput(client.deleteProjectMilestone(beta?.id ?? ""), /Entity not found/);
  });
});

describe("linear twin: project updates written through @linear/sdk", () => {
  const latestFirst = async (client: ReturnType<typeof linearFor>) => {
    const project = (await client.projects()).nodes[0];
    return { project, updates: (await client.projectUpdates()).nodes.sort((a, b) => +b.createdAt - +a.createdAt) };
  };

  it("projectUpdateUpdate edits the body and health, sets editedAt, moves the project's health, and refuses a bad health", async () => {
    const client = linearFor(await linearSandbox(plannedWorld()));
    const { project, updates } = await latestFirst(client);
    expect(project.health).toBe("atRisk");
    const payload = await client.updateProjectUpdate(updates[0]?.id ?? "", { body: "Retries fixed.", health: "onTrack" as never });
    const update = await payload.projectUpdate;
    expect([payload.success, update?.body, update?.health, update?.editedAt instanceof Date]).toEqual([
      true,
      "Retries fixed.",
      "onTrack",
      true,
    ]);
    expect((await client.project(project.id)).health).toBe("onTrack");
    // health is the enum ProjectUpdateHealthType: GraphQL's own validation refuses another value.
    await expect(client.updateProjectUpdate(updates[0]?.id ?? "", { health: "fine" as never })).rejects.toThrow(/invalid value/);
    await refusedInput(client.updateProjectUpdate(UNKNOWN_ID, { body: "x" }), /Entity not found/);
  });

  it("projectUpdateArchive hides the update, the project's health falling back to the one before; projectUpdateUnarchive restores it", async () => {
    const client = linearFor(await linearSandbox(plannedWorld()));
    const { project, updates } = await latestFirst(client);
    const latest = updates[0];
    const archived = await client.archiveProjectUpdate(latest?.id ?? "");
    const entity = await archived.entity;
    expect([archived.success, entity?.id, entity?.archivedAt instanceof Date]).toEqual([true, latest?.id, true]);
    expect((await client.projectUpdates()).nodes.map((u) => u.body)).toEqual(["Kick-off done."]);
    expect((await client.projectUpdates({ includeArchived: true })).nodes).toHaveLength(2);
    expect((await client.project(project.id)).health).toBe("onTrack");
    const restored = await client.unarchiveProjectUpdate(latest?.id ?? "");
    expect([restored.success, (await restored.entity)?.archivedAt]).toEqual([true, undefined]);
    expect((await client.projectUpdates()).nodes).toHaveLength(2);
    expect((await client.project(project.id)).health).toBe("atRisk");
    await refusedInput(client.archiveProjectUpdate(UNKNOWN_ID), /Entity not found/);
    await refusedInput(client.unarchiveProjectUpdate(UNKNOWN_ID), /Entity not found/);
  });

  it("projectUpdateDelete removes the update for good and refuses it again", async () => {
    const client = linearFor(await linearSandbox(plannedWorld()));
    const { project, updates } = await latestFirst(client);
    const deleted = await client.deleteProjectUpdate(updates[0]?.id ?? "");
    expect([deleted.success, deleted.entityId]).toEqual([true, updates[0]?.id]);
    expect((await client.projectUpdates({ includeArchived: true })).nodes.map((u) => u.body)).toEqual(["Kick-off done."]);
    expect((await client.project(project.id)).health).toBe("onTrack");
    await refusedInput(client.projectUpdate(updates[0]?.id ?? ""), /Entity not found/);
    await refusedInput(client.deleteProjectUpdate(updates[0]?.id ?? ""), /Entity not found/);
  });
});

describe("linear twin: initiatives archived, deleted and linked to projects", () => {
  it("initiativeArchive hides the initiative from lists (kept with includeArchived), and refuses an unknown id", async () => {
    const client = linearFor(await linearSandbox());
    const initiative = await (await client.createInitiative({ name: "Q3 reliability" })).initiative;
    const archived = await client.archiveInitiative(initiative?.id ?? "");
    const entity = await archived.entity;
    expect([archived.success, entity?.id, entity?.archivedAt instanceof Date]).toEqual([true, initiative?.id, true]);
    expect((await client.initiatives()).nodes).toEqual([]);
    expect((await client.initiatives({ includeArchived: true })).nodes.map((i) => i.name)).toEqual(["Q3 reliability"]);
    await refusedInput(client.archiveInitiative(UNKNOWN_ID), /Entity not found/);
  });

  it("initiativeUnarchive restores an archived initiative to lists, and refuses an unknown id", async () => {
    const client = linearFor(await linearSandbox());
    const initiative = await (await client.createInitiative({ name: "Q3 reliability" })).initiative;
    await client.archiveInitiative(initiative?.id ?? "");
    const restored = await client.unarchiveInitiative(initiative?.id ?? "");
    const entity = await restored.entity;
    expect([restored.success, entity?.id, entity?.archivedAt]).toEqual([true, initiative?.id, undefined]);
    expect((await client.initiatives()).nodes.map((i) => i.name)).toEqual(["Q3 reliability"]);
    await refusedInput(client.unarchiveInitiative(UNKNOWN_ID), /Entity not found/);
  });

  it("initiativeDelete trashes the initiative (Linear: 'Deletes (trashes) an initiative'), answering its id", async () => {
    const client = linearFor(await linearSandbox());
    const initiative = await (await client.createInitiative({ name: "Q3 reliability" })).initiative;
    const deleted = await client.deleteInitiative(initiative?.id ?? "");
    expect([deleted.success, deleted.entityId]).toEqual([true, initiative?.id]);
    expect((await client.initiatives()).nodes).toEqual([]);
    const trashed = await client.initiative(initiative?.id ?? "");
    expect([trashed.trashed, trashed.archivedAt instanceof Date]).toEqual([true, true]);
    await refusedInput(client.deleteInitiative(UNKNOWN_ID), /Entity not found/);
  });

  it("initiativeToProjectCreate links a project once, listed under Initiative.projects, and refuses a second link and unknowns", async () => {
    const client = linearFor(await linearSandbox());
    const project = (await client.projects()).nodes[0];
    const initiative = await (await client.createInitiative({ name: "Q3 reliability" })).initiative;
    const payload = await client.createInitiativeToProject({ initiativeId: initiative?.id ?? "", projectId: project.id });
    const link = await payload.initiativeToProject;
    expect([payload.success, (await link?.initiative)?.id, (await link?.project)?.name]).toEqual([true, initiative?.id, "Checkout revamp"]);
    expect((await (await client.initiative(initiative?.id ?? "")).projects()).nodes.map((p) => p.name)).toEqual(["Checkout revamp"]);
    await refusedInput(client.createInitiativeToProject({ initiativeId: initiative?.id ?? "", projectId: project.id }), /already/);
    await refusedInput(
      client.createInitiativeToProject({ initiativeId: initiative?.id ?? "", projectId: UNKNOWN_ID }),
      /Entity not found: Project/,
    );
    await refusedInput(client.createInitiativeToProject({ initiativeId: UNKNOWN_ID, projectId: project.id }), /Entity not found/);
  });

  it("initiativeToProjectDelete unlinks the project from the initiative, and refuses an unknown link", async () => {
    const sb = await linearSandbox();
    const client = linearFor(sb);
    const project = (await client.projects()).nodes[0];
    const initiative = await (await client.createInitiative({ name: "Q3 reliability" })).initiative;
    const link = await (await client.createInitiativeToProject({ initiativeId: initiative?.id ?? "", projectId: project.id }))
      .initiativeToProject;
    const deleted = await client.deleteInitiativeToProject(link?.id ?? "");
    expect([deleted.success, deleted.entityId]).toEqual([true, link?.id]);
    expect((await (await client.initiative(initiative?.id ?? "")).projects()).nodes).toEqual([]);
    const raw = await gql(sb, `mutation { initiativeToProjectDelete(id: "${link?.id}") { success } }`);
    expect(raw.body.errors?.[0]).toMatchObject({
      message: "Entity not found: InitiativeToProject",
      extensions: { type: "invalid input", code: "INPUT_ERROR" },
    });
  });
});
