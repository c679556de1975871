// Custom views: a saved IssueFilter (`filterData`), personal or shared with the workspace,
// optionally scoped to a team. `customViews` lists the views the viewer can see (their own and the
// shared ones, as Linear's schema says: "personal views and shared workspace views");
// `customView` takes an id or slugId; `customView.issues` is the issue list with the view's filter
// applied (by the same compiler as `issues(filter:)`) and the caller's own filter on top.
// The filter is compiled when the view is written, so a filter the twin cannot evaluate refuses the
// write (501) rather than a later read. Project, initiative and feed views answer 501.
import type { Gql, Row } from "../context";
import { entityNotFound, invalidInput } from "../errors";
import { compileFilter } from "../filters";
import { findTeam } from "./query";
import { has, inputOf, iso, newId, reload, strOr, syncId, userRef } from "./mutation";
import { issueList, listOf, str, type Args, type Resolver } from "./types";
import { RowChanges } from "./row-changes";

const CREATE_FIELDS = ["name", "description", "icon", "color", "filterData", "shared", "ownerId", "teamId", "id"] as const;
const UPDATE_FIELDS = ["name", "description", "icon", "color", "filterData", "shared", "ownerId", "teamId"] as const;

const slugIdOf = (r: Row) => r.id.slice(-12);
const visible = (gql: Gql, r: Row) => r.shared === 1 || r.owner_id === gql.viewerId;

/** The view's filter as stored (a JSON object), or {} when it has none. */
export function filterDataOf(r: Row): Record<string, unknown> {
  const parsed: unknown = JSON.parse(String(r.filter_data ?? "{}"));
  return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
}

/** A view the viewer can see, by id or by the slugId its url ends with. */
function findView(gql: Gql, ref: unknown): Row {
  const id = typeof ref === "string" ? ref : "";
  const row =
    gql.byId("CustomView", id) ??
    (/^[0-9a-f]{12}$/.test(id) ? gql.db.one<Row>("SELECT * FROM lin_custom_views WHERE substr(id, -12) = ?", id) : undefined);
  if (!row || !visible(gql, row)) throw entityNotFound("CustomView");
  return row;
}

function name(v: unknown): string {
  if (typeof v !== "string" || !v.trim()) throw invalidInput("name must not be empty", "The view needs a name.");
  return v;
}

/** An IssueFilter the twin can evaluate, as JSON; compiling it refuses what it cannot (501, or invalid input). */
function filterData(gql: Gql, v: unknown): string {
  if (v === null) return "{}";
  if (typeof v !== "object" || Array.isArray(v)) throw invalidInput("filterData must be an IssueFilter");
  compileFilter("issue", v, "x", gql.viewerId, gql.clock.now());
  return JSON.stringify(v);
}

function teamRef(gql: Gql, v: unknown): string | null {
  if (v === null) return null;
  const team = typeof v === "string" ? findTeam(gql, v) : undefined;
  if (!team) throw entityNotFound("Team");
  return team.id;
}

function customViewCreate(gql: Gql, args: Args) {
  const input = inputOf(args, "CustomViewCreateInput", CREATE_FIELDS);
  const id = newId(gql, input.id);
  if (gql.byId("CustomView", id)) throw invalidInput("A custom view with this id already exists");
  const now = iso(gql);
  gql.db.run(
    `INSERT INTO lin_custom_views (id, name, description, icon, color, filter_data, shared, owner_id, creator_id, updated_by_id, team_id,
       created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    id,
    name(input.name),
    strOr(input.description),
    strOr(input.icon),
    strOr(input.color),
    has(input, "filterData") ? filterData(gql, input.filterData) : "{}",
    input.shared === true ? 1 : 0,
    has(input, "ownerId") ? (userRef(gql, input.ownerId, "ownerId") ?? gql.viewerId) : gql.viewerId,
    gql.viewerId,
    gql.viewerId,
    has(input, "teamId") ? teamRef(gql, input.teamId) : null,
    now,
    now,
  );
  return { success: true, lastSyncId: syncId(gql), customView: reload(gql, "CustomView", id) };
}

function customViewUpdate(gql: Gql, args: Args) {
  const input = inputOf(args, "CustomViewUpdateInput", UPDATE_FIELDS);
  const before = findView(gql, args.id);
  const change = new RowChanges();
  if (has(input, "name")) change.set("name", name(input.name));
  if (has(input, "description")) change.set("description", strOr(input.description));
  if (has(input, "icon")) change.set("icon", strOr(input.icon));
  if (has(input, "color")) change.set("color", strOr(input.color));
  if (has(input, "filterData")) change.set("filter_data", filterData(gql, input.filterData));
  if (has(input, "shared")) change.set("shared", input.shared === true ? 1 : 0);
  if (has(input, "ownerId")) change.set("owner_id", userRef(gql, input.ownerId, "ownerId") ?? gql.viewerId);
  if (has(input, "teamId")) change.set("team_id", teamRef(gql, input.teamId));
  change.write(gql.db, "lin_custom_views", before.id, { updated_at: iso(gql), updated_by_id: gql.viewerId });
  return { success: true, lastSyncId: syncId(gql), customView: reload(gql, "CustomView", before.id) };
}

function customViewDelete(gql: Gql, args: Args) {
  const view = findView(gql, args.id);
  gql.db.run("DELETE FROM lin_custom_views WHERE id = ?", view.id);
  gql.forget("CustomView", view.id);
  return { success: true, lastSyncId: syncId(gql), entityId: view.id };
}

/** The view's issues: its filter, its team, and the caller's own filter on top. */
function viewIssues(gql: Gql, r: Row, args: Args) {
  const saved = filterDataOf(r);
  const filter = args.filter ? { and: [saved, args.filter] } : saved;
  const teamId = str(r.team_id);
  return issueList(gql, { ...args, filter }, teamId ? ["x.team_id = ?"] : [], teamId ? [teamId] : []);
}

export const CUSTOM_VIEW_QUERIES: Record<string, Resolver> = {
  customView: (_s, args, gql) => findView(gql, args.id),
  customViews: (_s, args, gql) =>
    listOf(gql, "customView", "lin_custom_views", args, ["(x.shared = 1 OR x.owner_id = ?)"], [gql.viewerId], { archivable: true }),
};

export const CUSTOM_VIEW_MUTATIONS: Record<string, Resolver> = {
  customViewCreate: (_s, a, g) => customViewCreate(g, a),
  customViewUpdate: (_s, a, g) => customViewUpdate(g, a),
  customViewDelete: (_s, a, g) => customViewDelete(g, a),
};

export const CUSTOM_VIEW_TYPE: Record<string, Resolver> = {
  createdAt: (r) => r.created_at,
  updatedAt: (r) => r.updated_at,
  archivedAt: (r) => r.archived_at,
  description: (r) => r.description,
  icon: (r) => r.icon,
  color: (r) => r.color,
  slugId: (r) => slugIdOf(r),
  modelName: () => "issue",
  shared: (r) => r.shared === 1,
  filterData: (r) => filterDataOf(r),
  // Linear's deprecated `filters` carries the same filter.
  filters: (r) => filterDataOf(r),
  owner: (r, _a, gql) => gql.byId("User", str(r.owner_id)),
  creator: (r, _a, gql) => gql.byId("User", str(r.creator_id)),
  updatedBy: (r, _a, gql) => gql.byId("User", str(r.updated_by_id)) ?? null,
  team: (r, _a, gql) => gql.byId("Team", str(r.team_id)) ?? null,
  issues: (r, args, gql) => viewIssues(gql, r, args),
};
