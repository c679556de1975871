// Repository and user lookups shared by every route: unique-index reads, constant in world size.
import type { Db } from "../types";
import { perStorage } from "../kit/boot-constants";
import type { TwinContext } from "../types";
import { fail, ghError, ghNotFound } from "./errors";

export interface RepoRow {
  id: number;
  owner: string;
  name: string;
  description: string | null;
  private: number;
  default_branch: string;
  topics: string;
  archived: number;
  collaborators: string;
  created_at: string;
  updated_at: string;
  pushed_at: string;
  next_number: number;
  /** Open issues and pull requests, kept as a counter so reading a repository stays O(1). */
  open_issues: number;
  homepage: string | null;
  /** The feature and merge switches stored over GitHub's defaults, as JSON (store/repo-admin.ts). */
  settings: string;
  /** The repository this one is a fork of. */
  fork_of: number | null;
  /** Stars and forks, kept as counters like open_issues. */
  stargazers: number;
  forks: number;
}

export interface UserRow {
  id: number;
  login: string;
  type: string;
  name: string | null;
  email: string | null;
}

export const findRepoByName = (db: Db, owner: string, name: string) =>
  db.one<RepoRow>("SELECT * FROM gh_repos WHERE owner = ? COLLATE NOCASE AND name = ? COLLATE NOCASE", owner, name);

export const findRepoById = (db: Db, id: number) => db.one<RepoRow>("SELECT * FROM gh_repos WHERE id = ?", id);

/** The repository each call last looked up, and the count of rows written when it did. */
const lookedUp = new WeakMap<TwinContext, { owner: string; name: string; written: number; row: RepoRow | undefined }>();

/**
 * The repository a call's path names. Every route under a repository resolves it before its
 * handler runs (declare.ts) and most handlers resolve it again: the second lookup is answered
 * from the first while the call has written nothing, since only a write can change the row.
 */
export function findRepo(ctx: TwinContext, owner = ctx.params.owner, name = ctx.params.repo): RepoRow | undefined {
  const seen = lookedUp.get(ctx);
  if (seen && seen.owner === owner && seen.name === name && seen.written === ctx.db.rowsWritten) return seen.row;
  const row = findRepoByName(ctx.db, owner, name);
  lookedUp.set(ctx, { owner, name, written: ctx.db.rowsWritten, row });
  return row;
}

export const requireRepo = (ctx: TwinContext): RepoRow => findRepo(ctx) ?? fail(ghNotFound());

/** A repository that may be written to: archived repositories are read-only on GitHub. */
export function requireWritableRepo(ctx: TwinContext): RepoRow {
  const repo = requireRepo(ctx);
  if (repo.archived) fail(ghError(403, "Repository was archived so is read-only."));
  return repo;
}

/** Users, by login as SQLite's NOCASE folds it: only boot writes gh_users, so a row read once holds. */
export const knownUsers = perStorage<UserRow | null>();

/** The key knownUsers files a login under: ASCII letters folded, as `COLLATE NOCASE` compares. */
export const userKey = (login: string) => login.replace(/[A-Z]+/g, (s) => s.toLowerCase());

export const findUser = (ctx: { db: Db }, login: string): UserRow | undefined =>
  knownUsers(ctx.db).get(
    userKey(login),
    () => ctx.db.one<UserRow>("SELECT * FROM gh_users WHERE login = ? COLLATE NOCASE", login) ?? null,
  ) ?? undefined;
