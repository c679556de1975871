// GET /search/issues: GitHub's query language (qualifiers plus free text) over gh_issues, with
// the qualifiers docs.github.com › Searching issues and pull requests lists: scope, kind and
// state, people (`author`, `assignee`, `mentions`, `commenter`, `involves`, review requests and
// reviewers), labels (a comma is "any of"), milestone, branches, `no:`, `in:` (title, body,
// comments), counts (`comments`, `reactions`, `interactions`) and dates (`created`, `updated`,
// `closed`, `merged`) with ranges, and `sort:`. Unknown qualifiers are searched as text, as GitHub does.
import type { Db } from "../../types";
import { authenticatedLogin } from "./base";
import type { IssueRow } from "./rows";
import {
  Conditions,
  contains,
  countRange,
  dateRange,
  epochOf,
  flag,
  meOr,
  type Qualifier,
  type Range,
  readScope,
  type Scope,
  scopeConditions,
  pushTo,
  readWords,
} from "./search-query";

export type IssueSort = "created" | "updated" | "comments" | "reactions" | "interactions";
type Person = "authors" | "assignees" | "mentions" | "commenters" | "involves" | "reviewRequested" | "reviewedBy";
type CountField = "comments" | "reactions" | "interactions";
type DateField = "created" | "updated" | "closed" | "merged";

export interface SearchQuery extends Scope {
  kind?: "issue" | "pull";
  state?: "open" | "closed";
  merged?: boolean;
  locked?: boolean;
  draft?: boolean;
  archived?: boolean;
  /** Labels every result carries (one per `label:` qualifier). */
  labels: string[];
  /** `label:a,b`: each list is "any of these". */
  anyLabels: string[][];
  notLabels: string[];
  no: Set<"label" | "assignee" | "milestone" | "project">;
  authors: string[];
  notAuthors: string[];
  assignees: string[];
  mentions: string[];
  commenters: string[];
  involves: string[];
  reviewRequested: string[];
  reviewedBy: string[];
  review?: "none" | "required" | "approved" | "changes_requested";
  milestones: string[];
  heads: string[];
  bases: string[];
  counts: Partial<Record<CountField, Range[]>>;
  dates: Partial<Record<DateField, Range[]>>;
  terms: string[];
  /** Where free text is looked for: title and body unless `in:` says otherwise. */
  fields: Set<"title" | "body" | "comments">;
  sort?: { by: IssueSort; order: "asc" | "desc" };
}

const PEOPLE: Readonly<Record<string, Person>> = {
  author: "authors",
  assignee: "assignees",
  mentions: "mentions",
  commenter: "commenters",
  involves: "involves",
  "review-requested": "reviewRequested",
  "user-review-requested": "reviewRequested",
  "reviewed-by": "reviewedBy",
};
const COUNTS: readonly string[] = ["comments", "reactions", "interactions"];
const DATES: readonly string[] = ["created", "updated", "closed", "merged"];
const SORTS: readonly string[] = ["created", "updated", "comments", "reactions", "interactions"];

/** `is:`/`state:`/`type:` values; false when the value is not one the twin reads. */
function readIs(out: SearchQuery, key: string, lower: string): boolean {
  if ((key === "is" || key === "type") && (lower === "issue" || lower === "pr" || lower === "pull-request"))
    out.kind = lower === "issue" ? "issue" : "pull";
  else if ((key === "is" || key === "state") && (lower === "open" || lower === "closed")) out.state = lower;
  else if (key === "is" && (lower === "merged" || lower === "unmerged")) {
    out.kind = "pull";
    out.merged = lower === "merged";
  } else if (key === "is" && (lower === "locked" || lower === "unlocked")) out.locked = lower === "locked";
  else if (key === "is" && lower === "draft") out.draft = true;
  else return false;
  return true;
}

/** Reads one qualifier into `out`; false when the twin does not know it (it is then text). */
function readQualifier(out: SearchQuery, q: Qualifier): boolean {
  const { key, value } = q;
  const lower = value.toLowerCase();
  if (readScope(out, q) || readIs(out, key, lower)) return true;
  const person = PEOPLE[key];
  if (person) {
    if (key === "author" && q.negated) out.notAuthors.push(value);
    else out[person].push(value);
  } else if (key === "label") {
    const names = value.split(",").filter(Boolean);
    if (q.negated) out.notLabels.push(...names);
    else if (names.length > 1) out.anyLabels.push(names);
    else out.labels.push(...names);
  } else if (key === "no" && (lower === "label" || lower === "assignee" || lower === "milestone" || lower === "project")) out.no.add(lower);
  else if (key === "milestone") out.milestones.push(value);
  else if (key === "head" || key === "base") (key === "head" ? out.heads : out.bases).push(value);
  else if (key === "draft" && flag(value) !== undefined) out.draft = flag(value);
  else if (key === "archived" && flag(value) !== undefined) out.archived = flag(value);
  else if (key === "review" && ["none", "required", "approved", "changes_requested"].includes(lower))
    out.review = lower as SearchQuery["review"];
  else if (key === "in" && lower.split(",").every((f) => f === "title" || f === "body" || f === "comments"))
    for (const f of lower.split(",")) out.fields.add(f as "title" | "body" | "comments");
  else if (COUNTS.includes(key) && countRange(value)) pushTo(out.counts, key as CountField, countRange(value) as Range);
  else if (DATES.includes(key) && dateRange(value)) pushTo(out.dates, key as DateField, dateRange(value) as Range);
  else if (key === "sort") {
    const [by, order] = lower.split("-");
    if (!SORTS.includes(by)) return false;
    out.sort = { by: by as IssueSort, order: order === "asc" ? "asc" : "desc" };
  } else return false;
  return true;
}

