// Stars: what the authenticated user starred (list, check, star, unstar), what another user
// starred, and a repository's stargazers. With `Accept: application/vnd.github.star+json` the lists
// carry each star's time (`starred_at`) beside the repository or user, as GitHub documents
// (activity/list-stargazers-for-repo, activity/list-repos-starred-by-authenticated-user).
import { z } from "zod";
import type { Route, TwinContext } from "../../types";
import { authenticatedLogin, storeOf } from "../context";
import { direction, lenient, owner, pageQuery, repo, repoParams, route } from "../declare";
import { fail, ghNoContent, ghNotFound } from "../errors";
import { pageOf, paged } from "../pagination";
import { findUser, requireRepo } from "../repos";
import { View } from "../serialize";
import { isStarred, star, stargazersOf, starredBy, unstar } from "../store/stars";

/** Whether the caller asked for the star media type (`application/vnd.github.star+json`). */
const wantsStarTimes = (ctx: TwinContext) => /vnd\.github(?:\.v3)?\.star\+json/i.test(ctx.req.headers.accept ?? "");

const starredQuery = {
  sort: lenient(z.enum(["created", "updated"])).describe("created (when starred, the default) or updated (when the repository was)"),
  direction,
  ...pageQuery,
};
type StarredQuery = z.output<z.ZodObject<typeof starredQuery>>;

function starredPage(ctx: TwinContext, login: string, query: StarredQuery) {
  const page = pageOf(ctx);
  const { rows, total } = starredBy(ctx.db, login, {
    sort: query.sort ?? "created",
    direction: query.direction ?? "desc",
    limit: page.limit,
    offset: page.offset,
  });
  const v = new View(ctx);
  const times = wantsStarTimes(ctx);
  const body = rows.map(({ starred_at, ...r }) => (times ? { starred_at, repo: v.repository(r) } : v.repository(r)));
  return paged(ctx, body, page, total);
}

const starParams = { owner, repo };

export const starRoutes: readonly Route[] = [
  route({
    method: "GET",
    pattern: "/user/starred",
    operation: "activity.listReposStarredByAuthenticatedUser",
    summary: "List repositories starred by the authenticated user",
    query: starredQuery,
    tool: { name: "list_starred_repositories", description: "List the repositories you have starred, most recently starred first." },
    handler: (ctx, { query }) => starredPage(ctx, authenticatedLogin(ctx), query),
  }),
  route({
    method: "GET",
    pattern: "/user/starred/:owner/:repo",
    operation: "activity.checkRepoIsStarredByAuthenticatedUser",
    summary: "Check if a repository is starred by the authenticated user",
    tool: { name: "check_repository_starred", description: "Check whether you have starred a repository (204 if so, 404 if not)." },
    params: starParams,
    handler(ctx) {
      const r = requireRepo(ctx);
      return isStarred(ctx.db, authenticatedLogin(ctx), r.id) ? ghNoContent() : fail(ghNotFound());
    },
  }),
  route({
    method: "PUT",
    pattern: "/user/starred/:owner/:repo",
    operation: "activity.starRepoForAuthenticatedUser",
    summary: "Star a repository for the authenticated user",
    params: starParams,
    tool: { name: "star_repository", description: "Star a repository (starring it again changes nothing)." },
    handler(ctx) {
      const s = storeOf(ctx);
      star(ctx.db, s.actor, requireRepo(ctx).id, s.now);
      return ghNoContent();
    },
  }),
  route({
    method: "DELETE",
    pattern: "/user/starred/:owner/:repo",
    operation: "activity.unstarRepoForAuthenticatedUser",
    summary: "Unstar a repository for the authenticated user",
    params: starParams,
    tool: { name: "unstar_repository", description: "Remove your star from a repository." },
    handler(ctx) {
      unstar(ctx.db, authenticatedLogin(ctx), requireRepo(ctx).id);
      return ghNoContent();
    },
  }),
  route({
    method: "GET",
    pattern: "/users/:username/starred",
    operation: "activity.listReposStarredByUser",
    summary: "List repositories starred by a user",
    tool: { name: "list_user_starred_repositories", description: "List the repositories a user has starred, most recently starred first." },
    params: { username: z.string().min(1).describe("The account's login") },
    query: starredQuery,
    handler(ctx, { params, query }) {
      const user = findUser(ctx, params.username) ?? fail(ghNotFound());
      return starredPage(ctx, user.login, query);
    },
  }),
  route({
    method: "GET",
    pattern: "/repos/:owner/:repo/stargazers",
    operation: "activity.listStargazersForRepo",
    summary: "List stargazers",
    params: repoParams,
    query: pageQuery,
    tool: { name: "list_stargazers", description: "List the users who starred a repository, earliest first." },
    handler(ctx) {
      const r = requireRepo(ctx);
      const page = pageOf(ctx);
      const v = new View(ctx);
      const rows = stargazersOf(ctx.db, r.id, page.limit, page.offset);
      v.preloadUsers(rows.map((s) => s.login));
      const times = wantsStarTimes(ctx);
      const body = rows.map((s) => (times ? { starred_at: s.starred_at, user: v.user(s.login) } : v.user(s.login)));
      return paged(ctx, body, page, r.stargazers, r.id);
    },
  }),
];
