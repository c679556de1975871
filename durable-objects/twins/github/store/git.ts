// Git as the twin keeps it: blobs by their git sha, one full tree per commit, commits with their
// parents, and branches pointing at commits. Trees are small next to issue counts, so a commit
// copies its parent's tree; every read by sha or path is a primary-key lookup.
import type { Db } from "../../types";
import { gitBlobSha, sha1Hex } from "../sha1";
import type { Store } from "./base";

export interface CommitRow {
  sha: string;
  repo_id: number;
  branch: string;
  message: string;
  author: string;
  parent_sha: string | null;
  parent2_sha: string | null;
  tree_sha: string;
  depth: number;
  created_at: string;
  seq: number;
  /** JSON of the author and committer a caller named (`CommitIdentity`); null: the acting login. */
  identity: string | null;
}

/** A person as a git commit or tag records them. */
export interface GitIdentity {
  name: string;
  email: string;
  date: string;
}

export interface CommitIdentity {
  author: GitIdentity;
  committer: GitIdentity;
}

/** The identity a commit row records, when a caller named one. */
export function commitIdentity(c: CommitRow): CommitIdentity | undefined {
  if (!c.identity) return undefined;
  try {
    return JSON.parse(c.identity) as CommitIdentity;
  } catch {
    return undefined;
  }
}

export interface BranchRow {
  repo_id: number;
  name: string;
  protected: number;
  head_sha: string;
  position: number;
}

export interface TreeEntry {
  path: string;
  blob_sha: string;
  position: number;
  /** git's file mode: 100644, 100755 (executable) or 120000 (symlink). */
  mode: string;
}

/** A file of a tree as writers give it; the mode defaults to a plain file's. */
export interface TreeFile {
  path: string;
  blob_sha: string;
  mode?: string;
}

export const FILE_MODE = "100644";

export type FileStatus = "added" | "modified" | "removed";

export interface FileDelta {
  path: string;
  status: FileStatus;
  blob_sha: string | null;
  previous_blob_sha: string | null;
}

/** Stores a file's content once, under its git blob sha. */
export function putBlob(db: Db, content: string): string {
  const sha = gitBlobSha(content);
  db.run("INSERT OR IGNORE INTO gh_blobs (sha, content) VALUES (?, ?)", sha, content);
  return sha;
}

export const blobContent = (db: Db, sha: string) => db.one<{ content: string }>("SELECT content FROM gh_blobs WHERE sha = ?", sha)?.content;

export const treeOf = (db: Db, commitSha: string) =>
  db.all<TreeEntry>("SELECT path, blob_sha, position, mode FROM gh_tree_entries WHERE commit_sha = ? ORDER BY position, path", commitSha);

export const treeEntry = (db: Db, commitSha: string, path: string) =>
  db.one<TreeEntry>("SELECT path, blob_sha, position, mode FROM gh_tree_entries WHERE commit_sha = ? AND path = ?", commitSha, path);

/** Entries under a directory (`""` for the root), by a range scan on the tree's primary key. */
export function entriesUnder(db: Db, commitSha: string, dir: string): TreeEntry[] {
  if (!dir) return treeOf(db, commitSha);
  // "/" + 1 is "0": every path that starts with `dir/` sorts between the two bounds.
  return db.all<TreeEntry>(
    "SELECT path, blob_sha, position, mode FROM gh_tree_entries WHERE commit_sha = ? AND path > ? AND path < ? ORDER BY path",
    commitSha,
    `${dir}/`,
    `${dir}0`,
  );
}

/**
 * A tree id: stable for the same entries, like git's. Paths are relative to the tree, so one
 * directory's content has one id wherever it sits; a mode other than a plain file's counts too.
 */
export const treeSha = (entries: readonly TreeFile[]) =>
  sha1Hex(
    `tree\n${[...entries]
      .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
      .map((e) => `${e.path}\0${e.blob_sha}${e.mode && e.mode !== FILE_MODE ? `\0${e.mode}` : ""}`)
      .join("\n")}`,
  );

