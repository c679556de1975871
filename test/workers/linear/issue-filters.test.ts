// The rest of Linear's IssueFilter and IssueSortInput through @linear/sdk: relation filters
// (blocked, blocking, duplicate, related), reactions, snoozes, accent-blind text, and sorting by
// workflow state and assignee.
import { beforeAll, describe, expect, it } from "vitest";
import { acmeWorld, linearFor, linearSandbox, routeFetchThroughSelf } from "./fixtures";
import { PaginationOrderBy, PaginationSortOrder } from "@linear/sdk";

beforeAll(routeFetchThroughSelf);

/** ENG-1 blocks ENG-2, ENG-3 duplicates ENG-4, ENG-4 is related to ENG-5; ENG-6 stands alone. */
function relatedWorld() {
  const world = acmeWorld();
  world.users.push({ email: "cleo@acme.test", name: "Cléo Dupré" } as never);
  world.teams[0].members.push("cleo@acme.test");
  world.issues = [
    {
      identifier: "ENG-1",
      title: "Migrate the database",
      state: "In Progress",
      assignee: "bob@acme.test",
      relations: [{ type: "blocks", relatedIssue: "ENG-2" }],
    },
    { identifier: "ENG-2", title: "Ship the new schema", state: "Todo", assignee: "ada@acme.test" },
    { identifier: "ENG-3", title: "Crash on résumé upload", state: "Backlog", relations: [{ type: "duplicate", relatedIssue: "ENG-4" }] },
    {
      identifier: "ENG-4",
      title: "Upload crashes",
      state: "Done",
      assignee: "cleo@acme.test",
      relations: [{ type: "related", relatedIssue: "ENG-5" }],
    },
    { identifier: "ENG-5", title: "Upload is slow", state: "Canceled", assignee: "bob@acme.test" },
    { identifier: "ENG-6", title: "Café menu typo", state: "Todo", snoozedUntilAt: "2030-01-01T00:00:00.000Z", snoozedBy: "ada@acme.test" },
  ] as never;
  return world;
}

const identifiersOf = (nodes: { identifier: string }[]) => nodes.map((n) => n.identifier).sort();

describe("linear twin: relation filters", () => {
  it("finds blocked, blocking, duplicate and related issues, and those without", async () => {
    const client = linearFor(await linearSandbox(relatedWorld()));
    const ids = async (filter: Record<string, unknown>) => identifiersOf((await client.issues({ filter })).nodes);
    expect(await ids({ hasBlockedByRelations: { eq: true } })).toEqual(["ENG-2"]);
    expect(await ids({ hasBlockingRelations: { eq: true } })).toEqual(["ENG-1"]);
    expect(await ids({ hasDuplicateRelations: { eq: true } })).toEqual(["ENG-3", "ENG-4"]);
    expect(await ids({ hasRelatedRelations: { eq: true } })).toEqual(["ENG-4", "ENG-5"]);
    expect(await ids({ hasBlockedByRelations: { eq: false }, hasBlockingRelations: { neq: true } })).toEqual([
      "ENG-3",
      "ENG-4",
      "ENG-5",
      "ENG-6",
    ]);
  });

  it("follows a relation made through the API", async () => {
    const client = linearFor(await linearSandbox(relatedWorld()));
    const six = await client.issue("ENG-6");
    const five = await client.issue("ENG-5");
    await client.createIssueRelation({ issueId: six.id, relatedIssueId: five.id, type: "blocks" as never });
    expect(identifiersOf((await client.issues({ filter: { hasBlockedByRelations: { eq: true } } })).nodes)).toEqual(["ENG-2", "ENG-5"]);
  });
});

