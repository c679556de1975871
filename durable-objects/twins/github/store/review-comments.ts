// Inline review comments: anchored to a line (or a range) on one side of a pull request's diff,
// threaded by replies. Where GitHub refuses an anchor it names it in one sentence inside
// `errors` (parkerbxyz/suggest-changes#28, villesau/ai-codereviewer#34, danobi/prr#11).
import type { Db } from "../../types";
import { fail, ghError, ghNotFound } from "../errors";
import { authenticatedLogin, nextId, type Store } from "./base";
import { blobContent } from "./git";
import { diffLines } from "./diff";
import { comparePull, pullFiles, pullHeadSha } from "./merge";
import type { IssueRow } from "./rows";

export type Side = "LEFT" | "RIGHT";

export interface ReviewCommentRow {
  id: number;
  repo_id: number;
  pull_number: number;
  review_id: number | null;
  user: string;
  body: string;
  path: string;
  line: number | null;
  side: Side | null;
  start_line: number | null;
  start_side: Side | null;
  position: number | null;
  subject_type: "line" | "file";
  commit_id: string;
  diff_hunk: string;
  in_reply_to_id: number | null;
  created_at: string;
  updated_at: string;
  /** Who resolved the thread this comment starts (first comments only; null while unresolved). */
  resolved_by: string | null;
}

/** One line of a file's patch: its place in the patch (GitHub's `position`) and its line numbers. */
interface PatchLine {
  position: number;
  hunk: number;
  text: string;
  left: number | null;
  right: number | null;
}

/** The lines of a patch, numbered as GitHub counts `position` (1 is the line below the first `@@`). */
export function patchLines(patch: string): { lines: PatchLine[]; hunkStarts: number[] } {
  const lines: PatchLine[] = [];
  const hunkStarts: number[] = [];
  let left = 0;
  let right = 0;
  let hunk = -1;
  patch.split("\n").forEach((text, i) => {
    const header = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(text);
    if (header) {
      hunk++;
      hunkStarts.push(i);
      left = Number(header[1]);
      right = Number(header[2]);
      if (i > 0) lines.push({ position: i, hunk, text, left: null, right: null });
      return;
    }
    if (text.startsWith("\\")) return;
    const kind = text.charAt(0);
    lines.push({
      position: i,
      hunk,
      text,
      left: kind === "+" ? null : left,
      right: kind === "-" ? null : right,
    });
    if (kind !== "+") left++;
    if (kind !== "-") right++;
  });
  return { lines, hunkStarts };
}

const UNPROCESSABLE = (problem: string) => fail(ghError(422, "Unprocessable Entity", { errors: [problem] }));

export interface Anchor {
  path: string;
  subject_type: "line" | "file";
  line?: number;
  side?: Side;
  start_line?: number;
  start_side?: Side;
  /** The deprecated form of `line`: an index into the file's patch (routes resolve it first). */
  position?: number;
}

/** The patch of one file of a pull request, or GitHub's 422 when the pull request does not change it. */
export function filePatch(db: Db, pull: IssueRow, path: string): string {
  const c = comparePull(db, pull);
  const file = c ? pullFiles(c).find((f) => f.path === path) : undefined;
  if (!file) return UNPROCESSABLE("Pull request review thread path is invalid and Pull request review thread diff hunk can't be blank");
  const before = file.previous_blob_sha ? (blobContent(db, file.previous_blob_sha) ?? "") : "";
  const after = file.blob_sha ? (blobContent(db, file.blob_sha) ?? "") : "";
  return diffLines(before, after).patch;
}

/** Where a comment lands in the pull request's diff, or GitHub's 422 when it lands outside it. */
export function locate(db: Db, pull: IssueRow, a: Anchor): { position: number | null; diff_hunk: string; commit_id: string } {
  const patch = filePatch(db, pull, a.path);
  const commit = pullHeadSha(db, pull) ?? "";
  const { lines, hunkStarts } = patchLines(patch);
  const all = patch.split("\n");
  if (a.subject_type === "file")
    return { position: null, diff_hunk: all.slice(0, hunkStarts[1] ?? all.length).join("\n"), commit_id: commit };
  const side = a.side ?? "RIGHT";
  const at = (line: number, s: Side) => lines.find((l) => (s === "LEFT" ? l.left : l.right) === line);
  const target = a.line !== undefined ? at(a.line, side) : undefined;
  if (!target)
    return UNPROCESSABLE(
      "Pull request review thread line must be part of the diff and Pull request review thread diff hunk can't be blank",
    );
  if (a.start_line !== undefined) {
    const start = at(a.start_line, a.start_side ?? side);
    if (!start || start.hunk !== target.hunk || start.position > target.position)
      UNPROCESSABLE("Pull request review thread start line must be part of the same hunk as the line.");
  }
  // GitHub's diff_hunk runs from the hunk's header down to the commented line.
  const from = hunkStarts[target.hunk] ?? 0;
  return { position: target.position, diff_hunk: all.slice(from, target.position + 1).join("\n"), commit_id: commit };
}

