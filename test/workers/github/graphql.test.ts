// The GitHub twin's GraphQL API through @octokit/rest's `octokit.graphql`, over the same world the
// REST routes serve: reads of the viewer, users, organizations, repositories and what hangs off
// them, global ids shared with REST's `node_id`, search, connections and the tape.
import { describe, expect, it } from "vitest";
import { sandboxWith, smallWorld, tapeOf } from "./fixtures";

/**
 * A GraphQL answer as these tests read it: any path may be followed (an object, a list or a
 * scalar), and the assertions check what is there.
 */
type Data = { readonly [key: string]: Data } & readonly Data[] & string;

describe("reads the world through GraphQL, with GitHub's names", () => {
  it("answers the viewer, a user and an organization", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const data = await octokit.graphql<Data>(`{
      viewer { login name isViewer }
      user(login: "alice") { login name email url avatarUrl(size: 40) }
      organization(login: "acme") { login name url repository(name: "api") { nameWithOwner } }
    }`);
    expect(data.viewer).toEqual({ login: "octo", name: "Octo Agent", isViewer: true });
    expect(data.user).toMatchObject({ login: "alice", name: "Alice Smith", email: "alice@example.com", url: "https://github.com/alice" });
    expect(data.user.avatarUrl).toMatch(/^https:\/\/avatars\.githubusercontent\.com\/u\/\d+\?v=4&s=40$/);
    expect(data.organization).toEqual({
      login: "acme",
      name: "Acme Inc.",
      url: "https://github.com/acme",
      repository: { nameWithOwner: "acme/api" },
    });
  });

  it("lists a repository's issues oldest first with labels, assignees, milestone and comments", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const data = await octokit.graphql<Data>(
      `query($owner: String!, $name: String!) {
        repository(owner: $owner, name: $name) {
          nameWithOwner isPrivate defaultBranchRef { name target { ... on Commit { oid messageHeadline } } }
          issues(first: 10, states: [OPEN, CLOSED]) {
            totalCount
            nodes {
              number title state author { login }
              labels(first: 5) { nodes { name color } }
              assignees(first: 5) { nodes { login } }
              milestone { number title state }
              comments(first: 5) { totalCount nodes { body author { login } } }
            }
          }
        }
      }`,
      { owner: "acme", name: "api" },
    );
    const repo = data.repository;
    expect(repo.nameWithOwner).toBe("acme/api");
    expect(repo.defaultBranchRef.name).toBe("main");
    expect(repo.defaultBranchRef.target.oid).toMatch(/^[0-9a-f]{40}$/);
    expect(repo.issues.totalCount).toBe(3);
    expect(repo.issues.nodes.map((i: Data) => i.number)).toEqual([1, 2, 3]);
    expect(repo.issues.nodes[0]).toMatchObject({
      title: "Requests time out",
      state: "OPEN",
      author: { login: "alice" },
      labels: { nodes: [{ name: "bug", color: "d73a4a" }] },
      assignees: { nodes: [{ login: "bob" }] },
      milestone: { number: 1, title: "v1.0", state: "OPEN" },
    });
    expect(repo.issues.nodes[2]).toMatchObject({
      state: "CLOSED",
      comments: { totalCount: 1, nodes: [{ body: "Confirmed fixed.", author: { login: "bob" } }] },
    });
  });

  it("reads one issue and one pull request by number", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const data = await octokit.graphql<Data>(`{
      repository(owner: "acme", name: "api") {
        issue(number: 2) { title body url }
        pullRequest(number: 4) { title state isDraft merged headRefName baseRefName headRefOid mergeable url }
        pullRequests(first: 5, states: OPEN) { totalCount nodes { number } }
      }
    }`);
    expect(data.repository.issue).toEqual({
      title: "Document pagination",
      body: "The Link header is undocumented.",
      url: "https://github.com/acme/api/issues/2",
    });
    expect(data.repository.pullRequest).toMatchObject({
      title: "Raise the timeout",
      state: "OPEN",
      isDraft: false,
      merged: false,
      headRefName: "feature",
      baseRefName: "main",
      mergeable: "MERGEABLE",
      url: "https://github.com/acme/api/pull/4",
    });
    expect(data.repository.pullRequest.headRefOid).toMatch(/^[0-9a-f]{40}$/);
    expect(data.repository.pullRequests).toEqual({ totalCount: 1, nodes: [{ number: 4 }] });
  });

  it("lists labels, milestones and branches", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const data = await octokit.graphql<Data>(`{
      repository(owner: "acme", name: "api") {
        labels(first: 10) { totalCount nodes { name } }
        milestones(first: 10, states: [OPEN]) { nodes { number title } }
        refs(refPrefix: "refs/heads/", first: 10) { totalCount nodes { name prefix } }
      }
    }`);
    expect(data.repository.labels).toEqual({ totalCount: 2, nodes: [{ name: "bug" }, { name: "enhancement" }] });
    expect(data.repository.milestones.nodes).toEqual([{ number: 1, title: "v1.0" }]);
    expect(data.repository.refs).toEqual({
      totalCount: 2,
      nodes: [
        { name: "feature", prefix: "refs/heads/" },
        { name: "main", prefix: "refs/heads/" },
      ],
    });
  });
});

