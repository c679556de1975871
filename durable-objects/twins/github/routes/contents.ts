// Repository contents: files (base64, git blob sha) and directories at a branch or commit, the
// raw media type, and create/update/delete, each of which writes a commit on the branch.
import type { Route, TwinContext, TwinResponse } from "../../types";
import { jsonBody, ok, route, storeOf } from "../context";
import { fail, ghError, ghNotFound } from "../errors";
import { gitIdentity, invalidRequest, notSupplied, optString, trimSlashes } from "../input";
import { requireRepo, requireWritableRepo, type RepoRow } from "../repos";
import { View } from "../serialize";
import { blobContent, commitFileChange, entriesUnder, filesUnder, findBranch, resolveRef, treeEntry, treeSha } from "../store/git";
import type { CommitIdentity } from "../store/git";
import { dirEntry, fileContentObject, fileEntry, gitCommitObject, gitPerson } from "../view-git";

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

function getContent(ctx: TwinContext, rawPath: string): TwinResponse {
  const repo = requireRepo(ctx);
  const ref = ctx.query.get("ref") || repo.default_branch;
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
function writeIdentity(ctx: TwinContext, body: Record<string, unknown>): CommitIdentity | undefined {
  const s = storeOf(ctx);
  const committer = gitIdentity(body, "committer", s.now);
  const author = gitIdentity(body, "author", s.now);
  if (!committer && !author) return undefined;
  const self = () => gitPerson(new View(ctx), s.actor, s.now);
  return { author: author ?? committer ?? self(), committer: committer ?? self() };
}

/** The branch a write goes to, and the file currently at the path there (if any). */
function target(ctx: TwinContext, repo: RepoRow, body: Record<string, unknown>, path: string) {
  const name = optString(body, "branch") || repo.default_branch;
  const branch = findBranch(ctx.db, repo.id, name) ?? fail(ghError(404, `Branch ${name} not found`));
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

export const contentRoutes: readonly Route[] = [
  route("GET", "/repos/:owner/:repo/contents", "repos.getContent", "Get repository content", (ctx) => getContent(ctx, "")),
  route("GET", "/repos/:owner/:repo/contents/*path", "repos.getContent", "Get repository content", (ctx) =>
    getContent(ctx, ctx.params.path),
  ),
  route("PUT", "/repos/:owner/:repo/contents/*path", "repos.createOrUpdateFileContents", "Create or update file contents", (ctx) => {
    const repo = requireWritableRepo(ctx);
    const path = trimSlashes(ctx.params.path);
    const body = jsonBody(ctx);
    const message = optString(body, "message") ?? notSupplied("message");
    const content = decodeContent(optString(body, "content") ?? notSupplied("content"));
    const sha = optString(body, "sha");
    const identity = writeIdentity(ctx, body);
    const { branch, existing } = target(ctx, repo, body, path);
    if (existing) {
      // GitHub insists on the sha of the file being replaced: absent is 422, stale is 409.
      if (sha === undefined) notSupplied("sha");
      if (sha !== existing.blob_sha) fail(ghError(409, `${path} does not match ${sha}`));
    } else if (entriesUnder(ctx.db, branch.head_sha, path).length) {
      invalidRequest(`${path} is a directory`);
    }
    const commit = commitFileChange(storeOf(ctx), repo.id, branch, { path, content, message, ...(identity ? { identity } : {}) });
    const file = treeEntry(ctx.db, commit.sha, path);
    const v = new View(ctx);
    return writeAnswer(ctx, repo, fileEntry(v, repo, path, branch.name, file?.blob_sha ?? "", content), commit.sha, existing ? 200 : 201);
  }),
  route("DELETE", "/repos/:owner/:repo/contents/*path", "repos.deleteFile", "Delete a file", (ctx) => {
    const repo = requireWritableRepo(ctx);
    const path = trimSlashes(ctx.params.path);
    const body = jsonBody(ctx);
    const message = optString(body, "message") ?? notSupplied("message");
    const sha = optString(body, "sha") ?? notSupplied("sha");
    const identity = writeIdentity(ctx, body);
    const { branch, existing } = target(ctx, repo, body, path);
    if (!existing) fail(ghNotFound());
    if (sha !== existing?.blob_sha) fail(ghError(409, `${path} does not match ${sha}`));
    const commit = commitFileChange(storeOf(ctx), repo.id, branch, { path, content: null, message, ...(identity ? { identity } : {}) });
    return writeAnswer(ctx, repo, null, commit.sha, 200);
  }),
  // download_url of a file points here, so following it stays inside the sandbox.
  route("GET", "/raw/:owner/:repo/:ref/*path", "repos.getContent", "Download a raw file", (ctx) => {
    const repo = requireRepo(ctx);
    const at = resolveRef(ctx.db, repo.id, ctx.params.ref);
    const entry = at ? treeEntry(ctx.db, at.sha, trimSlashes(ctx.params.path)) : undefined;
    return entry ? raw(200, blobContent(ctx.db, entry.blob_sha) ?? "") : raw(404, "404: Not Found");
  }),
];
