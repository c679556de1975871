// What Linear answers on the wire: error classes the SDK maps, validation errors, 501 for root
// fields the twin lacks, tape rows, pagination across pages and hand-written filter queries.
import { AuthenticationLinearError, GraphqlLinearError, InvalidInputLinearError } from "@linear/sdk";
import { beforeAll, describe, expect, it } from "vitest";
import { twinFetch } from "../helpers";
import { acmeWorld, gql, linearFor, linearSandbox, routeFetchThroughSelf } from "./fixtures";

beforeAll(routeFetchThroughSelf);

interface Row {
  operation: string;
  transport: string;
  fidelity: string;
  mutated: boolean;
  status: number;
}
const tape = async (sb: Awaited<ReturnType<typeof linearSandbox>>) =>
  (await (await twinFetch(sb, "/_pome/events", {}, "linear")).json()) as Row[];

function manyIssues(n: number) {
  const base = acmeWorld();
  return {
    ...base,
    issues: Array.from({ length: n }, (_, i) => ({
      identifier: `ENG-${i + 1}`,
      title: `Issue ${i + 1}`,
      priority: i % 5,
      createdAt: new Date(Date.UTC(2026, 6, 1, 0, i)).toISOString(),
    })),
  };
}

describe("linear twin: errors in Linear's shapes", () => {
  it("answers an unknown id with HTTP 400 Entity not found, which the SDK raises as InvalidInputLinearError", async () => {
    const sb = await linearSandbox();
    const res = await gql(sb, "query($id: String!) { issue(id: $id) { id } }", { id: "ENG-99" });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      errors: [
        {
          message: "Entity not found: Issue",
          path: ["issue"],
          extensions: {
            type: "invalid input",
            code: "INPUT_ERROR",
            statusCode: 400,
            userError: true,
            userPresentableMessage: "Could not find referenced Issue.",
          },
        },
      ],
      data: null,
    });
    await expect(linearFor(sb).issue("ENG-99")).rejects.toBeInstanceOf(InvalidInputLinearError);
  });

  it("answers a bad key with HTTP 401 and no data, raised as AuthenticationLinearError", async () => {
    const sb = await linearSandbox();
    const res = await gql(sb, "{ viewer { id } }", {}, "lin_api_notarealkey");
    expect(res.status).toBe(401);
    expect(res.body.data).toBeUndefined();
    expect(res.body.errors?.[0]).toMatchObject({
      message: "Authentication required, not authenticated",
      extensions: { type: "authentication error", code: "AUTHENTICATION_ERROR", statusCode: 401 },
    });
    await expect(linearFor(sb, { apiKey: "lin_api_notarealkey" }).viewer).rejects.toBeInstanceOf(AuthenticationLinearError);
    const other = await linearSandbox();
    const foreign = await gql(sb, "{ viewer { id } }", {}, other.provider_credentials.linear.token);
    expect(foreign.status).toBe(401);
  });

  it("answers a field Linear does not have with graphql-js's validation message", async () => {
    const sb = await linearSandbox();
    const res = await gql(sb, "{ issues { nodes { nope } } }");
    expect(res.status).toBe(400);
    expect(res.body.errors?.[0]).toMatchObject({
      message: 'Cannot query field "nope" on type "Issue".',
      extensions: { type: "graphql error", code: "GRAPHQL_VALIDATION_FAILED" },
    });
    // The SDK's own client raises it as GraphqlLinearError.
    await expect(linearFor(sb).client.rawRequest("{ issues { nodes { nope } } }")).rejects.toBeInstanceOf(GraphqlLinearError);
  });

  it("answers 501 for a root field Linear has but the twin does not, taped unsupported", async () => {
    const sb = await linearSandbox();
    const res = await gql(sb, "{ customers { nodes { id } } }");
    expect(res.status).toBe(501);
    expect(res.body.data).toBeUndefined();
    expect(res.body.errors?.[0].message).toContain("`customers`");
    const rows = await tape(sb);
    expect(rows.at(-1)).toMatchObject({
      operation: "customers",
      transport: "graphql",
      fidelity: "unsupported",
      mutated: false,
      status: 501,
    });
  });

  it("answers 501 for a field Linear has on a type but the twin does not serve", async () => {
    const sb = await linearSandbox();
    const res = await gql(sb, "{ issues { nodes { id documents { nodes { id } } } } }");
    expect(res.status).toBe(501);
    expect(res.body.errors?.[0].message).toContain("`Issue.documents`");
    expect((await tape(sb)).at(-1)).toMatchObject({ operation: "issues", fidelity: "unsupported" });
  });

  it("answers 501 for an input field the twin does not act on, and changes nothing", async () => {
    const sb = await linearSandbox();
    const team = (await gql(sb, "{ teams { nodes { id } } }")).body.data as { teams: { nodes: { id: string }[] } };
    const res = await gql(
      sb,
      'mutation($t: String!) { issueCreate(input: { teamId: $t, title: "x", useDefaultTemplate: true }) { success } }',
      {
        t: team.teams.nodes[0].id,
      },
    );
    expect(res.status).toBe(501);
    expect(res.body.errors?.[0].message).toContain("IssueCreateInput.useDefaultTemplate");
    const rows = await tape(sb);
    expect(rows.at(-1)).toMatchObject({ operation: "issueCreate", fidelity: "unsupported", mutated: false });
  });
});

