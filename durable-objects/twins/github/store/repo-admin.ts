// Repository lifecycle as plain state functions: create (optionally with a first commit), update
// settings, rename, archive, fork (the branches and their history shared with the source) and
// delete (every gh_ row that names the repository). Shapes and refusals follow GitHub's REST
// reference (repos/create-for-authenticated-user, repos/update, repos/create-fork, repos/delete).
import type { Db } from "../../types";
import { fail, ghError, ghValidationFailed, type ValidationError } from "../errors";
import { findRepoById, findRepoByName, findUser, type RepoRow } from "../repos";
import { bool, nextId, type Store } from "./base";
import { putBlob, writeCommit } from "./git";

/** The feature and merge switches a repository carries (`has_issues`, `allow_squash_merge`, ...). */
export const DEFAULT_SETTINGS = {
  has_issues: true,
  has_projects: true,
  has_wiki: true,
  has_discussions: false,
  is_template: false,
  allow_squash_merge: true,
  allow_merge_commit: true,
  allow_rebase_merge: true,
  allow_auto_merge: false,
  delete_branch_on_merge: false,
  allow_update_branch: false,
  allow_forking: true,
  web_commit_signoff_required: false,
};
export type RepoSettings = typeof DEFAULT_SETTINGS;
export type SettingName = keyof RepoSettings;
export const SETTING_NAMES = Object.keys(DEFAULT_SETTINGS) as SettingName[];

/** A repository's switches: what it stored over the defaults (a seeded repository stored none). */
export function settingsOf(row: Pick<RepoRow, "settings">): RepoSettings {
  let stored: unknown;
  try {
    stored = JSON.parse(row.settings ?? "{}");
  } catch {
    stored = {};
  }
  const out: RepoSettings = { ...DEFAULT_SETTINGS };
  if (stored && typeof stored === "object")
    for (const name of SETTING_NAMES) {
      const value = (stored as Record<string, unknown>)[name];
      if (typeof value === "boolean") out[name] = value;
    }
  return out;
}

/** The switches a request named, over what the repository had. */
export const withSettings = (current: RepoSettings, given: Partial<Record<SettingName, boolean | undefined>>): RepoSettings => {
  const out = { ...current };
  for (const name of SETTING_NAMES) {
    const value = given[name];
    if (typeof value === "boolean") out[name] = value;
  }
  return out;
};

const MAX_NAME = 100;

/**
 * The name GitHub gives a repository asked for as `raw`: letters, digits, `.`, `-` and `_` kept,
 * every other run of characters made one `-` (GitHub's "Your new repository will be created as
 * my-repo"), at most 100 characters; `.` and `..` are refused. Pure, tested without HTTP.
 */
export function repositoryName(raw: string, resource = "Repository"): { ok: true; name: string } | { ok: false; error: ValidationError } {
  const name = raw.trim().replace(/[^A-Za-z0-9._-]+/g, "-");
  if (!raw.trim()) return { ok: false, error: { resource, code: "missing_field", field: "name" } };
  if (name === "." || name === ".." || name === "-")
    return { ok: false, error: { resource, code: "custom", field: "name", message: "name is invalid" } };
  if (name.length > MAX_NAME)
    return {
      ok: false,
      error: { resource, code: "custom", field: "name", message: `name is too long (maximum is ${MAX_NAME} characters)` },
    };
  return { ok: true, name };
}

/** The checked name, or GitHub's 422 naming the problem (`message` is the refusal's headline). */
export function checkedName(raw: string, resource = "Repository", message = "Validation Failed"): string {
  const checked = repositoryName(raw, resource);
  return checked.ok ? checked.name : fail(ghValidationFailed([checked.error], message));
}

/** GitHub's refusal of a name the account already uses (seen on POST /user/repos). */
export const nameTaken = (message = "Repository creation failed.") =>
  ghValidationFailed([{ resource: "Repository", code: "custom", field: "name", message: "name already exists on this account" }], message);

