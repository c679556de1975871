// Pull-request reviews: list, create (200, not 201, as GitHub answers), get, update, delete a
// pending one, submit, dismiss. A review may carry inline comments (routes/review-comments.ts).
import { z } from "zod";
import type { Route } from "../../types";
import { ok, storeOf } from "../context";
import { pageQuery, pullNumber, repoParams, route } from "../declare";
import { pageOf, paged } from "../pagination";
import { requireRepo, requireWritableRepo } from "../repos";
import { View } from "../serialize";
import { requirePull } from "../store/pulls";
import {
  REVIEW_EVENTS,
  createReview,
  deletePendingReview,
  dismissReview,
  listReviews,
  requireReview,
  submitReview,
  updateReviewBody,
} from "../store/reviews";
import { reviewObject } from "../view-pulls";
import { reviewCommentsOf, writeReviewComments } from "./review-comments";

const pullParams = { ...repoParams, pull_number: pullNumber };
const reviewParams = { ...pullParams, review_id: z.number().int().positive().describe("The review's id (from list_reviews)") };
const reviewEvent = z.enum(REVIEW_EVENTS);

export const reviewRoutes: readonly Route[] = [
  route({
    method: "GET",
    pattern: "/repos/:owner/:repo/pulls/:pull_number/reviews",
    operation: "pulls.listReviews",
    summary: "List reviews for a pull request",
    params: pullParams,
    query: pageQuery,
    tool: {
      name: "list_reviews",
      description:
        "List the reviews of a pull request, oldest first: who reviewed and whether they approved, requested changes or commented.",
    },
    handler(ctx, { params }) {
      const repo = requireRepo(ctx);
      const pull = requirePull(ctx.db, repo.id, params.pull_number);
      const page = pageOf(ctx);
      const v = new View(ctx);
      const { rows, total } = listReviews(ctx.db, pull, v.actor, page.limit, page.offset);
      return paged(
        ctx,
        rows.map((r) => reviewObject(v, repo, pull, r)),
        page,
        total,
        repo.id,
      );
    },
  }),
  route({
    method: "POST",
    pattern: "/repos/:owner/:repo/pulls/:pull_number/reviews",
    operation: "pulls.createReview",
    summary: "Create a review for a pull request",
    resource: "PullRequestReview",
    params: pullParams,
    body: {
      event: reviewEvent.optional().describe("The verdict; without it the review stays PENDING until submitted"),
      body: z.string().optional().describe("The review's text"),
      commit_id: z.string().optional().describe("The commit SHA reviewed (default: the head)"),
      // Each comment is read by reviewCommentsOf, which words its refusals as GitHub does.
      comments: z
        .array(z.unknown())
        .optional()
        .describe("Inline comments, each { path, body, line, side?, start_line?, start_side? } on the pull request's diff"),
    },
    tool: {
      name: "create_review",
      description:
        "Review a pull request: APPROVE it, REQUEST_CHANGES (a body is required), or COMMENT. Without `event` the review stays PENDING until submitted.",
    },
    handler(ctx, { params, body }) {
      const repo = requireWritableRepo(ctx);
      const pull = requirePull(ctx.db, repo.id, params.pull_number);
      // Every inline comment is checked against the diff before the review is written: GitHub
      // creates a review with its comments all or nothing.
      const comments = reviewCommentsOf(ctx, pull, body.comments);
      const review = createReview(storeOf(ctx), pull, {
        body: body.body ?? "",
        event: body.event,
        commit_id: body.commit_id,
        hasComments: comments.length > 0,
      });
      writeReviewComments(ctx, pull, review.id, comments);
      return ok(reviewObject(new View(ctx), repo, pull, review));
    },
  }),
  route({
    method: "GET",
    pattern: "/repos/:owner/:repo/pulls/:pull_number/reviews/:review_id",
    operation: "pulls.getReview",
    summary: "Get a review for a pull request",
    params: reviewParams,
    tool: {
      name: "get_review",
      description:
        "Get one review of a pull request: reviewer, state (APPROVED, CHANGES_REQUESTED, COMMENTED, DISMISSED or PENDING) and body.",
    },
    handler(ctx, { params }) {
      const repo = requireRepo(ctx);
      const pull = requirePull(ctx.db, repo.id, params.pull_number);
      const v = new View(ctx);
      return ok(reviewObject(v, repo, pull, requireReview(ctx.db, pull, String(params.review_id), v.actor)));
    },
  }),
  route({
    method: "PUT",
    pattern: "/repos/:owner/:repo/pulls/:pull_number/reviews/:review_id",
    operation: "pulls.updateReview",
    summary: "Update a review for a pull request",
    resource: "PullRequestReview",
    // No `missingField`: the description answers this operation's 422 with validation-error-simple
    // (errors, if any, are strings), so a missing body is the schema's "Invalid request" refusal.
    params: reviewParams,
    body: { body: z.string().describe("The new text") },
    tool: { name: "update_review", description: "Replace the text of a review of a pull request; its verdict stays.", destructive: true },
    handler(ctx, { params, body }) {
      const repo = requireWritableRepo(ctx);
      const pull = requirePull(ctx.db, repo.id, params.pull_number);
      const s = storeOf(ctx);
      const review = requireReview(ctx.db, pull, String(params.review_id), s.actor);
      return ok(reviewObject(new View(ctx), repo, pull, updateReviewBody(s, pull, review, body.body)));
    },
  }),
  route({
    method: "DELETE",
    pattern: "/repos/:owner/:repo/pulls/:pull_number/reviews/:review_id",
    operation: "pulls.deletePendingReview",
    summary: "Delete a pending review for a pull request",
    params: reviewParams,
    tool: { name: "delete_pending_review", description: "Delete a review that has not been submitted yet (state PENDING)." },
    handler(ctx, { params }) {
      const repo = requireWritableRepo(ctx);
      const pull = requirePull(ctx.db, repo.id, params.pull_number);
      const s = storeOf(ctx);
      const review = deletePendingReview(s, requireReview(ctx.db, pull, String(params.review_id), s.actor));
      return ok(reviewObject(new View(ctx), repo, pull, review));
    },
  }),
  route({
    method: "POST",
    pattern: "/repos/:owner/:repo/pulls/:pull_number/reviews/:review_id/events",
    operation: "pulls.submitReview",
    summary: "Submit a review for a pull request",
    resource: "PullRequestReview",
    // validation-error-simple, as updateReview: a missing field is the schema's "Invalid request".
    params: reviewParams,
    body: {
      event: reviewEvent.describe("The verdict"),
      body: z.string().optional().describe("The review's text (required to request changes)"),
    },
    tool: {
      name: "submit_review",
      description: "Submit a PENDING review (one created without `event`) as APPROVE, REQUEST_CHANGES or COMMENT.",
    },
    handler(ctx, { params, body }) {
      const repo = requireWritableRepo(ctx);
      const pull = requirePull(ctx.db, repo.id, params.pull_number);
      const s = storeOf(ctx);
      const review = requireReview(ctx.db, pull, String(params.review_id), s.actor);
      const submitted = submitReview(s, pull, review, body.event, body.body);
      return ok(reviewObject(new View(ctx), repo, pull, submitted));
    },
  }),
  route({
    method: "PUT",
    pattern: "/repos/:owner/:repo/pulls/:pull_number/reviews/:review_id/dismissals",
    operation: "pulls.dismissReview",
    summary: "Dismiss a review for a pull request",
    resource: "PullRequestReview",
    // validation-error-simple, as updateReview: a missing field is the schema's "Invalid request".
    params: reviewParams,
    body: { message: z.string().min(1).describe("Why the review is dismissed") },
    tool: {
      name: "dismiss_review",
      description: "Dismiss a submitted review, so an approval or change request no longer counts. A message is required.",
      destructive: true,
    },
    handler(ctx, { params }) {
      const repo = requireWritableRepo(ctx);
      const pull = requirePull(ctx.db, repo.id, params.pull_number);
      const s = storeOf(ctx);
      const review = requireReview(ctx.db, pull, String(params.review_id), s.actor);
      return ok(reviewObject(new View(ctx), repo, pull, dismissReview(s, pull, review)));
    },
  }),
];
