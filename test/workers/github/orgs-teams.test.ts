import { describe, expect, it } from "vitest";
import { twinFetch } from "../helpers";
import { failure, sandboxWith, smallWorld, stateOf } from "./fixtures";

/** smallWorld (octo acts; acme/api with collaborators alice and bob) plus acme's owners, members and teams. */
function orgWorld() {
  const world = smallWorld() as ReturnType<typeof smallWorld> & { organizations?: unknown[] };
  world.users.push({ login: "carol", name: "Carol King" } as (typeof world.users)[number]);
  world.organizations = [
    {
      login: "acme",
      description: "Acme makes everything",
      admins: ["alice"],
      members: ["carol"],
      teams: [
        {
          name: "Backend",
          description: "API people",
          members: ["bob"],
          maintainers: ["alice"],
          repositories: [{ name: "api", permission: "push" }],
        },
        { name: "Platform Ops", slug: "ops", privacy: "secret", parent: "backend", members: ["octo"] },
      ],
    },
  ];
  return world;
}

describe("organizations answer as GitHub's do", () => {
  it("gets an organization, and 404s a user that is not one", async () => {
    const { octokit } = await sandboxWith(orgWorld());
    const { data } = await octokit.orgs.get({ org: "ACME" });
    expect(data).toMatchObject({
      login: "acme",
      name: "Acme Inc.",
      description: "Acme makes everything",
      type: "Organization",
      public_repos: 1,
    });
    expect((await failure(octokit.orgs.get({ org: "alice" }))).status).toBe(404);
    expect((await failure(octokit.orgs.get({ org: "nobody" }))).status).toBe(404);
  });

  it("lists the authenticated user's organizations and a user's", async () => {
    const { octokit } = await sandboxWith(orgWorld());
    expect((await octokit.orgs.listForAuthenticatedUser()).data.map((o) => o.login)).toEqual(["acme"]);
    expect((await octokit.orgs.listForUser({ username: "carol" })).data.map((o) => o.login)).toEqual(["acme"]);
    expect((await octokit.orgs.listForUser({ username: "mallory" })).data).toEqual([]);
  });

  it("lists members (declared, repository collaborators and the sandbox's user), owners with role=admin", async () => {
    const { octokit } = await sandboxWith(orgWorld());
    const logins = async (role?: "admin" | "member") => (await octokit.orgs.listMembers({ org: "acme", role })).data.map((u) => u.login);
    expect(await logins()).toEqual(["alice", "bob", "carol", "octo"]);
    expect(await logins("admin")).toEqual(["alice", "octo"]);
    expect(await logins("member")).toEqual(["bob", "carol"]);
  });

  it("checks membership with 204 or 404, and reads a membership's role", async () => {
    const { octokit } = await sandboxWith(orgWorld());
    expect((await octokit.orgs.checkMembershipForUser({ org: "acme", username: "carol" })).status).toBe(204);
    expect((await failure(octokit.orgs.checkMembershipForUser({ org: "acme", username: "mallory" }))).status).toBe(404);
    const { data } = await octokit.orgs.getMembershipForUser({ org: "acme", username: "alice" });
    expect(data).toMatchObject({ state: "active", role: "admin", organization: { login: "acme" }, user: { login: "alice" } });
  });
});

