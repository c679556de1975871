// Linear's mutations the twin serves. Each checks its input the way Linear does (unknown
// references are "Entity not found", values out of range are invalid input), changes the world,
// bumps the workspace's sync id, queues webhooks for registered endpoints, and answers the
// payload the SDK expects (`success`, `lastSyncId`, the entity). An input field Linear accepts
// but the twin does not act on refuses the call (501) rather than being dropped.
import type { Gql, Row } from "../context";
import { Unsupported, entityNotFound, forbidden, invalidInput } from "../errors";
import { nextCounter } from "../../kit/sql";
import { uuidFor } from "../ids";
import { RELATION_TYPES, WEBHOOK_RESOURCE_TYPES, estimateScale, type EstimationType } from "../seed";
import { issueWebhooks, commentWebhooks, resourceWebhooks } from "../webhooks";
import { attachmentEvent, cycleEvent, labelEvent, projectEvent, reactionEvent } from "../webhook-data";
import { notifyOthers } from "../notifications";
import { historyChanges, recordHistory } from "./history";
import { findIssue, findTeam, mustFind } from "./query";
import { str, type Args, type Resolver } from "./types";

export const iso = (gql: Gql) => new Date(gql.clock.now()).toISOString();

export function inputOf(args: Args, typeName: string, allowed: readonly string[]): Record<string, unknown> {
  const input = args.input;
  if (typeof input !== "object" || input === null || Array.isArray(input)) throw invalidInput(`${typeName} is required`);
  const record = input as Record<string, unknown>;
  for (const [k, v] of Object.entries(record))
    if (v !== undefined && !allowed.includes(k)) throw new Unsupported(`the input field \`${typeName}.${k}\``);
  return record;
}

export const has = (o: Record<string, unknown>, k: string) => Object.hasOwn(o, k) && o[k] !== undefined;
export const strOr = (v: unknown, fallback: string | null = null): string | null => (typeof v === "string" ? v : fallback);

/** The workspace's sync id after this mutation: bumped only when the mutation changed something. */
export function syncId(gql: Gql): number {
  if (gql.db.rowsWritten === gql.writesAtStart) {
    const row = gql.db.one<{ value: string }>("SELECT value FROM lin_meta WHERE key = 'last_sync_id'");
    return Number(row?.value ?? 1000);
  }
  return nextCounter(gql.db, "lin_meta", "last_sync_id", 1000) + 1;
}

/** An id for a new object: the client's own UUID when it sent one, else the world's next. */
export function newId(gql: Gql, given: unknown): string {
  if (typeof given === "string") {
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(given)) throw invalidInput("id must be a UUID");
    return given.toLowerCase();
  }
  return uuidFor("created", gql.sessionId, String(nextCounter(gql.db, "lin_meta", "next_id")));
}

export function userRef(gql: Gql, id: unknown, field: string): string | null {
  if (id === null) return null;
  if (typeof id !== "string") throw invalidInput(`${field} must be a string`);
  const row = gql.byId("User", id) ?? (id === "me" ? gql.byId("User", gql.viewerId) : undefined);
  if (!row) throw entityNotFound("User");
  return row.id;
}

export function stateOfTeam(gql: Gql, teamId: string, stateId: unknown): Row {
  if (typeof stateId !== "string") throw invalidInput("stateId must be a string");
  const st = gql.byId("WorkflowState", stateId);
  if (!st) throw entityNotFound("WorkflowState");
  if (st.team_id !== teamId)
    throw invalidInput("Workflow state does not belong to the issue's team", "The state must belong to the issue's team.");
  return st;
}

export function labelsForTeam(gql: Gql, teamId: string, ids: unknown): string[] {
  if (!Array.isArray(ids)) throw invalidInput("labelIds must be a list");
  return ids.map((id) => {
    const l = typeof id === "string" ? gql.byId("IssueLabel", id) : undefined;
    if (!l) throw entityNotFound("IssueLabel");
    if (l.team_id !== null && l.team_id !== teamId)
      throw invalidInput("Label does not belong to the issue's team", "The label must belong to the issue's team or the workspace.");
    return l.id;
  });
}

export function checkEstimate(gql: Gql, team: Row, estimate: unknown): number | null {
  if (estimate === null) return null;
  if (typeof estimate !== "number") throw invalidInput("estimate must be a number");
  const scale = estimateScale(String(team.estimation_type) as EstimationType);
  if (!scale.includes(estimate))
    throw invalidInput(
      `Estimate ${estimate} is not valid for the team's estimation scale`,
      "The estimate is not on the team's estimation scale.",
    );
  return estimate;
}

export function checkPriority(p: unknown): number {
  if (typeof p !== "number" || !Number.isInteger(p) || p < 0 || p > 4)
    throw invalidInput("priority must be between 0 and 4", "Priority must be between 0 (none) and 4 (low).");
  return p;
}

/** started/completed/canceled timestamps for a move into `type`, given what the issue had. */
function stateTimes(
  type: string,
  now: string,
  prev: { started_at: string | null; completed_at: string | null; canceled_at: string | null },
) {
  switch (type) {
    case "started":
      return { started_at: prev.started_at ?? now, completed_at: null, canceled_at: null };
    case "completed":
      return { started_at: prev.started_at ?? now, completed_at: prev.completed_at ?? now, canceled_at: null };
    case "canceled":
      return { started_at: prev.started_at, completed_at: null, canceled_at: prev.canceled_at ?? now };
    default:
      return { started_at: null, completed_at: null, canceled_at: null };
  }
}

export function subscribe(gql: Gql, issueId: string, userId: string | null) {
  if (!userId) return;
  // Most writers already follow the issue: a key lookup is cheaper than an insert that is ignored.
  if (gql.db.one("SELECT 1 AS n FROM lin_subscribers WHERE issue_id = ? AND user_id = ?", issueId, userId)) return;
  gql.db.run(
    "INSERT OR IGNORE INTO lin_subscribers (issue_id, user_id, position) VALUES (?, ?, (SELECT coalesce(max(position), -1) + 1 FROM lin_subscribers WHERE issue_id = ?))",
    issueId,
    userId,
    issueId,
  );
}

export function setLabels(gql: Gql, issueId: string, labelIds: string[]) {
  gql.db.run("DELETE FROM lin_issue_labels WHERE issue_id = ?", issueId);
  [...new Set(labelIds)].forEach((l, i) =>
    gql.db.run("INSERT INTO lin_issue_labels (issue_id, label_id, position) VALUES (?, ?, ?)", issueId, l, i),
  );
}

export function currentLabels(gql: Gql, issueId: string): string[] {
  return gql.db
    .all<{ label_id: string }>("SELECT label_id FROM lin_issue_labels WHERE issue_id = ? ORDER BY position", issueId)
    .map((r) => r.label_id);
}

