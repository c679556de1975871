// GitHub's GraphQL refusals: HTTP 200 with `errors` in GitHub's shape (type, path, locations,
// message) and the partial data; parse and validation errors in graphql-ruby's words; the node
// limit GitHub documents (docs.github.com › GraphQL › Rate limits and query limits: first/last
// required, 1-100, at most 500,000 nodes) and the `rateLimit` object.
import { describe, expect, it } from "vitest";
import { twinFetch } from "../helpers";
import { sandboxWith, smallWorld, stateOf, tapeOf } from "./fixtures";

/**
 * A GraphQL answer as these tests read it: any path may be followed (an object, a list or a
 * scalar), and the assertions check what is there.
 */
type Data = { readonly [key: string]: Data } & readonly Data[] & string;
interface GraphqlFailure {
  errors: Data[];
  data?: Data;
}

/** Awaits an `octokit.graphql` call that must answer with errors, and returns them with the data. */
async function graphqlFailure(call: Promise<unknown>): Promise<GraphqlFailure> {
  try {
    await call;
  } catch (err) {
    expect(err).toHaveProperty("errors");
    return err as GraphqlFailure;
  }
  throw new Error("expected the call to answer with errors");
}

describe("a missing object is null with a NOT_FOUND error, the rest of the data kept", () => {
  it("answers GitHub's words for a repository, user, issue and node that do not exist", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const err = await graphqlFailure(
      octokit.graphql(`{
  viewer { login }
  repository(owner: "acme", name: "nope") { name }
  user(login: "ghost") { login }
  real: repository(owner: "acme", name: "api") { issue(number: 99) { title } }
  node(id: "MDU6SXNzdWU5OTk5") { id }
}`),
    );
    expect(err.data).toEqual({ viewer: { login: "octo" }, repository: null, user: null, real: { issue: null }, node: null });
    expect(err.errors).toEqual([
      {
        type: "NOT_FOUND",
        path: ["repository"],
        locations: [{ line: 3, column: 3 }],
        message: "Could not resolve to a Repository with the name 'acme/nope'.",
      },
      {
        type: "NOT_FOUND",
        path: ["user"],
        locations: [{ line: 4, column: 3 }],
        message: "Could not resolve to a User with the login of 'ghost'.",
      },
      {
        type: "NOT_FOUND",
        path: ["real", "issue"],
        locations: [{ line: 5, column: 50 }],
        message: "Could not resolve to an Issue with the number of 99.",
      },
      {
        type: "NOT_FOUND",
        path: ["node"],
        locations: [{ line: 6, column: 3 }],
        message: "Could not resolve to a node with the global id of 'MDU6SXNzdWU5OTk5'",
      },
    ]);
  });

  it("answers HTTP 200, as GitHub does", async () => {
    const { sandbox } = await sandboxWith(smallWorld());
    const res = await twinFetch(sandbox, "/graphql", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: `{ repository(owner: "x", name: "y") { name } }` }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ data: { repository: null }, errors: [{ type: "NOT_FOUND" }] });
  });
});

describe("a document GitHub cannot run is refused in graphql-ruby's words", () => {
  it("reports a parse error with its place", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const err = await graphqlFailure(octokit.graphql(`{ viewer { login }`));
    expect(err.data).toBeUndefined();
    expect(err.errors).toEqual([{ message: "Parse error on end of input at [1, 19]", locations: [{ line: 1, column: 19 }] }]);
    const brace = await graphqlFailure(octokit.graphql(`{ viewer { login } } }`));
    expect(brace.errors[0].message).toBe('Parse error on "}" (RCURLY) at [1, 22]');
  });

  it("names a field the type lacks, a missing argument and an unknown one", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const err = await graphqlFailure(octokit.graphql(`{ repository(owner: "acme") { nope } user(login: "a", extra: 1) { login } }`));
    expect(err.errors.map((e) => e.message)).toEqual(
      expect.arrayContaining([
        "Field 'repository' is missing required arguments: name",
        "Field 'nope' doesn't exist on type 'Repository'",
        "Field 'user' doesn't accept argument 'extra'",
      ]),
    );
    expect(err.errors.find((e) => e.extensions?.code === "undefinedField")).toMatchObject({
      extensions: { typeName: "Repository", fieldName: "nope" },
    });
  });

  it("refuses a variable that is missing or of the wrong type", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const err = await graphqlFailure(octokit.graphql(`query($owner: String!) { repository(owner: $owner, name: "api") { name } }`, {}));
    expect(err.errors[0].message).toBe("Variable $owner of type String! was provided invalid value");
    expect(err.data).toBeUndefined();
  });

  it("refuses a document nested past the twin's bound, however deep, before anything recurses over it", async () => {
    // The property suite once found a depth (between the twin's depth rule and the parser's own
    // stack) where the parse succeeded and the depth rule's recursion overflowed: a 500.
    const { sandbox } = await sandboxWith(smallWorld());
    for (const levels of [100, 500, 1000, 1500, 1700, 2500]) {
      const query = `{ ${"issues { nodes { ".repeat(levels)}id${" } }".repeat(levels)} }`;
      const res = await twinFetch(sandbox, "/graphql", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ query }),
      });
      expect(res.status, `${levels} levels`).toBe(200);
      const body = (await res.json()) as { errors: { message: string }[] };
      expect(body.errors[0].message, `${levels} levels`).toMatch(/nested too deeply/);
    }
  });

  it("answers a body that is not JSON with GitHub's 400", async () => {
    const { sandbox } = await sandboxWith(smallWorld());
    const res = await twinFetch(sandbox, "/graphql", { method: "POST", headers: { "content-type": "application/json" }, body: "{" });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ message: "Problems parsing JSON" });
  });
});

