// Stars through @octokit/rest: star, unstar, check, the starred list and a repository's stargazers.
import { describe, expect, it } from "vitest";
import { failure, sandboxWith, smallWorld } from "./fixtures";
import { inWorld } from "./world";

const repo = { owner: "acme", repo: "api" };

/** smallWorld plus a second repository, so lists have more than one entry. */
const twoRepos = () => {
  const world = smallWorld();
  return { ...world, repositories: [...world.repositories, { owner: "alice", name: "dotfiles" }] };
};

describe("starring a repository", () => {
  it("stars, checks (204), lists and unstars (then 404), keeping stargazers_count in step", async () => {
    const { octokit } = await sandboxWith(twoRepos());
    expect((await failure(octokit.activity.checkRepoIsStarredByAuthenticatedUser(repo))).status).toBe(404);
    expect((await octokit.activity.starRepoForAuthenticatedUser(repo)).status).toBe(204);
    // Starring again changes nothing.
    await octokit.activity.starRepoForAuthenticatedUser(repo);
    expect((await octokit.activity.checkRepoIsStarredByAuthenticatedUser(repo)).status).toBe(204);
    expect((await octokit.repos.get(repo)).data).toMatchObject({ stargazers_count: 1, watchers_count: 1 });
    await octokit.activity.starRepoForAuthenticatedUser({ owner: "alice", repo: "dotfiles" });
    const starred = await octokit.activity.listReposStarredByAuthenticatedUser({ direction: "asc" });
    expect(starred.data.map((r) => r.full_name)).toEqual(["acme/api", "alice/dotfiles"]);
    expect((await octokit.activity.unstarRepoForAuthenticatedUser(repo)).status).toBe(204);
    await octokit.activity.unstarRepoForAuthenticatedUser(repo);
    expect((await failure(octokit.activity.checkRepoIsStarredByAuthenticatedUser(repo))).status).toBe(404);
    expect((await octokit.repos.get(repo)).data.stargazers_count).toBe(0);
    expect((await octokit.activity.listReposStarredByAuthenticatedUser()).data.map((r) => r.full_name)).toEqual(["alice/dotfiles"]);
  });

  it("answers 404 for a repository that does not exist", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    expect((await failure(octokit.activity.starRepoForAuthenticatedUser({ owner: "acme", repo: "nope" }))).status).toBe(404);
    expect((await failure(octokit.activity.unstarRepoForAuthenticatedUser({ owner: "acme", repo: "nope" }))).status).toBe(404);
  });
});

describe("stargazers and starred lists", () => {
  it("lists a repository's stargazers, with the star's time under the star media type", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    await octokit.activity.starRepoForAuthenticatedUser(repo);
    const gazers = await octokit.activity.listStargazersForRepo(repo);
    expect(gazers.data.map((u) => ("login" in u ? u.login : u.user?.login))).toEqual(["octo"]);
    const timed = await octokit.request("GET /repos/{owner}/{repo}/stargazers", {
      ...repo,
      headers: { accept: "application/vnd.github.star+json" },
    });
    const first = (timed.data as { starred_at: string; user: { login: string } }[])[0];
    expect(first.user.login).toBe("octo");
    expect(first.starred_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const byUser = await octokit.activity.listReposStarredByUser({ username: "octo" });
    expect(byUser.data.map((r) => ("full_name" in r ? r.full_name : ""))).toEqual(["acme/api"]);
  });
});

describe("the starred list under the star media type", () => {
  // Called on the twin directly: the schema check after each test reads the application/json
  // schema, and GitHub describes this media type's answer ({ starred_at, repo }) apart from it.
  it("pairs each repository with when it was starred", async () => {
    await inWorld(smallWorld(), (w) => {
      expect(w.call("PUT", "/user/starred/acme/api").status).toBe(204);
      const timed = w.call("GET", "/user/starred", { accept: "application/vnd.github.star+json" });
      const [first] = timed.body as { starred_at: string; repo: { full_name: string; stargazers_count: number } }[];
      expect(first.repo).toMatchObject({ full_name: "acme/api", stargazers_count: 1 });
      expect(first.starred_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    });
  });
});
