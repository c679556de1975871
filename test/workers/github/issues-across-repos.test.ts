import { describe, expect, it } from "vitest";
import { failure, sandboxWith } from "./fixtures";

/** Two organizations' repositories and the agent "octo", assigned, mentioned and authoring across them. */
function crossRepoWorld() {
  const main = { name: "main", files: [{ path: "README.md", content: "hi\n" }] };
  return {
    authenticated_user: "octo",
    users: [{ login: "acme", type: "Organization" }, { login: "globex", type: "Organization" }, { login: "octo" }, { login: "alice" }],
    repositories: [
      {
        owner: "acme",
        name: "api",
        collaborators: ["octo", "alice"],
        labels: [{ name: "bug", color: "d73a4a" }],
        branches: [main],
        issues: [
          { number: 1, title: "Timeouts", user: "alice", assignees: ["octo"], labels: ["bug"], created_at: "2026-01-01T00:00:00Z" },
          { number: 2, title: "Docs", user: "octo", created_at: "2026-01-02T00:00:00Z" },
          { number: 3, title: "Ping", body: "cc @octo", user: "alice", created_at: "2026-01-03T00:00:00Z" },
          { number: 4, title: "Old", user: "alice", assignees: ["octo"], state: "closed", created_at: "2026-01-04T00:00:00Z" },
        ],
      },
      {
        owner: "globex",
        name: "web",
        collaborators: ["octo", "alice"],
        labels: [{ name: "Bug", color: "d73a4a" }],
        branches: [main],
        issues: [
          { number: 1, title: "Layout", user: "alice", assignees: ["octo"], labels: ["Bug"], created_at: "2026-01-05T00:00:00Z" },
          { number: 2, title: "Other", user: "alice", created_at: "2026-01-06T00:00:00Z", comments: [{ user: "octo", body: "On it" }] },
        ],
      },
    ],
  };
}

const titles = (issues: { title: string }[]) => issues.map((i) => i.title);

describe("GET /issues lists the authenticated user's issues across repositories", () => {
  it("shows open issues assigned to the user by default, newest first, each with its repository", async () => {
    const { octokit } = await sandboxWith(crossRepoWorld());
    const { data } = await octokit.issues.list();
    expect(titles(data)).toEqual(["Layout", "Timeouts"]);
    expect(data[0].repository?.full_name).toBe("globex/web");
    expect(data[1]).toMatchObject({ number: 1, repository: { full_name: "acme/api" }, html_url: "https://github.com/acme/api/issues/1" });
  });

  it("filters by created, mentioned, subscribed and all, and by state, labels, sort and direction", async () => {
    const { octokit } = await sandboxWith(crossRepoWorld());
    expect(titles((await octokit.issues.list({ filter: "created" })).data)).toEqual(["Docs"]);
    expect(titles((await octokit.issues.list({ filter: "mentioned" })).data)).toEqual(["Ping"]);
    expect(titles((await octokit.issues.list({ filter: "subscribed" })).data)).toEqual(["Other", "Layout", "Ping", "Docs", "Timeouts"]);
    expect((await octokit.issues.list({ filter: "all", state: "all" })).data).toHaveLength(6);
    expect(titles((await octokit.issues.list({ state: "closed" })).data)).toEqual(["Old"]);
    expect(titles((await octokit.issues.list({ filter: "all", labels: "bug" })).data)).toEqual(["Layout", "Timeouts"]);
    expect(titles((await octokit.issues.list({ direction: "asc" })).data)).toEqual(["Timeouts", "Layout"]);
  });

  it("pages with per_page and a Link header that octokit.paginate follows", async () => {
    const { octokit } = await sandboxWith(crossRepoWorld());
    const first = await octokit.issues.list({ filter: "all", per_page: 2 });
    expect(first.data).toHaveLength(2);
    expect(first.headers.link).toContain('rel="next"');
    const all = await octokit.paginate(octokit.issues.list, { filter: "all", per_page: 2 });
    expect(all).toHaveLength(5);
  });
});

describe("GET /user/issues and GET /orgs/{org}/issues answer the same lists, scoped", () => {
  it("lists the user's issues, and an organization's only", async () => {
    const { octokit } = await sandboxWith(crossRepoWorld());
    expect(titles((await octokit.issues.listForAuthenticatedUser({ filter: "all" })).data)).toHaveLength(5);
    const org = await octokit.issues.listForOrg({ org: "acme", filter: "all", state: "all" });
    expect(org.data.every((i) => i.repository?.full_name === "acme/api")).toBe(true);
    expect(titles(org.data)).toEqual(["Old", "Ping", "Docs", "Timeouts"]);
    expect((await failure(octokit.issues.listForOrg({ org: "octo" }))).status).toBe(404);
  });
});
