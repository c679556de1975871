// Administration and lookups beyond the common path: a label deleted (it leaves every issue it
// was on, and sends the IssueLabel webhook's remove), a workflow state renamed, recoloured,
// re-described or moved, and archived (refused while issues are in it or while it is its team's
// default state: Linear asks to move them first); attachments found by their URL
// (`attachmentsForURL`); and the issue a VCS branch is named for (`issueVcsBranchSearch`: the
// branch's `KEY-n`, as in Linear's own `branchName`, in any case and anywhere in the name).
import type { Gql } from "../context";
import { invalidInput } from "../errors";
import { labelEvent } from "../webhook-data";
import { resourceWebhooks } from "../webhooks";
import { has, inputOf, iso, reload, strOr, syncId } from "./mutation";
import { findIssue, mustFind } from "./query";
import { listOf, preloadIssues, type Args, type Resolver } from "./types";

function issueLabelDelete(gql: Gql, args: Args) {
  const before = mustFind(gql, "IssueLabel", String(args.id));
  const now = iso(gql);
  gql.db.run("UPDATE lin_issues SET updated_at = ? WHERE id IN (SELECT issue_id FROM lin_issue_labels WHERE label_id = ?)", now, before.id);
  gql.db.run("DELETE FROM lin_issue_labels WHERE label_id = ?", before.id);
  gql.db.run("DELETE FROM lin_labels WHERE id = ?", before.id);
  gql.forget("IssueLabel", before.id);
  resourceWebhooks(gql, "IssueLabel", "remove", labelEvent(gql, before));
  return { success: true, lastSyncId: syncId(gql), entityId: before.id };
}

function workflowStateUpdate(gql: Gql, args: Args) {
  const input = inputOf(args, "WorkflowStateUpdateInput", ["name", "color", "description", "position"]);
  const before = mustFind(gql, "WorkflowState", String(args.id));
  const name = has(input, "name") ? (strOr(input.name) ?? "") : String(before.name);
  if (!name.trim()) throw invalidInput("name must not be empty", "The state needs a name.");
  if (gql.db.one("SELECT 1 AS n FROM lin_states WHERE team_id = ? AND name = ? AND id <> ?", before.team_id, name, before.id))
    throw invalidInput(`State "${name}" already exists`, "A state with this name already exists in the team.");
  const color = has(input, "color") ? (strOr(input.color) ?? "") : String(before.color);
  if (!/^#[0-9a-fA-F]{6}$/.test(color)) throw invalidInput("color must be #rrggbb", "The color must be a hex color.");
  if (has(input, "position") && (typeof input.position !== "number" || !Number.isFinite(input.position)))
    throw invalidInput("position must be a number");
  gql.db.run(
    "UPDATE lin_states SET name = ?, color = ?, description = ?, position = ? WHERE id = ?",
    name,
    color,
    has(input, "description") ? strOr(input.description) : before.description,
    has(input, "position") ? Number(input.position) : before.position,
    before.id,
  );
  return { success: true, lastSyncId: syncId(gql), workflowState: reload(gql, "WorkflowState", before.id) };
}

function workflowStateArchive(gql: Gql, args: Args) {
  const before = mustFind(gql, "WorkflowState", String(args.id));
  if (before.archived_at === null) {
    const team = mustFind(gql, "Team", String(before.team_id));
    if (team.default_state_id === before.id)
      throw invalidInput("Cannot archive the team's default state", "Choose another default state for the team first.");
    if (gql.db.one("SELECT 1 AS n FROM lin_issues WHERE state_id = ? AND trashed = 0 LIMIT 1", before.id))
      throw invalidInput("Cannot archive a state that has issues", "Move the issues in this state to another state first.");
    gql.db.run("UPDATE lin_states SET archived_at = ? WHERE id = ?", iso(gql), before.id);
  }
  return { success: true, lastSyncId: syncId(gql), entity: reload(gql, "WorkflowState", before.id) };
}

/** Issue identifiers a branch name holds (`ada/eng-12-fix-login` holds ENG-12), first first. */
export function identifiersIn(branchName: string): string[] {
  return [...branchName.matchAll(/(?:^|[^a-z0-9])([a-z][a-z0-9]*-\d+)(?=$|[^0-9])/gi)].map((m) => (m[1] ?? "").toUpperCase());
}

export const ADMIN_QUERIES: Record<string, Resolver> = {
  attachmentsForURL: (_s, args, gql) => {
    if (typeof args.url !== "string") throw invalidInput("url is required");
    return listOf(gql, "attachment", "lin_attachments", args, ["x.url = ?"], [args.url]);
  },
  issueVcsBranchSearch: (_s, args, gql) => {
    const branch = typeof args.branchName === "string" ? args.branchName : "";
    // A branch name is short; a longer text is no branch of an issue.
    if (branch.length > 1024) return null;
    for (const identifier of identifiersIn(branch).slice(0, 16)) {
      const issue = findIssue(gql, identifier);
      if (issue && issue.trashed === 0) {
        preloadIssues(gql, [issue]);
        return issue;
      }
    }
    return null;
  },
};

export const ADMIN_MUTATIONS: Record<string, Resolver> = {
  issueLabelDelete: (_s, a, g) => issueLabelDelete(g, a),
  workflowStateUpdate: (_s, a, g) => workflowStateUpdate(g, a),
  workflowStateArchive: (_s, a, g) => workflowStateArchive(g, a),
};
