// Git-side shapes: commits, file diffs, branches, refs, contents and commit statuses.
import { toBase64, utf8 } from "../kit/bytes";
import { apiUrl } from "./context";
import type { RepoRow } from "./repos";
import { nodeId, type View } from "./serialize";
import { diffLines } from "./store/diff";
import { blobContent, commitIdentity, findCommit, type BranchRow, type CommitIdentity, type CommitRow, type FileDelta } from "./store/git";
import type { Db } from "../types";
import { findProtection } from "./store/protection";
import type { StatusRow } from "./store/rows";
import { combinedState } from "./store/statuses";

export function gitPerson(v: View, login: string, date: string) {
  const u = v.userRow(login);
  return { name: u?.name ?? u?.login ?? login, email: u?.email ?? `${u?.id ?? 0}+${login}@users.noreply.github.com`, date };
}

/** Who wrote and committed a commit: the identity a caller named, or the acting login's. */
export function commitPeople(v: View, c: CommitRow): CommitIdentity {
  return commitIdentity(c) ?? { author: gitPerson(v, c.author, c.created_at), committer: gitPerson(v, c.author, c.created_at) };
}

/**
 * The GitHub account behind a git identity, as GitHub links them: by the account's email (or its
 * noreply address); null when no account has it.
 */
function accountOf(v: View, email: string) {
  const noreply = /^(?:\d+\+)?([A-Za-z0-9-]+)@users\.noreply\.github\.com$/i.exec(email)?.[1];
  const login =
    noreply ?? v.ctx.db.one<{ login: string }>("SELECT login FROM gh_users WHERE email = ? COLLATE NOCASE LIMIT 1", email)?.login;
  return login && v.userRow(login) ? v.user(login) : null;
}

const UNSIGNED = { verified: false, reason: "unsigned", signature: null, payload: null, verified_at: null };

/** The commit as the contents API returns it (git data form). */
export function gitCommitObject(v: View, r: RepoRow, c: CommitRow) {
  return {
    sha: c.sha,
    node_id: nodeId("Commit", c.seq),
    url: v.repoApi(r, `/git/commits/${c.sha}`),
    html_url: v.repoHtml(r, `/commit/${c.sha}`),
    ...commitPeople(v, c),
    tree: { sha: c.tree_sha, url: v.repoApi(r, `/git/trees/${c.tree_sha}`) },
    message: c.message,
    parents: parentsOf(c).map((sha) => ({ url: v.repoApi(r, `/commits/${sha}`), html_url: v.repoHtml(r, `/commit/${sha}`), sha })),
    verification: UNSIGNED,
  };
}

const parentsOf = (c: CommitRow) => [c.parent_sha, c.parent2_sha].filter((p): p is string => !!p);

/** The commit as repos.listCommits and repos.getCommit return it. */
export function commitObject(v: View, r: RepoRow, c: CommitRow) {
  const url = v.repoApi(r, `/commits/${c.sha}`);
  const people = commitPeople(v, c);
  const named = c.identity !== null && c.identity !== undefined;
  return {
    sha: c.sha,
    node_id: nodeId("Commit", c.seq),
    commit: {
      ...people,
      message: c.message,
      tree: { sha: c.tree_sha, url: v.repoApi(r, `/git/trees/${c.tree_sha}`) },
      url: v.repoApi(r, `/git/commits/${c.sha}`),
      comment_count: 0,
      verification: UNSIGNED,
    },
    url,
    html_url: v.repoHtml(r, `/commit/${c.sha}`),
    comments_url: `${url}/comments`,
    author: named ? accountOf(v, people.author.email) : v.userRow(c.author) ? v.user(c.author) : null,
    committer: named ? accountOf(v, people.committer.email) : v.userRow(c.author) ? v.user(c.author) : null,
    parents: parentsOf(c).map((sha) => ({ sha, url: v.repoApi(r, `/commits/${sha}`), html_url: v.repoHtml(r, `/commit/${sha}`) })),
  };
}

const encodePath = (path: string) => path.split("/").map(encodeURIComponent).join("/");

/** One changed file (diff-entry), with its patch. `at` is the commit the new side lives in. */
export function diffEntry(v: View, r: RepoRow, f: FileDelta, at: string) {
  const db = v.ctx.db;
  const before = f.previous_blob_sha ? (blobContent(db, f.previous_blob_sha) ?? "") : "";
  const after = f.blob_sha ? (blobContent(db, f.blob_sha) ?? "") : "";
  const d = diffLines(before, after);
  const path = encodePath(f.path);
  return {
    sha: f.blob_sha ?? f.previous_blob_sha ?? "",
    filename: f.path,
    status: f.status,
    additions: d.additions,
    deletions: d.deletions,
    changes: d.additions + d.deletions,
    blob_url: v.repoHtml(r, `/blob/${at}/${path}`),
    raw_url: v.repoHtml(r, `/raw/${at}/${path}`),
    contents_url: v.repoApi(r, `/contents/${path}?ref=${at}`),
    patch: d.patch,
  };
}

