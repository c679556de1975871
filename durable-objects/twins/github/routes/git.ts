// Branches, git refs and commits.
import type { Route, TwinContext } from "../../types";
import { jsonBody, ok, route, storeOf } from "../context";
import { fail, ghError, ghNoContent, ghNotFound, ghValidationFailed } from "../errors";
import { optBoolean, optString, queryTime, trimSlashes } from "../input";
import { pageOf, paged } from "../pagination";
import { requireRepo, requireWritableRepo, type RepoRow } from "../repos";
import { View } from "../serialize";
import type { Store } from "../store/base";
import { ancestors, commitFiles, createBranch, findBranch, findCommit, moveBranch, resolveRef, type CommitRow } from "../store/git";
import { createTagRef, deleteTagRef, findRef, matchingRefs, moveTagRef, objectType, parseRefName, type RefRow } from "../store/git-objects";
import { gitRefObject } from "../view-git-database";
import { setIssueState, touchIssue } from "../store/issues";
import type { IssueRow } from "../store/rows";
import { branchObject, commitObject, fullCommitObject, shortBranchObject } from "../view-git";

/** A ref as getRef answers it, its object typed by what its sha names. */
function refAnswer(v: View, repo: RepoRow, ref: RefRow) {
  return gitRefObject(v, repo, ref, objectType(v.ctx.db, repo.id, ref.sha) ?? "commit");
}

function getRef(ctx: TwinContext) {
  const repo = requireRepo(ctx);
  const ref = findRef(ctx.db, repo.id, ctx.params.ref) ?? fail(ghNotFound());
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
  route("GET", "/repos/:owner/:repo/git/ref/*ref", "git.getRef", "Get a reference", (ctx) => getRef(ctx)),
  // The legacy form of getRef, and the path every ref's `url` names: one ref by its full name,
  // else (as GitHub still answers it) the array of refs under that prefix.
  route("GET", "/repos/:owner/:repo/git/refs/*ref", "git.getRef", "Get a reference", (ctx) => {
    const repo = requireRepo(ctx);
    if (findRef(ctx.db, repo.id, ctx.params.ref)) return getRef(ctx);
    const v = new View(ctx);
    const under = matchingRefs(ctx.db, repo.id, `${ctx.params.ref.replace(/\/+$/, "")}/`);
    return under.length ? ok(under.map((r) => refAnswer(v, repo, r))) : ghNotFound();
  }),
  route("GET", "/repos/:owner/:repo/git/matching-refs/*ref", "git.listMatchingRefs", "List matching references", (ctx) => {
    const repo = requireRepo(ctx);
    // `heads/feat` matches every branch whose name starts with `feat`; `tags` every tag.
    const v = new View(ctx);
    return ok(matchingRefs(ctx.db, repo.id, ctx.params.ref).map((r) => refAnswer(v, repo, r)));
  }),
  route("POST", "/repos/:owner/:repo/git/refs", "git.createRef", "Create a reference", (ctx) => {
    const repo = requireWritableRepo(ctx);
    const body = jsonBody(ctx);
    const ref = optString(body, "ref");
    const sha = optString(body, "sha");
    if (ref === undefined) fail(ghValidationFailed([{ resource: "Reference", code: "missing_field", field: "ref" }]));
    if (sha === undefined) fail(ghValidationFailed([{ resource: "Reference", code: "missing_field", field: "sha" }]));
    const full = ref ?? "";
    // Source: GitHub's 422 for `heads/x` ("Reference name must contain at least three
    // slash-separated components.") and for a name git refuses ("... is not a valid ref name."),
    // octokit/octokit.rb#675.
    if (!/^refs\/[^/]+\/./.test(full)) fail(ghError(422, "Reference name must contain at least three slash-separated components."));
    const at = parseRefName(full);
    if (!at || !validBranchName(at.name)) fail(ghError(422, `${full} is not a valid ref name.`));
    const kind = at?.kind ?? "heads";
    const name = at?.name ?? "";
    const object = (sha ?? "").toLowerCase();
    const type = objectType(ctx.db, repo.id, object);
    // A branch points at a commit; a tag at a commit or an annotated tag object.
    if (!type || (kind === "heads" && type !== "commit")) fail(ghError(422, "Object does not exist"));
    if (findRef(ctx.db, repo.id, full)) fail(ghError(422, "Reference already exists"));
    if (kind === "heads") createBranch(ctx.db, repo.id, name, object);
    else createTagRef(ctx.db, repo.id, name, object);
    const out = refAnswer(new View(ctx), repo, { ref: `refs/${kind}/${name}`, sha: object });
    return ok(out, 201, { location: out.url });
  }),
  route("PATCH", "/repos/:owner/:repo/git/refs/*ref", "git.updateRef", "Update a reference", (ctx) => {
    const repo = requireWritableRepo(ctx);
    const current = findRef(ctx.db, repo.id, ctx.params.ref) ?? fail(ghError(422, "Reference does not exist"));
    const at = parseRefName(current.ref) ?? fail(ghError(422, "Reference does not exist"));
    const body = jsonBody(ctx);
    const sha = optString(body, "sha");
    if (sha === undefined) fail(ghValidationFailed([{ resource: "Reference", code: "missing_field", field: "sha" }]));
    const object = (sha ?? "").toLowerCase();
    const type = objectType(ctx.db, repo.id, object);
    if (!type || (at.kind === "heads" && type !== "commit")) fail(ghError(422, "Object does not exist"));
    // Without `force`, the new commit must have the old one in its history (a fast-forward).
    if (!optBoolean(body, "force") && !ancestors(ctx.db, repo.id, object).has(current.sha))
      fail(ghError(422, "Update is not a fast forward"));
    if (at.kind === "heads") moveBranch(ctx.db, repo.id, at.name, object, storeOf(ctx).now);
    else moveTagRef(ctx.db, repo.id, at.name, object);
    return ok(refAnswer(new View(ctx), repo, { ref: current.ref, sha: object }));
  }),
  route("DELETE", "/repos/:owner/:repo/git/refs/*ref", "git.deleteRef", "Delete a reference", (ctx) => {
    const repo = requireWritableRepo(ctx);
    const current = findRef(ctx.db, repo.id, ctx.params.ref) ?? fail(ghError(422, "Reference does not exist"));
    const at = parseRefName(current.ref) ?? fail(ghError(422, "Reference does not exist"));
    if (at.kind === "tags") {
      deleteTagRef(ctx.db, repo.id, at.name);
      return ghNoContent();
    }
    if (at.name === repo.default_branch) fail(ghError(422, "Cannot delete the default branch of the repository"));
    closePullsOn(storeOf(ctx), repo, at.name);
    ctx.db.run("DELETE FROM gh_branches WHERE repo_id = ? AND name = ?", repo.id, at.name);
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
