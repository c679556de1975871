// Custom views through @linear/sdk: a saved IssueFilter whose issues are the filter applied by the
// twin's own filter compiler, personal or shared, scoped to a team; and kept as seed state.
import { beforeAll, describe, expect, it } from "vitest";
import { linearTwin } from "../../../durable-objects/twins/linear";
import { parseLinearSeed } from "../../../durable-objects/twins/linear/seed";
import { inTwinWorld } from "../kit/world";
import { acmeWorld, gql, linearFor, linearSandbox, routeFetchThroughSelf } from "./fixtures";

beforeAll(routeFetchThroughSelf);

const ident = (nodes: { identifier: string }[]) => nodes.map((i) => i.identifier).sort();

describe("linear twin: a custom view's issues are its saved filter applied", () => {
  it("lists the issues its filterData matches, with the caller's filter on top", async () => {
    const client = linearFor(await linearSandbox());
    const created = await client.createCustomView({ name: "Urgent bugs", filterData: { labels: { name: { eq: "Bug" } } } });
    const view = await created.customView;
    expect([view?.name, view?.modelName, view?.shared, view?.filterData]).toEqual([
      "Urgent bugs",
      "issue",
      false,
      { labels: { name: { eq: "Bug" } } },
    ]);
    expect(ident((await view?.issues())?.nodes ?? [])).toEqual(["ENG-1"]);
    expect((await view?.issues({ filter: { priority: { eq: 4 } } }))?.nodes).toEqual([]);
    const updated = await (await client.updateCustomView(view?.id ?? "", { filterData: { parent: { null: false } } })).customView;
    expect(ident((await updated?.issues())?.nodes ?? [])).toEqual(["ENG-2"]);
    expect((await client.customView(view?.slugId ?? "")).id).toBe(view?.id);
  });

  it("scopes a team's view to the team's issues", async () => {
    const sandbox = await linearSandbox();
    const client = linearFor(sandbox);
    await client.createTeam({ name: "Ops", key: "OPS" });
    const ops = await client.team("OPS");
    await client.createIssue({ teamId: ops.id, title: "Rotate keys" });
    const view = await (await client.createCustomView({ name: "Ops all", teamId: ops.id })).customView;
    expect(ident((await view?.issues())?.nodes ?? [])).toEqual(["OPS-1"]);
    expect((await view?.team)?.key).toBe("OPS");
  });

  it("refuses a filter the twin cannot evaluate when the view is written, and keeps nothing", async () => {
    const sandbox = await linearSandbox();
    const res = await gql(
      sandbox,
      `mutation { customViewCreate(input: { name: "X", filterData: { customerCount: { eq: 1 } } }) { success } }`,
    );
    expect(res.status).toBe(501);
    const refused = await gql(sandbox, `mutation { customViewCreate(input: { name: "X", projectFilterData: {} }) { success } }`);
    expect(refused.status).toBe(501);
    expect((await linearFor(sandbox).customViews()).nodes).toEqual([]);
  });
});

describe("linear twin: custom views are listed, filtered and deleted through @linear/sdk", () => {
  it("lists the viewer's views and shared ones, filters by shared, and deletes", async () => {
    const client = linearFor(await linearSandbox());
    const mine = await (await client.createCustomView({ name: "Mine" })).customView;
    await client.createCustomView({ name: "Team board", shared: true });
    expect((await client.customViews()).nodes.map((v) => v.name)).toEqual(["Team board", "Mine"]);
    expect((await client.customViews({ filter: { shared: { eq: true } } })).nodes.map((v) => v.name)).toEqual(["Team board"]);
    expect((await client.deleteCustomView(mine?.id ?? "")).entityId).toBe(mine?.id);
    await expect(client.customView(mine?.id ?? "")).rejects.toThrow(/Entity not found/);
    expect((await client.customViews()).nodes.map((v) => v.name)).toEqual(["Team board"]);
  });
});

describe("linear twin: custom views are seed state", () => {
  const other = "0a1b2c3d-0000-4000-8000-0000000000c1";
  it("boots seeded views (another user's private one is not the viewer's), exports created ones, and round-trips", async () => {
    const world = acmeWorld({
      customViews: [
        { name: "Bugs", filterData: { labels: { name: { eq: "Bug" } } }, shared: true },
        { name: "Bob's", id: other, owner: "bob@acme.test" },
      ],
    });
    await inTwinWorld(linearTwin, world, (w) => {
      const listed = w.call("POST", "/graphql", { body: { query: "{ customViews { nodes { name issues { nodes { identifier } } } } }" } });
      expect(listed.body).toEqual({ data: { customViews: { nodes: [{ name: "Bugs", issues: { nodes: [{ identifier: "ENG-1" }] } }] } } });
      const hidden = w.call("POST", "/graphql", { body: { query: `{ customView(id: "${other}") { id } }` } });
      expect((hidden.body as { errors?: { message: string }[] }).errors?.[0]?.message).toMatch(/Entity not found/);
      w.call("POST", "/graphql", {
        body: { query: `mutation { customViewCreate(input: { name: "Mine", filterData: { priority: { lte: 2 } } }) { success } }` },
      });
      const exported = w.exportState();
      expect(exported.customViews?.map((v) => [v.name, v.owner, v.shared, v.filterData])).toEqual([
        ["Bugs", "ada@acme.test", true, { labels: { name: { eq: "Bug" } } }],
        ["Bob's", "bob@acme.test", false, {}],
        ["Mine", "ada@acme.test", false, { priority: { lte: 2 } }],
      ]);
      expect(parseLinearSeed(exported)).toEqual({ ok: true, seed: exported });
    });
  });

  it("refuses a seeded view whose filter the twin cannot evaluate", () => {
    expect(parseLinearSeed(acmeWorld({ customViews: [{ name: "X", filterData: { customerCount: { eq: 1 } } }] })).ok).toBe(false);
  });
});
