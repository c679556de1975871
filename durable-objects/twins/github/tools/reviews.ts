// Reviews of pull requests: read, write, submit, dismiss.
import { z } from "zod";
import type { TwinTool } from "../../types";
import { bodyOf, pageArgs, pullNumber, query, repoArgs, repoPath, tool } from "./define";

const reviewId = z.number().int().positive().describe("The review's id (from list_reviews)");
const reviewPath = (a: { owner: string; repo: string; pull_number: number; review_id: number }, rest = "") =>
  repoPath(a, `/pulls/${a.pull_number}/reviews/${a.review_id}${rest}`);

export const reviewTools: readonly TwinTool[] = [
  tool({
    name: "list_reviews",
    description:
      "List the reviews of a pull request, oldest first: who reviewed and whether they approved, requested changes or commented.",
    input: { ...repoArgs, pull_number: pullNumber, ...pageArgs },
    readOnly: true,
    toRequest: ({ owner, repo, pull_number, ...q }) => ({
      method: "GET",
      path: repoPath({ owner, repo }, `/pulls/${pull_number}/reviews`),
      query: query(q),
    }),
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
    toRequest: (a) => ({
      method: "POST",
      path: repoPath(a, `/pulls/${a.pull_number}/reviews`),
      body: bodyOf(a, ["owner", "repo", "pull_number"]),
    }),
  }),
  tool({
    name: "get_review",
    description:
      "Get one review of a pull request: reviewer, state (APPROVED, CHANGES_REQUESTED, COMMENTED, DISMISSED or PENDING) and body.",
    input: { ...repoArgs, pull_number: pullNumber, review_id: reviewId },
    readOnly: true,
    toRequest: (a) => ({ method: "GET", path: reviewPath(a) }),
  }),
  tool({
    name: "update_review",
    description: "Replace the text of a review of a pull request; its verdict stays.",
    input: { ...repoArgs, pull_number: pullNumber, review_id: reviewId, body: z.string().min(1).describe("The new text") },
    destructive: true,
    toRequest: (a) => ({ method: "PUT", path: reviewPath(a), body: { body: a.body } }),
  }),
  tool({
    name: "submit_review",
    description: "Submit a PENDING review (one created without `event`) as APPROVE, REQUEST_CHANGES or COMMENT.",
    input: {
      ...repoArgs,
      pull_number: pullNumber,
      review_id: reviewId,
      event: z.enum(["APPROVE", "REQUEST_CHANGES", "COMMENT"]).describe("The verdict"),
      body: z.string().optional().describe("The review's text (required to request changes)"),
    },
    toRequest: (a) => ({ method: "POST", path: reviewPath(a, "/events"), body: bodyOf(a, ["owner", "repo", "pull_number", "review_id"]) }),
  }),
  tool({
    name: "delete_pending_review",
    description: "Delete a review that has not been submitted yet (state PENDING).",
    input: { ...repoArgs, pull_number: pullNumber, review_id: reviewId },
    destructive: true,
    toRequest: (a) => ({ method: "DELETE", path: reviewPath(a) }),
  }),
  tool({
    name: "dismiss_review",
    description: "Dismiss a submitted review, so an approval or change request no longer counts. A message is required.",
    input: {
      ...repoArgs,
      pull_number: pullNumber,
      review_id: reviewId,
      message: z.string().min(1).describe("Why the review is dismissed"),
    },
    destructive: true,
    toRequest: (a) => ({ method: "PUT", path: reviewPath(a, "/dismissals"), body: { message: a.message } }),
  }),
];
