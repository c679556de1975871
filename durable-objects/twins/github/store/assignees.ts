// Who may be assigned in a repository, and who is assigned to an issue. Assignees live in their
// own table so the list filter `assignee=` walks an index instead of every issue.
import type { Db } from "../../types";
import type { RepoRow } from "../repos";
import { findUser } from "../repos";

/**
 * Assignable users: the repository's collaborators, its owner when the owner is a user, and the
 * sandbox's own user, who holds admin permission on every repository of the world.
 */
export function assignableLogins(db: Db, repo: RepoRow, actor: string): string[] {
  const logins = [...(JSON.parse(repo.collaborators) as string[])];
  const owner = findUser({ db }, repo.owner);
  if (owner?.type === "User") logins.unshift(owner.login);
  logins.push(actor);
  const seen = new Set<string>();
  return logins.filter((l) => {
    const key = l.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The canonical login when the user may be assigned in the repository, else undefined. */
export function assignable(db: Db, repo: RepoRow, actor: string, login: string): string | undefined {
  const match = assignableLogins(db, repo, actor).find((l) => l.toLowerCase() === login.toLowerCase());
  if (!match) return undefined;
  return findUser({ db }, match)?.login ?? match;
}

export const issueAssignees = (db: Db, issueId: number) =>
  db.all<{ login: string }>("SELECT login FROM gh_issue_assignees WHERE issue_id = ? ORDER BY position", issueId).map((r) => r.login);

/** GitHub keeps at most ten assignees on an issue; extra ones are dropped. */
export const MAX_ASSIGNEES = 10;

export function addAssignees(db: Db, repoId: number, issueId: number, logins: readonly string[]): void {
  const current = issueAssignees(db, issueId);
  let position = current.length;
  for (const login of logins) {
    if (position >= MAX_ASSIGNEES) break;
    if (current.some((c) => c.toLowerCase() === login.toLowerCase())) continue;
    db.run("INSERT INTO gh_issue_assignees (issue_id, repo_id, login, position) VALUES (?, ?, ?, ?)", issueId, repoId, login, position);
    current.push(login);
    position++;
  }
}

export function removeAssignees(db: Db, issueId: number, logins: readonly string[]): void {
  for (const login of logins) db.run("DELETE FROM gh_issue_assignees WHERE issue_id = ? AND login = ?", issueId, login);
}

export function setAssignees(db: Db, repoId: number, issueId: number, logins: readonly string[]): void {
  db.run("DELETE FROM gh_issue_assignees WHERE issue_id = ?", issueId);
  addAssignees(db, repoId, issueId, logins);
}
