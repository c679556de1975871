// Favorites: the viewer's sidebar. `favorites` lists the viewer's own (Linear's API shows each
// user only theirs), by sort order; `favoriteCreate` favorites an issue (UUID or identifier), a
// project, a cycle, a label, a document, a custom view or an initiative, or makes a folder (`folderName`), optionally inside a
// folder (`parentId`); `favoriteUpdate` renames a folder, moves a favorite between folders or
// reorders it; `favoriteDelete` removes one (a folder's favorites move to the top level). Linear's
// other kinds (customers, dashboards, releases, predefined views, tabs) answer 501 through `inputOf`.
import type { Gql, Row } from "../context";
import { entityNotFound, invalidInput } from "../errors";
import { documentUrl } from "./documents";
import { initiativeUrl } from "./initiatives";
import { has, inputOf, iso, newId, reload, strOr, syncId } from "./mutation";
import { findIssue } from "./query";
import { listOf, str, TYPE_RESOLVERS, type Args, type Resolver } from "./types";

/** The kinds a favorite can point at: its input field, its column and the entity it names. */
const TARGETS = [
  { input: "issueId", column: "issue_id", type: "issue", entity: "Issue" },
  { input: "projectId", column: "project_id", type: "project", entity: "Project" },
  { input: "cycleId", column: "cycle_id", type: "cycle", entity: "Cycle" },
  { input: "labelId", column: "label_id", type: "label", entity: "IssueLabel" },
  { input: "documentId", column: "document_id", type: "document", entity: "Document" },
  // Favorite.type's documented values include 'customView' (@linear/sdk 88.3.0 schema, Favorite.type).
  { input: "customViewId", column: "custom_view_id", type: "customView", entity: "CustomView" },
  { input: "initiativeId", column: "initiative_id", type: "initiative", entity: "Initiative" },
] as const;
type Target = (typeof TARGETS)[number];

const CREATE_FIELDS = ["id", "folderName", "parentId", "sortOrder", ...TARGETS.map((t) => t.input)] as const;

/** One of the viewer's favorites, or Linear's not-found. */
function viewerFavorite(gql: Gql, id: unknown): Row {
  const row = typeof id === "string" ? gql.byId("Favorite", id) : undefined;
  if (!row || row.owner_id !== gql.viewerId) throw entityNotFound("Favorite");
  return row;
}

function targetRow(gql: Gql, target: Target, ref: string): Row {
  const row = target.entity === "Issue" ? findIssue(gql, ref) : gql.byId(target.entity, ref);
  if (!row) throw entityNotFound(target.entity);
  return row;
}

/** The folder a favorite goes into: one of the viewer's folders, or none. */
function folderOf(gql: Gql, parentId: unknown, selfId: string | null): string | null {
  if (parentId === null || parentId === undefined) return null;
  const parent = viewerFavorite(gql, parentId);
  if (parent.type !== "folder") throw invalidInput("parentId must be a folder", "Favorites can only be put in a folder.");
  if (parent.id === selfId) throw invalidInput("A folder cannot contain itself");
  return parent.id;
}

function sortOrderOf(gql: Gql, v: unknown): number {
  if (v === undefined || v === null) {
    const max = gql.db.one<{ n: number | null }>("SELECT max(sort_order) AS n FROM lin_favorites WHERE owner_id = ?", gql.viewerId)?.n;
    return (max ?? 0) + 1;
  }
  if (typeof v !== "number" || !Number.isFinite(v)) throw invalidInput("sortOrder must be a number");
  return v;
}

