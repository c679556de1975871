// Pull-request reviews: a review without an event stays PENDING (visible to its author only)
// until submitted; submitting one takes its author off the requested reviewers, and answers the
// requests of the teams its author is in (store/team-reviews.ts), as on GitHub.
import type { Db } from "../../types";
import { fail, ghError, ghNotFound } from "../errors";
import { nextId, type Store } from "./base";
import { pullHeadSha } from "./merge";
import { removeRequestedReviewers } from "./pulls";
import type { IssueRow, ReviewRow } from "./rows";
import { satisfyTeamReviews } from "./team-reviews";

export const REVIEW_EVENTS = ["APPROVE", "REQUEST_CHANGES", "COMMENT"] as const;
export type ReviewEvent = (typeof REVIEW_EVENTS)[number];

const STATE_OF: Record<ReviewEvent, ReviewRow["state"]> = {
  APPROVE: "APPROVED",
  REQUEST_CHANGES: "CHANGES_REQUESTED",
  COMMENT: "COMMENTED",
};

/** GitHub's 422 for review rules: a plain message list rather than `{resource, code}` objects. */
const unprocessable = (message: string) => fail(ghError(422, "Unprocessable Entity", { errors: [message] }));

export function findReview(db: Db, pull: IssueRow, id: string, actor: string): ReviewRow | undefined {
  const n = Number(id);
  if (!Number.isInteger(n)) return undefined;
  const row = db.one<ReviewRow>("SELECT * FROM gh_reviews WHERE id = ? AND repo_id = ? AND pull_number = ?", n, pull.repo_id, pull.number);
  return row && (row.state !== "PENDING" || row.user.toLowerCase() === actor.toLowerCase()) ? row : undefined;
}

export const requireReview = (db: Db, pull: IssueRow, id: string, actor: string) => findReview(db, pull, id, actor) ?? fail(ghNotFound());

export function listReviews(db: Db, pull: IssueRow, actor: string, limit: number, offset: number) {
  const sql = "FROM gh_reviews WHERE repo_id = ? AND pull_number = ? AND (state != 'PENDING' OR user = ? COLLATE NOCASE)";
  const params = [pull.repo_id, pull.number, actor];
  return {
    rows: db.all<ReviewRow>(`SELECT * ${sql} ORDER BY id LIMIT ? OFFSET ?`, ...params, limit, offset),
    total: db.one<{ n: number }>(`SELECT count(*) AS n ${sql}`, ...params)?.n ?? 0,
  };
}

function checkEvent(s: Store, pull: IssueRow, event: ReviewEvent, body: string, hasComments = false): void {
  const own = pull.user.toLowerCase() === s.actor.toLowerCase();
  if (event === "APPROVE" && own) unprocessable("Can not approve your own pull request");
  if (event === "REQUEST_CHANGES" && own) unprocessable("Can not request changes on your own pull request");
  // A COMMENT review that carries inline comments needs no body of its own.
  if (event !== "APPROVE" && !body.trim() && !(event === "COMMENT" && hasComments))
    unprocessable(`Review body is required for ${event === "COMMENT" ? "comment" : "request changes"} reviews`);
}

export function createReview(
  s: Store,
  pull: IssueRow,
  input: { body: string; event?: ReviewEvent; commit_id?: string; hasComments?: boolean },
): ReviewRow {
  if (input.event) checkEvent(s, pull, input.event, input.body, input.hasComments);
  else if (
    s.db.one(
      "SELECT 1 AS x FROM gh_reviews WHERE repo_id = ? AND pull_number = ? AND user = ? COLLATE NOCASE AND state = 'PENDING'",
      pull.repo_id,
      pull.number,
      s.actor,
    )
  )
    unprocessable("User can only have one pending review per pull request");
  const id = nextId(s.db);
  const state = input.event ? STATE_OF[input.event] : "PENDING";
  s.db.run(
    "INSERT INTO gh_reviews (id, repo_id, pull_number, user, state, body, submitted_at, commit_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    id,
    pull.repo_id,
    pull.number,
    s.actor,
    state,
    input.body,
    input.event ? s.now : null,
    input.commit_id ?? pullHeadSha(s.db, pull),
  );
  if (input.event) {
    removeRequestedReviewers(s, pull, [s.actor], false);
    satisfyTeamReviews(s, pull, s.actor);
  } else s.db.run("UPDATE gh_issues SET updated_at = ? WHERE id = ?", s.now, pull.id);
  return requireReview(s.db, pull, String(id), s.actor);
}

export function submitReview(s: Store, pull: IssueRow, review: ReviewRow, event: ReviewEvent, body: string | undefined): ReviewRow {
  if (review.state !== "PENDING") unprocessable("Can not submit a review that is not pending");
  const text = body ?? review.body;
  const hasComments = !!s.db.one("SELECT 1 AS x FROM gh_review_comments WHERE review_id = ? LIMIT 1", review.id);
  checkEvent(s, pull, event, text, hasComments);
  s.db.run("UPDATE gh_reviews SET state = ?, body = ?, submitted_at = ? WHERE id = ?", STATE_OF[event], text, s.now, review.id);
  removeRequestedReviewers(s, pull, [s.actor], false);
  satisfyTeamReviews(s, pull, s.actor);
  return requireReview(s.db, pull, String(review.id), s.actor);
}

export function updateReviewBody(s: Store, pull: IssueRow, review: ReviewRow, body: string): ReviewRow {
  s.db.run("UPDATE gh_reviews SET body = ? WHERE id = ?", body, review.id);
  return requireReview(s.db, pull, String(review.id), s.actor);
}

export function deletePendingReview(s: Store, review: ReviewRow): ReviewRow {
  if (review.state !== "PENDING") unprocessable("Can not delete a non-pending pull request review");
  s.db.run("DELETE FROM gh_reviews WHERE id = ?", review.id);
  // Its draft comments go with it, as on GitHub (they were never published).
  s.db.run("DELETE FROM gh_review_comments WHERE review_id = ?", review.id);
  return review;
}

export function dismissReview(s: Store, pull: IssueRow, review: ReviewRow): ReviewRow {
  if (review.state === "PENDING") unprocessable("Can not dismiss a pending pull request review");
  if (review.state === "COMMENTED") unprocessable("Can not dismiss a commented pull request review");
  s.db.run("UPDATE gh_reviews SET state = 'DISMISSED' WHERE id = ?", review.id);
  s.db.run("UPDATE gh_issues SET updated_at = ? WHERE id = ?", s.now, pull.id);
  return requireReview(s.db, pull, String(review.id), s.actor);
}
