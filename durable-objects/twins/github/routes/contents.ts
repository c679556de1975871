// Repository contents: files (base64, git blob sha) and directories at a branch or commit, the
// raw media type, and create/update/delete, each of which writes a commit on the branch.
import { z } from "zod";
import type { Route, TwinContext, TwinResponse } from "../../types";
import { ok, storeOf } from "../context";
import { gitIdentityField, repoParams, route } from "../declare";
import { fail, ghError, ghNotFound } from "../errors";
import { gitIdentity, invalidRequest, notSupplied, trimSlashes } from "../input";
import { requireRepo, requireWritableRepo, type RepoRow } from "../repos";
import { View } from "../serialize";
import { blobContent, commitFileChange, entriesUnder, filesUnder, findBranch, resolveRef, treeEntry, treeSha } from "../store/git";
import type { CommitIdentity } from "../store/git";
import { dirEntry, fileContentObject, fileEntry, gitCommitObject, gitPerson } from "../view-git";

/** The fields every contents write takes besides its own. */
const writeFields = {
  branch: z.string().optional().describe("The branch (default: the default branch)"),
  committer: gitIdentityField("committer (default: the authenticated user)"),
  author: gitIdentityField("author (default: the committer)"),
};
type WriteBody = { branch?: string; committer?: unknown; author?: unknown };

const raw = (status: number, body: string): TwinResponse => ({ status, headers: { "content-type": "text/plain; charset=utf-8" }, body });

const wantsRaw = (ctx: TwinContext) => /application\/vnd\.github(?:\.v3)?\.raw/.test(ctx.req.headers.accept ?? "");

/** What a path names at a commit: a file, a directory's immediate children, or nothing. */
function lookup(ctx: TwinContext, commitSha: string, path: string) {
  const entry = path ? treeEntry(ctx.db, commitSha, path) : undefined;
  if (entry) return { kind: "file" as const, sha: entry.blob_sha, content: blobContent(ctx.db, entry.blob_sha) ?? "" };
  const under = entriesUnder(ctx.db, commitSha, path);
  if (path && !under.length) return undefined;
  const prefix = path ? `${path}/` : "";
  const files: { path: string; sha: string }[] = [];
  const dirs = new Map<string, { path: string; blob_sha: string; mode: string }[]>();
  for (const e of under) {
    const rest = e.path.slice(prefix.length);
    const slash = rest.indexOf("/");
    if (slash < 0) files.push({ path: e.path, sha: e.blob_sha });
    else {
      const dir = prefix + rest.slice(0, slash);
      const list = dirs.get(dir) ?? [];
      list.push(e);
      dirs.set(dir, list);
    }
  }
  return { kind: "dir" as const, files, dirs: [...dirs].map(([dir, entries]) => ({ path: dir, sha: treeSha(filesUnder(entries, dir)) })) };
}

function getContent(ctx: TwinContext, rawPath: string, askedRef: string | undefined): TwinResponse {
  const repo = requireRepo(ctx);
  const ref = askedRef || repo.default_branch;
  const at = resolveRef(ctx.db, repo.id, ref) ?? fail(ghError(404, `No commit found for the ref ${ref}`));
  const path = trimSlashes(rawPath);
  const found = lookup(ctx, at.sha, path) ?? fail(ghNotFound());
  const v = new View(ctx);
  if (found.kind === "file") {
    if (wantsRaw(ctx)) return raw(200, found.content);
    return ok(fileContentObject(v, repo, path, ref, found.sha, found.content));
  }
  const entries = [
    ...found.files.map((f) => fileEntry(v, repo, f.path, ref, f.sha, blobContent(ctx.db, f.sha) ?? "")),
    ...found.dirs.map((d) => dirEntry(v, repo, d.path, ref, d.sha)),
  ].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return ok(entries);
}

function decodeContent(b64: string): string {
  const clean = b64.replace(/\s+/g, "");
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(clean)) return invalidRequest("content is not valid Base64");
  try {
    const binary = atob(clean);
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    return new TextDecoder().decode(bytes);
  } catch {
    return invalidRequest("content is not valid Base64");
  }
}

/**
 * Who the commit of a contents write records. The docs: `committer` defaults to the
 * authenticated user, `author` to the committer (or the authenticated user without one).
 * Undefined when the body names neither, and the acting login's identity is recorded.
 */
function writeIdentity(ctx: TwinContext, body: WriteBody): CommitIdentity | undefined {
  const s = storeOf(ctx);
  const committer = gitIdentity(body, "committer", s.now);
  const author = gitIdentity(body, "author", s.now);
  if (!committer && !author) return undefined;
  const self = () => gitPerson(new View(ctx), s.actor, s.now);
  return { author: author ?? committer ?? self(), committer: committer ?? self() };
}

/**
 * An empty repository (created without `auto_init`) takes its first file on its default branch,
 * as GitHub's does: the branch has no commit yet (`head_sha` empty) until this write makes one.
 */
function firstBranch(ctx: TwinContext, repo: RepoRow, name: string) {
  if (name !== repo.default_branch || ctx.db.one("SELECT 1 AS x FROM gh_branches WHERE repo_id = ? LIMIT 1", repo.id)) return undefined;
  return { repo_id: repo.id, name, protected: 0, head_sha: "", position: 0 };
}

