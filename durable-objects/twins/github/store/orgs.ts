// Organizations and teams as state: who belongs to an organization and with which role, its
// teams, their members and repositories. An organization's members are the ones the seed or an
// agent declared, the sandbox's user (an owner: it holds admin on every repository), and the
// collaborators of the organization's repositories (GitHub labels them MEMBER: serialize.ts).
import type { Db } from "../../types";
import type { TeamPermission } from "../seed-orgs";
import { authenticatedLogin } from "./base";

export type OrgRole = "admin" | "member";

export interface TeamRow {
  id: number;
  org: string;
  slug: string;
  name: string;
  description: string | null;
  privacy: "closed" | "secret";
  parent_slug: string | null;
  created_at: string;
  updated_at: string;
}

/**
 * Every member of `org` with its role, as SQL over (login, role): declared members, the
 * sandbox's user as an owner, and repository collaborators; each user once, an owner's role first.
 * Takes the organization three times, then the sandbox's user.
 */
const MEMBERS = `SELECT u.login AS login, min(m.role) AS role FROM (
    SELECT login, role FROM gh_org_members WHERE org = ?
    UNION ALL SELECT c.value, 'member' FROM gh_repos r, json_each(r.collaborators) c WHERE r.owner = ? COLLATE NOCASE
    UNION ALL SELECT ?, 'admin' WHERE EXISTS (SELECT 1 FROM gh_users WHERE login = ? COLLATE NOCASE AND type = 'Organization')
  ) m JOIN gh_users u ON u.login = m.login COLLATE NOCASE GROUP BY u.id`;

const membersArgs = (db: Db, org: string) => [org, org, authenticatedLogin(db), org];

/** The organization's members, by login, with their roles; `role` narrows to admins or members. */
export function orgMembers(db: Db, org: string, role: OrgRole | undefined, limit: number, offset: number) {
  const where = role ? " WHERE role = ?" : "";
  const args = [...membersArgs(db, org), ...(role ? [role] : [])];
  return {
    rows: db.all<{ login: string; role: OrgRole }>(
      `SELECT * FROM (${MEMBERS})${where} ORDER BY lower(login) LIMIT ? OFFSET ?`,
      ...args,
      limit,
      offset,
    ),
    total: db.one<{ n: number }>(`SELECT count(*) AS n FROM (${MEMBERS})${where}`, ...args)?.n ?? 0,
  };
}

/** The role `login` holds in `org`, or undefined when it is not a member. */
export const orgRoleOf = (db: Db, org: string, login: string): OrgRole | undefined =>
  db.one<{ role: OrgRole }>(`SELECT role FROM (${MEMBERS}) WHERE login = ? COLLATE NOCASE`, ...membersArgs(db, org), login)?.role;

/** The organizations `login` is a member of, by login. */
export function orgsOf(db: Db, login: string, limit: number, offset: number): { rows: { login: string }[]; total: number } {
  const orgs = db.all<{ login: string }>("SELECT login FROM gh_users WHERE type = 'Organization' ORDER BY lower(login)");
  const mine = orgs.filter((o) => orgRoleOf(db, o.login, login) !== undefined);
  return { rows: mine.slice(offset, offset + limit), total: mine.length };
}

/** Makes `login` a member of `org` (GitHub adds a user to the organization with its team), keeping an owner an owner. */
export function ensureOrgMember(db: Db, org: string, login: string): void {
  db.run("INSERT OR IGNORE INTO gh_org_profiles (org, description) VALUES (?, NULL)", org);
  if (orgRoleOf(db, org, login) !== undefined) return;
  const position = db.one<{ n: number }>("SELECT count(*) AS n FROM gh_org_members WHERE org = ?", org)?.n ?? 0;
  db.run("INSERT OR IGNORE INTO gh_org_members (org, login, role, position) VALUES (?, ?, 'member', ?)", org, login, position);
}

export const findTeam = (db: Db, org: string, slug: string) =>
  db.one<TeamRow>("SELECT * FROM gh_teams WHERE org = ? AND slug = ?", org, slug);

export const teamsOf = (db: Db, org: string, limit: number, offset: number) => ({
  rows: db.all<TeamRow>("SELECT * FROM gh_teams WHERE org = ? ORDER BY lower(name), id LIMIT ? OFFSET ?", org, limit, offset),
  total: db.one<{ n: number }>("SELECT count(*) AS n FROM gh_teams WHERE org = ?", org)?.n ?? 0,
});

export const teamMembers = (db: Db, teamId: number, role: "member" | "maintainer" | undefined, limit: number, offset: number) => {
  const where = `team_id = ?${role ? " AND role = ?" : ""}`;
  const args = role ? [teamId, role] : [teamId];
  return {
    rows: db.all<{ login: string; role: string }>(
      `SELECT login, role FROM gh_team_members WHERE ${where} ORDER BY lower(login) LIMIT ? OFFSET ?`,
      ...args,
      limit,
      offset,
    ),
    total: db.one<{ n: number }>(`SELECT count(*) AS n FROM gh_team_members WHERE ${where}`, ...args)?.n ?? 0,
  };
};

export const teamRoleOf = (db: Db, teamId: number, login: string) =>
  db.one<{ role: "member" | "maintainer" }>("SELECT role FROM gh_team_members WHERE team_id = ? AND login = ?", teamId, login)?.role;

