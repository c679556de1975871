// GraphQL mutations through `octokit.graphql`: each write lands in the same world the REST routes
// read (checked through @octokit/rest), on the tape under the mutation's name.
import { describe, expect, it } from "vitest";
import { sandboxWith, smallWorld, stateOf, tapeOf } from "./fixtures";

/**
 * A GraphQL answer as these tests read it: any path may be followed (an object, a list or a
 * scalar), and the assertions check what is there.
 */
type Data = { readonly [key: string]: Data } & readonly Data[] & string;

async function ids(octokit: Awaited<ReturnType<typeof sandboxWith>>["octokit"]) {
  const data = await octokit.graphql<Data>(`{
    repository(owner: "acme", name: "api") {
      id
      issue(number: 1) { id }
      two: issue(number: 2) { id }
      pullRequest(number: 4) { id headRefOid }
      bug: label(name: "bug") { id }
      enhancement: label(name: "enhancement") { id }
      milestone(number: 1) { id }
      main: ref(qualifiedName: "refs/heads/main") { target { oid } }
    }
    bob: user(login: "bob") { id }
    alice: user(login: "alice") { id }
  }`);
  const r = data.repository;
  return {
    repo: r.id as string,
    issue1: r.issue.id as string,
    issue2: r.two.id as string,
    pull: r.pullRequest.id as string,
    pullHead: r.pullRequest.headRefOid as string,
    bug: r.bug.id as string,
    enhancement: r.enhancement.id as string,
    milestone: r.milestone.id as string,
    mainHead: r.main.target.oid as string,
    bob: data.bob.id as string,
    alice: data.alice.id as string,
  };
}

