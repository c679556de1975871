// compare_commits: a front of GET …/compare/{basehead} that writes `base...head` into one path
// segment from two arguments, so it cannot be derived from the route's declaration (whose one
// `basehead` parameter is the whole segment). Every other activity tool is derived from its route.
import { z } from "zod";
import type { TwinTool } from "../../types";
import { repoArgs, repoPath, seg, tool } from "./define";

export const activityTools: readonly TwinTool[] = [
  tool({
    name: "compare_commits",
    description: "Compare two branches, tags or commits: status, ahead/behind counts, commits and changed files with patches.",
    input: { ...repoArgs, base: z.string().min(1).describe("The base ref"), head: z.string().min(1).describe("The head ref") },
    readOnly: true,
    toRequest: (a) => ({ method: "GET", path: repoPath(a, `/compare/${seg(a.base)}...${seg(a.head)}`) }),
  }),
];
