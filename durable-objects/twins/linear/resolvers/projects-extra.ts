// Project milestones and project updates. A milestone is a named stage of one project with an
// optional target date; issues of the project point at it (`Issue.projectMilestone`, set by
// issueCreate/issueUpdate's projectMilestoneId, filtered by IssueFilter.projectMilestone). Its
// progress is the share of its issues in a completed state and its status follows from that and
// the target date. A project update is a post on a project with a health (onTrack, atRisk,
// offTrack); the project's `health` and `lastUpdate` are its latest update's. Project updates send
// the ProjectUpdate webhook; milestones send none (Linear's WebhookResourceType, in @linear/sdk 98,
// has no milestone resource).
import type { Gql, Row } from "../context";
import { entityNotFound, invalidInput } from "../errors";
import { resourceWebhooks, type WebhookAction } from "../webhooks";
import { has, inputOf, iso, newId, reload, strOr, syncId } from "./mutation";
import { mustFind } from "./query";
import { issueList, listOf, orgOf, slug, str, type Args, type Resolver } from "./types";

const HEALTH = ["onTrack", "atRisk", "offTrack"] as const;

const teamsOfProject = (gql: Gql, projectId: unknown) =>
  gql.db.all<{ team_id: string }>("SELECT team_id FROM lin_project_teams WHERE project_id = ?", String(projectId)).map((t) => t.team_id);

const projectUrl = (gql: Gql, p: Row) => `https://linear.app/${orgOf(gql).urlKey}/project/${slug(String(p.name))}-${p.id.slice(-12)}`;

function projectRef(gql: Gql, v: unknown): Row {
  const p = typeof v === "string" ? gql.byId("Project", v) : undefined;
  if (!p) throw entityNotFound("Project");
  return p;
}

/** A TimelessDate (YYYY-MM-DD) or null. */
function targetDate(v: unknown): string | null {
  if (v === null) return null;
  if (typeof v !== "string" || !/^\d{4}-\d{2}-\d{2}$/.test(v) || Number.isNaN(Date.parse(v)))
    throw invalidInput("targetDate must be a date (YYYY-MM-DD)");
  return v;
}

function milestoneName(v: unknown): string {
  if (typeof v !== "string" || !v.trim()) throw invalidInput("name must not be empty", "The milestone needs a name.");
  return v;
}

