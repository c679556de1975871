// GET /search/issues: GitHub's query language (qualifiers plus free text) over gh_issues.
// Unknown qualifiers are searched as text, as GitHub does.
import type { Db, SqlValue } from "../../types";
import { findRepoByName } from "../repos";
import type { IssueRow } from "./rows";

export interface SearchQuery {
  repos: string[];
  owners: string[];
  kind?: "issue" | "pull";
  state?: "open" | "closed";
  merged?: boolean;
  locked?: boolean;
  labels: string[];
  notLabels: string[];
  no: Set<"label" | "assignee" | "milestone">;
  authors: string[];
  assignees: string[];
  terms: string[];
  /** Where free text is looked for: title and body unless `in:` says otherwise. */
  fields: Set<"title" | "body">;
  sort?: { by: "created" | "updated" | "comments"; order: "asc" | "desc" };
}

const TOKEN = /(-?)([A-Za-z-]+):(?:"([^"]*)"|(\S+))|"([^"]*)"|(\S+)/g;

export function parseSearch(q: string): SearchQuery {
  const out: SearchQuery = {
    repos: [],
    owners: [],
    labels: [],
    notLabels: [],
    no: new Set(),
    authors: [],
    assignees: [],
    terms: [],
    fields: new Set(),
  };
  for (const m of q.matchAll(TOKEN)) {
    const [whole, neg, rawKey, quoted, bare, phrase, word] = m;
    if (phrase !== undefined || word !== undefined) {
      out.terms.push(phrase ?? word);
      continue;
    }
    const key = rawKey.toLowerCase();
    const value = quoted ?? bare;
    const lower = value.toLowerCase();
    if (key === "repo") out.repos.push(value);
    else if (key === "user" || key === "org") out.owners.push(value);
    else if ((key === "is" || key === "type") && (lower === "issue" || lower === "pr" || lower === "pull-request"))
      out.kind = lower === "issue" ? "issue" : "pull";
    else if ((key === "is" || key === "state") && (lower === "open" || lower === "closed")) out.state = lower;
    else if (key === "is" && (lower === "merged" || lower === "unmerged")) {
      out.kind = "pull";
      out.merged = lower === "merged";
    } else if (key === "is" && (lower === "locked" || lower === "unlocked")) out.locked = lower === "locked";
    else if (key === "label") (neg ? out.notLabels : out.labels).push(...value.split(","));
    else if (key === "no" && (lower === "label" || lower === "assignee" || lower === "milestone")) out.no.add(lower);
    else if (key === "author") out.authors.push(value);
    else if (key === "assignee") out.assignees.push(value);
    else if (key === "in" && lower.split(",").every((f) => f === "title" || f === "body" || f === "comments"))
      lower.split(",").forEach((f) => (f === "title" || f === "body") && out.fields.add(f));
    else if (key === "sort") {
      const [by, order] = lower.split("-");
      if (by === "created" || by === "updated" || by === "comments") out.sort = { by, order: order === "asc" ? "asc" : "desc" };
    } else out.terms.push(whole);
  }
  return out;
}

export type SearchResult = { ok: true; rows: IssueRow[]; total: number } | { ok: false; missingRepos: string[] };

export function searchIssues(
  db: Db,
  query: SearchQuery,
  sort: { by: "created" | "updated" | "comments" | "best-match"; order: "asc" | "desc" },
  limit: number,
  offset: number,
): SearchResult {
  const where: string[] = [];
  const params: SqlValue[] = [];
  if (query.repos.length) {
    const ids: number[] = [];
    const missing: string[] = [];
    for (const full of query.repos) {
      const [owner, name] = full.split("/");
      const repo = owner && name ? findRepoByName(db, owner, name) : undefined;
      if (repo) ids.push(repo.id);
      else missing.push(full);
    }
    if (missing.length) return { ok: false, missingRepos: missing };
    where.push("i.repo_id IN (SELECT value FROM json_each(?))");
    params.push(JSON.stringify(ids));
  }
  // Each list of a qualifier (every owner, label, author, assignee, term) is one condition over
  // one JSON parameter, however long the list: SQLite in workerd takes at most 100 parameters and
  // expressions at most 100 levels deep, and a query of many qualifiers must not reach either.
  const every = (values: readonly string[], holds: string) => {
    if (!values.length) return;
    where.push(`NOT EXISTS (SELECT 1 FROM json_each(?) want WHERE NOT (${holds}))`);
    params.push(JSON.stringify([...new Set(values)]));
  };
  every(query.owners, "i.repo_id IN (SELECT id FROM gh_repos WHERE owner = want.value COLLATE NOCASE)");
  // A literal, so `is:pr` can use the partial pulls index (see store/issues.ts).
  if (query.kind) where.push(query.kind === "pull" ? "i.is_pull = 1" : "i.is_pull = 0");
  if (query.state) {
    where.push("i.state = ?");
    params.push(query.state);
  }
  if (query.merged !== undefined) where.push(query.merged ? "i.merged = 1" : "i.merged = 0 AND i.state = 'closed'");
  if (query.locked !== undefined) where.push(query.locked ? "i.locked = 1" : "i.locked = 0");
  const labelled = (name: string) =>
    `i.id IN (SELECT il.issue_id FROM gh_issue_labels il JOIN gh_labels l ON l.id = il.label_id WHERE l.repo_id = i.repo_id AND l.name = ${name} COLLATE NOCASE)`;
  every(query.labels, labelled("want.value"));
  if (query.notLabels.length) {
    where.push(`NOT EXISTS (SELECT 1 FROM json_each(?) unwanted WHERE ${labelled("unwanted.value")})`);
    params.push(JSON.stringify([...new Set(query.notLabels)]));
  }
  if (query.no.has("label")) where.push("NOT EXISTS (SELECT 1 FROM gh_issue_labels il WHERE il.issue_id = i.id)");
  if (query.no.has("assignee")) where.push("NOT EXISTS (SELECT 1 FROM gh_issue_assignees a WHERE a.issue_id = i.id)");
  if (query.no.has("milestone")) where.push("i.milestone IS NULL");
  every(query.authors, "i.user = want.value COLLATE NOCASE");
  every(query.assignees, "i.id IN (SELECT issue_id FROM gh_issue_assignees WHERE repo_id = i.repo_id AND login = want.value)");
  // Terms match literally and case-insensitively (ASCII, as LIKE did) with instr: no character of
  // a term is a wildcard, and no term length reaches SQLite's LIKE pattern limit.
  const fields = query.fields.size ? [...query.fields] : ["title", "body"];
  every(query.terms, fields.map((f) => `instr(lower(coalesce(i.${f}, '')), lower(want.value)) > 0`).join(" OR "));
  const sql = `FROM gh_issues i${where.length ? ` WHERE ${where.join(" AND ")}` : ""}`;
  const by = query.sort ?? sort;
  const column = by.by === "updated" ? "i.updated_at" : by.by === "comments" ? "i.comment_count" : "i.created_at";
  const dir = by.order === "asc" ? "ASC" : "DESC";
  return {
    ok: true,
    rows: db.all<IssueRow>(`SELECT i.* ${sql} ORDER BY ${column} ${dir}, i.id ${dir} LIMIT ? OFFSET ?`, ...params, limit, offset),
    total: db.one<{ n: number }>(`SELECT count(*) AS n ${sql}`, ...params)?.n ?? 0,
  };
}
