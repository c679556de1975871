// Issues: list (pull requests included and flagged), get, create, update, lock and unlock.
import type { Route, TwinContext } from "../../types";
import { jsonBody, ok, route, storeOf } from "../context";
import { ghNoContent, fail, ghValidationFailed } from "../errors";
import { labelNames, nullableString, oneOf, optNumber, optString, optStringArray, queryEnum, queryTime } from "../input";
import { pageOf, paged } from "../pagination";
import { requireRepo, requireWritableRepo, type RepoRow } from "../repos";
import { View } from "../serialize";
import { LOCK_REASONS, createIssue, listIssues, requireIssue, setLocked, updateIssue, type IssueListQuery } from "../store/issues";
import { issueList, issueObject } from "../view-issues";

/** The single-issue answer (it names who closed the issue, which lists leave out). */
function issueResponse(ctx: TwinContext, repo: RepoRow, number: number, status = 200) {
  return ok(issueObject(new View(ctx), repo, requireIssue(ctx.db, repo.id, number), undefined, { single: true }), status);
}

export const issueRoutes: readonly Route[] = [
  route("GET", "/repos/:owner/:repo/issues", "issues.listForRepo", "List repository issues", (ctx) => {
    const repo = requireRepo(ctx);
    const q = ctx.query;
    const milestone = q.get("milestone");
    const query: IssueListQuery = {
      state: queryEnum(q.get("state"), ["open", "closed", "all"] as const, "open"),
      labels: (q.get("labels") ?? "")
        .split(",")
        .map((l) => l.trim())
        .filter(Boolean),
      assignee: q.get("assignee") ?? undefined,
      creator: q.get("creator") ?? undefined,
      mentioned: q.get("mentioned") ?? undefined,
      milestone: milestone === null || milestone === "" ? undefined : milestone,
      since: queryTime(q.get("since"), "Issue", "since"),
      sort: queryEnum(q.get("sort"), ["created", "updated", "comments"] as const, "created"),
      direction: queryEnum(q.get("direction"), ["asc", "desc"] as const, "desc"),
    };
    if (query.milestone !== undefined && query.milestone !== "none" && query.milestone !== "*" && !/^\d+$/.test(query.milestone))
      fail(ghValidationFailed([{ resource: "Issue", field: "milestone", code: "invalid", value: query.milestone }]));
    const page = pageOf(ctx);
    const { rows, total } = listIssues(ctx.db, repo.id, query, page.limit, page.offset);
    return paged(ctx, issueList(new View(ctx), repo, rows), page, total, repo.id);
  }),
  route("POST", "/repos/:owner/:repo/issues", "issues.create", "Create an issue", (ctx) => {
    const repo = requireWritableRepo(ctx);
    const body = jsonBody(ctx);
    const title = body.title === undefined || body.title === null || body.title === "" ? undefined : body.title;
    if (title === undefined) fail(ghValidationFailed([{ resource: "Issue", code: "missing_field", field: "title" }]));
    const oneAssignee = optString(body, "assignee");
    const issue = createIssue(storeOf(ctx), repo, {
      title: String(title),
      body: nullableString(body, "body") ?? null,
      labels: body.labels === undefined || body.labels === null ? [] : labelNames(body.labels),
      assignees: [...(optStringArray(body, "assignees") ?? []), ...(oneAssignee ? [oneAssignee] : [])],
      milestone: optNumber(body, "milestone") ?? null,
    });
    const v = new View(ctx);
    return ok(issueObject(v, repo, issue, undefined, { single: true }), 201, { location: v.repoApi(repo, `/issues/${issue.number}`) });
  }),
  route("GET", "/repos/:owner/:repo/issues/:issue_number", "issues.get", "Get an issue", (ctx) => {
    const repo = requireRepo(ctx);
    return issueResponse(ctx, repo, Number(ctx.params.issue_number));
  }),
  route("PATCH", "/repos/:owner/:repo/issues/:issue_number", "issues.update", "Update an issue", (ctx) => {
    const repo = requireWritableRepo(ctx);
    const issue = requireIssue(ctx.db, repo.id, ctx.params.issue_number);
    const body = jsonBody(ctx);
    const title = body.title === undefined ? undefined : body.title === null ? null : String(body.title);
    if (title === null || title === "") fail(ghValidationFailed([{ resource: "Issue", code: "missing_field", field: "title" }]));
    // The deprecated single `assignee` still works; `null` unassigns everyone.
    const oneAssignee = body.assignee === undefined ? undefined : nullableString(body, "assignee");
    const assignees =
      optStringArray(body, "assignees") ?? (oneAssignee === undefined ? undefined : oneAssignee === null ? [] : [oneAssignee]);
    updateIssue(storeOf(ctx), repo, issue, {
      title: title ?? undefined,
      body: nullableString(body, "body"),
      state: oneOf(body.state, ["open", "closed"] as const, "Issue", "state"),
      state_reason:
        body.state_reason === null
          ? null
          : oneOf(body.state_reason, ["completed", "not_planned", "reopened"] as const, "Issue", "state_reason"),
      labels: body.labels === undefined ? undefined : body.labels === null ? [] : labelNames(body.labels),
      assignees,
      milestone: optNumber(body, "milestone"),
    });
    return issueResponse(ctx, repo, issue.number);
  }),
  route("PUT", "/repos/:owner/:repo/issues/:issue_number/lock", "issues.lock", "Lock an issue", (ctx) => {
    const repo = requireWritableRepo(ctx);
    const issue = requireIssue(ctx.db, repo.id, ctx.params.issue_number);
    const reason = oneOf(jsonBody(ctx).lock_reason, LOCK_REASONS, "Issue", "lock_reason");
    setLocked(storeOf(ctx), issue, true, reason ?? null);
    return ghNoContent();
  }),
  route("DELETE", "/repos/:owner/:repo/issues/:issue_number/lock", "issues.unlock", "Unlock an issue", (ctx) => {
    const repo = requireWritableRepo(ctx);
    const issue = requireIssue(ctx.db, repo.id, ctx.params.issue_number);
    setLocked(storeOf(ctx), issue, false, null);
    return ghNoContent();
  }),
];
