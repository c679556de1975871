// Favorites through @linear/sdk: the viewer's sidebar of issues, projects, cycles, labels,
// documents, custom views, initiatives and folders, created, moved between folders, reordered and removed.
import { beforeAll, describe, expect, it } from "vitest";
import { linearTwin } from "../../../durable-objects/twins/linear";
import { parseLinearSeed } from "../../../durable-objects/twins/linear/seed";
import { inTwinWorld } from "../kit/world";
import { acmeWorld, gql, linearFor, linearSandbox, routeFetchThroughSelf } from "./fixtures";

beforeAll(routeFetchThroughSelf);

describe("linear twin: favorites are created and listed through @linear/sdk", () => {
  it("favorites an issue, a project, a cycle, a label and a document, listed in sidebar order", async () => {
    const client = linearFor(await linearSandbox());
    const project = (await client.projects()).nodes[0];
    const cycle = (await client.cycles()).nodes[0];
    const label = (await client.issueLabels({ filter: { name: { eq: "Bug" } } })).nodes[0];
    const doc = await (await client.createDocument({ title: "Runbook", content: "# Steps" })).document;
    const issue = await (await client.createFavorite({ issueId: "ENG-1" })).favorite;
    expect([issue?.type, (await issue?.issue)?.identifier]).toEqual(["issue", "ENG-1"]);
    await client.createFavorite({ projectId: project.id });
    await client.createFavorite({ cycleId: cycle.id });
    await client.createFavorite({ labelId: label.id });
    await client.createFavorite({ documentId: doc?.id });
    const listed = (await client.favorites()).nodes;
    expect(listed.map((f) => f.type)).toEqual(["issue", "project", "cycle", "label", "document"]);
    expect([(await listed[1]?.project)?.name, (await listed[3]?.label)?.name, (await listed[4]?.document)?.title]).toEqual([
      "Checkout revamp",
      "Bug",
      "Runbook",
    ]);
    expect(listed[0]?.url).toBe((await client.issue("ENG-1")).url);
    expect((await client.favorite(listed[2]?.id ?? "")).type).toBe("cycle");
  });

  it("refuses a second favorite of the same thing, none or two targets, and an unknown target", async () => {
    const client = linearFor(await linearSandbox());
    await client.createFavorite({ issueId: "ENG-1" });
    await expect(client.createFavorite({ issueId: "ENG-1" })).rejects.toThrow(/already exists/);
    await expect(client.createFavorite({})).rejects.toThrow(/Exactly one/);
    await expect(client.createFavorite({ issueId: "ENG-2", folderName: "Both" })).rejects.toThrow(/Exactly one/);
    await expect(client.createFavorite({ issueId: "ENG-999" })).rejects.toThrow(/Entity not found/);
    expect((await client.favorites()).nodes).toHaveLength(1);
  });

  it("answers 501 for a kind of favorite the twin does not model", async () => {
    const sandbox = await linearSandbox();
    const res = await gql(sandbox, `mutation { favoriteCreate(input: { customerId: "x" }) { success } }`);
    expect(res.status).toBe(501);
  });

  it("favorites a custom view and an initiative, and exports both so the export boots the same", async () => {
    const sandbox = await linearSandbox();
    const client = linearFor(sandbox);
    const view = await (await client.createCustomView({ name: "Urgent bugs", filterData: { priority: { eq: 1 } } })).customView;
    const initiative = await (await client.createInitiative({ name: "Q3 reliability" })).initiative;
    const a = await (await client.createFavorite({ customViewId: view?.id })).favorite;
    const b = await (await client.createFavorite({ initiativeId: initiative?.id })).favorite;
    expect([a?.type, (await a?.customView)?.name, b?.type, (await b?.initiative)?.name]).toEqual([
      "customView",
      "Urgent bugs",
      "initiative",
      "Q3 reliability",
    ]);
    expect(b?.url).toBe(initiative?.url);
    await expect(client.createFavorite({ customViewId: view?.id })).rejects.toThrow(/already exists/);
    await expect(client.createFavorite({ initiativeId: "0a1b2c3d-0000-4000-8000-00000000dead" })).rejects.toThrow(/Entity not found/);
    const world = acmeWorld({
      customViews: [{ id: view?.id, name: "Urgent bugs", filterData: { priority: { eq: 1 } } }],
      initiatives: [{ id: initiative?.id, name: "Q3 reliability" }],
      favorites: [
        { type: "customView", target: view?.id ?? null },
        { type: "initiative", target: initiative?.id ?? null },
      ],
    } as never);
    await inTwinWorld(linearTwin, world, (w) => {
      const res = w.call("POST", "/graphql", {
        body: { query: "{ favorites { nodes { type customView { name } initiative { name } } } }" },
      });
      expect(res.body).toEqual({
        data: {
          favorites: {
            nodes: [
              { type: "customView", customView: { name: "Urgent bugs" }, initiative: null },
              { type: "initiative", customView: null, initiative: { name: "Q3 reliability" } },
            ],
          },
        },
      });
      const exported = w.exportState();
      expect(exported.favorites?.map((f) => [f.type, f.target])).toEqual([
        ["customView", view?.id],
        ["initiative", initiative?.id],
      ]);
      expect(parseLinearSeed(exported)).toEqual({ ok: true, seed: exported });
    });
  });
});