/** The files of `entries` under directory `dir`, with paths relative to it. */
export function filesUnder<T extends TreeFile>(entries: readonly T[], dir: string): T[] {
  if (!dir) return [...entries];
  const prefix = `${dir}/`;
  return entries.filter((e) => e.path.startsWith(prefix)).map((e) => ({ ...e, path: e.path.slice(prefix.length) }));
}

/** Every directory of a tree, the root as `""`, each with its tree id. */
export function directoriesOf(entries: readonly TreeFile[]): Map<string, string> {
  const byDir = new Map<string, TreeFile[]>([["", []]]);
  for (const e of entries) {
    const parts = e.path.split("/");
    for (let i = 0; i < parts.length; i++) {
      const dir = parts.slice(0, i).join("/");
      const list = byDir.get(dir) ?? [];
      list.push({ ...e, path: parts.slice(i).join("/") });
      byDir.set(dir, list);
    }
  }
  return new Map([...byDir].map(([dir, files]) => [dir, treeSha(files)]));
}

/**
 * Makes every tree of `entries` addressable by its sha: `source` is the key its entries are
 * stored under in gh_tree_entries (a commit's sha, or a created tree's own).
 */
export function registerTrees(db: Db, repoId: number, source: string, entries: readonly TreeFile[]): void {
  for (const [dir, sha] of directoriesOf(entries))
    db.run("INSERT OR IGNORE INTO gh_trees (repo_id, sha, source, dir) VALUES (?, ?, ?, ?)", repoId, sha, source, dir);
}

/** The files of a tree (paths relative to it), by its sha; undefined when the repository has no such tree. */
export function treeFiles(db: Db, repoId: number, sha: string): TreeEntry[] | undefined {
  const at = db.one<{ source: string; dir: string }>("SELECT source, dir FROM gh_trees WHERE repo_id = ? AND sha = ?", repoId, sha);
  if (!at) return undefined;
  return filesUnder(entriesUnder(db, at.source, at.dir), at.dir);
}

export const findCommit = (db: Db, repoId: number, sha: string) =>
  db.one<CommitRow>("SELECT * FROM gh_commits WHERE repo_id = ? AND sha = ?", repoId, sha);

export const findBranch = (db: Db, repoId: number, name: string) =>
  db.one<BranchRow>("SELECT * FROM gh_branches WHERE repo_id = ? AND name = ?", repoId, name);

export function commitShaFor(parts: {
  repoId: number;
  branch: string;
  parents: string[];
  tree: string;
  message: string;
  at: string;
  author: string;
  identity?: string | null;
}): string {
  return sha1Hex(
    `commit ${parts.repoId}/${parts.branch}\ntree ${parts.tree}\n${parts.parents.map((p) => `parent ${p}\n`).join("")}author ${parts.author} ${parts.at}\n${parts.identity ? `identity ${parts.identity}\n` : ""}\n${parts.message}`,
  );
}

