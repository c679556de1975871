// Boot and export of a GitHub seed's organizations (seed-orgs.ts): declared members and owners,
// teams, team members and maintainers, and the repositories each team grants.
import type { Db } from "../types";
import { findRepoByName } from "./repos";
import { type GithubOrganization, type GithubTeam, TEAM_PERMISSIONS, type TeamPermission } from "./seed-orgs";
import { SEED_EPOCH } from "./seed";

function bootTeam(db: Db, org: string, t: GithubTeam): void {
  db.run(
    "INSERT INTO gh_teams (id, org, slug, name, description, privacy, parent_slug, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
    t.id,
    org,
    t.slug,
    t.name,
    t.description,
    t.privacy,
    t.parent,
    SEED_EPOCH,
    SEED_EPOCH,
  );
  const people = [...t.maintainers.map((l) => [l, "maintainer"]), ...t.members.map((l) => [l, "member"])];
  people.forEach(([login, role], i) =>
    db.run("INSERT OR IGNORE INTO gh_team_members (team_id, login, role, position) VALUES (?, ?, ?, ?)", t.id, login, role, i),
  );
  t.repositories.forEach((r, i) => {
    const repo = findRepoByName(db, org, r.name);
    if (repo)
      db.run(
        "INSERT OR IGNORE INTO gh_team_repos (team_id, repo_id, permission, position) VALUES (?, ?, ?, ?)",
        t.id,
        repo.id,
        r.permission,
        i,
      );
  });
}

export function bootOrgs(db: Db, orgs: readonly GithubOrganization[]): void {
  for (const o of orgs) {
    db.run("INSERT OR IGNORE INTO gh_org_profiles (org, description) VALUES (?, ?)", o.login, o.description);
    const people = [...o.admins.map((l) => [l, "admin"]), ...o.members.map((l) => [l, "member"])];
    people.forEach(([login, role], i) =>
      db.run("INSERT OR IGNORE INTO gh_org_members (org, login, role, position) VALUES (?, ?, ?, ?)", o.login, login, role, i),
    );
    for (const t of o.teams) bootTeam(db, o.login, t);
  }
}

/** The ids the organizations take, for the world's next id. */
export const orgIds = (orgs: readonly GithubOrganization[]) => orgs.flatMap((o) => o.teams.map((t) => t.id));

const permissionOf = (value: string): TeamPermission => (TEAM_PERMISSIONS as readonly string[]).find((p) => p === value) as TeamPermission;

function exportTeam(
  db: Db,
  row: { id: number; name: string; slug: string; description: string | null; privacy: string; parent_slug: string | null },
): GithubTeam {
  const people = db.all<{ login: string; role: string }>(
    "SELECT login, role FROM gh_team_members WHERE team_id = ? ORDER BY position, login",
    row.id,
  );
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    description: row.description,
    privacy: row.privacy === "secret" ? "secret" : "closed",
    parent: row.parent_slug,
    members: people.filter((p) => p.role !== "maintainer").map((p) => p.login),
    maintainers: people.filter((p) => p.role === "maintainer").map((p) => p.login),
    repositories: db
      .all<{ name: string; permission: string }>(
        "SELECT r.name, tr.permission FROM gh_team_repos tr JOIN gh_repos r ON r.id = tr.repo_id WHERE tr.team_id = ? ORDER BY tr.position, r.name",
        row.id,
      )
      .map((r) => ({ name: r.name, permission: permissionOf(r.permission) })),
  };
}

export function exportOrgs(db: Db): GithubOrganization[] {
  // Every organization with members or teams has its profile row (boot and store/orgs.ts write it first).
  const orgs = db.all<{ org: string; description: string | null }>("SELECT org, description FROM gh_org_profiles ORDER BY rowid");
  return orgs.map((o) => {
    const people = db.all<{ login: string; role: string }>(
      "SELECT login, role FROM gh_org_members WHERE org = ? ORDER BY position, login",
      o.org,
    );
    const teams = db.all<Parameters<typeof exportTeam>[1]>("SELECT * FROM gh_teams WHERE org = ? ORDER BY id", o.org);
    return {
      login: o.org,
      description: o.description,
      admins: people.filter((p) => p.role === "admin").map((p) => p.login),
      members: people.filter((p) => p.role !== "admin").map((p) => p.login),
      teams: teams.map((t) => exportTeam(db, t)),
    };
  });
}
