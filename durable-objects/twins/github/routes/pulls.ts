// Pull requests: list, get (JSON or `.diff`), create, update, files, commits, merge and
// requested reviewers. Reviews are in reviews.ts.
import type { Route, TwinContext, TwinResponse } from "../../types";
import { jsonBody, ok, route, storeOf } from "../context";
import { fail, ghError, ghNoContent, ghNotFound, ghValidationFailed } from "../errors";
import { nullableString, oneOf, optBoolean, optString, optStringArray, queryEnum } from "../input";
import { pageOf, paged } from "../pagination";
import { requireRepo, requireWritableRepo, type RepoRow } from "../repos";
import { View } from "../serialize";
import { blobContent, type FileDelta } from "../store/git";
import { diffLines } from "../store/diff";
import { listIssues } from "../store/issues";
import { comparePull, pullCommits, pullFiles } from "../store/merge";
import { MERGE_METHODS, createPull, mergePull, removeRequestedReviewers, requestReviewers, requirePull, updatePull } from "../store/pulls";
import { commitObject, diffEntry } from "../view-git";
import { loadExtras } from "../view-issues";
import { fullPullObject, pullObject, requestedReviewersObject } from "../view-pulls";
import type { Db } from "../../../sql";

/** The whole change as `git diff` prints it, for `Accept: application/vnd.github.diff`. */
function unifiedDiff(db: Db, files: readonly FileDelta[]): string {
  return files
    .map((f) => {
      const before = f.previous_blob_sha ? (blobContent(db, f.previous_blob_sha) ?? "") : "";
      const after = f.blob_sha ? (blobContent(db, f.blob_sha) ?? "") : "";
      const short = (sha: string | null) => (sha ?? "0000000").slice(0, 7);
      const header = [`diff --git a/${f.path} b/${f.path}`];
      if (f.status === "added")
        header.push("new file mode 100644", `index 0000000..${short(f.blob_sha)}`, "--- /dev/null", `+++ b/${f.path}`);
      else if (f.status === "removed")
        header.push("deleted file mode 100644", `index ${short(f.previous_blob_sha)}..0000000`, `--- a/${f.path}`, "+++ /dev/null");
      else header.push(`index ${short(f.previous_blob_sha)}..${short(f.blob_sha)} 100644`, `--- a/${f.path}`, `+++ b/${f.path}`);
      const patch = diffLines(before, after).patch;
      return `${header.join("\n")}\n${patch ? `${patch}\n` : ""}`;
    })
    .join("");
}

function wantsFormat(ctx: TwinContext): "diff" | "patch" | "json" {
  const accept = ctx.req.headers.accept ?? "";
  if (/application\/vnd\.github(?:\.v3)?\.diff/.test(accept)) return "diff";
  if (/application\/vnd\.github(?:\.v3)?\.patch/.test(accept)) return "patch";
  return "json";
}

const pullAnswer = (ctx: TwinContext, repo: RepoRow, number: number, status = 200): TwinResponse =>
  ok(fullPullObject(new View(ctx), repo, requirePull(ctx.db, repo.id, number)), status);

