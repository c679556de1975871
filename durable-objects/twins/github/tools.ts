// GitHub's MCP tools: one typed front per REST operation the twin implements. A tool only maps
// its arguments onto the REST call Octokit would make; the call then runs through the same
// dispatch and lands on the same tape, so grading cannot tell the transports apart except by
// `transport`. Argument names follow GitHub's REST documentation, which models already know.
import { z } from "zod";
import type { TwinTool } from "../types";

type ToolRequest = ReturnType<TwinTool["toRequest"]>;

/** Builds a tool whose mapping sees its arguments parsed and typed by its own schema. */
function tool<Shape extends z.ZodRawShape>(spec: {
  name: string;
  description: string;
  input: Shape;
  readOnly?: boolean;
  destructive?: boolean;
  toRequest(args: z.infer<z.ZodObject<Shape>>): ToolRequest;
}): TwinTool {
  // Strict: a misspelt optional argument is refused, never silently dropped.
  const input = z.strictObject(spec.input);
  return {
    name: spec.name,
    description: spec.description,
    input,
    readOnly: spec.readOnly ?? false,
    destructive: spec.destructive ?? false,
    toRequest: (args) => spec.toRequest(input.parse(args)),
  };
}

/** One path segment, escaped: label and branch names may hold spaces and slashes. */
const seg = (value: string | number) => encodeURIComponent(String(value));
/** A file path keeps its slashes; each piece is escaped on its own. */
const filePath = (path: string) => path.replace(/^\/+|\/+$/g, "").split("/").map(seg).join("/");
const repoPath = (a: { owner: string; repo: string }, rest = "") => `/repos/${seg(a.owner)}/${seg(a.repo)}${rest}`;

/** Query values as GitHub reads them; absent arguments are left out rather than sent empty. */
function query(values: Record<string, string | number | boolean | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(values)) if (value !== undefined) out[key] = String(value);
  return out;
}

/** The JSON body without the arguments that went into the path. */
function bodyOf<T extends object, K extends keyof T>(args: T, pathKeys: readonly K[]): Omit<T, K> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(args)) if (!pathKeys.includes(key as K) && value !== undefined) out[key] = value;
  return out as Omit<T, K>;
}

