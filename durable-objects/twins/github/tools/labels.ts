// Labels (the repository's set, and those on an issue) and milestones.
import { z } from "zod";
import type { TwinTool } from "../../types";
import { bodyOf, direction, issueNumber, pageArgs, query, repoArgs, repoPath, seg, tool } from "./define";

const labelName = z.string().min(1).describe("The label's name");
const color = z
  .string()
  .regex(/^[0-9a-fA-F]{6}$/, "six hex digits")
  .optional()
  .describe('Six hex digits without "#", e.g. "d73a4a"');
const milestoneNumber = z.number().int().positive().describe("The milestone's number");
const dueOn = z.string().nullable().optional().describe("Due date as ISO 8601, e.g. 2026-03-31T00:00:00Z, or null for none");

const labelTools: readonly TwinTool[] = [
  tool({
    name: "list_labels",
    description: "List the labels a repository defines, with their colors and descriptions.",
    input: { ...repoArgs, ...pageArgs },
    readOnly: true,
    toRequest: ({ owner, repo, ...q }) => ({ method: "GET", path: repoPath({ owner, repo }, "/labels"), query: query(q) }),
  }),
  tool({
    name: "get_label",
    description: "Get one of a repository's labels by name: its color and description.",
    input: { ...repoArgs, name: labelName },
    readOnly: true,
    toRequest: (a) => ({ method: "GET", path: repoPath(a, `/labels/${seg(a.name)}`) }),
  }),
  tool({
    name: "create_label",
    description: "Define a new label in a repository, so it can be applied to issues and pull requests.",
    input: { ...repoArgs, name: labelName, color, description: z.string().max(100).optional().describe("A short description") },
    toRequest: (a) => ({ method: "POST", path: repoPath(a, "/labels"), body: bodyOf(a, ["owner", "repo"]) }),
  }),
  tool({
    name: "update_label",
    description: "Rename a label or change its color or description; issues keep it under its new name.",
    input: {
      ...repoArgs,
      name: labelName,
      new_name: z.string().min(1).optional().describe("The new name"),
      color,
      description: z.string().max(100).optional().describe("The new description"),
    },
    destructive: true,
    toRequest: (a) => ({ method: "PATCH", path: repoPath(a, `/labels/${seg(a.name)}`), body: bodyOf(a, ["owner", "repo", "name"]) }),
  }),
  tool({
    name: "delete_label",
    description: "Delete a label from the repository, and so from every issue that has it.",
    input: { ...repoArgs, name: labelName },
    destructive: true,
    toRequest: (a) => ({ method: "DELETE", path: repoPath(a, `/labels/${seg(a.name)}`) }),
  }),
  tool({
    name: "list_issue_labels",
    description: "List the labels on one issue or pull request.",
    input: { ...repoArgs, issue_number: issueNumber, ...pageArgs },
    readOnly: true,
    toRequest: ({ owner, repo, issue_number, ...q }) => ({
      method: "GET",
      path: repoPath({ owner, repo }, `/issues/${issue_number}/labels`),
      query: query(q),
    }),
  }),
  tool({
    name: "add_labels",
    description:
      "Add labels to an issue or pull request, keeping the ones it has. A label the repository does not define yet is created, as on GitHub.",
    input: { ...repoArgs, issue_number: issueNumber, labels: z.array(z.string().min(1)).min(1).describe("Label names to add") },
    toRequest: (a) => ({ method: "POST", path: repoPath(a, `/issues/${a.issue_number}/labels`), body: { labels: a.labels } }),
  }),
  tool({
    name: "set_labels",
    description: "Replace all labels of an issue or pull request with the given set.",
    input: { ...repoArgs, issue_number: issueNumber, labels: z.array(z.string().min(1)).describe("The complete new set of label names") },
    destructive: true,
    toRequest: (a) => ({ method: "PUT", path: repoPath(a, `/issues/${a.issue_number}/labels`), body: { labels: a.labels } }),
  }),
  tool({
    name: "remove_label",
    description: "Remove one label from an issue or pull request. The label stays defined in the repository.",
    input: { ...repoArgs, issue_number: issueNumber, name: labelName },
    destructive: true,
    toRequest: (a) => ({ method: "DELETE", path: repoPath(a, `/issues/${a.issue_number}/labels/${seg(a.name)}`) }),
  }),
  tool({
    name: "remove_all_labels",
    description: "Remove every label from an issue or pull request.",
    input: { ...repoArgs, issue_number: issueNumber },
    destructive: true,
    toRequest: (a) => ({ method: "DELETE", path: repoPath(a, `/issues/${a.issue_number}/labels`) }),
  }),
];

const milestoneTools: readonly TwinTool[] = [
  tool({
    name: "list_milestones",
    description: "List a repository's milestones with their open and closed issue counts.",
    input: {
      ...repoArgs,
      state: z.enum(["open", "closed", "all"]).optional().describe("Which milestones (default open)"),
      sort: z.enum(["due_on", "completeness"]).optional().describe("What to sort by (default due_on)"),
      direction,
      ...pageArgs,
    },
    readOnly: true,
    toRequest: ({ owner, repo, ...q }) => ({ method: "GET", path: repoPath({ owner, repo }, "/milestones"), query: query(q) }),
  }),
  tool({
    name: "get_milestone",
    description: "Get one milestone by number: title, state, due date and issue counts.",
    input: { ...repoArgs, milestone_number: milestoneNumber },
    readOnly: true,
    toRequest: (a) => ({ method: "GET", path: repoPath(a, `/milestones/${a.milestone_number}`) }),
  }),
  tool({
    name: "create_milestone",
    description: "Create a milestone; attach issues to it with update_issue's `milestone`.",
    input: {
      ...repoArgs,
      title: z.string().min(1).describe("The milestone's title"),
      state: z.enum(["open", "closed"]).optional().describe("Its state (default open)"),
      description: z.string().optional().describe("A description"),
      due_on: dueOn,
    },
    toRequest: (a) => ({ method: "POST", path: repoPath(a, "/milestones"), body: bodyOf(a, ["owner", "repo"]) }),
  }),
  tool({
    name: "update_milestone",
    description: "Change a milestone's title, description, due date, or close and reopen it.",
    input: {
      ...repoArgs,
      milestone_number: milestoneNumber,
      title: z.string().min(1).optional().describe("New title"),
      state: z.enum(["open", "closed"]).optional().describe("Close or reopen it"),
      description: z.string().optional().describe("New description"),
      due_on: dueOn,
    },
    destructive: true,
    toRequest: (a) => ({
      method: "PATCH",
      path: repoPath(a, `/milestones/${a.milestone_number}`),
      body: bodyOf(a, ["owner", "repo", "milestone_number"]),
    }),
  }),
  tool({
    name: "delete_milestone",
    description: "Delete a milestone; the issues attached to it are kept and lose it.",
    input: { ...repoArgs, milestone_number: milestoneNumber },
    destructive: true,
    toRequest: (a) => ({ method: "DELETE", path: repoPath(a, `/milestones/${a.milestone_number}`) }),
  }),
];

export const labelAndMilestoneTools: readonly TwinTool[] = [...labelTools, ...milestoneTools];