export function reload(gql: Gql, entity: Parameters<Gql["forget"]>[0], id: string): Row {
  gql.forget(entity, id);
  return mustFind(gql, entity, id);
}

/** The row an `INSERT … RETURNING *` gave back, cached for the call as `reload` would have read it. */
function inserted(gql: Gql, entity: Parameters<Gql["forget"]>[0], row: Row | undefined): Row {
  if (!row) throw new Error(`the ${entity} insert returned no row`);
  gql.forget(entity, row.id);
  gql.prime(entity, [row]);
  return row;
}

export function projectForTeam(gql: Gql, teamId: string, projectId: unknown): string | null {
  if (projectId === null) return null;
  const p = typeof projectId === "string" ? gql.byId("Project", projectId) : undefined;
  if (!p) throw entityNotFound("Project");
  if (!gql.db.one("SELECT 1 AS n FROM lin_project_teams WHERE project_id = ? AND team_id = ?", p.id, teamId)) {
    throw invalidInput("Project is not associated with the issue's team", "The project must include the issue's team.");
  }
  return p.id;
}

export function cycleForTeam(gql: Gql, teamId: string, cycleId: unknown): string | null {
  if (cycleId === null) return null;
  const c = typeof cycleId === "string" ? gql.byId("Cycle", cycleId) : undefined;
  if (!c) throw entityNotFound("Cycle");
  if (c.team_id !== teamId) throw invalidInput("Cycle does not belong to the issue's team", "The cycle must belong to the issue's team.");
  return c.id;
}

export function parentRef(gql: Gql, issueId: string | null, parentId: unknown): string | null {
  if (parentId === null) return null;
  const p = typeof parentId === "string" ? findIssue(gql, parentId) : undefined;
  if (!p) throw entityNotFound("Issue");
  // A parent may not be the issue itself or one of its descendants.
  for (let cur: Row | undefined = p, steps = 0; cur && steps < 1000; cur = gql.byId("Issue", str(cur.parent_id)), steps++) {
    if (cur.id === issueId) throw invalidInput("An issue cannot be its own ancestor", "This would create a sub-issue cycle.");
  }
  return p.id;
}

export const ISSUE_CREATE_FIELDS = [
  "teamId",
  "title",
  "description",
  "stateId",
  "assigneeId",
  "priority",
  "estimate",
  "labelIds",
  "projectId",
  "cycleId",
  "parentId",
  "dueDate",
  "subscriberIds",
  "id",
  "sortOrder",
  "createdAt",
  "projectMilestoneId",
] as const;
const ISSUE_UPDATE_FIELDS = [
  "title",
  "description",
  "stateId",
  "assigneeId",
  "priority",
  "estimate",
  "labelIds",
  "addedLabelIds",
  "removedLabelIds",
  "projectId",
  "cycleId",
  "parentId",
  "dueDate",
  "subscriberIds",
  "sortOrder",
  "trashed",
  "teamId",
  "snoozedUntilAt",
  "snoozedById",
  "delegateId",
  "projectMilestoneId",
] as const;

export function issueCreate(gql: Gql, args: Args) {
  const issue = createIssue(gql, inputOf(args, "IssueCreateInput", ISSUE_CREATE_FIELDS));
  return { success: true, lastSyncId: syncId(gql), issue };
}

/** The number the team's next issue takes (never cached: each new issue moves it on). */
function teamNextNumber(gql: Gql, teamId: string): number {
  return gql.db.one<{ n: number }>("SELECT next_number AS n FROM lin_teams WHERE id = ?", teamId)?.n ?? 1;
}

/** Checks one IssueCreateInput and creates the issue (issueCreate, issueBatchCreate). */
export function createIssue(gql: Gql, input: Record<string, unknown>): Row {
  const team = typeof input.teamId === "string" ? findTeam(gql, input.teamId) : undefined;
  if (!team) throw entityNotFound("Team");
  const title = strOr(input.title);
  if (!title?.trim()) throw invalidInput("title must not be empty", "The issue needs a title.");
  const st = has(input, "stateId") ? stateOfTeam(gql, team.id, input.stateId) : gql.byId("WorkflowState", str(team.default_state_id));
  if (!st) throw invalidInput("The team has no default state");
  const now = has(input, "createdAt") ? String(input.createdAt) : iso(gql);
  const id = newId(gql, input.id);
  // Read afresh: the team row may be cached from earlier in this call (issueBatchCreate).
  const number = teamNextNumber(gql, team.id);
  gql.db.run("UPDATE lin_teams SET next_number = next_number + 1 WHERE id = ?", team.id);
  const times = stateTimes(String(st.type), now, { started_at: null, completed_at: null, canceled_at: null });
  const assignee = has(input, "assigneeId") ? userRef(gql, input.assigneeId, "assigneeId") : null;
  gql.db.run(
    `INSERT INTO lin_issues (id, team_id, number, identifier, title, description, state_id, priority, estimate, assignee_id, creator_id, project_id,
       cycle_id, parent_id, due_date, created_at, updated_at, started_at, completed_at, canceled_at, archived_at, trashed, sort_order)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, 0, ?)`,
    id,
    team.id,
    number,
    `${String(team.key)}-${number}`,
    title,
    strOr(input.description),
    st.id,
    has(input, "priority") ? checkPriority(input.priority) : 0,
    has(input, "estimate") ? checkEstimate(gql, team, input.estimate) : null,
    assignee,
    gql.viewerId,
    has(input, "projectId") ? projectForTeam(gql, team.id, input.projectId) : null,
    has(input, "cycleId") ? cycleForTeam(gql, team.id, input.cycleId) : null,
    has(input, "parentId") ? parentRef(gql, null, input.parentId) : null,
    strOr(input.dueDate),
    now,
    now,
    times.started_at,
    times.completed_at,
    times.canceled_at,
    typeof input.sortOrder === "number" ? input.sortOrder : -number,
  );
  if (has(input, "labelIds")) setLabels(gql, id, labelsForTeam(gql, team.id, input.labelIds));
  if (has(input, "projectMilestoneId")) {
    const sets: string[] = [];
    const params: (string | number | null)[] = [];
    setMilestone(
      gql,
      input,
      { id, project_id: has(input, "projectId") ? String(input.projectId) : null, project_milestone_id: null },
      team,
      (c, v) => {
        sets.push(`${c} = ?`);
        params.push(v);
      },
    );
    gql.db.run(`UPDATE lin_issues SET ${sets.join(", ")} WHERE id = ?`, ...params, id);
  }
  // Linear subscribes the creator and the assignee to a new issue.
  subscribe(gql, id, gql.viewerId);
  subscribe(gql, id, assignee);
  notifyOthers(gql, { kind: "assigned", issueId: id, assigneeId: assignee });
  notifyOthers(gql, { kind: "described", issueId: id, text: strOr(input.description) });
  if (Array.isArray(input.subscriberIds)) for (const s of input.subscriberIds) subscribe(gql, id, userRef(gql, s, "subscriberIds"));
  const issue = reload(gql, "Issue", id);
  issueWebhooks(gql, "create", issue);
  return issue;
}

