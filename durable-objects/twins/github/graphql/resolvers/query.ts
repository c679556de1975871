// The root query fields: the viewer, users, organizations, repositories, global ids, search and
// the rate limit. Not-found answers use GitHub's words (type NOT_FOUND, field null, data kept).
import { bucketStatus } from "../../rate-limit";
import { findUser } from "../../repos";
import { parseSearch, searchIssues } from "../../store/search";
import { parseRepoSearch, parseUserSearch, searchRepositories, searchUsers } from "../../store/search-repos";
import { type PageArgs, connectionOf } from "../connection";
import { type Gql, type Resolvers, Unsupported } from "../context";
import { GithubGraphqlError, notFound } from "../errors";
import { actorSource, findRepository, issueSource, nodeSource, repositorySource } from "../sources";

/** GitHub serves at most the first 1,000 results of a search, in GraphQL as in REST. */
const SEARCH_CAP = 1000;
/** The most ids `nodes(ids:)` takes at once. */
const MAX_NODE_IDS = 100;

const cannotSearch = () =>
  new GithubGraphqlError(
    "INVALID",
    "The listed users and repositories cannot be searched either because the resources do not exist or you do not have permission to view them.",
  );

/** A search's counts: the one of its type, the others zero (GitHub counts only what it searched). */
const counts = (type: string, total: number) => ({
  issueCount: type === "ISSUE" ? total : 0,
  repositoryCount: type === "REPOSITORY" ? total : 0,
  userCount: type === "USER" ? total : 0,
});

/** Repositories and accounts, found by the store functions REST's search/repos and search/users use (best match). */
function searchAccountsOrRepos(gql: Gql, a: PageArgs & { query: string; type: string }) {
  const db = gql.ctx.db;
  const order = { order: "desc" as const };
  if (a.type === "REPOSITORY") {
    const query = parseRepoSearch(a.query);
    const counted = searchRepositories(db, query, order, 0, 0);
    if (!counted.ok) throw cannotSearch();
    const conn = connectionOf(a, Math.min(counted.total, SEARCH_CAP), (limit, offset) => {
      const page = searchRepositories(db, query, order, limit, offset);
      return page.ok ? page.rows.map((row) => repositorySource(row)) : [];
    });
    return { ...conn, ...counts(a.type, counted.total) };
  }
  const query = parseUserSearch(a.query);
  const total = searchUsers(db, query, order, 0, 0).total;
  const conn = connectionOf(a, Math.min(total, SEARCH_CAP), (limit, offset) =>
    searchUsers(db, query, order, limit, offset).rows.map((row) => actorSource(gql, row.login)),
  );
  return { ...conn, ...counts(a.type, total) };
}

function search(gql: Gql, a: PageArgs & { query: string; type: string }) {
  if (a.type === "REPOSITORY" || a.type === "USER") return searchAccountsOrRepos(gql, a);
  if (a.type !== "ISSUE") throw new Unsupported(`search of type ${a.type} in GraphQL`);
  const db = gql.ctx.db;
  const query = parseSearch(a.query);
  const sort = { by: "best-match" as const, order: "desc" as const };
  const counted = searchIssues(db, query, sort, 0, 0);
  if (!counted.ok) throw cannotSearch();
  const conn = connectionOf(a, Math.min(counted.total, SEARCH_CAP), (limit, offset) => {
    const page = searchIssues(db, query, sort, limit, offset);
    return page.ok
      ? page.rows.flatMap((row) => {
          const repo = gql.view.repoRow(row.repo_id);
          return repo ? [issueSource(repo, row)] : [];
        })
      : [];
  });
  return { ...conn, ...counts(a.type, counted.total) };
}

export const queryResolvers: Resolvers = {
  Query: {
    viewer: (_s: unknown, _a: unknown, gql: Gql) => actorSource(gql, gql.view.actor),
    user: (_s: unknown, a: { login: string }, gql: Gql) => {
      const row = findUser(gql.ctx, a.login);
      if (!row || row.type === "Organization") throw notFound(`Could not resolve to a User with the login of '${a.login}'.`);
      return actorSource(gql, row.login);
    },
    organization: (_s: unknown, a: { login: string }, gql: Gql) => {
      const row = findUser(gql.ctx, a.login);
      if (row?.type !== "Organization") throw notFound(`Could not resolve to an Organization with the login of '${a.login}'.`);
      return actorSource(gql, row.login);
    },
    repository: (_s: unknown, a: { owner: string; name: string }, gql: Gql) => {
      const repo = findRepository(gql, a.owner, a.name);
      if (!repo) throw notFound(`Could not resolve to a Repository with the name '${a.owner}/${a.name}'.`);
      return repositorySource(repo);
    },
    node: (_s: unknown, a: { id: string }, gql: Gql) => {
      const found = nodeSource(gql, a.id);
      if (!found) throw notFound(`Could not resolve to a node with the global id of '${a.id}'`);
      return found;
    },
    nodes: (_s: unknown, a: { ids: readonly string[] }, gql: Gql) => {
      // GitHub's refusal, as its answers word it (no error type given).
      if (a.ids.length > MAX_NODE_IDS)
        throw new GithubGraphqlError(undefined, `You may not request more than ${MAX_NODE_IDS} nodes at once.`);
      return a.ids.map(
        (id) => nodeSource(gql, id) ?? new GithubGraphqlError("NOT_FOUND", `Could not resolve to a node with the global id of '${id}'`),
      );
    },
    search: (_s: unknown, a: PageArgs & { query: string; type: string }, gql: Gql) => search(gql, a),
    rateLimit: (_s: unknown, _a: unknown, gql: Gql) => {
      // The graphql bucket (rate-limit.ts), this call's points already spent.
      const b = bucketStatus(gql.ctx, "graphql");
      return {
        cost: gql.cost,
        limit: b.limit,
        nodeCount: gql.nodeCount,
        remaining: b.remaining,
        resetAt: new Date(b.reset * 1000).toISOString().replace(/\.\d{3}Z$/, "Z"),
        used: b.used,
      };
    },
  },
};
