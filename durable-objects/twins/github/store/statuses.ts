// Commit statuses: attached to a commit sha; the combined status keeps the latest per context.
import type { Db } from "../../types";
import { nextId, type Store } from "./base";
import type { StatusRow } from "./rows";

export const STATUS_STATES = ["error", "failure", "pending", "success"] as const;
export type StatusState = (typeof STATUS_STATES)[number];

export function createStatus(
  s: Store,
  repoId: number,
  sha: string,
  input: { state: StatusState; context: string; description: string | null; target_url: string | null },
): StatusRow {
  const id = nextId(s.db);
  s.db.run(
    `INSERT INTO gh_statuses (id, repo_id, ref, sha, context, state, description, target_url, creator, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    id,
    repoId,
    sha,
    sha,
    input.context,
    input.state,
    input.description,
    input.target_url,
    s.actor,
    s.now,
  );
  return s.db.one<StatusRow>("SELECT * FROM gh_statuses WHERE id = ?", id) as StatusRow;
}

/** Every status of a commit, newest first. */
export function listStatuses(db: Db, repoId: number, sha: string, limit: number, offset: number) {
  return {
    rows: db.all<StatusRow>(
      "SELECT * FROM gh_statuses WHERE repo_id = ? AND sha = ? ORDER BY id DESC LIMIT ? OFFSET ?",
      repoId,
      sha,
      limit,
      offset,
    ),
    total: db.one<{ n: number }>("SELECT count(*) AS n FROM gh_statuses WHERE repo_id = ? AND sha = ?", repoId, sha)?.n ?? 0,
  };
}

/** The latest status of each context on a commit, in context order. */
export function latestStatuses(db: Db, repoId: number, sha: string): StatusRow[] {
  return db.all<StatusRow>(
    `SELECT s.* FROM gh_statuses s
     WHERE s.repo_id = ? AND s.sha = ? AND s.id = (SELECT max(id) FROM gh_statuses t WHERE t.repo_id = s.repo_id AND t.sha = s.sha AND t.context = s.context)
     ORDER BY s.context`,
    repoId,
    sha,
  );
}

/** GitHub's rule: any error or failure fails; any pending (or none at all) is pending; else success. */
export function combinedState(statuses: readonly StatusRow[]): StatusState {
  if (statuses.some((s) => s.state === "error" || s.state === "failure")) return "failure";
  if (!statuses.length || statuses.some((s) => s.state === "pending")) return "pending";
  return "success";
}
