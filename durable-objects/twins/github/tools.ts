// GitHub's MCP tools: one typed front per REST operation the twin implements. A tool only maps its
// arguments onto the REST call Octokit would make; the call then runs through the same dispatch
// and lands on the same tape, so the transports differ only in the tape's `transport`.
import type { TwinTool } from "../types";
import { codeTools } from "./tools/code";
import { commentTools } from "./tools/comments";
import { gitTools } from "./tools/git";
import { issueTools } from "./tools/issues";
import { labelAndMilestoneTools } from "./tools/labels";
import { pullTools } from "./tools/pulls";
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
];
