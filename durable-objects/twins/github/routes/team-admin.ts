// Creating, changing and deleting an organization's teams (teams/create, teams/update-in-org,
// teams/delete-in-org in @octokit/openapi). The creator becomes the team's maintainer ("When you
// create a new team, you automatically become a team maintainer"); a team is secret unless nested
// (a nested team is closed, and cannot be secret); a new name gives a new slug; deleting a team
// deletes the teams nested under it. Answers are `team-full`.
import { z } from "zod";
import type { Route, TwinContext } from "../../types";
import { authenticatedLogin, isoNow, nextId, ok } from "../context";
import { route } from "../declare";
import { fail, ghNoContent, ghNotFound, ghValidationFailed } from "../errors";
import { findRepoByName, findUser, type UserRow } from "../repos";
import { View } from "../serialize";
import { slugOf } from "../seed-orgs";
import {
  deleteTeam,
  findTeam,
  insertTeam,
  setTeamMember,
  setTeamRepo,
  teamAndDescendants,
  teamNamed,
  type TeamFields,
  type TeamRow,
  updateTeam,
} from "../store/orgs";
import { teamFull } from "../view-orgs";
import { orgParam, requireOrg } from "./orgs";

const teamSlug = z.string().min(1).describe("The team's slug, e.g. backend");

const teamBody = {
  name: z.string().min(1).max(255).describe("The team's name; its slug is derived from it"),
  description: z.string().max(1024).nullable().optional().describe("What the team is for"),
  privacy: z.enum(["secret", "closed"]).optional().describe("secret (only its members and owners see it) or closed"),
  notification_setting: z
    .enum(["notifications_enabled", "notifications_disabled"])
    .optional()
    .describe("Whether members are notified when the team is @mentioned"),
  permission: z.enum(["pull", "push", "admin"]).optional().describe("Closing down: the permission new repositories get"),
  parent_team_id: z.number().int().positive().nullable().optional().describe("The id of the team to nest this one under"),
  parent_team_slug: z.string().min(1).nullable().optional().describe("The slug of the team to nest this one under"),
};

/** GitHub's 422 naming the field; the messages are the twin's words (NOTES.md). */
const invalidTeam = (field: string, message: string) =>
  fail(ghValidationFailed([{ resource: "Team", field, code: field === "name" ? "already_exists" : "invalid", message }]));

/** The parent a body names (id first, as GitHub reads them), or undefined when it names none. */
function parentOf(ctx: TwinContext, org: string, body: { parent_team_id?: number | null; parent_team_slug?: string | null }) {
  if (body.parent_team_id != null) {
    const row = ctx.db.one<TeamRow>("SELECT * FROM gh_teams WHERE org = ? AND id = ?", org, body.parent_team_id);
    return row ?? invalidTeam("parent_team_id", "Parent team must be a team of this organization.");
  }
  if (body.parent_team_slug != null)
    return (
      findTeam(ctx.db, org, body.parent_team_slug) ?? invalidTeam("parent_team_slug", "Parent team must be a team of this organization.")
    );
  return undefined;
}

function checkedFields(ctx: TwinContext, org: string, fields: TeamFields, self?: TeamRow): { fields: TeamFields; slug: string } {
  const slug = slugOf(fields.name);
  if (teamNamed(ctx.db, org, fields.name, slug, self?.id ?? 0)) invalidTeam("name", "Name must be unique for this org");
  if (fields.parent_slug !== null && self && teamAndDescendants(ctx.db, org, self.slug).includes(fields.parent_slug))
    invalidTeam("parent_team_id", "A team cannot be nested under itself or a team nested under it.");
  if (fields.parent_slug !== null && fields.privacy === "secret") invalidTeam("privacy", "A nested team cannot be secret.");
  return { fields, slug };
}

function requireTeam(ctx: TwinContext, org: string, slug: string): { org: UserRow; team: TeamRow } {
  const row = requireOrg(ctx, org);
  return { org: row, team: findTeam(ctx.db, row.login, slug) ?? fail(ghNotFound()) };
}