/** UTF-8 text as base64, the encoding GitHub's contents API requires. */
function base64Utf8(text: string): string {
  let binary = "";
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

const owner = z.string().min(1).describe('Login of the account that owns the repository, e.g. "acme"');
const repo = z.string().min(1).describe('Repository name without its owner, e.g. "api"');
const issueNumber = z.number().int().positive().describe("The issue's number, as shown after # (pull requests share the numbering)");
const pullNumber = z.number().int().positive().describe("The pull request's number, as shown after #");
const perPage = z.number().int().min(1).max(100).optional().describe("Results per page, 1 to 100 (default 30)");
const page = z.number().int().min(1).optional().describe("Page of results, starting at 1");
const direction = z.enum(["asc", "desc"]).optional().describe("Sort direction (default desc)");
const since = z.string().optional().describe("Only items updated at or after this ISO 8601 time, e.g. 2026-01-31T00:00:00Z");
const logins = (what: string) => z.array(z.string().min(1)).min(1).describe(what);
const repoArgs = { owner, repo };

const usersAndRepos: TwinTool[] = [
  tool({
    name: "get_me",
    description: "Get the GitHub user these credentials act as: login, name, email. Use it to learn who \"you\" are before acting.",
    input: {},
    readOnly: true,
    toRequest: () => ({ method: "GET", path: "/user" }),
  }),
  tool({
    name: "get_user",
    description: "Get a user or organization by login.",
    input: { username: z.string().min(1).describe("The account's login") },
    readOnly: true,
    toRequest: (a) => ({ method: "GET", path: `/users/${seg(a.username)}` }),
  }),
  tool({
    name: "get_repository",
    description: "Get a repository: description, default branch, visibility, open issue count and topics.",
    input: repoArgs,
    readOnly: true,
    toRequest: (a) => ({ method: "GET", path: repoPath(a) }),
  }),
];

const issues: TwinTool[] = [
  tool({
    name: "list_issues",
    description:
      "List a repository's issues, newest first. Like GitHub, the list also contains pull requests (they carry a `pull_request` key); filter them out if you only want issues.",
    input: {
      ...repoArgs,
      state: z.enum(["open", "closed", "all"]).optional().describe("Which issues to list (default open)"),
      labels: z.string().optional().describe('Comma-separated label names; only issues having all of them, e.g. "bug,ui"'),
      assignee: z.string().optional().describe('Login of an assignee, "none" for unassigned, "*" for any'),
      creator: z.string().optional().describe("Login of the issue's author"),
      mentioned: z.string().optional().describe("Login of a user mentioned in the issue"),
      milestone: z.string().optional().describe('A milestone number, "none" or "*"'),
      sort: z.enum(["created", "updated", "comments"]).optional().describe("What to sort by (default created)"),
      direction,
      since,
      per_page: perPage,
      page,
    },
    readOnly: true,
    toRequest: ({ owner, repo, ...q }) => ({ method: "GET", path: repoPath({ owner, repo }, "/issues"), query: query(q) }),
  }),
  tool({
    name: "get_issue",
    description: "Get one issue (or pull request, seen as an issue) by number: title, body, state, labels, assignees and comment count.",
    input: { ...repoArgs, issue_number: issueNumber },
    readOnly: true,
    toRequest: (a) => ({ method: "GET", path: repoPath(a, `/issues/${a.issue_number}`) }),
  }),
  tool({
    name: "create_issue",
    description: "Open a new issue. Labels that the repository does not define yet are created, as on GitHub.",
    input: {
      ...repoArgs,
      title: z.string().min(1).describe("The issue's title"),
      body: z.string().optional().describe("The issue's text, in GitHub-flavoured markdown"),
      labels: z.array(z.string().min(1)).optional().describe("Label names to apply"),
      assignees: z.array(z.string().min(1)).optional().describe("Logins to assign"),
      milestone: z.number().int().positive().optional().describe("Number of the milestone to attach"),
    },
    toRequest: (a) => ({ method: "POST", path: repoPath(a, "/issues"), body: bodyOf(a, ["owner", "repo"]) }),
  }),
  tool({
    name: "update_issue",
    description:
      "Edit an issue: change its title or body, close or reopen it (with a reason), or replace its labels, assignees or milestone. Only the fields you pass change; `labels` and `assignees` replace the whole list.",
    input: {
      ...repoArgs,
      issue_number: issueNumber,
      title: z.string().min(1).optional().describe("New title"),
      body: z.string().optional().describe("New body (replaces the old one)"),
      state: z.enum(["open", "closed"]).optional().describe("Close or reopen the issue"),
      state_reason: z.enum(["completed", "not_planned", "reopened"]).optional().describe("Why it was closed or reopened"),
      labels: z.array(z.string().min(1)).optional().describe("The complete new set of label names"),
      assignees: z.array(z.string().min(1)).optional().describe("The complete new set of assignee logins"),
      milestone: z.number().int().positive().nullable().optional().describe("Milestone number, or null to remove it"),
    },
    destructive: true,
    toRequest: (a) => ({ method: "PATCH", path: repoPath(a, `/issues/${a.issue_number}`), body: bodyOf(a, ["owner", "repo", "issue_number"]) }),
  }),
  tool({
    name: "add_assignees",
    description: "Add assignees to an issue or pull request, keeping the existing ones.",
    input: { ...repoArgs, issue_number: issueNumber, assignees: logins("Logins to add") },
    toRequest: (a) => ({ method: "POST", path: repoPath(a, `/issues/${a.issue_number}/assignees`), body: { assignees: a.assignees } }),
  }),
  tool({
    name: "remove_assignees",
    description: "Remove assignees from an issue or pull request.",
    input: { ...repoArgs, issue_number: issueNumber, assignees: logins("Logins to remove") },
    destructive: true,
    toRequest: (a) => ({ method: "DELETE", path: repoPath(a, `/issues/${a.issue_number}/assignees`), body: { assignees: a.assignees } }),
  }),
  tool({
    name: "search_issues",
    description:
      'Search issues and pull requests with GitHub\'s search syntax, e.g. `repo:acme/api is:issue is:open timeout in:title` or `repo:acme/api label:bug`. Use it to find duplicates before filing a new issue.',
    input: {
      q: z.string().min(1).describe("The search query, in GitHub's issue search syntax"),
      sort: z.enum(["comments", "created", "updated"]).optional().describe("Sort field (default: best match)"),
      order: direction,
      per_page: perPage,
      page,
    },
    readOnly: true,
    toRequest: (a) => ({ method: "GET", path: "/search/issues", query: query(a) }),
  }),
];

const comments: TwinTool[] = [
  tool({
    name: "list_comments",
    description: "List the comments on an issue or pull request, oldest first.",
    input: { ...repoArgs, issue_number: issueNumber, since, per_page: perPage, page },
    readOnly: true,
    toRequest: ({ owner, repo, issue_number, ...q }) => ({ method: "GET", path: repoPath({ owner, repo }, `/issues/${issue_number}/comments`), query: query(q) }),
  }),
  tool({
    name: "create_comment",
    description: "Comment on an issue or pull request.",
    input: { ...repoArgs, issue_number: issueNumber, body: z.string().min(1).describe("The comment, in GitHub-flavoured markdown") },
    toRequest: (a) => ({ method: "POST", path: repoPath(a, `/issues/${a.issue_number}/comments`), body: { body: a.body } }),
  }),
  tool({
    name: "update_comment",
    description: "Replace the text of an existing comment, found by its id (from list_comments).",
    input: { ...repoArgs, comment_id: z.number().int().positive().describe("The comment's id"), body: z.string().min(1).describe("The new text") },
    destructive: true,
    toRequest: (a) => ({ method: "PATCH", path: repoPath(a, `/issues/comments/${a.comment_id}`), body: { body: a.body } }),
  }),
  tool({
    name: "delete_comment",
    description: "Delete a comment by its id (from list_comments).",
    input: { ...repoArgs, comment_id: z.number().int().positive().describe("The comment's id") },
    destructive: true,
    toRequest: (a) => ({ method: "DELETE", path: repoPath(a, `/issues/comments/${a.comment_id}`) }),
  }),
];

const labels: TwinTool[] = [
  tool({
    name: "list_labels",
    description: "List the labels a repository defines, with their colors and descriptions.",
    input: { ...repoArgs, per_page: perPage, page },
    readOnly: true,
    toRequest: ({ owner, repo, ...q }) => ({ method: "GET", path: repoPath({ owner, repo }, "/labels"), query: query(q) }),
  }),
  tool({
    name: "create_label",
    description: "Define a new label in a repository.",
    input: {
      ...repoArgs,
      name: z.string().min(1).max(50).describe("The label's name"),
      color: z.string().regex(/^[0-9a-fA-F]{6}$/).optional().describe('Six hex digits without "#", e.g. "d73a4a"'),
      description: z.string().max(100).optional().describe("A short description"),
    },
    toRequest: (a) => ({ method: "POST", path: repoPath(a, "/labels"), body: bodyOf(a, ["owner", "repo"]) }),
  }),
  tool({
    name: "add_labels",
    description: "Add labels to an issue or pull request, keeping the ones it has. A label the repository does not define yet is created, as on GitHub.",
    input: { ...repoArgs, issue_number: issueNumber, labels: z.array(z.string().min(1)).min(1).describe("Label names to add") },
    toRequest: (a) => ({ method: "POST", path: repoPath(a, `/issues/${a.issue_number}/labels`), body: { labels: a.labels } }),
  }),
  tool({
    name: "set_labels",
    description: "Replace all labels of an issue or pull request with the given set (an empty list removes them all).",
    input: { ...repoArgs, issue_number: issueNumber, labels: z.array(z.string().min(1)).describe("The complete new set of label names") },
    destructive: true,
    toRequest: (a) => ({ method: "PUT", path: repoPath(a, `/issues/${a.issue_number}/labels`), body: { labels: a.labels } }),
  }),
  tool({
    name: "remove_label",
    description: "Remove one label from an issue or pull request. The label stays defined in the repository.",
    input: { ...repoArgs, issue_number: issueNumber, name: z.string().min(1).describe("The label's name") },
    destructive: true,
    toRequest: (a) => ({ method: "DELETE", path: repoPath(a, `/issues/${a.issue_number}/labels/${seg(a.name)}`) }),
  }),
];

const pulls: TwinTool[] = [
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
      per_page: perPage,
      page,
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
    toRequest: (a) => ({ method: "PATCH", path: repoPath(a, `/pulls/${a.pull_number}`), body: bodyOf(a, ["owner", "repo", "pull_number"]) }),
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
    toRequest: (a) => ({ method: "PUT", path: repoPath(a, `/pulls/${a.pull_number}/merge`), body: bodyOf(a, ["owner", "repo", "pull_number"]) }),
  }),
  tool({
    name: "list_pull_request_files",
    description: "List the files a pull request changes, with their status and patch.",
    input: { ...repoArgs, pull_number: pullNumber, per_page: perPage, page },
    readOnly: true,
    toRequest: ({ owner, repo, pull_number, ...q }) => ({ method: "GET", path: repoPath({ owner, repo }, `/pulls/${pull_number}/files`), query: query(q) }),
  }),
  tool({
    name: "request_reviewers",
    description: "Ask users to review a pull request.",
    input: { ...repoArgs, pull_number: pullNumber, reviewers: logins("Logins of the reviewers") },
    toRequest: (a) => ({ method: "POST", path: repoPath(a, `/pulls/${a.pull_number}/requested_reviewers`), body: { reviewers: a.reviewers } }),
  }),
  tool({
    name: "list_reviews",
    description: "List the reviews of a pull request, oldest first: who reviewed and whether they approved, requested changes or commented.",
    input: { ...repoArgs, pull_number: pullNumber, per_page: perPage, page },
    readOnly: true,
    toRequest: ({ owner, repo, pull_number, ...q }) => ({ method: "GET", path: repoPath({ owner, repo }, `/pulls/${pull_number}/reviews`), query: query(q) }),
  }),
  tool({
    name: "create_review",
    description:
      "Review a pull request: APPROVE it, REQUEST_CHANGES (a body is required), or COMMENT. Without `event` the review stays PENDING until submitted.",
    input: {
      ...repoArgs,
      pull_number: pullNumber,
      event: z.enum(["APPROVE", "REQUEST_CHANGES", "COMMENT"]).optional().describe("The verdict"),
      body: z.string().optional().describe("The review's text"),
      commit_id: z.string().optional().describe("The commit SHA reviewed (default: the head)"),
    },
    toRequest: (a) => ({ method: "POST", path: repoPath(a, `/pulls/${a.pull_number}/reviews`), body: bodyOf(a, ["owner", "repo", "pull_number"]) }),
  }),
];