/** The branch a write goes to, and the file currently at the path there (if any). */
function target(ctx: TwinContext, repo: RepoRow, body: WriteBody, path: string) {
  const name = body.branch || repo.default_branch;
  const branch = findBranch(ctx.db, repo.id, name) ?? firstBranch(ctx, repo, name) ?? fail(ghError(404, `Branch ${name} not found`));
  return { branch, existing: treeEntry(ctx.db, branch.head_sha, path) };
}

const writeAnswer = (ctx: TwinContext, repo: RepoRow, content: unknown, commitSha: string, status: number) => {
  const v = new View(ctx);
  const commit = ctx.db.one<Parameters<typeof gitCommitObject>[2]>(
    "SELECT * FROM gh_commits WHERE repo_id = ? AND sha = ?",
    repo.id,
    commitSha,
  );
  return ok({ content, commit: commit ? gitCommitObject(v, repo, commit) : null }, status);
};

const filePathParam = z.string().describe('Path inside the repository, e.g. "src/index.ts"');
const ref = z.string().optional().describe("Branch, tag or commit SHA (default: the default branch)");

export const contentRoutes: readonly Route[] = [
  // get_file_contents (tools/code.ts) fronts both reads: it picks the route by whether a path is given.
  route({
    method: "GET",
    pattern: "/repos/:owner/:repo/contents",
    operation: "repos.getContent",
    summary: "Get repository content",
    params: repoParams,
    query: { ref },
    handler: (ctx, { query }) => getContent(ctx, "", query.ref),
  }),
  route({
    method: "GET",
    pattern: "/repos/:owner/:repo/contents/*path",
    operation: "repos.getContent",
    summary: "Get repository content",
    params: { ...repoParams, path: filePathParam },
    query: { ref },
    handler: (ctx, { params, query }) => getContent(ctx, params.path, query.ref),
  }),
  // create_or_update_file (tools/code.ts) takes plain text and encodes it: not a 1:1 front.
  route({
    method: "PUT",
    pattern: "/repos/:owner/:repo/contents/*path",
    operation: "repos.createOrUpdateFileContents",
    summary: "Create or update file contents",
    params: { ...repoParams, path: filePathParam },
    body: {
      message: z.string().describe("The commit message"),
      content: z.string().describe("The whole new file content, base64-encoded"),
      sha: z.string().optional().describe("The blob SHA of the file being replaced; required when the file exists"),
      ...writeFields,
    },
    handler(ctx, { params, body }) {
      const repo = requireWritableRepo(ctx);
      const path = trimSlashes(params.path);
      const content = decodeContent(body.content);
      const identity = writeIdentity(ctx, body);
      const { branch, existing } = target(ctx, repo, body, path);
      if (existing) {
        // GitHub insists on the sha of the file being replaced: absent is 422, stale is 409.
        if (body.sha === undefined) notSupplied("sha");
        if (body.sha !== existing.blob_sha) fail(ghError(409, `${path} does not match ${body.sha}`));
      } else if (entriesUnder(ctx.db, branch.head_sha, path).length) {
        invalidRequest(`${path} is a directory`);
      }
      const message = body.message;
      const commit = commitFileChange(storeOf(ctx), repo.id, branch, { path, content, message, ...(identity ? { identity } : {}) });
      const file = treeEntry(ctx.db, commit.sha, path);
      const v = new View(ctx);
      return writeAnswer(ctx, repo, fileEntry(v, repo, path, branch.name, file?.blob_sha ?? "", content), commit.sha, existing ? 200 : 201);
    },
  }),
  route({
    method: "DELETE",
    pattern: "/repos/:owner/:repo/contents/*path",
    operation: "repos.deleteFile",
    summary: "Delete a file",
    params: { ...repoParams, path: filePathParam },
    body: {
      message: z.string().describe("The commit message"),
      sha: z.string().describe("The blob SHA of the file, from get_file_contents"),
      ...writeFields,
    },
    tool: {
      name: "delete_file",
      description: "Delete one file on a branch as a new commit. Needs the file's current `sha` from get_file_contents.",
    },
    handler(ctx, { params, body }) {
      const repo = requireWritableRepo(ctx);
      const path = trimSlashes(params.path);
      const identity = writeIdentity(ctx, body);
      const { branch, existing } = target(ctx, repo, body, path);
      if (!existing) fail(ghNotFound());
      if (body.sha !== existing?.blob_sha) fail(ghError(409, `${path} does not match ${body.sha}`));
      const message = body.message;
      const commit = commitFileChange(storeOf(ctx), repo.id, branch, { path, content: null, message, ...(identity ? { identity } : {}) });
      return writeAnswer(ctx, repo, null, commit.sha, 200);
    },
  }),
  // download_url of a file points here, so following it stays inside the sandbox.
  route({
    method: "GET",
    pattern: "/raw/:owner/:repo/:ref/*path",
    operation: "repos.getContent",
    summary: "Download a raw file",
    params: { ...repoParams, ref: z.string().describe("Branch, tag or commit SHA"), path: filePathParam },
    handler(ctx, { params }) {
      const repo = requireRepo(ctx);
      const at = resolveRef(ctx.db, repo.id, params.ref);
      const entry = at ? treeEntry(ctx.db, at.sha, trimSlashes(params.path)) : undefined;
      return entry ? raw(200, blobContent(ctx.db, entry.blob_sha) ?? "") : raw(404, "404: Not Found");
    },
  }),
];
