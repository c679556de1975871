// Point reads and writes on a world of 10,000 issues cost what they cost on 10 (rows SQLite
// reads, deterministic), and a page of a list stays within twice the small world's cost.
import { describe, expect, it } from "vitest";
import { linearTwin } from "../../../durable-objects/twins/linear";
import { generateLinearSeed } from "../../../durable-objects/twins/linear/seed";
import { inTwinWorld } from "../kit/world";

const POINT: string[] = [
  '{ issue(id: "ENG-5") { id identifier title state { name } assignee { email } labels { nodes { name } } } }',
  'mutation { issueUpdate(id: "ENG-5", input: { title: "Renamed", priority: 2 }) { success issue { identifier } } }',
  'mutation { commentCreate(input: { issueId: "ENG-5", body: "On it" }) { success comment { id } } }',
  "{ viewer { id email } }",
];
const PAGE = "{ issues(first: 10) { nodes { id identifier state { name } assignee { email } } pageInfo { hasNextPage endCursor } } }";
/** The same page read from the tail (`last`), which walks the index backwards. */
const PAGE_BACK = "{ issues(last: 10) { nodes { id identifier state { name } } pageInfo { hasPreviousPage startCursor } } }";

async function costs(n: number) {
  return inTwinWorld(linearTwin, generateLinearSeed(n), (w) => {
    const team = w.exportState().teams[0].id;
    const create = `mutation { issueCreate(input: { teamId: "${team}", title: "Fresh" }) { success issue { identifier } } }`;
    const run = (query: string) => w.cost("POST", "/graphql", { body: { query } });
    return { point: [...POINT, create].map(run), page: run(PAGE), back: run(PAGE_BACK) };
  });
}

describe("linear twin: constant-time point calls", () => {
  it("reads as many rows on 10,000 issues as on 10 for point reads and writes; a page within 2x", async () => {
    const small = await costs(10);
    const large = await costs(10_000);
    expect(small.point.every((n) => n > 0)).toBe(true);
    expect(large.point).toEqual(small.point);
    expect(large.page).toBeLessThanOrEqual(small.page * 2);
    expect(large.back).toBeLessThanOrEqual(small.back * 2);
  });

  it("reads a page with its relations in a fixed number of queries, not one per node (no N+1)", async () => {
    const query =
      "{ issues(first: 50) { nodes { id identifier url branchName labelIds reactions { id } state { name } team { key } assignee { email } creator { email } } } comments(first: 50) { nodes { id body user { email } reactions { id } } } }";
    const count = (n: number) =>
      inTwinWorld(linearTwin, generateLinearSeed(n), (w) => {
        let statements = 0;
        const all = w.db.all.bind(w.db);
        w.db.all = <T>(sql: string, ...params: Parameters<typeof all>[1][]) => {
          statements++;
          return all<T>(sql, ...params);
        };
        const res = w.call("POST", "/graphql", { body: { query } });
        expect((res.body as { errors?: unknown }).errors).toBeUndefined();
        return statements;
      });
    expect(await count(50)).toBe(await count(5));
  });
});
