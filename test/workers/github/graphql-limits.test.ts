// GitHub's node count and cost, measured as its documentation computes them (docs.github.com ›
// GraphQL › "Rate limits and query limits for the GraphQL API", § Calculating nodes in a call),
// over the documentation's own examples and a schema of the types they use.
import { buildSchema, parse, type OperationDefinitionNode } from "graphql";
import { describe, expect, it } from "vitest";
import { measureCall } from "../../../durable-objects/twins/github/graphql/limits";

const schema = buildSchema(`
  type Query { viewer: User! }
  type User { login: String! repositories(first: Int, last: Int): RepositoryConnection! followers(first: Int, last: Int): FollowerConnection! }
  type RepositoryConnection { edges: [RepositoryEdge] totalCount: Int! }
  type RepositoryEdge { node: Repository }
  type Repository { name: String! issues(first: Int, last: Int): IssueConnection! pullRequests(first: Int, last: Int): PullRequestConnection! }
  type IssueConnection { edges: [IssueEdge] totalCount: Int! }
  type IssueEdge { node: Issue }
  type Issue { title: String! bodyHTML: String! comments(first: Int, last: Int): IssueCommentConnection! }
  type PullRequestConnection { edges: [PullRequestEdge] }
  type PullRequestEdge { node: PullRequest }
  type PullRequest { title: String! comments(first: Int, last: Int): IssueCommentConnection! }
  type IssueCommentConnection { edges: [IssueCommentEdge] }
  type IssueCommentEdge { node: IssueComment }
  type IssueComment { bodyHTML: String! }
  type FollowerConnection { edges: [FollowerEdge] }
  type FollowerEdge { node: User }
`);

function measure(text: string, vars: Record<string, unknown> = {}) {
  const doc = parse(text);
  return measureCall(schema, doc, doc.definitions[0] as OperationDefinitionNode, vars);
}

describe("counts nodes as GitHub's documentation does", () => {
  it("counts the simple example at 550 nodes", () => {
    const m = measure(`query { viewer { repositories(first: 50) { edges { repository: node { name
      issues(first: 10) { totalCount edges { node { title bodyHTML } } } } } } } }`);
    expect(m).toMatchObject({ nodeCount: 550, errors: [] });
    // 1 request for the repositories, 50 for their issues: 51 / 100 rounds to 1 point.
    expect(m.cost).toBe(1);
  });

  it("counts the complex example at 22,060 nodes", () => {
    const m = measure(`query { viewer {
      repositories(first: 50) { edges { repository: node { name
        pullRequests(first: 20) { edges { pullRequest: node { title comments(first: 10) { edges { comment: node { bodyHTML } } } } } }
        issues(first: 20) { totalCount edges { issue: node { title bodyHTML comments(first: 10) { edges { comment: node { bodyHTML } } } } } }
      } } }
      followers(first: 10) { edges { follower: node { login } } }
    } }`);
    expect(m.nodeCount).toBe(22_060);
    expect(m.errors).toEqual([]);
    // 1 + 50 + 50 * 20 + 50 + 50 * 20 + 1 = 2,102 requests: 21 points.
    expect(m.cost).toBe(21);
  });

  it("reads page sizes from variables and their defaults", () => {
    const m = measure(
      `query($n: Int = 30, $m: Int) { viewer { repositories(first: $n) { edges { node { issues(last: $m) { totalCount } } } } } }`,
      { m: 5 },
    );
    expect(m.nodeCount).toBe(30 + 30 * 5);
  });

  it("lets a connection asked only for its count go without first or last, and no other", () => {
    // gh 2.23's `gh pr view` asks `commits { totalCount }`, which github.com answers.
    const counted = measure(`query { viewer { repositories(first: 10) { edges { node { issues { totalCount } } } } } }`);
    expect(counted).toMatchObject({ nodeCount: 10, errors: [] });
    const listed = measure(`query { viewer { repositories(first: 10) { edges { node { issues { edges { node { title } } } } } } } }`);
    expect(listed.errors.map((e) => e.type)).toEqual(["MISSING_PAGINATION_BOUNDARIES"]);
  });
});
