// GET /search/code and GET /search/commits: the files and the history of each repository's
// default branch, as GitHub searches them (docs.github.com › Searching code (legacy), › Searching
// commits): code search looks at files under 384 KB and needs a search term besides qualifiers;
// commit search looks at the commits the default branch reaches.
import type { Db } from "../../types";
import { LANGUAGE_JSON, languageNamed, languageSql } from "./languages";
import type { CommitRow } from "./git";
import {
  Conditions,
  contains,
  dateRange,
  countRange,
  epochOf,
  flag,
  type Qualifier,
  type Range,
  readScope,
  readWords,
  type Scope,
  scopeConditions,
} from "./search-query";

/** GitHub indexes files smaller than 384 KB for code search. */
export const CODE_SEARCH_MAX_BYTES = 384 * 1024;

export interface CodeSearch extends Scope {
  fields: Set<"file" | "path">;
  paths: string[];
  filenames: string[];
  extensions: string[];
  languages: string[];
  sizes: Range[];
  fork: "false" | "true" | "only";
  terms: string[];
}

function readCodeQualifier(out: CodeSearch, q: Qualifier): boolean {
  const { key, value } = q;
  const lower = value.toLowerCase();
  if (readScope(out, q)) return true;
  if (key === "in" && lower.split(",").every((f) => f === "file" || f === "path"))
    for (const f of lower.split(",")) out.fields.add(f as "file" | "path");
  else if (key === "path") out.paths.push(value.replace(/^\/+|\/+$/g, ""));
  else if (key === "filename") out.filenames.push(value);
  else if (key === "extension") out.extensions.push(value.replace(/^\./, ""));
  else if (key === "language") out.languages.push(languageNamed(value));
  else if (key === "size" && countRange(value)) out.sizes.push(countRange(value) as Range);
  else if (key === "fork" && (lower === "true" || lower === "only" || lower === "false")) out.fork = lower;
  else return false;
  return true;
}

export function parseCodeSearch(q: string): CodeSearch {
  const out: CodeSearch = {
    repos: [],
    owners: [],
    fields: new Set(),
    paths: [],
    filenames: [],
    extensions: [],
    languages: [],
    sizes: [],
    fork: "false",
    terms: [],
  };
  out.terms = readWords(q, (qualifier) => readCodeQualifier(out, qualifier));
  return out;
}

/** A file a code search found: where it is, and the commit its default branch stands at. */
export interface CodeHit {
  repo_id: number;
  path: string;
  blob_sha: string;
  head_sha: string;
}

const BYTES = "length(CAST(bl.content AS BLOB))";

function codeConditions(c: Conditions, s: CodeSearch): void {
  c.add(`${BYTES} < ?`, CODE_SEARCH_MAX_BYTES);
  if (s.fork === "false") c.add("r.fork_of IS NULL");
  if (s.fork === "only") c.add("r.fork_of IS NOT NULL");
  // `path:/` is the root; `path:src` is src and everything under it.
  c.every(
    s.paths,
    "(want.value = '' AND instr(t.path, '/') = 0) OR (want.value != '' AND t.path > want.value || '/' AND t.path < want.value || '0')",
  );
  c.every(s.filenames, "lower(t.path) = lower(want.value) OR substr(lower(t.path), -length(want.value) - 1) = '/' || lower(want.value)");
  c.every(s.extensions, "substr(lower(t.path), -length(want.value) - 1) = '.' || lower(want.value)");
  if (s.languages.length)
    c.add(
      `NOT EXISTS (SELECT 1 FROM json_each(?) want WHERE NOT coalesce(${languageSql("t.path")} = want.value COLLATE NOCASE, 0))`,
      JSON.stringify(s.languages),
      LANGUAGE_JSON,
    );
  c.ranges(BYTES, s.sizes);
  const fields = s.fields.size ? [...s.fields] : (["file", "path"] as const);
  c.every(
    s.terms,
    fields.map((f) => (f === "file" ? contains("bl.content", "want.value") : contains("t.path", "want.value"))).join(" OR "),
  );
}

