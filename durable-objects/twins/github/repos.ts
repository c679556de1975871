// Repository and user lookups shared by every route.
import type { TwinContext } from "../types";
import { fail, ghNotFound } from "./errors";

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
}

export interface UserRow {
  id: number;
  login: string;
  type: string;
  name: string | null;
  email: string | null;
}

export function findRepo(ctx: TwinContext, owner = ctx.params.owner, name = ctx.params.repo): RepoRow | undefined {
  return ctx.db.one<RepoRow>("SELECT * FROM gh_repos WHERE owner = ? COLLATE NOCASE AND name = ? COLLATE NOCASE", owner, name);
}

export const requireRepo = (ctx: TwinContext): RepoRow => findRepo(ctx) ?? fail(ghNotFound());

export const findUser = (ctx: TwinContext, login: string) =>
  ctx.db.one<UserRow>("SELECT * FROM gh_users WHERE login = ? COLLATE NOCASE", login);