export function parseSearch(q: string): SearchQuery {
  const out: SearchQuery = {
    repos: [],
    owners: [],
    labels: [],
    anyLabels: [],
    notLabels: [],
    no: new Set(),
    authors: [],
    notAuthors: [],
    assignees: [],
    mentions: [],
    commenters: [],
    involves: [],
    reviewRequested: [],
    reviewedBy: [],
    milestones: [],
    heads: [],
    bases: [],
    counts: {},
    dates: {},
    terms: [],
    fields: new Set(),
  };
  out.terms = readWords(q, (qualifier) => readQualifier(out, qualifier));
  return out;
}

export type SearchResult = { ok: true; rows: IssueRow[]; total: number } | { ok: false; missingRepos: string[] };

// SQL for what an issue `i` has: each reads one value as `want.value`.
const LABELLED = (name: string) =>
  `i.id IN (SELECT il.issue_id FROM gh_issue_labels il JOIN gh_labels l ON l.id = il.label_id WHERE l.repo_id = i.repo_id AND l.name = ${name} COLLATE NOCASE)`;
const COMMENTED_BY =
  "EXISTS (SELECT 1 FROM gh_comments c WHERE c.repo_id = i.repo_id AND c.issue_number = i.number AND c.user = want.value COLLATE NOCASE)";
const ASSIGNED = "i.id IN (SELECT issue_id FROM gh_issue_assignees WHERE repo_id = i.repo_id AND login = want.value)";
/** `@login` as a word: punctuation around it is folded to spaces first, so `@al` does not find `@alice`. */
const wordsIn = (column: string) =>
  `(' ' || replace(replace(replace(replace(replace(replace(lower(coalesce(${column}, '')), char(10), ' '), ',', ' '), '.', ' '), ':', ' '), ')', ' '), '!', ' ') || ' ')`;
const MENTIONED = `(instr(${wordsIn("i.body")}, ' @' || lower(want.value) || ' ') > 0 OR EXISTS (SELECT 1 FROM gh_comments c WHERE c.repo_id = i.repo_id AND c.issue_number = i.number AND instr(${wordsIn("c.body")}, ' @' || lower(want.value) || ' ') > 0))`;
const SUBMITTED_REVIEW = (extra: string) =>
  `EXISTS (SELECT 1 FROM gh_reviews r WHERE r.repo_id = i.repo_id AND r.pull_number = i.number AND r.state != 'PENDING'${extra})`;
const REACTIONS = "(SELECT count(*) FROM gh_reactions x WHERE x.subject = 'issue' AND x.subject_id = i.id)";
const COUNT_EXPR: Record<CountField, string> = {
  comments: "i.comment_count",
  reactions: REACTIONS,
  interactions: `(i.comment_count + ${REACTIONS})`,
};
const DATE_EXPR: Record<DateField, string> = {
  created: epochOf("i.created_at"),
  updated: epochOf("i.updated_at"),
  closed: epochOf("i.closed_at"),
  merged: epochOf("i.merged_at"),
};
const REVIEW: Record<NonNullable<SearchQuery["review"]>, string> = {
  none: `i.is_pull = 1 AND NOT ${SUBMITTED_REVIEW("")}`,
  approved: `i.is_pull = 1 AND ${SUBMITTED_REVIEW(" AND r.state = 'APPROVED'")} AND NOT ${SUBMITTED_REVIEW(" AND r.state = 'CHANGES_REQUESTED'")}`,
  changes_requested: `i.is_pull = 1 AND ${SUBMITTED_REVIEW(" AND r.state = 'CHANGES_REQUESTED'")}`,
  required: `i.is_pull = 1 AND NOT ${SUBMITTED_REVIEW(" AND r.state = 'APPROVED'")}`,
};

