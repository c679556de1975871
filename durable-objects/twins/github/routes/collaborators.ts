// Collaborators, their permission levels and the invitations that wait for them: list, check,
// add (an invitation, or a role change for someone already in), remove, the permission check,
// and the repository's pending invitations. Shapes: @octokit/openapi `collaborator`,
// `repository-collaborator-permission` and `repository-invitation`.
import { z } from "zod";
import type { Route, TwinContext } from "../../types";
import { authenticatedLogin, ok, storeOf } from "../context";
import { lenient, pageQuery, repoParams, route } from "../declare";
import { fail, ghNoContent, ghNotFound, ghValidationFailed } from "../errors";
import { pageOf, paged } from "../pagination";
import { findUser, requireRepo, type RepoRow } from "../repos";
import { nodeId, View } from "../serialize";
import {
  type Collaborator,
  collaboratorOf,
  collaboratorsOf,
  findInvitation,
  type InvitationRow,
  invitationsOf,
  invite,
  legacyPermission,
  permissionsOf,
  removeCollaborator,
  ROLES,
  type Role,
  roleName,
  setRole,
} from "../store/collaborators";

function collaboratorObject(v: View, c: Collaborator) {
  const row = v.userRow(c.login);
  return {
    ...v.user(c.login),
    email: row?.email ?? null,
    name: row?.name ?? null,
    permissions: permissionsOf(c.role),
    role_name: roleName(c.role),
  };
}

function invitationObject(v: View, r: RepoRow, inv: InvitationRow) {
  return {
    id: inv.id,
    node_id: nodeId("RepositoryInvitation", inv.id),
    repository: v.repository(r),
    invitee: v.user(inv.invitee),
    inviter: v.user(inv.inviter),
    permissions: roleName(inv.role),
    created_at: inv.created_at,
    expired: false,
    url: v.repoApi(r, `/invitations/${inv.id}`),
    html_url: v.repoHtml(r, "/invitations"),
  };
}

/** The role a request names: GitHub's five by their API names, or read/write as invitations name them. */
function roleFrom(value: string | undefined): Role | undefined {
  if (value === undefined) return "push";
  const v = value.toLowerCase();
  if (v === "read") return "pull";
  if (v === "write") return "push";
  return (ROLES as readonly string[]).includes(v) ? (v as Role) : undefined;
}

const invalidPermission = (value: string) =>
  fail(ghValidationFailed([{ resource: "Repository", field: "permission", code: "invalid", value }]));

const username = z.string().min(1).describe("The user's login");
const userParams = { ...repoParams, username };

/** `affiliation` as the twin can tell it: `direct` and `outside` are the repository's own list (and a user owner). */
function affiliated(list: Collaborator[], affiliation: string | undefined): Collaborator[] {
  return affiliation === "direct" || affiliation === "outside" ? list.filter((c) => c.direct) : list;
}

const atLeast = (role: Role, wanted: Role | undefined) => wanted === undefined || ROLES.indexOf(role) >= ROLES.indexOf(wanted);

function listCollaborators(ctx: TwinContext, affiliation: string | undefined, permission: Role | undefined) {
  const r = requireRepo(ctx);
  const all = affiliated(collaboratorsOf(ctx.db, r, authenticatedLogin(ctx)), affiliation).filter((c) => atLeast(c.role, permission));
  const page = pageOf(ctx);
  const v = new View(ctx);
  const rows = all.slice(page.offset, page.offset + page.limit);
  v.preloadUsers(rows.map((c) => c.login));
  return paged(
    ctx,
    rows.map((c) => collaboratorObject(v, c)),
    page,
    all.length,
    r.id,
  );
}

/** PUT: a role change for a collaborator (204), else an invitation (201). */
function putCollaborator(ctx: TwinContext, login: string, permission: string | undefined) {
  const r = requireRepo(ctx);
  const user = findUser(ctx, login) ?? fail(ghNotFound());
  if (user.login.toLowerCase() === r.owner.toLowerCase())
    fail(ghValidationFailed([{ resource: "Repository", code: "custom", message: "Repository owner cannot be a collaborator" }]));
  // "Only valid on organization-owned repositories": a user's repository gives collaborators write.
  const ownerIsOrg = findUser(ctx, r.owner)?.type === "Organization";
  const role = ownerIsOrg ? (roleFrom(permission) ?? invalidPermission(permission ?? "")) : "push";
  const s = storeOf(ctx);
  const current = collaboratorOf(ctx.db, r, s.actor, user.login);
  if (current) {
    if (current.direct && user.login.toLowerCase() !== s.actor.toLowerCase()) setRole(ctx.db, r.id, user.login, role);
    return ghNoContent();
  }
  const inv = invite(s, r, user.login, role);
  return ok(invitationObject(new View(ctx), r, inv), 201);
}

const invitationParams = { ...repoParams, invitation_id: z.number().int().positive().describe("The invitation's id") };
const requireInvitation = (ctx: TwinContext, r: RepoRow, id: number) => findInvitation(ctx.db, r.id, id) ?? fail(ghNotFound());