describe("linear twin: the tape", () => {
  it("names the root fields, marks only world-changing mutations as mutated", async () => {
    const sb = await linearSandbox();
    const client = linearFor(sb);
    await client.issues();
    const team = (await client.teams()).nodes[0];
    await client.createIssue({ teamId: team.id, title: "Taped" });
    await expect(client.createIssue({ teamId: team.id, title: "" })).rejects.toBeInstanceOf(InvalidInputLinearError);
    await gql(sb, "{ viewer { id } organization { id } }");
    // Adding a label the issue already has changes nothing.
    const bug = (await team.labels()).nodes.find((l) => l.name === "Bug");
    await client.issueAddLabel("ENG-1", bug?.id ?? "");
    const rows = await tape(sb);
    expect(rows.map((r) => [r.operation, r.mutated, r.transport])).toEqual([
      ["issues", false, "graphql"],
      ["teams", false, "graphql"],
      ["issueCreate", true, "graphql"],
      ["issueCreate", false, "graphql"],
      ["viewer,organization", false, "graphql"],
      ["team", false, "graphql"],
      ["issueAddLabel", false, "graphql"],
    ]);
  });
});

describe("linear twin: pagination and filters", () => {
  it("pages with fetchNext and client.paginate, first capped at 250", async () => {
    const sb = await linearSandbox(manyIssues(120));
    const client = linearFor(sb);
    const first = await client.issues({ first: 50 });
    expect(first.nodes).toHaveLength(50);
    expect(first.pageInfo.hasNextPage).toBe(true);
    const next = await first.fetchNext();
    expect(next.nodes).toHaveLength(100);
    const all = await client.paginate(client.issues, { first: 40 });
    expect(new Set(all.map((i) => i.identifier)).size).toBe(120);
    expect(all[0].identifier).toBe("ENG-120");
    const big = await gql(sb, "{ issues(first: 251) { nodes { id } } }");
    expect(big.status).toBe(400);
  });

  it("evaluates hand-written filters composed with and/or", async () => {
    const sb = await linearSandbox();
    const ids = async (filter: unknown) => {
      const res = await gql(sb, "query($f: IssueFilter) { issues(filter: $f) { nodes { identifier } } }", { f: filter });
      expect(res.status).toBe(200);
      return (res.body.data as { issues: { nodes: { identifier: string }[] } }).issues.nodes.map((n) => n.identifier).sort();
    };
    expect(await ids({ state: { name: { eq: "Todo" } } })).toEqual(["ENG-1", "ENG-2"]);
    expect(await ids({ assignee: { email: { eq: "bob@acme.test" } } })).toEqual(["ENG-1"]);
    expect(await ids({ assignee: { null: true } })).toEqual(["ENG-2"]);
    expect(await ids({ labels: { name: { in: ["Bug"] } } })).toEqual(["ENG-1"]);
    expect(await ids({ labels: { some: { name: { eq: "Bug" } } } })).toEqual(["ENG-1"]);
    expect(await ids({ team: { key: { eq: "ENG" } }, priority: { gte: 1 } })).toEqual(["ENG-1"]);
    expect(await ids({ or: [{ title: { containsIgnoreCase: "REFUND" } }, { priority: { eq: 1 } }] })).toEqual(["ENG-1", "ENG-2"]);
    expect(await ids({ title: { startsWith: "Checkout" }, project: { name: { eq: "Checkout revamp" } } })).toEqual(["ENG-1"]);
    expect(await ids({ createdAt: { gt: "2026-07-01T12:00:00Z" } })).toEqual(["ENG-2"]);
    expect(await ids({ dueDate: { lt: "2026-09-01" } })).toEqual(["ENG-1"]);
    expect(await ids({ parent: { identifier: undefined, id: { eq: "ENG-1" } } })).toEqual(["ENG-2"]);
    expect(await ids({ id: { in: ["ENG-2"] } })).toEqual(["ENG-2"]);
    const res = await gql(sb, "{ issues(filter: { slaStatus: { eq: Breached } }) { nodes { id } } }");
    expect(res.status).toBe(501);
  });

  it("answers a hand-written query with related objects loaded", async () => {
    const sb = await linearSandbox();
    const res = await gql(
      sb,
      // Page sizes given, as Linear's complexity limit needs for three nested connections
      // (at its default of 50 each this query costs about 140,000 points: refused, limits.test.ts).
      `{ issues(orderBy: createdAt, first: 10) { nodes { identifier state { name type } assignee { email } labels { nodes { name } }
      comments(first: 10) { nodes { body user { email } children(first: 5) { nodes { body } } } } relations { nodes { type relatedIssue { identifier } } } } } }`,
    );
    expect(res.status).toBe(200);
    const nodes = (res.body.data as { issues: { nodes: Record<string, unknown>[] } }).issues.nodes;
    expect(nodes.find((n) => n.identifier === "ENG-1")).toMatchObject({
      state: { name: "Todo", type: "unstarted" },
      assignee: { email: "bob@acme.test" },
      labels: { nodes: [{ name: "Bug" }] },
      relations: { nodes: [{ type: "blocks", relatedIssue: { identifier: "ENG-2" } }] },
    });
  });

  it("searches issues by text", async () => {
    const sb = await linearSandbox();
    const client = linearFor(sb);
    const found = await client.searchIssues("refund");
    expect(found.nodes.map((n) => n.identifier)).toEqual(["ENG-2"]);
    const search = await client.issueSearch({ query: "checkout" });
    expect(search.nodes.map((n) => n.identifier)).toEqual(["ENG-1"]);
  });
});
