// Issues: reading, filing, editing, assigning, locking and searching.
import { z } from "zod";
import type { TwinTool } from "../../types";
import { bodyOf, direction, issueNumber, logins, pageArgs, query, repoArgs, repoPath, seg, since, tool } from "./define";

const labelList = (what: string) => z.array(z.string().min(1)).describe(what);

export const issueTools: readonly TwinTool[] = [
  tool({
    name: "list_issues",
    description:
      "List a repository's issues, newest first. Like GitHub, the list also holds pull requests (they carry a `pull_request` key); skip those if you only want issues.",
    input: {
      ...repoArgs,
      state: z.enum(["open", "closed", "all"]).optional().describe("Which issues (default open)"),
      labels: z.string().optional().describe('Comma-separated label names; only issues having all of them, e.g. "bug,ui"'),
      assignee: z.string().optional().describe('Login of an assignee, "none" for unassigned, "*" for any'),
      creator: z.string().optional().describe("Login of the issue's author"),
      mentioned: z.string().optional().describe("Login of a user mentioned in the issue"),
      milestone: z.string().optional().describe('A milestone number, "none" or "*"'),
      sort: z.enum(["created", "updated", "comments"]).optional().describe("What to sort by (default created)"),
      direction,
      since,
      ...pageArgs,
    },
    readOnly: true,
    toRequest: ({ owner, repo, ...q }) => ({ method: "GET", path: repoPath({ owner, repo }, "/issues"), query: query(q) }),
  }),
  tool({
    name: "get_issue",
    description:
      "Get one issue (or a pull request, seen as an issue) by number: title, body, state, labels, assignees, milestone and comment count.",
    input: { ...repoArgs, issue_number: issueNumber },
    readOnly: true,
    toRequest: (a) => ({ method: "GET", path: repoPath(a, `/issues/${a.issue_number}`) }),
  }),
  tool({
    name: "create_issue",
    description: "Open a new issue. A label the repository does not define yet is created, as on GitHub.",
    input: {
      ...repoArgs,
      title: z.string().min(1).describe("The issue's title"),
      body: z.string().optional().describe("The issue's text, in GitHub-flavoured markdown"),
      labels: labelList("Label names to apply").optional(),
      assignees: z.array(z.string().min(1)).optional().describe("Logins to assign"),
      milestone: z.number().int().positive().optional().describe("Number of the milestone to attach"),
    },
    toRequest: (a) => ({ method: "POST", path: repoPath(a, "/issues"), body: bodyOf(a, ["owner", "repo"]) }),
  }),
  tool({
    name: "update_issue",
    description:
      "Edit an issue: its title or body, close or reopen it (with a reason), or replace its labels, assignees or milestone. Only the fields you pass change; `labels` and `assignees` replace the whole list.",
    input: {
      ...repoArgs,
      issue_number: issueNumber,
      title: z.string().min(1).optional().describe("New title"),
      body: z.string().optional().describe("New body (replaces the old one)"),
      state: z.enum(["open", "closed"]).optional().describe("Close or reopen the issue"),
      state_reason: z.enum(["completed", "not_planned", "reopened"]).optional().describe("Why it was closed or reopened"),
      labels: labelList("The complete new set of label names").optional(),
      assignees: z.array(z.string().min(1)).optional().describe("The complete new set of assignee logins"),
      milestone: z.number().int().positive().nullable().optional().describe("Milestone number, or null to remove it"),
    },
    destructive: true,
    toRequest: (a) => ({
      method: "PATCH",
      path: repoPath(a, `/issues/${a.issue_number}`),
      body: bodyOf(a, ["owner", "repo", "issue_number"]),
    }),
  }),
  tool({
    name: "lock_issue",
    description: "Lock an issue's or pull request's conversation so only collaborators can comment.",
    input: {
      ...repoArgs,
      issue_number: issueNumber,
      lock_reason: z.enum(["off-topic", "too heated", "resolved", "spam"]).optional().describe("Why it is locked"),
    },
    toRequest: (a) => ({
      method: "PUT",
      path: repoPath(a, `/issues/${a.issue_number}/lock`),
      body: bodyOf(a, ["owner", "repo", "issue_number"]),
    }),
  }),
  tool({
    name: "unlock_issue",
    description: "Unlock an issue's or pull request's conversation.",
    input: { ...repoArgs, issue_number: issueNumber },
    toRequest: (a) => ({ method: "DELETE", path: repoPath(a, `/issues/${a.issue_number}/lock`) }),
  }),
  tool({
    name: "list_assignees",
    description: "List the users who can be assigned to issues in a repository.",
    input: { ...repoArgs, ...pageArgs },
    readOnly: true,
    toRequest: ({ owner, repo, ...q }) => ({ method: "GET", path: repoPath({ owner, repo }, "/assignees"), query: query(q) }),
  }),
  tool({
    name: "check_assignee",
    description: "Check whether a user can be assigned to issues in a repository: success (HTTP 204) if so, an error (404) if not.",
    input: { ...repoArgs, assignee: z.string().min(1).describe("The user's login") },
    readOnly: true,
    toRequest: (a) => ({ method: "GET", path: repoPath(a, `/assignees/${seg(a.assignee)}`) }),
  }),
  tool({
    name: "check_issue_assignee",
    description: "Check whether a user can be assigned to one issue: success (HTTP 204) if so, an error (404) if not.",
    input: { ...repoArgs, issue_number: issueNumber, assignee: z.string().min(1).describe("The user's login") },
    readOnly: true,
    toRequest: (a) => ({ method: "GET", path: repoPath(a, `/issues/${a.issue_number}/assignees/${seg(a.assignee)}`) }),
  }),
  tool({
    name: "add_assignees",
    description:
      "Add assignees to an issue or pull request, keeping the existing ones. Users who cannot be assigned are ignored, as on GitHub.",
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
      "Search issues and pull requests with GitHub's search syntax, e.g. `repo:acme/api is:issue is:open timeout in:title` or `repo:acme/api label:bug`. Use it to find duplicates before filing a new issue.",
    input: {
      q: z.string().min(1).describe("The search query, in GitHub's issue search syntax"),
      sort: z.enum(["comments", "created", "updated"]).optional().describe("Sort field (default: best match)"),
      order: direction,
      ...pageArgs,
    },
    readOnly: true,
    toRequest: (a) => ({ method: "GET", path: "/search/issues", query: query(a) }),
  }),
];