export type CodeSearchResult = { ok: true; hits: CodeHit[]; total: number } | { ok: false; missing: string[] };

export function searchCode(db: Db, s: CodeSearch, limit: number, offset: number): CodeSearchResult {
  const c = new Conditions();
  const scoped = scopeConditions(db, s, c, "r.id");
  if (!scoped.ok) return scoped;
  codeConditions(c, s);
  const sql = `FROM gh_repos r JOIN gh_branches b ON b.repo_id = r.id AND b.name = r.default_branch
    JOIN gh_tree_entries t ON t.commit_sha = b.head_sha JOIN gh_blobs bl ON bl.sha = t.blob_sha${c.sql()}`;
  return {
    ok: true,
    hits: db.all<CodeHit>(
      `SELECT r.id AS repo_id, t.path, t.blob_sha, b.head_sha ${sql} ORDER BY r.id, t.path LIMIT ? OFFSET ?`,
      ...c.params,
      limit,
      offset,
    ),
    total: db.one<{ n: number }>(`SELECT count(*) AS n ${sql}`, ...c.params)?.n ?? 0,
  };
}

// Commits.

type Who = "author" | "committer";
export type CommitSort = "author-date" | "committer-date";

export interface CommitSearch extends Scope {
  accounts: Record<Who, string[]>;
  names: Record<Who, string[]>;
  emails: Record<Who, string[]>;
  dates: Record<Who, Range[]>;
  merge?: boolean;
  hashes: string[];
  parents: string[];
  trees: string[];
  terms: string[];
}

function readCommitQualifier(out: CommitSearch, q: Qualifier): boolean {
  const { key, value } = q;
  if (readScope(out, q)) return true;
  const [who, what] = key.split("-") as [string, string | undefined];
  if (who === "author" || who === "committer") {
    if (what === undefined) out.accounts[who].push(value);
    else if (what === "name") out.names[who].push(value);
    else if (what === "email") out.emails[who].push(value);
    else if (what === "date" && dateRange(value)) out.dates[who].push(dateRange(value) as Range);
    else return false;
  } else if (key === "merge" && flag(value) !== undefined) out.merge = flag(value);
  else if (key === "hash" || key === "parent" || key === "tree")
    (key === "hash" ? out.hashes : key === "parent" ? out.parents : out.trees).push(value.toLowerCase());
  else return false;
  return true;
}

export function parseCommitSearch(q: string): CommitSearch {
  const out: CommitSearch = {
    repos: [],
    owners: [],
    accounts: { author: [], committer: [] },
    names: { author: [], committer: [] },
    emails: { author: [], committer: [] },
    dates: { author: [], committer: [] },
    hashes: [],
    parents: [],
    trees: [],
    terms: [],
  };
  out.terms = readWords(q, (qualifier) => readCommitQualifier(out, qualifier));
  return out;
}

// A commit's people as the twin shows them (view-git.ts `commitPeople`): the identity a caller
// named, else the acting login's name and email (its noreply address when it has none).
const personName = (who: Who) =>
  `coalesce(json_extract(c.identity, '$.${who}.name'), (SELECT coalesce(u.name, u.login) FROM gh_users u WHERE u.login = c.author COLLATE NOCASE), c.author)`;
const personEmail = (who: Who) =>
  `coalesce(json_extract(c.identity, '$.${who}.email'), (SELECT coalesce(u.email, u.id || '+' || u.login || '@users.noreply.github.com') FROM gh_users u WHERE u.login = c.author COLLATE NOCASE), '0+' || c.author || '@users.noreply.github.com')`;
