// Releases and tags: create (the tag is made at `target_commitish` when the release is
// published and the tag is missing), list, get (by id, by tag, the latest), update, delete,
// generated release notes, and the repository's tags. Shapes: @octokit/openapi `release`,
// `release-notes-content` and `tag`.
import type { Route, TwinContext } from "../../types";
import { jsonBody, ok, route, storeOf } from "../context";
import { fail, ghNoContent, ghNotFound, ghValidationFailed } from "../errors";
import { notSupplied, nullableString, optBoolean, optString } from "../input";
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

const makeLatest = (body: Record<string, unknown>) => {
  const value = body.make_latest;
  return value === "true" || value === true;
};

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

export const releaseRoutes: readonly Route[] = [
  route("GET", "/repos/:owner/:repo/releases", "repos.listReleases", "List releases", (ctx) => {
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
  }),
  route("POST", "/repos/:owner/:repo/releases", "repos.createRelease", "Create a release", (ctx) => {
    const repo = requireWritableRepo(ctx);
    const body = jsonBody(ctx);
    const s = storeOf(ctx);
    const tag = optString(body, "tag_name") ?? notSupplied("tag_name");
    if (!tag.trim()) fail(ghValidationFailed([{ resource: "Release", code: "missing_field", field: "tag_name" }]));
    if (ctx.db.one("SELECT 1 AS x FROM gh_releases WHERE repo_id = ? AND tag_name = ?", repo.id, tag))
      fail(ghValidationFailed([{ resource: "Release", code: "already_exists", field: "tag_name" }]));
    const target = optString(body, "target_commitish") || repo.default_branch;
    const draft = optBoolean(body, "draft") ?? false;
    const prerelease = optBoolean(body, "prerelease") ?? false;
    if (!draft) ensureTag(ctx, repo, tag, target);
    let name = nullableString(body, "name") ?? null;
    let notes = nullableString(body, "body") ?? null;
    if (optBoolean(body, "generate_release_notes")) {
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
  }),
  route(
    "POST",
    "/repos/:owner/:repo/releases/generate-notes",
    "repos.generateReleaseNotes",
    "Generate release notes content for a release",
    (ctx) => {
      const repo = requireRepo(ctx);
      const body = jsonBody(ctx);
      const tag = optString(body, "tag_name") ?? notSupplied("tag_name");
      const target = optString(body, "target_commitish") || repo.default_branch;
      const existing = findRef(ctx.db, repo.id, `tags/${tag}`);
      const head = (existing ? peel(ctx.db, repo.id, existing.sha) : resolveRef(ctx.db, repo.id, target)?.sha) ?? fail(ghNotFound());
      const previous = optString(body, "previous_tag_name") ?? previousReleaseTag(ctx, repo, tag);
      if (previous && !findRef(ctx.db, repo.id, `tags/${previous}`))
        fail(ghValidationFailed([{ resource: "Release", code: "invalid", field: "previous_tag_name" }]));
      return ok(releaseNotes(ctx, repo, tag, head, previous));
    },
  ),
  route("GET", "/repos/:owner/:repo/releases/latest", "repos.getLatestRelease", "Get the latest release", (ctx) => {
    const repo = requireRepo(ctx);
    return ok(releaseObject(new View(ctx), repo, latestRelease(ctx, repo) ?? fail(ghNotFound())));
  }),
  route("GET", "/repos/:owner/:repo/releases/tags/*tag", "repos.getReleaseByTag", "Get a release by tag name", (ctx) => {
    const repo = requireRepo(ctx);
    const rel = ctx.db.one<ReleaseRow>("SELECT * FROM gh_releases WHERE repo_id = ? AND tag_name = ?", repo.id, ctx.params.tag);
    return ok(releaseObject(new View(ctx), repo, rel ?? fail(ghNotFound())));
  }),
  route("GET", "/repos/:owner/:repo/releases/:release_id", "repos.getRelease", "Get a release", (ctx) => {
    const repo = requireRepo(ctx);
    return ok(releaseObject(new View(ctx), repo, requireRelease(ctx, repo, ctx.params.release_id)));
  }),
  route("GET", "/repos/:owner/:repo/releases/:release_id/assets", "repos.listReleaseAssets", "List release assets", (ctx) => {
    const repo = requireRepo(ctx);
    requireRelease(ctx, repo, ctx.params.release_id);
    return paged(ctx, [], pageOf(ctx), 0, repo.id);
  }),
  route("PATCH", "/repos/:owner/:repo/releases/:release_id", "repos.updateRelease", "Update a release", (ctx) => {
    const repo = requireWritableRepo(ctx);
    const rel = requireRelease(ctx, repo, ctx.params.release_id);
    const body = jsonBody(ctx);
    const s = storeOf(ctx);
    const tag = optString(body, "tag_name") ?? rel.tag_name;
    if (tag !== rel.tag_name && ctx.db.one("SELECT 1 AS x FROM gh_releases WHERE repo_id = ? AND tag_name = ?", repo.id, tag))
      fail(ghValidationFailed([{ resource: "Release", code: "already_exists", field: "tag_name" }]));
    const target = optString(body, "target_commitish") ?? rel.target_commitish;
    const draft = optBoolean(body, "draft") ?? rel.draft === 1;
    const name = body.name === undefined ? rel.name : (nullableString(body, "name") ?? null);
    const text = body.body === undefined ? rel.body : (nullableString(body, "body") ?? null);
    const prerelease = optBoolean(body, "prerelease") ?? rel.prerelease === 1;
    if (!draft) ensureTag(ctx, repo, tag, target);
    if (makeLatest(body)) ctx.db.run("UPDATE gh_releases SET latest = 0 WHERE repo_id = ?", repo.id);
    ctx.db.run(
      `UPDATE gh_releases SET tag_name = ?, target_commitish = ?, name = ?, body = ?, draft = ?, prerelease = ?,
         latest = CASE WHEN ? THEN 1 ELSE latest END, published_at = COALESCE(published_at, ?), updated_at = ? WHERE id = ?`,
      tag,
      target,
      name,
      text,
      draft ? 1 : 0,
      prerelease ? 1 : 0,
      makeLatest(body) ? 1 : 0,
      draft ? null : s.now,
      s.now,
      rel.id,
    );
    return ok(releaseObject(new View(ctx), repo, requireRelease(ctx, repo, String(rel.id))));
  }),
  route("DELETE", "/repos/:owner/:repo/releases/:release_id", "repos.deleteRelease", "Delete a release", (ctx) => {
    const repo = requireWritableRepo(ctx);
    const rel = requireRelease(ctx, repo, ctx.params.release_id);
    // Deleting a release keeps its tag, as on GitHub.
    ctx.db.run("DELETE FROM gh_releases WHERE id = ?", rel.id);
    return ghNoContent();
  }),
  route("GET", "/repos/:owner/:repo/tags", "repos.listTags", "List repository tags", (ctx) => {
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
  }),
];
