// GitHub's MCP tools: one typed front per REST operation the twin implements. A declared route's
// tool is derived from its declaration (kit/route.ts `toolsOf`): its arguments are the route's
// path parameters, query and body fields, and it makes exactly the REST call Octokit would make.
// The call then runs through the same dispatch and lands on the same tape, so the transports
// differ only in the tape's `transport`.
import { toolsOf } from "../kit/route";
import type { Route, TwinTool } from "../types";
import { githubRoutes } from "./routes";
import { activityTools } from "./tools/activity";
import { codeTools } from "./tools/code";
import { gitTools } from "./tools/git";
import { gitDatabaseTools } from "./tools/git-database";

/**
 * The tools of the declared routes, their calls written as the hand-written ones were: a route
 * that reads no query sends none (`query` left out rather than `{}`), and a bodiless call no body.
 */
export function derivedTools(routes: readonly Route[]): TwinTool[] {
  const tooled = routes.filter((r) => r.declaration?.tool);
  return toolsOf(tooled).map((tool, i) => {
    const readsQuery = Object.keys(tooled[i]?.declaration?.query.shape ?? {}).length > 0;
    return {
      ...tool,
      toRequest(args) {
        const { query, body, ...call } = tool.toRequest(args);
        return { ...call, ...(readsQuery ? { query } : {}), ...(body === undefined ? {} : { body }) };
      },
    };
  });
}

/**
 * Tools written by hand: the fronts of routes not declared yet, and the few that are not a 1:1
 * front of one route (each file says which and why).
 */
const extraTools: readonly TwinTool[] = [...codeTools, ...gitTools, ...gitDatabaseTools, ...activityTools];

export const githubTools: readonly TwinTool[] = [...derivedTools(githubRoutes), ...extraTools];
