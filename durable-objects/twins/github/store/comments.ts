// Issue comments (pull-request conversation comments too). The issue keeps a comment count so
// reading an issue never counts its comments.
import type { Db, SqlValue } from "../../types";
import { fail, ghNotFound } from "../errors";
import { nextId, type Store } from "./base";
import type { CommentRow, IssueRow } from "./rows";

export function findComment(db: Db, repoId: number, id: string | number): CommentRow | undefined {
  const n = Number(id);
  if (!Number.isInteger(n)) return undefined;
  return db.one<CommentRow>("SELECT * FROM gh_comments WHERE id = ? AND repo_id = ?", n, repoId);
}

export const requireComment = (db: Db, repoId: number, id: string) => findComment(db, repoId, id) ?? fail(ghNotFound());

/** One page of comments, oldest first; `issueNumber` undefined lists the whole repository's. */
export function listComments(
  db: Db,
  repoId: number,
  opts: { issueNumber?: number; since?: string; direction?: "asc" | "desc"; limit: number; offset: number },
): { rows: CommentRow[]; total: number } {
  const where = ["repo_id = ?"];
  const params: SqlValue[] = [repoId];
  if (opts.issueNumber !== undefined) {
    where.push("issue_number = ?");
    params.push(opts.issueNumber);
  }
  if (opts.since) {
    where.push("updated_at >= ?");
    params.push(opts.since);
  }
  const sql = `FROM gh_comments WHERE ${where.join(" AND ")}`;
  const dir = opts.direction === "desc" ? "DESC" : "ASC";
  return {
    rows: db.all<CommentRow>(`SELECT * ${sql} ORDER BY id ${dir} LIMIT ? OFFSET ?`, ...params, opts.limit, opts.offset),
    total: db.one<{ n: number }>(`SELECT count(*) AS n ${sql}`, ...params)?.n ?? 0,
  };
}

export function createComment(s: Store, issue: IssueRow, body: string): CommentRow {
  const id = nextId(s.db);
  s.db.run(
    "INSERT INTO gh_comments (id, repo_id, issue_number, user, body, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
    id,
    issue.repo_id,
    issue.number,
    s.actor,
    body,
    s.now,
    s.now,
  );
  s.db.run("UPDATE gh_issues SET comment_count = comment_count + 1, updated_at = ? WHERE id = ?", s.now, issue.id);
  return { id, repo_id: issue.repo_id, issue_number: issue.number, user: s.actor, body, created_at: s.now, updated_at: s.now };
}

export function updateComment(s: Store, comment: CommentRow, body: string): CommentRow {
  s.db.run("UPDATE gh_comments SET body = ?, updated_at = ? WHERE id = ?", body, s.now, comment.id);
  return { ...comment, body, updated_at: s.now };
}

export function deleteComment(s: Store, comment: CommentRow): void {
  s.db.run("DELETE FROM gh_comments WHERE id = ?", comment.id);
  s.db.run(
    "UPDATE gh_issues SET comment_count = max(comment_count - 1, 0), updated_at = ? WHERE repo_id = ? AND number = ?",
    s.now,
    comment.repo_id,
    comment.issue_number,
  );
}
