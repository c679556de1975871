// Organizations: the organization, the ones a user belongs to, its members and memberships.
// (Its repositories are `GET /orgs/{org}/repos` in routes/users-repos.ts.)
import { z } from "zod";
import type { Route, TwinContext } from "../../types";
import { authenticatedLogin, ok } from "../context";
import { lenient, pageQuery, route } from "../declare";
import { fail, ghNoContent, ghNotFound } from "../errors";
import { pageOf, paged } from "../pagination";
import { findUser, type UserRow } from "../repos";
import { View } from "../serialize";
import { orgMembers, orgRoleOf, orgsOf } from "../store/orgs";
import { orgFull, orgMembership, orgSimple } from "../view-orgs";

export const orgParam = z.string().min(1).describe("The organization's login, e.g. acme");
const username = z.string().min(1).describe("The user's login");

/** The organization a path names; a user that is not an organization is GitHub's 404. */
export function requireOrg(ctx: TwinContext, login: string): UserRow {
  const org = findUser(ctx, login);
  return org?.type === "Organization" ? org : fail(ghNotFound());
}

function orgList(ctx: TwinContext, login: string) {
  const page = pageOf(ctx);
  const { rows, total } = orgsOf(ctx.db, login, page.limit, page.offset);
  const v = new View(ctx);
  return paged(
    ctx,
    rows.flatMap((r) => {
      const org = findUser(ctx, r.login);
      return org ? [orgSimple(v, org)] : [];
    }),
    page,
    total,
  );
}

export const orgRoutes: readonly Route[] = [
  route({
    method: "GET",
    pattern: "/orgs/:org",
    operation: "orgs.get",
    summary: "Get an organization",
    params: { org: orgParam },
    tool: { name: "get_organization", description: "Get an organization: name, description, public and private repository counts." },
    handler: (ctx, { params }) => ok(orgFull(new View(ctx), requireOrg(ctx, params.org))),
  }),
  route({
    method: "GET",
    pattern: "/user/orgs",
    operation: "orgs.listForAuthenticatedUser",
    summary: "List organizations for the authenticated user",
    query: pageQuery,
    tool: { name: "list_my_organizations", description: "List the organizations the authenticated user belongs to." },
    handler: (ctx) => orgList(ctx, authenticatedLogin(ctx)),
  }),
  route({
    method: "GET",
    pattern: "/users/:username/orgs",
    operation: "orgs.listForUser",
    summary: "List organizations for a user",
    params: { username },
    query: pageQuery,
    tool: { name: "list_user_organizations", description: "List the organizations a user belongs to." },
    handler(ctx, { params }) {
      const user = findUser(ctx, params.username) ?? fail(ghNotFound());
      return orgList(ctx, user.login);
    },
  }),
  route({
    method: "GET",
    pattern: "/orgs/:org/members",
    operation: "orgs.listMembers",
    summary: "List organization members",
    params: { org: orgParam },
    query: {
      role: lenient(z.enum(["all", "admin", "member"])).describe("Only owners (admin) or only members (default all)"),
      filter: lenient(z.enum(["all", "2fa_disabled", "2fa_insecure"])).describe(
        "Filter members (every member of the twin's world has 2FA)",
      ),
      ...pageQuery,
    },
    tool: { name: "list_org_members", description: "List an organization's members; role=admin lists its owners." },
    handler(ctx, { params, query }) {
      const org = requireOrg(ctx, params.org);
      const page = pageOf(ctx);
      const role = query.role === "admin" || query.role === "member" ? query.role : undefined;
      const { rows, total } =
        query.filter && query.filter !== "all" ? { rows: [], total: 0 } : orgMembers(ctx.db, org.login, role, page.limit, page.offset);
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
    pattern: "/orgs/:org/members/:username",
    operation: "orgs.checkMembershipForUser",
    summary: "Check organization membership for a user",
    params: { org: orgParam, username },
    // 204 for a member, 404 otherwise; GitHub's 302 (to the public members check) is for a
    // requester outside the organization, and the sandbox's user belongs to every one.
    tool: { name: "check_org_membership", description: "Check whether a user is a member of an organization (204 if so, 404 if not)." },
    handler(ctx, { params }) {
      const org = requireOrg(ctx, params.org);
      return orgRoleOf(ctx.db, org.login, params.username) ? ghNoContent() : fail(ghNotFound());
    },
  }),
  route({
    method: "GET",
    pattern: "/orgs/:org/memberships/:username",
    operation: "orgs.getMembershipForUser",
    summary: "Get organization membership for a user",
    params: { org: orgParam, username },
    tool: { name: "get_org_membership", description: "Get a user's membership of an organization: role (admin or member) and state." },
    handler(ctx, { params }) {
      const org = requireOrg(ctx, params.org);
      const user = findUser(ctx, params.username) ?? fail(ghNotFound());
      const role = orgRoleOf(ctx.db, org.login, user.login) ?? fail(ghNotFound());
      return ok(orgMembership(new View(ctx), org, user.login, role));
    },
  }),
];