function milestoneCreate(gql: Gql, args: Args) {
  const input = inputOf(args, "ProjectMilestoneCreateInput", ["name", "description", "projectId", "targetDate", "sortOrder", "id"]);
  const project = projectRef(gql, input.projectId);
  const id = newId(gql, input.id);
  const now = iso(gql);
  const last = gql.db.one<{ n: number | null }>("SELECT max(sort_order) AS n FROM lin_project_milestones WHERE project_id = ?", project.id);
  gql.db.run(
    `INSERT INTO lin_project_milestones (id, project_id, name, description, target_date, sort_order, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    id,
    project.id,
    milestoneName(input.name),
    strOr(input.description),
    has(input, "targetDate") ? targetDate(input.targetDate) : null,
    typeof input.sortOrder === "number" ? input.sortOrder : (last?.n ?? -1) + 1,
    now,
    now,
  );
  const projectMilestone = reload(gql, "ProjectMilestone", id);
  return { success: true, lastSyncId: syncId(gql), projectMilestone };
}

function milestoneUpdate(gql: Gql, args: Args) {
  const input = inputOf(args, "ProjectMilestoneUpdateInput", ["name", "description", "targetDate", "sortOrder"]);
  const before = mustFind(gql, "ProjectMilestone", String(args.id));
  const sets: string[] = [];
  const params: (string | number | null)[] = [];
  const set = (c: string, v: string | number | null) => {
    sets.push(`${c} = ?`);
    params.push(v);
  };
  if (has(input, "name")) set("name", milestoneName(input.name));
  if (has(input, "description")) set("description", strOr(input.description));
  if (has(input, "targetDate")) set("target_date", targetDate(input.targetDate));
  if (typeof input.sortOrder === "number") set("sort_order", input.sortOrder);
  if (sets.length) {
    set("updated_at", iso(gql));
    gql.db.run(`UPDATE lin_project_milestones SET ${sets.join(", ")} WHERE id = ?`, ...params, before.id);
  }
  const projectMilestone = reload(gql, "ProjectMilestone", before.id);
  return { success: true, lastSyncId: syncId(gql), projectMilestone };
}

/** Deleting a milestone leaves its issues in the project, without a milestone. */
function milestoneDelete(gql: Gql, args: Args) {
  const before = mustFind(gql, "ProjectMilestone", String(args.id));
  gql.db.run("UPDATE lin_issues SET project_milestone_id = NULL WHERE project_milestone_id = ?", before.id);
  gql.db.run("DELETE FROM lin_project_milestones WHERE id = ?", before.id);
  gql.forget("ProjectMilestone", before.id);
  return { success: true, lastSyncId: syncId(gql), entityId: before.id };
}

/** Completed and all issues of a milestone (trashed and archived ones aside). */
function milestoneCounts(gql: Gql, id: string): { done: number; total: number } {
  const row = gql.db.one<{ done: number | null; total: number }>(
    `SELECT sum(CASE WHEN s.type = 'completed' THEN 1 ELSE 0 END) AS done, count(*) AS total
     FROM lin_issues i JOIN lin_states s ON s.id = i.state_id WHERE i.project_milestone_id = ? AND i.trashed = 0 AND i.archived_at IS NULL`,
    id,
  );
  return { done: row?.done ?? 0, total: row?.total ?? 0 };
}

/**
 * done: every issue completed; overdue: its target date has passed; next: the first milestone of
 * the project (by sort order) not done; otherwise unstarted.
 */
function milestoneStatus(gql: Gql, m: Row): string {
  const isDone = (id: string) => {
    const c = milestoneCounts(gql, id);
    return c.total > 0 && c.done === c.total;
  };
  if (isDone(m.id)) return "done";
  const today = new Date(gql.clock.now()).toISOString().slice(0, 10);
  if (typeof m.target_date === "string" && m.target_date < today) return "overdue";
  const siblings = gql.db.all<{ id: string }>(
    "SELECT id FROM lin_project_milestones WHERE project_id = ? AND archived_at IS NULL ORDER BY sort_order, rowid",
    m.project_id,
  );
  return siblings.find((s) => !isDone(s.id))?.id === m.id ? "next" : "unstarted";
}

export const milestoneList = (gql: Gql, args: Args, where: string[] = [], params: string[] = []) =>
  listOf(gql, "projectMilestone", "lin_project_milestones", args, where, params, {
    archivable: true,
    order: { column: "sort_order", direction: "ASC" },
  });

export const MILESTONE_TYPE: Record<string, Resolver> = {
  createdAt: (r) => r.created_at,
  updatedAt: (r) => r.updated_at,
  archivedAt: (r) => r.archived_at,
  description: (r) => r.description,
  targetDate: (r) => r.target_date,
  sortOrder: (r) => r.sort_order,
  project: (r, _a, gql) => gql.byId("Project", str(r.project_id)),
  progress: (r, _a, gql) => {
    const c = milestoneCounts(gql, r.id);
    return c.total ? c.done / c.total : 0;
  },
  status: (r, _a, gql) => milestoneStatus(gql, r),
  issues: (r, args, gql) => issueList(gql, args, ["x.project_milestone_id = ?"], [r.id]),
};

function health(v: unknown): string {
  if (typeof v !== "string" || !(HEALTH as readonly string[]).includes(v)) throw invalidInput("health must be onTrack, atRisk or offTrack");
  return v;
}

function updateHooks(gql: Gql, action: WebhookAction, u: Row, before?: Row) {
  const data = (r: Row) => ({
    id: r.id,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    archivedAt: r.archived_at,
    editedAt: r.edited_at,
    body: r.body,
    health: r.health,
    projectId: r.project_id,
    userId: r.user_id,
    url: updateUrl(gql, r),
  });
  resourceWebhooks(gql, "ProjectUpdate", action, {
    data: data(u),
    url: updateUrl(gql, u),
    teams: teamsOfProject(gql, u.project_id),
    before: before ? data(before) : undefined,
  });
}

function updateUrl(gql: Gql, u: Row): string {
  const project = gql.byId("Project", str(u.project_id));
  return `${project ? projectUrl(gql, project) : `https://linear.app/${orgOf(gql).urlKey}`}/updates#project-update-${u.id.slice(0, 8)}`;
}

function updateCreate(gql: Gql, args: Args) {
  const input = inputOf(args, "ProjectUpdateCreateInput", ["body", "health", "projectId", "id", "isDiffHidden"]);
  const project = projectRef(gql, input.projectId);
  const id = newId(gql, input.id);
  const now = iso(gql);
  // Without a health, an update keeps the project's current one (onTrack for its first).
  const current = latestUpdate(gql, project.id);
  gql.db.run(
    "INSERT INTO lin_project_updates (id, project_id, body, health, user_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
    id,
    project.id,
    strOr(input.body) ?? "",
    has(input, "health") ? health(input.health) : String(current?.health ?? "onTrack"),
    gql.viewerId,
    now,
    now,
  );
  const projectUpdate = reload(gql, "ProjectUpdate", id);
  updateHooks(gql, "create", projectUpdate);
  return { success: true, lastSyncId: syncId(gql), projectUpdate };
}

function updateUpdate(gql: Gql, args: Args) {
  const input = inputOf(args, "ProjectUpdateUpdateInput", ["body", "health"]);
  const before = mustFind(gql, "ProjectUpdate", String(args.id));
  if (has(input, "body") || has(input, "health")) {
    const now = iso(gql);
    gql.db.run(
      "UPDATE lin_project_updates SET body = ?, health = ?, edited_at = ?, updated_at = ? WHERE id = ?",
      has(input, "body") ? (strOr(input.body) ?? "") : before.body,
      has(input, "health") ? health(input.health) : before.health,
      now,
      now,
      before.id,
    );
  }
  const projectUpdate = reload(gql, "ProjectUpdate", before.id);
  updateHooks(gql, "update", projectUpdate, before);
  return { success: true, lastSyncId: syncId(gql), projectUpdate };
}

function updateDelete(gql: Gql, args: Args) {
  const before = mustFind(gql, "ProjectUpdate", String(args.id));
  gql.db.run("DELETE FROM lin_project_updates WHERE id = ?", before.id);
  gql.forget("ProjectUpdate", before.id);
  updateHooks(gql, "remove", before);
  return { success: true, lastSyncId: syncId(gql), entityId: before.id };
}

function updateArchive(gql: Gql, args: Args, archive: boolean) {
  const before = mustFind(gql, "ProjectUpdate", String(args.id));
  if ((before.archived_at !== null) !== archive) {
    const now = iso(gql);
    gql.db.run("UPDATE lin_project_updates SET archived_at = ?, updated_at = ? WHERE id = ?", archive ? now : null, now, before.id);
  }
  const entity = reload(gql, "ProjectUpdate", before.id);
  updateHooks(gql, "update", entity, before);
  return { success: true, lastSyncId: syncId(gql), entity };
}

/** A project's latest update that is not archived. */
export function latestUpdate(gql: Gql, projectId: string): Row | undefined {
  return gql.db.one<Row>(
    "SELECT * FROM lin_project_updates WHERE project_id = ? AND archived_at IS NULL ORDER BY created_at DESC, rowid DESC LIMIT 1",
    projectId,
  );
}

export const updateList = (gql: Gql, args: Args, where: string[] = [], params: string[] = []) =>
  listOf(gql, "projectUpdate", "lin_project_updates", args, where, params, { archivable: true });

export const PROJECT_UPDATE_TYPE: Record<string, Resolver> = {
  createdAt: (r) => r.created_at,
  updatedAt: (r) => r.updated_at,
  archivedAt: (r) => r.archived_at,
  editedAt: (r) => r.edited_at,
  slugId: (r) => r.id.slice(-12),
  url: (r, _a, gql) => updateUrl(gql, r),
  user: (r, _a, gql) => gql.byId("User", str(r.user_id)),
  project: (r, _a, gql) => gql.byId("Project", str(r.project_id)),
  reactionData: () => ({}),
};

export const PROJECT_EXTRA_QUERIES: Record<string, Resolver> = {
  projectMilestone: (_s, a, g) => mustFind(g, "ProjectMilestone", String(a.id)),
  projectMilestones: (_s, a, g) => milestoneList(g, a),
  projectUpdate: (_s, a, g) => mustFind(g, "ProjectUpdate", String(a.id)),
  projectUpdates: (_s, a, g) => updateList(g, a),
};

export const PROJECT_EXTRA_MUTATIONS: Record<string, Resolver> = {
  projectMilestoneCreate: (_s, a, g) => milestoneCreate(g, a),
  projectMilestoneUpdate: (_s, a, g) => milestoneUpdate(g, a),
  projectMilestoneDelete: (_s, a, g) => milestoneDelete(g, a),
  projectUpdateCreate: (_s, a, g) => updateCreate(g, a),
  projectUpdateUpdate: (_s, a, g) => updateUpdate(g, a),
  projectUpdateDelete: (_s, a, g) => updateDelete(g, a),
  projectUpdateArchive: (_s, a, g) => updateArchive(g, a, true),
  projectUpdateUnarchive: (_s, a, g) => updateArchive(g, a, false),
};

/** The fields of Project this area adds. */
export const PROJECT_EXTRA_FIELDS: Record<string, Resolver> = {
  projectMilestones: (r, args, gql) => milestoneList(gql, args, ["x.project_id = ?"], [r.id]),
  projectUpdates: (r, args, gql) => updateList(gql, args, ["x.project_id = ?"], [r.id]),
  health: (r, _a, gql) => latestUpdate(gql, r.id)?.health ?? null,
  healthUpdatedAt: (r, _a, gql) => latestUpdate(gql, r.id)?.created_at ?? null,
  lastUpdate: (r, _a, gql) => latestUpdate(gql, r.id) ?? null,
};
