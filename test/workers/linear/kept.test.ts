// What the Linear twin keeps between calls must never be stale: the world's constants (viewer,
// workspace, seeded faults) are kept per sandbox from its first call on, parsed documents per query
// text, and an issue read brings its state, team and people with it. Each test changes the world
// and looks at the very next call.
import { SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import type { CreatedSandbox } from "../helpers";
import { acmeWorld, gql, linearSandbox, routeFetchThroughSelf } from "./fixtures";

beforeAll(routeFetchThroughSelf);

const ISSUE =
  "query issue($id: String!) { issue(id: $id) { id identifier title state { name } assignee { email } creator { email } team { key } labels { nodes { name } } } }";

/** A GraphQL call naming its operation (the fixture's gql sends none). */
async function named(sb: CreatedSandbox, query: string, operationName?: string) {
  const res = await SELF.fetch(`${sb.per_twin.linear.api_url}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: sb.provider_credentials.linear.token },
    body: JSON.stringify({ query, operationName }),
  });
  return { status: res.status, body: (await res.json()) as unknown };
}

describe("linear twin: what it keeps between calls", () => {
  it("keeps each sandbox's own viewer, workspace and faults, seen from its first call", async () => {
    const a = await linearSandbox(acmeWorld({ faults: [{ operation: "issue", error: "internal", times: 1 }] }));
    const b = await linearSandbox(acmeWorld({ viewer: "bob@acme.test", organization: { name: "Globex", urlKey: "globex" } }));
    // The fault answers a's very first call, before anything of a's was ever read.
    const faulted = await gql(a, ISSUE, { id: "ENG-1" });
    expect(faulted.status).toBe(500);
    const url = "query issue($id: String!) { issue(id: $id) { url } viewer { email } }";
    const fromB = await gql(b, url, { id: "ENG-1" });
    expect(fromB.status).toBe(200);
    expect(fromB.body.data).toEqual({
      issue: { url: "https://linear.app/globex/issue/ENG-1/checkout-fails-with-500" },
      viewer: { email: "bob@acme.test" },
    });
    const fromA = await gql(a, url, { id: "ENG-1" });
    expect(fromA.body.data).toEqual({
      issue: { url: "https://linear.app/acme/issue/ENG-1/checkout-fails-with-500" },
      viewer: { email: "ada@acme.test" },
    });
    // b has no faults: its first `issue` call was served; a's fault was used up once.
    expect((await gql(a, ISSUE, { id: "ENG-1" })).status).toBe(200);
    expect((await gql(b, ISSUE, { id: "ENG-1" })).status).toBe(200);
  });

  it("shows a mutation's changes to the issue, its state, assignee and labels on the very next read", async () => {
    const sb = await linearSandbox();
    const before = await gql(sb, ISSUE, { id: "ENG-1" });
    expect(before.body.data?.issue).toMatchObject({
      identifier: "ENG-1",
      state: { name: "Todo" },
      assignee: { email: "bob@acme.test" },
      creator: { email: "ada@acme.test" },
      team: { key: "ENG" },
      labels: { nodes: [{ name: "Bug" }] },
    });
    const team = await gql(
      sb,
      "{ teams { nodes { states { nodes { id name } } labels { nodes { id name } } members { nodes { id email } } } } }",
    );
    const t = (
      team.body.data as {
        teams: {
          nodes: {
            states: { nodes: { id: string; name: string }[] };
            labels: { nodes: { id: string; name: string }[] };
            members: { nodes: { id: string; email: string }[] };
          }[];
        };
      }
    ).teams.nodes[0];
    const done = t?.states.nodes.find((s) => s.name === "Done")?.id;
    const feature = t?.labels.nodes.find((l) => l.name === "Feature")?.id;
    const bug = t?.labels.nodes.find((l) => l.name === "Bug")?.id;
    const ada = t?.members.nodes.find((m) => m.email === "ada@acme.test")?.id;
    expect([done, feature, bug, ada].every((x) => typeof x === "string")).toBe(true);

    const updated = await gql(
      sb,
      "mutation u($id: String!, $input: IssueUpdateInput!) { issueUpdate(id: $id, input: $input) { success } }",
      { id: "ENG-1", input: { stateId: done, assigneeId: ada, title: "Checkout fails on expired cards" } },
    );
    expect(updated.body.data).toEqual({ issueUpdate: { success: true } });
    expect((await gql(sb, ISSUE, { id: "ENG-1" })).body.data?.issue).toMatchObject({
      title: "Checkout fails on expired cards",
      state: { name: "Done" },
      assignee: { email: "ada@acme.test" },
      labels: { nodes: [{ name: "Bug" }] },
    });

    await gql(sb, "mutation a($id: String!, $l: String!) { issueAddLabel(id: $id, labelId: $l) { success } }", { id: "ENG-1", l: feature });
    expect((await gql(sb, ISSUE, { id: "ENG-1" })).body.data?.issue).toMatchObject({
      labels: { nodes: [{ name: "Bug" }, { name: "Feature" }] },
    });

    await gql(sb, "mutation r($id: String!, $input: IssueLabelUpdateInput!) { issueLabelUpdate(id: $id, input: $input) { success } }", {
      id: bug,
      input: { name: "Defect" },
    });
    expect((await gql(sb, ISSUE, { id: "ENG-1" })).body.data?.issue).toMatchObject({
      labels: { nodes: [{ name: "Defect" }, { name: "Feature" }] },
    });
  });

  it("answers a kept document exactly as the first time: the same validation errors, each operation by its name", async () => {
    const sb = await linearSandbox();
    const invalid = "query broken { issue(id: 1) { nope } }";
    const first = await gql(sb, invalid);
    const again = await gql(sb, invalid);
    expect(first.status).toBe(400);
    expect(first.body.errors?.length).toBeGreaterThan(0);
    expect(again).toEqual(first);

    const two = "query one { viewer { email } } query two { teams { nodes { key } } }";
    const send = (operationName?: string) => named(sb, two, operationName).then((r) => [r.status, r.body] as const);
    const [s1, b1] = await send("one");
    const [s2, b2] = await send("two");
    const [s3, b3] = await send();
    expect([s1, b1]).toEqual([200, { data: { viewer: { email: "ada@acme.test" } } }]);
    expect([s2, b2]).toEqual([200, { data: { teams: { nodes: [{ key: "ENG" }] } } }]);
    expect(s3).toBe(400);
    expect((b3 as { errors: { message: string }[] }).errors[0]?.message).toBe(
      "Must provide operation name if query contains multiple operations.",
    );
    expect(await send("one")).toEqual([s1, b1]);
    expect(await send()).toEqual([s3, b3]);
  });

  it("orders and pages an issue's labels (read whole, ordered in memory) exactly as SQLite orders the label list", async () => {
    const sb = await linearSandbox();
    type Page = {
      nodes: { id: string; name: string }[];
      edges: { cursor: string }[];
      pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; endCursor: string };
    };
    // A label made now sorts after the seeded ones (a later createdAt); the rest tie and go by rowid.
    await gql(sb, 'mutation { issueLabelCreate(input: { name: "Zeta" }) { success } }');
    const all = (await gql(sb, "{ issueLabels { nodes { id name } edges { cursor } } }")).body.data as { issueLabels: Page };
    expect(all.issueLabels.nodes.map((n) => n.name)).toEqual(["Customer", "Bug", "Feature", "Zeta"]);
    // Attached in the reverse order, so the link table's own order is not the answer's.
    for (const l of [...all.issueLabels.nodes].reverse())
      await gql(sb, "mutation a($id: String!, $l: String!) { issueAddLabel(id: $id, labelId: $l) { success } }", { id: "ENG-2", l: l.id });
    const labels = async (args: string) =>
      (
        (
          await gql(
            sb,
            `{ issue(id: "ENG-2") { labels${args} { nodes { id name } edges { cursor } pageInfo { hasNextPage hasPreviousPage endCursor } } } }`,
          )
        ).body.data as { issue: { labels: Page } }
      ).issue.labels;
    const whole = await labels("");
    // The same labels, in the same order, with the same cursors as the workspace's list read by SQL.
    expect(whole.nodes).toEqual(all.issueLabels.nodes);
    expect(whole.edges).toEqual(all.issueLabels.edges);
    expect(whole.nodes.length).toBe(4);
    const head = await labels("(first: 3)");
    expect(head.nodes).toEqual(all.issueLabels.nodes.slice(0, 3));
    expect(head.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    const rest = await labels(`(first: 3, after: "${head.pageInfo.endCursor}")`);
    expect(rest.nodes).toEqual(all.issueLabels.nodes.slice(3));
    expect(rest.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    const tail = await labels("(last: 2)");
    expect(tail.nodes).toEqual(all.issueLabels.nodes.slice(2));
    expect(tail.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    const named = await labels('(filter: { name: { eq: "Feature" } })');
    expect(named.nodes.map((n) => n.name)).toEqual(["Feature"]);
  });

  it("finds an issue by its UUID or its identifier in any case, and refuses what is neither", async () => {
    const sb = await linearSandbox();
    const q = "query issue($id: String!) { issue(id: $id) { id identifier } }";
    const byIdentifier = (await gql(sb, q, { id: "ENG-2" })).body.data?.issue as { id: string; identifier: string };
    expect(byIdentifier.identifier).toBe("ENG-2");
    expect((await gql(sb, q, { id: "eng-2" })).body.data?.issue).toEqual(byIdentifier);
    expect((await gql(sb, q, { id: byIdentifier.id })).body.data?.issue).toEqual(byIdentifier);
    for (const missing of ["ENG-404", byIdentifier.id.toUpperCase(), "not an id"]) {
      const r = await gql(sb, q, { id: missing });
      expect(r.body.errors?.[0]?.message).toBe("Entity not found: Issue");
    }
  });
});