/** The difference between two trees, by path, as git's name-status lists it. */
export function diffTrees(from: readonly TreeEntry[], to: readonly TreeEntry[]): FileDelta[] {
  const before = new Map(from.map((e) => [e.path, e.blob_sha]));
  const after = new Map(to.map((e) => [e.path, e.blob_sha]));
  const out: FileDelta[] = [];
  for (const [path, sha] of after) {
    const prev = before.get(path);
    if (prev === undefined) out.push({ path, status: "added", blob_sha: sha, previous_blob_sha: null });
    else if (prev !== sha) out.push({ path, status: "modified", blob_sha: sha, previous_blob_sha: prev });
  }
  for (const [path, sha] of before) if (!after.has(path)) out.push({ path, status: "removed", blob_sha: null, previous_blob_sha: sha });
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

export interface NewCommit {
  repoId: number;
  branch: string;
  parents: string[];
  /** The full tree of the new commit, in export order. */
  tree: TreeFile[];
  message: string;
  author: string;
  at: string;
  /** The author and committer a caller named, when not the acting login. */
  identity?: CommitIdentity;
}

/** Writes a commit (tree, changed files, row) without moving any branch. */
export function writeCommit(db: Db, c: NewCommit): CommitRow {
  const tree = treeSha(c.tree);
  const identity = c.identity ? JSON.stringify(c.identity) : null;
  const sha = commitShaFor({
    repoId: c.repoId,
    branch: c.branch,
    parents: c.parents,
    tree,
    message: c.message,
    at: c.at,
    author: c.author,
    identity,
  });
  const parent = c.parents[0] ? findCommit(db, c.repoId, c.parents[0]) : undefined;
  const existing = findCommit(db, c.repoId, sha);
  if (existing) return existing;
  c.tree.forEach((e, i) =>
    db.run(
      "INSERT INTO gh_tree_entries (commit_sha, path, blob_sha, position, mode) VALUES (?, ?, ?, ?, ?)",
      sha,
      e.path,
      e.blob_sha,
      i,
      e.mode ?? FILE_MODE,
    ),
  );
  registerTrees(db, c.repoId, sha, c.tree);
  const deltas = diffTrees(
    parent ? treeOf(db, parent.sha) : [],
    c.tree.map((e, i) => ({ ...e, position: i, mode: e.mode ?? FILE_MODE })),
  );
  for (const d of deltas) {
    db.run(
      "INSERT INTO gh_commit_files (commit_sha, path, status, blob_sha, previous_blob_sha) VALUES (?, ?, ?, ?, ?)",
      sha,
      d.path,
      d.status,
      d.blob_sha,
      d.previous_blob_sha,
    );
  }
  db.run(
    `INSERT INTO gh_commits (sha, repo_id, branch, message, author, parent_sha, parent2_sha, tree_sha, depth, created_at, identity)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    sha,
    c.repoId,
    c.branch,
    c.message,
    c.author,
    c.parents[0] ?? null,
    c.parents[1] ?? null,
    tree,
    parent ? parent.depth + 1 : 0,
    c.at,
    identity,
  );
  return findCommit(db, c.repoId, sha) as CommitRow;
}

export function moveBranch(db: Db, repoId: number, branch: string, sha: string, at: string): void {
  db.run("UPDATE gh_branches SET head_sha = ? WHERE repo_id = ? AND name = ?", sha, repoId, branch);
  db.run("UPDATE gh_repos SET pushed_at = ? WHERE id = ?", at, repoId);
}

export function createBranch(db: Db, repoId: number, name: string, sha: string): void {
  const position = (db.one<{ p: number | null }>("SELECT max(position) AS p FROM gh_branches WHERE repo_id = ?", repoId)?.p ?? -1) + 1;
  db.run("INSERT INTO gh_branches (repo_id, name, protected, head_sha, position) VALUES (?, ?, 0, ?, ?)", repoId, name, sha, position);
}

/** One file written or deleted on top of a branch, as the contents API does it. */
export function commitFileChange(
  s: Store,
  repoId: number,
  branch: BranchRow,
  change: { path: string; content: string | null; message: string; identity?: CommitIdentity },
): CommitRow {
  const tree: TreeFile[] = treeOf(s.db, branch.head_sha).map(({ path, blob_sha, mode }) => ({ path, blob_sha, mode }));
  const index = tree.findIndex((e) => e.path === change.path);
  if (change.content === null) tree.splice(index, 1);
  else {
    const blob = putBlob(s.db, change.content);
    if (index >= 0) tree[index] = { ...tree[index], path: change.path, blob_sha: blob };
    else tree.push({ path: change.path, blob_sha: blob });
  }
  const commit = writeCommit(s.db, {
    repoId,
    branch: branch.name,
    // A branch without a commit yet (an empty repository's first write) starts a root commit.
    parents: branch.head_sha ? [branch.head_sha] : [],
    tree,
    message: change.message,
    author: s.actor,
    at: s.now,
    ...(change.identity ? { identity: change.identity } : {}),
  });
  if (!branch.head_sha) createBranch(s.db, repoId, branch.name, commit.sha);
  moveBranch(s.db, repoId, branch.name, commit.sha, s.now);
  return commit;
}

/**
 * A branch name, a `heads/` or `refs/heads/` ref, or a commit sha (full or abbreviated to 7+),
 * resolved to a commit. Undefined when it names nothing.
 */
export function resolveRef(db: Db, repoId: number, ref: string): { sha: string; branch: string | null } | undefined {
  const name = ref.replace(/^refs\//, "").replace(/^heads\//, "");
  const branch = findBranch(db, repoId, name) ?? findBranch(db, repoId, ref);
  if (branch) return { sha: branch.head_sha, branch: branch.name };
  if (/^[0-9a-f]{40}$/i.test(ref)) {
    const commit = findCommit(db, repoId, ref.toLowerCase());
    return commit ? { sha: commit.sha, branch: null } : undefined;
  }
  if (/^[0-9a-f]{7,39}$/i.test(ref)) {
    const prefix = ref.toLowerCase();
    const commit = db.one<{ sha: string }>(
      "SELECT sha FROM gh_commits WHERE repo_id = ? AND sha >= ? AND sha < ? LIMIT 1",
      repoId,
      prefix,
      `${prefix}g`,
    );
    return commit ? { sha: commit.sha, branch: null } : undefined;
  }
  return undefined;
}

/** Every commit reachable from `sha` (both parents), up to a bound that keeps the walk cheap. */
export function ancestors(db: Db, repoId: number, sha: string, limit = 10_000): Set<string> {
  const seen = new Set<string>();
  const queue = [sha];
  while (queue.length && seen.size < limit) {
    const next = queue.shift() as string;
    if (seen.has(next)) continue;
    seen.add(next);
    const row = findCommit(db, repoId, next);
    if (row?.parent_sha) queue.push(row.parent_sha);
    if (row?.parent2_sha) queue.push(row.parent2_sha);
  }
  return seen;
}

/** The nearest common ancestor of two commits, or null when their histories never meet. */
export function mergeBase(db: Db, repoId: number, a: string, b: string): string | null {
  const fromA = ancestors(db, repoId, a);
  const queue = [b];
  const seen = new Set<string>();
  while (queue.length) {
    const next = queue.shift() as string;
    if (fromA.has(next)) return next;
    if (seen.has(next)) continue;
    seen.add(next);
    const row = findCommit(db, repoId, next);
    if (row?.parent_sha) queue.push(row.parent_sha);
    if (row?.parent2_sha) queue.push(row.parent2_sha);
  }
  return null;
}

/** Commits on `head` that `base` does not have, oldest first (what a pull request lists). */
export function commitsBetween(db: Db, repoId: number, base: string, head: string): CommitRow[] {
  const inBase = ancestors(db, repoId, base);
  const out: CommitRow[] = [];
  const queue = [head];
  const seen = new Set<string>();
  while (queue.length && out.length < 10_000) {
    const next = queue.shift() as string;
    if (inBase.has(next) || seen.has(next)) continue;
    seen.add(next);
    const row = findCommit(db, repoId, next);
    if (!row) continue;
    out.push(row);
    if (row.parent_sha) queue.push(row.parent_sha);
    if (row.parent2_sha) queue.push(row.parent2_sha);
  }
  return out.sort((x, y) => x.seq - y.seq);
}

/** A page of a branch's history, newest first, following first parents. */
export function history(db: Db, repoId: number, from: string, opts: { offset: number; limit: number; path?: string }): CommitRow[] {
  const out: CommitRow[] = [];
  let skipped = 0;
  let sha: string | null = from;
  while (sha && out.length < opts.limit) {
    const row = findCommit(db, repoId, sha);
    if (!row) break;
    const touches =
      !opts.path ||
      !!db.one(
        "SELECT 1 AS x FROM gh_commit_files WHERE commit_sha = ? AND (path = ? OR (path > ? AND path < ?))",
        row.sha,
        opts.path,
        `${opts.path}/`,
        `${opts.path}0`,
      );
    if (touches) {
      if (skipped < opts.offset) skipped++;
      else out.push(row);
    }
    sha = row.parent_sha;
  }
  return out;
}

export const commitFiles = (db: Db, sha: string) =>
  db.all<FileDelta>("SELECT path, status, blob_sha, previous_blob_sha FROM gh_commit_files WHERE commit_sha = ? ORDER BY path", sha);
