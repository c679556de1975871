// Reading a repository as a whole: its README (repos.getReadme, getReadmeInDirectory) and the
// comparison of two commits (repos.compareCommitsWithBasehead, which compareCommits shares).
// Shapes: @octokit/openapi's `content-file` and `commit-comparison` schemas.
import { z } from "zod";
import type { Route, TwinContext } from "../../types";
import { ok } from "../context";
import { repoParams, route } from "../declare";
import { fail, ghNotFound } from "../errors";
import { trimSlashes } from "../input";
import { requireRepo, type RepoRow } from "../repos";
import { View } from "../serialize";
import { blobContent, commitsBetween, diffTrees, entriesUnder, findCommit, resolveRef } from "../store/git";
import { compare } from "../store/merge";
import { commitObject, diffEntry, fileContentObject } from "../view-git";

const README = /^readme(?:\.[A-Za-z0-9]+)?$/i;

/** The README of a directory at a commit: `README.md` first, else any `README*` by name. */
function readmeIn(ctx: TwinContext, commitSha: string, dir: string) {
  const prefix = dir ? `${dir}/` : "";
  const candidates = entriesUnder(ctx.db, commitSha, dir)
    .filter((e) => !e.path.slice(prefix.length).includes("/") && README.test(e.path.slice(prefix.length)))
    .sort((a, b) => {
      const rank = (p: string) => (p.slice(prefix.length) === "README.md" ? 0 : 1);
      return rank(a.path) - rank(b.path) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
    });
  return candidates.length ? candidates[0] : undefined;
}

function getReadme(ctx: TwinContext, dir: string, askedRef: string | undefined) {
  const repo = requireRepo(ctx);
  const ref = askedRef || repo.default_branch;
  const at = resolveRef(ctx.db, repo.id, ref) ?? fail(ghNotFound());
  // For the repository's own README GitHub also looks in `.github/` and `docs/`.
  const dirs = dir ? [dir] : ["", ".github", "docs"];
  const found = dirs.map((d) => readmeIn(ctx, at.sha, d)).find((e) => e !== undefined) ?? fail(ghNotFound());
  const content = blobContent(ctx.db, found.blob_sha) ?? "";
  if (/application\/vnd\.github(?:\.v3)?\.raw/.test(ctx.req.headers.accept ?? ""))
    return { status: 200, headers: { "content-type": "text/plain; charset=utf-8" }, body: content };
  return ok(fileContentObject(new View(ctx), repo, found.path, ref, found.blob_sha, content));
}

/** `base...head` (or the two-dot form), each side a branch, tag or sha, optionally `owner:`-prefixed. */
export function parseBasehead(basehead: string, owner: string): { base: string; head: string } | undefined {
  const three = basehead.indexOf("...");
  const two = basehead.indexOf("..");
  const [base, head] =
    three >= 0 ? [basehead.slice(0, three), basehead.slice(three + 3)] : two >= 0 ? [basehead.slice(0, two), basehead.slice(two + 2)] : [];
  if (!base || !head) return undefined;
  // Forks are not modelled: `owner:branch` names a branch of this repository's owner.
  const local = (side: string) => {
    const colon = side.indexOf(":");
    if (colon < 0) return side;
    return side.slice(0, colon).toLowerCase() === owner.toLowerCase() ? side.slice(colon + 1) : undefined;
  };
  const b = local(base);
  const h = local(head);
  return b && h ? { base: b, head: h } : undefined;
}

/** GitHub lists at most 250 commits and 300 files in a comparison. */
const MAX_COMMITS = 250;
const MAX_FILES = 300;

function compareCommits(ctx: TwinContext, repo: RepoRow, basehead: string) {
  const sides = parseBasehead(basehead, repo.owner) ?? fail(ghNotFound());
  const base = resolveRef(ctx.db, repo.id, sides.base) ?? fail(ghNotFound());
  const head = resolveRef(ctx.db, repo.id, sides.head) ?? fail(ghNotFound());
  const c = compare(ctx.db, repo.id, base.sha, head.sha);
  // Seeded branches share no history; as for pull requests, the base itself stands in for the
  // merge base there (GitHub would answer 404 "No common ancestor").
  const mergeBaseSha = c.mergeBaseSha ?? base.sha;
  const ahead = commitsBetween(ctx.db, repo.id, base.sha, head.sha);
  const behind = commitsBetween(ctx.db, repo.id, head.sha, base.sha);
  const status = base.sha === head.sha ? "identical" : !behind.length ? "ahead" : !ahead.length ? "behind" : "diverged";
  const files = diffTrees(c.fromTree, c.headTree);
  const v = new View(ctx);
  const baseCommit = findCommit(ctx.db, repo.id, base.sha);
  const mergeBase = findCommit(ctx.db, repo.id, mergeBaseSha);
  const spec = `${sides.base}...${sides.head}`;
  return ok({
    url: v.repoApi(repo, `/compare/${spec}`),
    html_url: v.repoHtml(repo, `/compare/${spec}`),
    permalink_url: v.repoHtml(repo, `/compare/${repo.owner}:${base.sha.slice(0, 7)}...${repo.owner}:${head.sha.slice(0, 7)}`),
    diff_url: v.repoHtml(repo, `/compare/${spec}.diff`),
    patch_url: v.repoHtml(repo, `/compare/${spec}.patch`),
    base_commit: baseCommit ? commitObject(v, repo, baseCommit) : null,
    merge_base_commit: mergeBase ? commitObject(v, repo, mergeBase) : null,
    status,
    ahead_by: ahead.length,
    behind_by: behind.length,
    total_commits: ahead.length,
    commits: ahead.slice(-MAX_COMMITS).map((commit) => commitObject(v, repo, commit)),
    files: files.slice(0, MAX_FILES).map((f) => diffEntry(v, repo, f, head.sha)),
  });
}

const ref = z.string().optional().describe("Branch, tag or commit (default: the default branch)");

export const compareReadmeRoutes: readonly Route[] = [
  route({
    method: "GET",
    pattern: "/repos/:owner/:repo/readme",
    operation: "repos.getReadme",
    summary: "Get a repository README",
    params: repoParams,
    query: { ref },
    tool: { name: "get_readme", description: "Get the repository's README, base64-encoded." },
    handler: (ctx, { query }) => getReadme(ctx, "", query.ref),
  }),
  route({
    method: "GET",
    pattern: "/repos/:owner/:repo/readme/*dir",
    operation: "repos.getReadmeInDirectory",
    summary: "Get a repository README for a directory",
    params: { ...repoParams, dir: z.string().min(1).describe('The directory, e.g. "docs"') },
    query: { ref },
    tool: { name: "get_directory_readme", description: "Get the README of one directory of the repository, base64-encoded." },
    handler: (ctx, { params, query }) => getReadme(ctx, trimSlashes(params.dir), query.ref),
  }),
  // compare_commits (tools/activity.ts) writes `base...head` into one path segment from two
  // arguments: not a 1:1 front, so it stays hand-written.
  route({
    method: "GET",
    pattern: "/repos/:owner/:repo/compare/*basehead",
    operation: "repos.compareCommitsWithBasehead",
    summary: "Compare two commits",
    params: { ...repoParams, basehead: z.string().describe('The two refs compared, "base...head"') },
    handler: (ctx, { params }) => compareCommits(ctx, requireRepo(ctx), params.basehead),
  }),
];
