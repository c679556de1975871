// The git side: refs (branches), commits, trees, tree entries and blobs, as GitHub's GraphQL
// exposes them, over the same commits and trees the REST git and contents routes use.
// `object(expression:)` takes git's revision forms GitHub documents: `<rev>` and `<rev>:<path>`.
import { commitPeople } from "../../view-git";
import { statusCheckRollup } from "./activity";
import { commitSource } from "../sources";
import type { RepoRow } from "../../repos";
import { blobContent, directoriesOf, entriesUnder, filesUnder, findBranch, resolveRef, treeEntry, type TreeEntry } from "../../store/git";
import type { BranchRow } from "../../store/git";
import { type PageArgs, connectionOf, connectionOfList } from "../connection";
import type { BlobSource, CommitSource, Gql, GitObjectSource, RefSource, Resolvers, TreeSource } from "../context";
import { gitObjectId, nodeId } from "../ids";
import { gitObjectBySha, repositorySource } from "../sources";

const WEB = "https://github.com";
const HEADS = "refs/heads/";

const refOf = (repo: RepoRow, b: BranchRow): RefSource => ({ __typename: "Ref", repo, name: b.name, prefix: HEADS, sha: b.head_sha });

export function branchRef(gql: Gql, repo: RepoRow, name: string): RefSource | undefined {
  const b = findBranch(gql.ctx.db, repo.id, name);
  return b ? refOf(repo, b) : undefined;
}

/** `refs/heads/main` (a qualified name) or `main`. Tags are not kept by the twin's world. */
export const refByName = (gql: Gql, repo: RepoRow, qualified: string) =>
  branchRef(gql, repo, qualified.startsWith(HEADS) ? qualified.slice(HEADS.length) : qualified);

/** Branches by name under `refs/heads/`, alphabetically as GitHub lists them; other prefixes hold no refs here. */
export function refConnection(gql: Gql, repo: RepoRow, a: PageArgs & { refPrefix: string; query?: string | null }) {
  const db = gql.ctx.db;
  if (a.refPrefix !== HEADS) return connectionOfList(a, []);
  const where = a.query ? "repo_id = ? AND instr(name, ?) > 0" : "repo_id = ?";
  const params = a.query ? [repo.id, a.query] : [repo.id];
  const total = db.one<{ n: number }>(`SELECT count(*) AS n FROM gh_branches WHERE ${where}`, ...params)?.n ?? 0;
  return connectionOf(a, total, (limit, offset) =>
    db
      .all<BranchRow>(`SELECT * FROM gh_branches WHERE ${where} ORDER BY name LIMIT ? OFFSET ?`, ...params, limit, offset)
      .map((b) => refOf(repo, b)),
  );
}

/** The object `expression` (`HEAD`, a branch, a sha, each optionally `:path`) or `oid` names. */
export function gitObject(gql: Gql, repo: RepoRow, a: { expression?: string | null; oid?: string | null }): GitObjectSource | undefined {
  if (a.oid) {
    const sha = a.oid.toLowerCase();
    const found = commitSource(repo, sha, gql) ?? gitObjectBySha(gql, repo, sha);
    return found && (found.__typename === "Commit" || found.__typename === "Tree" || found.__typename === "Blob") ? found : undefined;
  }
  if (!a.expression) return undefined;
  const colon = a.expression.indexOf(":");
  const rev = colon < 0 ? a.expression : a.expression.slice(0, colon) || "HEAD";
  const target = resolveRef(gql.ctx.db, repo.id, rev === "HEAD" ? repo.default_branch : rev);
  if (!target) return undefined;
  if (colon < 0) return commitSource(repo, target.sha, gql);
  const path = a.expression
    .slice(colon + 1)
    .replace(/^\/+|\/+$/g, "")
    .replace(/\/{2,}/g, "/");
  return pathObject(gql, repo, target.sha, path);
}

/** A file (blob) or directory (tree) of a commit by path; the root for "". */
function pathObject(gql: Gql, repo: RepoRow, commitSha: string, path: string): GitObjectSource | undefined {
  const db = gql.ctx.db;
  const file = path ? treeEntry(db, commitSha, path) : undefined;
  if (file) return { __typename: "Blob", repo, sha: file.blob_sha };
  const files = filesUnder(entriesUnder(db, commitSha, path), path);
  if (!files.length && path) return undefined;
  const sha = directoriesOf(files).get("") ?? "";
  return { __typename: "Tree", repo, commitSha, dir: path, sha };
}

interface EntrySource {
  repo: RepoRow;
  name: string;
  path: string;
  oid: string;
  type: "blob" | "tree";
  mode: string;
  commitSha: string;
}

/** The entries directly inside a tree, by name, each directory with its tree id. */
function treeEntries(gql: Gql, t: TreeSource): EntrySource[] {
  const files: TreeEntry[] = filesUnder(entriesUnder(gql.ctx.db, t.commitSha, t.dir), t.dir);
  const dirs = directoriesOf(files);
  const at = (name: string) => (t.dir ? `${t.dir}/${name}` : name);
  const out: EntrySource[] = [];
  for (const f of files)
    if (!f.path.includes("/"))
      out.push({ repo: t.repo, name: f.path, path: at(f.path), oid: f.blob_sha, type: "blob", mode: f.mode, commitSha: t.commitSha });
  for (const [dir, sha] of dirs)
    if (dir && !dir.includes("/"))
      out.push({ repo: t.repo, name: dir, path: at(dir), oid: sha, type: "tree", mode: "040000", commitSha: t.commitSha });
  return out.sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
}

/** A commit's author or committer: the identity a caller named, else the acting login's profile. */
function gitActor(gql: Gql, c: CommitSource, which: "author" | "committer") {
  // As REST's commit `author`/`committer` (view-git.ts), so both transports name one person alike.
  return commitPeople(gql.view, c.row)[which];
}

