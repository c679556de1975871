// The GitHub twin's route table, assembled from one file per area. Each entry names Octokit's
// operation for the tape. Every repository route also answers under /repositories/{id}, the
// form GitHub's own Link headers use. Order matters where two patterns could match one path.
import { z } from "zod";
import type { Route, RouteDeclaration, TwinContext } from "../types";
import { route } from "./context";
import { fail, ghNotFound } from "./errors";
import { findRepoById } from "./repos";
import { actionRoutes } from "./routes/actions";
import { activityRoutes } from "./routes/activity";
import { assigneeRoutes } from "./routes/assignees";
import { checkRoutes } from "./routes/checks";
import { commentRoutes } from "./routes/comments";
import { compareReadmeRoutes } from "./routes/compare-readme";
import { contentRoutes } from "./routes/contents";
import { gitRoutes } from "./routes/git";
import { hookRoutes } from "./routes/hooks";
import { graphqlRoutes } from "./graphql/routes";
import { gitDatabaseRoutes } from "./routes/git-database";
import { issueRoutes } from "./routes/issues";
import { globalIssueRoutes } from "./routes/issues-global";
import { labelRoutes } from "./routes/labels";
import { pullRoutes } from "./routes/pulls";
import { releaseRoutes } from "./routes/releases";
import { reviewCommentRoutes } from "./routes/review-comments";
import { reviewRoutes } from "./routes/reviews";
import { searchRoutes } from "./routes/search";
import { searchCodeRoutes } from "./routes/search-code";
import { searchRepoRoutes } from "./routes/search-repos";
import { orgRoutes } from "./routes/orgs";
import { protectionRoutes } from "./routes/protection";
import { teamAdminRoutes } from "./routes/team-admin";
import { teamRoutes } from "./routes/teams";
import { notificationRoutes } from "./routes/notifications";
import { repoAdminRoutes } from "./routes/repo-admin";
import { starRoutes } from "./routes/stars";
import { subIssueRoutes } from "./routes/sub-issues";
import { collaboratorRoutes } from "./routes/collaborators";
import { statusRoutes } from "./routes/statuses";
import { userRepoRoutes } from "./routes/users-repos";

const REPO_PREFIX = "/repos/:owner/:repo";

const repositoryId = z.number().int().positive().describe("The repository's numeric id, as GitHub's Link headers use it");

/**
 * The declaration of a route's /repositories/{repository_id} copy: the id stands for owner and repo
 * (OpenAPI lists it), and the copy carries no tool, so `toolsOf` derives each tool once.
 */
function declarationById(declared: RouteDeclaration | undefined): RouteDeclaration | undefined {
  if (!declared) return undefined;
  const { owner: _owner, repo: _repo, ...rest } = declared.params.shape;
  return { ...declared, params: z.object({ repository_id: repositoryId, ...rest }), tool: undefined };
}

/** The same route under /repositories/{repository_id}: the id is looked up, then the route runs. */
function byRepositoryId(r: Route): Route {
  const copy = route(
    r.method,
    `/repositories/:repository_id${r.pattern.slice(REPO_PREFIX.length)}`,
    r.operation,
    r.summary,
    (ctx: TwinContext) => {
      const id = Number(ctx.params.repository_id);
      const repo = (Number.isInteger(id) ? findRepoById(ctx.db, id) : undefined) ?? fail(ghNotFound());
      return r.handler({ ...ctx, params: { ...ctx.params, owner: repo.owner, repo: repo.name } });
    },
  );
  const declaration = declarationById(r.declaration);
  return declaration ? { ...copy, declaration } : copy;
}

const canonical: readonly Route[] = [
  ...userRepoRoutes,
  ...globalIssueRoutes,
  // Before issueRoutes: `/issues/comments` is not issue number "comments".
  ...commentRoutes,
  // Before issueRoutes too: `/issues/events` is not issue number "events".
  ...activityRoutes,
  ...issueRoutes,
  ...labelRoutes,
  ...assigneeRoutes,
  // Before pullRoutes: `/pulls/comments` is not pull number "comments".
  ...reviewCommentRoutes,
  ...pullRoutes,
  ...reviewRoutes,
  ...contentRoutes,
  ...compareReadmeRoutes,
  ...statusRoutes,
  ...checkRoutes,
  ...actionRoutes,
  ...hookRoutes,
  ...releaseRoutes,
  ...protectionRoutes,
  ...gitRoutes,
  ...gitDatabaseRoutes,
  ...searchRoutes,
  ...searchCodeRoutes,
  ...searchRepoRoutes,
  ...orgRoutes,
  ...teamRoutes,
  ...teamAdminRoutes,
  ...notificationRoutes,
  ...repoAdminRoutes,
  ...starRoutes,
  ...subIssueRoutes,
  ...collaboratorRoutes,
];

export const githubRoutes: readonly Route[] = [
  ...canonical,
  ...canonical.filter((r) => r.pattern.startsWith(`${REPO_PREFIX}/`) || r.pattern === REPO_PREFIX).map(byRepositoryId),
  // POST /graphql and /api/graphql (graphql/); index.ts mounts the REST routes under /api/v3 as well.
  ...graphqlRoutes,
];