/** Records one column an update writes and its value (the UPDATE's SET list, in order). */
type SetColumn = (col: string, v: string | number | null) => void;

export function issueUpdate(gql: Gql, args: Args) {
  const input = inputOf(args, "IssueUpdateInput", ISSUE_UPDATE_FIELDS);
  const before = mustFind(gql, "Issue", String(args.id), "Issue");
  const labelsAtStart = currentLabels(gql, before.id);
  const sets: string[] = [];
  const params: (string | number | null)[] = [];
  const set: SetColumn = (col, v) => {
    sets.push(`${col} = ?`);
    params.push(v);
  };
  const now = iso(gql);
  // Moving team first: the input's state, labels, cycle and project are the new team's.
  const move = has(input, "teamId") ? teamMove(gql, before, input) : undefined;
  const team = move?.team ?? mustFind(gql, "Team", String(before.team_id));
  if (move) for (const [col, v] of Object.entries(move.sets)) set(col, v);
  const assignee = setIssueFields(gql, input, before, team, now, set);
  const labels = nextLabels(gql, team.id, input, move ? move.labels : labelsAtStart);
  const labelsChanged = labels.join(",") !== labelsAtStart.join(",");
  if (labelsChanged) setLabels(gql, before.id, labels);
  if (sets.length) {
    set("updated_at", now);
    gql.db.run(`UPDATE lin_issues SET ${sets.join(", ")} WHERE id = ?`, ...params, before.id);
  } else if (labelsChanged) {
    gql.db.run("UPDATE lin_issues SET updated_at = ? WHERE id = ?", now, before.id);
  }
  if (assignee) subscribe(gql, before.id, assignee);
  if (assignee !== undefined && assignee !== before.assignee_id)
    notifyOthers(gql, { kind: "assigned", issueId: before.id, assigneeId: assignee });
  if (has(input, "description"))
    notifyOthers(gql, { kind: "described", issueId: before.id, text: strOr(input.description), before: str(before.description) });
  if (Array.isArray(input.subscriberIds)) {
    gql.db.run("DELETE FROM lin_subscribers WHERE issue_id = ?", before.id);
    for (const s of input.subscriberIds) subscribe(gql, before.id, userRef(gql, s, "subscriberIds"));
  }
  if (move) gql.db.run("INSERT OR IGNORE INTO lin_former_identifiers (identifier, issue_id) VALUES (?, ?)", before.identifier, before.id);
  const issue = reload(gql, "Issue", before.id);
  recordHistory(gql, before.id, historyChanges(before, issue, labelsAtStart, currentLabels(gql, before.id)), now);
  issueWebhooks(gql, "update", issue, before);
  return { success: true, lastSyncId: syncId(gql), issue };
}

/**
 * Checks and records the issue's own columns the input changes, in the order Linear's checks
 * answer. Returns the new assignee when the input names one (undefined when it does not).
 */
function setIssueFields(
  gql: Gql,
  input: Record<string, unknown>,
  before: Row,
  team: Row,
  now: string,
  set: SetColumn,
): string | null | undefined {
  if (has(input, "title")) {
    const t = strOr(input.title);
    if (!t?.trim()) throw invalidInput("title must not be empty", "The issue needs a title.");
    set("title", t);
  }
  if (has(input, "description")) set("description", strOr(input.description));
  if (has(input, "stateId")) setState(gql, before, team, input.stateId, now, set);
  let assignee: string | null | undefined;
  if (has(input, "assigneeId")) {
    assignee = userRef(gql, input.assigneeId, "assigneeId");
    set("assignee_id", assignee);
  }
  if (has(input, "priority")) set("priority", checkPriority(input.priority));
  if (has(input, "estimate")) set("estimate", checkEstimate(gql, team, input.estimate));
  if (has(input, "projectId")) set("project_id", projectForTeam(gql, team.id, input.projectId));
  if (has(input, "projectMilestoneId") || has(input, "projectId")) setMilestone(gql, input, before, team, set);
  if (has(input, "cycleId")) set("cycle_id", cycleForTeam(gql, team.id, input.cycleId));
  if (has(input, "parentId")) set("parent_id", parentRef(gql, before.id, input.parentId));
  if (has(input, "dueDate")) set("due_date", strOr(input.dueDate));
  if (has(input, "sortOrder")) set("sort_order", typeof input.sortOrder === "number" ? input.sortOrder : 0);
  if (has(input, "trashed")) {
    set("trashed", input.trashed === true ? 1 : 0);
    set("archived_at", input.trashed === true ? now : null);
  }
  if (has(input, "snoozedUntilAt")) setSnooze(gql, input, set);
  if (has(input, "snoozedById")) set("snoozed_by_id", userRef(gql, input.snoozedById, "snoozedById"));
  if (has(input, "delegateId")) set("delegate_id", userRef(gql, input.delegateId, "delegateId"));
  return assignee;
}

/**
 * An issue's project milestone: one of the issue's project's. Naming a milestone for an issue
 * without a project puts the issue in the milestone's project (which must include its team); a
 * new project drops a milestone of the old one.
 */
function setMilestone(gql: Gql, input: Record<string, unknown>, before: Row, team: Row, set: SetColumn): void {
  const projectId = has(input, "projectId") ? (input.projectId === null ? null : String(input.projectId)) : str(before.project_id);
  const project = projectId === null ? undefined : gql.byId("Project", projectId);
  if (!has(input, "projectMilestoneId")) {
    const current = gql.byId("ProjectMilestone", str(before.project_milestone_id));
    if (current && current.project_id !== project?.id) set("project_milestone_id", null);
    return;
  }
  if (input.projectMilestoneId === null) {
    set("project_milestone_id", null);
    return;
  }
  const m = typeof input.projectMilestoneId === "string" ? gql.byId("ProjectMilestone", input.projectMilestoneId) : undefined;
  if (!m) throw entityNotFound("ProjectMilestone");
  if (!project && !has(input, "projectId")) set("project_id", projectForTeam(gql, team.id, m.project_id));
  else if (m.project_id !== project?.id)
    throw invalidInput("Project milestone does not belong to the issue's project", "The milestone must belong to the issue's project.");
  set("project_milestone_id", m.id);
}