export const pullRoutes: readonly Route[] = [
  route("GET", "/repos/:owner/:repo/pulls", "pulls.list", "List pull requests", (ctx) => {
    const repo = requireRepo(ctx);
    const sortParam = queryEnum(ctx.query.get("sort"), ["created", "updated", "popularity", "long-running"] as const, "created");
    const head = ctx.query.get("head");
    const page = pageOf(ctx);
    const { rows, total } = listIssues(
      ctx.db,
      repo.id,
      {
        kind: "pull",
        state: queryEnum(ctx.query.get("state"), ["open", "closed", "all"] as const, "open"),
        labels: [],
        sort: sortParam === "updated" ? "updated" : sortParam === "popularity" ? "comments" : "created",
        // GitHub's default: newest first when sorting by creation, otherwise ascending.
        direction: queryEnum(ctx.query.get("direction"), ["asc", "desc"] as const, sortParam === "created" ? "desc" : "asc"),
        head: head ? (head.includes(":") ? head.slice(head.indexOf(":") + 1) : head) : undefined,
        base: ctx.query.get("base") ?? undefined,
      },
      page.limit,
      page.offset,
    );
    const v = new View(ctx);
    const extras = loadExtras(v, rows);
    return paged(
      ctx,
      rows.map((row) => pullObject(v, repo, row, extras)),
      page,
      total,
      repo.id,
    );
  }),
  route("POST", "/repos/:owner/:repo/pulls", "pulls.create", "Create a pull request", (ctx) => {
    const repo = requireWritableRepo(ctx);
    const body = jsonBody(ctx);
    const title = optString(body, "title");
    const head = optString(body, "head");
    const base = optString(body, "base");
    if (!head) fail(ghValidationFailed([{ resource: "PullRequest", code: "missing_field", field: "head" }]));
    if (!base) fail(ghValidationFailed([{ resource: "PullRequest", code: "missing_field", field: "base" }]));
    if (!title) fail(ghValidationFailed([{ resource: "PullRequest", code: "missing_field", field: "title" }]));
    const pull = createPull(storeOf(ctx), repo, {
      title: String(title),
      body: nullableString(body, "body") ?? null,
      head: String(head),
      base: String(base),
      draft: optBoolean(body, "draft") ?? false,
    });
    const res = pullAnswer(ctx, repo, pull.number, 201);
    return { ...res, headers: { ...res.headers, location: new View(ctx).repoApi(repo, `/pulls/${pull.number}`) } };
  }),
  route("GET", "/repos/:owner/:repo/pulls/:pull_number", "pulls.get", "Get a pull request", (ctx) => {
    const repo = requireRepo(ctx);
    const pull = requirePull(ctx.db, repo.id, ctx.params.pull_number);
    const format = wantsFormat(ctx);
    if (format === "patch")
      return ghError(501, "The GitHub twin does not serve pull requests in the patch format; ask for the diff format");
    if (format === "diff") {
      const c = comparePull(ctx.db, pull);
      return { status: 200, headers: { "content-type": "text/plain; charset=utf-8" }, body: c ? unifiedDiff(ctx.db, pullFiles(c)) : "" };
    }
    return pullAnswer(ctx, repo, pull.number);
  }),
  route("PATCH", "/repos/:owner/:repo/pulls/:pull_number", "pulls.update", "Update a pull request", (ctx) => {
    const repo = requireWritableRepo(ctx);
    const pull = requirePull(ctx.db, repo.id, ctx.params.pull_number);
    const body = jsonBody(ctx);
    const title = optString(body, "title");
    if (title === "") fail(ghValidationFailed([{ resource: "PullRequest", code: "missing_field", field: "title" }]));
    updatePull(storeOf(ctx), repo, pull, {
      title,
      body: nullableString(body, "body"),
      state: oneOf(body.state, ["open", "closed"] as const, "PullRequest", "state"),
      base: optString(body, "base"),
    });
    return pullAnswer(ctx, repo, pull.number);
  }),
  route("GET", "/repos/:owner/:repo/pulls/:pull_number/files", "pulls.listFiles", "List pull request files", (ctx) => {
    const repo = requireRepo(ctx);
    const pull = requirePull(ctx.db, repo.id, ctx.params.pull_number);
    const c = comparePull(ctx.db, pull);
    const files = c ? pullFiles(c) : [];
    const page = pageOf(ctx);
    const v = new View(ctx);
    const at = c?.headSha ?? "";
    return paged(
      ctx,
      files.slice(page.offset, page.offset + page.limit).map((f) => diffEntry(v, repo, f, at)),
      page,
      files.length,
      repo.id,
    );
  }),
  route("GET", "/repos/:owner/:repo/pulls/:pull_number/commits", "pulls.listCommits", "List commits on a pull request", (ctx) => {
    const repo = requireRepo(ctx);
    const pull = requirePull(ctx.db, repo.id, ctx.params.pull_number);
    const commits = pullCommits(ctx.db, pull);
    const page = pageOf(ctx);
    const v = new View(ctx);
    return paged(
      ctx,
      commits.slice(page.offset, page.offset + page.limit).map((c) => commitObject(v, repo, c)),
      page,
      commits.length,
      repo.id,
    );
  }),
  route("GET", "/repos/:owner/:repo/pulls/:pull_number/merge", "pulls.checkIfMerged", "Check if a pull request has been merged", (ctx) => {
    const repo = requireRepo(ctx);
    return requirePull(ctx.db, repo.id, ctx.params.pull_number).merged ? ghNoContent() : fail(ghNotFound());
  }),
  route("PUT", "/repos/:owner/:repo/pulls/:pull_number/merge", "pulls.merge", "Merge a pull request", (ctx) => {
    const repo = requireWritableRepo(ctx);
    const pull = requirePull(ctx.db, repo.id, ctx.params.pull_number);
    const body = jsonBody(ctx);
    const { sha } = mergePull(storeOf(ctx), repo, pull, {
      sha: optString(body, "sha"),
      merge_method: oneOf(body.merge_method, MERGE_METHODS, "PullRequest", "merge_method") ?? "merge",
      commit_title: optString(body, "commit_title"),
      commit_message: optString(body, "commit_message"),
    });
    return ok({ sha, merged: true, message: "Pull Request successfully merged" });
  }),
  route(
    "GET",
    "/repos/:owner/:repo/pulls/:pull_number/requested_reviewers",
    "pulls.listRequestedReviewers",
    "Get all requested reviewers for a pull request",
    (ctx) => {
      const repo = requireRepo(ctx);
      return ok(requestedReviewersObject(new View(ctx), requirePull(ctx.db, repo.id, ctx.params.pull_number)));
    },
  ),
  route(
    "POST",
    "/repos/:owner/:repo/pulls/:pull_number/requested_reviewers",
    "pulls.requestReviewers",
    "Request reviewers for a pull request",
    (ctx) => {
      const repo = requireWritableRepo(ctx);
      const pull = requirePull(ctx.db, repo.id, ctx.params.pull_number);
      const body = jsonBody(ctx);
      requestReviewers(storeOf(ctx), repo, pull, optStringArray(body, "reviewers") ?? [], optStringArray(body, "team_reviewers") ?? []);
      return ok(pullObject(new View(ctx), repo, requirePull(ctx.db, repo.id, pull.number)), 201);
    },
  ),
  route(
    "DELETE",
    "/repos/:owner/:repo/pulls/:pull_number/requested_reviewers",
    "pulls.removeRequestedReviewers",
    "Remove requested reviewers from a pull request",
    (ctx) => {
      const repo = requireWritableRepo(ctx);
      const pull = requirePull(ctx.db, repo.id, ctx.params.pull_number);
      const reviewers = optStringArray(jsonBody(ctx), "reviewers");
      if (reviewers === undefined) fail(ghValidationFailed([{ resource: "PullRequest", code: "missing_field", field: "reviewers" }]));
      removeRequestedReviewers(storeOf(ctx), pull, reviewers ?? []);
      return ok(pullObject(new View(ctx), repo, requirePull(ctx.db, repo.id, pull.number)));
    },
  ),
];
