// GET /search/repositories and GET /search/users over gh_repos and gh_users, with the qualifiers
// docs.github.com › Searching for repositories and › Searching users list. Stars and forks are the
// repository's counters; a repository's language is its primary one (most bytes at the default
// branch, by file name: store/languages.ts); users have no followers in the twin's world.
import type { Db } from "../../types";
import type { RepoRow, UserRow } from "../repos";
import { LANGUAGE_JSON, languageNamed, languageSql } from "./languages";
import {
  Conditions,
  contains,
  countRange,
  dateRange,
  epochOf,
  flag,
  type Qualifier,
  type Range,
  readScope,
  pushTo,
  readWords,
  type Scope,
  scopeConditions,
} from "./search-query";

type RepoCount = "stars" | "forks" | "size" | "topics" | "good-first-issues" | "help-wanted-issues";
type RepoDate = "created" | "pushed";
export type RepoSort = "stars" | "forks" | "help-wanted-issues" | "updated";

export interface RepoSearch extends Scope {
  /** Where text is looked for: name, description and topics unless `in:` says otherwise. */
  fields: Set<"name" | "description" | "topics" | "readme">;
  languages: string[];
  topics: string[];
  counts: Partial<Record<RepoCount, Range[]>>;
  dates: Partial<Record<RepoDate, Range[]>>;
  archived?: boolean;
  /** Forks are left out unless `fork:true` (with the rest) or `fork:only` (alone). */
  fork: "false" | "true" | "only";
  template?: boolean;
  mirror?: boolean;
  licenses: string[];
  terms: string[];
}

const REPO_COUNTS: readonly string[] = ["stars", "forks", "size", "topics", "good-first-issues", "help-wanted-issues"];
const REPO_FIELDS = ["name", "description", "topics", "readme"] as const;

function readRepoQualifier(out: RepoSearch, q: Qualifier): boolean {
  const { key, value } = q;
  const lower = value.toLowerCase();
  if (readScope(out, q)) return true;
  if (key === "in" && lower.split(",").every((f) => (REPO_FIELDS as readonly string[]).includes(f)))
    for (const f of lower.split(",")) out.fields.add(f as (typeof REPO_FIELDS)[number]);
  else if (key === "language") out.languages.push(languageNamed(value));
  else if (key === "topic") out.topics.push(value);
  else if (REPO_COUNTS.includes(key) && countRange(value)) pushTo(out.counts, key as RepoCount, countRange(value) as Range);
  else if ((key === "created" || key === "pushed") && dateRange(value)) pushTo(out.dates, key, dateRange(value) as Range);
  else if (key === "archived" && flag(value) !== undefined) out.archived = flag(value);
  else if (key === "fork" && (lower === "true" || lower === "only" || lower === "false")) out.fork = lower;
  else if (key === "template" && flag(value) !== undefined) out.template = flag(value);
  else if (key === "mirror" && flag(value) !== undefined) out.mirror = flag(value);
  else if (key === "license") out.licenses.push(value);
  else return false;
  return true;
}

export function parseRepoSearch(q: string): RepoSearch {
  const out: RepoSearch = {
    repos: [],
    owners: [],
    fields: new Set(),
    languages: [],
    topics: [],
    counts: {},
    dates: {},
    fork: "false",
    licenses: [],
    terms: [],
  };
  out.terms = readWords(q, (qualifier) => readRepoQualifier(out, qualifier));
  return out;
}

/** The files of a repository's default branch as it stands (`t` its tree entries, `bl` their blobs). */
const DEFAULT_BRANCH_FILES =
  "FROM gh_branches b JOIN gh_tree_entries t ON t.commit_sha = b.head_sha JOIN gh_blobs bl ON bl.sha = t.blob_sha WHERE b.repo_id = r.id AND b.name = r.default_branch";
/** Open issues carrying a label of this name (`good first issue`, `help wanted`). */
const openIssuesLabelled = (label: string) =>
  `(SELECT count(*) FROM gh_issues i JOIN gh_issue_labels il ON il.issue_id = i.id JOIN gh_labels l ON l.id = il.label_id WHERE i.repo_id = r.id AND i.state = 'open' AND i.is_pull = 0 AND l.name = '${label}' COLLATE NOCASE)`;