/** getCommit adds the commit's stats and files to the list form. */
export function fullCommitObject(v: View, r: RepoRow, c: CommitRow, files: readonly FileDelta[]) {
  const entries = files.map((f) => diffEntry(v, r, f, c.sha));
  const additions = entries.reduce((n, e) => n + e.additions, 0);
  const deletions = entries.reduce((n, e) => n + e.deletions, 0);
  return { ...commitObject(v, r, c), stats: { total: additions + deletions, additions, deletions }, files: entries };
}

export function shortBranchObject(v: View, r: RepoRow, b: BranchRow) {
  return { name: b.name, commit: { sha: b.head_sha, url: v.repoApi(r, `/commits/${b.head_sha}`) }, protected: b.protected === 1 };
}

export function branchObject(v: View, r: RepoRow, b: BranchRow) {
  const commit = findCommit(v.ctx.db, r.id, b.head_sha);
  return {
    name: b.name,
    commit: commit ? commitObject(v, r, commit) : null,
    _links: { self: v.repoApi(r, `/branches/${encodeURIComponent(b.name)}`), html: v.repoHtml(r, `/tree/${b.name}`) },
    protected: b.protected === 1,
    protection: branchProtectionSummary(v.ctx.db, r.id, b),
    protection_url: v.repoApi(r, `/branches/${encodeURIComponent(b.name)}/protection`),
  };
}

export function refObject(v: View, r: RepoRow, branch: string, sha: string) {
  return {
    ref: `refs/heads/${branch}`,
    node_id: nodeId("Ref", r.id),
    url: v.repoApi(r, `/git/refs/heads/${branch}`),
    object: { sha, type: "commit", url: v.repoApi(r, `/git/commits/${sha}`) },
  };
}

/** Where contents live on the wire: the API entry, the web page and the raw download. */
function contentLinks(v: View, r: RepoRow, path: string, ref: string, sha: string, kind: "file" | "dir") {
  const self = v.repoApi(r, `/contents/${encodePath(path)}?ref=${encodeURIComponent(ref)}`);
  const git = v.repoApi(r, `/git/${kind === "file" ? "blobs" : "trees"}/${sha}`);
  const html = v.repoHtml(r, `/${kind === "file" ? "blob" : "tree"}/${ref}/${encodePath(path)}`);
  // The raw file is served by this sandbox too, so following download_url never leaves it.
  const download = kind === "file" ? apiUrl(v.ctx, `/raw/${r.owner}/${r.name}/${encodeURIComponent(ref)}/${encodePath(path)}`) : null;
  return { url: self, html_url: html, git_url: git, download_url: download, _links: { self, git, html } };
}

const baseName = (path: string) => path.slice(path.lastIndexOf("/") + 1);

const byteLength = (content: string) => new TextEncoder().encode(content).length;

/** base64 with a newline every 60 characters, as GitHub wraps file contents. */
export function wrappedBase64(content: string): string {
  const b64 = toBase64(utf8(content));
  return b64 ? `${b64.match(/.{1,60}/g)?.join("\n") ?? ""}\n` : "";
}

export function fileEntry(v: View, r: RepoRow, path: string, ref: string, blobSha: string, content: string) {
  return {
    name: baseName(path),
    path,
    sha: blobSha,
    size: byteLength(content),
    ...contentLinks(v, r, path, ref, blobSha, "file"),
    type: "file" as const,
  };
}

export function fileContentObject(v: View, r: RepoRow, path: string, ref: string, blobSha: string, content: string) {
  const { _links, ...rest } = fileEntry(v, r, path, ref, blobSha, content);
  return { ...rest, content: wrappedBase64(content), encoding: "base64", _links };
}

export function dirEntry(v: View, r: RepoRow, path: string, ref: string, sha: string) {
  return { name: baseName(path), path, sha, size: 0, ...contentLinks(v, r, path, ref, sha, "dir"), type: "dir" as const };
}

export function statusObject(v: View, r: RepoRow, s: StatusRow) {
  const creator = v.user(s.creator);
  return {
    url: v.repoApi(r, `/statuses/${s.sha}`),
    avatar_url: creator.avatar_url,
    id: s.id,
    node_id: nodeId("StatusContext", s.id),
    state: s.state,
    description: s.description,
    target_url: s.target_url,
    context: s.context,
    created_at: s.created_at,
    updated_at: s.created_at,
    creator,
  };
}

export function combinedStatusObject(v: View, r: RepoRow, sha: string, latest: readonly StatusRow[]) {
  return {
    state: combinedState(latest),
    statuses: latest.map((s) => {
      const { creator: _creator, ...rest } = statusObject(v, r, s);
      return rest;
    }),
    sha,
    total_count: latest.length,
    repository: v.repository(r),
    commit_url: v.repoApi(r, `/commits/${sha}`),
    url: v.repoApi(r, `/commits/${sha}/status`),
  };
}

/** The `protection` summary a branch read carries: required contexts enforced for non-admins (or everyone). */
function branchProtectionSummary(db: Db, repoId: number, b: BranchRow) {
  const p = b.protected === 1 ? findProtection(db, repoId, b.name) : undefined;
  const contexts = p?.required_status_checks?.contexts ?? [];
  const enforcement_level = contexts.length ? (p?.enforce_admins ? "everyone" : "non_admins") : "off";
  return {
    enabled: b.protected === 1,
    required_status_checks: { enforcement_level, contexts, checks: contexts.map((context) => ({ context, app_id: null })) },
  };
}