export const teamAdminRoutes: readonly Route[] = [
  route({
    method: "POST",
    pattern: "/orgs/:org/teams",
    operation: "teams.create",
    summary: "Create a team",
    resource: "Team",
    missingField: ["name"],
    params: { org: orgParam },
    body: {
      ...teamBody,
      maintainers: z.array(z.string().min(1)).max(100).optional().describe("Logins of organization members who become its maintainers"),
      repo_names: z.array(z.string().min(1)).max(100).optional().describe('Repositories to add it to, as "org/repo"'),
    },
    tool: {
      name: "create_team",
      description:
        "Create a team in an organization (you become its maintainer), optionally nested under another team, with maintainers and repositories.",
    },
    handler(ctx, { params, body }) {
      const org = requireOrg(ctx, params.org);
      const parent = parentOf(ctx, org.login, body);
      const { fields, slug } = checkedFields(ctx, org.login, {
        name: body.name,
        description: body.description ?? null,
        privacy: body.privacy ?? (parent ? "closed" : "secret"),
        parent_slug: parent?.slug ?? null,
      });
      const maintainers = (body.maintainers ?? []).map(
        (login, i) => findUser(ctx, login)?.login ?? invalidTeam(`maintainers/${i}`, `${login} is not a member of ${org.login}.`),
      );
      const repos = (body.repo_names ?? []).map((full, i) => {
        const [owner = "", name = ""] = full.split("/");
        const repo = findRepoByName(ctx.db, owner, name);
        return repo && repo.owner.toLowerCase() === org.login.toLowerCase()
          ? repo
          : invalidTeam(`repo_names/${i}`, `${full} is not a repository of ${org.login}.`);
      });
      const now = isoNow(ctx);
      const team = insertTeam(ctx.db, nextId(ctx), org.login, slug, fields, now);
      for (const login of [authenticatedLogin(ctx), ...maintainers]) setTeamMember(ctx.db, team, login, "maintainer", now);
      for (const repo of repos) setTeamRepo(ctx.db, team.id, repo.id, body.permission === "push" ? "push" : "pull");
      return ok(teamFull(new View(ctx), team, org), 201);
    },
  }),
  route({
    method: "PATCH",
    pattern: "/orgs/:org/teams/:team_slug",
    operation: "teams.updateInOrg",
    summary: "Update a team",
    resource: "Team",
    params: { org: orgParam, team_slug: teamSlug },
    body: { ...teamBody, name: teamBody.name.optional() },
    tool: {
      name: "update_team",
      description: "Rename a team (its slug follows), change its description or privacy, or nest it under another team.",
    },
    handler(ctx, { params, body }) {
      const { org, team } = requireTeam(ctx, params.org, params.team_slug);
      // A parent given as null un-nests the team; one left out keeps it.
      const unnest = body.parent_team_id === null || (body.parent_team_id === undefined && body.parent_team_slug === null);
      const parent = parentOf(ctx, org.login, body);
      const parentSlug = unnest ? null : (parent?.slug ?? team.parent_slug);
      const { fields, slug } = checkedFields(
        ctx,
        org.login,
        {
          name: body.name ?? team.name,
          description: body.description === undefined ? team.description : body.description,
          privacy: body.privacy ?? (parentSlug !== null && team.privacy === "secret" ? "closed" : team.privacy),
          parent_slug: parentSlug,
        },
        team,
      );
      const updated = updateTeam(ctx.db, team, slug, fields, isoNow(ctx));
      return ok(teamFull(new View(ctx), updated, org));
    },
  }),
  route({
    method: "DELETE",
    pattern: "/orgs/:org/teams/:team_slug",
    operation: "teams.deleteInOrg",
    summary: "Delete a team",
    params: { org: orgParam, team_slug: teamSlug },
    tool: {
      name: "delete_team",
      description: "Delete a team and the teams nested under it; their members lose the access the teams gave them.",
    },
    handler(ctx, { params }) {
      const { team } = requireTeam(ctx, params.org, params.team_slug);
      deleteTeam(ctx.db, team);
      return ghNoContent();
    },
  }),
];
