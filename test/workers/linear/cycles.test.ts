// Cycles through @linear/sdk: the active, next and previous cycle of a team, the cycle filters
// a sprint agent starts with (on cycles and on issues), cycleUpdate and cycleArchive, and the
// cycles in the world export.
import { beforeAll, describe, expect, it } from "vitest";
import { acmeWorld, linearFor, linearSandbox, routeFetchThroughSelf } from "./fixtures";
import { twinFetch } from "../helpers";

beforeAll(routeFetchThroughSelf);

const DAY = 86_400_000;
const at = (days: number) => new Date(Date.now() + days * DAY).toISOString();
/** The SDK's inputs take DateTime as a Date (sent as its ISO text). */
const when = (days: number) => new Date(Date.now() + days * DAY);

/** ENG with four two-week cycles around now: 1 past, 2 active, 3 next, 4 later; issues in 1, 2 and 3. */
function sprintWorld() {
  const world = acmeWorld();
  world.teams[0].cycles = [
    { number: 1, name: "Sprint 1", startsAt: at(-21), endsAt: at(-7) },
    { number: 2, name: "Sprint 2", startsAt: at(-7), endsAt: at(7) },
    { number: 3, name: "Sprint 3", startsAt: at(7), endsAt: at(21) },
    { number: 4, name: "Sprint 4", startsAt: at(21), endsAt: at(35) },
  ] as never;
  world.issues = [
    { identifier: "ENG-1", title: "Left over from sprint 1", cycle: 1, state: "Done" },
    { identifier: "ENG-2", title: "Ship the checkout", cycle: 2, state: "In Progress", estimate: 3 },
    { identifier: "ENG-3", title: "Fix the refund", cycle: 2, state: "Done", estimate: 1 },
    { identifier: "ENG-4", title: "Plan sprint 3", cycle: 3 },
    { identifier: "ENG-5", title: "No cycle at all" },
  ] as never;
  return world;
}

describe("linear twin: a team's active, next and previous cycles", () => {
  it("answers Team.activeCycle and each cycle's isActive/isNext/isPrevious/isPast/isFuture", async () => {
    const client = linearFor(await linearSandbox(sprintWorld()));
    const team = await client.team("ENG");
    const active = await team.activeCycle;
    expect(active?.number).toBe(2);
    expect(active?.isActive).toBe(true);
    const cycles = (await team.cycles()).nodes;
    const flags = cycles.map((c) => [c.number, c.isPast, c.isPrevious, c.isActive, c.isNext, c.isFuture]);
    expect(flags).toEqual([
      [1, true, true, false, false, false],
      [2, false, false, true, false, false],
      [3, false, false, false, true, true],
      [4, false, false, false, false, true],
    ]);
    // Progress by estimate: 1 of 4 points done.
    expect(active?.progress).toBeCloseTo(0.25);
  });
});

describe("linear twin: cycle filters", () => {
  it("filters cycles by isActive, isNext, isPrevious, isFuture, isPast and number/date comparators", async () => {
    const client = linearFor(await linearSandbox(sprintWorld()));
    const numbers = async (filter: Record<string, unknown>) =>
      (await client.cycles({ filter })).nodes.map((c) => c.number).sort((a, b) => a - b);
    expect(await numbers({ isActive: { eq: true } })).toEqual([2]);
    expect(await numbers({ isNext: { eq: true } })).toEqual([3]);
    expect(await numbers({ isPrevious: { eq: true } })).toEqual([1]);
    expect(await numbers({ isFuture: { eq: true } })).toEqual([3, 4]);
    expect(await numbers({ isPast: { eq: true } })).toEqual([1]);
    expect(await numbers({ isActive: { neq: true } })).toEqual([1, 3, 4]);
    expect(await numbers({ number: { gte: 2, lt: 4 } })).toEqual([2, 3]);
    expect(await numbers({ startsAt: { gt: "P1D" } })).toEqual([3, 4]);
    expect(await numbers({ team: { key: { eq: "ENG" } }, endsAt: { lte: at(8) } })).toEqual([1, 2]);
    expect(await numbers({ isInCooldown: { eq: true } })).toEqual([]);
  });

  it("filters issues by the cycle they are in: the current sprint, the next, none", async () => {
    const client = linearFor(await linearSandbox(sprintWorld()));
    const ids = async (filter: Record<string, unknown>) => (await client.issues({ filter })).nodes.map((i) => i.identifier).sort();
    expect(await ids({ cycle: { isActive: { eq: true } } })).toEqual(["ENG-2", "ENG-3"]);
    expect(await ids({ cycle: { isActive: { eq: true } }, state: { type: { neq: "completed" } } })).toEqual(["ENG-2"]);
    expect(await ids({ cycle: { isNext: { eq: true } } })).toEqual(["ENG-4"]);
    expect(await ids({ cycle: { isPrevious: { eq: true } } })).toEqual(["ENG-1"]);
    expect(await ids({ cycle: { null: true } })).toEqual(["ENG-5"]);
    expect(await ids({ cycle: { number: { in: [1, 3] } } })).toEqual(["ENG-1", "ENG-4"]);
    const team = await client.team("ENG");
    const active = await team.activeCycle;
    expect((await active?.issues())?.nodes.map((i) => i.identifier).sort()).toEqual(["ENG-2", "ENG-3"]);
  });
});

