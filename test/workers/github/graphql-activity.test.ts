// What `gh issue view` and `gh pr view` ask of GitHub's GraphQL beyond the basics, through
// `octokit.graphql`, checked against the REST answers over the same world: reaction groups,
// authorAssociation, comment flags, a pull request's commits and their status check rollup,
// review commits, classic project cards (none: the twin models no classic projects) and the
// validation GitHub applies to `... on Issue { state } ... on PullRequest { state }`.
import { describe, expect, it } from "vitest";
import { sandboxWith, smallWorld } from "./fixtures";

/**
 * A GraphQL answer as these tests read it: any path may be followed (an object, a list or a
 * scalar), and the assertions check what is there.
 */
type Data = { readonly [key: string]: Data } & readonly Data[] & string;

const repo = { owner: "acme", repo: "api" };
const CONTENTS = ["THUMBS_UP", "THUMBS_DOWN", "LAUGH", "HOORAY", "CONFUSED", "HEART", "ROCKET", "EYES"];

describe("reactions, authorAssociation and comment flags", () => {
  it("answers reaction groups from the REST reactions of an issue and a comment", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    await octokit.reactions.createForIssue({ ...repo, issue_number: 1, content: "heart" });
    await octokit.reactions.createForIssue({ ...repo, issue_number: 1, content: "+1" });
    const comments = await octokit.issues.listComments({ ...repo, issue_number: 3 });
    await octokit.reactions.createForIssueComment({ ...repo, comment_id: comments.data[0].id, content: "rocket" });
    const data = await octokit.graphql<Data>(`{ repository(owner: "acme", name: "api") {
      issue(number: 1) { reactionGroups { content viewerHasReacted users(first: 10) { totalCount nodes { login } } } }
      closed: issue(number: 3) { comments(first: 5) { nodes { reactionGroups { content users { totalCount } } } } }
      pullRequest(number: 4) { reactionGroups { content users { totalCount } } }
    } }`);
    const groups = data.repository.issue.reactionGroups;
    expect(groups.map((g: Data) => g.content)).toEqual(CONTENTS);
    const byContent = Object.fromEntries(groups.map((g: Data) => [g.content, g]));
    expect(byContent.HEART).toEqual({ content: "HEART", viewerHasReacted: true, users: { totalCount: 1, nodes: [{ login: "octo" }] } });
    expect(byContent.THUMBS_UP.users.totalCount).toBe(1);
    expect(byContent.EYES).toEqual({ content: "EYES", viewerHasReacted: false, users: { totalCount: 0, nodes: [] } });
    const rest = await octokit.issues.get({ ...repo, issue_number: 1 });
    const total = groups.reduce((n: number, g: Data) => n + Number(g.users.totalCount), 0);
    expect(total).toBe(rest.data.reactions?.total_count);
    const commentGroups = data.repository.closed.comments.nodes[0].reactionGroups;
    expect(commentGroups.filter((g: Data) => Number(g.users.totalCount) > 0)).toEqual([{ content: "ROCKET", users: { totalCount: 1 } }]);
    expect(data.repository.pullRequest.reactionGroups.every((g: Data) => Number(g.users.totalCount) === 0)).toBe(true);
  });

  it("answers authorAssociation as REST computes it, and viewerDidAuthor, isMinimized, includesCreatedEdit", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    await octokit.issues.createComment({ ...repo, issue_number: 3, body: "From the agent" });
    const rest = await octokit.issues.listComments({ ...repo, issue_number: 3 });
    const data = await octokit.graphql<Data>(`{ repository(owner: "acme", name: "api") { issue(number: 3) {
      comments(first: 5) { nodes { author { login } authorAssociation viewerDidAuthor isMinimized minimizedReason includesCreatedEdit } }
    } } }`);
    const nodes = data.repository.issue.comments.nodes;
    expect(nodes.map((c: Data) => [c.author.login, c.authorAssociation])).toEqual(
      rest.data.map((c) => [c.user?.login, c.author_association]),
    );
    expect(nodes.map((c: Data) => c.authorAssociation)).toEqual(["MEMBER", "MEMBER"]);
    expect(nodes.map((c: Data) => c.viewerDidAuthor)).toEqual([false, true]);
    expect(nodes[1]).toMatchObject({ isMinimized: false, minimizedReason: null, includesCreatedEdit: false });
  });
});

