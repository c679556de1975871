// Documents: markdown pages, in a project or on their own. `document` takes an id or a slugId;
// `documents` and `Project.documents` page, filter (DocumentFilter) and sort (DocumentSortInput)
// like every list; `documentCreate`/`documentUpdate` write the title, markdown content, icon,
// colour, project and sort order; `documentDelete` moves a document to the trash (Linear's schema:
// "Deletes (trashes) a document", answering a DocumentArchivePayload) and `documentUnarchive`
// restores it. A trashed document leaves the lists unless `includeArchived`. Parents Linear also
// allows (team, issue, initiative, cycle, release, folder) refuse the call (501): the twin keeps
// documents in projects only.
import type { Gql, Row } from "../context";
import { entityNotFound, invalidInput } from "../errors";
import { resourceWebhooks, type WebhookAction } from "../webhooks";
import { has, inputOf, iso, newId, reload, strOr, syncId } from "./mutation";
import { listOf, orgOf, slug, str, type Args, type Resolver } from "./types";
import { RowChanges } from "./row-changes";

const DOCUMENT_FIELDS = ["title", "content", "icon", "color", "projectId", "sortOrder", "id"] as const;
const DOCUMENT_UPDATE_FIELDS = ["title", "content", "icon", "color", "projectId", "sortOrder", "trashed"] as const;

const slugIdOf = (r: Row) => r.id.slice(-12);

export const documentUrl = (gql: Gql, r: Row) => `https://linear.app/${orgOf(gql).urlKey}/document/${slug(String(r.title))}-${slugIdOf(r)}`;

/** A document by its id, or by the slugId its url ends with, as Linear's `document(id:)` takes. */
export function findDocument(gql: Gql, ref: string): Row {
  const row =
    gql.byId("Document", ref) ??
    (/^[0-9a-f]{12}$/.test(ref) ? gql.db.one<Row>("SELECT * FROM lin_documents WHERE substr(id, -12) = ?", ref) : undefined);
  if (!row) throw entityNotFound("Document");
  return row;
}

export const documentList = (gql: Gql, args: Args, where: string[] = [], params: string[] = []) =>
  listOf(gql, "document", "lin_documents", args, where, params, { archivable: true });

function projectRef(gql: Gql, v: unknown): string | null {
  if (v === null) return null;
  const p = typeof v === "string" ? gql.byId("Project", v) : undefined;
  if (!p) throw entityNotFound("Project");
  return p.id;
}

function title(v: unknown): string {
  if (typeof v !== "string" || !v.trim()) throw invalidInput("title must not be empty", "The document needs a title.");
  return v;
}

function sortOrder(v: unknown): number {
  if (typeof v !== "number" || !Number.isFinite(v)) throw invalidInput("sortOrder must be a number");
  return v;
}

/** The document as Linear's Document webhook carries it. */
function documentData(gql: Gql, r: Row): Record<string, unknown> {
  return {
    id: r.id,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    archivedAt: r.archived_at,
    title: r.title,
    content: r.content,
    icon: r.icon,
    color: r.color,
    slugId: slugIdOf(r),
    sortOrder: r.sort_order,
    projectId: r.project_id,
    creatorId: r.creator_id,
    updatedById: r.updated_by_id,
    trashed: r.trashed === 1 ? true : null,
    url: documentUrl(gql, r),
  };
}

function documentHooks(gql: Gql, action: WebhookAction, r: Row, before?: Row) {
  const teams = r.project_id
    ? gql.db.all<{ team_id: string }>("SELECT team_id FROM lin_project_teams WHERE project_id = ?", r.project_id).map((t) => t.team_id)
    : null;
  resourceWebhooks(gql, "Document", action, {
    data: documentData(gql, r),
    url: documentUrl(gql, r),
    teams,
    before: before ? documentData(gql, before) : undefined,
  });
}