describe("linear twin: favorites are arranged in folders through @linear/sdk", () => {
  it("puts a favorite in a folder, renames and reorders, and moves a deleted folder's favorites to the top", async () => {
    const client = linearFor(await linearSandbox());
    const folder = await (await client.createFavorite({ folderName: "Sprint" })).favorite;
    const fav = await (await client.createFavorite({ issueId: "ENG-2" })).favorite;
    const moved = await (await client.updateFavorite(fav?.id ?? "", { parentId: folder?.id, sortOrder: 0.5 })).favorite;
    expect([(await moved?.parent)?.id, moved?.sortOrder]).toEqual([folder?.id, 0.5]);
    expect((await (await client.favorite(folder?.id ?? "")).children()).nodes.map((f) => f.id)).toEqual([fav?.id]);
    expect((await (await client.updateFavorite(folder?.id ?? "", { folderName: "Sprint 12" })).favorite)?.folderName).toBe("Sprint 12");
    await expect(client.updateFavorite(fav?.id ?? "", { folderName: "Nope" })).rejects.toThrow(/Only a folder/);
    expect((await client.deleteFavorite(folder?.id ?? "")).success).toBe(true);
    const left = (await client.favorites()).nodes;
    expect(left.map((f) => f.id)).toEqual([fav?.id]);
    expect(await left[0]?.parent).toBeUndefined();
    await expect(client.favorite(folder?.id ?? "")).rejects.toThrow(/Entity not found/);
  });
});

describe("linear twin: favorites are seed state", () => {
  it("boots seeded favorites and exports created ones, and the export boots to the same world", async () => {
    const folderId = "0a1b2c3d-0000-4000-8000-000000000001";
    const world = acmeWorld({ favorites: [{ type: "folder", id: folderId, folderName: "Sprint" }] });
    await inTwinWorld(linearTwin, world, (w) => {
      const res = w.call("POST", "/graphql", {
        body: { query: `mutation { favoriteCreate(input: { issueId: "ENG-1", parentId: "${folderId}" }) { favorite { type } } }` },
      });
      expect(res.body).toEqual({ data: { favoriteCreate: { favorite: { type: "issue" } } } });
      const exported = w.exportState();
      const issueId = exported.issues.find((i) => i.identifier === "ENG-1")?.id;
      expect(exported.favorites?.map((f) => [f.type, f.folderName, f.target, f.parent, f.owner])).toEqual([
        ["folder", "Sprint", null, null, "ada@acme.test"],
        ["issue", null, issueId, folderId, "ada@acme.test"],
      ]);
      expect(parseLinearSeed(exported)).toEqual({ ok: true, seed: exported });
    });
  });

  it("refuses a seeded favorite of an unknown object or folder", () => {
    const bad = parseLinearSeed(
      acmeWorld({
        favorites: [
          { type: "issue", target: "0a1b2c3d-0000-4000-8000-00000000dead" },
          { type: "folder", folderName: "X", parent: "0a1b2c3d-0000-4000-8000-00000000beef" },
        ],
      }),
    );
    expect(bad.ok).toBe(false);
  });
});