/** A new workflow state of the issue's team; a change of state moves the started/completed/canceled times. */
function setState(gql: Gql, before: Row, team: Row, stateId: unknown, now: string, set: SetColumn): void {
  const st = stateOfTeam(gql, team.id, stateId);
  set("state_id", st.id);
  if (st.id !== before.state_id) {
    const t = stateTimes(String(st.type), now, {
      started_at: str(before.started_at),
      completed_at: str(before.completed_at),
      canceled_at: str(before.canceled_at),
    });
    set("started_at", t.started_at);
    set("completed_at", t.completed_at);
    set("canceled_at", t.canceled_at);
  }
}

/** Snoozing until a date-time (null wakes the issue). */
function setSnooze(gql: Gql, input: Record<string, unknown>, set: SetColumn): void {
  const until = input.snoozedUntilAt === null ? null : strOr(input.snoozedUntilAt);
  if (until !== null && Number.isNaN(Date.parse(until))) throw invalidInput("snoozedUntilAt must be a date-time");
  set("snoozed_until_at", until);
  // Linear records who snoozed: the caller unless snoozedById says otherwise.
  if (!has(input, "snoozedById")) set("snoozed_by_id", until === null ? null : gql.viewerId);
}

/** The issue's labels after the input: `labelIds` replaces them, then `addedLabelIds` and `removedLabelIds` apply. */
function nextLabels(gql: Gql, teamId: string, input: Record<string, unknown>, current: string[]): string[] {
  let labels = current;
  if (has(input, "labelIds")) labels = labelsForTeam(gql, teamId, input.labelIds);
  if (has(input, "addedLabelIds")) labels = [...labels, ...labelsForTeam(gql, teamId, input.addedLabelIds)];
  if (has(input, "removedLabelIds")) {
    const removed = new Set(labelsForTeam(gql, teamId, input.removedLabelIds));
    labels = labels.filter((l) => !removed.has(l));
  }
  return labels;
}

/**
 * An issue moving to another team, as Linear does it: a new number and identifier in the new
 * team (the old identifier keeps finding the issue), the state of the same name in the new team
 * (else its first state of the same type, else its default), the labels of the same name (team
 * labels the new team lacks are dropped; workspace labels stay), out of the old team's cycle.
 * A state, labels or cycle the input gives are checked against the new team by the caller.
 */
function teamMove(gql: Gql, before: Row, input: Record<string, unknown>) {
  const target = typeof input.teamId === "string" ? findTeam(gql, input.teamId) : undefined;
  if (!target) throw entityNotFound("Team");
  const labels = currentLabels(gql, before.id);
  if (target.id === before.team_id) return { team: target, sets: {}, labels };
  const sets: Record<string, string | number | null> = {};
  const number = teamNextNumber(gql, target.id);
  gql.db.run("UPDATE lin_teams SET next_number = next_number + 1 WHERE id = ?", target.id);
  sets.team_id = target.id;
  sets.number = number;
  sets.identifier = `${String(target.key)}-${number}`;
  if (!has(input, "stateId")) {
    const old = gql.byId("WorkflowState", str(before.state_id));
    const state =
      gql.db.one<Row>("SELECT * FROM lin_states WHERE team_id = ? AND name = ?", target.id, String(old?.name ?? "")) ??
      gql.db.one<Row>(
        "SELECT * FROM lin_states WHERE team_id = ? AND type = ? ORDER BY position LIMIT 1",
        target.id,
        String(old?.type ?? ""),
      ) ??
      gql.byId("WorkflowState", str(target.default_state_id));
    if (!state) throw invalidInput("The team has no workflow state to move the issue to");
    sets.state_id = state.id;
  }
  if (!has(input, "cycleId")) sets.cycle_id = null;
  const kept: string[] = [];
  for (const id of labels) {
    const label = gql.byId("IssueLabel", id);
    if (!label) continue;
    if (label.team_id === null) kept.push(id);
    else {
      const same = gql.db.one<Row>("SELECT * FROM lin_labels WHERE team_id = ? AND name = ?", target.id, String(label.name));
      if (same) kept.push(same.id);
    }
  }
  // A project stays on the issue; the project then includes the new team (Linear adds it).
  if (!has(input, "projectId") && before.project_id !== null)
    gql.db.run(
      "INSERT OR IGNORE INTO lin_project_teams (project_id, team_id, position) VALUES (?, ?, (SELECT count(*) FROM lin_project_teams WHERE project_id = ?))",
      before.project_id,
      target.id,
      before.project_id,
    );
  return { team: target, sets, labels: kept };
}

function archiveLike(gql: Gql, args: Args, kind: "archive" | "unarchive" | "delete") {
  const before = mustFind(gql, "Issue", String(args.id), "Issue");
  const now = iso(gql);
  if (kind === "delete" && args.permanentlyDelete === true) {
    const viewer = mustFind(gql, "User", gql.viewerId);
    if (viewer.admin !== 1) throw forbidden("Only admins can permanently delete issues");
    for (const sql of [
      "DELETE FROM lin_issue_labels WHERE issue_id = ?",
      "DELETE FROM lin_subscribers WHERE issue_id = ?",
      "DELETE FROM lin_comments WHERE issue_id = ?",
      "DELETE FROM lin_relations WHERE issue_id = ?1 OR related_issue_id = ?1",
      "DELETE FROM lin_attachments WHERE issue_id = ?",
      "DELETE FROM lin_reactions WHERE issue_id = ?",
      "DELETE FROM lin_notifications WHERE issue_id = ?",
      "DELETE FROM lin_issue_history WHERE issue_id = ?",
      "DELETE FROM lin_former_identifiers WHERE issue_id = ?",
      "UPDATE lin_issues SET parent_id = NULL WHERE parent_id = ?",
      "DELETE FROM lin_issues WHERE id = ?",
    ])
      gql.db.run(sql, before.id);
    issueWebhooks(gql, "remove", before);
    return { success: true, lastSyncId: syncId(gql), entity: null };
  }
  if (kind === "unarchive")
    gql.db.run("UPDATE lin_issues SET archived_at = NULL, trashed = 0, updated_at = ? WHERE id = ?", now, before.id);
  else {
    const trash = kind === "delete" || args.trash === true;
    gql.db.run(
      "UPDATE lin_issues SET archived_at = ?, trashed = ?, updated_at = ? WHERE id = ?",
      now,
      trash ? 1 : before.trashed,
      now,
      before.id,
    );
  }
  const issue = reload(gql, "Issue", before.id);
  issueWebhooks(gql, kind === "delete" ? "remove" : "update", issue, before);
  return { success: true, lastSyncId: syncId(gql), entity: issue };
}

