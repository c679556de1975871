// Branches, git references and commits.
import { z } from "zod";
import type { TwinTool } from "../../types";
import { filePath, pageArgs, query, repoArgs, repoPath, seg, tool } from "./define";

const branchName = z.string().min(1).describe("The branch name");
/** A reference as git names it, without `refs/`: "heads/main". */
const refName = z.string().min(1).describe('A reference without the "refs/" prefix, e.g. "heads/main"');
const refPath = (ref: string) => filePath(ref.replace(/^refs\//, ""));

export const gitTools: readonly TwinTool[] = [
  tool({
    name: "list_branches",
    description: "List a repository's branches with the SHA of each branch's head commit.",
    input: {
      ...repoArgs,
      protected: z.boolean().optional().describe("Only protected (true) or unprotected (false) branches"),
      ...pageArgs,
    },
    readOnly: true,
    toRequest: ({ owner, repo, ...q }) => ({ method: "GET", path: repoPath({ owner, repo }, "/branches"), query: query(q) }),
  }),
  tool({
    name: "get_branch",
    description: "Get one branch: its head commit (`commit.sha`) and whether it is protected.",
    input: { ...repoArgs, branch: z.string().min(1).describe("The branch name") },
    readOnly: true,
    toRequest: (a) => ({ method: "GET", path: repoPath(a, `/branches/${seg(a.branch)}`) }),
  }),
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
    name: "list_commits",
    description: "List commits, newest first, on a branch (or touching one path).",
    input: {
      ...repoArgs,
      sha: z.string().optional().describe("Branch name or commit SHA to start from (default: the default branch)"),
      path: z.string().optional().describe("Only commits touching this file path"),
      author: z.string().optional().describe("Only commits by this login"),
      since: z.string().optional().describe("Only commits at or after this ISO 8601 time"),
      until: z.string().optional().describe("Only commits before this ISO 8601 time"),
      ...pageArgs,
    },
    readOnly: true,
    toRequest: ({ owner, repo, ...q }) => ({ method: "GET", path: repoPath({ owner, repo }, "/commits"), query: query(q) }),
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
  tool({
    name: "get_commit",
    description: "Get one commit by SHA or branch name: message, author, parents, and the files it changed.",
    input: { ...repoArgs, ref: z.string().min(1).describe("A commit SHA or branch name") },
    readOnly: true,
    toRequest: (a) => ({ method: "GET", path: repoPath(a, `/commits/${seg(a.ref)}`) }),
  }),
];