/** Adds `login` to the team or changes its role; the team's organization gains the member too. */
export function setTeamMember(db: Db, team: TeamRow, login: string, role: "member" | "maintainer", now: string): void {
  ensureOrgMember(db, team.org, login);
  const position =
    db.one<{ n: number }>("SELECT coalesce(max(position) + 1, 0) AS n FROM gh_team_members WHERE team_id = ?", team.id)?.n ?? 0;
  db.run(
    "INSERT INTO gh_team_members (team_id, login, role, position) VALUES (?, ?, ?, ?) ON CONFLICT (team_id, login) DO UPDATE SET role = excluded.role",
    team.id,
    login,
    role,
    position,
  );
  db.run("UPDATE gh_teams SET updated_at = ? WHERE id = ?", now, team.id);
}

export const removeTeamMember = (db: Db, teamId: number, login: string) =>
  db.run("DELETE FROM gh_team_members WHERE team_id = ? AND login = ?", teamId, login);

export const teamRepoPermission = (db: Db, teamId: number, repoId: number) =>
  db.one<{ permission: TeamPermission }>("SELECT permission FROM gh_team_repos WHERE team_id = ? AND repo_id = ?", teamId, repoId)
    ?.permission;

export function setTeamRepo(db: Db, teamId: number, repoId: number, permission: TeamPermission): void {
  const position = db.one<{ n: number }>("SELECT coalesce(max(position) + 1, 0) AS n FROM gh_team_repos WHERE team_id = ?", teamId)?.n ?? 0;
  db.run(
    "INSERT INTO gh_team_repos (team_id, repo_id, permission, position) VALUES (?, ?, ?, ?) ON CONFLICT (team_id, repo_id) DO UPDATE SET permission = excluded.permission",
    teamId,
    repoId,
    permission,
    position,
  );
}

export const removeTeamRepo = (db: Db, teamId: number, repoId: number) =>
  db.run("DELETE FROM gh_team_repos WHERE team_id = ? AND repo_id = ?", teamId, repoId);

export const teamCounts = (db: Db, teamId: number) => ({
  members: db.one<{ n: number }>("SELECT count(*) AS n FROM gh_team_members WHERE team_id = ?", teamId)?.n ?? 0,
  repos: db.one<{ n: number }>("SELECT count(*) AS n FROM gh_team_repos WHERE team_id = ?", teamId)?.n ?? 0,
});

/** A team as teams/create and teams/update-in-org take it, resolved to the twin's columns. */
export interface TeamFields {
  name: string;
  description: string | null;
  privacy: "closed" | "secret";
  parent_slug: string | null;
}

/** Another team of `org` whose name or slug is taken by `name` (team names are unique per organization, ignoring case). */
export const teamNamed = (db: Db, org: string, name: string, slug: string, except = 0) =>
  db.one<TeamRow>(
    "SELECT * FROM gh_teams WHERE org = ? AND (lower(name) = lower(?) OR slug = ?) AND id <> ? LIMIT 1",
    org,
    name,
    slug,
    except,
  );

/** The slugs of a team and every team nested under it, the team first. */
export function teamAndDescendants(db: Db, org: string, slug: string): string[] {
  const out = [slug];
  for (let i = 0; i < out.length && out.length < 10_000; i++) {
    for (const child of db.all<{ slug: string }>("SELECT slug FROM gh_teams WHERE org = ? AND parent_slug = ?", org, out[i]))
      if (!out.includes(child.slug)) out.push(child.slug);
  }
  return out;
}

export function insertTeam(db: Db, id: number, org: string, slug: string, t: TeamFields, now: string): TeamRow {
  db.run("INSERT OR IGNORE INTO gh_org_profiles (org, description) VALUES (?, NULL)", org);
  db.run(
    "INSERT INTO gh_teams (id, org, slug, name, description, privacy, parent_slug, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
    id,
    org,
    slug,
    t.name,
    t.description,
    t.privacy,
    t.parent_slug,
    now,
    now,
  );
  return findTeam(db, org, slug) as TeamRow;
}

/** Changes a team; a new name gives it a new slug, which the teams nested under it follow. */
export function updateTeam(db: Db, team: TeamRow, slug: string, t: TeamFields, now: string): TeamRow {
  db.run(
    "UPDATE gh_teams SET slug = ?, name = ?, description = ?, privacy = ?, parent_slug = ?, updated_at = ? WHERE id = ?",
    slug,
    t.name,
    t.description,
    t.privacy,
    t.parent_slug,
    now,
    team.id,
  );
  if (slug !== team.slug) db.run("UPDATE gh_teams SET parent_slug = ? WHERE org = ? AND parent_slug = ?", slug, team.org, team.slug);
  return findTeam(db, team.org, slug) as TeamRow;
}

/** Deletes a team and the teams nested under it (as GitHub does for an organization owner), with their members and repositories. */
export function deleteTeam(db: Db, team: TeamRow): void {
  for (const slug of teamAndDescendants(db, team.org, team.slug)) {
    const row = findTeam(db, team.org, slug);
    if (!row) continue;
    db.run("DELETE FROM gh_team_members WHERE team_id = ?", row.id);
    db.run("DELETE FROM gh_team_repos WHERE team_id = ?", row.id);
    db.run("DELETE FROM gh_team_review_requests WHERE team_id = ?", row.id);
    db.run("DELETE FROM gh_teams WHERE id = ?", row.id);
  }
}