describe("reads files through object(expression:)", () => {
  it("reads a blob, a tree and a commit", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const data = await octokit.graphql<Data>(`{
      repository(owner: "acme", name: "api") {
        file: object(expression: "main:src/app.ts") { ... on Blob { text byteSize isBinary oid } }
        root: object(expression: "HEAD:") { ... on Tree { entries { name type path mode } } }
        dir: object(expression: "feature:src") { ... on Tree { files: entries { name path extension object { ... on Blob { text } } } } }
        head: object(expression: "feature") { ... on Commit { oid tree { oid } parents(first: 2) { totalCount } } }
        missing: object(expression: "main:nope.txt") { oid }
      }
    }`);
    const repo = data.repository;
    expect(repo.file.text).toBe("export const version = 1;\nexport const timeoutMs = 10_000;\n");
    expect(repo.file.byteSize).toBe(repo.file.text.length);
    expect(repo.file.isBinary).toBe(false);
    expect(repo.root.entries).toEqual([
      { name: "README.md", type: "blob", path: "README.md", mode: 33188 },
      { name: "docs", type: "tree", path: "docs", mode: 16384 },
      { name: "src", type: "tree", path: "src", mode: 16384 },
    ]);
    expect(repo.dir.files.map((e: Data) => e.path)).toEqual(["src/app.ts", "src/new.ts"]);
    expect(repo.dir.files[1]).toMatchObject({ name: "new.ts", extension: ".ts", object: { text: "export {};\n" } });
    expect(repo.head.oid).toMatch(/^[0-9a-f]{40}$/);
    expect(repo.missing).toBeNull();
  });

  it("gives the same blob sha as the REST contents API", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const data = await octokit.graphql<Data>(`{ repository(owner: "acme", name: "api") { object(expression: "main:README.md") { oid } } }`);
    const rest = await octokit.repos.getContent({ owner: "acme", repo: "api", path: "README.md" });
    expect(data.repository.object.oid).toBe((rest.data as { sha: string }).sha);
  });
});

describe("global ids are REST's node_id", () => {
  it("resolves node(id:) and nodes(ids:) from REST's node_id", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const issue = (await octokit.issues.get({ owner: "acme", repo: "api", issue_number: 1 })).data;
    const pull = (await octokit.pulls.get({ owner: "acme", repo: "api", pull_number: 4 })).data;
    const repo = (await octokit.repos.get({ owner: "acme", repo: "api" })).data;
    const label = (await octokit.issues.getLabel({ owner: "acme", repo: "api", name: "bug" })).data;
    const data = await octokit.graphql<Data>(
      `query($issue: ID!, $ids: [ID!]!) {
        node(id: $issue) { __typename id ... on Issue { number } }
        nodes(ids: $ids) { __typename id ... on PullRequest { number } ... on Repository { name } ... on Label { name } }
      }`,
      { issue: issue.node_id, ids: [pull.node_id, repo.node_id, label.node_id] },
    );
    expect(data.node).toEqual({ __typename: "Issue", id: issue.node_id, number: 1 });
    expect(data.nodes).toEqual([
      { __typename: "PullRequest", id: pull.node_id, number: 4 },
      { __typename: "Repository", id: repo.node_id, name: "api" },
      { __typename: "Label", id: label.node_id, name: "bug" },
    ]);
  });
});

