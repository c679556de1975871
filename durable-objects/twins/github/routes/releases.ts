// Releases and tags: create (the tag is made at `target_commitish` when the release is
// published and the tag is missing), list, get (by id, by tag, the latest), update, delete,
// generated release notes, and the repository's tags. Shapes: @octokit/openapi `release`,
// `release-notes-content` and `tag`.
import { z } from "zod";
import type { Route, TwinContext } from "../../types";
import { ok, storeOf } from "../context";
import { lenient, pageQuery, repoParams, route } from "../declare";
import { fail, ghNoContent, ghNotFound, ghValidationFailed } from "../errors";
import { pageOf, paged } from "../pagination";
import { requireRepo, requireWritableRepo, type RepoRow } from "../repos";
import { nextId } from "../store/base";
import { ancestors, resolveRef } from "../store/git";
import { createTagRef, findRef, matchingRefs, peel } from "../store/git-objects";
import type { IssueRow } from "../store/rows";
import { nodeId, View } from "../serialize";

interface ReleaseRow {
  id: number;
  repo_id: number;
  tag_name: string;
  target_commitish: string;
  name: string | null;
  body: string | null;
  draft: number;
  prerelease: number;
  latest: number;
  author: string;
  created_at: string;
  published_at: string | null;
  updated_at: string;
}

function releaseObject(v: View, r: RepoRow, rel: ReleaseRow) {
  const url = v.repoApi(r, `/releases/${rel.id}`);
  return {
    url,
    html_url: v.repoHtml(r, `/releases/tag/${encodeURIComponent(rel.tag_name)}`),
    assets_url: `${url}/assets`,
    // Asset uploads are not modelled; the URL stays inside the sandbox rather than uploads.github.com.
    upload_url: `${url}/assets{?name,label}`,
    tarball_url: v.repoApi(r, `/tarball/${encodeURIComponent(rel.tag_name)}`),
    zipball_url: v.repoApi(r, `/zipball/${encodeURIComponent(rel.tag_name)}`),
    id: rel.id,
    node_id: nodeId("Release", rel.id),
    tag_name: rel.tag_name,
    target_commitish: rel.target_commitish,
    name: rel.name,
    draft: rel.draft === 1,
    prerelease: rel.prerelease === 1,
    immutable: false,
    created_at: rel.created_at,
    updated_at: rel.updated_at,
    published_at: rel.published_at,
    author: v.user(rel.author),
    assets: [],
    body: rel.body,
  };
}

const findRelease = (ctx: TwinContext, repo: RepoRow, id: string) => {
  const n = Number(id);
  return Number.isInteger(n) ? ctx.db.one<ReleaseRow>("SELECT * FROM gh_releases WHERE repo_id = ? AND id = ?", repo.id, n) : undefined;
};
const requireRelease = (ctx: TwinContext, repo: RepoRow, id: string) => findRelease(ctx, repo, id) ?? fail(ghNotFound());

/** The docs: the latest release is the one marked `make_latest`, else the newest published full release. */
const latestRelease = (ctx: TwinContext, repo: RepoRow) =>
  ctx.db.one<ReleaseRow>(
    "SELECT * FROM gh_releases WHERE repo_id = ? AND draft = 0 AND prerelease = 0 ORDER BY latest DESC, created_at DESC, id DESC LIMIT 1",
    repo.id,
  );

/** A published release's tag exists: made at `target_commitish` when the repository lacks it. */
function ensureTag(ctx: TwinContext, repo: RepoRow, tag: string, target: string) {
  if (findRef(ctx.db, repo.id, `tags/${tag}`)) return;
  const at =
    resolveRef(ctx.db, repo.id, target) ?? fail(ghValidationFailed([{ resource: "Release", code: "invalid", field: "target_commitish" }]));
  createTagRef(ctx.db, repo.id, tag, at.sha);
}

const makeLatest = (body: { make_latest?: string | boolean }) => body.make_latest === "true" || body.make_latest === true;

/** Merged pull requests reachable from `head` and not from `since`, oldest first. */
function mergedBetween(ctx: TwinContext, repo: RepoRow, head: string, since: string | undefined): IssueRow[] {
  const reach = ancestors(ctx.db, repo.id, head);
  const before = since ? ancestors(ctx.db, repo.id, since) : new Set<string>();
  return ctx.db
    .all<IssueRow>("SELECT * FROM gh_issues WHERE repo_id = ? AND is_pull = 1 AND merged = 1 ORDER BY merged_at, number", repo.id)
    .filter((p) => !!p.merge_commit_sha && reach.has(p.merge_commit_sha) && !before.has(p.merge_commit_sha));
}