const abbreviated = (sha: string) => sha.slice(0, 7);
const repoPath = (repo: RepoRow) => `/${repo.owner}/${repo.name}`;
const commitPath = (repo: RepoRow, sha: string) => `${repoPath(repo)}/commit/${sha}`;
const messageParts = (message: string) => {
  const [headline = "", ...rest] = message.split("\n");
  return { headline, body: rest.join("\n").replace(/^\n+/, "") };
};

const byteLength = (text: string) => new TextEncoder().encode(text).length;

export const gitResolvers: Resolvers = {
  Ref: {
    // The REST answer's `node_id` for a ref (view-git.ts), so both transports name it alike.
    id: (r: RefSource) => nodeId("Ref", r.repo.id),
    target: (r: RefSource, _a: unknown, gql: Gql) => commitSource(r.repo, r.sha, gql) ?? null,
    repository: (r: RefSource) => repositorySource(r.repo),
  },
  Commit: {
    id: (c: CommitSource) => nodeId("Commit", c.row.seq),
    oid: (c: CommitSource) => c.row.sha,
    abbreviatedOid: (c: CommitSource) => abbreviated(c.row.sha),
    message: (c: CommitSource) => c.row.message,
    messageHeadline: (c: CommitSource) => messageParts(c.row.message).headline,
    messageBody: (c: CommitSource) => messageParts(c.row.message).body,
    committedDate: (c: CommitSource, _a: unknown, gql: Gql) => gitActor(gql, c, "committer").date,
    authoredDate: (c: CommitSource, _a: unknown, gql: Gql) => gitActor(gql, c, "author").date,
    author: (c: CommitSource, _a: unknown, gql: Gql) => gitActor(gql, c, "author"),
    committer: (c: CommitSource, _a: unknown, gql: Gql) => gitActor(gql, c, "committer"),
    tree: (c: CommitSource): TreeSource => ({ __typename: "Tree", repo: c.repo, commitSha: c.row.sha, dir: "", sha: c.row.tree_sha }),
    parents: (c: CommitSource, a: PageArgs, gql: Gql) =>
      connectionOfList(
        a,
        [c.row.parent_sha, c.row.parent2_sha].flatMap((sha) => {
          const p = sha ? commitSource(c.repo, sha, gql) : undefined;
          return p ? [p] : [];
        }),
      ),
    url: (c: CommitSource) => `${WEB}${commitPath(c.repo, c.row.sha)}`,
    resourcePath: (c: CommitSource) => commitPath(c.repo, c.row.sha),
    statusCheckRollup: (c: CommitSource, _a: unknown, gql: Gql) => statusCheckRollup(c, gql),
    // The twin's commits have one author (no co-author trailers are read).
    authors: (c: CommitSource, a: PageArgs, gql: Gql) => connectionOfList(a, [gitActor(gql, c, "author")]),
    commitUrl: (c: CommitSource) => `${WEB}${commitPath(c.repo, c.row.sha)}`,
    commitResourcePath: (c: CommitSource) => commitPath(c.repo, c.row.sha),
    repository: (c: CommitSource) => repositorySource(c.repo),
  },
  Tree: {
    id: (t: TreeSource) => gitObjectId("Tree", t.repo.id, t.sha),
    oid: (t: TreeSource) => t.sha,
    abbreviatedOid: (t: TreeSource) => abbreviated(t.sha),
    entries: (t: TreeSource, _a: unknown, gql: Gql) => treeEntries(gql, t),
    repository: (t: TreeSource) => repositorySource(t.repo),
    commitUrl: (t: TreeSource) => `${WEB}${commitPath(t.repo, t.commitSha)}`,
    commitResourcePath: (t: TreeSource) => commitPath(t.repo, t.commitSha),
  },
  TreeEntry: {
    // git's mode as a number, as GitHub answers it (33188 for 100644).
    mode: (e: EntrySource) => Number.parseInt(e.mode, 8),
    size: (e: EntrySource, _a: unknown, gql: Gql) => (e.type === "blob" ? byteLength(blobContent(gql.ctx.db, e.oid) ?? "") : 0),
    extension: (e: EntrySource) => (e.type === "blob" && e.name.lastIndexOf(".") > 0 ? e.name.slice(e.name.lastIndexOf(".")) : null),
    object: (e: EntrySource): GitObjectSource =>
      e.type === "blob"
        ? { __typename: "Blob", repo: e.repo, sha: e.oid }
        : { __typename: "Tree", repo: e.repo, commitSha: e.commitSha, dir: e.path, sha: e.oid },
    repository: (e: EntrySource) => repositorySource(e.repo),
  },
  Blob: {
    id: (b: BlobSource) => gitObjectId("Blob", b.repo.id, b.sha),
    oid: (b: BlobSource) => b.sha,
    abbreviatedOid: (b: BlobSource) => abbreviated(b.sha),
    text: (b: BlobSource, _a: unknown, gql: Gql) => blobContent(gql.ctx.db, b.sha) ?? null,
    byteSize: (b: BlobSource, _a: unknown, gql: Gql) => byteLength(blobContent(gql.ctx.db, b.sha) ?? ""),
    isBinary: (b: BlobSource, _a: unknown, gql: Gql) => (blobContent(gql.ctx.db, b.sha) ?? "").includes("\0"),
    isTruncated: () => false,
    repository: (b: BlobSource) => repositorySource(b.repo),
    // A blob belongs to no one commit: GitHub's link for it goes through the repository.
    commitUrl: (b: BlobSource) => `${WEB}${repoPath(b.repo)}`,
    commitResourcePath: (b: BlobSource) => repoPath(b.repo),
  },
};
