// The git database beyond commits and branches: trees built from entries (over a base tree),
// annotated tag objects, and refs of both kinds (branches and tags) addressed as git names them.
import type { Db } from "../../types";
import { sha1Hex } from "../sha1";
import { FILE_MODE, findBranch, findCommit, putBlob, registerTrees, treeFiles, treeSha, type GitIdentity, type TreeFile } from "./git";

/** One entry of `git.createTree`'s `tree`, already checked for types. */
export interface TreeInput {
  path: string;
  mode: string;
  type: "blob" | "tree" | "commit";
  /** null deletes the path; undefined means `content` is given. */
  sha?: string | null;
  content?: string;
}

export type Outcome<T> = { ok: true; value: T } | { ok: false; message: string };

export const blobExists = (db: Db, sha: string) => !!db.one("SELECT 1 AS x FROM gh_blobs WHERE sha = ?", sha);

/** Drops `path` and everything under it (a file replaced by a directory, or the reverse). */
function clear(files: Map<string, TreeFile>, path: string) {
  files.delete(path);
  const prefix = `${path}/`;
  for (const key of [...files.keys()]) if (key.startsWith(prefix)) files.delete(key);
  // A file standing where a directory of the new path must go (`a` when writing `a/b`).
  const parts = path.split("/");
  for (let i = 1; i < parts.length; i++) files.delete(parts.slice(0, i).join("/"));
}

/**
 * The files of a new tree: `base`'s, with each input applied in order, as GitHub's createTree
 * overlays `tree` on `base_tree`. Refuses, in GitHub's words, an entry naming an object the
 * repository does not have.
 */
export function buildTree(db: Db, repoId: number, base: readonly TreeFile[], inputs: readonly TreeInput[]): Outcome<TreeFile[]> {
  const files = new Map(base.map((f) => [f.path, { path: f.path, blob_sha: f.blob_sha, mode: f.mode ?? FILE_MODE }]));
  for (const input of inputs) {
    if (input.sha === null) {
      clear(files, input.path);
      continue;
    }
    if (input.type === "tree") {
      const sub = input.sha ? treeFiles(db, repoId, input.sha) : undefined;
      // Source: GitHub's answer "tree.sha {sha} is not a valid tree" (creationix/tedit#43).
      if (!sub) return { ok: false, message: `tree.sha ${input.sha ?? ""} is not a valid tree` };
      clear(files, input.path);
      for (const f of sub) files.set(`${input.path}/${f.path}`, { path: `${input.path}/${f.path}`, blob_sha: f.blob_sha, mode: f.mode });
      continue;
    }
    let blob: string;
    if (input.sha !== undefined) {
      // Source: GitHub's answer "tree.sha {sha} is not a valid blob" (BetaHuhn/repo-file-sync-action#349).
      if (!blobExists(db, input.sha)) return { ok: false, message: `tree.sha ${input.sha} is not a valid blob` };
      blob = input.sha;
    } else blob = putBlob(db, input.content ?? "");
    clear(files, input.path);
    files.set(input.path, { path: input.path, blob_sha: blob, mode: input.mode });
  }
  return { ok: true, value: [...files.values()] };
}

/** Stores a created tree's files under its own sha (unless the repository already has that tree). */
export function storeTree(db: Db, repoId: number, files: readonly TreeFile[]): string {
  const sha = treeSha(files);
  if (treeFiles(db, repoId, sha)) return sha;
  files.forEach((f, i) =>
    db.run(
      "INSERT OR IGNORE INTO gh_tree_entries (commit_sha, path, blob_sha, position, mode) VALUES (?, ?, ?, ?, ?)",
      sha,
      f.path,
      f.blob_sha,
      i,
      f.mode ?? FILE_MODE,
    ),
  );
  registerTrees(db, repoId, sha, files);
  return sha;
}

// ---- annotated tags ----

export interface TagObjectRow {
  seq: number;
  sha: string;
  repo_id: number;
  tag: string;
  message: string;
  object_sha: string;
  object_type: string;
  /** JSON of the tagger (`GitIdentity`). */
  tagger: string;
}

export const findTagObject = (db: Db, repoId: number, sha: string) =>
  db.one<TagObjectRow>("SELECT * FROM gh_tag_objects WHERE repo_id = ? AND sha = ?", repoId, sha);

export function taggerOf(row: TagObjectRow): GitIdentity {
  try {
    return JSON.parse(row.tagger) as GitIdentity;
  } catch {
    return { name: "", email: "", date: "" };
  }
}