describe("search finds issues with the REST search's qualifiers", () => {
  it("searches issues and pull requests", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const data = await octokit.graphql<Data>(`{
      bugs: search(query: "repo:acme/api is:issue label:bug", type: ISSUE, first: 10) {
        issueCount nodes { ... on Issue { number } }
      }
      pulls: search(query: "repo:acme/api is:pr is:open", type: ISSUE, first: 10) {
        issueCount edges { cursor node { __typename ... on PullRequest { number } } }
      }
    }`);
    expect(data.bugs.issueCount).toBe(2);
    expect(data.bugs.nodes.map((n: Data) => n.number).sort()).toEqual([1, 3]);
    expect(data.pulls.issueCount).toBe(1);
    expect(data.pulls.edges[0].node).toEqual({ __typename: "PullRequest", number: 4 });
  });

  it("answers the repository switches and pull-request fields the gh tool asks for", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    await octokit.repos.update({ owner: "acme", repo: "api", has_wiki: false, allow_rebase_merge: false });
    const data = await octokit.graphql<Data>(`{ repository(owner: "acme", name: "api") {
      hasIssuesEnabled hasWikiEnabled mergeCommitAllowed rebaseMergeAllowed squashMergeAllowed viewerPermission parent { id }
      pullRequest(number: 4) { additions deletions changedFiles isCrossRepository maintainerCanModify headRepository { nameWithOwner } headRepositoryOwner { login } }
    } }`);
    const files = (await octokit.pulls.get({ owner: "acme", repo: "api", pull_number: 4 })).data;
    expect(data.repository).toEqual({
      hasIssuesEnabled: true,
      hasWikiEnabled: false,
      mergeCommitAllowed: true,
      rebaseMergeAllowed: false,
      squashMergeAllowed: true,
      viewerPermission: "ADMIN",
      parent: null,
      pullRequest: {
        additions: files.additions,
        deletions: files.deletions,
        changedFiles: files.changed_files,
        isCrossRepository: false,
        maintainerCanModify: false,
        headRepository: { nameWithOwner: "acme/api" },
        headRepositoryOwner: { login: "acme" },
      },
    });
  });

  it("filters a repository's issues with filterBy as gh issue list asks", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const numbers = async (filterBy: Record<string, unknown>) => {
      const data = await octokit.graphql<Data>(
        `query($f: IssueFilters) { repository(owner: "acme", name: "api") { issues(first: 10, filterBy: $f) { totalCount nodes { number } } } }`,
        { f: filterBy },
      );
      return data.repository.issues.nodes.map((n: Data) => n.number);
    };
    expect(await numbers({ assignee: "bob" })).toEqual([1]);
    expect(await numbers({ assignee: "*" })).toEqual([1]);
    expect(await numbers({ createdBy: "alice", states: ["CLOSED"] })).toEqual([3]);
    expect(await numbers({ labels: ["bug"], states: ["OPEN"] })).toEqual([1]);
    expect(await numbers({ mentioned: "alice" })).toEqual([1]);
    expect(await numbers({ milestoneNumber: "1" })).toEqual([1]);
    expect(await numbers({ milestone: "none" })).toEqual([2, 3]);
    expect(await numbers({ since: "2030-01-01T00:00:00Z" })).toEqual([]);
  });

  it("searches repositories and users as REST's search does", async () => {
    const { octokit } = await sandboxWith(smallWorld({}));
    const data = await octokit.graphql<Data>(`{
      repos: search(query: "org:acme api", type: REPOSITORY, first: 10) {
        repositoryCount issueCount userCount nodes { __typename ... on Repository { nameWithOwner } }
      }
      people: search(query: "alice", type: USER, first: 10) {
        userCount repositoryCount nodes { __typename ... on User { login name } }
      }
      orgs: search(query: "acme type:org", type: USER, first: 10) {
        userCount nodes { __typename ... on Organization { login } }
      }
      none: search(query: "no-such-thing-anywhere", type: REPOSITORY, first: 10) { repositoryCount nodes { __typename } }
    }`);
    expect(data.repos).toEqual({
      repositoryCount: 1,
      issueCount: 0,
      userCount: 0,
      nodes: [{ __typename: "Repository", nameWithOwner: "acme/api" }],
    });
    expect(data.people).toEqual({ userCount: 1, repositoryCount: 0, nodes: [{ __typename: "User", login: "alice", name: "Alice Smith" }] });
    expect(data.orgs).toEqual({ userCount: 1, nodes: [{ __typename: "Organization", login: "acme" }] });
    expect(data.none).toEqual({ repositoryCount: 0, nodes: [] });
    // The same answers as REST's search endpoints.
    expect((await octokit.search.repos({ q: "org:acme api" })).data.items.map((r) => r.full_name)).toEqual(["acme/api"]);
    expect((await octokit.search.users({ q: "alice" })).data.items.map((u) => u.login)).toEqual(["alice"]);
  });
});

describe("connections page with first/after/last/before", () => {
  it("walks forward and backward with cursors and pageInfo", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const page = (args: string) =>
      octokit.graphql<Data>(`{ repository(owner: "acme", name: "api") { issues(${args}) {
        totalCount nodes { number } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } } }`);
    const first = (await page("first: 2")).repository.issues;
    expect(first.nodes).toEqual([{ number: 1 }, { number: 2 }]);
    expect(first.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    const second = (await page(`first: 2, after: "${first.pageInfo.endCursor}"`)).repository.issues;
    expect(second.nodes).toEqual([{ number: 3 }]);
    expect(second.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    const last = (await page("last: 2")).repository.issues;
    expect(last.nodes).toEqual([{ number: 2 }, { number: 3 }]);
    const before = (await page(`last: 5, before: "${last.pageInfo.startCursor}"`)).repository.issues;
    expect(before.nodes).toEqual([{ number: 1 }]);
    expect(before.totalCount).toBe(3);
  });
});

describe("the tape names the GraphQL operation", () => {
  it("records the root fields selected, with the graphql transport", async () => {
    const { octokit, sandbox } = await sandboxWith(smallWorld());
    await octokit.graphql(`query Mine { viewer { login } repository(owner: "acme", name: "api") { name } }`);
    const tape = await tapeOf(sandbox);
    const row = tape.at(-1);
    expect(row).toMatchObject({ method: "POST", path: "/graphql", operation: "viewer,repository", status: 200, mutated: false });
    expect((row as unknown as { transport: string }).transport).toBe("graphql");
  });
});
