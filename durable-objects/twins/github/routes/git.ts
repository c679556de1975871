// Branches, git refs and commits.
import { z } from "zod";
import type { Route, TwinContext } from "../../types";
import { ok, storeOf } from "../context";
import { lenient, pageQuery, repoParams, route } from "../declare";
import { fail, ghError, ghNoContent, ghNotFound } from "../errors";
import { queryTime, trimSlashes } from "../input";
import { pageOf, paged } from "../pagination";
import { requireRepo, requireWritableRepo, type RepoRow } from "../repos";
import { View } from "../serialize";
import type { Store } from "../store/base";
import { ancestors, commitFiles, createBranch, findBranch, findCommit, moveBranch, resolveRef, type CommitRow } from "../store/git";
import { createTagRef, deleteTagRef, findRef, matchingRefs, moveTagRef, objectType, parseRefName, type RefRow } from "../store/git-objects";
import { gitRefObject } from "../view-git-database";
import { findProtection } from "../store/protection";
import { setIssueState, touchIssue } from "../store/issues";
import type { IssueRow } from "../store/rows";
import { branchObject, commitObject, fullCommitObject, shortBranchObject } from "../view-git";

/** A ref as getRef answers it, its object typed by what its sha names. */
function refAnswer(v: View, repo: RepoRow, ref: RefRow) {
  return gitRefObject(v, repo, ref, objectType(v.ctx.db, repo.id, ref.sha) ?? "commit");
}