/** What a sha names in a repository, as git's object types. */
export function objectType(db: Db, repoId: number, sha: string): "commit" | "tag" | "tree" | "blob" | undefined {
  if (findCommit(db, repoId, sha)) return "commit";
  if (findTagObject(db, repoId, sha)) return "tag";
  if (treeFiles(db, repoId, sha)) return "tree";
  if (blobExists(db, sha)) return "blob";
  return undefined;
}

export function createTagObject(
  db: Db,
  repoId: number,
  t: { tag: string; message: string; object_sha: string; object_type: string; tagger: GitIdentity },
): TagObjectRow {
  const tagger = JSON.stringify(t.tagger);
  const sha = sha1Hex(`tag ${repoId}\nobject ${t.object_sha}\ntype ${t.object_type}\ntag ${t.tag}\ntagger ${tagger}\n\n${t.message}`);
  const existing = findTagObject(db, repoId, sha);
  if (existing) return existing;
  db.run(
    "INSERT INTO gh_tag_objects (sha, repo_id, tag, message, object_sha, object_type, tagger) VALUES (?, ?, ?, ?, ?, ?, ?)",
    sha,
    repoId,
    t.tag,
    t.message,
    t.object_sha,
    t.object_type,
    tagger,
  );
  return findTagObject(db, repoId, sha) as TagObjectRow;
}

// ---- refs: branches (gh_branches) and tags (gh_tag_refs) under one naming ----

export interface RefRow {
  /** The fully qualified name: `refs/heads/main`, `refs/tags/v1.0`. */
  ref: string;
  sha: string;
}

export type RefName = { kind: "heads" | "tags"; name: string };

/** `heads/x`, `refs/heads/x`, `tags/v1` or `refs/tags/v1` to its namespace and name. */
export function parseRefName(ref: string): RefName | undefined {
  const m = /^(?:refs\/)?(heads|tags)\/(.+)$/.exec(ref);
  return m ? { kind: m[1] as RefName["kind"], name: m[2] as string } : undefined;
}

export function findRef(db: Db, repoId: number, ref: string): RefRow | undefined {
  const at = parseRefName(ref);
  if (!at) return undefined;
  if (at.kind === "heads") {
    const b = findBranch(db, repoId, at.name);
    return b ? { ref: `refs/heads/${b.name}`, sha: b.head_sha } : undefined;
  }
  const t = db.one<{ name: string; sha: string }>("SELECT name, sha FROM gh_tag_refs WHERE repo_id = ? AND name = ?", repoId, at.name);
  return t ? { ref: `refs/tags/${t.name}`, sha: t.sha } : undefined;
}

/** Every ref whose full name starts with `refs/{prefix}`, sorted by name as GitHub lists them. */
export function matchingRefs(db: Db, repoId: number, prefix: string): RefRow[] {
  const wanted = `refs/${prefix.replace(/^refs\//, "")}`;
  const heads = db
    .all<{ name: string; head_sha: string }>("SELECT name, head_sha FROM gh_branches WHERE repo_id = ?", repoId)
    .map((b) => ({ ref: `refs/heads/${b.name}`, sha: b.head_sha }));
  const tags = db
    .all<{ name: string; sha: string }>("SELECT name, sha FROM gh_tag_refs WHERE repo_id = ?", repoId)
    .map((t) => ({ ref: `refs/tags/${t.name}`, sha: t.sha }));
  return [...heads, ...tags].filter((r) => r.ref.startsWith(wanted)).sort((a, b) => (a.ref < b.ref ? -1 : a.ref > b.ref ? 1 : 0));
}

export const createTagRef = (db: Db, repoId: number, name: string, sha: string) =>
  db.run("INSERT INTO gh_tag_refs (repo_id, name, sha) VALUES (?, ?, ?)", repoId, name, sha);

export const moveTagRef = (db: Db, repoId: number, name: string, sha: string) =>
  db.run("UPDATE gh_tag_refs SET sha = ? WHERE repo_id = ? AND name = ?", sha, repoId, name);

export const deleteTagRef = (db: Db, repoId: number, name: string) =>
  db.run("DELETE FROM gh_tag_refs WHERE repo_id = ? AND name = ?", repoId, name);

/** The commit a tag ref finally points at (through annotated tags), if any. */
export function peel(db: Db, repoId: number, sha: string): string | undefined {
  let at = sha;
  for (let hops = 0; hops < 10; hops++) {
    if (findCommit(db, repoId, at)) return at;
    const tag = findTagObject(db, repoId, at);
    if (!tag) return undefined;
    at = tag.object_sha;
  }
  return undefined;
}