const REPO_COUNT_EXPR: Record<RepoCount, string> = {
  stars: "r.stargazers",
  forks: "r.forks",
  // GitHub's `size` is in kilobytes; the twin reports 0 for every repository, so it searches 0 too.
  size: "0",
  topics: "json_array_length(r.topics)",
  "good-first-issues": openIssuesLabelled("good first issue"),
  "help-wanted-issues": openIssuesLabelled("help wanted"),
};
const REPO_DATE_EXPR: Record<RepoDate, string> = { created: epochOf("r.created_at"), pushed: epochOf("r.pushed_at") };
/**
 * The primary language: the one with the most bytes among the default branch's files. Like
 * Linguist, prose and data (Markdown, JSON, YAML, TOML) do not count.
 */
const PRIMARY_LANGUAGE = `(SELECT ${languageSql("t.path")} AS lang ${DEFAULT_BRANCH_FILES} GROUP BY lang HAVING lang IS NOT NULL AND lang NOT IN ('Markdown', 'JSON', 'YAML', 'TOML') ORDER BY sum(length(CAST(bl.content AS BLOB))) DESC, lang LIMIT 1)`;
const TEXT_IN: Record<(typeof REPO_FIELDS)[number], string> = {
  name: contains("r.name", "want.value"),
  description: contains("r.description", "want.value"),
  topics: "EXISTS (SELECT 1 FROM json_each(r.topics) tp WHERE instr(lower(tp.value), lower(want.value)) > 0)",
  readme: `EXISTS (SELECT 1 ${DEFAULT_BRANCH_FILES} AND lower(t.path) IN ('readme', 'readme.md', 'readme.txt', 'readme.rst') AND ${contains("bl.content", "want.value")})`,
};

function repoConditions(c: Conditions, s: RepoSearch): void {
  if (s.languages.length)
    c.add(`${PRIMARY_LANGUAGE} COLLATE NOCASE IN (SELECT value FROM json_each(?))`, LANGUAGE_JSON, JSON.stringify(s.languages));
  c.every(s.topics, "EXISTS (SELECT 1 FROM json_each(r.topics) tp WHERE tp.value = want.value COLLATE NOCASE)");
  for (const [field, ranges] of Object.entries(s.counts)) c.ranges(REPO_COUNT_EXPR[field as RepoCount], ranges ?? []);
  for (const [field, ranges] of Object.entries(s.dates)) c.ranges(REPO_DATE_EXPR[field as RepoDate], ranges ?? []);
  if (s.archived !== undefined) c.add("r.archived = ?", s.archived ? 1 : 0);
  if (s.fork === "false") c.add("r.fork_of IS NULL");
  if (s.fork === "only") c.add("r.fork_of IS NOT NULL");
  if (s.template !== undefined) c.add("coalesce(json_extract(r.settings, '$.is_template'), 0) = ?", s.template ? 1 : 0);
  // No repository of the twin's world is a mirror or declares a license.
  if (s.mirror) c.add("0");
  if (s.licenses.length) c.add("0");
  const fields = s.fields.size ? [...s.fields] : (["name", "description", "topics"] as const);
  c.every(s.terms, fields.map((f) => TEXT_IN[f]).join(" OR "));
}

export type RepoSearchResult = { ok: true; rows: RepoRow[]; total: number } | { ok: false; missing: string[] };

const REPO_SORT: Record<RepoSort, string> = {
  stars: "r.stargazers",
  forks: "r.forks",
  "help-wanted-issues": REPO_COUNT_EXPR["help-wanted-issues"],
  updated: "r.updated_at",
};

export function searchRepositories(
  db: Db,
  s: RepoSearch,
  sort: { by?: RepoSort; order: "asc" | "desc" },
  limit: number,
  offset: number,
): RepoSearchResult {
  const c = new Conditions();
  const scoped = scopeConditions(db, s, c, "r.id");
  if (!scoped.ok) return scoped;
  repoConditions(c, s);
  const sql = `FROM gh_repos r${c.sql()}`;
  const dir = sort.order === "asc" ? "ASC" : "DESC";
  // Best match: a repository named exactly as a term first, then the most starred.
  const order = sort.by
    ? `${REPO_SORT[sort.by]} ${dir}, r.id ${dir}`
    : "EXISTS (SELECT 1 FROM json_each(?) w WHERE w.value = r.name COLLATE NOCASE) DESC, r.stargazers DESC, r.id ASC";
  const orderParams = sort.by ? [] : [JSON.stringify(s.terms)];
  return {
    ok: true,
    rows: db.all<RepoRow>(`SELECT r.* ${sql} ORDER BY ${order} LIMIT ? OFFSET ?`, ...c.params, ...orderParams, limit, offset),
    total: db.one<{ n: number }>(`SELECT count(*) AS n ${sql}`, ...c.params)?.n ?? 0,
  };
}