describe("issue mutations write what REST reads", () => {
  it("creates an issue with labels, assignees and milestone", async () => {
    const { octokit, sandbox } = await sandboxWith(smallWorld());
    const id = await ids(octokit);
    const data = await octokit.graphql<Data>(
      `mutation($input: CreateIssueInput!) { createIssue(input: $input) { clientMutationId issue { number title state url } } }`,
      {
        input: {
          repositoryId: id.repo,
          title: "Made over GraphQL",
          body: "Body text",
          labelIds: [id.enhancement],
          assigneeIds: [id.bob],
          milestoneId: id.milestone,
          clientMutationId: "m1",
        },
      },
    );
    expect(data.createIssue).toMatchObject({ clientMutationId: "m1", issue: { number: 5, title: "Made over GraphQL", state: "OPEN" } });
    const rest = (await octokit.issues.get({ owner: "acme", repo: "api", issue_number: 5 })).data;
    expect(rest).toMatchObject({ title: "Made over GraphQL", body: "Body text", user: { login: "octo" }, milestone: { number: 1 } });
    expect(rest.labels.map((l) => (typeof l === "string" ? l : l.name))).toEqual(["enhancement"]);
    expect(rest.assignees?.map((a) => a.login)).toEqual(["bob"]);
    const row = (await tapeOf(sandbox)).at(-2);
    expect(row).toMatchObject({ operation: "createIssue", mutated: true, status: 200 });
  });

  it("updates, closes with a reason and reopens an issue", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const id = await ids(octokit);
    await octokit.graphql(
      `mutation($id: ID!) { updateIssue(input: { id: $id, title: "Renamed", body: "New body" }) { issue { title } } }`,
      {
        id: id.issue2,
      },
    );
    const closed = await octokit.graphql<Data>(
      `mutation($id: ID!) { closeIssue(input: { issueId: $id, stateReason: NOT_PLANNED }) { issue { state stateReason closed } } }`,
      { id: id.issue2 },
    );
    expect(closed.closeIssue.issue).toEqual({ state: "CLOSED", stateReason: "NOT_PLANNED", closed: true });
    let rest = (await octokit.issues.get({ owner: "acme", repo: "api", issue_number: 2 })).data;
    expect(rest).toMatchObject({ title: "Renamed", body: "New body", state: "closed", state_reason: "not_planned" });
    await octokit.graphql(`mutation($id: ID!) { reopenIssue(input: { issueId: $id }) { issue { state } } }`, { id: id.issue2 });
    rest = (await octokit.issues.get({ owner: "acme", repo: "api", issue_number: 2 })).data;
    expect(rest).toMatchObject({ state: "open", state_reason: "reopened" });
  });

  it("comments, labels and assigns", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const id = await ids(octokit);
    const commented = await octokit.graphql<Data>(
      `mutation($id: ID!) { addComment(input: { subjectId: $id, body: "On it." }) {
        commentEdge { node { body author { login } } } subject { id } } }`,
      { id: id.issue2 },
    );
    expect(commented.addComment.commentEdge.node).toEqual({ body: "On it.", author: { login: "octo" } });
    expect(commented.addComment.subject.id).toBe(id.issue2);
    await octokit.graphql(
      `mutation($id: ID!, $labels: [ID!]!) { addLabelsToLabelable(input: { labelableId: $id, labelIds: $labels }) { labelable { ... on Issue { number } } } }`,
      { id: id.issue2, labels: [id.bug, id.enhancement] },
    );
    await octokit.graphql(
      `mutation($id: ID!, $labels: [ID!]!) { removeLabelsFromLabelable(input: { labelableId: $id, labelIds: $labels }) { clientMutationId } }`,
      { id: id.issue2, labels: [id.bug] },
    );
    await octokit.graphql(
      `mutation($id: ID!, $who: [ID!]!) { addAssigneesToAssignable(input: { assignableId: $id, assigneeIds: $who }) { assignable { ... on Issue { assignees(first: 5) { nodes { login } } } } } }`,
      { id: id.issue2, who: [id.alice] },
    );
    const rest = (await octokit.issues.get({ owner: "acme", repo: "api", issue_number: 2 })).data;
    expect(rest.labels.map((l) => (typeof l === "string" ? l : l.name))).toEqual(["enhancement"]);
    expect(rest.assignees?.map((a) => a.login)).toEqual(["alice"]);
    const comments = (await octokit.issues.listComments({ owner: "acme", repo: "api", issue_number: 2 })).data;
    expect(comments.map((c) => c.body)).toEqual(["On it."]);
  });

  it("removes assignees as REST does, recording assigned and unassigned events either way", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const id = await ids(octokit);
    const issue = { owner: "acme", repo: "api", issue_number: 1 };
    await octokit.graphql(
      `mutation($id: ID!, $who: [ID!]!) { addAssigneesToAssignable(input: { assignableId: $id, assigneeIds: $who }) { clientMutationId } }`,
      { id: id.issue1, who: [id.alice] },
    );
    const removed = await octokit.graphql<Data>(
      `mutation($id: ID!, $who: [ID!]!) { removeAssigneesFromAssignable(input: { assignableId: $id, assigneeIds: $who, clientMutationId: "u" }) {
        clientMutationId assignable { ... on Issue { number assignees(first: 5) { nodes { login } } } } } }`,
      { id: id.issue1, who: [id.bob, id.alice] },
    );
    expect(removed.removeAssigneesFromAssignable).toEqual({ clientMutationId: "u", assignable: { number: 1, assignees: { nodes: [] } } });
    expect((await octokit.issues.get(issue)).data.assignees).toEqual([]);
    const events = (await octokit.issues.listEvents(issue)).data.map((e) => [
      e.event,
      (e as { assignee?: { login: string } }).assignee?.login,
    ]);
    expect(events).toEqual([
      ["assigned", "alice"],
      ["unassigned", "bob"],
      ["unassigned", "alice"],
    ]);
    // An id naming no user is refused and nothing changes; removing someone not assigned is no change.
    await octokit.issues.addAssignees({ ...issue, assignees: ["bob"] });
    const refused = await octokit
      .graphql(
        `mutation($id: ID!, $who: [ID!]!) { removeAssigneesFromAssignable(input: { assignableId: $id, assigneeIds: $who }) { clientMutationId } }`,
        {
          id: id.issue1,
          who: [id.bob, id.bug],
        },
      )
      .catch((e: { errors: { type: string }[] }) => e);
    expect(refused).toMatchObject({ errors: [{ type: "NOT_FOUND" }] });
    await octokit.graphql(
      `mutation($id: ID!, $who: [ID!]!) { removeAssigneesFromAssignable(input: { assignableId: $id, assigneeIds: $who }) { clientMutationId } }`,
      { id: id.issue1, who: [id.alice] },
    );
    expect((await octokit.issues.get(issue)).data.assignees?.map((a) => a.login)).toEqual(["bob"]);
  });
});

