// Sub-issues: list an issue's sub-issues, add one (by its id, not its number, as GitHub takes it),
// remove one, move one within the list, and read an issue's parent. Each write answers with the
// parent issue (issues/add-sub-issue 201, remove-sub-issue and reprioritize-sub-issue 200).
import { z } from "zod";
import type { Route, TwinContext } from "../../types";
import { ok } from "../context";
import { issueNumber, pageQuery, repoParams, route } from "../declare";
import { fail, ghNotFound } from "../errors";
import { pageOf, paged } from "../pagination";
import { requireRepo, type RepoRow } from "../repos";
import { View } from "../serialize";
import { requireIssue } from "../store/issues";
import type { IssueRow } from "../store/rows";
import { addSubIssue, findIssueById, parentLink, removeSubIssue, reprioritize, subIssuesOf } from "../store/sub-issues";
import { issueObject } from "../view-issues";

const issueParams = { ...repoParams, issue_number: issueNumber };
const subIssueId = z.number().int().positive().describe("The sub-issue's id (the issue's `id` field, not its number)");

/** The issue a path names, which must be an issue: pull requests have no sub-issues. */
function parentIssue(ctx: TwinContext, number: number): { repo: RepoRow; issue: IssueRow } {
  const repo = requireRepo(ctx);
  const issue = requireIssue(ctx.db, repo.id, number);
  if (issue.is_pull) fail(ghNotFound());
  return { repo, issue };
}

/** An issue as GitHub answers it, in its own repository (a sub-issue may live in a sibling repository). */
function issueAnswer(v: View, issue: IssueRow) {
  const repo = v.repoRow(issue.repo_id) ?? fail(ghNotFound());
  return issueObject(v, repo, issue);
}

/** The parent, re-read after a write, as the write's answer. */
const parentAnswer = (ctx: TwinContext, parent: IssueRow, status = 200) =>
  ok(issueAnswer(new View(ctx), findIssueById(ctx.db, parent.id) ?? parent), status);

export const subIssueRoutes: readonly Route[] = [
  route({
    method: "GET",
    pattern: "/repos/:owner/:repo/issues/:issue_number/sub_issues",
    operation: "issues.listSubIssues",
    summary: "List sub-issues",
    params: issueParams,
    query: pageQuery,
    tool: { name: "list_sub_issues", description: "List an issue's sub-issues in their priority order." },
    handler(ctx, { params }) {
      const { issue } = parentIssue(ctx, params.issue_number);
      const page = pageOf(ctx);
      const rows = subIssuesOf(ctx.db, issue.id, page.limit, page.offset);
      const total = ctx.db.one<{ n: number }>("SELECT count(*) AS n FROM gh_sub_issues WHERE parent_id = ?", issue.id)?.n ?? 0;
      const v = new View(ctx);
      return paged(
        ctx,
        rows.map((row) => issueAnswer(v, row)),
        page,
        total,
        issue.repo_id,
      );
    },
  }),
  route({
    method: "POST",
    pattern: "/repos/:owner/:repo/issues/:issue_number/sub_issues",
    operation: "issues.addSubIssue",
    summary: "Add sub-issue",
    resource: "Issue",
    params: issueParams,
    body: {
      sub_issue_id: subIssueId,
      replace_parent: z.boolean().optional().describe("Move the issue here even when it already has another parent"),
    },
    tool: {
      name: "add_sub_issue",
      description: "Make an issue (by its id) a sub-issue of this one; it must be in a repository of the same owner.",
    },
    handler(ctx, { params, body }) {
      const { issue } = parentIssue(ctx, params.issue_number);
      addSubIssue(ctx.db, issue, body.sub_issue_id, body.replace_parent ?? false);
      return parentAnswer(ctx, issue, 201);
    },
  }),
  route({
    method: "DELETE",
    pattern: "/repos/:owner/:repo/issues/:issue_number/sub_issue",
    operation: "issues.removeSubIssue",
    summary: "Remove sub-issue",
    resource: "Issue",
    params: issueParams,
    body: { sub_issue_id: subIssueId },
    tool: { name: "remove_sub_issue", description: "Remove a sub-issue (by its id) from this issue; the issue itself stays." },
    handler(ctx, { params, body }) {
      const { issue } = parentIssue(ctx, params.issue_number);
      removeSubIssue(ctx.db, issue, body.sub_issue_id);
      return parentAnswer(ctx, issue);
    },
  }),
  route({
    method: "PATCH",
    pattern: "/repos/:owner/:repo/issues/:issue_number/sub_issues/priority",
    operation: "issues.reprioritizeSubIssue",
    summary: "Reprioritize sub-issue",
    resource: "Issue",
    params: issueParams,
    body: {
      sub_issue_id: subIssueId,
      after_id: z.number().int().positive().optional().describe("Place it right after this sub-issue (by id)"),
      before_id: z.number().int().positive().optional().describe("Place it right before this sub-issue (by id)"),
    },
    tool: {
      name: "reprioritize_sub_issue",
      description: "Move a sub-issue within its parent's list, right after after_id or right before before_id.",
    },
    handler(ctx, { params, body }) {
      const { issue } = parentIssue(ctx, params.issue_number);
      reprioritize(ctx.db, issue, body.sub_issue_id, { afterId: body.after_id, beforeId: body.before_id });
      return parentAnswer(ctx, issue);
    },
  }),
  route({
    method: "GET",
    pattern: "/repos/:owner/:repo/issues/:issue_number/parent",
    operation: "issues.getParent",
    summary: "Get parent issue",
    params: issueParams,
    tool: { name: "get_parent_issue", description: "Get the issue this issue is a sub-issue of." },
    handler(ctx, { params }) {
      const repo = requireRepo(ctx);
      const issue = requireIssue(ctx.db, repo.id, params.issue_number);
      const link = parentLink(ctx.db, issue.id) ?? fail(ghNotFound());
      const parent = findIssueById(ctx.db, link.parent_id) ?? fail(ghNotFound());
      return ok(issueAnswer(new View(ctx), parent));
    },
  }),
];
