// Hostile input to the Linear twin through @linear/sdk (and plain GraphQL where the body matters):
// LIKE wildcards and long values in text filters, filters past the twin's bounds, huge ids and
// numbers. Each answers Linear's error shape quickly, shows no SQL, and changes nothing.
import { InvalidInputLinearError, type LinearClient } from "@linear/sdk";
import { beforeAll, describe, expect, it } from "vitest";
import { FILTER_LIMITS } from "../../../durable-objects/twins/linear/filters";
import { MAX_SORT_KEYS } from "../../../durable-objects/twins/linear/sort";
import { type CreatedSandbox, twinFetch } from "../helpers";
import { acmeWorld, gql, linearFor, linearSandbox, routeFetchThroughSelf } from "./fixtures";

beforeAll(routeFetchThroughSelf);

/** A world whose titles hold the characters LIKE treats as wildcards. */
const wildcardWorld = () =>
  acmeWorld({
    issues: [
      { identifier: "ENG-1", title: "100% of checkouts fail", description: "Rate: 100%", createdAt: "2026-07-01T10:00:00Z" },
      { identifier: "ENG-2", title: "snake_case keys in export", description: "the_key", createdAt: "2026-07-02T10:00:00Z" },
      { identifier: "ENG-3", title: "Plain title", description: "nothing odd", createdAt: "2026-07-03T10:00:00Z" },
      { identifier: "ENG-4", title: "1000 of checkouts fail", description: "x", createdAt: "2026-07-04T10:00:00Z" },
    ],
  });

const titlesWhere = async (client: LinearClient, filter: Record<string, unknown>) =>
  (await client.issues({ filter })).nodes.map((i) => i.identifier).sort();

const state = async (sb: CreatedSandbox) => (await twinFetch(sb, "/_pome/state", {}, "linear")).json();

/** Linear's refusal, timed, with nothing of the twin's SQL in it. */
async function refusal(sb: CreatedSandbox, query: string, variables: Record<string, unknown> = {}) {
  const started = Date.now();
  const res = await gql(sb, query, variables);
  const ms = Date.now() - started;
  const text = JSON.stringify(res.body);
  expect(text).not.toMatch(/SELECT|SQLITE|lin_issues|call stack/i);
  return { ...res, ms };
}

const ISSUES = "query($f: IssueFilter) { issues(filter: $f) { nodes { identifier } } }";

describe("`%` and `_` in a text filter match only themselves", () => {
  it("matches literal wildcards in every text comparator, through the SDK", async () => {
    const client = linearFor(await linearSandbox(wildcardWorld()));
    expect(await titlesWhere(client, { title: { contains: "%" } })).toEqual(["ENG-1"]);
    expect(await titlesWhere(client, { title: { contains: "_" } })).toEqual(["ENG-2"]);
    expect(await titlesWhere(client, { title: { containsIgnoreCase: "100%" } })).toEqual(["ENG-1"]);
    expect(await titlesWhere(client, { title: { notContains: "%" } })).toEqual(["ENG-2", "ENG-3", "ENG-4"]);
    expect(await titlesWhere(client, { title: { startsWith: "100%" } })).toEqual(["ENG-1"]);
    expect(await titlesWhere(client, { title: { startsWith: "%" } })).toEqual([]);
    expect(await titlesWhere(client, { title: { startsWithIgnoreCase: "SNAKE_" } })).toEqual(["ENG-2"]);
    expect(await titlesWhere(client, { title: { startsWithIgnoreCase: "_" } })).toEqual([]);
    expect(await titlesWhere(client, { title: { startsWithIgnoreCase: "10_0" } })).toEqual([]);
    expect(await titlesWhere(client, { title: { endsWith: "_" } })).toEqual([]);
    expect(await titlesWhere(client, { title: { endsWith: "" } })).toEqual(["ENG-1", "ENG-2", "ENG-3", "ENG-4"]);
    expect(await titlesWhere(client, { title: { notStartsWith: "%" } })).toEqual(["ENG-1", "ENG-2", "ENG-3", "ENG-4"]);
    expect(await titlesWhere(client, { searchableContent: { contains: "%" } })).toEqual(["ENG-1"]);
    expect(await titlesWhere(client, { searchableContent: { contains: "THE_KEY" } })).toEqual(["ENG-2"]);
    expect(await titlesWhere(client, { description: { contains: "_" } })).toEqual(["ENG-2"]);
  });
});

