// The git database: blobs, trees, commits and annotated tags, so an agent can write several files
// in one commit (blob -> tree -> commit -> update the branch's ref). Request and answer shapes
// follow the `git/*` operations of @octokit/openapi's api.github.com.json; refusals use the
// messages GitHub answers with, each cited where it is written.
import { z } from "zod";
import type { Route, TwinContext } from "../../types";
import { ok, storeOf } from "../context";
import { gitIdentityField, repoParams, route } from "../declare";
import { fail, ghError, ghNotFound, ghValidationFailed } from "../errors";
import { gitIdentity, invalidRequest, notSupplied, oneOf, optString } from "../input";
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

const sha = (what: string) => z.string().min(1).describe(what);

// get_tree (tools/git-database.ts) sends `recursive=1` only when asked: GitHub reads any value of
// `recursive`, `false` included, as yes, so a boolean argument cannot be passed through as is.
export const gitDatabaseRoutes: readonly Route[] = [
  route({
    method: "POST",
    pattern: "/repos/:owner/:repo/git/blobs",
    operation: "git.createBlob",
    summary: "Create a blob",
    resource: "Blob",
    params: repoParams,
    body: {
      content: z.string().describe("The content"),
      encoding: z.enum(["utf-8", "utf8", "base64"]).optional().describe('How `content` is encoded (default "utf-8")'),
    },
    tool: { name: "create_blob", description: "Store file content as a git blob and get its SHA, to use in create_tree." },
    handler(ctx, { body }) {
      const repo = requireWritableRepo(ctx);
      const blob = putBlob(ctx.db, blobText(body.content, body.encoding ?? "utf-8"));
      const url = new View(ctx).repoApi(repo, `/git/blobs/${blob}`);
      return ok({ url, sha: blob }, 201, { location: url });
    },
  }),
  route({
    method: "GET",
    pattern: "/repos/:owner/:repo/git/blobs/:file_sha",
    operation: "git.getBlob",
    summary: "Get a blob",
    params: { ...repoParams, file_sha: sha("The blob SHA") },
    tool: { name: "get_blob", description: "Get a git blob by SHA; its content comes base64-encoded." },
    handler(ctx, { params }) {
      const repo = requireRepo(ctx);
      const blob = params.file_sha.toLowerCase();
      const content = blobContent(ctx.db, blob) ?? fail(ghNotFound());
      if (wantsRawBlob(ctx))
        return { status: 200, headers: { "content-type": "application/vnd.github.raw; charset=utf-8" }, body: content };
      return ok(blobObject(new View(ctx), repo, blob, content));
    },
  }),
  route({
    method: "POST",
    pattern: "/repos/:owner/:repo/git/trees",
    operation: "git.createTree",
    summary: "Create a tree",
    resource: "Tree",
    params: repoParams,
    body: {
      base_tree: z.string().optional().describe("The tree to build on (get_git_commit's `tree.sha`)"),
      // Each entry is read by treeInput, which words its refusals as GitHub does.
      tree: z
        .array(z.unknown())
        .describe(
          'Entries, each { path, mode ("100644", "100755", "040000", "120000"), type? ("blob", "tree"), and either sha (of a blob or tree; null deletes the path) or content }',
        ),
    },
    tool: {
      name: "create_tree",
      description:
        "Create a git tree. With base_tree (the tree SHA of the branch's head commit) the entries are laid over it; an entry with sha null deletes that path.",
    },
    handler(ctx, { body }) {
      const repo = requireWritableRepo(ctx);
      const inputs = body.tree.map(treeInput);
      let base: TreeFile[] = [];
      if (body.base_tree !== undefined) {
        // Source: GitHub's 422 "base_tree is not a valid tree oid" (sigmavirus24/github3.py#522).
        base = treeFiles(ctx.db, repo.id, body.base_tree.toLowerCase()) ?? fail(ghError(422, "base_tree is not a valid tree oid"));
      }
      const built = buildTree(ctx.db, repo.id, base, inputs);
      if (!built.ok) return ghError(422, built.message);
      const treeSha = storeTree(ctx.db, repo.id, built.value);
      const v = new View(ctx);
      const out = treeObject(v, repo, treeSha, treeListing(v, repo, built.value, blobSizeOf(ctx), false));
      return ok(out, 201, { location: out.url });
    },
  }),
  route({
    method: "GET",
    pattern: "/repos/:owner/:repo/git/trees/:tree_sha",
    operation: "git.getTree",
    summary: "Get a tree",
    params: { ...repoParams, tree_sha: sha("A tree SHA, a branch name or a commit SHA") },
    query: { recursive: z.string().optional().describe("Any value lists every entry of every subtree; omit it for one level") },
    handler(ctx, { params, query }) {
      const repo = requireRepo(ctx);
      const tree = resolveTree(ctx, repo, params.tree_sha) ?? fail(ghNotFound());
      // The docs: "Setting this parameter to any value returns the objects or subtrees referenced
      // by the tree ... Omit this parameter to prevent recursively returning objects or subtrees."
      const recursive = query.recursive !== undefined;
      const v = new View(ctx);
      return ok(treeObject(v, repo, tree.sha, treeListing(v, repo, tree.files, blobSizeOf(ctx), recursive)));
    },
  }),
  route({
    method: "POST",
    pattern: "/repos/:owner/:repo/git/commits",
    operation: "git.createCommit",
    summary: "Create a commit",
    resource: "Commit",
    params: repoParams,
    body: {
      message: z.string().describe("The commit message"),
      tree: sha("The tree SHA (from create_tree)"),
      parents: z.array(z.string()).optional().describe("Parent commit SHAs (usually the branch's head)"),
      author: gitIdentityField("author (default: the authenticated user)"),
      committer: gitIdentityField("committer (default: the author)"),
    },
    tool: {
      name: "create_git_commit",
      description: "Create a commit object from a tree and its parents (it moves no branch: update the ref after).",
    },
    handler(ctx, { body }) {
      const repo = requireWritableRepo(ctx);
      const s = storeOf(ctx);
      const treeName = body.tree.toLowerCase();
      const parents = (body.parents ?? []).map((p) => p.toLowerCase());
      // Sources: GitHub's 422 "Tree SHA does not exist" (exercism/website#8228) and
      // "Parent SHA does not exist or is not a commit object" for an unknown parent.
      const files = treeFiles(ctx.db, repo.id, treeName) ?? fail(ghError(422, "Tree SHA does not exist"));
      for (const p of parents)
        if (!findCommit(ctx.db, repo.id, p)) fail(ghError(422, "Parent SHA does not exist or is not a commit object"));
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
        message: body.message,
        author: s.actor,
        at: identity?.committer.date ?? s.now,
        ...(identity ? { identity } : {}),
      });
      const out = gitCommitObject(v, repo, commit);
      return ok(out, 201, { location: out.url });
    },
  }),
  route({
    method: "GET",
    pattern: "/repos/:owner/:repo/git/commits/:commit_sha",
    operation: "git.getCommit",
    summary: "Get a commit object",
    params: { ...repoParams, commit_sha: sha("The commit SHA") },
    tool: { name: "get_git_commit", description: "Get a commit object: its tree, parents, author, committer and message." },
    handler(ctx, { params }) {
      const repo = requireRepo(ctx);
      const commit = findCommit(ctx.db, repo.id, params.commit_sha.toLowerCase()) ?? fail(ghNotFound());
      return ok(gitCommitObject(new View(ctx), repo, commit));
    },
  }),
  route({
    method: "POST",
    pattern: "/repos/:owner/:repo/git/tags",
    operation: "git.createTag",
    summary: "Create a tag object",
    resource: "Tag",
    params: repoParams,
    body: {
      tag: z.string().describe('The tag name, e.g. "v1.0.0"'),
      message: z.string().describe("The tag message"),
      object: sha("The SHA of the object tagged (usually a commit)"),
      type: z.enum(["commit", "tree", "blob"]).describe("The type of that object"),
      tagger: gitIdentityField("tagger (default: the authenticated user)"),
    },
    tool: {
      name: "create_tag_object",
      description: "Create an annotated tag object; then create the refs/tags/<tag> ref pointing at its SHA.",
    },
    handler(ctx, { body }) {
      const repo = requireWritableRepo(ctx);
      const s = storeOf(ctx);
      const object = body.object.toLowerCase();
      if (objectType(ctx.db, repo.id, object) !== body.type) fail(ghError(422, "Object does not exist"));
      const tagger = gitIdentity(body, "tagger", s.now) ?? gitPerson(new View(ctx), s.actor, s.now);
      const row = createTagObject(ctx.db, repo.id, {
        tag: body.tag,
        message: body.message,
        object_sha: object,
        object_type: body.type,
        tagger,
      });
      const out = tagObject(new View(ctx), repo, row);
      return ok(out, 201, { location: out.url });
    },
  }),
  route({
    method: "GET",
    pattern: "/repos/:owner/:repo/git/tags/:tag_sha",
    operation: "git.getTag",
    summary: "Get a tag",
    params: { ...repoParams, tag_sha: sha("The tag object's SHA") },
    tool: { name: "get_tag_object", description: "Get an annotated tag object by SHA." },
    handler(ctx, { params }) {
      const repo = requireRepo(ctx);
      const row = findTagObject(ctx.db, repo.id, params.tag_sha.toLowerCase()) ?? fail(ghNotFound());
      return ok(tagObject(new View(ctx), repo, row));
    },
  }),
];

/** getBlob's raw media type answers the bytes themselves. */
const wantsRawBlob = (ctx: TwinContext) => /application\/vnd\.github(?:\.v3)?\.raw/.test(ctx.req.headers.accept ?? "");
