// The authenticated user's issues across repositories: GET /issues, GET /user/issues and
// GET /orgs/{org}/issues. Each issue carries its `repository`, as GitHub's list does
// (@octokit/openapi `issues/list`: "issue" items with `repository`).
import { z } from "zod";
import type { Route, TwinContext } from "../../types";
import { authenticatedLogin } from "../context";
import { direction, lenient, pageQuery, route, since } from "../declare";
import { queryTime } from "../input";
import { pageOf, paged } from "../pagination";
import { findRepoById, type RepoRow } from "../repos";
import { View } from "../serialize";
import { ISSUE_FILTERS, listGlobalIssues } from "../store/issues-global";
import { issueList } from "../view-issues";
import { orgParam, requireOrg } from "./orgs";

const listQuery = {
  filter: lenient(z.enum(ISSUE_FILTERS)).describe(
    "Which issues: assigned to you (default), created by you, mentioning you, subscribed (any of those), repos or all",
  ),
  state: lenient(z.enum(["open", "closed", "all"])).describe("Which issues (default open)"),
  labels: z.string().optional().describe('Comma-separated label names; only issues having all of them, e.g. "bug,ui"'),
  sort: lenient(z.enum(["created", "updated", "comments"])).describe("What to sort by (default created)"),
  direction,
  since,
  ...pageQuery,
};

type ListQuery = z.output<z.ZodObject<typeof listQuery>>;

function listAcross(ctx: TwinContext, q: ListQuery, owner?: string) {
  const page = pageOf(ctx);
  const { rows, total } = listGlobalIssues(
    ctx.db,
    {
      actor: authenticatedLogin(ctx),
      filter: q.filter ?? "assigned",
      state: q.state ?? "open",
      labels: (q.labels ?? "")
        .split(",")
        .map((l) => l.trim())
        .filter(Boolean),
      since: queryTime(q.since ?? null, "Issue", "since"),
      sort: q.sort ?? "created",
      direction: q.direction ?? "desc",
      owner,
    },
    page.limit,
    page.offset,
  );
  const v = new View(ctx);
  const repos = new Map<number, RepoRow | undefined>();
  const out = rows.flatMap((row) => {
    if (!repos.has(row.repo_id)) repos.set(row.repo_id, findRepoById(ctx.db, row.repo_id));
    const repo = repos.get(row.repo_id);
    return repo ? issueList(v, repo, [row]).map((issue) => ({ ...issue, repository: v.repository(repo) })) : [];
  });
  return paged(ctx, out, page, total);
}

export const globalIssueRoutes: readonly Route[] = [
  route({
    method: "GET",
    pattern: "/issues",
    operation: "issues.list",
    summary: "List issues assigned to the authenticated user",
    resource: "Issue",
    query: listQuery,
    tool: {
      name: "list_my_issues",
      description:
        "List issues (and pull requests) across every repository you can see: assigned to you by default; `filter` picks created, mentioned, subscribed or all.",
    },
    handler: (ctx, { query }) => listAcross(ctx, query),
  }),
  route({
    method: "GET",
    pattern: "/user/issues",
    operation: "issues.listForAuthenticatedUser",
    summary: "List user account issues assigned to the authenticated user",
    resource: "Issue",
    query: listQuery,
    tool: {
      name: "list_user_account_issues",
      description: "List issues across the repositories you own or collaborate on: assigned to you by default; `filter` picks others.",
    },
    handler: (ctx, { query }) => listAcross(ctx, query),
  }),
  route({
    method: "GET",
    pattern: "/orgs/:org/issues",
    operation: "issues.listForOrg",
    summary: "List organization issues assigned to the authenticated user",
    resource: "Issue",
    params: { org: orgParam },
    query: listQuery,
    tool: {
      name: "list_organization_issues",
      description: "List issues in one organization's repositories: assigned to you by default; `filter` picks created, mentioned or all.",
    },
    handler: (ctx, { params, query }) => listAcross(ctx, query, requireOrg(ctx, params.org).login),
  }),
];
