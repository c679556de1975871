// Moving an issue between repositories of one owner through GraphQL's transferIssue (GitHub's
// REST API has no transfer), read back through @octokit/rest; the old number answers 301.
import { describe, expect, it } from "vitest";
import { twinFetch } from "../helpers";
import { sandboxWith, smallWorld } from "./fixtures";

type Data = { readonly [key: string]: Data } & readonly Data[] & string;

/** smallWorld plus a second acme repository with a "bug" label and two issues of its own, and another owner's repository. */
function twoRepoWorld() {
  const world = smallWorld() as { repositories: Record<string, unknown>[] };
  const main = { name: "main", files: [{ path: "README.md", content: "hi\n" }] };
  world.repositories.push(
    {
      owner: "acme",
      name: "web",
      labels: [{ name: "bug", color: "d73a4a" }],
      branches: [main],
      issues: [
        { number: 1, title: "One", user: "alice" },
        { number: 2, title: "Two", user: "alice" },
      ],
    },
    { owner: "octo", name: "notes", branches: [main] },
  );
  return world;
}

const TRANSFER = `mutation($issue: ID!, $repo: ID!) {
  transferIssue(input: { issueId: $issue, repositoryId: $repo, clientMutationId: "t1" }) {
    clientMutationId
    issue { number title url repository { nameWithOwner } milestone { number } labels(first: 10) { nodes { name } } }
  }
}`;

async function ids(octokit: Awaited<ReturnType<typeof sandboxWith>>["octokit"]) {
  const data = await octokit.graphql<Data>(`{
    api: repository(owner: "acme", name: "api") { issue(number: 1) { id } pullRequest(number: 4) { id } }
    web: repository(owner: "acme", name: "web") { id }
    notes: repository(owner: "octo", name: "notes") { id }
  }`);
  return { issue: data.api.issue.id, pull: data.api.pullRequest.id, web: data.web.id, notes: data.notes.id };
}

describe("transferIssue moves an issue to another repository of the same owner", () => {
  it("gives it the target's next number, keeps comments, assignees and labels the target has, and drops the milestone", async () => {
    const { octokit } = await sandboxWith(twoRepoWorld());
    const id = await ids(octokit);
    const data = await octokit.graphql<Data>(TRANSFER, { issue: id.issue, repo: id.web });
    expect(data.transferIssue.clientMutationId).toBe("t1");
    expect(data.transferIssue.issue).toMatchObject({
      number: 3,
      title: "Requests time out",
      url: "https://github.com/acme/web/issues/3",
      repository: { nameWithOwner: "acme/web" },
      milestone: null,
      labels: { nodes: [{ name: "bug" }] },
    });
    const moved = await octokit.issues.get({ owner: "acme", repo: "web", issue_number: 3 });
    expect(moved.data).toMatchObject({ title: "Requests time out", milestone: null, assignees: [{ login: "bob" }] });
    expect((await octokit.issues.listComments({ owner: "acme", repo: "web", issue_number: 3 })).data).toHaveLength(0);
    const apiOpen = (await octokit.issues.listForRepo({ owner: "acme", repo: "api" })).data.map((i) => i.number);
    expect(apiOpen).not.toContain(1);
  });

  it("moves the issue's comments with it", async () => {
    const { octokit } = await sandboxWith(twoRepoWorld());
    await octokit.issues.createComment({ owner: "acme", repo: "api", issue_number: 2, body: "Still relevant" });
    const data = await octokit.graphql<Data>(`{ repository(owner: "acme", name: "api") { issue(number: 2) { id } } }`);
    const { web } = await ids(octokit);
    await octokit.graphql(TRANSFER, { issue: data.repository.issue.id, repo: web });
    const comments = await octokit.issues.listComments({ owner: "acme", repo: "web", issue_number: 3 });
    expect(comments.data.map((c) => c.body)).toEqual(["Still relevant"]);
  });

  it("refuses another owner's repository and pull requests, changing nothing", async () => {
    const { octokit } = await sandboxWith(twoRepoWorld());
    const id = await ids(octokit);
    await expect(octokit.graphql(TRANSFER, { issue: id.issue, repo: id.notes })).rejects.toThrow(/same owner/);
    await expect(octokit.graphql(TRANSFER, { issue: id.pull, repo: id.web })).rejects.toThrow();
    expect((await octokit.issues.get({ owner: "acme", repo: "api", issue_number: 1 })).data.title).toBe("Requests time out");
  });
});

describe("a transferred issue's old number answers 301 Moved Permanently to where it is now", () => {
  it("answers the old number 301 with GitHub's body and a Location in the /repositories form", async () => {
    const { octokit, sandbox } = await sandboxWith(twoRepoWorld());
    const id = await ids(octokit);
    await octokit.graphql(TRANSFER, { issue: id.issue, repo: id.web });
    const { data: web } = await octokit.repos.get({ owner: "acme", repo: "web" });
    const raw = await twinFetch(sandbox, "/repos/acme/api/issues/1", { redirect: "manual" });
    expect(raw.status).toBe(301);
    const location = raw.headers.get("location") ?? "";
    expect(location).toMatch(new RegExp(`/repositories/${web.id}/issues/3$`));
    expect(await raw.json()).toEqual({
      message: "Moved Permanently",
      url: location,
      documentation_url: "https://docs.github.com/rest/guides/best-practices-for-using-the-rest-api#follow-redirects",
    });
    // The rest of the path and the query follow the issue.
    const labels = await twinFetch(sandbox, "/repos/acme/api/issues/1/labels?per_page=5", { redirect: "manual" });
    expect(labels.status).toBe(301);
    expect(labels.headers.get("location")).toMatch(new RegExp(`/repositories/${web.id}/issues/3/labels\\?per_page=5$`));
    // A number that never existed is still 404.
    expect((await twinFetch(sandbox, "/repos/acme/api/issues/99", { redirect: "manual" })).status).toBe(404);
  });

  it("lets Octokit follow the redirect to the moved issue", async () => {
    const { octokit } = await sandboxWith(twoRepoWorld());
    const id = await ids(octokit);
    await octokit.graphql(TRANSFER, { issue: id.issue, repo: id.web });
    const followed = await octokit.issues.get({ owner: "acme", repo: "api", issue_number: 1 });
    expect(followed.status).toBe(200);
    expect(followed.data).toMatchObject({
      number: 3,
      title: "Requests time out",
      repository_url: expect.stringMatching(/\/repos\/acme\/web$/),
    });
    const labels = await octokit.issues.listLabelsOnIssue({ owner: "acme", repo: "api", issue_number: 1 });
    expect(labels.data.map((l) => l.name)).toEqual(["bug"]);
  });
});
