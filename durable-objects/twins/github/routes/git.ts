// Branches, git refs and commits.
import type { Route, TwinContext } from "../../types";
import { jsonBody, ok, route, storeOf } from "../context";
import { fail, ghError, ghNoContent, ghValidationFailed } from "../errors";
import { optBoolean, optString, queryTime, trimSlashes } from "../input";
import { pageOf, paged } from "../pagination";
import { requireRepo, requireWritableRepo, type RepoRow } from "../repos";
import { View } from "../serialize";
import type { Store } from "../store/base";
import { ancestors, commitFiles, createBranch, findBranch, findCommit, moveBranch, resolveRef, type CommitRow } from "../store/git";
import { setIssueState, touchIssue } from "../store/issues";
import type { IssueRow } from "../store/rows";
import { branchObject, commitObject, fullCommitObject, refObject, shortBranchObject } from "../view-git";

/** `heads/x` or `refs/heads/x` to a branch name; tags are not part of the twin's world. */
function branchOfRef(ref: string): string | undefined {
  const m = /^(?:refs\/)?heads\/(.+)$/.exec(ref);
  return m ? m[1] : undefined;
}

/** Git's rules for a ref name, the ones an agent can plausibly break. */
const validBranchName = (name: string) => !!name && !/[\s~^:?*[\\]|\.\.|@\{|\/\/|^\/|\/$|\.lock$|^\.|\/\.|\.$/.test(name);

/** Deleting a branch closes the open pull requests that come from it or go into it, as GitHub does. */
function closePullsOn(s: Store, repo: RepoRow, branch: string) {
  const pulls = s.db.all<IssueRow>(
    "SELECT * FROM gh_issues WHERE repo_id = ? AND is_pull = 1 AND state = 'open' AND (head = ? OR base = ?)",
    repo.id,
    branch,
    branch,
  );
  for (const p of pulls) {
    setIssueState(s, p, "closed");
    touchIssue(s, p.id);
  }
}

function listCommits(ctx: TwinContext, repo: RepoRow) {
  const ref = ctx.query.get("sha") || repo.default_branch;
  const start = resolveRef(ctx.db, repo.id, ref) ?? fail(ghError(404, `No commit found for SHA: ${ref}`));
  const path = trimSlashes(ctx.query.get("path") ?? "") || undefined;
  const author = ctx.query.get("author")?.toLowerCase() || undefined;
  const since = queryTime(ctx.query.get("since"), "Commit", "since");
  const until = queryTime(ctx.query.get("until"), "Commit", "until");
  const page = pageOf(ctx);
  const filtered = !!(path || author || since || until);
  const keep = (c: CommitRow) =>
    (!author || c.author.toLowerCase() === author) &&
    (!since || c.created_at >= since) &&
    (!until || c.created_at <= until) &&
    (!path ||
      !!ctx.db.one(
        "SELECT 1 AS x FROM gh_commit_files WHERE commit_sha = ? AND (path = ? OR (path > ? AND path < ?))",
        c.sha,
        path,
        `${path}/`,
        `${path}0`,
      ));
  // First-parent history, newest first. Unfiltered, its length is the head's depth + 1, so a
  // page walks only as far as the page; a filter has to look at every commit to count.
  const rows: CommitRow[] = [];
  let total = 0;
  let sha: string | null = start.sha;
  const head = findCommit(ctx.db, repo.id, start.sha);
  while (sha) {
    const c = findCommit(ctx.db, repo.id, sha);
    if (!c) break;
    if (keep(c)) {
      if (total >= page.offset && rows.length < page.limit) rows.push(c);
      total++;
    }
    if (!filtered && rows.length >= page.limit) break;
    sha = c.parent_sha;
  }
  if (!filtered) total = (head?.depth ?? 0) + 1;
  const v = new View(ctx);
  return paged(
    ctx,
    rows.map((c) => commitObject(v, repo, c)),
    page,
    total,
    repo.id,
  );
}

export const gitRoutes: readonly Route[] = [
  route("GET", "/repos/:owner/:repo/branches", "repos.listBranches", "List branches", (ctx) => {
    const repo = requireRepo(ctx);
    const page = pageOf(ctx);
    const prot = ctx.query.get("protected");
    const filter = prot === "true" ? " AND protected = 1" : prot === "false" ? " AND protected = 0" : "";
    const rows = ctx.db.all<Parameters<typeof shortBranchObject>[2]>(
      `SELECT * FROM gh_branches WHERE repo_id = ?${filter} ORDER BY name LIMIT ? OFFSET ?`,
      repo.id,
      page.limit,
      page.offset,
    );
    const total = ctx.db.one<{ n: number }>(`SELECT count(*) AS n FROM gh_branches WHERE repo_id = ?${filter}`, repo.id)?.n ?? 0;
    const v = new View(ctx);
    return paged(
      ctx,
      rows.map((b) => shortBranchObject(v, repo, b)),
      page,
      total,
      repo.id,
    );
  }),
  route("GET", "/repos/:owner/:repo/branches/:branch", "repos.getBranch", "Get a branch", (ctx) => {
    const repo = requireRepo(ctx);
    const branch = findBranch(ctx.db, repo.id, ctx.params.branch) ?? fail(ghError(404, "Branch not found"));
    return ok(branchObject(new View(ctx), repo, branch));
  }),
  route("GET", "/repos/:owner/:repo/git/ref/*ref", "git.getRef", "Get a reference", (ctx) => {
    const repo = requireRepo(ctx);
    const name = branchOfRef(ctx.params.ref);
    const branch = (name ? findBranch(ctx.db, repo.id, name) : undefined) ?? fail(ghError(404, "Not Found"));
    return ok(refObject(new View(ctx), repo, branch.name, branch.head_sha));
  }),
  route("GET", "/repos/:owner/:repo/git/matching-refs/*ref", "git.listMatchingRefs", "List matching references", (ctx) => {
    const repo = requireRepo(ctx);
    // `heads/feat` matches every branch whose name starts with `feat`; the world has no tags.
    const m = /^(?:refs\/)?heads(?:\/(.*))?$/.exec(ctx.params.ref);
    const prefix = m?.[1] ?? "";
    const rows = m
      ? ctx.db.all<{ name: string; head_sha: string }>(
          "SELECT name, head_sha FROM gh_branches WHERE repo_id = ? AND substr(name, 1, ?) = ? ORDER BY name",
          repo.id,
          prefix.length,
          prefix,
        )
      : [];
    const v = new View(ctx);
    return ok(rows.map((b) => refObject(v, repo, b.name, b.head_sha)));
  }),
  route("POST", "/repos/:owner/:repo/git/refs", "git.createRef", "Create a reference", (ctx) => {
    const repo = requireWritableRepo(ctx);
    const body = jsonBody(ctx);
    const ref = optString(body, "ref");
    const sha = optString(body, "sha");
    if (ref === undefined) fail(ghValidationFailed([{ resource: "Reference", code: "missing_field", field: "ref" }]));
    if (sha === undefined) fail(ghValidationFailed([{ resource: "Reference", code: "missing_field", field: "sha" }]));
    if (/^refs\/tags\//.test(ref ?? "")) return ghError(501, "The GitHub twin does not model tags; only refs/heads/* can be created");
    const name = /^refs\/heads\/(.+)$/.exec(ref ?? "")?.[1];
    if (!name || !validBranchName(name)) fail(ghError(422, "Reference update failed"));
    const commit = findCommit(ctx.db, repo.id, (sha ?? "").toLowerCase()) ?? fail(ghError(422, "Object does not exist"));
    if (findBranch(ctx.db, repo.id, name ?? "")) fail(ghError(422, "Reference already exists"));
    createBranch(ctx.db, repo.id, name ?? "", commit.sha);
    const out = refObject(new View(ctx), repo, name ?? "", commit.sha);
    return ok(out, 201, { location: out.url });
  }),
  route("PATCH", "/repos/:owner/:repo/git/refs/*ref", "git.updateRef", "Update a reference", (ctx) => {
    const repo = requireWritableRepo(ctx);
    const name = branchOfRef(ctx.params.ref);
    const branch = (name ? findBranch(ctx.db, repo.id, name) : undefined) ?? fail(ghError(422, "Reference does not exist"));
    const body = jsonBody(ctx);
    const sha = optString(body, "sha");
    if (sha === undefined) fail(ghValidationFailed([{ resource: "Reference", code: "missing_field", field: "sha" }]));
    const commit = findCommit(ctx.db, repo.id, (sha ?? "").toLowerCase()) ?? fail(ghError(422, "Object does not exist"));
    if (!optBoolean(body, "force") && !ancestors(ctx.db, repo.id, commit.sha).has(branch.head_sha))
      fail(ghError(422, "Update is not a fast forward"));
    const s = storeOf(ctx);
    moveBranch(ctx.db, repo.id, branch.name, commit.sha, s.now);
    return ok(refObject(new View(ctx), repo, branch.name, commit.sha));
  }),
  route("DELETE", "/repos/:owner/:repo/git/refs/*ref", "git.deleteRef", "Delete a reference", (ctx) => {
    const repo = requireWritableRepo(ctx);
    const name = branchOfRef(ctx.params.ref);
    const branch = (name ? findBranch(ctx.db, repo.id, name) : undefined) ?? fail(ghError(422, "Reference does not exist"));
    if (branch.name === repo.default_branch) fail(ghError(422, "Cannot delete the default branch of the repository"));
    closePullsOn(storeOf(ctx), repo, branch.name);
    ctx.db.run("DELETE FROM gh_branches WHERE repo_id = ? AND name = ?", repo.id, branch.name);
    return ghNoContent();
  }),
  route("GET", "/repos/:owner/:repo/commits", "repos.listCommits", "List commits", (ctx) => listCommits(ctx, requireRepo(ctx))),
  route("GET", "/repos/:owner/:repo/commits/:ref", "repos.getCommit", "Get a commit", (ctx) => {
    const repo = requireRepo(ctx);
    const at = resolveRef(ctx.db, repo.id, ctx.params.ref) ?? fail(ghError(422, `No commit found for SHA: ${ctx.params.ref}`));
    const commit = findCommit(ctx.db, repo.id, at.sha) ?? fail(ghError(422, `No commit found for SHA: ${ctx.params.ref}`));
    return ok(fullCommitObject(new View(ctx), repo, commit, commitFiles(ctx.db, commit.sha)));
  }),
];
