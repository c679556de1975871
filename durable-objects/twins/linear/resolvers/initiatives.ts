// Initiatives: strategic groupings of projects. `initiative` takes an id or slugId; `initiatives`
// pages and filters (InitiativeFilter) like every list; `initiativeCreate`/`initiativeUpdate` write
// the name, description, markdown content, icon, colour, status, owner, target date and sort order;
// `initiativeDelete` trashes (Linear's schema: "Deletes (trashes) an initiative"), `initiativeArchive`
// and `initiativeUnarchive` archive and restore. Projects join an initiative through
// `initiativeToProjectCreate` (a project at most once per initiative) and leave it through
// `initiativeToProjectDelete`; `Initiative.projects` lists them. Status moves set `startedAt`
// (Active) and `completedAt` (Completed) as Linear's Initiative fields describe. Labels, lead teams,
// sub-initiatives and update reminders answer 501.
import type { Gql, Row } from "../context";
import { entityNotFound, invalidInput } from "../errors";
import { resourceWebhooks, type WebhookAction } from "../webhooks";
import { INITIATIVE_STATUSES } from "../seed-workspace";
import { has, inputOf, iso, newId, reload, strOr, syncId, userRef } from "./mutation";
import { listOf, orgOf, slug, str, type Args, type Resolver } from "./types";
import { RowChanges } from "./row-changes";

const CREATE_FIELDS = ["name", "description", "content", "icon", "color", "status", "ownerId", "targetDate", "sortOrder", "id"] as const;
const UPDATE_FIELDS = [
  "name",
  "description",
  "content",
  "icon",
  "color",
  "status",
  "ownerId",
  "targetDate",
  "sortOrder",
  "trashed",
] as const;

const slugIdOf = (r: Row) => r.id.slice(-12);
export const initiativeUrl = (gql: Gql, r: Row) =>
  `https://linear.app/${orgOf(gql).urlKey}/initiative/${slug(String(r.name))}-${slugIdOf(r)}`;

/** An initiative by its id, or by the slugId its url ends with. */
export function findInitiative(gql: Gql, ref: unknown): Row {
  const id = typeof ref === "string" ? ref : "";
  const row =
    gql.byId("Initiative", id) ??
    (/^[0-9a-f]{12}$/.test(id) ? gql.db.one<Row>("SELECT * FROM lin_initiatives WHERE substr(id, -12) = ?", id) : undefined);
  if (!row) throw entityNotFound("Initiative");
  return row;
}

function name(v: unknown): string {
  if (typeof v !== "string" || !v.trim()) throw invalidInput("name must not be empty", "The initiative needs a name.");
  return v;
}

function status(v: unknown): string {
  if (typeof v !== "string" || !(INITIATIVE_STATUSES as readonly string[]).includes(v))
    throw invalidInput("status must be an InitiativeStatus");
  return v;
}

function targetDate(v: unknown): string | null {
  if (v === null) return null;
  if (typeof v !== "string" || !/^\d{4}-\d{2}-\d{2}$/.test(v)) throw invalidInput("targetDate must be a date, YYYY-MM-DD");
  return v;
}

function sortOrder(v: unknown): number {
  if (typeof v !== "number" || !Number.isFinite(v)) throw invalidInput("sortOrder must be a number");
  return v;
}

/** The times a status sets: started when it becomes Active, completed when Completed (kept once set). */
function statusTimes(next: string, before: Row | undefined, now: string) {
  return {
    started_at: next === "Active" || next === "Completed" ? (str(before?.started_at) ?? now) : (str(before?.started_at) ?? null),
    completed_at: next === "Completed" ? (str(before?.completed_at) ?? now) : null,
  };
}

/** The initiative as Linear's Initiative webhook carries it (@linear/sdk 98's InitiativeWebhookPayload). */
function initiativeData(gql: Gql, r: Row): Record<string, unknown> {
  return {
    id: r.id,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    archivedAt: r.archived_at,
    name: r.name,
    description: r.description ?? "",
    icon: r.icon,
    color: r.color,
    status: r.status,
    slugId: slugIdOf(r),
    sortOrder: r.sort_order,
    priority: 0,
    labelIds: [],
    frequencyResolution: "weekly",
    organizationId: orgOf(gql).id,
    ownerId: r.owner_id,
    creatorId: r.creator_id,
    targetDate: r.target_date,
    startedAt: r.started_at,
    completedAt: r.completed_at,
    trashed: r.trashed === 1 ? true : null,
    url: initiativeUrl(gql, r),
  };
}

