// GitHub's MCP tools: one typed front per REST operation the twin implements. A tool only maps its
// arguments onto the REST call Octokit would make; the call then runs through the same dispatch
// and lands on the same tape, so the transports differ only in the tape's `transport`.
import type { TwinTool } from "../types";
import { activityTools } from "./tools/activity";
import { codeTools } from "./tools/code";
import { commentTools } from "./tools/comments";
import { gitTools } from "./tools/git";
import { gitDatabaseTools } from "./tools/git-database";
import { issueTools } from "./tools/issues";
import { labelAndMilestoneTools } from "./tools/labels";
import { pullTools } from "./tools/pulls";
import { releaseTools } from "./tools/releases";
import { repoTools } from "./tools/repos";
import { reviewTools } from "./tools/reviews";

export const githubTools: readonly TwinTool[] = [
  ...repoTools,
  ...issueTools,
  ...commentTools,
  ...labelAndMilestoneTools,
  ...pullTools,
  ...reviewTools,
  ...codeTools,
  ...gitTools,
  ...gitDatabaseTools,
  ...activityTools,
  ...releaseTools,
];
