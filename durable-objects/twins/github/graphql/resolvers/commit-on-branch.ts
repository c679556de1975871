// createCommitOnBranch: several file additions and deletions as one commit on a branch, refused
// unless the branch is still at `expectedHeadOid` (GitHub's optimistic lock). The commit is
// written with the store's git functions (the contents API's), so REST reads it back at once.
// Refusals follow GitHub's: an unknown branch or repository is NOT_FOUND; a moved head is
// STALE_DATA "Expected branch to point to \"<expected>\" but it did not. Pull and try again.";
// deleting a path the branch does not have is UNPROCESSABLE.
import { findRepoByName } from "../../repos";
import { findBranch, moveBranch, putBlob, treeOf, writeCommit, type TreeFile } from "../../store/git";
import type { Gql } from "../context";
import { GithubGraphqlError, notFound } from "../errors";
import { type Mutation, done } from "./payload";
import { branchRef } from "./git";
import { commitSource } from "../sources";
import { invalid, writable } from "./targets";
import { decodeBase64Text } from "./base64";

interface CommitOnBranch extends Mutation {
  branch: { branchName?: string | null; id?: string | null; repositoryNameWithOwner?: string | null };
  expectedHeadOid: string;
  fileChanges?: { additions?: readonly { path: string; contents: string }[] | null; deletions?: readonly { path: string }[] | null } | null;
  message: { headline: string; body?: string | null };
}

/** The repository and branch name the input names (by name with owner and branch, or by the ref's id). */
function branchOf(gql: Gql, b: CommitOnBranch["branch"]) {
  if (b.id) throw invalid("Naming the branch by its id is not supported by the twin: give repositoryNameWithOwner and branchName.");
  if (!b.repositoryNameWithOwner || !b.branchName) throw invalid("A branch needs repositoryNameWithOwner and branchName, or an id.");
  const [owner = "", name = ""] = b.repositoryNameWithOwner.split("/");
  const repo = findRepoByName(gql.ctx.db, owner, name);
  if (!repo) throw notFound(`Could not resolve to a Repository with the name '${b.repositoryNameWithOwner}'.`);
  const branchName = b.branchName.replace(/^refs\/heads\//, "");
  const branch = findBranch(gql.ctx.db, repo.id, branchName);
  if (!branch) throw notFound(`Could not resolve to a Ref with the name '${branchName}'.`);
  return { repo: writable(repo), branch };
}

const cleanPath = (path: string) => path.replace(/^\/+/, "");

export const commitOnBranchMutations = {
  createCommitOnBranch: (_s: unknown, { input }: { input: CommitOnBranch }, gql: Gql) => {
    const { repo, branch } = branchOf(gql, input.branch);
    if (branch.head_sha !== input.expectedHeadOid.toLowerCase())
      throw new GithubGraphqlError(
        "STALE_DATA",
        `Expected branch to point to "${input.expectedHeadOid}" but it did not. Pull and try again.`,
      );
    if (!input.message.headline.trim()) throw invalid("A commit message headline is required.");
    const additions = input.fileChanges?.additions ?? [];
    const deletions = input.fileChanges?.deletions ?? [];
    if (!additions.length && !deletions.length) throw invalid("No file changes were given.");
    const tree = new Map<string, TreeFile>(
      treeOf(gql.ctx.db, branch.head_sha).map((e) => [e.path, { path: e.path, blob_sha: e.blob_sha, mode: e.mode }]),
    );
    // Every refusal before the first write: contents that do not decode, a deletion of nothing.
    const decoded = additions.map((a) => {
      const path = cleanPath(a.path);
      if (!path || path.split("/").some((p) => p === "" || p === "." || p === "..")) throw invalid(`The path '${a.path}' is not valid.`);
      const text = decodeBase64Text(a.contents);
      if (text === undefined) throw invalid(`The contents of '${a.path}' are not valid base64.`);
      return { path, text };
    });
    for (const d of deletions) if (!tree.has(cleanPath(d.path))) throw invalid(`The path '${d.path}' does not exist on the branch.`);
    const store = gql.store();
    for (const d of deletions) tree.delete(cleanPath(d.path));
    for (const a of decoded) tree.set(a.path, { ...tree.get(a.path), path: a.path, blob_sha: putBlob(store.db, a.text) });
    const message = input.message.body ? `${input.message.headline}\n\n${input.message.body}` : input.message.headline;
    const commit = writeCommit(store.db, {
      repoId: repo.id,
      branch: branch.name,
      parents: [branch.head_sha],
      tree: [...tree.values()],
      message,
      author: store.actor,
      at: store.now,
    });
    moveBranch(store.db, repo.id, branch.name, commit.sha, store.now);
    return done(input, { commit: commitSource(repo, commit.sha, gql) ?? null, ref: branchRef(gql, repo, branch.name) ?? null });
  },
};