describe("a pull request's commits, checks, reviews and project cards", () => {
  it("lists the commits REST lists, each with its status check rollup", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const rest = await octokit.pulls.listCommits({ ...repo, pull_number: 4 });
    const query = `{ repository(owner: "acme", name: "api") { pullRequest(number: 4) {
      commits(first: 10) { totalCount nodes { url commit { oid statusCheckRollup { state contexts(first: 10) {
        totalCount checkRunCount statusContextCount
        nodes { __typename ... on StatusContext { context state description }
          ... on CheckRun { name status conclusion checkSuite { workflowRun { id } } } } } } } } }
      count: commits { totalCount }
      projectCards(first: 10) { totalCount nodes { id } }
    } } }`;
    const data = await octokit.graphql<Data>(query);
    const pull = data.repository.pullRequest;
    expect(pull.commits.totalCount).toBe(rest.data.length);
    expect(pull.count.totalCount).toBe(rest.data.length);
    expect(pull.commits.nodes.map((c: Data) => c.commit.oid)).toEqual(rest.data.map((c) => c.sha));
    const head = rest.data[rest.data.length - 1].sha;
    expect(pull.commits.nodes.at(-1)?.url).toBe(`https://github.com/acme/api/pull/4/commits/${head}`);
    expect(pull.commits.nodes.at(-1)?.commit.statusCheckRollup).toEqual({
      state: "SUCCESS",
      contexts: {
        totalCount: 1,
        checkRunCount: 0,
        statusContextCount: 1,
        nodes: [{ __typename: "StatusContext", context: "ci/build", state: "SUCCESS", description: "Build passed" }],
      },
    });
    expect(pull.projectCards).toEqual({ totalCount: 0, nodes: [] });

    await octokit.checks.create({ ...repo, name: "lint", head_sha: head, status: "completed", conclusion: "failure" });
    const after = await octokit.graphql<Data>(query);
    const rollup = after.repository.pullRequest.commits.nodes.at(-1)?.commit.statusCheckRollup as Data;
    expect(rollup.state).toBe("FAILURE");
    expect(rollup.contexts.checkRunCount).toBe(1);
    expect(rollup.contexts.nodes[0]).toEqual({
      __typename: "CheckRun",
      name: "lint",
      status: "COMPLETED",
      conclusion: "FAILURE",
      checkSuite: { workflowRun: null },
    });
  });

  it("answers a commit's authors with the account REST names as its author", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const rest = await octokit.pulls.listCommits({ ...repo, pull_number: 4 });
    const data = await octokit.graphql<Data>(`{ repository(owner: "acme", name: "api") { pullRequest(number: 4) {
      commits(first: 10) { nodes { commit { authors(first: 5) { totalCount nodes { name email user { login } } } } } }
    } } }`);
    const nodes = data.repository.pullRequest.commits.nodes;
    expect(nodes.map((c: Data) => c.commit.authors.totalCount)).toEqual(rest.data.map(() => 1));
    expect(nodes.map((c: Data) => c.commit.authors.nodes[0].user?.login ?? null)).toEqual(rest.data.map((c) => c.author?.login ?? null));
    expect(nodes.map((c: Data) => c.commit.authors.nodes[0].email)).toEqual(rest.data.map((c) => c.commit.author?.email));
  });

  it("answers a commit with no statuses or checks with a null rollup", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const data = await octokit.graphql<Data>(`{ repository(owner: "acme", name: "api") {
      defaultBranchRef { target { ... on Commit { statusCheckRollup { state } } } } } }`);
    expect(data.repository.defaultBranchRef.target.statusCheckRollup).toBeNull();
  });

  it("answers a review's commit and authorAssociation as REST does", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    await octokit.pulls.createReview({ ...repo, pull_number: 4, event: "COMMENT", body: "Looks fine" });
    const rest = await octokit.pulls.listReviews({ ...repo, pull_number: 4 });
    const data = await octokit.graphql<Data>(`{ repository(owner: "acme", name: "api") { pullRequest(number: 4) {
      reviews(first: 5) { nodes { body authorAssociation commit { oid } reactionGroups { content users { totalCount } } } }
    } } }`);
    const review = data.repository.pullRequest.reviews.nodes[0];
    expect(review).toMatchObject({
      body: "Looks fine",
      authorAssociation: rest.data[0].author_association,
      commit: { oid: rest.data[0].commit_id },
    });
    expect(review.reactionGroups.map((g: Data) => g.content)).toEqual(CONTENTS);
  });
});

describe("validation as GitHub applies it", () => {
  it("accepts one response name on Issue and PullRequest with different types, and still refuses real conflicts", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const data = await octokit.graphql<Data>(`{ repository(owner: "acme", name: "api") {
      a: issueOrPullRequest(number: 1) { __typename ... on Issue { state } ... on PullRequest { state } }
      b: issueOrPullRequest(number: 4) { __typename ... on Issue { state } ... on PullRequest { state } }
    } }`);
    expect(data.repository).toEqual({ a: { __typename: "Issue", state: "OPEN" }, b: { __typename: "PullRequest", state: "OPEN" } });
    const refused = await octokit.graphql(`{ repository(owner: "acme", name: "api") { issue(number: 1) { x: title x: number } } }`).then(
      () => undefined,
      (e: { errors: { message: string }[] }) => e.errors,
    );
    expect(refused?.[0].message).toContain('Fields "x" conflict because');
  });
});
