// The authenticated user's issues across repositories (GET /issues, /user/issues,
// /orgs/{org}/issues). GitHub's `filter`: assigned (default), created, mentioned, subscribed
// (any of those three, or commented on), repos and all (every issue in repositories the user
// can see; in a sandbox that is every repository). Pull requests are included, as on GitHub.
import type { Db, SqlValue } from "../../types";
import type { IssueRow } from "./rows";

export const ISSUE_FILTERS = ["assigned", "created", "mentioned", "subscribed", "repos", "all"] as const;
export type IssueFilter = (typeof ISSUE_FILTERS)[number];

export interface GlobalIssueQuery {
  actor: string;
  filter: IssueFilter;
  state: "open" | "closed" | "all";
  labels: string[];
  since?: string;
  sort: "created" | "updated" | "comments";
  direction: "asc" | "desc";
  /** Only repositories owned by this organization. */
  owner?: string;
}

const ASSIGNED = "i.id IN (SELECT issue_id FROM gh_issue_assignees WHERE login = ? COLLATE NOCASE)";
const CREATED = "i.user = ? COLLATE NOCASE";
const MENTIONED = "instr(lower(i.body), lower(?)) > 0";
const COMMENTED =
  "EXISTS (SELECT 1 FROM gh_comments c WHERE c.repo_id = i.repo_id AND c.issue_number = i.number AND c.user = ? COLLATE NOCASE)";

function filterClause(q: GlobalIssueQuery): { sql: string; params: SqlValue[] } | undefined {
  const mention = `@${q.actor}`;
  switch (q.filter) {
    case "assigned":
      return { sql: ASSIGNED, params: [q.actor] };
    case "created":
      return { sql: CREATED, params: [q.actor] };
    case "mentioned":
      return { sql: MENTIONED, params: [mention] };
    case "subscribed":
      return { sql: `(${ASSIGNED} OR ${CREATED} OR ${MENTIONED} OR ${COMMENTED})`, params: [q.actor, q.actor, mention, q.actor] };
    default:
      return undefined;
  }
}

/** One page of matching issues with their repositories' ids, and how many match in all. */
export function listGlobalIssues(db: Db, q: GlobalIssueQuery, limit: number, offset: number): { rows: IssueRow[]; total: number } {
  const where: string[] = [];
  const params: SqlValue[] = [];
  const f = filterClause(q);
  if (f) {
    where.push(f.sql);
    params.push(...f.params);
  }
  if (q.state !== "all") {
    where.push("i.state = ?");
    params.push(q.state);
  }
  if (q.owner) {
    where.push("i.repo_id IN (SELECT id FROM gh_repos WHERE owner = ? COLLATE NOCASE)");
    params.push(q.owner);
  }
  if (q.labels.length) {
    where.push(
      `i.id IN (SELECT il.issue_id FROM gh_issue_labels il JOIN gh_labels l ON l.id = il.label_id
                WHERE lower(l.name) IN (SELECT lower(value) FROM json_each(?)) GROUP BY il.issue_id HAVING count(*) = ?)`,
    );
    const names = [...new Set(q.labels.map((l) => l.toLowerCase()))];
    params.push(JSON.stringify(names), names.length);
  }
  if (q.since) {
    where.push("i.updated_at >= ?");
    params.push(q.since);
  }
  const column = q.sort === "updated" ? "i.updated_at" : q.sort === "comments" ? "i.comment_count" : "i.created_at";
  const dir = q.direction === "asc" ? "ASC" : "DESC";
  const sql = `FROM gh_issues i${where.length ? ` WHERE ${where.join(" AND ")}` : ""}`;
  return {
    rows: db.all<IssueRow>(`SELECT i.* ${sql} ORDER BY ${column} ${dir}, i.id ${dir} LIMIT ? OFFSET ?`, ...params, limit, offset),
    total: db.one<{ n: number }>(`SELECT count(*) AS n ${sql}`, ...params)?.n ?? 0,
  };
}