const code: TwinTool[] = [
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
      path: repoPath(a, a.path.replace(/^\/+|\/+$/g, "") ? `/contents/${filePath(a.path)}` : "/contents"),
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
      body: { message: a.message, content: base64Utf8(a.content), ...(a.branch !== undefined ? { branch: a.branch } : {}), ...(a.sha !== undefined ? { sha: a.sha } : {}) },
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
    toRequest: (a) => ({ method: "DELETE", path: repoPath(a, `/contents/${filePath(a.path)}`), body: bodyOf(a, ["owner", "repo", "path"]) }),
  }),
  tool({
    name: "list_branches",
    description: "List a repository's branches with the SHA of each branch's head commit.",
    input: { ...repoArgs, protected: z.boolean().optional().describe("Only protected (true) or unprotected (false) branches"), per_page: perPage, page },
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
      per_page: perPage,
      page,
    },
    readOnly: true,
    toRequest: ({ owner, repo, ...q }) => ({ method: "GET", path: repoPath({ owner, repo }, "/commits"), query: query(q) }),
  }),
];

const statuses: TwinTool[] = [
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
    input: { ...repoArgs, ref: z.string().min(1).describe("Branch name, tag or commit SHA"), per_page: perPage, page },
    readOnly: true,
    toRequest: ({ owner, repo, ref, ...q }) => ({ method: "GET", path: repoPath({ owner, repo }, `/commits/${seg(ref)}/statuses`), query: query(q) }),
  }),
  tool({
    name: "create_commit_status",
    description: "Report a CI status (error, failure, pending or success) on a commit under a context such as \"ci/build\".",
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

export const githubTools: readonly TwinTool[] = [...usersAndRepos, ...issues, ...comments, ...labels, ...pulls, ...code, ...statuses];
