// Milestones: numbered per repository, titles unique, issue counts read through an index.
import type { Db, SqlValue } from "../../types";
import { fail, ghNotFound, ghValidationFailed } from "../errors";
import type { Store } from "./base";
import type { MilestoneRow } from "./rows";

export const findMilestone = (db: Db, repoId: number, number: number) =>
  db.one<MilestoneRow>("SELECT * FROM gh_milestones WHERE repo_id = ? AND number = ?", repoId, number);

export function requireMilestone(db: Db, repoId: number, number: string): MilestoneRow {
  const n = Number(number);
  return (Number.isInteger(n) ? findMilestone(db, repoId, n) : undefined) ?? fail(ghNotFound());
}

export function milestoneCounts(db: Db, repoId: number, number: number): { open: number; closed: number } {
  const rows = db.all<{ state: string; n: number }>(
    "SELECT state, count(*) AS n FROM gh_issues WHERE repo_id = ? AND milestone = ? GROUP BY state",
    repoId,
    number,
  );
  return { open: rows.find((r) => r.state === "open")?.n ?? 0, closed: rows.find((r) => r.state === "closed")?.n ?? 0 };
}

export function listMilestones(
  db: Db,
  repoId: number,
  q: { state: "open" | "closed" | "all"; sort: "due_on" | "completeness"; direction: "asc" | "desc" },
  limit: number,
  offset: number,
) {
  const where = ["repo_id = ?"];
  const params: SqlValue[] = [repoId];
  if (q.state !== "all") {
    where.push("state = ?");
    params.push(q.state);
  }
  const dir = q.direction === "desc" ? "DESC" : "ASC";
  // GitHub lists milestones without a due date after those with one.
  const order = q.sort === "completeness" ? `number ${dir}` : `due_on IS NULL, due_on ${dir}, number ${dir}`;
  const sql = `FROM gh_milestones WHERE ${where.join(" AND ")}`;
  return {
    rows: db.all<MilestoneRow>(`SELECT * ${sql} ORDER BY ${order} LIMIT ? OFFSET ?`, ...params, limit, offset),
    total: db.one<{ n: number }>(`SELECT count(*) AS n ${sql}`, ...params)?.n ?? 0,
  };
}

const titleTaken = (db: Db, repoId: number, title: string, except?: number) =>
  !!db.one("SELECT 1 AS x FROM gh_milestones WHERE repo_id = ? AND title = ? AND number IS NOT ?", repoId, title, except ?? null);

export interface MilestoneInput {
  title?: string;
  state?: "open" | "closed";
  description?: string | null;
  due_on?: string | null;
}

export function createMilestone(s: Store, repoId: number, input: MilestoneInput & { title: string }): MilestoneRow {
  if (titleTaken(s.db, repoId, input.title)) fail(ghValidationFailed([{ resource: "Milestone", code: "already_exists", field: "title" }]));
  const number = (s.db.one<{ n: number | null }>("SELECT max(number) AS n FROM gh_milestones WHERE repo_id = ?", repoId)?.n ?? 0) + 1;
  const state = input.state ?? "open";
  s.db.run(
    `INSERT INTO gh_milestones (repo_id, number, title, state, description, due_on, created_at, updated_at, closed_at, creator)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    repoId,
    number,
    input.title,
    state,
    input.description ?? null,
    input.due_on ?? null,
    s.now,
    s.now,
    state === "closed" ? s.now : null,
    s.actor,
  );
  return findMilestone(s.db, repoId, number) as MilestoneRow;
}

export function updateMilestone(s: Store, m: MilestoneRow, patch: MilestoneInput): MilestoneRow {
  if (patch.title !== undefined && titleTaken(s.db, m.repo_id, patch.title, m.number))
    fail(ghValidationFailed([{ resource: "Milestone", code: "already_exists", field: "title" }]));
  const state = patch.state ?? m.state;
  const closedAt = state === "closed" ? (m.state === "closed" ? m.closed_at : s.now) : null;
  s.db.run(
    "UPDATE gh_milestones SET title = ?, state = ?, description = ?, due_on = ?, updated_at = ?, closed_at = ? WHERE id = ?",
    patch.title ?? m.title,
    state,
    patch.description === undefined ? m.description : patch.description,
    patch.due_on === undefined ? m.due_on : patch.due_on,
    s.now,
    closedAt,
    m.id,
  );
  return findMilestone(s.db, m.repo_id, m.number) as MilestoneRow;
}

/** Deleting a milestone takes it off its issues, as on GitHub. */
export function deleteMilestone(s: Store, m: MilestoneRow): void {
  s.db.run("UPDATE gh_issues SET milestone = NULL WHERE repo_id = ? AND milestone = ?", m.repo_id, m.number);
  s.db.run("DELETE FROM gh_milestones WHERE id = ?", m.id);
}