function documentCreate(gql: Gql, args: Args) {
  const input = inputOf(args, "DocumentCreateInput", DOCUMENT_FIELDS);
  const id = newId(gql, input.id);
  if (gql.byId("Document", id)) throw invalidInput("A document with this id already exists");
  const now = iso(gql);
  gql.db.run(
    `INSERT INTO lin_documents (id, title, content, icon, color, project_id, creator_id, updated_by_id, sort_order, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    id,
    title(input.title),
    strOr(input.content),
    strOr(input.icon),
    strOr(input.color),
    has(input, "projectId") ? projectRef(gql, input.projectId) : null,
    gql.viewerId,
    gql.viewerId,
    has(input, "sortOrder") ? sortOrder(input.sortOrder) : 0,
    now,
    now,
  );
  const document = reload(gql, "Document", id);
  documentHooks(gql, "create", document);
  return { success: true, lastSyncId: syncId(gql), document };
}

function documentUpdate(gql: Gql, args: Args) {
  const input = inputOf(args, "DocumentUpdateInput", DOCUMENT_UPDATE_FIELDS);
  const before = findDocument(gql, String(args.id));
  const change = new RowChanges();
  if (has(input, "title")) change.set("title", title(input.title));
  if (has(input, "content")) change.set("content", strOr(input.content));
  if (has(input, "icon")) change.set("icon", strOr(input.icon));
  if (has(input, "color")) change.set("color", strOr(input.color));
  if (has(input, "projectId")) change.set("project_id", projectRef(gql, input.projectId));
  if (has(input, "sortOrder")) change.set("sort_order", sortOrder(input.sortOrder));
  if (has(input, "trashed")) {
    const trashed = input.trashed === true;
    change.set("trashed", trashed ? 1 : 0);
    change.set("archived_at", trashed ? (str(before.archived_at) ?? iso(gql)) : null);
  }
  const changed = change.write(gql.db, "lin_documents", before.id, { updated_at: iso(gql), updated_by_id: gql.viewerId });
  const document = reload(gql, "Document", before.id);
  if (changed) documentHooks(gql, "update", document, before);
  return { success: true, lastSyncId: syncId(gql), document };
}

/** Trash (delete) or restore (unarchive) a document. */
function documentTrash(gql: Gql, args: Args, trash: boolean) {
  const before = findDocument(gql, String(args.id));
  const trashed = before.trashed === 1;
  if (trash !== trashed) {
    const now = iso(gql);
    gql.db.run(
      "UPDATE lin_documents SET trashed = ?, archived_at = ?, updated_at = ? WHERE id = ?",
      trash ? 1 : 0,
      trash ? now : null,
      now,
      before.id,
    );
  }
  const entity = reload(gql, "Document", before.id);
  if (trash !== trashed) documentHooks(gql, trash ? "remove" : "update", entity, before);
  return { success: true, lastSyncId: syncId(gql), entity };
}

export const DOCUMENT_QUERIES: Record<string, Resolver> = {
  document: (_s, args, gql) => findDocument(gql, typeof args.id === "string" ? args.id : ""),
  documents: (_s, args, gql) => documentList(gql, args),
};

export const DOCUMENT_MUTATIONS: Record<string, Resolver> = {
  documentCreate: (_s, a, g) => documentCreate(g, a),
  documentUpdate: (_s, a, g) => documentUpdate(g, a),
  documentDelete: (_s, a, g) => documentTrash(g, a, true),
  documentUnarchive: (_s, a, g) => documentTrash(g, a, false),
};

export const DOCUMENT_TYPE: Record<string, Resolver> = {
  createdAt: (r) => r.created_at,
  updatedAt: (r) => r.updated_at,
  archivedAt: (r) => r.archived_at,
  content: (r) => r.content,
  icon: (r) => r.icon,
  color: (r) => r.color,
  slugId: (r) => slugIdOf(r),
  sortOrder: (r) => r.sort_order,
  trashed: (r) => (r.trashed === 1 ? true : null),
  url: (r, _a, gql) => documentUrl(gql, r),
  creator: (r, _a, gql) => gql.byId("User", str(r.creator_id)) ?? null,
  updatedBy: (r, _a, gql) => gql.byId("User", str(r.updated_by_id)) ?? null,
  // Linear's owner defaults to the author; the twin has no way to hand a document over.
  owner: (r, _a, gql) => gql.byId("User", str(r.creator_id)) ?? null,
  project: (r, _a, gql) => gql.byId("Project", str(r.project_id)) ?? null,
};
