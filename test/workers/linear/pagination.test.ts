// Backward pagination (`last`/`before`) and Linear's `sort` argument, through @linear/sdk
// (`fetchPrevious`, `last`) and hand-written queries: the Relay algorithm over keyset cursors,
// sort keys with their order and null placement, and a 501 for what the twin does not order by.
import { PaginationSortOrder } from "@linear/sdk";
import { beforeAll, describe, expect, it } from "vitest";
import { acmeWorld, gql, linearFor, linearSandbox, routeFetchThroughSelf } from "./fixtures";

beforeAll(routeFetchThroughSelf);

/** ENG-1 … ENG-n created a minute apart, priorities cycling 0…4, every third without an estimate or due date. */
function world(n: number) {
  return {
    ...acmeWorld(),
    issues: Array.from({ length: n }, (_, i) => ({
      identifier: `ENG-${i + 1}`,
      title: `Issue ${String.fromCharCode(65 + ((i * 7) % 26))}${i + 1}`,
      priority: i % 5,
      estimate: i % 3 === 0 ? null : [1, 2, 3, 5, 8][i % 5],
      dueDate: i % 3 === 0 ? null : `2026-08-${String(10 + (i % 7)).padStart(2, "0")}`,
      createdAt: new Date(Date.UTC(2026, 6, 1, 0, i)).toISOString(),
    })),
  };
}

type Page = {
  nodes: { identifier: string; priority: number; estimate: number | null; dueDate: string | null; title: string }[];
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
};
const IDS = (p: Page) => p.nodes.map((n) => n.identifier);
const ISSUES = `query($first: Int, $after: String, $last: Int, $before: String, $sort: [IssueSortInput!]) {
  issues(first: $first, after: $after, last: $last, before: $before, sort: $sort) {
    nodes { identifier priority estimate dueDate title } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }`;

async function issues(sb: Awaited<ReturnType<typeof linearSandbox>>, variables: Record<string, unknown>): Promise<Page> {
  const res = await gql(sb, ISSUES, variables);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body.data as { issues: Page }).issues;
}

describe("linear twin: backward pagination", () => {
  it("serves the tail with `last`, and earlier pages with fetchPrevious, through @linear/sdk", async () => {
    const sb = await linearSandbox(world(7));
    const client = linearFor(sb);
    // Newest first: ENG-7 … ENG-1. The last two are the oldest.
    const tail = await client.issues({ last: 2 });
    expect(tail.nodes.map((i) => i.identifier)).toEqual(["ENG-2", "ENG-1"]);
    expect(tail.pageInfo.hasPreviousPage).toBe(true);
    expect(tail.pageInfo.hasNextPage).toBe(false);
    await tail.fetchPrevious();
    expect(tail.nodes.map((i) => i.identifier)).toEqual(["ENG-4", "ENG-3", "ENG-2", "ENG-1"]);
    await tail.fetchPrevious();
    await tail.fetchPrevious();
    expect(tail.nodes.map((i) => i.identifier)).toEqual(["ENG-7", "ENG-6", "ENG-5", "ENG-4", "ENG-3", "ENG-2", "ENG-1"]);
    expect(tail.pageInfo.hasPreviousPage).toBe(false);
  });

  it("walks back from a forward page's cursor with `before`, and forward and back meet (plain fetch)", async () => {
    const sb = await linearSandbox(world(7));
    const p1 = await issues(sb, { first: 3 });
    const p2 = await issues(sb, { first: 3, after: p1.pageInfo.endCursor });
    expect(IDS(p2)).toEqual(["ENG-4", "ENG-3", "ENG-2"]);
    const back = await issues(sb, { last: 3, before: p2.pageInfo.startCursor });
    expect(IDS(back)).toEqual(IDS(p1));
    expect(back.pageInfo).toMatchObject({ hasPreviousPage: false, hasNextPage: true });
    const partial = await issues(sb, { last: 2, before: p2.pageInfo.startCursor });
    expect(IDS(partial)).toEqual(["ENG-6", "ENG-5"]);
    expect(partial.pageInfo.hasPreviousPage).toBe(true);
    // `before` alone takes Linear's default of 50 from the tail of what precedes it.
    expect(IDS(await issues(sb, { before: p2.pageInfo.endCursor }))).toEqual(["ENG-7", "ENG-6", "ENG-5", "ENG-4", "ENG-3"]);
    // Both cursors: the slice between them.
    expect(IDS(await issues(sb, { after: p1.pageInfo.startCursor, before: p2.pageInfo.endCursor }))).toEqual([
      "ENG-6",
      "ENG-5",
      "ENG-4",
      "ENG-3",
    ]);
    // `first` and `last` together: the tail of the head, as Relay defines it.
    expect(IDS(await issues(sb, { first: 4, last: 2 }))).toEqual(["ENG-5", "ENG-4"]);
  });

  it("refuses `last` above 250 and a cursor of another list", async () => {
    const sb = await linearSandbox(world(3));
    const tooMany = await gql(sb, "{ issues(last: 251) { nodes { id } } }");
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.errors?.[0]?.extensions.type).toBe("invalid input");
    const teams = await gql(sb, "{ teams { pageInfo { endCursor } } }");
    const cursor = (teams.body.data as { teams: { pageInfo: { endCursor: string } } }).teams.pageInfo.endCursor;
    const foreign = await gql(sb, "query($c: String) { issues(before: $c) { nodes { id } } }", { c: cursor });
    expect(foreign.status).toBe(400);
    expect(foreign.body.errors?.[0]?.message).toBe("Invalid cursor");
  });
});

