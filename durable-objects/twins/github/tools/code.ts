// Files in the repository, and the CI statuses reported on commits.
import { z } from "zod";
import type { TwinTool } from "../../types";
import { trimSlashes } from "../input";
import { base64Utf8, bodyOf, filePath, pageArgs, query, repoArgs, repoPath, seg, tool } from "./define";

const contentTools: readonly TwinTool[] = [
  tool({
    name: "get_file_contents",
    description:
      "Read a file (or list a directory) at a branch, tag or commit. A file's `content` is base64-encoded, as GitHub sends it; its `sha` is needed to update the file.",
    input: {
      ...repoArgs,
      path: z.string().describe('Path inside the repository, e.g. "src/index.ts"; empty for the root directory'),
      ref: z.string().optional().describe("Branch, tag or commit SHA (default: the default branch)"),
    },
    readOnly: true,
    toRequest: (a) => ({
      method: "GET",
      path: repoPath(a, trimSlashes(a.path) ? `/contents/${filePath(a.path)}` : "/contents"),
      query: query({ ref: a.ref }),
    }),
  }),
  tool({
    name: "create_or_update_file",
    description:
      "Create or overwrite one file on a branch as a new commit. Pass the new content as plain text (the tool encodes it). To overwrite an existing file pass its current `sha` from get_file_contents.",
    input: {
      ...repoArgs,
      path: z.string().min(1).describe('Path inside the repository, e.g. "docs/setup.md"'),
      content: z.string().describe("The whole new file content, as plain UTF-8 text"),
      message: z.string().min(1).describe("The commit message"),
      branch: z.string().optional().describe("The branch to commit to (default: the default branch)"),
      sha: z.string().optional().describe("The blob SHA of the file being replaced; required when the file exists"),
    },
    destructive: true,
    toRequest: (a) => ({
      method: "PUT",
      path: repoPath(a, `/contents/${filePath(a.path)}`),
      body: {
        message: a.message,
        content: base64Utf8(a.content),
        ...(a.branch !== undefined ? { branch: a.branch } : {}),
        ...(a.sha !== undefined ? { sha: a.sha } : {}),
      },
    }),
  }),
  tool({
    name: "delete_file",
    description: "Delete one file on a branch as a new commit. Needs the file's current `sha` from get_file_contents.",
    input: {
      ...repoArgs,
      path: z.string().min(1).describe("Path of the file to delete"),
      message: z.string().min(1).describe("The commit message"),
      sha: z.string().min(1).describe("The blob SHA of the file"),
      branch: z.string().optional().describe("The branch (default: the default branch)"),
    },
    destructive: true,
    toRequest: (a) => ({
      method: "DELETE",
      path: repoPath(a, `/contents/${filePath(a.path)}`),
      body: bodyOf(a, ["owner", "repo", "path"]),
    }),
  }),
];

const statusTools: readonly TwinTool[] = [
  tool({
    name: "get_combined_status",
    description:
      "Get the combined CI status of a branch, tag or commit: `state` is failure if any check failed, pending if any is pending, success if all passed; `statuses` lists each context.",
    input: { ...repoArgs, ref: z.string().min(1).describe("Branch name, tag or commit SHA") },
    readOnly: true,
    toRequest: (a) => ({ method: "GET", path: repoPath(a, `/commits/${seg(a.ref)}/status`) }),
  }),
  tool({
    name: "list_commit_statuses",
    description: "List every status reported for a branch, tag or commit, newest first.",
    input: { ...repoArgs, ref: z.string().min(1).describe("Branch name, tag or commit SHA"), ...pageArgs },
    readOnly: true,
    toRequest: ({ owner, repo, ref, ...q }) => ({
      method: "GET",
      path: repoPath({ owner, repo }, `/commits/${seg(ref)}/statuses`),
      query: query(q),
    }),
  }),
  tool({
    name: "create_commit_status",
    description: 'Report a CI status (error, failure, pending or success) on a commit under a context such as "ci/build".',
    input: {
      ...repoArgs,
      sha: z.string().min(1).describe("The commit SHA (a branch's head is `commit.sha` from get_branch)"),
      state: z.enum(["error", "failure", "pending", "success"]).describe("The status"),
      context: z.string().optional().describe('Which check this is, e.g. "ci/build" (default "default")'),
      description: z.string().optional().describe("A short human-readable summary"),
      target_url: z.string().optional().describe("Link to the build's details"),
    },
    toRequest: (a) => ({ method: "POST", path: repoPath(a, `/statuses/${seg(a.sha)}`), body: bodyOf(a, ["owner", "repo", "sha"]) }),
  }),
];

export const codeTools: readonly TwinTool[] = [...contentTools, ...statusTools];