describe("a long text value is compared, not refused", () => {
  it("answers 60- and 10,000-character values in every text comparator with an empty list, quickly", async () => {
    const sb = await linearSandbox(wildcardWorld());
    for (const value of ["x".repeat(60), `${"%".repeat(5_000)}${"_".repeat(5_000)}`]) {
      for (const op of ["contains", "containsIgnoreCase", "startsWith", "startsWithIgnoreCase", "endsWith", "eq", "eqIgnoreCase"]) {
        const started = Date.now();
        const res = await gql(sb, ISSUES, { f: { title: { [op]: value } } });
        expect(res.status).toBe(200);
        expect(res.body.data).toEqual({ issues: { nodes: [] } });
        expect(Date.now() - started).toBeLessThan(1000);
      }
      const content = await gql(sb, ISSUES, { f: { searchableContent: { contains: value } } });
      expect(content.body.data).toEqual({ issues: { nodes: [] } });
    }
  });
});

describe("a filter or sort past the twin's bounds is refused in Linear's shape, with no SQL", () => {
  it("refuses deep nesting, too many objects and too many values with INPUT_ERROR", async () => {
    const sb = await linearSandbox(wildcardWorld());
    const before = await state(sb);
    const nestedAnd = (n: number): Record<string, unknown> => (n === 0 ? { title: { eq: "x" } } : { and: [nestedAnd(n - 1)] });
    const nestedParent = (n: number): Record<string, unknown> => (n === 0 ? { title: { eq: "x" } } : { parent: nestedParent(n - 1) });
    const filters = [
      nestedAnd(100),
      nestedParent(300),
      { or: Array.from({ length: FILTER_LIMITS.objects }, (_, i) => ({ number: { eq: i } })) },
      { title: { in: Array.from({ length: 40_000 }, (_, i) => `t${i}`) } },
      // Each comparator binds a value; more than SQLite takes in one statement is refused up front.
      { or: Array.from({ length: FILTER_LIMITS.params + 1 }, (_, i) => ({ number: { eq: i } })) },
    ];
    for (const f of filters) {
      const res = await refusal(sb, ISSUES, { f });
      expect(res.status).toBe(400);
      expect(res.body.errors?.[0]?.extensions).toMatchObject({ type: "invalid input", code: "INPUT_ERROR", userError: true });
      expect(res.body.errors?.[0]?.message).toMatch(/^Filter too complex/);
      expect(res.ms).toBeLessThan(1000);
    }
    expect(await state(sb)).toEqual(before);
  });

  it("reads a filter at the bounds' edge", async () => {
    const client = linearFor(await linearSandbox(wildcardWorld()));
    const nested = (n: number): Record<string, unknown> => (n === 0 ? { title: { contains: "%" } } : { and: [nested(n - 1)] });
    // Each `and` element is one object level, and the comparator below the field another.
    expect(await titlesWhere(client, nested(FILTER_LIMITS.depth - 2))).toEqual(["ENG-1"]);
    const numbers = Array.from({ length: FILTER_LIMITS.values - 1 }, (_, i) => i);
    expect(await titlesWhere(client, { number: { in: numbers } })).toHaveLength(4);
    expect(await titlesWhere(client, { number: { nin: numbers } })).toEqual([]);
    expect(await titlesWhere(client, { number: { nin: [] } })).toHaveLength(4);
    expect(await titlesWhere(client, { or: Array.from({ length: FILTER_LIMITS.params }, (_, i) => ({ number: { eq: i } })) })).toHaveLength(
      4,
    );
    // A list of dates is one value too.
    const dates = Array.from({ length: 200 }, (_, i) => new Date(Date.UTC(2026, 6, 1, 10) + i * 86_400_000).toISOString());
    expect(await titlesWhere(client, { createdAt: { in: dates } })).toEqual(["ENG-1", "ENG-2", "ENG-3", "ENG-4"]);
  });

  it("refuses a sort with more keys than any ordering needs", async () => {
    const sb = await linearSandbox(wildcardWorld());
    const sort = Array.from({ length: MAX_SORT_KEYS + 1 }, () => ({ createdAt: { order: "Ascending" } }));
    const res = await refusal(sb, "query($s: [IssueSortInput!]) { issues(sort: $s) { nodes { identifier } } }", { s: sort });
    expect(res.status).toBe(400);
    expect(res.body.errors?.[0]?.extensions).toMatchObject({ code: "INPUT_ERROR" });
  });
});

