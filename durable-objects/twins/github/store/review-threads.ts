// Review threads: a pull request's first inline comment on a line (or file) and the replies to it,
// the same rows REST's review comments are (store/review-comments.ts). GitHub's REST API names no
// thread; its GraphQL API does (PullRequestReviewThread), with whether it is resolved and by whom.
// The thread's id here is its first comment's id; its state sits on that comment (`resolved_by`).
import type { Db } from "../../types";
import { authenticatedLogin, type Store } from "./base";
import { pullHeadSha } from "./merge";
import { type ReviewCommentRow, locate } from "./review-comments";
import type { IssueRow } from "./rows";

/** Comments of a pending review are their author's alone until it is submitted. */
const VISIBLE = "(review_id IS NULL OR review_id NOT IN (SELECT id FROM gh_reviews WHERE state = 'PENDING' AND lower(user) != ?))";

const viewer = (db: Db) => authenticatedLogin(db).toLowerCase();

/** A pull request's threads, oldest first: the page asked for and how many there are. */
export function listThreads(db: Db, repoId: number, pullNumber: number, limit: number, offset: number) {
  const sql = `FROM gh_review_comments WHERE repo_id = ? AND pull_number = ? AND in_reply_to_id IS NULL AND ${VISIBLE}`;
  const args = [repoId, pullNumber, viewer(db)];
  const total = db.one<{ n: number }>(`SELECT count(*) AS n ${sql}`, ...args)?.n ?? 0;
  const rows = limit > 0 ? db.all<ReviewCommentRow>(`SELECT * ${sql} ORDER BY id LIMIT ? OFFSET ?`, ...args, limit, offset) : [];
  return { rows, total };
}

export const countThreads = (db: Db, repoId: number, pullNumber: number) => listThreads(db, repoId, pullNumber, 0, 0).total;

/** The first comment of a thread, by the thread's id, when the viewer can see it. */
export function findThread(db: Db, id: number): ReviewCommentRow | undefined {
  return db.one<ReviewCommentRow>(
    `SELECT * FROM gh_review_comments WHERE id = ? AND in_reply_to_id IS NULL AND ${VISIBLE}`,
    id,
    viewer(db),
  );
}

/** A review comment by id, when the viewer can see it. */
export function findVisibleComment(db: Db, id: number): ReviewCommentRow | undefined {
  return db.one<ReviewCommentRow>(`SELECT * FROM gh_review_comments WHERE id = ? AND ${VISIBLE}`, id, viewer(db));
}

/** A thread's comments, first one first: the page asked for and how many there are. */
export function threadComments(db: Db, root: ReviewCommentRow, limit: number, offset: number) {
  const sql = `FROM gh_review_comments WHERE (id = ? OR in_reply_to_id = ?) AND ${VISIBLE}`;
  const args = [root.id, root.id, viewer(db)];
  const total = db.one<{ n: number }>(`SELECT count(*) AS n ${sql}`, ...args)?.n ?? 0;
  const rows = limit > 0 ? db.all<ReviewCommentRow>(`SELECT * ${sql} ORDER BY id LIMIT ? OFFSET ?`, ...args, limit, offset) : [];
  return { rows, total };
}

/** Marks a thread resolved by the caller, or unresolved (`resolved` false). */
export function setResolved(s: Store, root: ReviewCommentRow, resolved: boolean): ReviewCommentRow {
  s.db.run("UPDATE gh_review_comments SET resolved_by = ? WHERE id = ?", resolved ? s.actor : null, root.id);
  return { ...root, resolved_by: resolved ? s.actor : null };
}

/**
 * Whether newer commits moved the thread off the diff: its anchor no longer lands in the pull
 * request's diff at the current head, or lands on a different hunk than it was written against.
 */
export function isOutdated(db: Db, pull: IssueRow, root: ReviewCommentRow): boolean {
  if (root.commit_id === (pullHeadSha(db, pull) ?? "")) return false;
  try {
    const at = locate(db, pull, {
      path: root.path,
      subject_type: root.subject_type,
      ...(root.line !== null ? { line: root.line } : {}),
      ...(root.side ? { side: root.side } : {}),
    });
    return root.subject_type === "line" && at.diff_hunk !== root.diff_hunk;
  } catch {
    return true;
  }
}