// Users.

type UserCount = "repos" | "followers";
export type UserSort = "followers" | "repositories" | "joined";

export interface UserSearch {
  type?: "user" | "org";
  /** Where text is looked for: login and email unless `in:` says otherwise (GitHub's default). */
  fields: Set<"login" | "name" | "email">;
  logins: string[];
  fullnames: string[];
  languages: string[];
  counts: Partial<Record<UserCount, Range[]>>;
  created: Range[];
  /** Qualifiers the twin's world has no data for (`location:`, `is:sponsorable`): they match no one. */
  unmatched: boolean;
  terms: string[];
}

function readUserQualifier(out: UserSearch, q: Qualifier): boolean {
  const { key, value } = q;
  const lower = value.toLowerCase();
  if (key === "type" && (lower === "user" || lower === "users" || lower === "org" || lower === "orgs"))
    out.type = lower.startsWith("org") ? "org" : "user";
  else if (key === "in" && lower.split(",").every((f) => f === "login" || f === "name" || f === "email" || f === "fullname"))
    for (const f of lower.split(",")) out.fields.add(f === "fullname" ? "name" : (f as "login" | "name" | "email"));
  else if (key === "user" || key === "org") out.logins.push(value);
  else if (key === "fullname") out.fullnames.push(value);
  else if (key === "language") out.languages.push(languageNamed(value));
  else if ((key === "repos" || key === "followers") && countRange(value)) pushTo(out.counts, key, countRange(value) as Range);
  else if (key === "created" && dateRange(value)) out.created.push(dateRange(value) as Range);
  else if (key === "location" || (key === "is" && lower === "sponsorable")) out.unmatched = true;
  else return false;
  return true;
}

export function parseUserSearch(q: string): UserSearch {
  const out: UserSearch = {
    fields: new Set(),
    logins: [],
    fullnames: [],
    languages: [],
    counts: {},
    created: [],
    unmatched: false,
    terms: [],
  };
  out.terms = readWords(q, (qualifier) => readUserQualifier(out, qualifier));
  return out;
}

/** Every account of the twin's world was made at the epoch its user objects report (serialize.ts). */
export const ACCOUNT_CREATED_AT = "2020-01-01T00:00:00Z";
const OWNED_REPOS = "(SELECT count(*) FROM gh_repos r WHERE r.owner = u.login COLLATE NOCASE AND r.private = 0)";

export function searchUsers(db: Db, s: UserSearch, sort: { by?: UserSort; order: "asc" | "desc" }, limit: number, offset: number) {
  const c = new Conditions();
  if (s.type) c.add(s.type === "org" ? "u.type = 'Organization'" : "u.type != 'Organization'");
  if (s.unmatched) c.add("0");
  c.every(s.logins, "u.login = want.value COLLATE NOCASE");
  c.every(s.fullnames, contains("u.name", "want.value"));
  const ownsLanguage = `EXISTS (SELECT 1 FROM gh_repos r WHERE r.owner = u.login COLLATE NOCASE AND ${PRIMARY_LANGUAGE} = want.value COLLATE NOCASE)`;
  if (s.languages.length)
    c.add(`NOT EXISTS (SELECT 1 FROM json_each(?) want WHERE NOT (${ownsLanguage}))`, JSON.stringify(s.languages), LANGUAGE_JSON);
  c.ranges(OWNED_REPOS, s.counts.repos ?? []);
  c.ranges("0", s.counts.followers ?? []);
  c.ranges(`unixepoch('${ACCOUNT_CREATED_AT}')`, s.created);
  const fields = s.fields.size ? [...s.fields] : (["login", "email"] as const);
  c.every(s.terms, fields.map((f) => contains(`u.${f}`, "want.value")).join(" OR "));
  const sql = `FROM gh_users u${c.sql()}`;
  const dir = sort.order === "asc" ? "ASC" : "DESC";
  const order = sort.by === "repositories" ? `${OWNED_REPOS} ${dir}, u.id ${dir}` : sort.by ? `u.id ${dir}` : "u.id ASC";
  return {
    rows: db.all<UserRow>(`SELECT u.* ${sql} ORDER BY ${order} LIMIT ? OFFSET ?`, ...c.params, limit, offset),
    total: db.one<{ n: number }>(`SELECT count(*) AS n ${sql}`, ...c.params)?.n ?? 0,
  };
}