describe("linear twin: the sort argument", () => {
  it("orders issues by priority, Urgent first and No priority last unless noPriorityFirst, through @linear/sdk", async () => {
    const sb = await linearSandbox(world(10));
    const client = linearFor(sb);
    const byPriority = await client.issues({ sort: [{ priority: { order: PaginationSortOrder.Ascending } }] });
    expect(byPriority.nodes.map((i) => i.priority)).toEqual([1, 1, 2, 2, 3, 3, 4, 4, 0, 0]);
    const first = await gql(sb, "{ issues(sort: [{ priority: { order: Ascending, noPriorityFirst: true } }]) { nodes { priority } } }");
    expect((first.body.data as { issues: { nodes: { priority: number }[] } }).issues.nodes.map((n) => n.priority)).toEqual([
      0, 0, 1, 1, 2, 2, 3, 3, 4, 4,
    ]);
  });

  it("places nulls last by default and first when asked, with several keys in order", async () => {
    const sb = await linearSandbox(world(9));
    const asc = await issues(sb, { sort: [{ estimate: { order: "Ascending" } }] });
    expect(asc.nodes.map((n) => n.estimate)).toEqual([1, 2, 3, 3, 5, 8, null, null, null]);
    const nullsFirst = await issues(sb, { sort: [{ estimate: { order: "Descending", nulls: "first" } }] });
    expect(nullsFirst.nodes.map((n) => n.estimate)).toEqual([null, null, null, 8, 5, 3, 3, 2, 1]);
    const two = await issues(sb, { sort: [{ dueDate: { order: "Descending" } }, { title: { order: "Ascending" } }] });
    const due = two.nodes.map((n) => n.dueDate);
    expect(due).toEqual([
      ...due
        .filter((d) => d !== null)
        .sort()
        .reverse(),
      null,
      null,
      null,
    ]);
    const undated = two.nodes.filter((n) => n.dueDate === null).map((n) => n.title);
    expect(undated).toEqual([...undated].sort());
  });

  it("pages a sorted list forward and back without gaps or repeats, nulls included", async () => {
    const sb = await linearSandbox(world(11));
    const sort = [{ estimate: { order: "Descending" } }];
    const all = IDS(await issues(sb, { sort }));
    const seen: string[] = [];
    let page = await issues(sb, { sort, first: 3 });
    seen.push(...IDS(page));
    while (page.pageInfo.hasNextPage) {
      page = await issues(sb, { sort, first: 3, after: page.pageInfo.endCursor });
      seen.push(...IDS(page));
    }
    expect(seen).toEqual(all);
    const back: string[] = [];
    let tail = await issues(sb, { sort, last: 4 });
    back.unshift(...IDS(tail));
    while (tail.pageInfo.hasPreviousPage) {
      tail = await issues(sb, { sort, last: 4, before: tail.pageInfo.startCursor });
      back.unshift(...IDS(tail));
    }
    expect(back).toEqual(all);
    // A cursor of one ordering is refused by another, orderBy's included.
    const byUpdate = await gql(sb, "{ issues(orderBy: updatedAt, first: 1) { pageInfo { endCursor } } }");
    const updateCursor = (byUpdate.body.data as { issues: Page }).issues.pageInfo.endCursor;
    expect((await gql(sb, ISSUES, { after: updateCursor })).status).toBe(400);
    const other = await gql(sb, ISSUES, { sort: [{ title: { order: "Ascending" } }], after: page.pageInfo.startCursor });
    expect(other.status).toBe(400);
  });

  it("sorts users by name, a team's members by display name, and projects by name", async () => {
    const sb = await linearSandbox();
    const users = await gql(sb, "{ users(sort: [{ name: { order: Descending } }]) { nodes { name } } }");
    expect(users.body.data).toEqual({ users: { nodes: [{ name: "Bob Stone" }, { name: "Ada Lovelace" }] } });
    const members = await gql(sb, '{ team(id: "ENG") { members(sort: [{ displayName: { order: Descending } }]) { nodes { email } } } }');
    expect(members.body.data).toEqual({ team: { members: { nodes: [{ email: "bob@acme.test" }, { email: "ada@acme.test" }] } } });
    const projects = await gql(sb, "{ projects(sort: [{ name: { order: Ascending } }]) { nodes { name } } }");
    expect(projects.body.data).toEqual({ projects: { nodes: [{ name: "Checkout revamp" }] } });
  });

  it("answers 501 for a sort key or option it does not order by, and for a key without order", async () => {
    const sb = await linearSandbox(world(3));
    for (const q of [
      "{ issues(sort: [{ label: { order: Ascending } }]) { nodes { id } } }",
      "{ issues(sort: [{ workflowState: { order: Ascending, closedIssuesOrderedByRecency: true } }]) { nodes { id } } }",
      "{ issues(sort: [{ priority: {} }]) { nodes { id } } }",
      "{ projects(sort: [{ health: { order: Ascending } }]) { nodes { id } } }",
    ]) {
      const res = await gql(sb, q);
      expect(res.status, q).toBe(501);
      expect(res.body.errors?.[0]?.message, q).toMatch(/does not implement/);
    }
  });
});

describe("linear twin: includeArchived", () => {
  it("counts a team's archived issues only with includeArchived, in lists and in issueCount", async () => {
    const sb = await linearSandbox(world(3));
    const client = linearFor(sb);
    await client.archiveIssue((await client.issue("ENG-2")).id);
    const q =
      '{ team(id: "ENG") { issueCount all: issueCount(includeArchived: true) } issues { nodes { identifier } } archived: issues(includeArchived: true) { nodes { identifier } } }';
    const res = await gql(sb, q);
    expect(res.body.data).toEqual({
      team: { issueCount: 2, all: 3 },
      issues: { nodes: [{ identifier: "ENG-3" }, { identifier: "ENG-1" }] },
      archived: { nodes: [{ identifier: "ENG-3" }, { identifier: "ENG-2" }, { identifier: "ENG-1" }] },
    });
  });
});
