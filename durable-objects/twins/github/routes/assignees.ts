// Assignees (who may be assigned, and who is) and milestones.
import type { Route, TwinContext } from "../../types";
import { jsonBody, ok, route, storeOf } from "../context";
import { fail, ghNoContent, ghNotFound, ghValidationFailed } from "../errors";
import { nullableString, oneOf, optStringArray, optString, queryEnum } from "../input";
import { pageOf, paged } from "../pagination";
import { requireRepo, requireWritableRepo, type RepoRow } from "../repos";
import { View } from "../serialize";
import { addAssignees, assignable, assignableLogins, issueAssignees, removeAssignees } from "../store/assignees";
import { recordAssigneeChanges } from "../store/events";
import { findIssue, requireIssue, touchIssue } from "../store/issues";
import { createMilestone, deleteMilestone, listMilestones, requireMilestone, updateMilestone } from "../store/milestones";
import { issueObject, milestoneObject } from "../view-issues";

function issueAnswer(ctx: TwinContext, repo: RepoRow, number: number, status: number) {
  const issue = findIssue(ctx.db, repo.id, number) ?? fail(ghNotFound());
  return ok(issueObject(new View(ctx), repo, issue, undefined, { single: true }), status);
}

function dueOn(body: Record<string, unknown>): string | null | undefined {
  const value = nullableString(body, "due_on");
  if (value === undefined || value === null) return value;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) fail(ghValidationFailed([{ resource: "Milestone", code: "invalid", field: "due_on" }]));
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
}

export const assigneeRoutes: readonly Route[] = [
  route("GET", "/repos/:owner/:repo/assignees", "issues.listAssignees", "List assignees", (ctx) => {
    const repo = requireRepo(ctx);
    const page = pageOf(ctx);
    const v = new View(ctx);
    const all = assignableLogins(ctx.db, repo, v.actor);
    return paged(
      ctx,
      all.slice(page.offset, page.offset + page.limit).map((l) => v.user(l)),
      page,
      all.length,
      repo.id,
    );
  }),
  route("GET", "/repos/:owner/:repo/assignees/:assignee", "issues.checkUserCanBeAssigned", "Check if a user can be assigned", (ctx) => {
    const repo = requireRepo(ctx);
    return assignable(ctx.db, repo, storeOf(ctx).actor, ctx.params.assignee) ? ghNoContent() : fail(ghNotFound());
  }),
  route(
    "GET",
    "/repos/:owner/:repo/issues/:issue_number/assignees/:assignee",
    "issues.checkUserCanBeAssignedToIssue",
    "Check if a user can be assigned to an issue",
    (ctx) => {
      const repo = requireRepo(ctx);
      requireIssue(ctx.db, repo.id, ctx.params.issue_number);
      return assignable(ctx.db, repo, storeOf(ctx).actor, ctx.params.assignee) ? ghNoContent() : fail(ghNotFound());
    },
  ),
  route("POST", "/repos/:owner/:repo/issues/:issue_number/assignees", "issues.addAssignees", "Add assignees to an issue", (ctx) => {
    const repo = requireWritableRepo(ctx);
    const issue = requireIssue(ctx.db, repo.id, ctx.params.issue_number);
    const s = storeOf(ctx);
    // GitHub silently skips users who cannot be assigned here, and answers 201 all the same.
    const logins = (optStringArray(jsonBody(ctx), "assignees") ?? [])
      .map((l) => assignable(s.db, repo, s.actor, l))
      .filter((l): l is string => !!l);
    const before = issueAssignees(s.db, issue.id);
    addAssignees(s.db, repo.id, issue.id, logins);
    recordAssigneeChanges(s, issue, before, issueAssignees(s.db, issue.id));
    touchIssue(s, issue.id);
    return issueAnswer(ctx, repo, issue.number, 201);
  }),
  route(
    "DELETE",
    "/repos/:owner/:repo/issues/:issue_number/assignees",
    "issues.removeAssignees",
    "Remove assignees from an issue",
    (ctx) => {
      const repo = requireWritableRepo(ctx);
      const issue = requireIssue(ctx.db, repo.id, ctx.params.issue_number);
      const s = storeOf(ctx);
      const before = issueAssignees(s.db, issue.id);
      removeAssignees(s.db, issue.id, optStringArray(jsonBody(ctx), "assignees") ?? []);
      recordAssigneeChanges(s, issue, before, issueAssignees(s.db, issue.id));
      touchIssue(s, issue.id);
      return issueAnswer(ctx, repo, issue.number, 200);
    },
  ),
  route("GET", "/repos/:owner/:repo/milestones", "issues.listMilestones", "List milestones", (ctx) => {
    const repo = requireRepo(ctx);
    const page = pageOf(ctx);
    const { rows, total } = listMilestones(
      ctx.db,
      repo.id,
      {
        state: queryEnum(ctx.query.get("state"), ["open", "closed", "all"] as const, "open"),
        sort: queryEnum(ctx.query.get("sort"), ["due_on", "completeness"] as const, "due_on"),
        direction: queryEnum(ctx.query.get("direction"), ["asc", "desc"] as const, "asc"),
      },
      page.limit,
      page.offset,
    );
    const v = new View(ctx);
    return paged(
      ctx,
      rows.map((m) => milestoneObject(v, repo, m)),
      page,
      total,
      repo.id,
    );
  }),
  route("POST", "/repos/:owner/:repo/milestones", "issues.createMilestone", "Create a milestone", (ctx) => {
    const repo = requireWritableRepo(ctx);
    const body = jsonBody(ctx);
    const title = optString(body, "title");
    if (!title) fail(ghValidationFailed([{ resource: "Milestone", code: "missing_field", field: "title" }]));
    const m = createMilestone(storeOf(ctx), repo.id, {
      title: String(title),
      state: oneOf(body.state, ["open", "closed"] as const, "Milestone", "state"),
      description: nullableString(body, "description"),
      due_on: dueOn(body),
    });
    const out = milestoneObject(new View(ctx), repo, m);
    return ok(out, 201, { location: out.url });
  }),
  route("GET", "/repos/:owner/:repo/milestones/:milestone_number", "issues.getMilestone", "Get a milestone", (ctx) => {
    const repo = requireRepo(ctx);
    return ok(milestoneObject(new View(ctx), repo, requireMilestone(ctx.db, repo.id, ctx.params.milestone_number)));
  }),
  route("PATCH", "/repos/:owner/:repo/milestones/:milestone_number", "issues.updateMilestone", "Update a milestone", (ctx) => {
    const repo = requireWritableRepo(ctx);
    const m = requireMilestone(ctx.db, repo.id, ctx.params.milestone_number);
    const body = jsonBody(ctx);
    const updated = updateMilestone(storeOf(ctx), m, {
      title: optString(body, "title") || undefined,
      state: oneOf(body.state, ["open", "closed"] as const, "Milestone", "state"),
      description: nullableString(body, "description"),
      due_on: dueOn(body),
    });
    return ok(milestoneObject(new View(ctx), repo, updated));
  }),
  route("DELETE", "/repos/:owner/:repo/milestones/:milestone_number", "issues.deleteMilestone", "Delete a milestone", (ctx) => {
    const repo = requireWritableRepo(ctx);
    deleteMilestone(storeOf(ctx), requireMilestone(ctx.db, repo.id, ctx.params.milestone_number));
    return ghNoContent();
  }),
];
