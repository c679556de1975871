// Repository labels and the labels on an issue.
import { z } from "zod";
import type { Route, TwinContext } from "../../types";
import { ok, storeOf } from "../context";
import { issueNumber, labelList, labelNamesOf, pageQuery, repoParams, route } from "../declare";
import { ghNoContent } from "../errors";
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

/** Adding or setting labels answers with every label now on the issue. */
function labelsOf(ctx: TwinContext, repo: RepoRow, issue: IssueRow) {
  const v = new View(ctx);
  return ok(issueLabels(ctx.db, issue.id).map((l) => labelObject(v, repo, l)));
}

const labelName = z.string().min(1).describe("The label's name");
const labelParams = { ...repoParams, name: labelName };
const issueParams = { ...repoParams, issue_number: issueNumber };
const color = z.string().optional().describe('Six hex digits without "#", e.g. "d73a4a"');

export const labelRoutes: readonly Route[] = [
  route({
    method: "GET",
    pattern: "/repos/:owner/:repo/labels",
    operation: "issues.listLabelsForRepo",
    summary: "List labels for a repository",
    params: repoParams,
    query: pageQuery,
    tool: { name: "list_labels", description: "List the labels a repository defines, with their colors and descriptions." },
    handler(ctx) {
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
    },
  }),
  route({
    method: "POST",
    pattern: "/repos/:owner/:repo/labels",
    operation: "issues.createLabel",
    summary: "Create a label",
    resource: "Label",
    missingField: ["name"],
    params: repoParams,
    body: { name: labelName, color, description: z.string().nullable().optional().describe("A short description") },
    tool: { name: "create_label", description: "Define a new label in a repository, so it can be applied to issues and pull requests." },
    handler(ctx, { body }) {
      const repo = requireWritableRepo(ctx);
      const label = createLabel(storeOf(ctx), repo.id, { name: body.name, color: body.color, description: body.description });
      const out = labelObject(new View(ctx), repo, label);
      return ok(out, 201, { location: out.url });
    },
  }),
  route({
    method: "GET",
    pattern: "/repos/:owner/:repo/labels/:name",
    operation: "issues.getLabel",
    summary: "Get a label",
    params: labelParams,
    tool: { name: "get_label", description: "Get one of a repository's labels by name: its color and description." },
    handler(ctx, { params }) {
      const repo = requireRepo(ctx);
      return ok(labelObject(new View(ctx), repo, requireLabel(ctx.db, repo.id, params.name)));
    },
  }),
  route({
    method: "PATCH",
    pattern: "/repos/:owner/:repo/labels/:name",
    operation: "issues.updateLabel",
    summary: "Update a label",
    resource: "Label",
    params: labelParams,
    body: {
      new_name: z.string().optional().describe("The new name"),
      color,
      description: z.string().nullable().optional().describe("The new description"),
    },
    tool: {
      name: "update_label",
      description: "Rename a label or change its color or description; issues keep it under its new name.",
      destructive: true,
    },
    handler(ctx, { params, body }) {
      const repo = requireWritableRepo(ctx);
      const label = requireLabel(ctx.db, repo.id, params.name);
      const updated = updateLabel(storeOf(ctx), label, {
        new_name: body.new_name || undefined,
        color: body.color,
        description: body.description,
      });
      return ok(labelObject(new View(ctx), repo, updated));
    },
  }),
  route({
    method: "DELETE",
    pattern: "/repos/:owner/:repo/labels/:name",
    operation: "issues.deleteLabel",
    summary: "Delete a label",
    params: labelParams,
    tool: { name: "delete_label", description: "Delete a label from the repository, and so from every issue that has it." },
    handler(ctx, { params }) {
      const repo = requireWritableRepo(ctx);
      deleteLabel(storeOf(ctx), requireLabel(ctx.db, repo.id, params.name));
      return ghNoContent();
    },
  }),
  route({
    method: "GET",
    pattern: "/repos/:owner/:repo/issues/:issue_number/labels",
    operation: "issues.listLabelsOnIssue",
    summary: "List labels for an issue",
    params: issueParams,
    query: pageQuery,
    tool: { name: "list_issue_labels", description: "List the labels on one issue or pull request." },
    handler(ctx, { params }) {
      const repo = requireRepo(ctx);
      const issue = requireIssue(ctx.db, repo.id, params.issue_number);
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
    },
  }),
  route({
    method: "POST",
    pattern: "/repos/:owner/:repo/issues/:issue_number/labels",
    operation: "issues.addLabels",
    summary: "Add labels to an issue",
    resource: "Label",
    params: issueParams,
    // GitHub takes `{labels: [...]}` or the bare list; at least one label (its schema's minItems).
    body: { labels: labelList("Label names to add", 1).nullable().optional() },
    bareArrayAs: "labels",
    tool: {
      name: "add_labels",
      description:
        "Add labels to an issue or pull request, keeping the ones it has. A label the repository does not define yet is created, as on GitHub.",
    },
    handler(ctx, { params, body }) {
      const repo = requireWritableRepo(ctx);
      const issue = requireIssue(ctx.db, repo.id, params.issue_number);
      const s = storeOf(ctx);
      applyLabels(s, repo.id, issue.id, labelNamesOf(body.labels ?? []), false);
      touchIssue(s, issue.id);
      return labelsOf(ctx, repo, issue);
    },
  }),
  route({
    method: "PUT",
    pattern: "/repos/:owner/:repo/issues/:issue_number/labels",
    operation: "issues.setLabels",
    summary: "Set labels for an issue",
    resource: "Label",
    params: issueParams,
    body: { labels: labelList("The complete new set of label names; none removes them all").nullable().optional() },
    bareArrayAs: "labels",
    tool: { name: "set_labels", description: "Replace all labels of an issue or pull request with the given set.", destructive: true },
    handler(ctx, { params, body }) {
      const repo = requireWritableRepo(ctx);
      const issue = requireIssue(ctx.db, repo.id, params.issue_number);
      const s = storeOf(ctx);
      applyLabels(s, repo.id, issue.id, labelNamesOf(body.labels ?? []), true);
      touchIssue(s, issue.id);
      return labelsOf(ctx, repo, issue);
    },
  }),
  route({
    method: "DELETE",
    pattern: "/repos/:owner/:repo/issues/:issue_number/labels",
    operation: "issues.removeAllLabels",
    summary: "Remove all labels from an issue",
    params: issueParams,
    tool: { name: "remove_all_labels", description: "Remove every label from an issue or pull request." },
    handler(ctx, { params }) {
      const repo = requireWritableRepo(ctx);
      const issue = requireIssue(ctx.db, repo.id, params.issue_number);
      const s = storeOf(ctx);
      applyLabels(s, repo.id, issue.id, [], true);
      touchIssue(s, issue.id);
      return ghNoContent();
    },
  }),
  route({
    method: "DELETE",
    pattern: "/repos/:owner/:repo/issues/:issue_number/labels/:name",
    operation: "issues.removeLabel",
    summary: "Remove a label from an issue",
    params: { ...issueParams, name: labelName },
    tool: {
      name: "remove_label",
      description: "Remove one label from an issue or pull request. The label stays defined in the repository.",
    },
    handler(ctx, { params }) {
      const repo = requireWritableRepo(ctx);
      const issue = requireIssue(ctx.db, repo.id, params.issue_number);
      const s = storeOf(ctx);
      removeIssueLabel(s, repo.id, issue.id, params.name);
      touchIssue(s, issue.id);
      return labelsOf(ctx, repo, issue);
    },
  }),
];
