// Initiatives through @linear/sdk: created, listed, filtered, updated through their statuses,
// projects added and removed, archived and trashed; and kept as seed state.
import { beforeAll, describe, expect, it } from "vitest";
import { linearTwin } from "../../../durable-objects/twins/linear";
import { parseLinearSeed } from "../../../durable-objects/twins/linear/seed";
import { inTwinWorld } from "../kit/world";
import { acmeWorld, deliveries, delivered, gql, linearFor, linearSandbox, routeFetchThroughSelf } from "./fixtures";

beforeAll(routeFetchThroughSelf);

describe("linear twin: initiatives are created, changed and listed through @linear/sdk", () => {
  it("creates an initiative owned by the viewer, finds it by id and slugId, and lists and filters it", async () => {
    const client = linearFor(await linearSandbox());
    const created = await client.createInitiative({ name: "Q3 growth", description: "Grow checkout", targetDate: "2026-09-30" });
    const initiative = await created.initiative;
    expect([initiative?.name, initiative?.status, initiative?.targetDate, (await initiative?.owner)?.email]).toEqual([
      "Q3 growth",
      "Planned",
      "2026-09-30",
      "ada@acme.test",
    ]);
    expect(initiative?.url).toMatch(/^https:\/\/linear\.app\/acme\/initiative\/q3-growth-[0-9a-f]{12}$/);
    expect((await client.initiative(initiative?.slugId ?? "")).id).toBe(initiative?.id);
    await client.createInitiative({ name: "Platform" });
    // Newest first, as Linear's lists are by default.
    expect((await client.initiatives()).nodes.map((i) => i.name)).toEqual(["Platform", "Q3 growth"]);
    expect((await client.initiatives({ filter: { name: { containsIgnoreCase: "growth" } } })).nodes.map((i) => i.name)).toEqual([
      "Q3 growth",
    ]);
  });

  it("sets startedAt when it becomes Active and completedAt when Completed, and refuses an unknown owner", async () => {
    const client = linearFor(await linearSandbox());
    const id = (await (await client.createInitiative({ name: "Launch" })).initiative)?.id ?? "";
    const active = await (await client.updateInitiative(id, { status: "Active" as never })).initiative;
    expect([active?.status, active?.startedAt instanceof Date, active?.completedAt]).toEqual(["Active", true, undefined]);
    const done = await (await client.updateInitiative(id, { status: "Completed" as never })).initiative;
    expect([done?.status, done?.completedAt instanceof Date]).toEqual(["Completed", true]);
    await expect(client.updateInitiative(id, { ownerId: "0a1b2c3d-0000-4000-8000-00000000dead" })).rejects.toThrow(/Entity not found/);
    expect((await client.initiatives({ filter: { status: { eq: "Completed" } } })).nodes.map((i) => i.id)).toEqual([id]);
  });

  it("adds a project to an initiative once, lists it, and removes it", async () => {
    const client = linearFor(await linearSandbox());
    const project = (await client.projects()).nodes[0];
    const id = (await (await client.createInitiative({ name: "Checkout" })).initiative)?.id ?? "";
    const link = await client.createInitiativeToProject({ initiativeId: id, projectId: project?.id ?? "" });
    expect(link.success).toBe(true);
    expect((await (await client.initiative(id)).projects()).nodes.map((p) => p.name)).toEqual(["Checkout revamp"]);
    expect((await client.projects({ filter: { initiatives: { some: { id: { eq: id } } } } })).nodes).toHaveLength(1);
    await expect(client.createInitiativeToProject({ initiativeId: id, projectId: project?.id ?? "" })).rejects.toThrow(/already/);
    const linkId = (await link.initiativeToProject)?.id ?? "";
    const fetched = await client.initiativeToProject(linkId);
    expect([(await fetched.initiative)?.id, (await fetched.project)?.name]).toEqual([id, "Checkout revamp"]);
    expect((await client.initiativeToProjects()).nodes.map((l) => l.id)).toEqual([linkId]);
    expect((await client.deleteInitiativeToProject(linkId)).entityId).toBe(linkId);
    expect((await (await client.initiative(id)).projects()).nodes).toEqual([]);
  });

  it("archives, restores and trashes: archived and trashed initiatives leave the list", async () => {
    const client = linearFor(await linearSandbox());
    const id = (await (await client.createInitiative({ name: "Old bet" })).initiative)?.id ?? "";
    expect((await (await client.archiveInitiative(id)).entity)?.archivedAt).toBeInstanceOf(Date);
    expect((await client.initiatives()).nodes).toEqual([]);
    expect((await client.initiatives({ includeArchived: true })).nodes.map((i) => i.id)).toEqual([id]);
    await client.unarchiveInitiative(id);
    expect((await client.initiatives()).nodes.map((i) => i.id)).toEqual([id]);
    expect((await client.deleteInitiative(id)).entityId).toBe(id);
    const trashed = await client.initiative(id);
    expect([trashed.trashed, (await client.initiatives()).nodes.length]).toEqual([true, 0]);
  });

  it("answers 501 for an initiative field the twin does not model, and changes nothing", async () => {
    const sandbox = await linearSandbox();
    const res = await gql(sandbox, `mutation { initiativeCreate(input: { name: "X", leadTeamId: "ENG" }) { success } }`);
    expect(res.status).toBe(501);
    expect((await linearFor(sandbox).initiatives()).nodes).toEqual([]);
  });
});

