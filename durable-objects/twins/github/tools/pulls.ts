// Pull requests: listing, opening, editing, merging, and asking for reviews.
import { z } from "zod";
import type { TwinTool } from "../../types";
import { bodyOf, direction, logins, pageArgs, pullNumber, query, repoArgs, repoPath, tool } from "./define";

export const pullTools: readonly TwinTool[] = [
  tool({
    name: "list_pull_requests",
    description: "List a repository's pull requests, newest first.",
    input: {
      ...repoArgs,
      state: z.enum(["open", "closed", "all"]).optional().describe("Which pull requests to list (default open)"),
      head: z.string().optional().describe('Only pull requests from this branch, written "owner:branch"'),
      base: z.string().optional().describe("Only pull requests into this branch"),
      sort: z.enum(["created", "updated", "popularity", "long-running"]).optional().describe("What to sort by (default created)"),
      direction,
      ...pageArgs,
    },
    readOnly: true,
    toRequest: ({ owner, repo, ...q }) => ({ method: "GET", path: repoPath({ owner, repo }, "/pulls"), query: query(q) }),
  }),
  tool({
    name: "get_pull_request",
    description: "Get one pull request: head and base branches, draft and merge state, mergeability and requested reviewers.",
    input: { ...repoArgs, pull_number: pullNumber },
    readOnly: true,
    toRequest: (a) => ({ method: "GET", path: repoPath(a, `/pulls/${a.pull_number}`) }),
  }),
  tool({
    name: "create_pull_request",
    description: "Open a pull request that merges the `head` branch into the `base` branch.",
    input: {
      ...repoArgs,
      title: z.string().min(1).describe("The pull request's title"),
      head: z.string().min(1).describe("The branch holding the changes"),
      base: z.string().min(1).describe("The branch to merge into, usually the default branch"),
      body: z.string().optional().describe('Description; "Fixes #12" links an issue'),
      draft: z.boolean().optional().describe("Open it as a draft"),
    },
    toRequest: (a) => ({ method: "POST", path: repoPath(a, "/pulls"), body: bodyOf(a, ["owner", "repo"]) }),
  }),
  tool({
    name: "update_pull_request",
    description: "Edit a pull request: title, body, base branch, or close and reopen it.",
    input: {
      ...repoArgs,
      pull_number: pullNumber,
      title: z.string().min(1).optional().describe("New title"),
      body: z.string().optional().describe("New description"),
      state: z.enum(["open", "closed"]).optional().describe("Close or reopen it"),
      base: z.string().min(1).optional().describe("New base branch"),
    },
    destructive: true,
    toRequest: (a) => ({
      method: "PATCH",
      path: repoPath(a, `/pulls/${a.pull_number}`),
      body: bodyOf(a, ["owner", "repo", "pull_number"]),
    }),
  }),
  tool({
    name: "merge_pull_request",
    description:
      "Merge a pull request into its base branch. This cannot be undone. Check reviews (list_reviews) and CI status (get_combined_status) first when the task asks for it.",
    input: {
      ...repoArgs,
      pull_number: pullNumber,
      merge_method: z.enum(["merge", "squash", "rebase"]).optional().describe("How to merge (default merge)"),
      commit_title: z.string().optional().describe("Title of the merge commit"),
      commit_message: z.string().optional().describe("Extra detail for the merge commit"),
      sha: z.string().optional().describe("Merge only if the head is still at this commit SHA"),
    },
    destructive: true,
    toRequest: (a) => ({
      method: "PUT",
      path: repoPath(a, `/pulls/${a.pull_number}/merge`),
      body: bodyOf(a, ["owner", "repo", "pull_number"]),
    }),
  }),
  tool({
    name: "list_pull_request_files",
    description: "List the files a pull request changes, with their status and patch.",
    input: { ...repoArgs, pull_number: pullNumber, ...pageArgs },
    readOnly: true,
    toRequest: ({ owner, repo, pull_number, ...q }) => ({
      method: "GET",
      path: repoPath({ owner, repo }, `/pulls/${pull_number}/files`),
      query: query(q),
    }),
  }),
  tool({
    name: "list_pull_request_commits",
    description: "List the commits a pull request adds, oldest first.",
    input: { ...repoArgs, pull_number: pullNumber, ...pageArgs },
    readOnly: true,
    toRequest: ({ owner, repo, pull_number, ...q }) => ({
      method: "GET",
      path: repoPath({ owner, repo }, `/pulls/${pull_number}/commits`),
      query: query(q),
    }),
  }),
  tool({
    name: "check_pull_request_merged",
    description: "Check whether a pull request has been merged: success (HTTP 204) if merged, an error (404) if not.",
    input: { ...repoArgs, pull_number: pullNumber },
    readOnly: true,
    toRequest: (a) => ({ method: "GET", path: repoPath(a, `/pulls/${a.pull_number}/merge`) }),
  }),
  tool({
    name: "list_requested_reviewers",
    description: "List the users asked to review a pull request who have not reviewed it yet.",
    input: { ...repoArgs, pull_number: pullNumber },
    readOnly: true,
    toRequest: (a) => ({ method: "GET", path: repoPath(a, `/pulls/${a.pull_number}/requested_reviewers`) }),
  }),
  tool({
    name: "request_reviewers",
    description: "Ask users to review a pull request; they appear in its requested_reviewers.",
    input: { ...repoArgs, pull_number: pullNumber, reviewers: logins("Logins of the reviewers") },
    toRequest: (a) => ({
      method: "POST",
      path: repoPath(a, `/pulls/${a.pull_number}/requested_reviewers`),
      body: { reviewers: a.reviewers },
    }),
  }),
  tool({
    name: "remove_requested_reviewers",
    description: "Withdraw review requests from users on a pull request.",
    input: { ...repoArgs, pull_number: pullNumber, reviewers: logins("Logins whose review request is withdrawn") },
    destructive: true,
    toRequest: (a) => ({
      method: "DELETE",
      path: repoPath(a, `/pulls/${a.pull_number}/requested_reviewers`),
      body: { reviewers: a.reviewers },
    }),
  }),
];
