// Collaborators and their roles. Who collaborates is the repository's `collaborators` list (what
// the seed names and exports); a role other than the default (write) is kept in
// gh_collaborator_roles. A user's repository gives its owner admin; the sandbox's own user holds
// admin on every repository of the world (as assignees.ts and serialize.ts already treat it).
// Adding someone who is not yet a collaborator invites them, as GitHub does (repos/add-collaborator:
// "The invitee will receive a notification ... which they must accept or decline").
import type { Db } from "../../types";
import type { RepoRow } from "../repos";
import { findUser } from "../repos";
import { nextId, type Store } from "./base";

/** GitHub's repository roles, weakest first, by the names the API takes (`permission`). */
export const ROLES = ["pull", "triage", "push", "maintain", "admin"] as const;
export type Role = (typeof ROLES)[number];

/** The name GitHub shows for a role (`role_name`): pull is read, push is write. */
export const roleName = (role: Role) => (role === "pull" ? "read" : role === "push" ? "write" : role);

/** The legacy base permission (`permission`): maintain reads as write and triage as read. */
export const legacyPermission = (role: Role | undefined) =>
  role === undefined ? "none" : role === "admin" ? "admin" : role === "push" || role === "maintain" ? "write" : "read";

/** The `permissions` object: every role up to and including this one. */
export function permissionsOf(role: Role) {
  const rank = ROLES.indexOf(role);
  return {
    pull: rank >= 0,
    triage: rank >= 1,
    push: rank >= 2,
    maintain: rank >= 3,
    admin: rank >= 4,
  };
}

export interface Collaborator {
  login: string;
  role: Role;
  /** Named in the repository's own list (as opposed to holding access as its owner or as the sandbox's user). */
  direct: boolean;
}

const listed = (repo: RepoRow) => JSON.parse(repo.collaborators) as string[];

const storedRole = (db: Db, repoId: number, login: string): Role =>
  db.one<{ role: Role }>("SELECT role FROM gh_collaborator_roles WHERE repo_id = ? AND login = ?", repoId, login)?.role ?? "push";

/** Everyone with access to the repository and their role, owner first, then the list, then the sandbox's user. */
export function collaboratorsOf(db: Db, repo: RepoRow, actor: string): Collaborator[] {
  const out: Collaborator[] = [];
  const seen = new Set<string>();
  const add = (c: Collaborator) => {
    const key = c.login.toLowerCase();
    if (seen.has(key)) return;
    seen.add(key);
    out.push(c);
  };
  const owner = findUser({ db }, repo.owner);
  if (owner?.type === "User") add({ login: owner.login, role: "admin", direct: true });
  // The sandbox's user holds admin wherever it is listed too.
  for (const login of listed(repo))
    add({ login, role: login.toLowerCase() === actor.toLowerCase() ? "admin" : storedRole(db, repo.id, login), direct: true });
  add({ login: actor, role: "admin", direct: false });
  return out;
}

export const collaboratorOf = (db: Db, repo: RepoRow, actor: string, login: string) =>
  collaboratorsOf(db, repo, actor).find((c) => c.login.toLowerCase() === login.toLowerCase());

/** Sets a listed collaborator's role (the default, write, is not stored). */
export function setRole(db: Db, repoId: number, login: string, role: Role): void {
  db.run("DELETE FROM gh_collaborator_roles WHERE repo_id = ? AND login = ?", repoId, login);
  if (role !== "push") db.run("INSERT INTO gh_collaborator_roles (repo_id, login, role) VALUES (?, ?, ?)", repoId, login, role);
}

/**
 * Removes `login`'s access, with what GitHub's reference says removal also does: their pending
 * invitation is cancelled, they are unassigned from the repository's issues, and their star on it
 * is removed.
 */
export function removeCollaborator(db: Db, repo: RepoRow, login: string): void {
  const list = listed(repo).filter((l) => l.toLowerCase() !== login.toLowerCase());
  db.run("UPDATE gh_repos SET collaborators = ? WHERE id = ?", JSON.stringify(list), repo.id);
  db.run("DELETE FROM gh_collaborator_roles WHERE repo_id = ? AND login = ?", repo.id, login);
  db.run("DELETE FROM gh_repo_invitations WHERE repo_id = ? AND invitee = ?", repo.id, login);
  db.run("DELETE FROM gh_issue_assignees WHERE repo_id = ? AND login = ?", repo.id, login);
  if (db.one("SELECT 1 AS x FROM gh_stars WHERE login = ? AND repo_id = ?", login, repo.id)) {
    db.run("DELETE FROM gh_stars WHERE login = ? AND repo_id = ?", login, repo.id);
    db.run("UPDATE gh_repos SET stargazers = max(stargazers - 1, 0) WHERE id = ?", repo.id);
  }
}

export interface InvitationRow {
  id: number;
  repo_id: number;
  invitee: string;
  inviter: string;
  role: Role;
  created_at: string;
}

/** Invites `login` with `role`; a pending invitation is updated to the new role rather than repeated. */
export function invite(s: Store, repo: RepoRow, login: string, role: Role): InvitationRow {
  const pending = s.db.one<InvitationRow>("SELECT * FROM gh_repo_invitations WHERE repo_id = ? AND invitee = ?", repo.id, login);
  if (pending) {
    s.db.run("UPDATE gh_repo_invitations SET role = ? WHERE id = ?", role, pending.id);
    return { ...pending, role };
  }
  const id = nextId(s.db);
  s.db.run(
    "INSERT INTO gh_repo_invitations (id, repo_id, invitee, inviter, role, created_at) VALUES (?, ?, ?, ?, ?, ?)",
    id,
    repo.id,
    login,
    s.actor,
    role,
    s.now,
  );
  return { id, repo_id: repo.id, invitee: login, inviter: s.actor, role, created_at: s.now };
}

export const invitationsOf = (db: Db, repoId: number, limit: number, offset: number) =>
  db.all<InvitationRow>("SELECT * FROM gh_repo_invitations WHERE repo_id = ? ORDER BY id LIMIT ? OFFSET ?", repoId, limit, offset);

export const findInvitation = (db: Db, repoId: number, id: number) =>
  db.one<InvitationRow>("SELECT * FROM gh_repo_invitations WHERE repo_id = ? AND id = ?", repoId, id);