describe("pull-request mutations write what REST reads", () => {
  it("opens, updates, reviews, requests reviews and merges a pull request", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const id = await ids(octokit);
    await octokit.graphql(
      `mutation($id: ID!) { updatePullRequest(input: { pullRequestId: $id, title: "Raise the timeout to 30s" }) { pullRequest { title } } }`,
      {
        id: id.pull,
      },
    );
    const requested = await octokit.graphql<Data>(
      `mutation($id: ID!, $who: [ID!]!) { requestReviews(input: { pullRequestId: $id, userIds: $who }) {
        pullRequest { reviewRequests(first: 5) { nodes { requestedReviewer { ... on User { login } } } } } } }`,
      { id: id.pull, who: [id.alice] },
    );
    expect(requested.requestReviews.pullRequest.reviewRequests.nodes).toEqual([{ requestedReviewer: { login: "alice" } }]);
    const pending = await octokit.graphql<Data>(
      `mutation($id: ID!) { addPullRequestReview(input: { pullRequestId: $id, body: "Looks right" }) { pullRequestReview { id state } } }`,
      { id: id.pull },
    );
    expect(pending.addPullRequestReview.pullRequestReview.state).toBe("PENDING");
    const submitted = await octokit.graphql<Data>(
      `mutation($id: ID!) { submitPullRequestReview(input: { pullRequestReviewId: $id, event: COMMENT }) { pullRequestReview { state body } } }`,
      { id: pending.addPullRequestReview.pullRequestReview.id },
    );
    expect(submitted.submitPullRequestReview.pullRequestReview).toEqual({ state: "COMMENTED", body: "Looks right" });
    const merged = await octokit.graphql<Data>(
      `mutation($id: ID!, $head: GitObjectID!) { mergePullRequest(input: { pullRequestId: $id, mergeMethod: SQUASH, expectedHeadOid: $head }) {
        pullRequest { state merged mergeCommit { oid } } } }`,
      { id: id.pull, head: id.pullHead },
    );
    expect(merged.mergePullRequest.pullRequest).toMatchObject({ state: "MERGED", merged: true });
    const rest = (await octokit.pulls.get({ owner: "acme", repo: "api", pull_number: 4 })).data;
    expect(rest).toMatchObject({ title: "Raise the timeout to 30s", merged: true, state: "closed" });
    expect(rest.merge_commit_sha).toBe(merged.mergePullRequest.pullRequest.mergeCommit.oid);
    const reviews = (await octokit.pulls.listReviews({ owner: "acme", repo: "api", pull_number: 4 })).data;
    expect(reviews.map((r) => r.state)).toEqual(["COMMENTED"]);
  });

  it("creates a pull request from a branch", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const id = await ids(octokit);
    await octokit.git.createRef({ owner: "acme", repo: "api", ref: "refs/heads/topic", sha: id.mainHead });
    await octokit.repos.createOrUpdateFileContents({
      owner: "acme",
      repo: "api",
      path: "NOTES.md",
      message: "Add notes",
      content: btoa("notes\n"),
      branch: "topic",
    });
    const data = await octokit.graphql<Data>(
      `mutation($repo: ID!) { createPullRequest(input: { repositoryId: $repo, baseRefName: "main", headRefName: "topic", title: "Notes", draft: true }) {
        pullRequest { number isDraft headRefName } } }`,
      { repo: id.repo },
    );
    expect(data.createPullRequest.pullRequest).toEqual({ number: 5, isDraft: true, headRefName: "topic" });
    const rest = (await octokit.pulls.get({ owner: "acme", repo: "api", pull_number: 5 })).data;
    expect(rest).toMatchObject({ title: "Notes", draft: true, head: { ref: "topic" }, base: { ref: "main" } });
  });
});