/** Initiatives belong to no team: only workspace-wide webhooks hear of them. */
function initiativeHooks(gql: Gql, action: WebhookAction, r: Row, before?: Row) {
  resourceWebhooks(gql, "Initiative", action, {
    data: initiativeData(gql, r),
    url: initiativeUrl(gql, r),
    teams: null,
    before: before ? initiativeData(gql, before) : undefined,
  });
}

function initiativeCreate(gql: Gql, args: Args) {
  const input = inputOf(args, "InitiativeCreateInput", CREATE_FIELDS);
  const id = newId(gql, input.id);
  if (gql.byId("Initiative", id)) throw invalidInput("An initiative with this id already exists");
  const now = iso(gql);
  const st = has(input, "status") ? status(input.status) : "Planned";
  const times = statusTimes(st, undefined, now);
  gql.db.run(
    `INSERT INTO lin_initiatives (id, name, description, content, icon, color, status, owner_id, creator_id, target_date, sort_order,
       created_at, updated_at, started_at, completed_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    id,
    name(input.name),
    strOr(input.description),
    strOr(input.content),
    strOr(input.icon),
    strOr(input.color),
    st,
    has(input, "ownerId") ? userRef(gql, input.ownerId, "ownerId") : gql.viewerId,
    gql.viewerId,
    has(input, "targetDate") ? targetDate(input.targetDate) : null,
    has(input, "sortOrder") ? sortOrder(input.sortOrder) : 0,
    now,
    now,
    times.started_at,
    times.completed_at,
  );
  const initiative = reload(gql, "Initiative", id);
  initiativeHooks(gql, "create", initiative);
  return { success: true, lastSyncId: syncId(gql), initiative };
}

function initiativeUpdate(gql: Gql, args: Args) {
  const input = inputOf(args, "InitiativeUpdateInput", UPDATE_FIELDS);
  const before = findInitiative(gql, args.id);
  const change = new RowChanges();
  const now = iso(gql);
  if (has(input, "name")) change.set("name", name(input.name));
  for (const [field, column] of [
    ["description", "description"],
    ["content", "content"],
    ["icon", "icon"],
    ["color", "color"],
  ] as const)
    if (has(input, field)) change.set(column, strOr(input[field]));
  if (has(input, "status")) {
    const st = status(input.status);
    const times = statusTimes(st, before, now);
    change.set("status", st);
    change.set("started_at", times.started_at);
    change.set("completed_at", times.completed_at);
  }
  if (has(input, "ownerId")) change.set("owner_id", userRef(gql, input.ownerId, "ownerId"));
  if (has(input, "targetDate")) change.set("target_date", targetDate(input.targetDate));
  if (has(input, "sortOrder")) change.set("sort_order", sortOrder(input.sortOrder));
  if (has(input, "trashed")) {
    const trashed = input.trashed === true;
    change.set("trashed", trashed ? 1 : 0);
    change.set("archived_at", trashed ? (str(before.archived_at) ?? now) : null);
  }
  const changed = change.write(gql.db, "lin_initiatives", before.id, { updated_at: now });
  const initiative = reload(gql, "Initiative", before.id);
  if (changed) initiativeHooks(gql, "update", initiative, before);
  return { success: true, lastSyncId: syncId(gql), initiative };
}

/** Trash (delete), archive or restore (unarchive): each sets or clears archivedAt; trash also sets trashed. */
function initiativeArchiveLike(gql: Gql, args: Args, how: "trash" | "archive" | "restore") {
  const before = findInitiative(gql, args.id);
  const now = iso(gql);
  const changes =
    how === "restore" ? before.archived_at !== null : before.archived_at === null || (how === "trash" && before.trashed !== 1);
  if (changes && how === "restore")
    gql.db.run("UPDATE lin_initiatives SET archived_at = NULL, trashed = 0, updated_at = ? WHERE id = ?", now, before.id);
  else if (changes)
    gql.db.run(
      "UPDATE lin_initiatives SET archived_at = coalesce(archived_at, ?), trashed = ?, updated_at = ? WHERE id = ?",
      now,
      how === "trash" ? 1 : before.trashed,
      now,
      before.id,
    );
  const entity = reload(gql, "Initiative", before.id);
  // Trashing is a remove, as for documents; archiving and restoring are updates.
  if (changes) initiativeHooks(gql, how === "trash" ? "remove" : "update", entity, before);
  return how === "trash"
    ? { success: true, lastSyncId: syncId(gql), entityId: entity.id }
    : { success: true, lastSyncId: syncId(gql), entity };
}

function initiativeToProjectCreate(gql: Gql, args: Args) {
  const input = inputOf(args, "InitiativeToProjectCreateInput", ["initiativeId", "projectId", "sortOrder", "id"]);
  const initiative = findInitiative(gql, input.initiativeId);
  const project = typeof input.projectId === "string" ? gql.byId("Project", input.projectId) : undefined;
  if (!project) throw entityNotFound("Project");
  if (gql.db.one("SELECT 1 AS x FROM lin_initiative_projects WHERE initiative_id = ? AND project_id = ?", initiative.id, project.id))
    throw invalidInput("Project is already in this initiative", "The project is already part of this initiative.");
  const id = newId(gql, input.id);
  if (gql.byId("InitiativeToProject", id)) throw invalidInput("An initiative-to-project link with this id already exists");
  gql.db.run(
    "INSERT INTO lin_initiative_projects (id, initiative_id, project_id, sort_order, created_at) VALUES (?, ?, ?, ?, ?)",
    id,
    initiative.id,
    project.id,
    has(input, "sortOrder") ? sortOrder(input.sortOrder) : 0,
    iso(gql),
  );
  return { success: true, lastSyncId: syncId(gql), initiativeToProject: reload(gql, "InitiativeToProject", id) };
}

function initiativeToProjectDelete(gql: Gql, args: Args) {
  const link = gql.byId("InitiativeToProject", typeof args.id === "string" ? args.id : "");
  if (!link) throw entityNotFound("InitiativeToProject");
  gql.db.run("DELETE FROM lin_initiative_projects WHERE id = ?", link.id);
  gql.forget("InitiativeToProject", link.id);
  return { success: true, lastSyncId: syncId(gql), entityId: link.id };
}

export const INITIATIVE_QUERIES: Record<string, Resolver> = {
  initiative: (_s, args, gql) => findInitiative(gql, args.id),
  initiatives: (_s, args, gql) => listOf(gql, "initiative", "lin_initiatives", args, [], [], { archivable: true }),
  initiativeToProject: (_s, args, gql) => {
    const link = gql.byId("InitiativeToProject", typeof args.id === "string" ? args.id : "");
    if (!link) throw entityNotFound("InitiativeToProject");
    return link;
  },
  initiativeToProjects: (_s, args, gql) => listOf(gql, "initiativeToProject", "lin_initiative_projects", args),
};

export const INITIATIVE_MUTATIONS: Record<string, Resolver> = {
  initiativeCreate: (_s, a, g) => initiativeCreate(g, a),
  initiativeUpdate: (_s, a, g) => initiativeUpdate(g, a),
  initiativeDelete: (_s, a, g) => initiativeArchiveLike(g, a, "trash"),
  initiativeArchive: (_s, a, g) => initiativeArchiveLike(g, a, "archive"),
  initiativeUnarchive: (_s, a, g) => initiativeArchiveLike(g, a, "restore"),
  initiativeToProjectCreate: (_s, a, g) => initiativeToProjectCreate(g, a),
  initiativeToProjectDelete: (_s, a, g) => initiativeToProjectDelete(g, a),
};

export const INITIATIVE_TYPE: Record<string, Resolver> = {
  createdAt: (r) => r.created_at,
  updatedAt: (r) => r.updated_at,
  archivedAt: (r) => r.archived_at,
  startedAt: (r) => r.started_at,
  completedAt: (r) => r.completed_at,
  targetDate: (r) => r.target_date,
  sortOrder: (r) => r.sort_order,
  trashed: (r) => (r.trashed === 1 ? true : null),
  slugId: (r) => slugIdOf(r),
  url: (r, _a, gql) => initiativeUrl(gql, r),
  owner: (r, _a, gql) => gql.byId("User", str(r.owner_id)) ?? null,
  creator: (r, _a, gql) => gql.byId("User", str(r.creator_id)) ?? null,
  // Linear's frequencyResolution is non-null; the twin sends no update reminders.
  frequencyResolution: () => "weekly",
  // Linear derives visibility from the lead team, public without one; the twin has no lead teams.
  visibility: () => "public",
  projects: (r, args, gql) =>
    listOf(
      gql,
      "project",
      "lin_projects",
      args,
      ["x.id IN (SELECT project_id FROM lin_initiative_projects WHERE initiative_id = ?)"],
      [r.id],
    ),
};

export const INITIATIVE_TO_PROJECT_TYPE: Record<string, Resolver> = {
  createdAt: (r) => r.created_at,
  updatedAt: (r) => r.created_at,
  sortOrder: (r) => String(r.sort_order),
  initiative: (r, _a, gql) => gql.byId("Initiative", str(r.initiative_id)),
  project: (r, _a, gql) => gql.byId("Project", str(r.project_id)),
};
