// Issue history (Linear's IssueHistory): each change an issue mutation makes is one entry, by the
// caller, holding IssueHistory's own fields (fromStateId/toStateId, fromAssigneeId/toAssigneeId,
// fromTeamId/toTeamId, addedLabelIds/removedLabelIds, fromTitle/toTitle, fromPriority/toPriority,
// fromEstimate/toEstimate, fromDueDate/toDueDate, fromCycleId/toCycleId, fromProjectId/
// toProjectId, fromParentId/toParentId, updatedDescription, archived, trashed). Linear also
// groups a user's changes made within a short window into one entry; the twin keeps one per call.
import type { Gql, Row } from "../context";
import type { SqlValue } from "../../types";
import { uuidFor } from "../ids";
import { nextCounter } from "../../kit/sql";
import { listOf, str, type Resolver } from "./types";

type Change = string | number | boolean | null | string[];
export type Changes = Record<string, Change>;

/** Columns of lin_issues whose change is a from/to pair in IssueHistory, by the pair's stem. */
const PAIRS: readonly [column: string, stem: string][] = [
  ["state_id", "StateId"],
  ["assignee_id", "AssigneeId"],
  ["team_id", "TeamId"],
  ["title", "Title"],
  ["priority", "Priority"],
  ["estimate", "Estimate"],
  ["due_date", "DueDate"],
  ["cycle_id", "CycleId"],
  ["project_id", "ProjectId"],
  ["parent_id", "ParentId"],
  ["delegate_id", "DelegateId"],
];

const value = (v: SqlValue | undefined): string | number | null => (typeof v === "string" || typeof v === "number" ? v : null);

/** What changed between two versions of an issue row and its labels, in IssueHistory's terms. */
export function historyChanges(before: Row, after: Row, labelsBefore: readonly string[], labelsAfter: readonly string[]): Changes {
  const changes: Changes = {};
  for (const [column, stem] of PAIRS) {
    if (value(before[column]) === value(after[column])) continue;
    changes[`from${stem}`] = value(before[column]);
    changes[`to${stem}`] = value(after[column]);
  }
  if ((before.description ?? null) !== (after.description ?? null)) changes.updatedDescription = true;
  if ((before.archived_at === null) !== (after.archived_at === null)) changes.archived = after.archived_at !== null;
  if (before.trashed !== after.trashed) changes.trashed = after.trashed === 1;
  const added = labelsAfter.filter((l) => !labelsBefore.includes(l));
  const removed = labelsBefore.filter((l) => !labelsAfter.includes(l));
  if (added.length) changes.addedLabelIds = added;
  if (removed.length) changes.removedLabelIds = removed;
  return changes;
}

/** Writes one history entry for the caller's change, if anything changed. */
export function recordHistory(gql: Gql, issueId: string, changes: Changes, at: string): void {
  if (!Object.keys(changes).length) return;
  const id = uuidFor("history", gql.sessionId, String(nextCounter(gql.db, "lin_meta", "next_id")));
  gql.db.run(
    "INSERT INTO lin_issue_history (id, issue_id, actor_id, created_at, changes) VALUES (?, ?, ?, ?, ?)",
    id,
    issueId,
    gql.viewerId,
    at,
    JSON.stringify(changes),
  );
}

const parsed = new WeakMap<Row, Changes>();
function changesOf(r: Row): Changes {
  let c = parsed.get(r);
  if (!c) {
    try {
      c = JSON.parse(String(r.changes)) as Changes;
    } catch {
      c = {};
    }
    parsed.set(r, c);
  }
  return c;
}

const idIn = (r: Row, key: string): string | null => {
  const v = changesOf(r)[key];
  return typeof v === "string" ? v : null;
};
const idsIn = (r: Row, key: string): string[] => {
  const v = changesOf(r)[key];
  return Array.isArray(v) ? v : [];
};
const field =
  (key: string): Resolver =>
  (r) =>
    changesOf(r)[key] ?? null;
const ref =
  (entity: Parameters<Gql["byId"]>[0], key: string): Resolver =>
  (r, _a, gql) =>
    gql.byId(entity, idIn(r, key)) ?? null;
const labels =
  (key: string): Resolver =>
  (r, _a, gql) => {
    const ids = idsIn(r, key);
    gql.preload("IssueLabel", ids);
    return ids.map((id) => gql.byId("IssueLabel", id)).filter((l): l is Row => l !== undefined);
  };

export const ISSUE_HISTORY_RESOLVERS: Record<string, Resolver> = {
  createdAt: (r) => r.created_at,
  updatedAt: (r) => r.created_at,
  archivedAt: () => null,
  issue: (r, _a, gql) => gql.byId("Issue", str(r.issue_id)),
  actorId: (r) => r.actor_id,
  actor: (r, _a, gql) => gql.byId("User", str(r.actor_id)) ?? null,
  actors: (r, _a, gql) => {
    const actor = gql.byId("User", str(r.actor_id));
    return actor ? [actor] : [];
  },
  fromStateId: field("fromStateId"),
  toStateId: field("toStateId"),
  fromState: ref("WorkflowState", "fromStateId"),
  toState: ref("WorkflowState", "toStateId"),
  fromAssigneeId: field("fromAssigneeId"),
  toAssigneeId: field("toAssigneeId"),
  fromAssignee: ref("User", "fromAssigneeId"),
  toAssignee: ref("User", "toAssigneeId"),
  fromTeamId: field("fromTeamId"),
  toTeamId: field("toTeamId"),
  fromTeam: ref("Team", "fromTeamId"),
  toTeam: ref("Team", "toTeamId"),
  fromCycleId: field("fromCycleId"),
  toCycleId: field("toCycleId"),
  fromCycle: ref("Cycle", "fromCycleId"),
  toCycle: ref("Cycle", "toCycleId"),
  fromProjectId: field("fromProjectId"),
  toProjectId: field("toProjectId"),
  fromProject: ref("Project", "fromProjectId"),
  toProject: ref("Project", "toProjectId"),
  fromParentId: field("fromParentId"),
  toParentId: field("toParentId"),
  fromParent: ref("Issue", "fromParentId"),
  toParent: ref("Issue", "toParentId"),
  fromDelegate: ref("User", "fromDelegateId"),
  toDelegate: ref("User", "toDelegateId"),
  fromTitle: field("fromTitle"),
  toTitle: field("toTitle"),
  fromPriority: field("fromPriority"),
  toPriority: field("toPriority"),
  fromEstimate: field("fromEstimate"),
  toEstimate: field("toEstimate"),
  fromDueDate: field("fromDueDate"),
  toDueDate: field("toDueDate"),
  updatedDescription: field("updatedDescription"),
  archived: field("archived"),
  trashed: field("trashed"),
  addedLabelIds: (r) => (idsIn(r, "addedLabelIds").length ? idsIn(r, "addedLabelIds") : null),
  removedLabelIds: (r) => (idsIn(r, "removedLabelIds").length ? idsIn(r, "removedLabelIds") : null),
  addedLabels: labels("addedLabelIds"),
  removedLabels: labels("removedLabelIds"),
};

/** Issue.history: the issue's entries, oldest first (the order Linear's activity feed reads them). */
export const issueHistory: Resolver = (r, args, gql) =>
  listOf(gql, "issue", "lin_issue_history", { ...args, filter: undefined }, ["x.issue_id = ?"], [r.id], {
    order: { column: "created_at", direction: "ASC" },
  });