describe("createCommitOnBranch writes several files in one commit", () => {
  it("adds and deletes files at once, checked against expectedHeadOid", async () => {
    const { octokit, sandbox } = await sandboxWith(smallWorld());
    const id = await ids(octokit);
    const data = await octokit.graphql<Data>(
      `mutation($input: CreateCommitOnBranchInput!) { createCommitOnBranch(input: $input) {
        commit { oid message messageHeadline parents(first: 1) { nodes { oid } } } ref { name target { oid } } } }`,
      {
        input: {
          branch: { repositoryNameWithOwner: "acme/api", branchName: "main" },
          expectedHeadOid: id.mainHead,
          message: { headline: "Reorganize docs", body: "Two files in, one out." },
          fileChanges: {
            additions: [
              { path: "docs/index.md", contents: btoa("Index\n") },
              { path: "src/app.ts", contents: btoa("export const version = 3;\n") },
            ],
            deletions: [{ path: "docs/guide.md" }],
          },
        },
      },
    );
    const commit = data.createCommitOnBranch.commit;
    expect(commit.message).toBe("Reorganize docs\n\nTwo files in, one out.");
    expect(commit.parents.nodes).toEqual([{ oid: id.mainHead }]);
    expect(data.createCommitOnBranch.ref).toEqual({ name: "main", target: { oid: commit.oid } });
    const branch = (await octokit.repos.getBranch({ owner: "acme", repo: "api", branch: "main" })).data;
    expect(branch.commit.sha).toBe(commit.oid);
    const file = (await octokit.repos.getContent({ owner: "acme", repo: "api", path: "src/app.ts" })).data as { content: string };
    expect(atob(file.content.replace(/\n/g, ""))).toBe("export const version = 3;\n");
    const docs = (await octokit.repos.getContent({ owner: "acme", repo: "api", path: "docs" })).data as { name: string }[];
    expect(docs.map((d) => d.name)).toEqual(["index.md"]);
    const files = (await octokit.repos.getCommit({ owner: "acme", repo: "api", ref: commit.oid })).data.files ?? [];
    expect(files.map((f) => [f.filename, f.status]).sort()).toEqual([
      ["docs/guide.md", "removed"],
      ["docs/index.md", "added"],
      ["src/app.ts", "modified"],
    ]);
    expect((await tapeOf(sandbox)).find((r) => r.operation === "createCommitOnBranch")).toMatchObject({ mutated: true });
  });

  it("refuses a stale expectedHeadOid and writes nothing", async () => {
    const { octokit, sandbox } = await sandboxWith(smallWorld());
    const id = await ids(octokit);
    const before = await stateOf(sandbox);
    const stale = "0".repeat(40);
    const err = await octokit
      .graphql<Data>(`mutation($input: CreateCommitOnBranchInput!) { createCommitOnBranch(input: $input) { commit { oid } } }`, {
        input: {
          branch: { repositoryNameWithOwner: "acme/api", branchName: "main" },
          expectedHeadOid: stale,
          message: { headline: "Never lands" },
          fileChanges: { additions: [{ path: "x.txt", contents: btoa("x") }] },
        },
      })
      .then(
        () => undefined,
        (e: unknown) => e as { errors: Data[]; data: Data },
      );
    if (!err) throw new Error("expected the stale commit to be refused");
    expect(err.errors[0]).toMatchObject({
      type: "STALE_DATA",
      path: ["createCommitOnBranch"],
      message: `Expected branch to point to "${stale}" but it did not. Pull and try again.`,
    });
    expect(err.data).toEqual({ createCommitOnBranch: null });
    expect(await stateOf(sandbox)).toEqual(before);
    expect(id.mainHead).toMatch(/^[0-9a-f]{40}$/);
  });
});