describe("linear twin: initiatives send Linear's Initiative webhook", () => {
  it("posts create, update (with updatedFrom) and remove to a workspace-wide Initiative webhook", async () => {
    const hook = "http://127.0.0.1:9/initiatives";
    const world = acmeWorld({ webhooks: [{ url: hook, resourceTypes: ["Initiative"], secret: "lin_wh_initiatives" }] });
    const client = linearFor(await linearSandbox(world));
    const start = delivered.length;
    const id = (await (await client.createInitiative({ name: "Hooked" })).initiative)?.id ?? "";
    await client.updateInitiative(id, { name: "Hooked v2" });
    await client.deleteInitiative(id);
    const bodies = (await deliveries(start + 3))
      .slice(start)
      .filter((d) => d.url === hook)
      .map((d) => JSON.parse(d.body) as { action: string; type: string; data: { name: string }; updatedFrom?: { name?: string } });
    const byAction = (a: string) => bodies.find((b) => b.action === a);
    expect(byAction("create")).toMatchObject({ type: "Initiative", data: { name: "Hooked" } });
    expect(byAction("update")).toMatchObject({ data: { name: "Hooked v2" }, updatedFrom: { name: "Hooked" } });
    expect(byAction("remove")).toMatchObject({ type: "Initiative", data: { name: "Hooked v2" } });
  });
});

describe("linear twin: initiatives are seed state", () => {
  it("boots seeded initiatives with their projects, exports created ones, and the export boots the same", async () => {
    const world = acmeWorld({ initiatives: [{ name: "Seeded", status: "Active", projects: ["Checkout revamp"] }] });
    await inTwinWorld(linearTwin, world, (w) => {
      const listed = w.call("POST", "/graphql", {
        body: { query: "{ initiatives { nodes { name status projects { nodes { name } } } } }" },
      });
      expect(listed.body).toEqual({
        data: { initiatives: { nodes: [{ name: "Seeded", status: "Active", projects: { nodes: [{ name: "Checkout revamp" }] } }] } },
      });
      w.call("POST", "/graphql", {
        body: { query: `mutation { initiativeCreate(input: { name: "Made", targetDate: "2026-12-01" }) { success } }` },
      });
      const exported = w.exportState();
      expect(exported.initiatives?.map((i) => [i.name, i.status, i.projects, i.owner, i.targetDate])).toEqual([
        ["Seeded", "Active", ["Checkout revamp"], "ada@acme.test", null],
        ["Made", "Planned", [], "ada@acme.test", "2026-12-01"],
      ]);
      expect(parseLinearSeed(exported)).toEqual({ ok: true, seed: exported });
    });
  });

  it("refuses a seeded initiative naming an unknown project", () => {
    expect(parseLinearSeed(acmeWorld({ initiatives: [{ name: "X", projects: ["Nope"] }] })).ok).toBe(false);
  });
});
