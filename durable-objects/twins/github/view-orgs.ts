// Organization and team shapes (@octokit/openapi `organization-simple`, `organization-full`,
// `team`, `team-full`, `team-membership`, `org-membership`), with URLs into this sandbox.
import { apiUrl, htmlUrl } from "./context";
import type { UserRow } from "./repos";
import { nodeId, type View } from "./serialize";
import { SEED_EPOCH } from "./seed";
import { type OrgRole, type TeamRow, findTeam, teamCounts } from "./store/orgs";

export function orgSimple(v: View, org: UserRow) {
  const url = apiUrl(v.ctx, `/orgs/${org.login}`);
  const description =
    v.ctx.db.one<{ description: string | null }>("SELECT description FROM gh_org_profiles WHERE org = ?", org.login)?.description ?? null;
  return {
    login: org.login,
    id: org.id,
    node_id: nodeId("Organization", org.id),
    url,
    repos_url: `${url}/repos`,
    events_url: `${url}/events`,
    hooks_url: `${url}/hooks`,
    issues_url: `${url}/issues`,
    members_url: `${url}/members{/member}`,
    public_members_url: `${url}/public_members{/member}`,
    avatar_url: `https://avatars.githubusercontent.com/u/${org.id}?v=4`,
    description,
  };
}

export function orgFull(v: View, org: UserRow) {
  const count = (privateRepos: number) =>
    v.ctx.db.one<{ n: number }>(
      "SELECT count(*) AS n FROM gh_repos WHERE owner = ? COLLATE NOCASE AND private = ?",
      org.login,
      privateRepos,
    )?.n ?? 0;
  const owned = count(1);
  return {
    ...orgSimple(v, org),
    name: org.name,
    // The description types company, location and email as strings (not nullable): an
    // organization without them leaves them out rather than sending null.
    blog: "",
    ...(org.email ? { email: org.email } : {}),
    twitter_username: null,
    is_verified: false,
    has_organization_projects: true,
    has_repository_projects: true,
    public_repos: count(0),
    public_gists: 0,
    followers: 0,
    following: 0,
    html_url: htmlUrl(`/${org.login}`),
    type: "Organization",
    total_private_repos: owned,
    owned_private_repos: owned,
    private_gists: 0,
    disk_usage: 0,
    collaborators: 0,
    billing_email: null,
    plan: { name: "free", space: 976562499, private_repos: 10000, filled_seats: 0, seats: 0 },
    default_repository_permission: "read",
    members_can_create_repositories: true,
    two_factor_requirement_enabled: false,
    members_can_create_public_repositories: true,
    members_can_create_private_repositories: true,
    members_can_create_internal_repositories: false,
    members_can_create_pages: true,
    members_can_create_public_pages: true,
    members_can_create_private_pages: true,
    members_can_fork_private_repositories: false,
    web_commit_signoff_required: false,
    created_at: SEED_EPOCH,
    updated_at: SEED_EPOCH,
    archived_at: null,
  };
}

/** A team without its parent (`team-simple`). */
export function teamSimple(v: View, t: TeamRow, orgId: number) {
  const url = apiUrl(v.ctx, `/orgs/${t.org}/teams/${t.slug}`);
  return {
    id: t.id,
    node_id: nodeId("Team", t.id),
    url,
    html_url: htmlUrl(`/orgs/${t.org}/teams/${t.slug}`),
    name: t.name,
    slug: t.slug,
    description: t.description,
    privacy: t.privacy,
    notification_setting: "notifications_enabled",
    permission: "pull",
    members_url: `${url}/members{/member}`,
    repositories_url: `${url}/repos`,
    type: "organization",
    organization_id: orgId,
  };
}

/** A team as lists show it (`team`): with its parent team, or null. */
export function teamObject(v: View, t: TeamRow, orgId: number) {
  const parent = t.parent_slug ? findTeam(v.ctx.db, t.org, t.parent_slug) : undefined;
  return { ...teamSimple(v, t, orgId), parent: parent ? teamSimple(v, parent, orgId) : null };
}

/** A single team (`team-full`): counts, times and its organization. */
export function teamFull(v: View, t: TeamRow, org: UserRow) {
  const counts = teamCounts(v.ctx.db, t.id);
  return {
    ...teamObject(v, t, org.id),
    members_count: counts.members,
    repos_count: counts.repos,
    created_at: t.created_at,
    updated_at: t.updated_at,
    organization: orgFull(v, org),
  };
}

export const teamMembership = (v: View, t: TeamRow, login: string, role: string) => ({
  url: apiUrl(v.ctx, `/orgs/${t.org}/teams/${t.slug}/memberships/${login}`),
  role,
  state: "active",
});

export function orgMembership(v: View, org: UserRow, login: string, role: OrgRole) {
  return {
    url: apiUrl(v.ctx, `/orgs/${org.login}/memberships/${login}`),
    state: "active",
    role,
    organization_url: apiUrl(v.ctx, `/orgs/${org.login}`),
    organization: orgSimple(v, org),
    user: v.user(login),
  };
}