export interface NewRepository {
  owner: string;
  name: string;
  description: string | null;
  homepage: string | null;
  private: boolean;
  settings: RepoSettings;
  /** Write a first commit holding a README on the default branch. */
  autoInit: boolean;
  defaultBranch: string;
  forkOf?: number;
}

export function insertRepository(s: Store, r: NewRepository): RepoRow {
  const id = nextId(s.db);
  s.db.run(
    `INSERT INTO gh_repos (id, owner, name, description, private, default_branch, topics, archived, collaborators,
       created_at, updated_at, pushed_at, next_number, open_issues, homepage, settings, fork_of)
     VALUES (?, ?, ?, ?, ?, ?, '[]', 0, '[]', ?, ?, ?, 1, 0, ?, ?, ?)`,
    id,
    r.owner,
    r.name,
    r.description,
    bool(r.private),
    r.defaultBranch,
    s.now,
    s.now,
    s.now,
    r.homepage,
    JSON.stringify(r.settings),
    r.forkOf ?? null,
  );
  if (r.autoInit) {
    // GitHub's README for auto_init: the name as a heading, then the description when there is one.
    const readme = `# ${r.name}${r.description ? `\n${r.description}` : ""}\n`;
    const commit = writeCommit(s.db, {
      repoId: id,
      branch: r.defaultBranch,
      parents: [],
      tree: [{ path: "README.md", blob_sha: putBlob(s.db, readme) }],
      message: "Initial commit",
      author: s.actor,
      at: s.now,
    });
    s.db.run(
      "INSERT INTO gh_branches (repo_id, name, protected, head_sha, position) VALUES (?, ?, 0, ?, 0)",
      id,
      r.defaultBranch,
      commit.sha,
    );
  }
  return findRepoById(s.db, id) ?? fail(ghError(500, "Server Error"));
}

/** Creates a repository for `owner`, refusing a name the account already uses. */
export function createRepository(s: Store, r: NewRepository): RepoRow {
  if (findRepoByName(s.db, r.owner, r.name)) fail(nameTaken());
  return insertRepository(s, r);
}

/** The tables whose rows belong to one repository: every gh_ table with a repo_id column. */
function tablesKeyedByRepo(db: Db): string[] {
  return db
    .all<{ name: string; sql: string }>("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name LIKE 'gh\\_%' ESCAPE '\\'")
    .filter((t) => /\brepo_id\b/.test(t.sql))
    .map((t) => t.name);
}

/**
 * Deletes a repository and everything it holds. Rows keyed by issue (labels on issues, sub-issue
 * links into it) go first; then every table with a repo_id. Blobs and tree entries are shared by
 * content with forks, so they stay. Forks of it stay, no longer forks (GitHub re-parents them to
 * another fork; the twin does not pick one). Stars go with it.
 */
export function deleteRepository(db: Db, repo: RepoRow): void {
  const issues = "SELECT id FROM gh_issues WHERE repo_id = ?";
  db.run(`DELETE FROM gh_issue_labels WHERE issue_id IN (${issues})`, repo.id);
  db.run(`DELETE FROM gh_sub_issues WHERE parent_id IN (${issues})`, repo.id);
  for (const table of tablesKeyedByRepo(db)) db.run(`DELETE FROM ${table} WHERE repo_id = ?`, repo.id);
  db.run("UPDATE gh_repos SET fork_of = NULL WHERE fork_of = ?", repo.id);
  if (repo.fork_of !== null) db.run("UPDATE gh_repos SET forks = max(forks - 1, 0) WHERE id = ?", repo.fork_of);
  db.run("DELETE FROM gh_repos WHERE id = ?", repo.id);
}

/** The root of a fork network: the repository a chain of forks started from. */
export function sourceOf(db: Db, repo: RepoRow): RepoRow {
  let at = repo;
  for (let hops = 0; at.fork_of !== null && hops < 50; hops++) {
    const up = findRepoById(db, at.fork_of);
    if (!up) break;
    at = up;
  }
  return at;
}