describe("linear twin: reactions, snoozes and the remaining comparators", () => {
  it("filters by reactions (some emoji, length) and by snoozedUntilAt/snoozedBy", async () => {
    const client = linearFor(await linearSandbox(relatedWorld()));
    const two = await client.issue("ENG-2");
    await client.createReaction({ issueId: two.id, emoji: "rocket" });
    const ids = async (filter: Record<string, unknown>) => identifiersOf((await client.issues({ filter })).nodes);
    expect(await ids({ reactions: { some: { emoji: { eq: "rocket" } } } })).toEqual(["ENG-2"]);
    expect(await ids({ reactions: { length: { gte: 1 } } })).toEqual(["ENG-2"]);
    expect(await ids({ reactions: { emoji: { eq: "tada" } } })).toEqual([]);
    expect(await ids({ snoozedUntilAt: { gt: "P1D" } })).toEqual(["ENG-6"]);
    expect(await ids({ snoozedUntilAt: { null: false } })).toEqual(["ENG-6"]);
    expect(await ids({ snoozedBy: { email: { eq: "ada@acme.test" } } })).toEqual(["ENG-6"]);
    expect((await ids({ snoozedUntilAt: { null: true } })).length).toBe(5);
  });

  it("snoozes an issue through issueUpdate and exports the snooze", async () => {
    const client = linearFor(await linearSandbox(relatedWorld()));
    const one = await client.issue("ENG-1");
    const until = new Date("2031-02-03T04:05:06.000Z");
    await client.updateIssue(one.id, { snoozedUntilAt: until });
    const after = await client.issue("ENG-1");
    expect(after.snoozedUntilAt?.toISOString()).toBe(until.toISOString());
    expect((await after.snoozedBy)?.email).toBe("ada@acme.test");
  });

  it("applies every string comparator, accent- and case-blind where asked", async () => {
    const client = linearFor(await linearSandbox(relatedWorld()));
    const ids = async (title: Record<string, unknown>) => identifiersOf((await client.issues({ filter: { title } })).nodes);
    expect(await ids({ containsIgnoreCaseAndAccent: "RESUME" })).toEqual(["ENG-3"]);
    expect(await ids({ containsIgnoreCaseAndAccent: "cafe" })).toEqual(["ENG-6"]);
    expect(await ids({ containsIgnoreCase: "UPLOAD" })).toEqual(["ENG-3", "ENG-4", "ENG-5"]);
    expect(await ids({ startsWith: "Upload", notEndsWith: "slow" })).toEqual(["ENG-4"]);
    expect(await ids({ endsWith: "crashes" })).toEqual(["ENG-4"]);
    expect(await ids({ startsWithIgnoreCase: "upload is" })).toEqual(["ENG-5"]);
    expect(await ids({ notStartsWith: "U", notContains: "the" })).toEqual(["ENG-3", "ENG-6"]);
    expect(await ids({ eqIgnoreCase: "upload crashes" })).toEqual(["ENG-4"]);
    expect(await ids({ in: ["Upload is slow", "Upload crashes"] })).toEqual(["ENG-4", "ENG-5"]);
    expect((await ids({ nin: ["Upload is slow"], neqIgnoreCase: "UPLOAD CRASHES" })).length).toBe(4);
    expect(
      identifiersOf((await client.issues({ filter: { searchableContent: { contains: "upload", notContains: "slow" } } })).nodes),
    ).toEqual(["ENG-3", "ENG-4"]);
    expect(identifiersOf((await client.issues({ filter: { number: { in: [1, 6] }, priority: { lte: 0 } } })).nodes)).toEqual([
      "ENG-1",
      "ENG-6",
    ]);
  });
});

describe("linear twin: sort by workflow state and assignee", () => {
  it("orders by state in the board's order (backlog, unstarted, started, completed, canceled) both ways", async () => {
    const client = linearFor(await linearSandbox(relatedWorld()));
    const asc = await client.issues({ sort: [{ workflowState: { order: PaginationSortOrder.Ascending } }] as never });
    const states = await Promise.all(asc.nodes.map(async (i) => (await i.state)?.name));
    expect(states).toEqual(["Backlog", "Todo", "Todo", "In Progress", "Done", "Canceled"]);
    const desc = await client.issues({ sort: [{ workflowState: { order: PaginationSortOrder.Descending } }] as never });
    expect(desc.nodes[0].identifier).toBe("ENG-5");
  });

  it("orders by assignee name with the unassigned last (or first), and pages through that order", async () => {
    const client = linearFor(await linearSandbox(relatedWorld()));
    const sorted = await client.issues({
      sort: [{ assignee: { order: PaginationSortOrder.Ascending } }, { title: { order: PaginationSortOrder.Ascending } }] as never,
    });
    expect(sorted.nodes.map((i) => i.identifier)).toEqual(["ENG-2", "ENG-1", "ENG-5", "ENG-4", "ENG-6", "ENG-3"]);
    const nullsFirst = await client.issues({ sort: [{ assignee: { order: PaginationSortOrder.Ascending, nulls: "first" } }] as never });
    expect(identifiersOf(nullsFirst.nodes.slice(0, 2))).toEqual(["ENG-3", "ENG-6"]);
    const page1 = await client.issues({
      first: 4,
      sort: [{ assignee: { order: PaginationSortOrder.Descending } }] as never,
      orderBy: PaginationOrderBy.CreatedAt,
    });
    const page2 = await page1.fetchNext();
    expect(page2.nodes.map((i) => i.identifier)).toHaveLength(6);
  });
});
