// Users and repositories: who the credentials act as, and the repository lists.
import type { SqlValue } from "../../types";
import { z } from "zod";
import type { Route, TwinContext } from "../../types";
import { authenticatedLogin, ok } from "../context";
import { direction, lenient, pageQuery, repoParams, route } from "../declare";
import { fail, ghNotFound } from "../errors";
import { pageOf, paged } from "../pagination";
import { findUser, requireRepo, type RepoRow } from "../repos";
import { View } from "../serialize";

const SORTS = ["created", "updated", "pushed", "full_name"] as const;

/** The query the three repository lists share; GitHub ignores a value it does not know. */
const repoListQuery = {
  visibility: lenient(z.enum(["all", "public", "private"])).describe("Which repositories by visibility (default all)"),
  type: lenient(z.enum(["all", "owner", "public", "private", "forks", "sources", "member"])).describe("Which repositories (default all)"),
  sort: lenient(z.enum(SORTS)).describe("What to sort by"),
  direction,
  ...pageQuery,
};
type RepoListQuery = z.output<z.ZodObject<typeof repoListQuery>>;

/** A page of repositories, filtered and sorted the way the three list endpoints share. */
function repoPage(ctx: TwinContext, query: RepoListQuery, where: string[], params: SqlValue[], defaultSort: (typeof SORTS)[number]) {
  const sort = query.sort ?? defaultSort;
  // GitHub sorts by name ascending and by dates descending unless told otherwise.
  const order = query.direction ?? (sort === "full_name" ? "asc" : "desc");
  const visibility = query.visibility ?? query.type;
  if (visibility === "public" || visibility === "private") {
    where.push("private = ?");
    params.push(visibility === "private" ? 1 : 0);
  }
  const column = sort === "full_name" ? "lower(owner) || '/' || lower(name)" : `${sort}_at`;
  const dir = order === "asc" ? "ASC" : "DESC";
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

const username = z.string().min(1).describe("The account's login");

export const userRepoRoutes: readonly Route[] = [
  route({
    method: "GET",
    pattern: "/user",
    operation: "users.getAuthenticated",
    summary: "Get the authenticated user",
    tool: {
      name: "get_me",
      description: 'Get the GitHub user these credentials act as: login, name, email. Use it to learn who "you" are before acting.',
    },
    handler(ctx) {
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
    },
  }),
  route({
    method: "GET",
    pattern: "/users/:username",
    operation: "users.getByUsername",
    summary: "Get a user",
    params: { username },
    tool: { name: "get_user", description: "Get a user or organization by login: name, type and public profile." },
    handler(ctx, { params }) {
      const user = findUser(ctx, params.username) ?? fail(ghNotFound());
      return ok(new View(ctx).fullUser(user));
    },
  }),
  route({
    method: "GET",
    pattern: "/user/repos",
    operation: "repos.listForAuthenticatedUser",
    summary: "List repositories for the authenticated user",
    query: repoListQuery,
    tool: {
      name: "list_my_repositories",
      description: "List the repositories the authenticated user can access, by full name unless sorted otherwise.",
    },
    // The sandbox's user holds admin on every repository of its world, so it sees them all.
    handler: (ctx, { query }) => repoPage(ctx, query, [], [], "full_name"),
  }),
  route({
    method: "GET",
    pattern: "/users/:username/repos",
    operation: "repos.listForUser",
    summary: "List repositories for a user",
    params: { username },
    query: repoListQuery,
    tool: { name: "list_user_repositories", description: "List the repositories a user owns, by full name unless sorted otherwise." },
    handler(ctx, { params, query }) {
      const user = findUser(ctx, params.username) ?? fail(ghNotFound());
      return repoPage(ctx, query, ["owner = ? COLLATE NOCASE"], [user.login], "full_name");
    },
  }),
  route({
    method: "GET",
    pattern: "/orgs/:org/repos",
    operation: "repos.listForOrg",
    summary: "List organization repositories",
    params: { org: z.string().min(1).describe("The organization's login") },
    query: repoListQuery,
    tool: { name: "list_org_repositories", description: "List an organization's repositories, newest first unless sorted otherwise." },
    handler(ctx, { params, query }) {
      const org = findUser(ctx, params.org);
      if (org?.type !== "Organization") fail(ghNotFound());
      return repoPage(ctx, query, ["owner = ? COLLATE NOCASE"], [params.org], "created");
    },
  }),
  route({
    method: "GET",
    pattern: "/repos/:owner/:repo",
    operation: "repos.get",
    summary: "Get a repository",
    params: repoParams,
    tool: {
      name: "get_repository",
      description: "Get a repository: description, default branch, visibility, open issue count and topics.",
    },
    handler: (ctx) => ok(new View(ctx).fullRepository(requireRepo(ctx))),
  }),
];
