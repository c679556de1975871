// What a pull request compares and what merging it produces. GitHub shows a pull request's
// changes against the merge base (three-dot diff) and merges three-way; seeded branches have no
// common history, so for them the base branch itself stands in for the merge base.
import type { Db } from "../../types";
import {
  findBranch,
  findCommit,
  mergeBase,
  treeOf,
  commitsBetween,
  diffTrees,
  type FileDelta,
  type TreeEntry,
  type CommitRow,
} from "./git";
import type { IssueRow } from "./rows";

/** The head commit of a pull request: frozen once closed, otherwise the live head branch. */
export function pullHeadSha(db: Db, pull: IssueRow): string | null {
  if (pull.head_sha) return pull.head_sha;
  return findBranch(db, pull.repo_id, pull.head ?? "")?.head_sha ?? null;
}

/** The base commit a pull request is compared with: before its merge commit once merged. */
export function pullBaseSha(db: Db, pull: IssueRow): string | null {
  if (pull.merged && pull.merge_commit_sha) {
    const merge = findCommit(db, pull.repo_id, pull.merge_commit_sha);
    if (merge?.parent_sha) return merge.parent_sha;
  }
  return findBranch(db, pull.repo_id, pull.base ?? "")?.head_sha ?? null;
}

export interface Comparison {
  baseSha: string;
  headSha: string;
  mergeBaseSha: string | null;
  /** The tree the changes are measured from (merge base, or the base itself without one). */
  fromTree: TreeEntry[];
  headTree: TreeEntry[];
}

export function compare(db: Db, repoId: number, baseSha: string, headSha: string): Comparison {
  const mb = mergeBase(db, repoId, baseSha, headSha);
  return { baseSha, headSha, mergeBaseSha: mb, fromTree: treeOf(db, mb ?? baseSha), headTree: treeOf(db, headSha) };
}

export function comparePull(db: Db, pull: IssueRow): Comparison | undefined {
  const base = pullBaseSha(db, pull);
  const head = pullHeadSha(db, pull);
  return base && head ? compare(db, pull.repo_id, base, head) : undefined;
}

export const pullFiles = (c: Comparison): FileDelta[] => diffTrees(c.fromTree, c.headTree);

export function pullCommits(db: Db, pull: IssueRow): CommitRow[] {
  const base = pullBaseSha(db, pull);
  const head = pullHeadSha(db, pull);
  return base && head ? commitsBetween(db, pull.repo_id, base, head) : [];
}

export interface MergeResult {
  tree: { path: string; blob_sha: string }[];
  conflicts: string[];
}

/**
 * Three-way merge of trees by whole files: a side that left a file as the merge base had it
 * takes the other side's version; both sides changing it differently is a conflict.
 */
export function mergeTrees(db: Db, c: Comparison): MergeResult {
  const baseTree = treeOf(db, c.baseSha);
  const mb = new Map(c.fromTree.map((e) => [e.path, e.blob_sha]));
  const head = new Map(c.headTree.map((e) => [e.path, e.blob_sha]));
  const base = new Map(baseTree.map((e) => [e.path, e.blob_sha]));
  const conflicts: string[] = [];
  const pick = (path: string): string | undefined => {
    const b = base.get(path);
    const h = head.get(path);
    const m = mb.get(path);
    if (h === m) return b;
    if (b === m || b === h) return h;
    conflicts.push(path);
    return b;
  };
  const tree: { path: string; blob_sha: string }[] = [];
  for (const e of baseTree) {
    const sha = pick(e.path);
    if (sha) tree.push({ path: e.path, blob_sha: sha });
  }
  for (const e of c.headTree) {
    if (base.has(e.path)) continue;
    const sha = pick(e.path);
    if (sha) tree.push({ path: e.path, blob_sha: sha });
  }
  return { tree, conflicts };
}
