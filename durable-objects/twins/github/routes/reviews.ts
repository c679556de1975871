// Pull-request reviews: list, create (200, not 201, as GitHub answers), get, update, delete a
// pending one, submit, dismiss. A review may carry inline comments (routes/review-comments.ts).
import type { Route } from "../../types";
import { jsonBody, ok, route, storeOf } from "../context";
import { fail, ghValidationFailed } from "../errors";
import { oneOf, optString } from "../input";
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

export const reviewRoutes: readonly Route[] = [
  route("GET", "/repos/:owner/:repo/pulls/:pull_number/reviews", "pulls.listReviews", "List reviews for a pull request", (ctx) => {
    const repo = requireRepo(ctx);
    const pull = requirePull(ctx.db, repo.id, ctx.params.pull_number);
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
  }),
  route("POST", "/repos/:owner/:repo/pulls/:pull_number/reviews", "pulls.createReview", "Create a review for a pull request", (ctx) => {
    const repo = requireWritableRepo(ctx);
    const pull = requirePull(ctx.db, repo.id, ctx.params.pull_number);
    const body = jsonBody(ctx);
    // Every inline comment is checked against the diff before the review is written: GitHub
    // creates a review with its comments all or nothing.
    const comments = reviewCommentsOf(ctx, pull, body.comments);
    const review = createReview(storeOf(ctx), pull, {
      body: optString(body, "body") ?? "",
      event: oneOf(body.event, REVIEW_EVENTS, "PullRequestReview", "event"),
      commit_id: optString(body, "commit_id"),
      hasComments: comments.length > 0,
    });
    writeReviewComments(ctx, pull, review.id, comments);
    return ok(reviewObject(new View(ctx), repo, pull, review));
  }),
  route("GET", "/repos/:owner/:repo/pulls/:pull_number/reviews/:review_id", "pulls.getReview", "Get a review for a pull request", (ctx) => {
    const repo = requireRepo(ctx);
    const pull = requirePull(ctx.db, repo.id, ctx.params.pull_number);
    const v = new View(ctx);
    return ok(reviewObject(v, repo, pull, requireReview(ctx.db, pull, ctx.params.review_id, v.actor)));
  }),
  route(
    "PUT",
    "/repos/:owner/:repo/pulls/:pull_number/reviews/:review_id",
    "pulls.updateReview",
    "Update a review for a pull request",
    (ctx) => {
      const repo = requireWritableRepo(ctx);
      const pull = requirePull(ctx.db, repo.id, ctx.params.pull_number);
      const s = storeOf(ctx);
      const review = requireReview(ctx.db, pull, ctx.params.review_id, s.actor);
      const text = optString(jsonBody(ctx), "body");
      if (text === undefined) fail(ghValidationFailed([{ resource: "PullRequestReview", code: "missing_field", field: "body" }]));
      return ok(reviewObject(new View(ctx), repo, pull, updateReviewBody(s, pull, review, text ?? "")));
    },
  ),
  route(
    "DELETE",
    "/repos/:owner/:repo/pulls/:pull_number/reviews/:review_id",
    "pulls.deletePendingReview",
    "Delete a pending review for a pull request",
    (ctx) => {
      const repo = requireWritableRepo(ctx);
      const pull = requirePull(ctx.db, repo.id, ctx.params.pull_number);
      const s = storeOf(ctx);
      const review = deletePendingReview(s, requireReview(ctx.db, pull, ctx.params.review_id, s.actor));
      return ok(reviewObject(new View(ctx), repo, pull, review));
    },
  ),
  route(
    "POST",
    "/repos/:owner/:repo/pulls/:pull_number/reviews/:review_id/events",
    "pulls.submitReview",
    "Submit a review for a pull request",
    (ctx) => {
      const repo = requireWritableRepo(ctx);
      const pull = requirePull(ctx.db, repo.id, ctx.params.pull_number);
      const s = storeOf(ctx);
      const review = requireReview(ctx.db, pull, ctx.params.review_id, s.actor);
      const body = jsonBody(ctx);
      const event = oneOf(body.event, REVIEW_EVENTS, "PullRequestReview", "event");
      if (!event) fail(ghValidationFailed([{ resource: "PullRequestReview", code: "missing_field", field: "event" }]));
      const submitted = submitReview(s, pull, review, event ?? "COMMENT", optString(body, "body"));
      return ok(reviewObject(new View(ctx), repo, pull, submitted));
    },
  ),
  route(
    "PUT",
    "/repos/:owner/:repo/pulls/:pull_number/reviews/:review_id/dismissals",
    "pulls.dismissReview",
    "Dismiss a review for a pull request",
    (ctx) => {
      const repo = requireWritableRepo(ctx);
      const pull = requirePull(ctx.db, repo.id, ctx.params.pull_number);
      const s = storeOf(ctx);
      const review = requireReview(ctx.db, pull, ctx.params.review_id, s.actor);
      if (!optString(jsonBody(ctx), "message"))
        fail(ghValidationFailed([{ resource: "PullRequestReview", code: "missing_field", field: "message" }]));
      return ok(reviewObject(new View(ctx), repo, pull, dismissReview(s, pull, review)));
    },
  ),
];
