// Teams of an organization: the list, one team, its members and memberships, its repositories and
// the permission it grants on each; the teams of the authenticated user and of a repository.
import { z } from "zod";
import type { Route, TwinContext } from "../../types";
import { authenticatedLogin, isoNow, ok } from "../context";
import { lenient, pageQuery, repoParams, route } from "../declare";
import { fail, ghError, ghNoContent, ghNotFound, ghValidationFailed } from "../errors";
import { pageOf, paged } from "../pagination";
import { findRepoByName, findUser, requireRepo, type UserRow } from "../repos";
import { View } from "../serialize";
import { TEAM_PERMISSIONS } from "../seed-orgs";
import {
  findTeam,
  removeTeamMember,
  removeTeamRepo,
  setTeamMember,
  setTeamRepo,
  teamMembers,
  teamRepoPermission,
  teamRoleOf,
  teamsOf,
  type TeamRow,
} from "../store/orgs";
import { teamFull, teamMembership, teamObject } from "../view-orgs";
import { orgParam, requireOrg } from "./orgs";

const teamSlug = z.string().min(1).describe("The team's slug, e.g. backend");
const username = z.string().min(1).describe("The user's login");
const teamParams = { org: orgParam, team_slug: teamSlug };

function requireTeam(ctx: TwinContext, org: string, slug: string): { org: UserRow; team: TeamRow } {
  const row = requireOrg(ctx, org);
  return { org: row, team: findTeam(ctx.db, row.login, slug) ?? fail(ghNotFound()) };
}

/** A team's repository, named by owner and name: it must belong to the team's organization. */
function teamRepo(ctx: TwinContext, team: TeamRow, owner: string, name: string) {
  const repo = findRepoByName(ctx.db, owner, name);
  return repo && repo.owner.toLowerCase() === team.org.toLowerCase() ? repo : undefined;
}

/** What `permission` a team holds, in the repository's `permissions` object form. */
const permissionsFor = (permission: string) => {
  const rank = TEAM_PERMISSIONS.indexOf(permission as (typeof TEAM_PERMISSIONS)[number]);
  return { pull: rank >= 0, triage: rank >= 1, push: rank >= 2, maintain: rank >= 3, admin: rank >= 4 };
};

const ROLE_NAME: Record<string, string> = { pull: "read", triage: "triage", push: "write", maintain: "maintain", admin: "admin" };

const repoOf = { ...teamParams, owner: repoParams.owner, repo: repoParams.repo };

