// Creating, changing and deleting an organization's teams through @octokit/rest.
import { describe, expect, it } from "vitest";
import { failure, sandboxWith, smallWorld, stateOf } from "./fixtures";

/** smallWorld with acme as an organization holding one team, Backend. */
function orgWorld() {
  const world = smallWorld() as ReturnType<typeof smallWorld> & { organizations?: unknown[] };
  world.organizations = [{ login: "acme", members: ["alice"], teams: [{ name: "Backend", members: ["bob"] }] }];
  return world;
}

describe("creating a team", () => {
  it("creates a secret team with the creator as maintainer, its maintainers and repositories, and exports it", async () => {
    const { octokit, sandbox } = await sandboxWith(orgWorld());
    const created = await octokit.teams.create({
      org: "acme",
      name: "Docs Writers",
      description: "Keep the guides current",
      maintainers: ["alice"],
      repo_names: ["acme/api"],
    });
    expect(created.status).toBe(201);
    expect(created.data).toMatchObject({
      name: "Docs Writers",
      slug: "docs-writers",
      description: "Keep the guides current",
      privacy: "secret",
      parent: null,
      members_count: 2,
      repos_count: 1,
      organization: { login: "acme" },
    });
    const maintainers = await octokit.teams.listMembersInOrg({ org: "acme", team_slug: "docs-writers", role: "maintainer" });
    expect(maintainers.data.map((u) => u.login).sort()).toEqual(["alice", "octo"]);
    const repos = await octokit.teams.listReposInOrg({ org: "acme", team_slug: "docs-writers" });
    expect(repos.data.map((r) => [r.full_name, r.role_name])).toEqual([["acme/api", "read"]]);
    const state = await stateOf<{ organizations: { teams: { slug: string; maintainers: string[] }[] }[] }>(sandbox);
    expect(state.organizations[0].teams.map((t) => t.slug)).toEqual(["backend", "docs-writers"]);
  });

  it("nests a team under a parent as closed, and refuses a taken name, an unknown parent and a secret nested team", async () => {
    const { octokit } = await sandboxWith(orgWorld());
    const { data: backend } = await octokit.teams.getByName({ org: "acme", team_slug: "backend" });
    const child = await octokit.teams.create({ org: "acme", name: "API Reviewers", parent_team_id: backend.id });
    expect(child.data).toMatchObject({ slug: "api-reviewers", privacy: "closed", parent: { slug: "backend" } });

    const taken = await failure(octokit.teams.create({ org: "acme", name: "backend" }));
    expect(taken.status).toBe(422);
    expect(taken.response.data.errors).toEqual([
      { resource: "Team", field: "name", code: "already_exists", message: "Name must be unique for this org" },
    ]);
    const orphan = await failure(octokit.teams.create({ org: "acme", name: "Orphans", parent_team_id: 987654 }));
    expect(orphan.status).toBe(422);
    expect(orphan.response.data.errors?.[0]).toMatchObject({ field: "parent_team_id" });
    const secret = await failure(octokit.teams.create({ org: "acme", name: "Hidden", privacy: "secret", parent_team_slug: "backend" }));
    expect(secret.response.data.errors?.[0]).toMatchObject({ field: "privacy" });
    expect((await failure(octokit.teams.create({ org: "nobody", name: "X" }))).status).toBe(404);
    const { data: teams } = await octokit.teams.list({ org: "acme" });
    expect(teams.map((t) => t.slug).sort()).toEqual(["api-reviewers", "backend"]);
  });
});

