// Assignees (who may be assigned, and who is) and milestones.
import { z } from "zod";
import type { Route, TwinContext } from "../../types";
import { ok, storeOf } from "../context";
import { direction, issueNumber, lenient, pageQuery, repoParams, route } from "../declare";
import { fail, ghNoContent, ghNotFound, ghValidationFailed } from "../errors";
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

/** A due date in GitHub's form; one that is not a date is refused naming `due_on`. */
function dueOn(value: string | null | undefined): string | null | undefined {
  if (value === undefined || value === null) return value;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) fail(ghValidationFailed([{ resource: "Milestone", code: "invalid", field: "due_on" }]));
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
}

const assignee = z.string().min(1).describe("The user's login");
const issueParams = { ...repoParams, issue_number: issueNumber };
const milestoneParams = { ...repoParams, milestone_number: z.number().int().positive().describe("The milestone's number") };
const milestoneState = z.enum(["open", "closed"]);
const milestoneFields = {
  description: z.string().nullable().optional().describe("A description"),
  due_on: z.string().nullable().optional().describe("Due date as ISO 8601, e.g. 2026-03-31T00:00:00Z, or null for none"),
};

export const assigneeRoutes: readonly Route[] = [
  route({
    method: "GET",
    pattern: "/repos/:owner/:repo/assignees",
    operation: "issues.listAssignees",
    summary: "List assignees",
    params: repoParams,
    query: pageQuery,
    tool: { name: "list_assignees", description: "List the users who can be assigned to issues in a repository." },
    handler(ctx) {
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
    },
  }),
  route({
    method: "GET",
    pattern: "/repos/:owner/:repo/assignees/:assignee",
    operation: "issues.checkUserCanBeAssigned",
    summary: "Check if a user can be assigned",
    params: { ...repoParams, assignee },
    tool: {
      name: "check_assignee",
      description: "Check whether a user can be assigned to issues in a repository: success (HTTP 204) if so, an error (404) if not.",
    },
    handler(ctx, { params }) {
      const repo = requireRepo(ctx);
      return assignable(ctx.db, repo, storeOf(ctx).actor, params.assignee) ? ghNoContent() : fail(ghNotFound());
    },
  }),
  route({
    method: "GET",
    pattern: "/repos/:owner/:repo/issues/:issue_number/assignees/:assignee",
    operation: "issues.checkUserCanBeAssignedToIssue",
    summary: "Check if a user can be assigned to an issue",
    params: { ...issueParams, assignee },
    tool: {
      name: "check_issue_assignee",
      description: "Check whether a user can be assigned to one issue: success (HTTP 204) if so, an error (404) if not.",
    },
    handler(ctx, { params }) {
      const repo = requireRepo(ctx);
      requireIssue(ctx.db, repo.id, params.issue_number);
      return assignable(ctx.db, repo, storeOf(ctx).actor, params.assignee) ? ghNoContent() : fail(ghNotFound());
    },
  }),
  route({
    method: "POST",
    pattern: "/repos/:owner/:repo/issues/:issue_number/assignees",
    operation: "issues.addAssignees",
    summary: "Add assignees to an issue",
    resource: "Issue",
    params: issueParams,
    body: { assignees: z.array(z.string()).optional().describe("Logins to add") },
    tool: {
      name: "add_assignees",
      description:
        "Add assignees to an issue or pull request, keeping the existing ones. Users who cannot be assigned are ignored, as on GitHub.",
    },
    handler(ctx, { params, body }) {
      const repo = requireWritableRepo(ctx);
      const issue = requireIssue(ctx.db, repo.id, params.issue_number);
      const s = storeOf(ctx);
      // GitHub silently skips users who cannot be assigned here, and answers 201 all the same.
      const logins = (body.assignees ?? []).map((l) => assignable(s.db, repo, s.actor, l)).filter((l): l is string => !!l);
      const before = issueAssignees(s.db, issue.id);
      addAssignees(s.db, repo.id, issue.id, logins);
      recordAssigneeChanges(s, issue, before, issueAssignees(s.db, issue.id));
      touchIssue(s, issue.id);
      return issueAnswer(ctx, repo, issue.number, 201);
    },
  }),
  route({
    method: "DELETE",
    pattern: "/repos/:owner/:repo/issues/:issue_number/assignees",
    operation: "issues.removeAssignees",
    summary: "Remove assignees from an issue",
    resource: "Issue",
    params: issueParams,
    body: { assignees: z.array(z.string()).optional().describe("Logins to remove") },
    tool: { name: "remove_assignees", description: "Remove assignees from an issue or pull request." },
    handler(ctx, { params, body }) {
      const repo = requireWritableRepo(ctx);
      const issue = requireIssue(ctx.db, repo.id, params.issue_number);
      const s = storeOf(ctx);
      const before = issueAssignees(s.db, issue.id);
      removeAssignees(s.db, issue.id, body.assignees ?? []);
      recordAssigneeChanges(s, issue, before, issueAssignees(s.db, issue.id));
      touchIssue(s, issue.id);
      return issueAnswer(ctx, repo, issue.number, 200);
    },
  }),
  route({
    method: "GET",
    pattern: "/repos/:owner/:repo/milestones",
    operation: "issues.listMilestones",
    summary: "List milestones",
    params: repoParams,
    query: {
      state: lenient(z.enum(["open", "closed", "all"])).describe("Which milestones (default open)"),
      sort: lenient(z.enum(["due_on", "completeness"])).describe("What to sort by (default due_on)"),
      direction,
      ...pageQuery,
    },
    tool: { name: "list_milestones", description: "List a repository's milestones with their open and closed issue counts." },
    handler(ctx, { query }) {
      const repo = requireRepo(ctx);
      const page = pageOf(ctx);
      const { rows, total } = listMilestones(
        ctx.db,
        repo.id,
        { state: query.state ?? "open", sort: query.sort ?? "due_on", direction: query.direction ?? "asc" },
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
    },
  }),
  route({
    method: "POST",
    pattern: "/repos/:owner/:repo/milestones",
    operation: "issues.createMilestone",
    summary: "Create a milestone",
    resource: "Milestone",
    missingField: ["title"],
    params: repoParams,
    body: {
      title: z.string().min(1).describe("The milestone's title"),
      state: milestoneState.optional().describe("Its state (default open)"),
      ...milestoneFields,
    },
    tool: { name: "create_milestone", description: "Create a milestone; attach issues to it with update_issue's `milestone`." },
    handler(ctx, { body }) {
      const repo = requireWritableRepo(ctx);
      const m = createMilestone(storeOf(ctx), repo.id, {
        title: body.title,
        state: body.state,
        description: body.description,
        due_on: dueOn(body.due_on),
      });
      const out = milestoneObject(new View(ctx), repo, m);
      return ok(out, 201, { location: out.url });
    },
  }),
  route({
    method: "GET",
    pattern: "/repos/:owner/:repo/milestones/:milestone_number",
    operation: "issues.getMilestone",
    summary: "Get a milestone",
    params: milestoneParams,
    tool: { name: "get_milestone", description: "Get one milestone by number: title, state, due date and issue counts." },
    handler(ctx, { params }) {
      const repo = requireRepo(ctx);
      return ok(milestoneObject(new View(ctx), repo, requireMilestone(ctx.db, repo.id, String(params.milestone_number))));
    },
  }),
  route({
    method: "PATCH",
    pattern: "/repos/:owner/:repo/milestones/:milestone_number",
    operation: "issues.updateMilestone",
    summary: "Update a milestone",
    resource: "Milestone",
    params: milestoneParams,
    body: {
      title: z.string().optional().describe("New title"),
      state: milestoneState.optional().describe("Close or reopen it"),
      ...milestoneFields,
    },
    tool: {
      name: "update_milestone",
      description: "Change a milestone's title, description, due date, or close and reopen it.",
      destructive: true,
    },
    handler(ctx, { params, body }) {
      const repo = requireWritableRepo(ctx);
      const m = requireMilestone(ctx.db, repo.id, String(params.milestone_number));
      const updated = updateMilestone(storeOf(ctx), m, {
        title: body.title || undefined,
        state: body.state,
        description: body.description,
        due_on: dueOn(body.due_on),
      });
      return ok(milestoneObject(new View(ctx), repo, updated));
    },
  }),
  route({
    method: "DELETE",
    pattern: "/repos/:owner/:repo/milestones/:milestone_number",
    operation: "issues.deleteMilestone",
    summary: "Delete a milestone",
    params: milestoneParams,
    tool: { name: "delete_milestone", description: "Delete a milestone; the issues attached to it are kept and lose it." },
    handler(ctx, { params }) {
      const repo = requireWritableRepo(ctx);
      deleteMilestone(storeOf(ctx), requireMilestone(ctx.db, repo.id, String(params.milestone_number)));
      return ghNoContent();
    },
  }),
];