const teamRepoRoutes: readonly Route[] = [
  route({
    method: "GET",
    pattern: "/orgs/:org/teams/:team_slug/repos",
    operation: "teams.listReposInOrg",
    summary: "List team repositories",
    params: teamParams,
    query: pageQuery,
    tool: { name: "list_team_repositories", description: "List the repositories a team has access to." },
    handler(ctx, { params }) {
      const { team } = requireTeam(ctx, params.org, params.team_slug);
      const page = pageOf(ctx);
      const sql = "FROM gh_team_repos tr JOIN gh_repos r ON r.id = tr.repo_id WHERE tr.team_id = ?";
      const rows = ctx.db.all<{ id: number; permission: string }>(
        `SELECT r.id, tr.permission ${sql} ORDER BY tr.position, r.id LIMIT ? OFFSET ?`,
        team.id,
        page.limit,
        page.offset,
      );
      const total = ctx.db.one<{ n: number }>(`SELECT count(*) AS n ${sql}`, team.id)?.n ?? 0;
      const v = new View(ctx);
      const items = rows.flatMap((row) => {
        const repo = v.repoRow(row.id);
        return repo ? [{ ...v.repository(repo), permissions: permissionsFor(row.permission), role_name: ROLE_NAME[row.permission] }] : [];
      });
      return paged(ctx, items, page, total);
    },
  }),
  route({
    method: "GET",
    pattern: "/orgs/:org/teams/:team_slug/repos/:owner/:repo",
    operation: "teams.checkPermissionsForRepoInOrg",
    summary: "Check team permissions for a repository",
    params: repoOf,
    // 204 when the team has access; with `Accept: application/vnd.github.v3.repository+json`, the repository and the team's permissions.
    tool: {
      name: "check_team_repository_permission",
      description: "Check a team's permission on a repository (404 if the team has no access).",
    },
    handler(ctx, { params }) {
      const { team } = requireTeam(ctx, params.org, params.team_slug);
      const repo = teamRepo(ctx, team, params.owner, params.repo) ?? fail(ghNotFound());
      const permission = teamRepoPermission(ctx.db, team.id, repo.id) ?? fail(ghNotFound());
      if (!/repository\+json/.test(ctx.req.headers.accept ?? "")) return ghNoContent();
      // `team-repository` is a repository without has_discussions.
      const { has_discussions: _hasDiscussions, ...shown } = new View(ctx).repository(repo);
      return ok({ ...shown, permissions: permissionsFor(permission), role_name: ROLE_NAME[permission] });
    },
  }),
  route({
    method: "PUT",
    pattern: "/orgs/:org/teams/:team_slug/repos/:owner/:repo",
    operation: "teams.addOrUpdateRepoPermissionsInOrg",
    summary: "Add or update team repository permissions",
    resource: "Team",
    params: repoOf,
    body: {
      permission: z
        .enum(TEAM_PERMISSIONS)
        .optional()
        .describe("The permission the team grants: pull, triage, push, maintain or admin (default push)"),
    },
    tool: {
      name: "set_team_repository_permission",
      description: "Give a team access to one of its organization's repositories, or change the permission it grants.",
    },
    handler(ctx, { params, body }) {
      const { team } = requireTeam(ctx, params.org, params.team_slug);
      const repo = teamRepo(ctx, team, params.owner, params.repo);
      // GitHub refuses a repository outside the team's organization with 422.
      if (!repo) return fail(findRepoByName(ctx.db, params.owner, params.repo) ? ghError(422, "Validation Failed") : ghNotFound());
      setTeamRepo(ctx.db, team.id, repo.id, body.permission ?? "push");
      return ghNoContent();
    },
  }),
  route({
    method: "DELETE",
    pattern: "/orgs/:org/teams/:team_slug/repos/:owner/:repo",
    operation: "teams.removeRepoInOrg",
    summary: "Remove a repository from a team",
    params: repoOf,
    tool: {
      name: "remove_team_repository",
      description: "Remove a repository from a team: its members lose the access the team gave them.",
    },
    handler(ctx, { params }) {
      const { team } = requireTeam(ctx, params.org, params.team_slug);
      const repo = teamRepo(ctx, team, params.owner, params.repo) ?? fail(ghNotFound());
      removeTeamRepo(ctx.db, team.id, repo.id);
      return ghNoContent();
    },
  }),
  route({
    method: "GET",
    pattern: "/repos/:owner/:repo/teams",
    operation: "repos.listTeams",
    summary: "List repository teams",
    params: repoParams,
    query: pageQuery,
    tool: { name: "list_repository_teams", description: "List the teams that have access to a repository." },
    handler(ctx) {
      const repo = requireRepo(ctx);
      const page = pageOf(ctx);
      const sql = "FROM gh_teams t JOIN gh_team_repos tr ON tr.team_id = t.id WHERE tr.repo_id = ?";
      const rows = ctx.db.all<TeamRow & { permission: string }>(
        `SELECT t.*, tr.permission ${sql} ORDER BY lower(t.name) LIMIT ? OFFSET ?`,
        repo.id,
        page.limit,
        page.offset,
      );
      const total = ctx.db.one<{ n: number }>(`SELECT count(*) AS n ${sql}`, repo.id)?.n ?? 0;
      const v = new View(ctx);
      const orgId = findUser(ctx, repo.owner)?.id ?? 0;
      return paged(
        ctx,
        rows.map((t) => ({ ...teamObject(v, t, orgId), permission: t.permission })),
        page,
        total,
      );
    },
  }),
];

