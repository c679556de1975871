// The git database: blobs, trees, commits and annotated tags, so an agent can write several files
// in one commit (blob -> tree -> commit -> update the branch's ref). Request and answer shapes
// follow the `git/*` operations of @octokit/openapi's api.github.com.json; refusals use the
// messages GitHub answers with, each cited where it is written.
import type { Route, TwinContext } from "../../types";
import { jsonBody, ok, route, storeOf } from "../context";
import { fail, ghError, ghNotFound, ghValidationFailed } from "../errors";
import { gitIdentity, invalidRequest, notSupplied, oneOf, optString, optStringArray } from "../input";
import { isBody } from "../../kit/input";
import { requireRepo, requireWritableRepo, type RepoRow } from "../repos";
import { View } from "../serialize";
import { blobContent, findCommit, putBlob, resolveRef, treeFiles, writeCommit, type CommitIdentity, type TreeFile } from "../store/git";
import { buildTree, createTagObject, findTagObject, objectType, storeTree, type TreeInput } from "../store/git-objects";
import { gitCommitObject, gitPerson } from "../view-git";
import { blobObject, tagObject, treeListing, treeObject } from "../view-git-database";

const describe = (value: unknown) => (value === null ? "nil" : JSON.stringify(value));

const TREE_MODES = ["100644", "100755", "040000", "160000", "120000"] as const;
const TREE_TYPES = ["blob", "tree", "commit"] as const;

/** `content` of createBlob in its `encoding`, as the text the twin stores. */
function blobText(content: string, encoding: "utf-8" | "utf8" | "base64"): string {
  if (encoding !== "base64") return content;
  const clean = content.replace(/\s+/g, "");
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(clean)) return invalidRequest("content is not valid Base64");
  let bytes: Uint8Array;
  try {
    bytes = Uint8Array.from(atob(clean), (c) => c.charCodeAt(0));
  } catch {
    return invalidRequest("content is not valid Base64");
  }
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    // The twin keeps blobs as text (as the contents API serves them); binary content would not
    // come back byte for byte, so it is refused rather than altered.
    return fail(
      ghValidationFailed([
        {
          resource: "Blob",
          field: "content",
          code: "custom",
          message: "The GitHub twin stores UTF-8 text blobs only; this content is binary.",
        },
      ]),
    );
  }
}

/** A tree path as git accepts it: relative, no empty, `.` or `..` component, nothing inside `.git`. */
const validTreePath = (path: string) =>
  !!path && path.split("/").every((part) => !!part && part !== "." && part !== ".." && part !== ".git");

/** One entry of createTree's `tree`, checked as GitHub checks it. */
function treeInput(value: unknown, index: number): TreeInput {
  if (!isBody(value)) return invalidRequest(`For 'items', ${describe(value)} is not an object.`);
  const path = optString(value, "path") ?? notSupplied("path");
  // Source: GitHub answers "tree.path contains a malformed path component" for `a//b`, `../x`.
  if (!validTreePath(path)) fail(ghError(422, "tree.path contains a malformed path component"));
  const mode = oneOf(value.mode, TREE_MODES, "Tree", `tree[${index}].mode`) ?? notSupplied("mode");
  const type = oneOf(value.type, TREE_TYPES, "Tree", `tree[${index}].type`) ?? (mode === "040000" ? "tree" : "blob");
  if ((mode === "040000") !== (type === "tree")) fail(ghError(422, `tree.mode ${mode} does not match tree.type ${type}`));
  if (type === "commit" || mode === "160000")
    fail(ghValidationFailed([{ resource: "Tree", field: "type", code: "custom", message: "The GitHub twin does not model submodules." }]));
  const sha = value.sha;
  const content = optString(value, "content");
  if (sha !== undefined && sha !== null && typeof sha !== "string")
    return invalidRequest(`For 'properties/sha', ${describe(sha)} is not a string or null.`);
  // The docs: "Use either tree.sha or content to specify the contents of the entry."
  if (sha !== undefined && content !== undefined) fail(ghError(422, "Must supply either tree.sha or tree.content, not both"));
  if (sha === undefined && content === undefined) fail(ghError(422, "Must supply either tree.sha or tree.content"));
  if (type === "tree" && content !== undefined) fail(ghError(422, "tree.content cannot be given for a tree (mode 040000)"));
  return { path, mode, type, ...(sha !== undefined ? { sha: typeof sha === "string" ? sha.toLowerCase() : null } : { content }) };
}

