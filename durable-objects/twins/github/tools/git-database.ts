// get_tree: a front of GET …/git/trees/{tree_sha} whose boolean `recursive` becomes `recursive=1`
// or nothing, since GitHub reads any value (`false` too) as yes; a derived tool would pass the
// boolean through. Every other git database tool is derived from its route (routes/git-database.ts).
import { z } from "zod";
import type { TwinTool } from "../../types";
import { query, repoArgs, repoPath, seg, tool } from "./define";

export const gitDatabaseTools: readonly TwinTool[] = [
  tool({
    name: "get_tree",
    description: "List a git tree's entries by tree SHA, or by branch name or commit SHA; recursive lists every file.",
    input: {
      ...repoArgs,
      tree_sha: z.string().min(1).describe("A tree SHA, a branch name or a commit SHA"),
      recursive: z.boolean().optional().describe("List every entry of every subtree"),
    },
    readOnly: true,
    toRequest: (a) => ({
      method: "GET",
      path: repoPath(a, `/git/trees/${seg(a.tree_sha)}`),
      query: query({ recursive: a.recursive ? "1" : undefined }),
    }),
  }),
];