export const findReviewComment = (db: Db, repoId: number, id: number) =>
  db.one<ReviewCommentRow>("SELECT * FROM gh_review_comments WHERE repo_id = ? AND id = ?", repoId, id);

export function requireReviewComment(db: Db, repoId: number, id: string): ReviewCommentRow {
  const n = Number(id);
  return (Number.isInteger(n) ? findReviewComment(db, repoId, n) : undefined) ?? fail(ghNotFound());
}

export interface NewReviewComment extends Anchor {
  body: string;
  review_id: number;
  in_reply_to_id?: number;
}

export function insertReviewComment(s: Store, pull: IssueRow, c: NewReviewComment, at: ReturnType<typeof locate>): ReviewCommentRow {
  const id = nextId(s.db);
  s.db.run(
    `INSERT INTO gh_review_comments (id, repo_id, pull_number, review_id, user, body, path, line, side, start_line, start_side,
       position, subject_type, commit_id, diff_hunk, in_reply_to_id, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    id,
    pull.repo_id,
    pull.number,
    c.review_id,
    s.actor,
    c.body,
    c.path,
    c.subject_type === "line" ? (c.line ?? null) : null,
    c.subject_type === "line" ? (c.side ?? "RIGHT") : null,
    c.start_line ?? null,
    c.start_line !== undefined ? (c.start_side ?? c.side ?? "RIGHT") : null,
    at.position,
    c.subject_type,
    at.commit_id,
    at.diff_hunk,
    c.in_reply_to_id ?? null,
    s.now,
    s.now,
  );
  s.db.run("UPDATE gh_issues SET updated_at = ? WHERE id = ?", s.now, pull.id);
  return findReviewComment(s.db, pull.repo_id, id) as ReviewCommentRow;
}

/**
 * A lone comment (not part of a review the caller made) comes with a review of its own, as on
 * GitHub: a submitted COMMENTED review with an empty body.
 */
export function soloReview(s: Store, pull: IssueRow): number {
  const id = nextId(s.db);
  s.db.run(
    "INSERT INTO gh_reviews (id, repo_id, pull_number, user, state, body, submitted_at, commit_id) VALUES (?, ?, ?, ?, 'COMMENTED', '', ?, ?)",
    id,
    pull.repo_id,
    pull.number,
    s.actor,
    s.now,
    pullHeadSha(s.db, pull),
  );
  return id;
}

/** A reply joins the thread of the comment it answers: same file, line and side. */
export function replyTo(s: Store, pull: IssueRow, parent: ReviewCommentRow, body: string, reviewId?: number): ReviewCommentRow {
  const root = parent.in_reply_to_id ?? parent.id;
  const anchor: NewReviewComment = {
    body,
    review_id: reviewId ?? soloReview(s, pull),
    in_reply_to_id: root,
    path: parent.path,
    subject_type: parent.subject_type,
    ...(parent.line !== null ? { line: parent.line } : {}),
    ...(parent.side ? { side: parent.side } : {}),
    ...(parent.start_line !== null ? { start_line: parent.start_line } : {}),
    ...(parent.start_side ? { start_side: parent.start_side } : {}),
  };
  return insertReviewComment(s, pull, anchor, { position: parent.position, diff_hunk: parent.diff_hunk, commit_id: parent.commit_id });
}

/** How a list of review comments is ordered: by id (the lists' default), or by a time with ties by id. */
export interface ReviewCommentOrder {
  sort: "id" | "created" | "updated";
  direction: "asc" | "desc";
}

export function listReviewComments(
  db: Db,
  repoId: number,
  where: { pull?: number; review?: number; since?: string },
  order: ReviewCommentOrder,
  limit: number,
  offset: number,
) {
  const conds = ["repo_id = ?"];
  const args: (string | number)[] = [repoId];
  if (where.pull !== undefined) {
    conds.push("pull_number = ?");
    args.push(where.pull);
  }
  if (where.review !== undefined) {
    conds.push("review_id = ?");
    args.push(where.review);
  }
  if (where.since) {
    conds.push("updated_at >= ?");
    args.push(where.since);
  }
  // Comments of a pending review are the author's alone until it is submitted.
  conds.push("(review_id IS NULL OR review_id NOT IN (SELECT id FROM gh_reviews WHERE state = 'PENDING' AND lower(user) != ?))");
  args.push(authenticatedLogin(db).toLowerCase());
  const dir = order.direction === "desc" ? "DESC" : "ASC";
  const by = order.sort === "id" ? `id ${dir}` : `${order.sort === "updated" ? "updated_at" : "created_at"} ${dir}, id ${dir}`;
  const sql = `FROM gh_review_comments WHERE ${conds.join(" AND ")}`;
  const rows = db.all<ReviewCommentRow>(`SELECT * ${sql} ORDER BY ${by} LIMIT ? OFFSET ?`, ...args, limit, offset);
  const total = db.one<{ n: number }>(`SELECT count(*) AS n ${sql}`, ...args)?.n ?? 0;
  return { rows, total };
}