function labelEdit(gql: Gql, args: Args, add: boolean) {
  const before = mustFind(gql, "Issue", String(args.id), "Issue");
  const label = typeof args.labelId === "string" ? gql.byId("IssueLabel", args.labelId) : undefined;
  if (!label) throw entityNotFound("IssueLabel");
  const labels = currentLabels(gql, before.id);
  if (add && label.team_id !== null && label.team_id !== before.team_id)
    throw invalidInput("Label does not belong to the issue's team", "The label must belong to the issue's team or the workspace.");
  const changed = add !== labels.includes(label.id);
  if (changed) {
    setLabels(gql, before.id, add ? [...labels, label.id] : labels.filter((l) => l !== label.id));
    gql.db.run("UPDATE lin_issues SET updated_at = ? WHERE id = ?", iso(gql), before.id);
  }
  const issue = reload(gql, "Issue", before.id);
  issueWebhooks(gql, "update", issue, before);
  return { success: true, lastSyncId: syncId(gql), issue };
}

function commentCreate(gql: Gql, args: Args) {
  const input = inputOf(args, "CommentCreateInput", ["issueId", "body", "parentId", "id", "createdAt", "doNotSubscribeToIssue"]);
  const issue = typeof input.issueId === "string" ? findIssue(gql, input.issueId) : undefined;
  if (!issue) throw entityNotFound("Issue");
  const body = strOr(input.body);
  if (!body?.trim()) throw invalidInput("body must not be empty", "The comment needs a body.");
  let parent: string | null = null;
  if (has(input, "parentId")) {
    const p = typeof input.parentId === "string" ? gql.byId("Comment", input.parentId) : undefined;
    if (!p) throw entityNotFound("Comment");
    if (p.issue_id !== issue.id)
      throw invalidInput("Parent comment belongs to another issue", "The parent comment must be on the same issue.");
    // Threads are one level deep: a reply to a reply joins its thread.
    parent = str(p.parent_id) ?? p.id;
  }
  const id = newId(gql, input.id);
  const now = has(input, "createdAt") ? String(input.createdAt) : iso(gql);
  const comment = inserted(
    gql,
    "Comment",
    gql.db.one<Row>(
      "INSERT INTO lin_comments (id, issue_id, parent_id, user_id, body, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING *",
      id,
      issue.id,
      parent,
      gql.viewerId,
      body,
      now,
      now,
    ),
  );
  if (input.doNotSubscribeToIssue !== true) subscribe(gql, issue.id, gql.viewerId);
  commentWebhooks(gql, "create", comment, issue);
  notifyOthers(gql, { kind: "commented", issueId: issue.id, commentId: comment.id, text: body });
  return { success: true, lastSyncId: syncId(gql), comment };
}

function commentUpdate(gql: Gql, args: Args) {
  const input = inputOf(args, "CommentUpdateInput", ["body"]);
  const before = mustFind(gql, "Comment", String(args.id));
  if (before.user_id !== gql.viewerId) throw forbidden("You can only edit your own comments");
  const body = strOr(input.body);
  if (body !== null) {
    if (!body.trim()) throw invalidInput("body must not be empty", "The comment needs a body.");
    const now = iso(gql);
    gql.db.run(
      "UPDATE lin_comments SET body = ?, updated_at = ?, edited_at = ? WHERE id = ?",
      body,
      now,
      args.skipEditedAt === true ? before.edited_at : now,
      before.id,
    );
  }
  const comment = reload(gql, "Comment", before.id);
  commentWebhooks(gql, "update", comment, mustFind(gql, "Issue", String(comment.issue_id)), before);
  return { success: true, lastSyncId: syncId(gql), comment };
}

function commentDelete(gql: Gql, args: Args) {
  const before = mustFind(gql, "Comment", String(args.id));
  if (before.user_id !== gql.viewerId && mustFind(gql, "User", gql.viewerId).admin !== 1)
    throw forbidden("You can only delete your own comments");
  gql.db.run("DELETE FROM lin_reactions WHERE comment_id IN (SELECT id FROM lin_comments WHERE id = ?1 OR parent_id = ?1)", before.id);
  gql.db.run("DELETE FROM lin_notifications WHERE comment_id IN (SELECT id FROM lin_comments WHERE id = ?1 OR parent_id = ?1)", before.id);
  gql.db.run("DELETE FROM lin_comments WHERE id = ?1 OR parent_id = ?1", before.id);
  commentWebhooks(gql, "remove", before, mustFind(gql, "Issue", String(before.issue_id)));
  return { success: true, lastSyncId: syncId(gql), entityId: before.id };
}

function labelNameTaken(gql: Gql, name: string, teamId: string | null, except?: string): boolean {
  // Team labels may not repeat a workspace label, and workspace labels may not repeat any label.
  const row =
    teamId === null
      ? gql.db.one("SELECT 1 AS n FROM lin_labels WHERE lower(name) = lower(?) AND id <> ?", name, except ?? "")
      : gql.db.one(
          "SELECT 1 AS n FROM lin_labels WHERE lower(name) = lower(?) AND (team_id = ? OR team_id IS NULL) AND id <> ?",
          name,
          teamId,
          except ?? "",
        );
  return row !== undefined;
}

