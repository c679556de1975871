// Users and repositories: who the credentials act as, and the repository lists.
import type { SqlValue } from "../../../sql";
import type { Route, TwinContext } from "../../types";
import { authenticatedLogin, ok, route } from "../context";
import { fail, ghNotFound } from "../errors";
import { queryEnum } from "../input";
import { pageOf, paged } from "../pagination";
import { findUser, requireRepo, type RepoRow } from "../repos";
import { View } from "../serialize";

const SORTS = ["created", "updated", "pushed", "full_name"] as const;

/** A page of repositories, filtered and sorted the way the three list endpoints share. */
function repoPage(ctx: TwinContext, where: string[], params: SqlValue[], defaultSort: (typeof SORTS)[number]) {
  const sort = queryEnum(ctx.query.get("sort"), SORTS, defaultSort);
  // GitHub sorts by name ascending and by dates descending unless told otherwise.
  const direction = queryEnum(ctx.query.get("direction"), ["asc", "desc"] as const, sort === "full_name" ? "asc" : "desc");
  const visibility = ctx.query.get("visibility") ?? ctx.query.get("type");
  if (visibility === "public" || visibility === "private") {
    where.push("private = ?");
    params.push(visibility === "private" ? 1 : 0);
  }
  const column = sort === "full_name" ? "lower(owner) || '/' || lower(name)" : `${sort}_at`;
  const dir = direction === "asc" ? "ASC" : "DESC";
  const page = pageOf(ctx);
  const sql = `FROM gh_repos${where.length ? ` WHERE ${where.join(" AND ")}` : ""}`;
  const rows = ctx.db.all<RepoRow>(
    `SELECT * ${sql} ORDER BY ${column} ${dir}, id ${dir} LIMIT ? OFFSET ?`,
    ...params,
    page.limit,
    page.offset,
  );
  const total = ctx.db.one<{ n: number }>(`SELECT count(*) AS n ${sql}`, ...params)?.n ?? 0;
  const v = new View(ctx);
  return paged(
    ctx,
    rows.map((r) => v.repository(r)),
    page,
    total,
  );
}

export const userRepoRoutes: readonly Route[] = [
  route("GET", "/user", "users.getAuthenticated", "Get the authenticated user", (ctx) => {
    const user = findUser(ctx, authenticatedLogin(ctx)) ?? fail(ghNotFound());
    const owned = ctx.db.one<{ pub: number; priv: number }>(
      "SELECT sum(private = 0) AS pub, sum(private = 1) AS priv FROM gh_repos WHERE owner = ? COLLATE NOCASE",
      user.login,
    );
    return ok({
      ...new View(ctx).fullUser(user),
      private_gists: 0,
      total_private_repos: owned?.priv ?? 0,
      owned_private_repos: owned?.priv ?? 0,
      disk_usage: 0,
      collaborators: 0,
      two_factor_authentication: true,
      plan: { name: "free", space: 976562499, collaborators: 0, private_repos: 10000 },
    });
  }),
  route("GET", "/users/:username", "users.getByUsername", "Get a user", (ctx) => {
    const user = findUser(ctx, ctx.params.username) ?? fail(ghNotFound());
    return ok(new View(ctx).fullUser(user));
  }),
  route("GET", "/user/repos", "repos.listForAuthenticatedUser", "List repositories for the authenticated user", (ctx) =>
    // The sandbox's user holds admin on every repository of its world, so it sees them all.
    repoPage(ctx, [], [], "full_name"),
  ),
  route("GET", "/users/:username/repos", "repos.listForUser", "List repositories for a user", (ctx) => {
    const user = findUser(ctx, ctx.params.username) ?? fail(ghNotFound());
    return repoPage(ctx, ["owner = ? COLLATE NOCASE"], [user.login], "full_name");
  }),
  route("GET", "/orgs/:org/repos", "repos.listForOrg", "List organization repositories", (ctx) => {
    const org = findUser(ctx, ctx.params.org);
    if (org?.type !== "Organization") fail(ghNotFound());
    return repoPage(ctx, ["owner = ? COLLATE NOCASE"], [ctx.params.org], "created");
  }),
  route("GET", "/repos/:owner/:repo", "repos.get", "Get a repository", (ctx) => ok(new View(ctx).fullRepository(requireRepo(ctx)))),
];
