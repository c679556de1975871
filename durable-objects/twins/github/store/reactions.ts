// Reactions on issues (and pull requests), issue comments and review comments. One user leaves
// a given reaction once per subject: asking again answers the existing one (GitHub's 200).
import type { Db } from "../../types";
import { nextId, type Store } from "./base";

/** GitHub's reaction contents (@octokit/openapi `reaction.content`). */
export const REACTION_CONTENTS = ["+1", "-1", "laugh", "confused", "heart", "hooray", "rocket", "eyes"] as const;
export type ReactionContent = (typeof REACTION_CONTENTS)[number];

export type ReactionSubject = "issue" | "comment" | "review_comment";

export interface ReactionRow {
  id: number;
  repo_id: number;
  subject: ReactionSubject;
  subject_id: number;
  user: string;
  content: ReactionContent;
  created_at: string;
}

/** Adds the actor's reaction, or finds the one already there; `created` says which. */
export function react(
  s: Store,
  repoId: number,
  subject: ReactionSubject,
  subjectId: number,
  content: ReactionContent,
): { row: ReactionRow; created: boolean } {
  const existing = s.db.one<ReactionRow>(
    "SELECT * FROM gh_reactions WHERE subject = ? AND subject_id = ? AND user = ? AND content = ?",
    subject,
    subjectId,
    s.actor,
    content,
  );
  if (existing) return { row: existing, created: false };
  const id = nextId(s.db);
  s.db.run(
    "INSERT INTO gh_reactions (id, repo_id, subject, subject_id, user, content, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
    id,
    repoId,
    subject,
    subjectId,
    s.actor,
    content,
    s.now,
  );
  return { row: s.db.one<ReactionRow>("SELECT * FROM gh_reactions WHERE id = ?", id) as ReactionRow, created: true };
}

export function listReactions(
  db: Db,
  subject: ReactionSubject,
  subjectId: number,
  content: string | undefined,
  limit: number,
  offset: number,
) {
  const filter = content ? " AND content = ?" : "";
  const args = content ? [subject, subjectId, content] : [subject, subjectId];
  const rows = db.all<ReactionRow>(
    `SELECT * FROM gh_reactions WHERE subject = ? AND subject_id = ?${filter} ORDER BY id LIMIT ? OFFSET ?`,
    ...args,
    limit,
    offset,
  );
  const total =
    db.one<{ n: number }>(`SELECT count(*) AS n FROM gh_reactions WHERE subject = ? AND subject_id = ?${filter}`, ...args)?.n ?? 0;
  return { rows, total };
}

/** Deletes one reaction of the subject; false when it has no such reaction. */
export const deleteReaction = (db: Db, subject: ReactionSubject, subjectId: number, id: number) =>
  db.run("DELETE FROM gh_reactions WHERE subject = ? AND subject_id = ? AND id = ?", subject, subjectId, id) > 0;

/** The counts of each content on a subject (the `reactions` rollup of issues and comments). */
export const reactionCounts = (db: Db, subject: ReactionSubject, subjectId: number) =>
  db.all<{ content: string; n: number }>(
    "SELECT content, count(*) AS n FROM gh_reactions WHERE subject = ? AND subject_id = ? GROUP BY content",
    subject,
    subjectId,
  );

export const anyReactions = (db: Db) => !!db.one("SELECT 1 AS x FROM gh_reactions LIMIT 1");