/** A free name for a fork: the source's, else with -1, -2... as GitHub numbers a clash. */
function freeName(db: Db, owner: string, wanted: string): string {
  if (!findRepoByName(db, owner, wanted)) return wanted;
  for (let n = 1; ; n++) if (!findRepoByName(db, owner, `${wanted}-${n}`)) return `${wanted}-${n}`;
}

/** Copies the source's branches (all, or the default one), their commits and trees, and its tags. */
function copyHistory(db: Db, from: RepoRow, to: number, defaultOnly: boolean): void {
  const branchFilter = defaultOnly ? " AND name = ?" : "";
  const branchArgs = defaultOnly ? [from.default_branch] : [];
  db.run(
    `INSERT INTO gh_branches (repo_id, name, protected, head_sha, position)
     SELECT ?, name, 0, head_sha, position FROM gh_branches WHERE repo_id = ?${branchFilter}`,
    to,
    from.id,
    ...branchArgs,
  );
  db.run(
    `INSERT INTO gh_commits (sha, repo_id, branch, message, author, parent_sha, created_at, parent2_sha, tree_sha, depth, identity)
     SELECT sha, ?, branch, message, author, parent_sha, created_at, parent2_sha, tree_sha, depth, identity
     FROM gh_commits WHERE repo_id = ? ORDER BY seq`,
    to,
    from.id,
  );
  db.run(
    "INSERT OR IGNORE INTO gh_trees (repo_id, sha, source, dir) SELECT ?, sha, source, dir FROM gh_trees WHERE repo_id = ?",
    to,
    from.id,
  );
  if (defaultOnly) return;
  db.run("INSERT INTO gh_tag_refs (repo_id, name, sha) SELECT ?, name, sha FROM gh_tag_refs WHERE repo_id = ?", to, from.id);
  db.run(
    `INSERT INTO gh_tag_objects (sha, repo_id, tag, message, object_sha, object_type, tagger)
     SELECT sha, ?, tag, message, object_sha, object_type, tagger FROM gh_tag_objects WHERE repo_id = ? ORDER BY seq`,
    to,
    from.id,
  );
}

export interface ForkRequest {
  owner: string;
  name?: string;
  defaultBranchOnly: boolean;
}

/**
 * Forks `source` into `owner`'s account. An account that already has a fork of the repository
 * gets that fork back (GitHub answers 202 with it). Copies are made now: GitHub's are
 * asynchronous, and the twin's are ready when the 202 arrives.
 */
export function forkRepository(s: Store, source: RepoRow, f: ForkRequest): RepoRow {
  if (source.owner.toLowerCase() === f.owner.toLowerCase() && !f.name)
    fail(ghValidationFailed([{ resource: "Repository", code: "custom", field: "name", message: "name already exists on this account" }]));
  const existing = s.db.one<RepoRow>("SELECT * FROM gh_repos WHERE fork_of = ? AND owner = ? COLLATE NOCASE", source.id, f.owner);
  if (existing) return existing;
  const owner = findUser(s, f.owner)?.login ?? f.owner;
  const fork = insertRepository(s, {
    owner,
    name: freeName(s.db, owner, f.name ?? source.name),
    description: source.description,
    homepage: source.homepage,
    private: source.private === 1,
    settings: settingsOf(source),
    autoInit: false,
    defaultBranch: source.default_branch,
    forkOf: source.id,
  });
  copyHistory(s.db, source, fork.id, f.defaultBranchOnly);
  s.db.run("UPDATE gh_repos SET topics = ?, pushed_at = ? WHERE id = ?", source.topics, source.pushed_at, fork.id);
  s.db.run("UPDATE gh_repos SET forks = forks + 1 WHERE id = ?", source.id);
  return findRepoById(s.db, fork.id) ?? fork;
}