export const teamRoutes: readonly Route[] = [
  route({
    method: "GET",
    pattern: "/orgs/:org/teams",
    operation: "teams.list",
    summary: "List teams",
    params: { org: orgParam },
    query: pageQuery,
    tool: {
      name: "list_teams",
      description: "List an organization's teams, by name: their slugs are what team reviewers and team calls take.",
    },
    handler(ctx, { params }) {
      const org = requireOrg(ctx, params.org);
      const page = pageOf(ctx);
      const { rows, total } = teamsOf(ctx.db, org.login, page.limit, page.offset);
      const v = new View(ctx);
      return paged(
        ctx,
        rows.map((t) => teamObject(v, t, org.id)),
        page,
        total,
      );
    },
  }),
  route({
    method: "GET",
    pattern: "/orgs/:org/teams/:team_slug",
    operation: "teams.getByName",
    summary: "Get a team by name",
    params: teamParams,
    tool: { name: "get_team", description: "Get a team by its slug: description, privacy, member and repository counts." },
    handler(ctx, { params }) {
      const { org, team } = requireTeam(ctx, params.org, params.team_slug);
      return ok(teamFull(new View(ctx), team, org));
    },
  }),
  route({
    method: "GET",
    pattern: "/orgs/:org/teams/:team_slug/members",
    operation: "teams.listMembersInOrg",
    summary: "List team members",
    params: teamParams,
    query: {
      role: lenient(z.enum(["member", "maintainer", "all"])).describe("Only members or only maintainers (default all)"),
      ...pageQuery,
    },
    tool: { name: "list_team_members", description: "List the members of a team; role=maintainer lists its maintainers." },
    handler(ctx, { params, query }) {
      const { team } = requireTeam(ctx, params.org, params.team_slug);
      const page = pageOf(ctx);
      const role = query.role === "member" || query.role === "maintainer" ? query.role : undefined;
      const { rows, total } = teamMembers(ctx.db, team.id, role, page.limit, page.offset);
      const v = new View(ctx);
      return paged(
        ctx,
        rows.map((r) => v.user(r.login)),
        page,
        total,
      );
    },
  }),
  route({
    method: "GET",
    pattern: "/orgs/:org/teams/:team_slug/memberships/:username",
    operation: "teams.getMembershipForUserInOrg",
    summary: "Get team membership for a user",
    params: { ...teamParams, username },
    tool: { name: "get_team_membership", description: "Get a user's membership of a team: role (member or maintainer) and state." },
    handler(ctx, { params }) {
      const { team } = requireTeam(ctx, params.org, params.team_slug);
      const role = teamRoleOf(ctx.db, team.id, params.username) ?? fail(ghNotFound());
      return ok(teamMembership(new View(ctx), team, findUser(ctx, params.username)?.login ?? params.username, role));
    },
  }),
  route({
    method: "PUT",
    pattern: "/orgs/:org/teams/:team_slug/memberships/:username",
    operation: "teams.addOrUpdateMembershipForUserInOrg",
    summary: "Add or update team membership for a user",
    resource: "TeamMember",
    params: { ...teamParams, username },
    body: { role: lenient(z.enum(["member", "maintainer"])).describe("The user's role on the team (default member)") },
    tool: { name: "add_team_member", description: "Add a user to a team, or change their role (member or maintainer)." },
    handler(ctx, { params, body }) {
      const { team } = requireTeam(ctx, params.org, params.team_slug);
      const user = findUser(ctx, params.username) ?? fail(ghNotFound());
      if (user.type === "Organization") fail(ghValidationFailed([{ resource: "TeamMember", field: "user", code: "invalid" }]));
      setTeamMember(ctx.db, team, user.login, body.role ?? "member", isoNow(ctx));
      return ok(teamMembership(new View(ctx), team, user.login, body.role ?? "member"));
    },
  }),
  route({
    method: "DELETE",
    pattern: "/orgs/:org/teams/:team_slug/memberships/:username",
    operation: "teams.removeMembershipForUserInOrg",
    summary: "Remove team membership for a user",
    params: { ...teamParams, username },
    tool: { name: "remove_team_member", description: "Remove a user from a team: they lose the access the team gave them." },
    handler(ctx, { params }) {
      const { team } = requireTeam(ctx, params.org, params.team_slug);
      if (!teamRoleOf(ctx.db, team.id, params.username)) fail(ghNotFound());
      removeTeamMember(ctx.db, team.id, params.username);
      return ghNoContent();
    },
  }),
  ...teamRepoRoutes,
  route({
    method: "GET",
    pattern: "/user/teams",
    operation: "teams.listForAuthenticatedUser",
    summary: "List teams for the authenticated user",
    query: pageQuery,
    tool: { name: "list_my_teams", description: "List the teams the authenticated user is a member of, across organizations." },
    handler(ctx) {
      const page = pageOf(ctx);
      const sql = "FROM gh_teams t JOIN gh_team_members m ON m.team_id = t.id WHERE m.login = ?";
      const login = authenticatedLogin(ctx);
      const rows = ctx.db.all<TeamRow>(
        `SELECT t.* ${sql} ORDER BY lower(t.org), lower(t.name) LIMIT ? OFFSET ?`,
        login,
        page.limit,
        page.offset,
      );
      const total = ctx.db.one<{ n: number }>(`SELECT count(*) AS n ${sql}`, login)?.n ?? 0;
      const v = new View(ctx);
      return paged(
        ctx,
        rows.flatMap((t) => {
          const org = findUser(ctx, t.org);
          return org ? [teamFull(v, t, org)] : [];
        }),
        page,
        total,
      );
    },
  }),
];
