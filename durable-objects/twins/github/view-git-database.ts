// The git database's objects on the wire: blobs, trees (one level or recursive), annotated tags
// and refs, each `url` a path the twin serves. Shapes follow the "git" operations of
// @octokit/openapi's api.github.com.json (git/get-blob, git/get-tree, git/get-tag, git/get-ref).
import type { RepoRow } from "./repos";
import { nodeId, type View } from "./serialize";
import { FILE_MODE, treeSha, type TreeFile } from "./store/git";
import { taggerOf, type RefRow, type TagObjectRow } from "./store/git-objects";
import { wrappedBase64 } from "./view-git";

const byteLength = (content: string) => new TextEncoder().encode(content).length;

/** A stable number for a sha, for node ids (GitHub's are opaque). */
const shaNumber = (sha: string) => Number.parseInt(sha.slice(0, 12), 16) || 0;

export function blobObject(v: View, r: RepoRow, sha: string, content: string) {
  return {
    sha,
    node_id: nodeId("Blob", shaNumber(sha)),
    size: byteLength(content),
    url: v.repoApi(r, `/git/blobs/${sha}`),
    content: wrappedBase64(content),
    encoding: "base64",
  };
}

export interface TreeListing {
  entries: ReturnType<typeof treeItem>[];
  truncated: boolean;
}

function treeItem(v: View, r: RepoRow, path: string, item: { type: "blob" | "tree"; sha: string; mode: string; size?: number }) {
  const kind = item.type === "blob" ? "blobs" : "trees";
  return {
    path,
    mode: item.mode,
    type: item.type,
    sha: item.sha,
    ...(item.size !== undefined ? { size: item.size } : {}),
    url: v.repoApi(r, `/git/${kind}/${item.sha}`),
  };
}

interface Dir {
  files: Map<string, TreeFile>;
  dirs: Map<string, Dir>;
  all: TreeFile[];
}

function nest(files: readonly TreeFile[]): Dir {
  const root: Dir = { files: new Map(), dirs: new Map(), all: [] };
  for (const f of files) {
    const parts = f.path.split("/");
    let at = root;
    at.all.push(f);
    parts.slice(0, -1).forEach((part, i) => {
      let next = at.dirs.get(part);
      if (!next) {
        next = { files: new Map(), dirs: new Map(), all: [] };
        at.dirs.set(part, next);
      }
      next.all.push({ ...f, path: parts.slice(i + 1).join("/") });
      at = next;
    });
    at.files.set(parts[parts.length - 1] ?? f.path, f);
  }
  return root;
}

/** git orders a tree's entries by name, a directory's name compared as if it ended in `/`. */
const gitOrder = (a: { key: string }, b: { key: string }) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

/**
 * A tree's entries, one level or (recursive) every blob and subtree depth first, as
 * git.getTree lists them; past `limit` entries the listing stops and says it is truncated
 * (GitHub's limit for a recursive tree is 100,000 entries).
 */
export function treeListing(
  v: View,
  r: RepoRow,
  files: readonly TreeFile[],
  blobSize: (sha: string) => number,
  recursive: boolean,
  limit = 100_000,
): TreeListing {
  const entries: ReturnType<typeof treeItem>[] = [];
  let truncated = false;
  const walk = (dir: Dir, prefix: string) => {
    const items = [
      ...[...dir.files].map(([name, f]) => ({ key: name, name, file: f, sub: undefined })),
      ...[...dir.dirs].map(([name, sub]) => ({ key: `${name}/`, name, file: undefined, sub })),
    ].sort(gitOrder);
    for (const item of items) {
      if (entries.length >= limit) {
        truncated = true;
        return;
      }
      const path = prefix + item.name;
      if (item.file) {
        const mode = item.file.mode ?? FILE_MODE;
        entries.push(treeItem(v, r, path, { type: "blob", sha: item.file.blob_sha, mode, size: blobSize(item.file.blob_sha) }));
      } else if (item.sub) {
        entries.push(treeItem(v, r, path, { type: "tree", sha: treeSha(item.sub.all), mode: "040000" }));
        if (recursive) walk(item.sub, `${path}/`);
      }
    }
  };
  walk(nest(files), "");
  return { entries, truncated };
}

export function treeObject(v: View, r: RepoRow, sha: string, listing: TreeListing) {
  return { sha, url: v.repoApi(r, `/git/trees/${sha}`), tree: listing.entries, truncated: listing.truncated };
}

export function tagObject(v: View, r: RepoRow, t: TagObjectRow) {
  const kind = t.object_type === "tag" ? "tags" : `${t.object_type}s`;
  return {
    node_id: nodeId("Tag", t.seq),
    tag: t.tag,
    sha: t.sha,
    url: v.repoApi(r, `/git/tags/${t.sha}`),
    message: t.message,
    tagger: taggerOf(t),
    object: { type: t.object_type, sha: t.object_sha, url: v.repoApi(r, `/git/${kind}/${t.object_sha}`) },
    verification: { verified: false, reason: "unsigned", signature: null, payload: null, verified_at: null },
  };
}

/** A small stable number from a ref's name, so two refs never share a node id. */
function refNumber(name: string): number {
  let h = 0;
  for (let i = 0; i < name.length; i++) h = (h * 31 + name.charCodeAt(i)) >>> 0;
  return h;
}

/** A ref; `type` is what its sha names (a branch's is always a commit). */
export function gitRefObject(v: View, r: RepoRow, ref: RefRow, type: string) {
  const kind = type === "tag" ? "tags" : `${type}s`;
  return {
    ref: ref.ref,
    node_id: nodeId("Ref", refNumber(`${r.id}:${ref.ref}`)),
    url: v.repoApi(r, `/git/${ref.ref}`),
    object: { sha: ref.sha, type, url: v.repoApi(r, `/git/${kind}/${ref.sha}`) },
  };
}