/** GitHub's generated notes: "What's Changed" with one line per merged pull request, and the full changelog link. */
function releaseNotes(ctx: TwinContext, repo: RepoRow, tag: string, head: string, previousTag: string | undefined) {
  const previous = previousTag ? findRef(ctx.db, repo.id, `tags/${previousTag}`) : undefined;
  const since = previous ? peel(ctx.db, repo.id, previous.sha) : undefined;
  const v = new View(ctx);
  const lines = mergedBetween(ctx, repo, head, since).map((p) => `* ${p.title} by @${p.user} in ${v.repoHtml(repo, `/pull/${p.number}`)}`);
  const changelog = previousTag
    ? `**Full Changelog**: ${v.repoHtml(repo, `/compare/${previousTag}...${tag}`)}`
    : `**Full Changelog**: ${v.repoHtml(repo, `/commits/${tag}`)}`;
  const body = [...(lines.length ? ["## What's Changed", ...lines, ""] : []), changelog].join("\n");
  return { name: tag, body };
}

/** The tag before `tag` among the repository's published releases (for the notes' default range). */
function previousReleaseTag(ctx: TwinContext, repo: RepoRow, tag: string): string | undefined {
  return ctx.db.one<{ tag_name: string }>(
    "SELECT tag_name FROM gh_releases WHERE repo_id = ? AND draft = 0 AND tag_name != ? ORDER BY created_at DESC, id DESC LIMIT 1",
    repo.id,
    tag,
  )?.tag_name;
}

const releaseParams = { ...repoParams, release_id: z.number().int().positive().describe("The release's id") };
const releaseFields = {
  target_commitish: z.string().optional().describe("Branch or commit the tag is made at (default: the default branch)"),
  name: z.string().nullable().optional().describe("The release's title"),
  body: z.string().nullable().optional().describe("The release notes, in GitHub-flavoured markdown"),
  draft: z.boolean().optional().describe("Keep it as an unpublished draft"),
  prerelease: z.boolean().optional().describe("Mark it as a prerelease"),
  // GitHub ignores a value it does not know here.
  make_latest: lenient(z.enum(["true", "false", "legacy"]).or(z.boolean())).describe('"true" makes it the latest release'),
};

