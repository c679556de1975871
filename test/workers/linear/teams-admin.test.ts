// Teams created and updated through @linear/sdk: the key (given or made from the name) and its
// validation, the new team's default workflow and its creator as member, and a key change that
// renames the team's issues while their old identifiers keep finding them.
import { beforeAll, describe, expect, it } from "vitest";
import { linearTwin } from "../../../durable-objects/twins/linear";
import { keyFromName, keyProblem } from "../../../durable-objects/twins/linear/resolvers/teams";
import { parseLinearSeed } from "../../../durable-objects/twins/linear/seed";
import { inTwinWorld } from "../kit/world";
import { acmeWorld, linearFor, linearSandbox, routeFetchThroughSelf } from "./fixtures";

beforeAll(routeFetchThroughSelf);

describe("linear twin: a team is created through @linear/sdk", () => {
  it("creates a team with the default workflow, Backlog as default state, and the creator as member", async () => {
    const client = linearFor(await linearSandbox());
    const payload = await client.createTeam({ name: "Operations", key: "ops", description: "Keeps things running" });
    expect(payload.success).toBe(true);
    const team = await payload.team;
    expect([team?.key, team?.name, team?.description]).toEqual(["OPS", "Operations", "Keeps things running"]);
    const created = await client.team("OPS");
    expect((await created.states()).nodes.map((s) => [s.name, s.type])).toEqual([
      ["Backlog", "backlog"],
      ["Todo", "unstarted"],
      ["In Progress", "started"],
      ["Done", "completed"],
      ["Canceled", "canceled"],
    ]);
    expect((await created.defaultIssueState)?.name).toBe("Backlog");
    expect((await created.members()).nodes.map((u) => u.email)).toEqual(["ada@acme.test"]);
    const issue = await (await client.createIssue({ teamId: created.id, title: "First ops task" })).issue;
    expect([issue?.identifier, (await issue?.state)?.name]).toEqual(["OPS-1", "Backlog"]);
  });

  it("makes a key from the name when none is given, avoiding taken keys", async () => {
    const client = linearFor(await linearSandbox());
    expect((await (await client.createTeam({ name: "Design Systems" })).team)?.key).toBe("DS");
    expect((await (await client.createTeam({ name: "Engagement" })).team)?.key).toBe("ENG2");
  });

  it("refuses a taken key, an invalid key and an empty name, changing nothing", async () => {
    const client = linearFor(await linearSandbox());
    await expect(client.createTeam({ name: "Again", key: "eng" })).rejects.toThrow(/already taken/);
    await expect(client.createTeam({ name: "Bad", key: "1AB" })).rejects.toThrow(/start with a letter/);
    await expect(client.createTeam({ name: "Long", key: "ABCDEFGH" })).rejects.toThrow(/at most 7/);
    await expect(client.createTeam({ name: "  ", key: "OK" })).rejects.toThrow(/name must not be empty/i);
    await expect(client.createTeam({ name: "Odd", key: "ODD", issueEstimationType: "dice" })).rejects.toThrow(/issueEstimationType/);
    expect((await client.teams()).nodes.map((t) => t.key)).toEqual(["ENG"]);
  });

  it("answers 501 for a team setting the twin does not act on", async () => {
    const client = linearFor(await linearSandbox());
    await expect(client.createTeam({ name: "Cycles", key: "CYC", cyclesEnabled: true })).rejects.toThrow(/TeamCreateInput\.cyclesEnabled/);
  });
});

describe("linear twin: a team is updated through @linear/sdk", () => {
  it("renames a team and changes its description, estimation type and default state", async () => {
    const client = linearFor(await linearSandbox());
    const eng = await client.team("ENG");
    const backlog = (await eng.states()).nodes.find((s) => s.name === "Backlog");
    const updated = await (
      await client.updateTeam(eng.id, {
        name: "Platform",
        description: "Core",
        issueEstimationType: "linear",
        defaultIssueStateId: backlog?.id,
      })
    ).team;
    expect([updated?.name, updated?.description, updated?.issueEstimationType]).toEqual(["Platform", "Core", "linear"]);
    expect((await updated?.defaultIssueState)?.name).toBe("Backlog");
  });

  it("changes the key: the team's issues take it, and their old identifiers still find them", async () => {
    const client = linearFor(await linearSandbox());
    const eng = await client.team("ENG");
    expect((await (await client.updateTeam(eng.id, { key: "PLT" })).team)?.key).toBe("PLT");
    expect((await client.issue("ENG-1")).identifier).toBe("PLT-1");
    expect((await client.issue("PLT-2")).title).toBeTruthy();
    const next = await (await client.createIssue({ teamId: eng.id, title: "After the rename" })).issue;
    expect(next?.identifier).toMatch(/^PLT-\d+$/);
  });

  it("refuses a key another team has, a default state of another team, and an unknown team", async () => {
    const client = linearFor(await linearSandbox());
    const ops = await (await client.createTeam({ name: "Operations", key: "OPS" })).team;
    const eng = await client.team("ENG");
    await expect(client.updateTeam(eng.id, { key: "ops" })).rejects.toThrow(/already taken/);
    const opsBacklog = (await (await client.team("OPS")).states()).nodes[0];
    await expect(client.updateTeam(eng.id, { defaultIssueStateId: opsBacklog.id })).rejects.toThrow(/state of the team/);
    await expect(client.updateTeam("00000000-0000-4000-8000-000000000000", { name: "X" })).rejects.toThrow(/Entity not found/);
    expect([ops?.key, (await client.team("ENG")).key]).toEqual(["OPS", "ENG"]);
  });
});

describe("linear twin: a created team is seed state", () => {
  it("exports a created team with its states and member, and the export boots to the same world", async () => {
    await inTwinWorld(linearTwin, acmeWorld(), (w) => {
      const res = w.call("POST", "/graphql", {
        body: { query: `mutation { teamCreate(input: { name: "Operations", key: "OPS" }) { team { key } } }` },
      });
      expect(res.body).toEqual({ data: { teamCreate: { team: { key: "OPS" } } } });
      const exported = w.exportState();
      const ops = exported.teams.find((t) => t.key === "OPS");
      expect(ops).toMatchObject({ name: "Operations", members: ["ada@acme.test"], defaultIssueState: "Backlog" });
      expect(ops?.states.map((s) => s.name)).toEqual(["Backlog", "Todo", "In Progress", "Done", "Canceled"]);
      const again = parseLinearSeed(exported);
      expect(again.ok).toBe(true);
    });
  });
});

describe("linear twin: team keys", () => {
  it("makes keys from names and says why a key is refused", () => {
    expect(keyFromName("Design Systems")).toBe("DS");
    expect(keyFromName("Operations")).toBe("OPE");
    expect(keyFromName("42")).toBe("");
    expect(keyProblem("OPS")).toBeNull();
    expect(keyProblem("O-P")).toMatch(/letters and digits/);
    expect(keyProblem("")).toMatch(/empty/);
  });
});
