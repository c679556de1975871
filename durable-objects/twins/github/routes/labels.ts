// Repository labels and the labels on an issue.
import type { Route, TwinContext } from "../../types";
import { jsonBody, jsonValue, ok, route, storeOf } from "../context";
import { fail, ghNoContent, ghValidationFailed } from "../errors";
import { labelNames, nullableString, optString } from "../input";
import { pageOf, paged } from "../pagination";
import { requireRepo, requireWritableRepo, type RepoRow } from "../repos";
import { View } from "../serialize";
import { touchIssue, requireIssue } from "../store/issues";
import {
  applyLabels,
  createLabel,
  deleteLabel,
  issueLabels,
  listRepoLabels,
  removeIssueLabel,
  requireLabel,
  updateLabel,
} from "../store/labels";
import type { IssueRow } from "../store/rows";
import { labelObject } from "../view-issues";

/** The labels to add or set: `{labels: [...]}`, a bare array, or `{labels: [{name}]}`. */
function requestedLabels(ctx: TwinContext): string[] {
  const value = jsonValue(ctx);
  if (value === undefined) return [];
  if (Array.isArray(value)) return labelNames(value);
  if (value && typeof value === "object") {
    const labels = (value as Record<string, unknown>).labels;
    return labels === undefined || labels === null ? [] : labelNames(labels);
  }
  return fail(ghValidationFailed([{ resource: "Label", code: "invalid", field: "labels" }]));
}

/** Adding or setting labels answers with every label now on the issue. */
function labelsOf(ctx: TwinContext, repo: RepoRow, issue: IssueRow) {
  const v = new View(ctx);
  return ok(issueLabels(ctx.db, issue.id).map((l) => labelObject(v, repo, l)));
}

export const labelRoutes: readonly Route[] = [
  route("GET", "/repos/:owner/:repo/labels", "issues.listLabelsForRepo", "List labels for a repository", (ctx) => {
    const repo = requireRepo(ctx);
    const page = pageOf(ctx);
    const { rows, total } = listRepoLabels(ctx.db, repo.id, page.limit, page.offset);
    const v = new View(ctx);
    return paged(
      ctx,
      rows.map((l) => labelObject(v, repo, l)),
      page,
      total,
      repo.id,
    );
  }),
  route("POST", "/repos/:owner/:repo/labels", "issues.createLabel", "Create a label", (ctx) => {
    const repo = requireWritableRepo(ctx);
    const body = jsonBody(ctx);
    const name = optString(body, "name");
    if (!name) fail(ghValidationFailed([{ resource: "Label", code: "missing_field", field: "name" }]));
    const label = createLabel(storeOf(ctx), repo.id, {
      name: String(name),
      color: optString(body, "color"),
      description: nullableString(body, "description"),
    });
    const out = labelObject(new View(ctx), repo, label);
    return ok(out, 201, { location: out.url });
  }),
  route("GET", "/repos/:owner/:repo/labels/:name", "issues.getLabel", "Get a label", (ctx) => {
    const repo = requireRepo(ctx);
    return ok(labelObject(new View(ctx), repo, requireLabel(ctx.db, repo.id, ctx.params.name)));
  }),
  route("PATCH", "/repos/:owner/:repo/labels/:name", "issues.updateLabel", "Update a label", (ctx) => {
    const repo = requireWritableRepo(ctx);
    const label = requireLabel(ctx.db, repo.id, ctx.params.name);
    const body = jsonBody(ctx);
    const updated = updateLabel(storeOf(ctx), label, {
      new_name: optString(body, "new_name") || undefined,
      color: optString(body, "color"),
      description: nullableString(body, "description"),
    });
    return ok(labelObject(new View(ctx), repo, updated));
  }),
  route("DELETE", "/repos/:owner/:repo/labels/:name", "issues.deleteLabel", "Delete a label", (ctx) => {
    const repo = requireWritableRepo(ctx);
    deleteLabel(storeOf(ctx), requireLabel(ctx.db, repo.id, ctx.params.name));
    return ghNoContent();
  }),
  route("GET", "/repos/:owner/:repo/issues/:issue_number/labels", "issues.listLabelsOnIssue", "List labels for an issue", (ctx) => {
    const repo = requireRepo(ctx);
    const issue = requireIssue(ctx.db, repo.id, ctx.params.issue_number);
    const page = pageOf(ctx);
    const all = issueLabels(ctx.db, issue.id);
    const v = new View(ctx);
    return paged(
      ctx,
      all.slice(page.offset, page.offset + page.limit).map((l) => labelObject(v, repo, l)),
      page,
      all.length,
      repo.id,
    );
  }),
  route("POST", "/repos/:owner/:repo/issues/:issue_number/labels", "issues.addLabels", "Add labels to an issue", (ctx) => {
    const repo = requireWritableRepo(ctx);
    const issue = requireIssue(ctx.db, repo.id, ctx.params.issue_number);
    const s = storeOf(ctx);
    applyLabels(s, repo.id, issue.id, requestedLabels(ctx), false);
    touchIssue(s, issue.id);
    return labelsOf(ctx, repo, issue);
  }),
  route("PUT", "/repos/:owner/:repo/issues/:issue_number/labels", "issues.setLabels", "Set labels for an issue", (ctx) => {
    const repo = requireWritableRepo(ctx);
    const issue = requireIssue(ctx.db, repo.id, ctx.params.issue_number);
    const s = storeOf(ctx);
    applyLabels(s, repo.id, issue.id, requestedLabels(ctx), true);
    touchIssue(s, issue.id);
    return labelsOf(ctx, repo, issue);
  }),
  route("DELETE", "/repos/:owner/:repo/issues/:issue_number/labels", "issues.removeAllLabels", "Remove all labels from an issue", (ctx) => {
    const repo = requireWritableRepo(ctx);
    const issue = requireIssue(ctx.db, repo.id, ctx.params.issue_number);
    const s = storeOf(ctx);
    applyLabels(s, repo.id, issue.id, [], true);
    touchIssue(s, issue.id);
    return ghNoContent();
  }),
  route("DELETE", "/repos/:owner/:repo/issues/:issue_number/labels/:name", "issues.removeLabel", "Remove a label from an issue", (ctx) => {
    const repo = requireWritableRepo(ctx);
    const issue = requireIssue(ctx.db, repo.id, ctx.params.issue_number);
    const s = storeOf(ctx);
    removeIssueLabel(s, repo.id, issue.id, ctx.params.name);
    touchIssue(s, issue.id);
    return labelsOf(ctx, repo, issue);
  }),
];