function issueLabelCreate(gql: Gql, args: Args) {
  const input = inputOf(args, "IssueLabelCreateInput", ["name", "color", "description", "teamId", "id"]);
  if (args.replaceTeamLabels === true) throw new Unsupported("`issueLabelCreate(replaceTeamLabels: true)`");
  const name = strOr(input.name) ?? "";
  if (!name.trim()) throw invalidInput("name must not be empty", "The label needs a name.");
  const team = has(input, "teamId") ? findTeam(gql, String(input.teamId)) : undefined;
  if (has(input, "teamId") && !team) throw entityNotFound("Team");
  const teamId = team?.id ?? null;
  if (labelNameTaken(gql, name, teamId)) throw invalidInput(`Label "${name}" already exists`, "A label with this name already exists.");
  const color = strOr(input.color) ?? "#bec2c8";
  if (!/^#[0-9a-fA-F]{6}$/.test(color)) throw invalidInput("color must be #rrggbb", "The color must be a hex color.");
  const id = newId(gql, input.id);
  const now = iso(gql);
  gql.db.run(
    "INSERT INTO lin_labels (id, team_id, name, color, description, creator_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    id,
    teamId,
    name,
    color,
    strOr(input.description),
    gql.viewerId,
    now,
    now,
  );
  const issueLabel = reload(gql, "IssueLabel", id);
  resourceWebhooks(gql, "IssueLabel", "create", labelEvent(gql, issueLabel));
  return { success: true, lastSyncId: syncId(gql), issueLabel };
}

function issueLabelUpdate(gql: Gql, args: Args) {
  const input = inputOf(args, "IssueLabelUpdateInput", ["name", "color", "description"]);
  if (args.replaceTeamLabels === true) throw new Unsupported("`issueLabelUpdate(replaceTeamLabels: true)`");
  const before = mustFind(gql, "IssueLabel", String(args.id));
  const name = has(input, "name") ? (strOr(input.name) ?? "") : String(before.name);
  if (!name.trim()) throw invalidInput("name must not be empty", "The label needs a name.");
  if (labelNameTaken(gql, name, str(before.team_id), before.id))
    throw invalidInput(`Label "${name}" already exists`, "A label with this name already exists.");
  const color = has(input, "color") ? (strOr(input.color) ?? "") : String(before.color);
  if (!/^#[0-9a-fA-F]{6}$/.test(color)) throw invalidInput("color must be #rrggbb", "The color must be a hex color.");
  gql.db.run(
    "UPDATE lin_labels SET name = ?, color = ?, description = ?, updated_at = ? WHERE id = ?",
    name,
    color,
    has(input, "description") ? strOr(input.description) : before.description,
    iso(gql),
    before.id,
  );
  const issueLabel = reload(gql, "IssueLabel", before.id);
  resourceWebhooks(gql, "IssueLabel", "update", { ...labelEvent(gql, issueLabel), before: labelEvent(gql, before).data });
  return { success: true, lastSyncId: syncId(gql), issueLabel };
}

function issueRelationCreate(gql: Gql, args: Args) {
  const input = inputOf(args, "IssueRelationCreateInput", ["issueId", "relatedIssueId", "type", "id"]);
  if (args.overrideCreatedAt != null) throw new Unsupported("`issueRelationCreate(overrideCreatedAt:)`");
  const issue = findIssue(gql, String(input.issueId));
  const related = findIssue(gql, String(input.relatedIssueId));
  if (!issue || !related) throw entityNotFound("Issue");
  if (issue.id === related.id) throw invalidInput("An issue cannot be related to itself", "An issue cannot be related to itself.");
  if (!RELATION_TYPES.includes(String(input.type) as (typeof RELATION_TYPES)[number])) throw invalidInput("Invalid relation type");
  if (
    gql.db.one(
      "SELECT 1 AS n FROM lin_relations WHERE (issue_id = ?1 AND related_issue_id = ?2) OR (issue_id = ?2 AND related_issue_id = ?1)",
      issue.id,
      related.id,
    )
  ) {
    throw invalidInput("These issues are already related", "These issues are already related.");
  }
  const id = newId(gql, input.id);
  gql.db.run(
    "INSERT INTO lin_relations (id, issue_id, related_issue_id, type, created_at) VALUES (?, ?, ?, ?, ?)",
    id,
    issue.id,
    related.id,
    String(input.type),
    iso(gql),
  );
  return { success: true, lastSyncId: syncId(gql), issueRelation: reload(gql, "IssueRelation", id) };
}

function issueRelationDelete(gql: Gql, args: Args) {
  const rel = mustFind(gql, "IssueRelation", String(args.id));
  gql.db.run("DELETE FROM lin_relations WHERE id = ?", rel.id);
  return { success: true, lastSyncId: syncId(gql), entityId: rel.id };
}

function reactionCreate(gql: Gql, args: Args) {
  const input = inputOf(args, "ReactionCreateInput", ["emoji", "issueId", "commentId", "id"]);
  const emoji = strOr(input.emoji) ?? "";
  if (!emoji.trim()) throw invalidInput("emoji must not be empty");
  const issue = has(input, "issueId") ? findIssue(gql, String(input.issueId)) : undefined;
  const comment = has(input, "commentId") ? gql.byId("Comment", String(input.commentId)) : undefined;
  if (has(input, "issueId") && !issue) throw entityNotFound("Issue");
  if (has(input, "commentId") && !comment) throw entityNotFound("Comment");
  if (!issue && !comment) throw invalidInput("A reaction needs an issueId or a commentId", "Choose what to react to.");
  const id = newId(gql, input.id);
  gql.db.run(
    "INSERT INTO lin_reactions (id, issue_id, comment_id, user_id, emoji, created_at) VALUES (?, ?, ?, ?, ?, ?)",
    id,
    issue?.id ?? null,
    comment?.id ?? null,
    gql.viewerId,
    emoji,
    iso(gql),
  );
  const reaction = reload(gql, "Reaction", id);
  resourceWebhooks(gql, "Reaction", "create", reactionEvent(gql, reaction));
  return { success: true, lastSyncId: syncId(gql), reaction };
}

/** Linear keeps one attachment per URL on an issue: attaching the same URL again updates it. */
function upsertAttachment(gql: Gql, issueRef: unknown, url: unknown, title: string | null, subtitle: string | null, given: unknown) {
  const issue = typeof issueRef === "string" ? findIssue(gql, issueRef) : undefined;
  if (!issue) throw entityNotFound("Issue");
  if (typeof url !== "string" || !URL.canParse(url)) throw invalidInput("url must be a valid URL", "The attachment needs a valid URL.");
  const now = iso(gql);
  const existing = gql.db.one<Row>("SELECT * FROM lin_attachments WHERE issue_id = ? AND url = ?", issue.id, url);
  if (existing) {
    gql.db.run(
      "UPDATE lin_attachments SET title = ?, subtitle = ?, updated_at = ? WHERE id = ?",
      title ?? existing.title,
      subtitle ?? existing.subtitle,
      now,
      existing.id,
    );
    const attachment = reload(gql, "Attachment", existing.id);
    resourceWebhooks(gql, "Attachment", "update", { ...attachmentEvent(gql, attachment), before: attachmentEvent(gql, existing).data });
    return { success: true, lastSyncId: syncId(gql), attachment };
  }
  const id = newId(gql, given);
  gql.db.run(
    "INSERT INTO lin_attachments (id, issue_id, title, subtitle, url, creator_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    id,
    issue.id,
    title ?? url,
    subtitle,
    url,
    gql.viewerId,
    now,
    now,
  );
  const attachment = reload(gql, "Attachment", id);
  resourceWebhooks(gql, "Attachment", "create", attachmentEvent(gql, attachment));
  return { success: true, lastSyncId: syncId(gql), attachment };
}

function attachmentCreate(gql: Gql, args: Args) {
  const input = inputOf(args, "AttachmentCreateInput", ["issueId", "title", "subtitle", "url", "id"]);
  const title = strOr(input.title);
  if (!title?.trim()) throw invalidInput("title must not be empty", "The attachment needs a title.");
  return upsertAttachment(gql, input.issueId, input.url, title, strOr(input.subtitle), input.id);
}

function attachmentLinkURL(gql: Gql, args: Args) {
  for (const k of ["createAsUser", "displayIconUrl"]) if (args[k] != null) throw new Unsupported(`\`attachmentLinkURL(${k}:)\``);
  return upsertAttachment(gql, args.issueId, args.url, strOr(args.title), null, args.id);
}

const PROJECT_STATES = ["backlog", "planned", "started", "paused", "completed", "canceled"];

function projectTeams(gql: Gql, ids: unknown): string[] {
  if (!Array.isArray(ids) || !ids.length) throw invalidInput("teamIds must name at least one team", "A project needs at least one team.");
  return ids.map((t) => {
    const team = typeof t === "string" ? findTeam(gql, t) : undefined;
    if (!team) throw entityNotFound("Team");
    return team.id;
  });
}

function setProjectTeams(gql: Gql, projectId: string, teamIds: string[]) {
  gql.db.run("DELETE FROM lin_project_teams WHERE project_id = ?", projectId);
  [...new Set(teamIds)].forEach((t, i) =>
    gql.db.run("INSERT INTO lin_project_teams (project_id, team_id, position) VALUES (?, ?, ?)", projectId, t, i),
  );
}

function projectCreate(gql: Gql, args: Args) {
  const input = inputOf(args, "ProjectCreateInput", ["name", "description", "teamIds", "leadId", "id"]);
  for (const k of ["slackChannelName", "aiConversationId", "projectDraftId"])
    if (args[k] != null) throw new Unsupported(`\`projectCreate(${k}:)\``);
  const name = strOr(input.name) ?? "";
  if (!name.trim()) throw invalidInput("name must not be empty", "The project needs a name.");
  const teams = projectTeams(gql, input.teamIds);
  const id = newId(gql, input.id);
  const now = iso(gql);
  gql.db.run(
    "INSERT INTO lin_projects (id, name, description, state, lead_id, created_at, updated_at) VALUES (?, ?, ?, 'backlog', ?, ?, ?)",
    id,
    name,
    strOr(input.description) ?? "",
    has(input, "leadId") ? userRef(gql, input.leadId, "leadId") : null,
    now,
    now,
  );
  setProjectTeams(gql, id, teams);
  const project = reload(gql, "Project", id);
  resourceWebhooks(gql, "Project", "create", projectEvent(gql, project));
  return { success: true, lastSyncId: syncId(gql), project };
}

function projectUpdate(gql: Gql, args: Args) {
  const input = inputOf(args, "ProjectUpdateInput", ["name", "description", "teamIds", "leadId", "completedAt", "canceledAt"]);
  const before = mustFind(gql, "Project", String(args.id));
  const name = has(input, "name") ? (strOr(input.name) ?? "") : String(before.name);
  if (!name.trim()) throw invalidInput("name must not be empty", "The project needs a name.");
  let state = String(before.state);
  if (has(input, "completedAt")) state = input.completedAt === null ? "started" : "completed";
  if (has(input, "canceledAt")) state = input.canceledAt === null ? "started" : "canceled";
  if (!PROJECT_STATES.includes(state)) state = "planned";
  gql.db.run(
    "UPDATE lin_projects SET name = ?, description = ?, lead_id = ?, state = ?, updated_at = ? WHERE id = ?",
    name,
    has(input, "description") ? (strOr(input.description) ?? "") : before.description,
    has(input, "leadId") ? userRef(gql, input.leadId, "leadId") : before.lead_id,
    state,
    iso(gql),
    before.id,
  );
  const teamsBefore = projectEvent(gql, before).data;
  if (has(input, "teamIds")) setProjectTeams(gql, before.id, projectTeams(gql, input.teamIds));
  const project = reload(gql, "Project", before.id);
  resourceWebhooks(gql, "Project", "update", { ...projectEvent(gql, project), before: teamsBefore });
  return { success: true, lastSyncId: syncId(gql), project };
}

function cycleCreate(gql: Gql, args: Args) {
  const input = inputOf(args, "CycleCreateInput", ["teamId", "startsAt", "endsAt", "name", "id", "description", "completedAt"]);
  const team = findTeam(gql, String(input.teamId));
  if (!team) throw entityNotFound("Team");
  const startsAt = String(input.startsAt);
  const endsAt = String(input.endsAt);
  if (!(Date.parse(endsAt) > Date.parse(startsAt)))
    throw invalidInput("endsAt must be after startsAt", "A cycle must end after it starts.");
  const overlap = gql.db.one(
    "SELECT 1 AS n FROM lin_cycles WHERE team_id = ? AND julianday(starts_at) < julianday(?) AND julianday(ends_at) > julianday(?)",
    team.id,
    endsAt,
    startsAt,
  );
  if (overlap) throw invalidInput("Cycle overlaps an existing cycle", "The cycle overlaps another cycle of this team.");
  const number = (gql.db.one<{ n: number | null }>("SELECT max(number) AS n FROM lin_cycles WHERE team_id = ?", team.id)?.n ?? 0) + 1;
  const id = newId(gql, input.id);
  gql.db.run(
    `INSERT INTO lin_cycles (id, team_id, number, name, starts_at, ends_at, created_at, updated_at, description, completed_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    id,
    team.id,
    number,
    strOr(input.name),
    startsAt,
    endsAt,
    iso(gql),
    iso(gql),
    strOr(input.description),
    strOr(input.completedAt),
  );
  const cycle = reload(gql, "Cycle", id);
  resourceWebhooks(gql, "Cycle", "create", cycleEvent(gql, cycle));
  return { success: true, lastSyncId: syncId(gql), cycle };
}

function workflowStateCreate(gql: Gql, args: Args) {
  const input = inputOf(args, "WorkflowStateCreateInput", ["teamId", "name", "type", "color", "position", "description", "id"]);
  const team = findTeam(gql, String(input.teamId));
  if (!team) throw entityNotFound("Team");
  const name = strOr(input.name) ?? "";
  const type = String(input.type);
  if (!name.trim()) throw invalidInput("name must not be empty", "The state needs a name.");
  // WorkflowStateCreateInput.type (@linear/sdk schema): "Valid values: backlog, unstarted, started,
  // completed, canceled" — a triage state comes with a team's triage, not from this mutation.
  if (!["backlog", "unstarted", "started", "completed", "canceled"].includes(type))
    throw invalidInput(`Invalid state type "${type}"`, "The state type is not valid.");
  if (gql.db.one("SELECT 1 AS n FROM lin_states WHERE team_id = ? AND name = ?", team.id, name))
    throw invalidInput(`State "${name}" already exists`, "A state with this name already exists in the team.");
  const color = String(input.color);
  if (!/^#[0-9a-fA-F]{6}$/.test(color)) throw invalidInput("color must be #rrggbb", "The color must be a hex color.");
  const position =
    typeof input.position === "number"
      ? input.position
      : (gql.db.one<{ n: number | null }>("SELECT max(position) AS n FROM lin_states WHERE team_id = ?", team.id)?.n ?? -1) + 1;
  const id = newId(gql, input.id);
  gql.db.run(
    "INSERT INTO lin_states (id, team_id, name, type, color, position, description, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    id,
    team.id,
    name,
    type,
    color,
    position,
    strOr(input.description),
    iso(gql),
  );
  return { success: true, lastSyncId: syncId(gql), workflowState: reload(gql, "WorkflowState", id) };
}

function subscription(gql: Gql, args: Args, on: boolean) {
  const issue = mustFind(gql, "Issue", String(args.id), "Issue");
  let user = gql.viewerId;
  if (typeof args.userId === "string") user = userRef(gql, args.userId, "userId") ?? user;
  if (typeof args.userEmail === "string") {
    const row = gql.db.one<Row>("SELECT * FROM lin_users WHERE email = ?", args.userEmail);
    if (!row) throw entityNotFound("User");
    user = row.id;
  }
  if (on) subscribe(gql, issue.id, user);
  else gql.db.run("DELETE FROM lin_subscribers WHERE issue_id = ? AND user_id = ?", issue.id, user);
  return { success: true, lastSyncId: syncId(gql), issue: reload(gql, "Issue", issue.id) };
}

function resourceTypes(v: unknown): string[] {
  if (!Array.isArray(v) || !v.length) throw invalidInput("resourceTypes must name at least one resource type");
  for (const t of v) {
    if (typeof t !== "string") throw invalidInput("resourceTypes must be strings");
    // Only the resource types whose changes the twin delivers; promising others would be a silent gap.
    if (!(WEBHOOK_RESOURCE_TYPES as readonly string[]).includes(t)) throw new Unsupported(`webhooks for the resource type \`${t}\``);
  }
  return v as string[];
}

/**
 * A webhook's URL: an http(s) URL the platform's egress policy lets deliveries reach. Linear asks
 * for "a publicly accessible HTTPS, non-localhost URL" (developers.linear.app/docs/graphql/webhooks),
 * which the policy's `public` setting is; locally it allows loopback receivers.
 */
function webhookUrl(gql: Gql, v: unknown): string {
  if (typeof v !== "string" || !URL.canParse(v) || !/^https?:/.test(v))
    throw invalidInput("url must be an http(s) URL", "The webhook URL is not valid.");
  const egress = gql.egress(v);
  if (!egress.allowed) throw invalidInput(`url is not allowed: ${egress.reason}`, "The webhook URL is not valid.");
  return v;
}

function webhookCreate(gql: Gql, args: Args) {
  const input = inputOf(args, "WebhookCreateInput", [
    "url",
    "resourceTypes",
    "teamId",
    "allPublicTeams",
    "label",
    "secret",
    "enabled",
    "id",
  ]);
  const team = has(input, "teamId") ? findTeam(gql, String(input.teamId)) : undefined;
  if (has(input, "teamId") && !team) throw entityNotFound("Team");
  if (!team && input.allPublicTeams !== true)
    throw invalidInput("Provide a teamId or allPublicTeams: true", "Choose a team or all public teams.");
  const id = newId(gql, input.id);
  const now = iso(gql);
  const secret = strOr(input.secret) ?? `lin_wh_${uuidFor("webhook-secret", gql.sessionId, id).replace(/-/g, "")}`;
  gql.db.run(
    "INSERT INTO lin_webhooks (id, url, resource_types, team_id, secret, enabled, label, created_at, updated_at, creator_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    id,
    webhookUrl(gql, input.url),
    JSON.stringify(resourceTypes(input.resourceTypes)),
    team?.id ?? null,
    secret,
    input.enabled === false ? 0 : 1,
    strOr(input.label),
    now,
    now,
    gql.viewerId,
  );
  return { success: true, lastSyncId: syncId(gql), webhook: reload(gql, "Webhook", id) };
}

function webhookUpdate(gql: Gql, args: Args) {
  const input = inputOf(args, "WebhookUpdateInput", ["url", "resourceTypes", "label", "secret", "enabled"]);
  const before = mustFind(gql, "Webhook", String(args.id));
  gql.db.run(
    "UPDATE lin_webhooks SET url = ?, resource_types = ?, label = ?, secret = ?, enabled = ?, updated_at = ? WHERE id = ?",
    has(input, "url") ? webhookUrl(gql, input.url) : before.url,
    has(input, "resourceTypes") ? JSON.stringify(resourceTypes(input.resourceTypes)) : before.resource_types,
    has(input, "label") ? strOr(input.label) : before.label,
    has(input, "secret") ? (strOr(input.secret) ?? before.secret) : before.secret,
    has(input, "enabled") ? (input.enabled === true ? 1 : 0) : before.enabled,
    iso(gql),
    before.id,
  );
  return { success: true, lastSyncId: syncId(gql), webhook: reload(gql, "Webhook", before.id) };
}

function webhookDelete(gql: Gql, args: Args) {
  const hook = mustFind(gql, "Webhook", String(args.id));
  gql.db.run("DELETE FROM lin_webhooks WHERE id = ?", hook.id);
  return { success: true, lastSyncId: syncId(gql), entityId: hook.id };
}

export const MUTATION_RESOLVERS: Record<string, Resolver> = {
  webhookCreate: (_s, a, g) => webhookCreate(g, a),
  webhookUpdate: (_s, a, g) => webhookUpdate(g, a),
  webhookDelete: (_s, a, g) => webhookDelete(g, a),
  issueCreate: (_s, a, g) => issueCreate(g, a),
  issueUpdate: (_s, a, g) => issueUpdate(g, a),
  issueArchive: (_s, a, g) => archiveLike(g, a, "archive"),
  issueUnarchive: (_s, a, g) => archiveLike(g, a, "unarchive"),
  issueDelete: (_s, a, g) => archiveLike(g, a, "delete"),
  issueAddLabel: (_s, a, g) => labelEdit(g, a, true),
  issueRemoveLabel: (_s, a, g) => labelEdit(g, a, false),
  commentCreate: (_s, a, g) => commentCreate(g, a),
  commentUpdate: (_s, a, g) => commentUpdate(g, a),
  commentDelete: (_s, a, g) => commentDelete(g, a),
  issueLabelCreate: (_s, a, g) => issueLabelCreate(g, a),
  issueLabelUpdate: (_s, a, g) => issueLabelUpdate(g, a),
  issueRelationCreate: (_s, a, g) => issueRelationCreate(g, a),
  issueRelationDelete: (_s, a, g) => issueRelationDelete(g, a),
  reactionCreate: (_s, a, g) => reactionCreate(g, a),
  attachmentCreate: (_s, a, g) => attachmentCreate(g, a),
  attachmentLinkURL: (_s, a, g) => attachmentLinkURL(g, a),
  projectCreate: (_s, a, g) => projectCreate(g, a),
  projectUpdate: (_s, a, g) => projectUpdate(g, a),
  cycleCreate: (_s, a, g) => cycleCreate(g, a),
  workflowStateCreate: (_s, a, g) => workflowStateCreate(g, a),
  issueSubscribe: (_s, a, g) => subscription(g, a, true),
  issueUnsubscribe: (_s, a, g) => subscription(g, a, false),
};