function favoriteCreate(gql: Gql, args: Args) {
  const input = inputOf(args, "FavoriteCreateInput", CREATE_FIELDS);
  const given = TARGETS.filter((t) => has(input, t.input) && input[t.input] !== null);
  const folderName = has(input, "folderName") ? (strOr(input.folderName) ?? "").trim() : null;
  if (given.length + (folderName === null ? 0 : 1) !== 1)
    throw invalidInput("Exactly one favorite target must be given", "A favorite points at exactly one thing, or is a folder.");
  if (folderName === "") throw invalidInput("folderName must not be empty", "The folder needs a name.");
  const id = newId(gql, input.id);
  if (gql.byId("Favorite", id)) throw invalidInput("id is already taken");
  const cols: Record<string, string | null> = Object.fromEntries(TARGETS.map((t) => [t.column, null]));
  const target = given[0];
  if (target) {
    const row = targetRow(gql, target, String(input[target.input]));
    if (gql.db.one(`SELECT 1 AS n FROM lin_favorites WHERE owner_id = ? AND ${target.column} = ?`, gql.viewerId, row.id))
      throw invalidInput("Favorite already exists", "This is already one of your favorites.");
    cols[target.column] = row.id;
  }
  const now = iso(gql);
  gql.db.run(
    `INSERT INTO lin_favorites (id, owner_id, type, issue_id, project_id, cycle_id, label_id, document_id, custom_view_id,
       initiative_id, folder_name, parent_id, sort_order, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    id,
    gql.viewerId,
    target ? target.type : "folder",
    cols.issue_id ?? null,
    cols.project_id ?? null,
    cols.cycle_id ?? null,
    cols.label_id ?? null,
    cols.document_id ?? null,
    cols.custom_view_id ?? null,
    cols.initiative_id ?? null,
    folderName,
    folderOf(gql, input.parentId, null),
    sortOrderOf(gql, input.sortOrder),
    now,
    now,
  );
  return { success: true, lastSyncId: syncId(gql), favorite: reload(gql, "Favorite", id) };
}

function favoriteUpdate(gql: Gql, args: Args) {
  const input = inputOf(args, "FavoriteUpdateInput", ["folderName", "parentId", "sortOrder"]);
  const before = viewerFavorite(gql, args.id);
  let folderName = str(before.folder_name);
  if (has(input, "folderName")) {
    if (before.type !== "folder") throw invalidInput("Only a folder has a folderName");
    folderName = (strOr(input.folderName) ?? "").trim();
    if (!folderName) throw invalidInput("folderName must not be empty", "The folder needs a name.");
  }
  // Linear's sidebar nests one level: a folder stays at the top level.
  if (has(input, "parentId") && input.parentId !== null && before.type === "folder")
    throw invalidInput("A folder cannot be put in a folder");
  gql.db.run(
    "UPDATE lin_favorites SET folder_name = ?, parent_id = ?, sort_order = ?, updated_at = ? WHERE id = ?",
    folderName,
    has(input, "parentId") ? folderOf(gql, input.parentId, before.id) : before.parent_id,
    has(input, "sortOrder") ? sortOrderOf(gql, input.sortOrder) : before.sort_order,
    iso(gql),
    before.id,
  );
  return { success: true, lastSyncId: syncId(gql), favorite: reload(gql, "Favorite", before.id) };
}

function favoriteDelete(gql: Gql, args: Args) {
  const before = viewerFavorite(gql, args.id);
  gql.db.run("UPDATE lin_favorites SET parent_id = NULL WHERE parent_id = ?", before.id);
  gql.db.run("DELETE FROM lin_favorites WHERE id = ?", before.id);
  gql.forget("Favorite", before.id);
  return { success: true, lastSyncId: syncId(gql), entityId: before.id };
}

const favoriteList = (gql: Gql, args: Args, where: string, param: string) =>
  listOf(gql, "favorite", "lin_favorites", args, [where], [param], { order: { column: "sort_order", direction: "ASC" } });

function urlOf(gql: Gql, r: Row): string | null {
  const target = TARGETS.find((t) => t.type === r.type);
  const row = target ? gql.byId(target.entity, str(r[target.column])) : undefined;
  if (!row || !target) return null;
  if (target.entity === "Document") return documentUrl(gql, row);
  if (target.entity === "Initiative") return initiativeUrl(gql, row);
  // A custom view's favorite has no url here: the schema gives CustomView none to take it from.
  const typeUrl = TYPE_RESOLVERS[target.entity]?.url;
  const url = typeUrl ? typeUrl(row, {}, gql) : null;
  return typeof url === "string" ? url : null;
}

export const FAVORITE_QUERIES: Record<string, Resolver> = {
  favorites: (_s, args, gql) => favoriteList(gql, args, "x.owner_id = ?", gql.viewerId),
  favorite: (_s, args, gql) => viewerFavorite(gql, args.id),
};

export const FAVORITE_MUTATIONS: Record<string, Resolver> = {
  favoriteCreate: (_s, a, g) => favoriteCreate(g, a),
  favoriteUpdate: (_s, a, g) => favoriteUpdate(g, a),
  favoriteDelete: (_s, a, g) => favoriteDelete(g, a),
};

export const FAVORITE_TYPE: Record<string, Resolver> = {
  createdAt: (r) => r.created_at,
  updatedAt: (r) => r.updated_at,
  type: (r) => r.type,
  folderName: (r) => r.folder_name,
  sortOrder: (r) => r.sort_order,
  url: (r, _a, gql) => urlOf(gql, r),
  owner: (r, _a, gql) => gql.byId("User", str(r.owner_id)) ?? null,
  parent: (r, _a, gql) => gql.byId("Favorite", str(r.parent_id)) ?? null,
  children: (r, args, gql) => favoriteList(gql, args, "x.parent_id = ?", r.id),
  issue: (r, _a, gql) => gql.byId("Issue", str(r.issue_id)) ?? null,
  project: (r, _a, gql) => gql.byId("Project", str(r.project_id)) ?? null,
  cycle: (r, _a, gql) => gql.byId("Cycle", str(r.cycle_id)) ?? null,
  label: (r, _a, gql) => gql.byId("IssueLabel", str(r.label_id)) ?? null,
  document: (r, _a, gql) => gql.byId("Document", str(r.document_id)) ?? null,
  customView: (r, _a, gql) => gql.byId("CustomView", str(r.custom_view_id)) ?? null,
  initiative: (r, _a, gql) => gql.byId("Initiative", str(r.initiative_id)) ?? null,
};