/** The people qualifiers, `@me` read as the authenticated user. */
function peopleConditions(c: Conditions, query: SearchQuery, actor: string): void {
  const me = (list: readonly string[]) => list.map((l) => meOr(l, actor));
  c.every(me(query.authors), "i.user = want.value COLLATE NOCASE");
  c.none(me(query.notAuthors), "i.user = want.value COLLATE NOCASE");
  c.every(me(query.assignees), ASSIGNED);
  c.every(me(query.mentions), MENTIONED);
  c.every(me(query.commenters), COMMENTED_BY);
  c.every(me(query.involves), `i.user = want.value COLLATE NOCASE OR ${ASSIGNED} OR ${COMMENTED_BY} OR ${MENTIONED}`);
  c.every(
    me(query.reviewRequested),
    "i.is_pull = 1 AND EXISTS (SELECT 1 FROM json_each(coalesce(i.requested_reviewers, '[]')) rr WHERE rr.value = want.value COLLATE NOCASE)",
  );
  c.every(me(query.reviewedBy), SUBMITTED_REVIEW(" AND r.user = want.value COLLATE NOCASE"));
}

/** What the issue itself is: kind, state, labels, milestone, branches, `no:`, counts and dates. */
function issueConditions(c: Conditions, query: SearchQuery): void {
  // A literal, so `is:pr` can use the partial pulls index (see store/issues.ts).
  if (query.kind) c.add(query.kind === "pull" ? "i.is_pull = 1" : "i.is_pull = 0");
  if (query.state) c.add("i.state = ?", query.state);
  if (query.merged !== undefined) c.add(query.merged ? "i.merged = 1" : "i.merged = 0 AND i.state = 'closed'");
  if (query.locked !== undefined) c.add(query.locked ? "i.locked = 1" : "i.locked = 0");
  if (query.draft !== undefined) c.add(query.draft ? "i.is_pull = 1 AND i.draft = 1" : "i.is_pull = 1 AND coalesce(i.draft, 0) = 0");
  if (query.archived !== undefined) c.add("i.repo_id IN (SELECT id FROM gh_repos WHERE archived = ?)", query.archived ? 1 : 0);
  c.every(query.labels, LABELLED("want.value"));
  for (const any of query.anyLabels) c.add(`EXISTS (SELECT 1 FROM json_each(?) want WHERE ${LABELLED("want.value")})`, JSON.stringify(any));
  c.none(query.notLabels, LABELLED("want.value"));
  if (query.no.has("label")) c.add("NOT EXISTS (SELECT 1 FROM gh_issue_labels il WHERE il.issue_id = i.id)");
  if (query.no.has("assignee")) c.add("NOT EXISTS (SELECT 1 FROM gh_issue_assignees a WHERE a.issue_id = i.id)");
  if (query.no.has("milestone")) c.add("i.milestone IS NULL");
  c.every(
    query.milestones,
    "i.milestone IN (SELECT number FROM gh_milestones m WHERE m.repo_id = i.repo_id AND m.title = want.value COLLATE NOCASE)",
  );
  c.every(query.heads, "i.head = want.value");
  c.every(query.bases, "i.base = want.value");
  if (query.review) c.add(REVIEW[query.review]);
  for (const [field, ranges] of Object.entries(query.counts)) c.ranges(COUNT_EXPR[field as CountField], ranges ?? []);
  for (const [field, ranges] of Object.entries(query.dates)) c.ranges(DATE_EXPR[field as DateField], ranges ?? []);
}

/** Free text: every term in one of the `in:` fields (title and body by default). */
function textConditions(c: Conditions, query: SearchQuery): void {
  const fields = query.fields.size ? [...query.fields] : ["title", "body"];
  const inComments = `EXISTS (SELECT 1 FROM gh_comments c WHERE c.repo_id = i.repo_id AND c.issue_number = i.number AND ${contains("c.body", "want.value")})`;
  // Terms match literally and case-insensitively with instr: no character of a term is a wildcard.
  c.every(query.terms, fields.map((f) => (f === "comments" ? inComments : contains(`i.${f}`, "want.value"))).join(" OR "));
}

const SORT_EXPR: Record<IssueSort | "best-match", string> = {
  created: "i.created_at",
  "best-match": "i.created_at",
  updated: "i.updated_at",
  comments: "i.comment_count",
  reactions: REACTIONS,
  interactions: COUNT_EXPR.interactions,
};

export function searchIssues(
  db: Db,
  query: SearchQuery,
  sort: { by: IssueSort | "best-match"; order: "asc" | "desc" },
  limit: number,
  offset: number,
): SearchResult {
  const c = new Conditions();
  const scoped = scopeConditions(db, query, c, "i.repo_id");
  if (!scoped.ok) return { ok: false, missingRepos: scoped.missing };
  peopleConditions(c, query, authenticatedLogin(db));
  issueConditions(c, query);
  textConditions(c, query);
  const sql = `FROM gh_issues i${c.sql()}`;
  const by = query.sort ?? sort;
  const dir = by.order === "asc" ? "ASC" : "DESC";
  return {
    ok: true,
    rows: db.all<IssueRow>(
      `SELECT i.* ${sql} ORDER BY ${SORT_EXPR[by.by]} ${dir}, i.id ${dir} LIMIT ? OFFSET ?`,
      ...c.params,
      limit,
      offset,
    ),
    total: db.one<{ n: number }>(`SELECT count(*) AS n ${sql}`, ...c.params)?.n ?? 0,
  };
}
