// Comments on issues and pull requests.
import { z } from "zod";
import type { TwinTool } from "../../types";
import { direction, issueNumber, pageArgs, query, repoArgs, repoPath, since, tool } from "./define";

const commentId = z.number().int().positive().describe("The comment's id (from list_comments)");

export const commentTools: readonly TwinTool[] = [
  tool({
    name: "list_comments",
    description: "List the comments on one issue or pull request, oldest first.",
    input: { ...repoArgs, issue_number: issueNumber, since, ...pageArgs },
    readOnly: true,
    toRequest: ({ owner, repo, issue_number, ...q }) => ({
      method: "GET",
      path: repoPath({ owner, repo }, `/issues/${issue_number}/comments`),
      query: query(q),
    }),
  }),
  tool({
    name: "list_repository_comments",
    description: "List the comments on every issue and pull request of a repository, oldest first.",
    input: {
      ...repoArgs,
      sort: z.enum(["created", "updated"]).optional().describe("What to sort by (default created)"),
      direction,
      since,
      ...pageArgs,
    },
    readOnly: true,
    toRequest: ({ owner, repo, ...q }) => ({ method: "GET", path: repoPath({ owner, repo }, "/issues/comments"), query: query(q) }),
  }),
  tool({
    name: "get_comment",
    description: "Get one comment on an issue or pull request by its id: author, body and times.",
    input: { ...repoArgs, comment_id: commentId },
    readOnly: true,
    toRequest: (a) => ({ method: "GET", path: repoPath(a, `/issues/comments/${a.comment_id}`) }),
  }),
  tool({
    name: "create_comment",
    description: "Add a comment to an issue or pull request, as the authenticated user.",
    input: { ...repoArgs, issue_number: issueNumber, body: z.string().min(1).describe("The comment, in GitHub-flavoured markdown") },
    toRequest: (a) => ({ method: "POST", path: repoPath(a, `/issues/${a.issue_number}/comments`), body: { body: a.body } }),
  }),
  tool({
    name: "update_comment",
    description: "Replace the whole text of an existing comment on an issue or pull request.",
    input: { ...repoArgs, comment_id: commentId, body: z.string().min(1).describe("The new text") },
    destructive: true,
    toRequest: (a) => ({ method: "PATCH", path: repoPath(a, `/issues/comments/${a.comment_id}`), body: { body: a.body } }),
  }),
  tool({
    name: "delete_comment",
    description: "Delete a comment on an issue or pull request. This cannot be undone.",
    input: { ...repoArgs, comment_id: commentId },
    destructive: true,
    toRequest: (a) => ({ method: "DELETE", path: repoPath(a, `/issues/comments/${a.comment_id}`) }),
  }),
];