describe("teams answer as GitHub's do", () => {
  it("lists teams and gets one by slug with its counts and parent", async () => {
    const { octokit } = await sandboxWith(orgWorld());
    const teams = (await octokit.teams.list({ org: "acme" })).data;
    expect(teams.map((t) => [t.slug, t.parent?.slug ?? null])).toEqual([
      ["backend", null],
      ["ops", "backend"],
    ]);
    const { data } = await octokit.teams.getByName({ org: "acme", team_slug: "backend" });
    expect(data).toMatchObject({
      name: "Backend",
      slug: "backend",
      privacy: "closed",
      members_count: 2,
      repos_count: 1,
      organization: { login: "acme" },
    });
    expect((await failure(octokit.teams.getByName({ org: "acme", team_slug: "nope" }))).status).toBe(404);
  });

  it("lists members by role and reads and writes memberships", async () => {
    const { octokit, sandbox } = await sandboxWith(orgWorld());
    const members = async (role?: "member" | "maintainer") =>
      (await octokit.teams.listMembersInOrg({ org: "acme", team_slug: "backend", role })).data.map((u) => u.login);
    expect(await members()).toEqual(["alice", "bob"]);
    expect(await members("maintainer")).toEqual(["alice"]);
    const added = await octokit.teams.addOrUpdateMembershipForUserInOrg({
      org: "acme",
      team_slug: "backend",
      username: "mallory",
      role: "maintainer",
    });
    expect(added.data).toMatchObject({ role: "maintainer", state: "active" });
    expect(await members("maintainer")).toEqual(["alice", "mallory"]);
    // Joining a team makes the user a member of its organization.
    expect((await octokit.orgs.checkMembershipForUser({ org: "acme", username: "mallory" })).status).toBe(204);
    expect((await octokit.teams.getMembershipForUserInOrg({ org: "acme", team_slug: "backend", username: "bob" })).data.role).toBe(
      "member",
    );
    await octokit.teams.removeMembershipForUserInOrg({ org: "acme", team_slug: "backend", username: "bob" });
    expect(await members()).toEqual(["alice", "mallory"]);
    expect((await failure(octokit.teams.getMembershipForUserInOrg({ org: "acme", team_slug: "backend", username: "bob" }))).status).toBe(
      404,
    );
    const state = await stateOf<{
      organizations: { members: string[]; teams: { slug: string; members: string[]; maintainers: string[] }[] }[];
    }>(sandbox);
    expect(state.organizations[0].members).toEqual(["carol", "mallory"]);
    expect(state.organizations[0].teams[0]).toMatchObject({ slug: "backend", members: [], maintainers: ["alice", "mallory"] });
  });

  it("grants repositories with a permission, checks it, and lists a repository's teams", async () => {
    const { octokit, sandbox } = await sandboxWith(orgWorld());
    const repos = (await octokit.teams.listReposInOrg({ org: "acme", team_slug: "backend" })).data;
    expect(repos.map((r) => [r.full_name, r.role_name, r.permissions?.push, r.permissions?.admin])).toEqual([
      ["acme/api", "write", true, false],
    ]);
    await octokit.teams.addOrUpdateRepoPermissionsInOrg({
      org: "acme",
      team_slug: "ops",
      owner: "acme",
      repo: "api",
      permission: "maintain",
    });
    expect((await octokit.teams.checkPermissionsForRepoInOrg({ org: "acme", team_slug: "ops", owner: "acme", repo: "api" })).status).toBe(
      204,
    );
    const withRepo = await twinFetch(sandbox, "/orgs/acme/teams/ops/repos/acme/api", {
      headers: { accept: "application/vnd.github.v3.repository+json" },
    });
    expect(await withRepo.json()).toMatchObject({
      full_name: "acme/api",
      role_name: "maintain",
      permissions: { maintain: true, admin: false },
    });
    const teams = (await octokit.repos.listTeams({ owner: "acme", repo: "api" })).data;
    expect(teams.map((t) => [t.slug, t.permission])).toEqual([
      ["backend", "push"],
      ["ops", "maintain"],
    ]);
    await octokit.teams.removeRepoInOrg({ org: "acme", team_slug: "ops", owner: "acme", repo: "api" });
    expect(
      (await failure(octokit.teams.checkPermissionsForRepoInOrg({ org: "acme", team_slug: "ops", owner: "acme", repo: "api" }))).status,
    ).toBe(404);
  });

  it("lists the authenticated user's teams", async () => {
    const { octokit } = await sandboxWith(orgWorld());
    expect((await octokit.teams.listForAuthenticatedUser()).data.map((t) => t.slug)).toEqual(["ops"]);
  });
});

describe("the organizations seed round-trips and refuses what does not exist", () => {
  it("exports the organizations it booted", async () => {
    const { sandbox } = await sandboxWith(orgWorld());
    const state = await stateOf<{ organizations: unknown[] }>(sandbox);
    expect(state.organizations).toEqual([
      {
        login: "acme",
        description: "Acme makes everything",
        admins: ["alice"],
        members: ["carol"],
        teams: [
          expect.objectContaining({
            name: "Backend",
            slug: "backend",
            privacy: "closed",
            parent: null,
            members: ["bob"],
            maintainers: ["alice"],
            repositories: [{ name: "api", permission: "push" }],
          }),
          expect.objectContaining({
            name: "Platform Ops",
            slug: "ops",
            privacy: "secret",
            parent: "backend",
            members: ["octo"],
            maintainers: [],
            repositories: [],
          }),
        ],
      },
    ]);
  });
});