const personDate = (who: Who) => epochOf(`coalesce(json_extract(c.identity, '$.${who}.date'), c.created_at)`);
/** The account a commit's person is (view-git.ts `accountOf`): by email or noreply address. */
const personIs = (who: Who) => {
  const email = `lower(${personEmail(who)})`;
  return `((c.identity IS NULL AND c.author = want.value COLLATE NOCASE) OR (c.identity IS NOT NULL AND (
    EXISTS (SELECT 1 FROM gh_users u WHERE u.login = want.value COLLATE NOCASE AND lower(u.email) = ${email})
    OR ${email} = lower(want.value) || '@users.noreply.github.com'
    OR substr(${email}, instr(${email}, '+') + 1) = lower(want.value) || '@users.noreply.github.com')))`;
};

/** Every commit the default branch of a repository reaches, first and second parents alike. */
const REACHABLE = `WITH RECURSIVE reach(repo_id, sha) AS (
    SELECT b.repo_id, b.head_sha FROM gh_branches b JOIN gh_repos r ON r.id = b.repo_id AND b.name = r.default_branch
    UNION SELECT c.repo_id, c.parent_sha FROM reach JOIN gh_commits c ON c.repo_id = reach.repo_id AND c.sha = reach.sha WHERE c.parent_sha IS NOT NULL
    UNION SELECT c.repo_id, c.parent2_sha FROM reach JOIN gh_commits c ON c.repo_id = reach.repo_id AND c.sha = reach.sha WHERE c.parent2_sha IS NOT NULL)`;

function commitConditions(c: Conditions, s: CommitSearch): void {
  for (const who of ["author", "committer"] as const) {
    c.every(s.accounts[who], personIs(who));
    c.every(s.names[who], `${personName(who)} = want.value COLLATE NOCASE`);
    c.every(s.emails[who], `${personEmail(who)} = want.value COLLATE NOCASE`);
    c.ranges(personDate(who), s.dates[who]);
  }
  if (s.merge !== undefined) c.add(s.merge ? "c.parent2_sha IS NOT NULL" : "c.parent2_sha IS NULL");
  c.every(s.hashes, "substr(c.sha, 1, length(want.value)) = want.value");
  c.every(
    s.parents,
    "substr(coalesce(c.parent_sha, ''), 1, length(want.value)) = want.value OR substr(coalesce(c.parent2_sha, ''), 1, length(want.value)) = want.value",
  );
  c.every(s.trees, "substr(c.tree_sha, 1, length(want.value)) = want.value");
  c.every(s.terms, contains("c.message", "want.value"));
}

export type CommitSearchResult = { ok: true; rows: CommitRow[]; total: number } | { ok: false; missing: string[] };

export function searchCommits(
  db: Db,
  s: CommitSearch,
  sort: { by?: CommitSort; order: "asc" | "desc" },
  limit: number,
  offset: number,
): CommitSearchResult {
  const c = new Conditions();
  const scoped = scopeConditions(db, s, c, "c.repo_id");
  if (!scoped.ok) return scoped;
  commitConditions(c, s);
  // One row per commit, however many times a write recorded the same sha.
  c.add("c.seq = (SELECT min(c2.seq) FROM gh_commits c2 WHERE c2.repo_id = c.repo_id AND c2.sha = c.sha)");
  const sql = `FROM gh_commits c JOIN reach ON reach.repo_id = c.repo_id AND reach.sha = c.sha${c.sql()}`;
  const dir = sort.order === "asc" ? "ASC" : "DESC";
  const order = sort.by ? `${personDate(sort.by === "author-date" ? "author" : "committer")} ${dir}, c.seq ${dir}` : "c.seq DESC";
  return {
    ok: true,
    rows: db.all<CommitRow>(`${REACHABLE} SELECT c.* ${sql} ORDER BY ${order} LIMIT ? OFFSET ?`, ...c.params, limit, offset),
    total: db.one<{ n: number }>(`${REACHABLE} SELECT count(*) AS n ${sql}`, ...c.params)?.n ?? 0,
  };
}