export const collaboratorRoutes: readonly Route[] = [
  route({
    method: "GET",
    pattern: "/repos/:owner/:repo/collaborators",
    operation: "repos.listCollaborators",
    summary: "List repository collaborators",
    params: repoParams,
    query: {
      affiliation: lenient(z.enum(["outside", "direct", "all"])).describe("outside, direct or all (default all)"),
      permission: lenient(z.enum(ROLES)).describe("Only collaborators with at least this role"),
      ...pageQuery,
    },
    tool: {
      name: "list_collaborators",
      description: "List who has access to a repository, with each one's role (read, triage, write, maintain, admin).",
    },
    handler: (ctx, { query }) => listCollaborators(ctx, query.affiliation, query.permission),
  }),
  route({
    method: "GET",
    pattern: "/repos/:owner/:repo/collaborators/:username",
    operation: "repos.checkCollaborator",
    summary: "Check if a user is a repository collaborator",
    tool: { name: "check_collaborator", description: "Check whether a user is a collaborator on a repository (204 if so, 404 if not)." },
    params: userParams,
    handler(ctx, { params }) {
      const r = requireRepo(ctx);
      return collaboratorOf(ctx.db, r, authenticatedLogin(ctx), params.username) ? ghNoContent() : fail(ghNotFound());
    },
  }),
  route({
    method: "PUT",
    pattern: "/repos/:owner/:repo/collaborators/:username",
    operation: "repos.addCollaborator",
    writableWhenArchived: true,
    summary: "Add a repository collaborator",
    resource: "Repository",
    params: userParams,
    body: {
      permission: z.string().optional().describe("pull, triage, push (default), maintain or admin; only organization repositories take it"),
    },
    tool: {
      name: "add_collaborator",
      description: "Invite a user to collaborate on a repository (or change a collaborator's role); they join once they accept.",
    },
    handler: (ctx, { params, body }) => putCollaborator(ctx, params.username, body.permission),
  }),
  route({
    method: "DELETE",
    pattern: "/repos/:owner/:repo/collaborators/:username",
    operation: "repos.removeCollaborator",
    writableWhenArchived: true,
    summary: "Remove a repository collaborator",
    params: userParams,
    tool: { name: "remove_collaborator", description: "Remove a user's access to a repository (and unassign them from its issues)." },
    handler(ctx, { params }) {
      const r = requireRepo(ctx);
      const user = findUser(ctx, params.username) ?? fail(ghNotFound());
      removeCollaborator(ctx.db, r, user.login);
      return ghNoContent();
    },
  }),
  route({
    method: "GET",
    pattern: "/repos/:owner/:repo/collaborators/:username/permission",
    operation: "repos.getCollaboratorPermissionLevel",
    summary: "Get repository permissions for a user",
    params: userParams,
    tool: {
      name: "get_collaborator_permission",
      description: "Get a user's permission on a repository: admin, write, read or none, and their role name.",
    },
    handler(ctx, { params }) {
      const r = requireRepo(ctx);
      const user = findUser(ctx, params.username) ?? fail(ghNotFound());
      const c = collaboratorOf(ctx.db, r, authenticatedLogin(ctx), user.login);
      const v = new View(ctx);
      if (c) return ok({ permission: legacyPermission(c.role), role_name: roleName(c.role), user: collaboratorObject(v, c) });
      // Anyone may read a public repository; a private one gives outsiders nothing.
      const role: Role | undefined = r.private ? undefined : "pull";
      return ok({
        permission: legacyPermission(role),
        role_name: role ? roleName(role) : "none",
        user: collaboratorObject(v, { login: user.login, role: role ?? "pull", direct: false }),
      });
    },
  }),
  route({
    method: "GET",
    pattern: "/repos/:owner/:repo/invitations",
    operation: "repos.listInvitations",
    summary: "List repository invitations",
    tool: { name: "list_repository_invitations", description: "List the pending invitations to collaborate on a repository." },
    params: repoParams,
    query: pageQuery,
    handler(ctx) {
      const r = requireRepo(ctx);
      const page = pageOf(ctx);
      const v = new View(ctx);
      const total = ctx.db.one<{ n: number }>("SELECT count(*) AS n FROM gh_repo_invitations WHERE repo_id = ?", r.id)?.n ?? 0;
      const rows = invitationsOf(ctx.db, r.id, page.limit, page.offset).map((inv) => invitationObject(v, r, inv));
      return paged(ctx, rows, page, total, r.id);
    },
  }),
  route({
    method: "PATCH",
    pattern: "/repos/:owner/:repo/invitations/:invitation_id",
    operation: "repos.updateInvitation",
    writableWhenArchived: true,
    summary: "Update a repository invitation",
    tool: { name: "update_repository_invitation", description: "Change the role a pending collaboration invitation grants." },
    resource: "RepositoryInvitation",
    params: invitationParams,
    body: { permissions: z.enum(["read", "write", "maintain", "triage", "admin"]).optional().describe("The role the invitee gets") },
    handler(ctx, { params, body }) {
      const r = requireRepo(ctx);
      const inv = requireInvitation(ctx, r, params.invitation_id);
      const role = roleFrom(body.permissions) ?? inv.role;
      ctx.db.run("UPDATE gh_repo_invitations SET role = ? WHERE id = ?", role, inv.id);
      return ok(invitationObject(new View(ctx), r, { ...inv, role }));
    },
  }),
  route({
    method: "DELETE",
    pattern: "/repos/:owner/:repo/invitations/:invitation_id",
    operation: "repos.deleteInvitation",
    writableWhenArchived: true,
    summary: "Delete a repository invitation",
    tool: { name: "delete_repository_invitation", description: "Cancel a pending collaboration invitation." },
    params: invitationParams,
    handler(ctx, { params }) {
      const r = requireRepo(ctx);
      const inv = requireInvitation(ctx, r, params.invitation_id);
      ctx.db.run("DELETE FROM gh_repo_invitations WHERE id = ?", inv.id);
      return ghNoContent();
    },
  }),
];
