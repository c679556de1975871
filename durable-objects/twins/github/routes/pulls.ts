// Pull requests: list, get (JSON or `.diff`), create, update, files, commits, merge and
// requested reviewers. Reviews are in reviews.ts.
import { z } from "zod";
import type { Route, TwinContext, TwinResponse } from "../../types";
import { ok, storeOf } from "../context";
import { direction, lenient, pageQuery, pullNumber, repoParams, route } from "../declare";
import { fail, ghError, ghNoContent, ghNotFound } from "../errors";
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
import { removeTeamReviews } from "../store/team-reviews";
import { pullRequestEvent } from "../webhooks";
import type { Db } from "../../types";

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

const pullParams = { ...repoParams, pull_number: pullNumber };
const pullState = z.enum(["open", "closed"]);
const reviewerLogins = (what: string) => z.array(z.string()).describe(what);

export const pullRoutes: readonly Route[] = [
  route({
    method: "GET",
    pattern: "/repos/:owner/:repo/pulls",
    operation: "pulls.list",
    summary: "List pull requests",
    params: repoParams,
    query: {
      state: lenient(z.enum(["open", "closed", "all"])).describe("Which pull requests to list (default open)"),
      head: z.string().optional().describe('Only pull requests from this branch, written "owner:branch"'),
      base: z.string().optional().describe("Only pull requests into this branch"),
      sort: lenient(z.enum(["created", "updated", "popularity", "long-running"])).describe("What to sort by (default created)"),
      direction,
      ...pageQuery,
    },
    tool: { name: "list_pull_requests", description: "List a repository's pull requests, newest first." },
    handler(ctx, { query }) {
      const repo = requireRepo(ctx);
      const sortParam = query.sort ?? "created";
      const head = query.head;
      const page = pageOf(ctx);
      const { rows, total } = listIssues(
        ctx.db,
        repo.id,
        {
          kind: "pull",
          state: query.state ?? "open",
          labels: [],
          sort: sortParam === "updated" ? "updated" : sortParam === "popularity" ? "comments" : "created",
          // GitHub's default: newest first when sorting by creation, otherwise ascending.
          direction: query.direction ?? (sortParam === "created" ? "desc" : "asc"),
          head: head ? (head.includes(":") ? head.slice(head.indexOf(":") + 1) : head) : undefined,
          base: query.base,
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
    },
  }),
  route({
    method: "POST",
    pattern: "/repos/:owner/:repo/pulls",
    operation: "pulls.create",
    summary: "Create a pull request",
    resource: "PullRequest",
    // GitHub names a missing head before a missing base before a missing title.
    missingField: ["head", "base", "title"],
    params: repoParams,
    body: {
      head: z.string().min(1).describe("The branch holding the changes"),
      base: z.string().min(1).describe("The branch to merge into, usually the default branch"),
      title: z.string().min(1).describe("The pull request's title"),
      body: z.string().nullable().optional().describe('Description; "Fixes #12" links an issue'),
      draft: z.boolean().optional().describe("Open it as a draft"),
    },
    tool: { name: "create_pull_request", description: "Open a pull request that merges the `head` branch into the `base` branch." },
    handler(ctx, { body }) {
      const repo = requireWritableRepo(ctx);
      const pull = createPull(storeOf(ctx), repo, {
        title: body.title,
        body: body.body ?? null,
        head: body.head,
        base: body.base,
        draft: body.draft ?? false,
      });
      pullRequestEvent(ctx, repo, pull.number, "opened");
      const res = pullAnswer(ctx, repo, pull.number, 201);
      return { ...res, headers: { ...res.headers, location: new View(ctx).repoApi(repo, `/pulls/${pull.number}`) } };
    },
  }),
  route({
    method: "GET",
    pattern: "/repos/:owner/:repo/pulls/:pull_number",
    operation: "pulls.get",
    summary: "Get a pull request",
    params: pullParams,
    tool: {
      name: "get_pull_request",
      description: "Get one pull request: head and base branches, draft and merge state, mergeability and requested reviewers.",
    },
    handler(ctx, { params }) {
      const repo = requireRepo(ctx);
      const pull = requirePull(ctx.db, repo.id, params.pull_number);
      const format = wantsFormat(ctx);
      if (format === "patch")
        return ghError(501, "The GitHub twin does not serve pull requests in the patch format; ask for the diff format");
      if (format === "diff") {
        const c = comparePull(ctx.db, pull);
        return { status: 200, headers: { "content-type": "text/plain; charset=utf-8" }, body: c ? unifiedDiff(ctx.db, pullFiles(c)) : "" };
      }
      return pullAnswer(ctx, repo, pull.number);
    },
  }),
  route({
    method: "PATCH",
    pattern: "/repos/:owner/:repo/pulls/:pull_number",
    operation: "pulls.update",
    summary: "Update a pull request",
    resource: "PullRequest",
    missingField: ["title"],
    params: pullParams,
    body: {
      title: z.string().min(1).optional().describe("New title"),
      body: z.string().nullable().optional().describe("New description"),
      state: pullState.optional().describe("Close or reopen it"),
      base: z.string().optional().describe("New base branch"),
    },
    tool: {
      name: "update_pull_request",
      description: "Edit a pull request: title, body, base branch, or close and reopen it.",
      destructive: true,
    },
    handler(ctx, { params, body }) {
      const repo = requireWritableRepo(ctx);
      const pull = requirePull(ctx.db, repo.id, params.pull_number);
      updatePull(storeOf(ctx), repo, pull, { title: body.title, body: body.body, state: body.state, base: body.base });
      return pullAnswer(ctx, repo, pull.number);
    },
  }),
  route({
    method: "GET",
    pattern: "/repos/:owner/:repo/pulls/:pull_number/files",
    operation: "pulls.listFiles",
    summary: "List pull request files",
    params: pullParams,
    query: pageQuery,
    tool: { name: "list_pull_request_files", description: "List the files a pull request changes, with their status and patch." },
    handler(ctx, { params }) {
      const repo = requireRepo(ctx);
      const pull = requirePull(ctx.db, repo.id, params.pull_number);
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
    },
  }),
  route({
    method: "GET",
    pattern: "/repos/:owner/:repo/pulls/:pull_number/commits",
    operation: "pulls.listCommits",
    summary: "List commits on a pull request",
    params: pullParams,
    query: pageQuery,
    tool: { name: "list_pull_request_commits", description: "List the commits a pull request adds, oldest first." },
    handler(ctx, { params }) {
      const repo = requireRepo(ctx);
      const pull = requirePull(ctx.db, repo.id, params.pull_number);
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
    },
  }),
  route({
    method: "GET",
    pattern: "/repos/:owner/:repo/pulls/:pull_number/merge",
    operation: "pulls.checkIfMerged",
    summary: "Check if a pull request has been merged",
    params: pullParams,
    tool: {
      name: "check_pull_request_merged",
      description: "Check whether a pull request has been merged: success (HTTP 204) if merged, an error (404) if not.",
    },
    handler(ctx, { params }) {
      const repo = requireRepo(ctx);
      return requirePull(ctx.db, repo.id, params.pull_number).merged ? ghNoContent() : fail(ghNotFound());
    },
  }),
  route({
    method: "PUT",
    pattern: "/repos/:owner/:repo/pulls/:pull_number/merge",
    operation: "pulls.merge",
    summary: "Merge a pull request",
    resource: "PullRequest",
    params: pullParams,
    body: {
      merge_method: z.enum(MERGE_METHODS).optional().describe("How to merge (default merge)"),
      commit_title: z.string().optional().describe("Title of the merge commit"),
      commit_message: z.string().optional().describe("Extra detail for the merge commit"),
      sha: z.string().optional().describe("Merge only if the head is still at this commit SHA"),
    },
    tool: {
      name: "merge_pull_request",
      description:
        "Merge a pull request into its base branch. This cannot be undone. Check reviews (list_reviews) and CI status (get_combined_status) first when the task asks for it.",
      destructive: true,
    },
    handler(ctx, { params, body }) {
      const repo = requireWritableRepo(ctx);
      const pull = requirePull(ctx.db, repo.id, params.pull_number);
      const { sha } = mergePull(storeOf(ctx), repo, pull, {
        sha: body.sha,
        merge_method: body.merge_method ?? "merge",
        commit_title: body.commit_title,
        commit_message: body.commit_message,
      });
      pullRequestEvent(ctx, repo, pull.number, "closed");
      return ok({ sha, merged: true, message: "Pull Request successfully merged" });
    },
  }),
  route({
    method: "GET",
    pattern: "/repos/:owner/:repo/pulls/:pull_number/requested_reviewers",
    operation: "pulls.listRequestedReviewers",
    summary: "Get all requested reviewers for a pull request",
    params: pullParams,
    tool: {
      name: "list_requested_reviewers",
      description: "List the users asked to review a pull request who have not reviewed it yet.",
    },
    handler(ctx, { params }) {
      const repo = requireRepo(ctx);
      return ok(requestedReviewersObject(new View(ctx), requirePull(ctx.db, repo.id, params.pull_number)));
    },
  }),
  route({
    method: "POST",
    pattern: "/repos/:owner/:repo/pulls/:pull_number/requested_reviewers",
    operation: "pulls.requestReviewers",
    summary: "Request reviewers for a pull request",
    resource: "PullRequest",
    params: pullParams,
    body: {
      reviewers: reviewerLogins("Logins of the reviewers").optional(),
      team_reviewers: reviewerLogins("Slugs of the teams asked to review").optional(),
    },
    tool: {
      name: "request_reviewers",
      description: "Ask users or teams (by slug) to review a pull request; they appear in its requested_reviewers and requested_teams.",
    },
    handler(ctx, { params, body }) {
      const repo = requireWritableRepo(ctx);
      const pull = requirePull(ctx.db, repo.id, params.pull_number);
      requestReviewers(storeOf(ctx), repo, pull, body.reviewers ?? [], body.team_reviewers ?? []);
      return ok(pullObject(new View(ctx), repo, requirePull(ctx.db, repo.id, pull.number)), 201);
    },
  }),
  route({
    method: "DELETE",
    pattern: "/repos/:owner/:repo/pulls/:pull_number/requested_reviewers",
    operation: "pulls.removeRequestedReviewers",
    summary: "Remove requested reviewers from a pull request",
    resource: "PullRequest",
    missingField: ["reviewers"],
    params: pullParams,
    body: {
      reviewers: reviewerLogins("Logins whose review request is withdrawn"),
      team_reviewers: reviewerLogins("Slugs of the teams whose review request is withdrawn").optional(),
    },
    tool: { name: "remove_requested_reviewers", description: "Withdraw review requests from users or teams on a pull request." },
    handler(ctx, { params, body }) {
      const repo = requireWritableRepo(ctx);
      const pull = requirePull(ctx.db, repo.id, params.pull_number);
      const s = storeOf(ctx);
      removeRequestedReviewers(s, pull, body.reviewers);
      removeTeamReviews(s, repo, pull, body.team_reviewers ?? []);
      return ok(pullObject(new View(ctx), repo, requirePull(ctx.db, repo.id, pull.number)));
    },
  }),
];