function getRef(ctx: TwinContext, name: string) {
  const repo = requireRepo(ctx);
  const ref = findRef(ctx.db, repo.id, name) ?? fail(ghNotFound());
  return ok(refAnswer(new View(ctx), repo, ref));
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

const commitQuery = {
  sha: z.string().optional().describe("Branch name or commit SHA to start from (default: the default branch)"),
  path: z.string().optional().describe("Only commits touching this file path"),
  author: z.string().optional().describe("Only commits by this login"),
  since: z.string().optional().describe("Only commits at or after this ISO 8601 time"),
  until: z.string().optional().describe("Only commits before this ISO 8601 time"),
  ...pageQuery,
};
type CommitQuery = z.output<z.ZodObject<typeof commitQuery>>;

function listCommits(ctx: TwinContext, repo: RepoRow, query: CommitQuery) {
  const ref = query.sha || repo.default_branch;
  const start = resolveRef(ctx.db, repo.id, ref) ?? fail(ghError(404, `No commit found for SHA: ${ref}`));
  const path = trimSlashes(query.path ?? "") || undefined;
  const author = query.author?.toLowerCase() || undefined;
  const since = queryTime(query.since ?? null, "Commit", "since");
  const until = queryTime(query.until ?? null, "Commit", "until");
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

const refParams = { ...repoParams, ref: z.string().min(1).describe('A reference without the "refs/" prefix, e.g. "heads/main"') };
const commitRef = z.string().min(1).describe("A commit SHA or branch name");

// create_branch, update_branch and delete_branch (tools/git.ts) name a branch and write the ref
// `refs/heads/<branch>` for it; get_ref and list_matching_refs also take a name that starts with
// "refs/". Neither is a 1:1 front of a route's inputs, so those tools stay hand-written.
export const gitRoutes: readonly Route[] = [
  route({
    method: "GET",
    pattern: "/repos/:owner/:repo/branches",
    operation: "repos.listBranches",
    summary: "List branches",
    params: repoParams,
    query: {
      protected: lenient(z.boolean()).describe("Only protected (true) or unprotected (false) branches"),
      ...pageQuery,
    },
    tool: { name: "list_branches", description: "List a repository's branches with the SHA of each branch's head commit." },
    handler(ctx, { query }) {
      const repo = requireRepo(ctx);
      const page = pageOf(ctx);
      const filter = query.protected === true ? " AND protected = 1" : query.protected === false ? " AND protected = 0" : "";
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
    },
  }),
  route({
    method: "GET",
    pattern: "/repos/:owner/:repo/branches/:branch",
    operation: "repos.getBranch",
    summary: "Get a branch",
    params: { ...repoParams, branch: z.string().min(1).describe("The branch name") },
    tool: { name: "get_branch", description: "Get one branch: its head commit (`commit.sha`) and whether it is protected." },
    handler(ctx, { params }) {
      const repo = requireRepo(ctx);
      const branch = findBranch(ctx.db, repo.id, params.branch) ?? fail(ghError(404, "Branch not found"));
      return ok(branchObject(new View(ctx), repo, branch));
    },
  }),
  route({
    method: "GET",
    pattern: "/repos/:owner/:repo/git/ref/*ref",
    operation: "git.getRef",
    summary: "Get a reference",
    params: refParams,
    handler: (ctx, { params }) => getRef(ctx, params.ref),
  }),
  // The legacy form of getRef, and the path every ref's `url` names: one ref by its full name,
  // else (as GitHub still answers it) the array of refs under that prefix.
  route({
    method: "GET",
    pattern: "/repos/:owner/:repo/git/refs/*ref",
    operation: "git.getRef",
    summary: "Get a reference",
    params: refParams,
    handler(ctx, { params }) {
      const repo = requireRepo(ctx);
      if (findRef(ctx.db, repo.id, params.ref)) return getRef(ctx, params.ref);
      const v = new View(ctx);
      const under = matchingRefs(ctx.db, repo.id, `${params.ref.replace(/\/+$/, "")}/`);
      return under.length ? ok(under.map((r) => refAnswer(v, repo, r))) : ghNotFound();
    },
  }),
  route({
    method: "GET",
    pattern: "/repos/:owner/:repo/git/matching-refs/*ref",
    operation: "git.listMatchingRefs",
    summary: "List matching references",
    params: refParams,
    handler(ctx, { params }) {
      const repo = requireRepo(ctx);
      // `heads/feat` matches every branch whose name starts with `feat`; `tags` every tag.
      const v = new View(ctx);
      return ok(matchingRefs(ctx.db, repo.id, params.ref).map((r) => refAnswer(v, repo, r)));
    },
  }),
  route({
    method: "POST",
    pattern: "/repos/:owner/:repo/git/refs",
    operation: "git.createRef",
    summary: "Create a reference",
    resource: "Reference",
    missingField: ["ref", "sha"],
    params: repoParams,
    body: {
      ref: z.string().describe('The full name of the new reference, e.g. "refs/heads/fix-typo"'),
      sha: z.string().describe("The SHA it points at"),
    },
    handler(ctx, { body }) {
      const repo = requireWritableRepo(ctx);
      const full = body.ref;
      // Source: GitHub's 422 for `heads/x` ("Reference name must contain at least three
      // slash-separated components.") and for a name git refuses ("... is not a valid ref name."),
      // octokit/octokit.rb#675.
      if (!/^refs\/[^/]+\/./.test(full)) fail(ghError(422, "Reference name must contain at least three slash-separated components."));
      const at = parseRefName(full);
      if (!at || !validBranchName(at.name)) fail(ghError(422, `${full} is not a valid ref name.`));
      const kind = at?.kind ?? "heads";
      const name = at?.name ?? "";
      const object = body.sha.toLowerCase();
      const type = objectType(ctx.db, repo.id, object);
      // A branch points at a commit; a tag at a commit or an annotated tag object.
      if (!type || (kind === "heads" && type !== "commit")) fail(ghError(422, "Object does not exist"));
      if (findRef(ctx.db, repo.id, full)) fail(ghError(422, "Reference already exists"));
      if (kind === "heads") createBranch(ctx.db, repo.id, name, object);
      else createTagRef(ctx.db, repo.id, name, object);
      const out = refAnswer(new View(ctx), repo, { ref: `refs/${kind}/${name}`, sha: object });
      return ok(out, 201, { location: out.url });
    },
  }),
  route({
    method: "PATCH",
    pattern: "/repos/:owner/:repo/git/refs/*ref",
    operation: "git.updateRef",
    summary: "Update a reference",
    resource: "Reference",
    missingField: ["sha"],
    params: refParams,
    body: {
      sha: z.string().describe("The SHA the reference should point at"),
      force: z.boolean().optional().describe("Allow a move that is not a fast-forward"),
    },
    handler(ctx, { params, body }) {
      const repo = requireWritableRepo(ctx);
      const current = findRef(ctx.db, repo.id, params.ref) ?? fail(ghError(422, "Reference does not exist"));
      const at = parseRefName(current.ref) ?? fail(ghError(422, "Reference does not exist"));
      const object = body.sha.toLowerCase();
      const type = objectType(ctx.db, repo.id, object);
      if (!type || (at.kind === "heads" && type !== "commit")) fail(ghError(422, "Object does not exist"));
      // Without `force`, the new commit must have the old one in its history (a fast-forward).
      if (!body.force && !ancestors(ctx.db, repo.id, object).has(current.sha)) fail(ghError(422, "Update is not a fast forward"));
      if (at.kind === "heads") moveBranch(ctx.db, repo.id, at.name, object, storeOf(ctx).now);
      else moveTagRef(ctx.db, repo.id, at.name, object);
      return ok(refAnswer(new View(ctx), repo, { ref: current.ref, sha: object }));
    },
  }),
  route({
    method: "DELETE",
    pattern: "/repos/:owner/:repo/git/refs/*ref",
    operation: "git.deleteRef",
    summary: "Delete a reference",
    params: refParams,
    handler(ctx, { params }) {
      const repo = requireWritableRepo(ctx);
      const current = findRef(ctx.db, repo.id, params.ref) ?? fail(ghError(422, "Reference does not exist"));
      const at = parseRefName(current.ref) ?? fail(ghError(422, "Reference does not exist"));
      if (at.kind === "tags") {
        deleteTagRef(ctx.db, repo.id, at.name);
        return ghNoContent();
      }
      if (at.name === repo.default_branch) fail(ghError(422, "Cannot delete the default branch of the repository"));
      // GitHub refuses deleting a protected branch unless its protection allows deletions.
      if (findProtection(ctx.db, repo.id, at.name)?.allow_deletions === false) fail(ghError(422, "Cannot delete a protected branch"));
      closePullsOn(storeOf(ctx), repo, at.name);
      ctx.db.run("DELETE FROM gh_branches WHERE repo_id = ? AND name = ?", repo.id, at.name);
      return ghNoContent();
    },
  }),
  route({
    method: "GET",
    pattern: "/repos/:owner/:repo/commits",
    operation: "repos.listCommits",
    summary: "List commits",
    resource: "Commit",
    params: repoParams,
    query: commitQuery,
    tool: { name: "list_commits", description: "List commits, newest first, on a branch (or touching one path)." },
    handler: (ctx, { query }) => listCommits(ctx, requireRepo(ctx), query),
  }),
  route({
    method: "GET",
    pattern: "/repos/:owner/:repo/commits/:ref",
    operation: "repos.getCommit",
    summary: "Get a commit",
    params: { ...repoParams, ref: commitRef },
    tool: {
      name: "get_commit",
      description: "Get one commit by SHA or branch name: message, author, parents, and the files it changed.",
    },
    handler(ctx, { params }) {
      const repo = requireRepo(ctx);
      const at = resolveRef(ctx.db, repo.id, params.ref) ?? fail(ghError(422, `No commit found for SHA: ${params.ref}`));
      const commit = findCommit(ctx.db, repo.id, at.sha) ?? fail(ghError(422, `No commit found for SHA: ${params.ref}`));
      return ok(fullCommitObject(new View(ctx), repo, commit, commitFiles(ctx.db, commit.sha)));
    },
  }),
];