describe("review requests of teams", () => {
  /** smallWorld with acme as an organization whose Backend and Docs teams can read api. */
  function teamWorld() {
    const world = smallWorld() as ReturnType<typeof smallWorld> & { organizations?: unknown[] };
    world.organizations = [
      {
        login: "acme",
        members: ["alice"],
        teams: [
          { name: "Backend", description: "Server side", members: ["alice"], repositories: [{ name: "api", permission: "push" }] },
          { name: "Docs", privacy: "secret", members: ["alice"], repositories: [{ name: "api" }] },
          { name: "Design", members: ["alice"] },
        ],
      },
    ];
    return world;
  }

  it("asks teams by teamIds, answers them as Team in reviewRequests, and REST agrees", async () => {
    const { octokit } = await sandboxWith(teamWorld());
    const id = await ids(octokit);
    const backend = (await octokit.teams.getByName({ org: "acme", team_slug: "backend" })).data;
    const docs = (await octokit.teams.getByName({ org: "acme", team_slug: "docs" })).data;
    const requested = await octokit.graphql<Data>(
      `mutation($id: ID!, $who: [ID!]!, $teams: [ID!]!) { requestReviews(input: { pullRequestId: $id, userIds: $who, teamIds: $teams }) {
        pullRequest { reviewRequests(first: 5) { totalCount nodes { requestedReviewer { __typename
          ... on User { login }
          ... on Team { id databaseId name slug combinedSlug description privacy url organization { login } } } } } } } }`,
      { id: id.pull, who: [id.alice], teams: [backend.node_id, docs.node_id] },
    );
    const nodes = requested.requestReviews.pullRequest.reviewRequests.nodes.map((n: Data) => n.requestedReviewer);
    expect(nodes).toEqual([
      { __typename: "User", login: "alice" },
      {
        __typename: "Team",
        id: backend.node_id,
        databaseId: backend.id,
        name: "Backend",
        slug: "backend",
        combinedSlug: "acme/backend",
        description: "Server side",
        privacy: "VISIBLE",
        url: "https://github.com/orgs/acme/teams/backend",
        organization: { login: "acme" },
      },
      expect.objectContaining({ __typename: "Team", slug: "docs", privacy: "SECRET" }),
    ]);
    const rest = (await octokit.pulls.listRequestedReviewers({ owner: "acme", repo: "api", pull_number: 4 })).data;
    expect(rest.users.map((u) => u.login)).toEqual(["alice"]);
    expect(rest.teams.map((t) => t.slug)).toEqual(["backend", "docs"]);

    // Without union the set is replaced; with union it grows. node(id:) answers a team.
    await octokit.graphql(
      `mutation($id: ID!, $teams: [ID!]!) { requestReviews(input: { pullRequestId: $id, teamIds: $teams }) { clientMutationId } }`,
      {
        id: id.pull,
        teams: [docs.node_id],
      },
    );
    const replaced = (await octokit.pulls.listRequestedReviewers({ owner: "acme", repo: "api", pull_number: 4 })).data;
    expect([replaced.users.map((u) => u.login), replaced.teams.map((t) => t.slug)]).toEqual([[], ["docs"]]);
    await octokit.graphql(
      `mutation($id: ID!, $teams: [ID!]!) { requestReviews(input: { pullRequestId: $id, teamIds: $teams, union: true }) { clientMutationId } }`,
      { id: id.pull, teams: [backend.node_id] },
    );
    const grown = (await octokit.pulls.listRequestedReviewers({ owner: "acme", repo: "api", pull_number: 4 })).data;
    expect(grown.teams.map((t) => t.slug)).toEqual(["docs", "backend"]);
    const node = await octokit.graphql<Data>(`query($t: ID!) { node(id: $t) { __typename ... on Team { slug } } }`, { t: docs.node_id });
    expect(node.node).toEqual({ __typename: "Team", slug: "docs" });
  });

  it("refuses a team without access to the repository, in REST's words, and asks nobody", async () => {
    const { octokit } = await sandboxWith(teamWorld());
    const id = await ids(octokit);
    const design = (await octokit.teams.getByName({ org: "acme", team_slug: "design" })).data;
    const refused = await octokit
      .graphql(
        `mutation($id: ID!, $teams: [ID!]!) { requestReviews(input: { pullRequestId: $id, teamIds: $teams }) { clientMutationId } }`,
        {
          id: id.pull,
          teams: [design.node_id],
        },
      )
      .catch((e: { errors: unknown[] }) => e);
    expect(refused).toMatchObject({
      errors: [
        {
          type: "UNPROCESSABLE",
          message:
            "Reviews may only be requested from collaborators. One or more of the users or teams you specified is not a collaborator of the acme/api repository.",
        },
      ],
    });
    const rest = (await octokit.pulls.listRequestedReviewers({ owner: "acme", repo: "api", pull_number: 4 })).data;
    expect(rest.teams).toEqual([]);
  });
});
