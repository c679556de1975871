// The branch and ref tools that are not a 1:1 front of one route (routes/git.ts says why):
// create, update and delete a branch by name (the tool writes `refs/heads/<branch>`), and read refs
// by a name that may start with "refs/". The other branch and commit tools are derived.
import { z } from "zod";
import type { TwinTool } from "../../types";
import { filePath, repoArgs, repoPath, tool } from "./define";

const branchName = z.string().min(1).describe("The branch name");
/** A reference as git names it, without `refs/`: "heads/main". */
const refName = z.string().min(1).describe('A reference without the "refs/" prefix, e.g. "heads/main"');
const refPath = (ref: string) => filePath(ref.replace(/^refs\//, ""));

export const gitTools: readonly TwinTool[] = [
  tool({
    name: "create_branch",
    description: "Create a branch pointing at a commit. Get the commit SHA of the branch to start from with get_branch (`commit.sha`).",
    input: {
      ...repoArgs,
      branch: z.string().min(1).describe('The new branch\'s name, e.g. "fix-typo"'),
      sha: z.string().min(1).describe("The commit SHA the branch starts at"),
    },
    toRequest: (a) => ({ method: "POST", path: repoPath(a, "/git/refs"), body: { ref: `refs/heads/${a.branch}`, sha: a.sha } }),
  }),
  tool({
    name: "update_branch",
    description: "Move a branch to another commit. Without `force` only a fast-forward (a descendant of its current head) is allowed.",
    input: {
      ...repoArgs,
      branch: branchName,
      sha: z.string().min(1).describe("The commit SHA the branch should point at"),
      force: z.boolean().optional().describe("Allow moving the branch to a commit that is not a descendant"),
    },
    destructive: true,
    toRequest: (a) => ({
      method: "PATCH",
      path: repoPath(a, `/git/refs/heads/${refPath(a.branch)}`),
      body: { sha: a.sha, ...(a.force !== undefined ? { force: a.force } : {}) },
    }),
  }),
  tool({
    name: "delete_branch",
    description: "Delete a branch. Its commits stay reachable from other branches and pull requests that hold them.",
    input: { ...repoArgs, branch: branchName },
    destructive: true,
    toRequest: (a) => ({ method: "DELETE", path: repoPath(a, `/git/refs/heads/${refPath(a.branch)}`) }),
  }),
  tool({
    name: "get_ref",
    description: 'Get one git reference, e.g. "heads/main": the SHA it points at.',
    input: { ...repoArgs, ref: refName },
    readOnly: true,
    toRequest: (a) => ({ method: "GET", path: repoPath(a, `/git/ref/${refPath(a.ref)}`) }),
  }),
  tool({
    name: "list_matching_refs",
    description: 'List the git references whose names start with a prefix, e.g. "heads/fix" for every branch starting with "fix".',
    input: { ...repoArgs, ref: refName },
    readOnly: true,
    toRequest: (a) => ({ method: "GET", path: repoPath(a, `/git/matching-refs/${refPath(a.ref)}`) }),
  }),
];