describe("input nested past every bound is refused without the twin's own error text", () => {
  it("answers a filter variable nested 3,000 levels deep with Linear's 400, naming no internal failure", async () => {
    const sb = await linearSandbox(wildcardWorld());
    const before = await state(sb);
    let f: Record<string, unknown> = { title: { eq: "x" } };
    for (let i = 0; i < 3_000; i++) f = { and: [f] };
    const res = await refusal(sb, ISSUES, { f });
    expect(res.status).toBe(400);
    expect(res.ms).toBeLessThan(1000);
    expect(await state(sb)).toEqual(before);
  });
});

describe("huge ids and numbers answer as Linear does", () => {
  it("answers 60- and 10,000-character ids with Linear's Entity not found, quickly, and changes nothing", async () => {
    const sb = await linearSandbox();
    const client = linearFor(sb);
    const before = await state(sb);
    for (const id of ["a".repeat(60), "9".repeat(10_000), "%_".repeat(30)]) {
      for (const call of [
        () => client.issue(id),
        () => client.team(id),
        () => client.user(id),
        () => client.project(id),
        () => client.workflowState(id),
        () => client.issueLabel(id),
        () => client.cycle(id),
        () => client.comment({ id }),
        () => client.attachment(id),
        () => client.updateIssue(id, { title: "taken over" }),
        () => client.deleteIssue(id),
        () => client.createComment({ issueId: id, body: "x" }),
        () => client.createIssue({ teamId: id, title: "x" }),
      ]) {
        const started = Date.now();
        const err = await call().catch((e: unknown) => e);
        expect(err).toBeInstanceOf(InvalidInputLinearError);
        expect((err as Error).message).toMatch(/Entity not found|Could not find/);
        expect(Date.now() - started).toBeLessThan(1000);
      }
    }
    expect(await state(sb)).toEqual(before);
  });

  it("refuses a page size past Int and past 250 with GraphQL's and Linear's 400", async () => {
    const sb = await linearSandbox();
    // GraphQL's Int is 32-bit: the value never reaches a resolver (GraphQL's validation, or the
    // complexity limit that reads `first` before it, answers).
    const overInt = await refusal(sb, "{ issues(first: 2147483648) { nodes { id } } }");
    expect(overInt.status).toBe(400);
    expect(overInt.body.errors?.length).toBeGreaterThan(0);
    const overPage = await refusal(sb, "{ issues(first: 251) { nodes { id } } }");
    expect(overPage.status).toBe(400);
    expect(overPage.body.errors?.[0]?.extensions).toMatchObject({ code: "INPUT_ERROR" });
    const hugeCursor = await refusal(sb, "query($a: String) { issues(after: $a) { nodes { id } } }", { a: "z".repeat(10_000) });
    expect(hugeCursor.status).toBe(400);
  });
});
