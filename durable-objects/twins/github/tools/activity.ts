// Activity: reactions, issue events and timelines, inline review comments, updating a pull
// request's branch, comparisons and READMEs.
import { z } from "zod";
import type { TwinTool } from "../../types";
import { bodyOf, filePath, issueNumber, pageArgs, pullNumber, query, repoArgs, repoPath, seg, since, tool } from "./define";

const content = z.enum(["+1", "-1", "laugh", "confused", "heart", "hooray", "rocket", "eyes"]).describe("The reaction");
const commentId = z.number().int().positive().describe("The comment's id");
const reactionId = z.number().int().positive().describe("The reaction's id");

/** List, create and delete tools for the reactions of one kind of subject. */
function reactionTools(
  kind: string,
  idArg: "issue_number" | "comment_id",
  base: (a: { owner: string; repo: string; id: number }) => string,
): TwinTool[] {
  const id = idArg === "issue_number" ? issueNumber : commentId;
  // The id argument's name differs by subject; the input schema has already checked it is a number.
  const idOf = (a: object) => Number((a as Record<string, unknown>)[idArg]);
  return [
    tool({
      name: `list_${kind}_reactions`,
      description: `List the reactions (emoji and who left them) on ${kind.replace(/_/g, " ")}.`,
      input: { ...repoArgs, [idArg]: id, content: content.optional(), ...pageArgs },
      readOnly: true,
      toRequest: (a) => ({
        method: "GET",
        path: `${base({ owner: a.owner, repo: a.repo, id: idOf(a) })}/reactions`,
        query: query({ content: a.content, per_page: a.per_page, page: a.page }),
      }),
    }),
    tool({
      name: `add_${kind}_reaction`,
      description: `React to ${kind.replace(/_/g, " ")} (asking twice returns the same reaction).`,
      input: { ...repoArgs, [idArg]: id, content },
      toRequest: (a) => ({
        method: "POST",
        path: `${base({ owner: a.owner, repo: a.repo, id: idOf(a) })}/reactions`,
        body: { content: a.content },
      }),
    }),
    tool({
      name: `delete_${kind}_reaction`,
      description: `Delete one reaction from ${kind.replace(/_/g, " ")}.`,
      input: { ...repoArgs, [idArg]: id, reaction_id: reactionId },
      destructive: true,
      toRequest: (a) => ({
        method: "DELETE",
        path: `${base({ owner: a.owner, repo: a.repo, id: idOf(a) })}/reactions/${a.reaction_id}`,
      }),
    }),
  ];
}

const anchor = {
  path: z.string().min(1).describe("The file's path in the pull request"),
  line: z.number().int().positive().optional().describe("The line of the diff the comment is on"),
  side: z.enum(["LEFT", "RIGHT"]).optional().describe("RIGHT (new code, default) or LEFT (removed code)"),
  start_line: z.number().int().positive().optional().describe("First line of a multi-line comment"),
  start_side: z.enum(["LEFT", "RIGHT"]).optional(),
  subject_type: z.enum(["line", "file"]).optional().describe('"file" comments on the whole file'),
};