describe("linear twin: cycleCreate, cycleUpdate and cycleArchive", () => {
  it("updates a cycle's name, description and dates, refusing overlaps and inverted dates", async () => {
    const sb = await linearSandbox(sprintWorld());
    const client = linearFor(sb);
    const cycle4 = (await client.cycles({ filter: { number: { eq: 4 } } })).nodes[0];
    const endsAt = when(42);
    const payload = await client.updateCycle(cycle4.id, { name: "Hardening", description: "Bugs only", endsAt });
    expect(payload.success).toBe(true);
    const updated = await payload.cycle;
    expect(updated?.name).toBe("Hardening");
    expect(updated?.description).toBe("Bugs only");
    expect(updated?.endsAt.toISOString()).toBe(endsAt.toISOString());
    await expect(client.updateCycle(cycle4.id, { startsAt: when(14) })).rejects.toThrow(/overlaps/);
    await expect(client.updateCycle(cycle4.id, { endsAt: when(20) })).rejects.toThrow(/end after it starts/);
    const created = await client.createCycle({
      teamId: (await client.team("ENG")).id,
      startsAt: when(42),
      endsAt: when(56),
      description: "Next quarter",
    });
    expect((await created.cycle)?.number).toBe(5);
  });

  it("archives a cycle: lists leave it out unless includeArchived, and it is no longer next", async () => {
    const sb = await linearSandbox(sprintWorld());
    const client = linearFor(sb);
    const cycle3 = (await client.cycles({ filter: { number: { eq: 3 } } })).nodes[0];
    const archived = await client.archiveCycle(cycle3.id);
    expect(archived.success).toBe(true);
    expect((await archived.entity)?.archivedAt).toBeInstanceOf(Date);
    expect((await client.cycles()).nodes.map((c) => c.number).sort()).toEqual([1, 2, 4]);
    expect((await client.cycles({ includeArchived: true })).nodes).toHaveLength(4);
    expect((await client.cycles({ filter: { isNext: { eq: true } } })).nodes.map((c) => c.number)).toEqual([4]);
  });

  it("exports cycles with their description, completion and archive times, and boots the export back", async () => {
    const sb = await linearSandbox(sprintWorld());
    const client = linearFor(sb);
    const cycle1 = (await client.cycles({ filter: { number: { eq: 1 } } })).nodes[0];
    await client.updateCycle(cycle1.id, { description: "Done and dusted", completedAt: when(-7) });
    await client.archiveCycle(cycle1.id);
    const state = (await (await twinFetch(sb, "/_pome/state", {}, "linear")).json()) as {
      teams: { cycles: { number: number; description?: string; completedAt?: string; archivedAt?: string }[] }[];
    };
    const exported = state.teams[0].cycles.find((c) => c.number === 1);
    expect(exported).toMatchObject({ description: "Done and dusted", completedAt: expect.any(String), archivedAt: expect.any(String) });
    expect(state.teams[0].cycles.find((c) => c.number === 2)).not.toHaveProperty("archivedAt");
    const again = await linearSandbox(state);
    const reborn = await (await twinFetch(again, "/_pome/state", {}, "linear")).json();
    expect(reborn).toEqual(state);
  });
});