/** The tree a `tree_sha` names: a tree's sha, or (as GitHub takes) a branch, tag or commit. */
function resolveTree(ctx: TwinContext, repo: RepoRow, name: string): { sha: string; files: TreeFile[] } | undefined {
  const direct = /^[0-9a-f]{40}$/i.test(name) ? treeFiles(ctx.db, repo.id, name.toLowerCase()) : undefined;
  if (direct) return { sha: name.toLowerCase(), files: direct };
  const at = resolveRef(ctx.db, repo.id, name);
  const commit = at ? findCommit(ctx.db, repo.id, at.sha) : undefined;
  const files = commit ? treeFiles(ctx.db, repo.id, commit.tree_sha) : undefined;
  return commit && files ? { sha: commit.tree_sha, files } : undefined;
}

const blobSizeOf = (ctx: TwinContext) => (sha: string) => new TextEncoder().encode(blobContent(ctx.db, sha) ?? "").length;

export const gitDatabaseRoutes: readonly Route[] = [
  route("POST", "/repos/:owner/:repo/git/blobs", "git.createBlob", "Create a blob", (ctx) => {
    const repo = requireWritableRepo(ctx);
    const body = jsonBody(ctx);
    const content = optString(body, "content") ?? notSupplied("content");
    const encoding = oneOf(body.encoding, ["utf-8", "utf8", "base64"] as const, "Blob", "encoding") ?? "utf-8";
    const sha = putBlob(ctx.db, blobText(content, encoding));
    const url = new View(ctx).repoApi(repo, `/git/blobs/${sha}`);
    return ok({ url, sha }, 201, { location: url });
  }),
  route("GET", "/repos/:owner/:repo/git/blobs/:file_sha", "git.getBlob", "Get a blob", (ctx) => {
    const repo = requireRepo(ctx);
    const sha = ctx.params.file_sha.toLowerCase();
    const content = blobContent(ctx.db, sha) ?? fail(ghNotFound());
    if (wantsRawBlob(ctx)) return { status: 200, headers: { "content-type": "application/vnd.github.raw; charset=utf-8" }, body: content };
    return ok(blobObject(new View(ctx), repo, sha, content));
  }),
  route("POST", "/repos/:owner/:repo/git/trees", "git.createTree", "Create a tree", (ctx) => {
    const repo = requireWritableRepo(ctx);
    const body = jsonBody(ctx);
    if (body.tree === undefined) notSupplied("tree");
    if (!Array.isArray(body.tree)) return invalidRequest(`For 'properties/tree', ${describe(body.tree)} is not an array.`);
    const inputs = body.tree.map(treeInput);
    const baseName = optString(body, "base_tree");
    let base: TreeFile[] = [];
    if (baseName !== undefined) {
      // Source: GitHub's 422 "base_tree is not a valid tree oid" (sigmavirus24/github3.py#522).
      base = treeFiles(ctx.db, repo.id, baseName.toLowerCase()) ?? fail(ghError(422, "base_tree is not a valid tree oid"));
    }
    const built = buildTree(ctx.db, repo.id, base, inputs);
    if (!built.ok) return ghError(422, built.message);
    const sha = storeTree(ctx.db, repo.id, built.value);
    const v = new View(ctx);
    const out = treeObject(v, repo, sha, treeListing(v, repo, built.value, blobSizeOf(ctx), false));
    return ok(out, 201, { location: out.url });
  }),
  route("GET", "/repos/:owner/:repo/git/trees/:tree_sha", "git.getTree", "Get a tree", (ctx) => {
    const repo = requireRepo(ctx);
    const tree = resolveTree(ctx, repo, ctx.params.tree_sha) ?? fail(ghNotFound());
    // The docs: "Setting this parameter to any value returns the objects or subtrees referenced
    // by the tree ... Omit this parameter to prevent recursively returning objects or subtrees."
    const recursive = ctx.query.has("recursive");
    const v = new View(ctx);
    return ok(treeObject(v, repo, tree.sha, treeListing(v, repo, tree.files, blobSizeOf(ctx), recursive)));
  }),
  route("POST", "/repos/:owner/:repo/git/commits", "git.createCommit", "Create a commit", (ctx) => {
    const repo = requireWritableRepo(ctx);
    const body = jsonBody(ctx);
    const s = storeOf(ctx);
    const message = optString(body, "message") ?? notSupplied("message");
    const treeName = (optString(body, "tree") ?? notSupplied("tree")).toLowerCase();
    const parents = (optStringArray(body, "parents") ?? []).map((p) => p.toLowerCase());
    // Sources: GitHub's 422 "Tree SHA does not exist" (exercism/website#8228) and
    // "Parent SHA does not exist or is not a commit object" for an unknown parent.
    const files = treeFiles(ctx.db, repo.id, treeName) ?? fail(ghError(422, "Tree SHA does not exist"));
    for (const p of parents) if (!findCommit(ctx.db, repo.id, p)) fail(ghError(422, "Parent SHA does not exist or is not a commit object"));
    const author = gitIdentity(body, "author", s.now);
    const committer = gitIdentity(body, "committer", s.now);
    const v = new View(ctx);
    // The docs: the committer defaults to the author, the author to the authenticated user.
    const identity: CommitIdentity | undefined =
      author || committer
        ? {
            author: author ?? gitPerson(v, s.actor, s.now),
            committer: committer ?? author ?? gitPerson(v, s.actor, s.now),
          }
        : undefined;
    const commit = writeCommit(ctx.db, {
      repoId: repo.id,
      branch: "",
      parents,
      tree: files.map(({ path, blob_sha, mode }) => ({ path, blob_sha, mode })),
      message,
      author: s.actor,
      at: identity?.committer.date ?? s.now,
      ...(identity ? { identity } : {}),
    });
    const out = gitCommitObject(v, repo, commit);
    return ok(out, 201, { location: out.url });
  }),
  route("GET", "/repos/:owner/:repo/git/commits/:commit_sha", "git.getCommit", "Get a commit object", (ctx) => {
    const repo = requireRepo(ctx);
    const commit = findCommit(ctx.db, repo.id, ctx.params.commit_sha.toLowerCase()) ?? fail(ghNotFound());
    return ok(gitCommitObject(new View(ctx), repo, commit));
  }),
  route("POST", "/repos/:owner/:repo/git/tags", "git.createTag", "Create a tag object", (ctx) => {
    const repo = requireWritableRepo(ctx);
    const body = jsonBody(ctx);
    const s = storeOf(ctx);
    const tag = optString(body, "tag") ?? notSupplied("tag");
    const message = optString(body, "message") ?? notSupplied("message");
    const object = (optString(body, "object") ?? notSupplied("object")).toLowerCase();
    const type = oneOf(body.type, ["commit", "tree", "blob"] as const, "Tag", "type") ?? notSupplied("type");
    if (objectType(ctx.db, repo.id, object) !== type) fail(ghError(422, "Object does not exist"));
    const tagger = gitIdentity(body, "tagger", s.now) ?? gitPerson(new View(ctx), s.actor, s.now);
    const row = createTagObject(ctx.db, repo.id, { tag, message, object_sha: object, object_type: type, tagger });
    const out = tagObject(new View(ctx), repo, row);
    return ok(out, 201, { location: out.url });
  }),
  route("GET", "/repos/:owner/:repo/git/tags/:tag_sha", "git.getTag", "Get a tag", (ctx) => {
    const repo = requireRepo(ctx);
    const row = findTagObject(ctx.db, repo.id, ctx.params.tag_sha.toLowerCase()) ?? fail(ghNotFound());
    return ok(tagObject(new View(ctx), repo, row));
  }),
];

/** getBlob's raw media type answers the bytes themselves. */
const wantsRawBlob = (ctx: TwinContext) => /application\/vnd\.github(?:\.v3)?\.raw/.test(ctx.req.headers.accept ?? "");