describe("GitHub's node limit", () => {
  it("takes at most 100 ids in nodes(ids:)", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const ids = Array.from({ length: 101 }, (_, i) => btoa(`05:Issue${i + 1}`));
    const err = await graphqlFailure(octokit.graphql(`query($ids: [ID!]!) { nodes(ids: $ids) { id } }`, { ids }));
    expect(err.errors[0]).toMatchObject({ path: ["nodes"], message: "You may not request more than 100 nodes at once." });
  });

  it("requires first or last on every connection that lists records", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    // A connection asked only for its count needs neither (github.com answers the widely used
    // `openIssues: issues(states: OPEN) { totalCount }` of github-readme-stats, and gh's `commits { totalCount }`).
    const counted = await octokit.graphql<Data>(`{ repository(owner: "acme", name: "api") { issues { totalCount } } }`);
    expect(counted.repository.issues.totalCount).toBe(3);
    const err = await graphqlFailure(octokit.graphql(`{ repository(owner: "acme", name: "api") { issues { nodes { title } } } }`));
    expect(err.errors).toEqual([
      {
        type: "MISSING_PAGINATION_BOUNDARIES",
        path: ["repository", "issues"],
        locations: [{ line: 1, column: 44 }],
        message: "You must provide a `first` or `last` value to properly paginate the `issues` connection.",
      },
    ]);
  });

  it("refuses a page over 100", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const err = await graphqlFailure(
      octokit.graphql(`query($n: Int!) { repository(owner: "acme", name: "api") { labels(last: $n) { totalCount } } }`, { n: 101 }),
    );
    expect(err.errors[0]).toMatchObject({
      type: "EXCESSIVE_PAGINATION",
      path: ["repository", "labels"],
      message: "Requesting 101 records on the `labels` connection exceeds the `last` limit of 100 records.",
    });
  });

  it("refuses a call that could return more than 500,000 nodes", async () => {
    const { octokit, sandbox } = await sandboxWith(smallWorld());
    const err = await graphqlFailure(
      octokit.graphql(`{ repository(owner: "acme", name: "api") {
        pullRequests(first: 100) { nodes { reviews(first: 100) { nodes { pullRequest { labels(first: 100) { nodes { name } } } } } } } } }`),
    );
    expect(err.errors).toEqual([
      {
        type: "MAX_NODE_LIMIT_EXCEEDED",
        message: "This query requests up to 1,010,100 possible nodes which exceeds the maximum limit of 500,000.",
      },
    ]);
    expect((await tapeOf(sandbox)).at(-1)).toMatchObject({ operation: "repository", status: 200, mutated: false });
  });
});

describe("the rateLimit object", () => {
  it("prices the call, counts its nodes and reports the hour's budget", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const data = await octokit.graphql<Data>(`{
      rateLimit { limit cost nodeCount remaining used resetAt }
      repository(owner: "acme", name: "api") { issues(first: 50) { nodes { labels(first: 10) { nodes { name } } } } }
    }`);
    expect(data.rateLimit).toMatchObject({ limit: 5000, cost: 1, nodeCount: 550 });
    expect(data.rateLimit.used + data.rateLimit.remaining).toBe(5000);
    expect(data.rateLimit.resetAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(Date.parse(data.rateLimit.resetAt)).toBeGreaterThan(Date.now() + 3_500_000);
    expect(data.repository.issues.nodes).toHaveLength(3);
  });

  it("prices without running on a dry run", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const data = await octokit.graphql<Data>(`{
      rateLimit(dryRun: true) { cost nodeCount }
      repository(owner: "acme", name: "api") { issues(first: 100) { nodes { comments(first: 100) { totalCount } } } }
    }`);
    expect(data).toEqual({ rateLimit: { cost: 1, nodeCount: 10_100 }, repository: null });
  });
});

describe("what the twin does not serve is a 501, taped unsupported", () => {
  it("refuses a search of discussions, and a mutation on an unknown id writes nothing", async () => {
    const { octokit, sandbox } = await sandboxWith(smallWorld());
    const refused = await octokit.graphql(`{ search(query: "api", type: DISCUSSION, first: 5) { issueCount } }`).catch((e: unknown) => e);
    expect(refused).toMatchObject({ status: 501 });
    expect((await tapeOf(sandbox)).at(-1)).toMatchObject({ operation: "search", fidelity: "unsupported", status: 501 });
    const before = await stateOf(sandbox);
    const err = await graphqlFailure(
      octokit.graphql(`mutation { addComment(input: { subjectId: "MDU6SXNzdWU5OTk5", body: "hi" }) { clientMutationId } }`),
    );
    expect(err.errors[0]).toMatchObject({
      type: "NOT_FOUND",
      path: ["addComment"],
      message: "Could not resolve to a node with the global id of 'MDU6SXNzdWU5OTk5'",
    });
    expect(err.data).toEqual({ addComment: null });
    expect(await stateOf(sandbox)).toEqual(before);
  });
});
