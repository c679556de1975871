// Stars: one row per user and repository, and the repository's `stargazers_count` kept as a
// counter beside it, so starring twice or unstarring what was never starred changes nothing.
import type { Db } from "../../types";
import type { RepoRow } from "../repos";

export interface StarRow {
  login: string;
  repo_id: number;
  starred_at: string;
}

export const isStarred = (db: Db, login: string, repoId: number) =>
  !!db.one("SELECT 1 AS x FROM gh_stars WHERE login = ? AND repo_id = ?", login, repoId);

/** Stars a repository for `login` at `at`; a second star keeps the first one's time (GitHub's PUT is idempotent). */
export function star(db: Db, login: string, repoId: number, at: string): void {
  if (isStarred(db, login, repoId)) return;
  db.run("INSERT INTO gh_stars (login, repo_id, starred_at) VALUES (?, ?, ?)", login, repoId, at);
  db.run("UPDATE gh_repos SET stargazers = stargazers + 1 WHERE id = ?", repoId);
}

export function unstar(db: Db, login: string, repoId: number): void {
  if (!isStarred(db, login, repoId)) return;
  db.run("DELETE FROM gh_stars WHERE login = ? AND repo_id = ?", login, repoId);
  db.run("UPDATE gh_repos SET stargazers = max(stargazers - 1, 0) WHERE id = ?", repoId);
}

export interface StarredPage {
  sort: "created" | "updated";
  direction: "asc" | "desc";
  limit: number;
  offset: number;
}

/** A page of the repositories `login` starred, with when; `created` is when the star was made. */
export function starredBy(db: Db, login: string, p: StarredPage): { rows: (RepoRow & { starred_at: string })[]; total: number } {
  const column = p.sort === "updated" ? "r.updated_at" : "s.starred_at";
  const dir = p.direction === "asc" ? "ASC" : "DESC";
  const rows = db.all<RepoRow & { starred_at: string }>(
    `SELECT r.*, s.starred_at FROM gh_stars s JOIN gh_repos r ON r.id = s.repo_id
     WHERE s.login = ? ORDER BY ${column} ${dir}, r.id ${dir} LIMIT ? OFFSET ?`,
    login,
    p.limit,
    p.offset,
  );
  const total = db.one<{ n: number }>("SELECT count(*) AS n FROM gh_stars WHERE login = ?", login)?.n ?? 0;
  return { rows, total };
}

/** A page of a repository's stargazers, oldest star first, as GitHub lists them. */
export function stargazersOf(db: Db, repoId: number, limit: number, offset: number): StarRow[] {
  return db.all<StarRow>("SELECT * FROM gh_stars WHERE repo_id = ? ORDER BY starred_at, login LIMIT ? OFFSET ?", repoId, limit, offset);
}