export const activityTools: readonly TwinTool[] = [
  ...reactionTools("issue", "issue_number", (a) => repoPath(a, `/issues/${a.id}`)),
  ...reactionTools("issue_comment", "comment_id", (a) => repoPath(a, `/issues/comments/${a.id}`)),
  ...reactionTools("review_comment", "comment_id", (a) => repoPath(a, `/pulls/comments/${a.id}`)),
  tool({
    name: "list_issue_events",
    description: "List what happened to an issue or pull request: labels, assignees, milestone, renames, closing, merging.",
    input: { ...repoArgs, issue_number: issueNumber, ...pageArgs },
    readOnly: true,
    toRequest: (a) => ({
      method: "GET",
      path: repoPath(a, `/issues/${a.issue_number}/events`),
      query: query({ per_page: a.per_page, page: a.page }),
    }),
  }),
  tool({
    name: "list_repository_issue_events",
    description: "List issue events across a repository, newest first.",
    input: { ...repoArgs, ...pageArgs },
    readOnly: true,
    toRequest: ({ owner, repo, ...q }) => ({ method: "GET", path: repoPath({ owner, repo }, "/issues/events"), query: query(q) }),
  }),
  tool({
    name: "get_issue_event",
    description: "Get one issue event (a label, an assignment, a closing) by its id.",
    input: { ...repoArgs, event_id: z.number().int().positive().describe("The event's id") },
    readOnly: true,
    toRequest: (a) => ({ method: "GET", path: repoPath(a, `/issues/events/${a.event_id}`) }),
  }),
  tool({
    name: "list_issue_timeline",
    description: "List an issue's or pull request's timeline: events, comments, reviews and commits, oldest first.",
    input: { ...repoArgs, issue_number: issueNumber, ...pageArgs },
    readOnly: true,
    toRequest: (a) => ({
      method: "GET",
      path: repoPath(a, `/issues/${a.issue_number}/timeline`),
      query: query({ per_page: a.per_page, page: a.page }),
    }),
  }),
  tool({
    name: "list_review_comments",
    description: "List the inline review comments on a pull request.",
    input: { ...repoArgs, pull_number: pullNumber, since, ...pageArgs },
    readOnly: true,
    toRequest: (a) => ({
      method: "GET",
      path: repoPath(a, `/pulls/${a.pull_number}/comments`),
      query: query({ since: a.since, per_page: a.per_page, page: a.page }),
    }),
  }),
  tool({
    name: "list_repository_review_comments",
    description: "List inline review comments across a repository's pull requests.",
    input: { ...repoArgs, since, ...pageArgs },
    readOnly: true,
    toRequest: ({ owner, repo, ...q }) => ({ method: "GET", path: repoPath({ owner, repo }, "/pulls/comments"), query: query(q) }),
  }),
  tool({
    name: "get_review_comment",
    description: "Get one inline review comment on a pull request's diff.",
    input: { ...repoArgs, comment_id: commentId },
    readOnly: true,
    toRequest: (a) => ({ method: "GET", path: repoPath(a, `/pulls/comments/${a.comment_id}`) }),
  }),
  tool({
    name: "create_review_comment",
    description: "Comment on a line (or lines) of a pull request's diff. commit_id is the pull request's head SHA.",
    input: { ...repoArgs, pull_number: pullNumber, body: z.string().min(1), commit_id: z.string().min(1), ...anchor },
    toRequest: (a) => ({
      method: "POST",
      path: repoPath(a, `/pulls/${a.pull_number}/comments`),
      body: bodyOf(a, ["owner", "repo", "pull_number"]),
    }),
  }),
  tool({
    name: "reply_to_review_comment",
    description: "Reply in the thread of an inline review comment.",
    input: { ...repoArgs, pull_number: pullNumber, comment_id: commentId, body: z.string().min(1) },
    toRequest: (a) => ({
      method: "POST",
      path: repoPath(a, `/pulls/${a.pull_number}/comments/${a.comment_id}/replies`),
      body: { body: a.body },
    }),
  }),
  tool({
    name: "update_review_comment",
    description: "Edit an inline review comment's text.",
    input: { ...repoArgs, comment_id: commentId, body: z.string().min(1) },
    toRequest: (a) => ({ method: "PATCH", path: repoPath(a, `/pulls/comments/${a.comment_id}`), body: { body: a.body } }),
  }),
  tool({
    name: "delete_review_comment",
    description: "Delete an inline review comment.",
    input: { ...repoArgs, comment_id: commentId },
    destructive: true,
    toRequest: (a) => ({ method: "DELETE", path: repoPath(a, `/pulls/comments/${a.comment_id}`) }),
  }),
  tool({
    name: "list_review_comments_of_review",
    description: "List the inline comments of one review.",
    input: { ...repoArgs, pull_number: pullNumber, review_id: z.number().int().positive(), ...pageArgs },
    readOnly: true,
    toRequest: (a) => ({
      method: "GET",
      path: repoPath(a, `/pulls/${a.pull_number}/reviews/${a.review_id}/comments`),
      query: query({ per_page: a.per_page, page: a.page }),
    }),
  }),
  tool({
    name: "update_pull_request_branch",
    description: "Merge the base branch's new commits into a pull request's head branch.",
    input: {
      ...repoArgs,
      pull_number: pullNumber,
      expected_head_sha: z.string().optional().describe("Refuse unless the head is still this SHA"),
    },
    toRequest: (a) => ({
      method: "PUT",
      path: repoPath(a, `/pulls/${a.pull_number}/update-branch`),
      body: a.expected_head_sha ? { expected_head_sha: a.expected_head_sha } : {},
    }),
  }),
  tool({
    name: "compare_commits",
    description: "Compare two branches, tags or commits: status, ahead/behind counts, commits and changed files with patches.",
    input: { ...repoArgs, base: z.string().min(1).describe("The base ref"), head: z.string().min(1).describe("The head ref") },
    readOnly: true,
    toRequest: (a) => ({ method: "GET", path: repoPath(a, `/compare/${seg(a.base)}...${seg(a.head)}`) }),
  }),
  tool({
    name: "get_readme",
    description: "Get the repository's README, base64-encoded.",
    input: { ...repoArgs, ref: z.string().optional().describe("Branch, tag or commit (default: the default branch)") },
    readOnly: true,
    toRequest: (a) => ({ method: "GET", path: repoPath(a, "/readme"), query: query({ ref: a.ref }) }),
  }),
  tool({
    name: "get_directory_readme",
    description: "Get the README of one directory of the repository, base64-encoded.",
    input: {
      ...repoArgs,
      dir: z.string().min(1).describe('The directory, e.g. "docs"'),
      ref: z.string().optional().describe("Branch, tag or commit (default: the default branch)"),
    },
    readOnly: true,
    toRequest: (a) => ({ method: "GET", path: repoPath(a, `/readme/${filePath(a.dir)}`), query: query({ ref: a.ref }) }),
  }),
];