describe("changing and deleting a team", () => {
  it("renames a team (its slug and its children's parent follow) and un-nests it with parent_team_id null", async () => {
    const { octokit } = await sandboxWith(orgWorld());
    await octokit.teams.create({ org: "acme", name: "Child", parent_team_slug: "backend" });
    const renamed = await octokit.teams.updateInOrg({ org: "acme", team_slug: "backend", name: "Server Side", description: "APIs" });
    expect(renamed.data).toMatchObject({ name: "Server Side", slug: "server-side", description: "APIs" });
    expect((await failure(octokit.teams.getByName({ org: "acme", team_slug: "backend" }))).status).toBe(404);
    expect((await octokit.teams.getByName({ org: "acme", team_slug: "child" })).data.parent).toMatchObject({ slug: "server-side" });
    const loop = await failure(octokit.teams.updateInOrg({ org: "acme", team_slug: "server-side", parent_team_slug: "child" }));
    expect(loop.status).toBe(422);
    const unnested = await octokit.teams.updateInOrg({ org: "acme", team_slug: "child", parent_team_id: null });
    expect(unnested.data.parent).toBeNull();
  });

  it("deletes a team with the teams nested under it", async () => {
    const { octokit } = await sandboxWith(orgWorld());
    await octokit.teams.create({ org: "acme", name: "Child", parent_team_slug: "backend" });
    const deleted = await octokit.teams.deleteInOrg({ org: "acme", team_slug: "backend" });
    expect(deleted.status).toBe(204);
    expect((await octokit.teams.list({ org: "acme" })).data).toEqual([]);
    expect((await failure(octokit.teams.deleteInOrg({ org: "acme", team_slug: "backend" }))).status).toBe(404);
  });
});

describe("asking teams to review a pull request", () => {
  it("adds a team with access to requested_teams, lists it, records the event, and withdraws it", async () => {
    const { octokit } = await sandboxWith(orgWorld());
    await octokit.teams.addOrUpdateRepoPermissionsInOrg({
      org: "acme",
      team_slug: "backend",
      owner: "acme",
      repo: "api",
      permission: "push",
    });
    const asked = await octokit.pulls.requestReviewers({ owner: "acme", repo: "api", pull_number: 4, team_reviewers: ["backend"] });
    expect(asked.status).toBe(201);
    expect(asked.data.requested_teams).toEqual([expect.objectContaining({ slug: "backend", name: "Backend", privacy: "closed" })]);
    const listed = await octokit.pulls.listRequestedReviewers({ owner: "acme", repo: "api", pull_number: 4 });
    expect(listed.data.teams.map((t) => t.slug)).toEqual(["backend"]);
    // Asking again asks once.
    await octokit.pulls.requestReviewers({ owner: "acme", repo: "api", pull_number: 4, team_reviewers: ["backend"] });
    const events = await octokit.issues.listEvents({ owner: "acme", repo: "api", issue_number: 4 });
    const requested = events.data.filter((e) => e.event === "review_requested");
    expect(requested).toHaveLength(1);
    expect(requested[0]).toMatchObject({ requested_team: { slug: "backend" }, review_requester: { login: "octo" } });

    const removed = await octokit.pulls.removeRequestedReviewers({
      owner: "acme",
      repo: "api",
      pull_number: 4,
      reviewers: [],
      team_reviewers: ["backend"],
    });
    expect(removed.data.requested_teams).toEqual([]);
  });

  it("refuses a team without access to the repository, or none of the owner's, changing nothing", async () => {
    const { octokit } = await sandboxWith(orgWorld());
    const refused = await failure(
      octokit.pulls.requestReviewers({ owner: "acme", repo: "api", pull_number: 4, team_reviewers: ["backend"] }),
    );
    expect(refused.status).toBe(422);
    expect(refused.response.data.message).toMatch(/^Reviews may only be requested from collaborators\./);
    const unknown = await failure(
      octokit.pulls.requestReviewers({ owner: "acme", repo: "api", pull_number: 4, reviewers: ["alice"], team_reviewers: ["nobody"] }),
    );
    expect(unknown.status).toBe(422);
    const { data } = await octokit.pulls.get({ owner: "acme", repo: "api", pull_number: 4 });
    expect(data.requested_teams).toEqual([]);
    expect(data.requested_reviewers).toEqual([]);
  });

  it("drops a deleted team's request", async () => {
    const { octokit } = await sandboxWith(orgWorld());
    await octokit.teams.addOrUpdateRepoPermissionsInOrg({ org: "acme", team_slug: "backend", owner: "acme", repo: "api" });
    await octokit.pulls.requestReviewers({ owner: "acme", repo: "api", pull_number: 4, team_reviewers: ["backend"] });
    await octokit.teams.deleteInOrg({ org: "acme", team_slug: "backend" });
    expect((await octokit.pulls.get({ owner: "acme", repo: "api", pull_number: 4 })).data.requested_teams).toEqual([]);
  });
});
