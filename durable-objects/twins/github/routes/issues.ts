// Issues: list (pull requests included and flagged), get, create, update, lock and unlock.
import { z } from "zod";
import type { Route, TwinContext } from "../../types";
import { ok, storeOf } from "../context";
import { direction, issueNumber, labelList, labelNamesOf, lenient, pageQuery, repoParams, route, since } from "../declare";
import { ghNoContent, fail, ghValidationFailed } from "../errors";
import { queryTime } from "../input";
import { pageOf, paged } from "../pagination";
import { requireRepo, requireWritableRepo, type RepoRow } from "../repos";
import { View } from "../serialize";
import { LOCK_REASONS, createIssue, listIssues, requireIssue, setLocked, updateIssue, type IssueListQuery } from "../store/issues";
import { issueList, issueObject } from "../view-issues";
import { issueEvent } from "../webhooks";

/** The single-issue answer (it names who closed the issue, which lists leave out). */
function issueResponse(ctx: TwinContext, repo: RepoRow, number: number, status = 200) {
  return ok(issueObject(new View(ctx), repo, requireIssue(ctx.db, repo.id, number), undefined, { single: true }), status);
}

const issueParams = { ...repoParams, issue_number: issueNumber };
const lockReason = z.enum(LOCK_REASONS);

export const issueRoutes: readonly Route[] = [
  route({
    method: "GET",
    pattern: "/repos/:owner/:repo/issues",
    operation: "issues.listForRepo",
    summary: "List repository issues",
    resource: "Issue",
    params: repoParams,
    query: {
      state: lenient(z.enum(["open", "closed", "all"])).describe("Which issues (default open)"),
      labels: z.string().optional().describe('Comma-separated label names; only issues having all of them, e.g. "bug,ui"'),
      assignee: z.string().optional().describe('Login of an assignee, "none" for unassigned, "*" for any'),
      creator: z.string().optional().describe("Login of the issue's author"),
      mentioned: z.string().optional().describe("Login of a user mentioned in the issue"),
      milestone: z.string().optional().describe('A milestone number, "none" or "*"'),
      sort: lenient(z.enum(["created", "updated", "comments"])).describe("What to sort by (default created)"),
      direction,
      since,
      ...pageQuery,
    },
    tool: {
      name: "list_issues",
      description:
        "List a repository's issues, newest first. Like GitHub, the list also holds pull requests (they carry a `pull_request` key); skip those if you only want issues.",
    },
    handler(ctx, { query: q }) {
      const repo = requireRepo(ctx);
      const query: IssueListQuery = {
        state: q.state ?? "open",
        labels: (q.labels ?? "")
          .split(",")
          .map((l) => l.trim())
          .filter(Boolean),
        assignee: q.assignee,
        creator: q.creator,
        mentioned: q.mentioned,
        milestone: q.milestone === "" ? undefined : q.milestone,
        since: queryTime(q.since ?? null, "Issue", "since"),
        sort: q.sort ?? "created",
        direction: q.direction ?? "desc",
      };
      if (query.milestone !== undefined && query.milestone !== "none" && query.milestone !== "*" && !/^\d+$/.test(query.milestone))
        fail(ghValidationFailed([{ resource: "Issue", field: "milestone", code: "invalid", value: query.milestone }]));
      const page = pageOf(ctx);
      const { rows, total } = listIssues(ctx.db, repo.id, query, page.limit, page.offset);
      return paged(ctx, issueList(new View(ctx), repo, rows), page, total, repo.id);
    },
  }),
  route({
    method: "POST",
    pattern: "/repos/:owner/:repo/issues",
    operation: "issues.create",
    summary: "Create an issue",
    resource: "Issue",
    missingField: ["title"],
    params: repoParams,
    body: {
      // GitHub takes a number as a title too (its schema: string or integer).
      title: z.union([z.string().min(1), z.number()]).describe("The issue's title"),
      body: z.string().nullable().optional().describe("The issue's text, in GitHub-flavoured markdown"),
      labels: labelList("Label names to apply").nullable().optional(),
      assignees: z.array(z.string()).optional().describe("Logins to assign"),
      assignee: z.string().optional().describe("One login to assign (deprecated: use assignees)"),
      milestone: z.number().int().positive().nullable().optional().describe("Number of the milestone to attach"),
    },
    tool: { name: "create_issue", description: "Open a new issue. A label the repository does not define yet is created, as on GitHub." },
    handler(ctx, { body }) {
      const repo = requireWritableRepo(ctx);
      const issue = createIssue(storeOf(ctx), repo, {
        title: String(body.title),
        body: body.body ?? null,
        labels: labelNamesOf(body.labels ?? []),
        assignees: [...(body.assignees ?? []), ...(body.assignee ? [body.assignee] : [])],
        milestone: body.milestone ?? null,
      });
      issueEvent(ctx, repo, issue.number, null);
      const v = new View(ctx);
      return ok(issueObject(v, repo, issue, undefined, { single: true }), 201, { location: v.repoApi(repo, `/issues/${issue.number}`) });
    },
  }),
  route({
    method: "GET",
    pattern: "/repos/:owner/:repo/issues/:issue_number",
    operation: "issues.get",
    summary: "Get an issue",
    params: issueParams,
    tool: {
      name: "get_issue",
      description:
        "Get one issue (or a pull request, seen as an issue) by number: title, body, state, labels, assignees, milestone and comment count.",
    },
    handler(ctx, { params }) {
      const repo = requireRepo(ctx);
      return issueResponse(ctx, repo, params.issue_number);
    },
  }),
  route({
    method: "PATCH",
    pattern: "/repos/:owner/:repo/issues/:issue_number",
    operation: "issues.update",
    summary: "Update an issue",
    resource: "Issue",
    missingField: ["title"],
    params: issueParams,
    body: {
      title: z
        .union([z.string().min(1), z.number()])
        .optional()
        .describe("New title"),
      body: z.string().nullable().optional().describe("New body (replaces the old one)"),
      state: z.enum(["open", "closed"]).optional().describe("Close or reopen the issue"),
      state_reason: z.enum(["completed", "not_planned", "reopened"]).nullable().optional().describe("Why it was closed or reopened"),
      labels: labelList("The complete new set of label names; null removes them all").nullable().optional(),
      assignees: z.array(z.string()).optional().describe("The complete new set of assignee logins"),
      assignee: z.string().nullable().optional().describe("One login to assign, or null to unassign everyone (deprecated: use assignees)"),
      milestone: z.number().int().positive().nullable().optional().describe("Milestone number, or null to remove it"),
    },
    tool: {
      name: "update_issue",
      description:
        "Edit an issue: its title or body, close or reopen it (with a reason), or replace its labels, assignees or milestone. Only the fields you pass change; `labels` and `assignees` replace the whole list.",
      destructive: true,
    },
    handler(ctx, { params, body }) {
      const repo = requireWritableRepo(ctx);
      const issue = requireIssue(ctx.db, repo.id, params.issue_number);
      // The deprecated single `assignee` still works; `null` unassigns everyone.
      const one = body.assignee;
      const assignees = body.assignees ?? (one === undefined ? undefined : one === null ? [] : [one]);
      updateIssue(storeOf(ctx), repo, issue, {
        title: body.title === undefined ? undefined : String(body.title),
        body: body.body,
        state: body.state,
        state_reason: body.state_reason,
        labels: body.labels === undefined ? undefined : labelNamesOf(body.labels ?? []),
        assignees,
        milestone: body.milestone,
      });
      issueEvent(ctx, repo, issue.number, issue.state, body.state);
      return issueResponse(ctx, repo, issue.number);
    },
  }),
  route({
    method: "PUT",
    pattern: "/repos/:owner/:repo/issues/:issue_number/lock",
    operation: "issues.lock",
    summary: "Lock an issue",
    resource: "Issue",
    params: issueParams,
    body: { lock_reason: lockReason.optional().describe("Why it is locked") },
    tool: { name: "lock_issue", description: "Lock an issue's or pull request's conversation so only collaborators can comment." },
    handler(ctx, { params, body }) {
      const repo = requireWritableRepo(ctx);
      const issue = requireIssue(ctx.db, repo.id, params.issue_number);
      setLocked(storeOf(ctx), issue, true, body.lock_reason ?? null);
      return ghNoContent();
    },
  }),
  route({
    method: "DELETE",
    pattern: "/repos/:owner/:repo/issues/:issue_number/lock",
    operation: "issues.unlock",
    summary: "Unlock an issue",
    params: issueParams,
    // Unlocking takes nothing away.
    tool: { name: "unlock_issue", description: "Unlock an issue's or pull request's conversation.", destructive: false },
    handler(ctx, { params }) {
      const repo = requireWritableRepo(ctx);
      const issue = requireIssue(ctx.db, repo.id, params.issue_number);
      setLocked(storeOf(ctx), issue, false, null);
      return ghNoContent();
    },
  }),
];