export const releaseRoutes: readonly Route[] = [
  route({
    method: "GET",
    pattern: "/repos/:owner/:repo/releases",
    operation: "repos.listReleases",
    summary: "List releases",
    params: repoParams,
    query: pageQuery,
    tool: { name: "list_releases", description: "List a repository's releases, newest first." },
    handler(ctx) {
      const repo = requireRepo(ctx);
      const page = pageOf(ctx);
      const rows = ctx.db.all<ReleaseRow>(
        "SELECT * FROM gh_releases WHERE repo_id = ? ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?",
        repo.id,
        page.limit,
        page.offset,
      );
      const total = ctx.db.one<{ n: number }>("SELECT count(*) AS n FROM gh_releases WHERE repo_id = ?", repo.id)?.n ?? 0;
      const v = new View(ctx);
      return paged(
        ctx,
        rows.map((r) => releaseObject(v, repo, r)),
        page,
        total,
        repo.id,
      );
    },
  }),
  route({
    method: "POST",
    pattern: "/repos/:owner/:repo/releases",
    operation: "repos.createRelease",
    summary: "Create a release",
    resource: "Release",
    params: repoParams,
    body: {
      tag_name: z.string().describe("The tag's name, e.g. v1.2.0"),
      ...releaseFields,
      generate_release_notes: z.boolean().optional().describe("Write the notes from the pull requests merged since the last release"),
    },
    tool: {
      name: "create_release",
      description: "Create a release; its tag is created at target_commitish when it does not exist yet (unless a draft).",
    },
    handler(ctx, { body }) {
      const repo = requireWritableRepo(ctx);
      const s = storeOf(ctx);
      const tag = body.tag_name;
      if (!tag.trim()) fail(ghValidationFailed([{ resource: "Release", code: "missing_field", field: "tag_name" }]));
      if (ctx.db.one("SELECT 1 AS x FROM gh_releases WHERE repo_id = ? AND tag_name = ?", repo.id, tag))
        fail(ghValidationFailed([{ resource: "Release", code: "already_exists", field: "tag_name" }]));
      const target = body.target_commitish || repo.default_branch;
      const draft = body.draft ?? false;
      const prerelease = body.prerelease ?? false;
      if (!draft) ensureTag(ctx, repo, tag, target);
      let name = body.name ?? null;
      let notes = body.body ?? null;
      if (body.generate_release_notes) {
        const head = findRef(ctx.db, repo.id, `tags/${tag}`)?.sha ?? resolveRef(ctx.db, repo.id, target)?.sha ?? "";
        const generated = releaseNotes(ctx, repo, tag, peel(ctx.db, repo.id, head) ?? head, previousReleaseTag(ctx, repo, tag));
        name = name ?? generated.name;
        notes = notes ? `${notes}\n\n${generated.body}` : generated.body;
      }
      const latest = makeLatest(body);
      if (latest) ctx.db.run("UPDATE gh_releases SET latest = 0 WHERE repo_id = ?", repo.id);
      const id = nextId(ctx.db);
      ctx.db.run(
        `INSERT INTO gh_releases (id, repo_id, tag_name, target_commitish, name, body, draft, prerelease, latest, author, created_at, published_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        id,
        repo.id,
        tag,
        target,
        name,
        notes,
        draft ? 1 : 0,
        prerelease ? 1 : 0,
        latest ? 1 : 0,
        s.actor,
        s.now,
        draft ? null : s.now,
        s.now,
      );
      const out = releaseObject(new View(ctx), repo, requireRelease(ctx, repo, String(id)));
      return ok(out, 201, { location: out.url });
    },
  }),
  route({
    method: "POST",
    pattern: "/repos/:owner/:repo/releases/generate-notes",
    operation: "repos.generateReleaseNotes",
    summary: "Generate release notes content for a release",
    resource: "Release",
    params: repoParams,
    body: {
      tag_name: z.string().describe("The tag the notes are for"),
      target_commitish: z.string().optional().describe("Where the tag would be made if it does not exist (default: the default branch)"),
      previous_tag_name: z.string().optional().describe("The tag the notes start from (default: the previous release's)"),
    },
    // A POST that only computes an answer and stores nothing.
    tool: {
      name: "generate_release_notes",
      description: "Generate a release's notes: the pull requests merged since the previous release.",
      readOnly: true,
    },
    handler(ctx, { body }) {
      const repo = requireRepo(ctx);
      const tag = body.tag_name;
      const target = body.target_commitish || repo.default_branch;
      const existing = findRef(ctx.db, repo.id, `tags/${tag}`);
      const head = (existing ? peel(ctx.db, repo.id, existing.sha) : resolveRef(ctx.db, repo.id, target)?.sha) ?? fail(ghNotFound());
      const previous = body.previous_tag_name ?? previousReleaseTag(ctx, repo, tag);
      if (previous && !findRef(ctx.db, repo.id, `tags/${previous}`))
        fail(ghValidationFailed([{ resource: "Release", code: "invalid", field: "previous_tag_name" }]));
      return ok(releaseNotes(ctx, repo, tag, head, previous));
    },
  }),
  route({
    method: "GET",
    pattern: "/repos/:owner/:repo/releases/latest",
    operation: "repos.getLatestRelease",
    summary: "Get the latest release",
    params: repoParams,
    tool: { name: "get_latest_release", description: "Get the latest published, non-prerelease release." },
    handler(ctx) {
      const repo = requireRepo(ctx);
      return ok(releaseObject(new View(ctx), repo, latestRelease(ctx, repo) ?? fail(ghNotFound())));
    },
  }),
  route({
    method: "GET",
    pattern: "/repos/:owner/:repo/releases/tags/*tag",
    operation: "repos.getReleaseByTag",
    summary: "Get a release by tag name",
    params: { ...repoParams, tag: z.string().min(1).describe("The tag's name") },
    tool: { name: "get_release_by_tag", description: "Get the release made for a tag, by the tag's name." },
    handler(ctx, { params }) {
      const repo = requireRepo(ctx);
      const rel = ctx.db.one<ReleaseRow>("SELECT * FROM gh_releases WHERE repo_id = ? AND tag_name = ?", repo.id, params.tag);
      return ok(releaseObject(new View(ctx), repo, rel ?? fail(ghNotFound())));
    },
  }),
  route({
    method: "GET",
    pattern: "/repos/:owner/:repo/releases/:release_id",
    operation: "repos.getRelease",
    summary: "Get a release",
    params: releaseParams,
    tool: { name: "get_release", description: "Get a release by its numeric id: tag, name, notes, draft and prerelease state." },
    handler(ctx, { params }) {
      const repo = requireRepo(ctx);
      return ok(releaseObject(new View(ctx), repo, requireRelease(ctx, repo, String(params.release_id))));
    },
  }),
  route({
    method: "GET",
    pattern: "/repos/:owner/:repo/releases/:release_id/assets",
    operation: "repos.listReleaseAssets",
    summary: "List release assets",
    params: releaseParams,
    query: pageQuery,
    tool: { name: "list_release_assets", description: "List the files (assets) attached to a release." },
    handler(ctx, { params }) {
      const repo = requireRepo(ctx);
      requireRelease(ctx, repo, String(params.release_id));
      return paged(ctx, [], pageOf(ctx), 0, repo.id);
    },
  }),
  route({
    method: "PATCH",
    pattern: "/repos/:owner/:repo/releases/:release_id",
    operation: "repos.updateRelease",
    summary: "Update a release",
    resource: "Release",
    params: releaseParams,
    body: { tag_name: z.string().optional().describe("A new tag name"), ...releaseFields },
    tool: { name: "update_release", description: "Update a release (publish a draft with draft: false)." },
    handler(ctx, { params, body }) {
      const repo = requireWritableRepo(ctx);
      const rel = requireRelease(ctx, repo, String(params.release_id));
      const s = storeOf(ctx);
      const tag = body.tag_name ?? rel.tag_name;
      if (tag !== rel.tag_name && ctx.db.one("SELECT 1 AS x FROM gh_releases WHERE repo_id = ? AND tag_name = ?", repo.id, tag))
        fail(ghValidationFailed([{ resource: "Release", code: "already_exists", field: "tag_name" }]));
      const target = body.target_commitish ?? rel.target_commitish;
      const draft = body.draft ?? rel.draft === 1;
      const name = body.name === undefined ? rel.name : body.name;
      const text = body.body === undefined ? rel.body : body.body;
      const prerelease = body.prerelease ?? rel.prerelease === 1;
      if (!draft) ensureTag(ctx, repo, tag, target);
      const latest = makeLatest(body);
      if (latest) ctx.db.run("UPDATE gh_releases SET latest = 0 WHERE repo_id = ?", repo.id);
      ctx.db.run(
        `UPDATE gh_releases SET tag_name = ?, target_commitish = ?, name = ?, body = ?, draft = ?, prerelease = ?,
           latest = CASE WHEN ? THEN 1 ELSE latest END, published_at = COALESCE(published_at, ?), updated_at = ? WHERE id = ?`,
        tag,
        target,
        name,
        text,
        draft ? 1 : 0,
        prerelease ? 1 : 0,
        latest ? 1 : 0,
        draft ? null : s.now,
        s.now,
        rel.id,
      );
      return ok(releaseObject(new View(ctx), repo, requireRelease(ctx, repo, String(rel.id))));
    },
  }),
  route({
    method: "DELETE",
    pattern: "/repos/:owner/:repo/releases/:release_id",
    operation: "repos.deleteRelease",
    summary: "Delete a release",
    params: releaseParams,
    tool: { name: "delete_release", description: "Delete a release (its tag stays)." },
    handler(ctx, { params }) {
      const repo = requireWritableRepo(ctx);
      const rel = requireRelease(ctx, repo, String(params.release_id));
      // Deleting a release keeps its tag, as on GitHub.
      ctx.db.run("DELETE FROM gh_releases WHERE id = ?", rel.id);
      return ghNoContent();
    },
  }),
  route({
    method: "GET",
    pattern: "/repos/:owner/:repo/tags",
    operation: "repos.listTags",
    summary: "List repository tags",
    params: repoParams,
    query: pageQuery,
    tool: { name: "list_tags", description: "List a repository's tags with the commit each points at." },
    handler(ctx) {
      const repo = requireRepo(ctx);
      const page = pageOf(ctx);
      // Newest name first, as GitHub lists tags (it sorts by version-like name, descending).
      const tags = matchingRefs(ctx.db, repo.id, "tags/").reverse();
      const v = new View(ctx);
      return paged(
        ctx,
        tags.slice(page.offset, page.offset + page.limit).map((t) => {
          const name = t.ref.slice("refs/tags/".length);
          const sha = peel(ctx.db, repo.id, t.sha) ?? t.sha;
          return {
            name,
            commit: { sha, url: v.repoApi(repo, `/commits/${sha}`) },
            zipball_url: v.repoApi(repo, `/zipball/refs/tags/${name}`),
            tarball_url: v.repoApi(repo, `/tarball/refs/tags/${name}`),
            node_id: nodeId("Ref", Number.parseInt(t.sha.slice(0, 8), 16) || 0),
          };
        }),
        page,
        tags.length,
        repo.id,
      );
    },
  }),
];
