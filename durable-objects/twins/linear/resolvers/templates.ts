// Templates: an entity's pre-filled fields (`templateData`), for the workspace or one team.
// `templates` lists them all (Linear's schema: "including both team-scoped and workspace-level
// templates"), `template` finds one, `templateCreate/Update/Delete` write them. An issue template's
// data holds IssueCreateInput fields; `issueCreate(input: { templateId })` applies them, "If other
// values are provided in the input, they will override template values" (Linear's schema), and
// records the template on the issue (`lastAppliedTemplate`) and its use (`lastAppliedAt`). Keys
// of an issue template the twin does not apply refuse the write (501) rather than being dropped.
import type { Gql, Row } from "../context";
import { Unsupported, entityNotFound, invalidInput } from "../errors";
import { findTeam } from "./query";
import { ISSUE_CREATE_FIELDS, createIssue, has, inputOf, iso, newId, reload, strOr, syncId } from "./mutation";
import { ISSUE_TEMPLATE_KEYS } from "../seed-workspace";
import { str, type Args, type Resolver } from "./types";
import { RowChanges } from "./row-changes";

const CREATE_FIELDS = ["name", "type", "templateData", "teamId", "description", "icon", "color", "sortOrder", "id"] as const;
const UPDATE_FIELDS = ["name", "templateData", "teamId", "description", "icon", "color", "sortOrder"] as const;

export function findTemplate(gql: Gql, ref: unknown): Row {
  const row = gql.byId("Template", typeof ref === "string" ? ref : "");
  if (!row) throw entityNotFound("Template");
  return row;
}

/** The template's data as an object (stored as JSON text). */
export function templateDataOf(r: Row): Record<string, unknown> {
  const parsed: unknown = JSON.parse(String(r.template_data ?? "{}"));
  return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
}

/** templateData as Linear's JSON scalar carries it: an object, or the same JSON-encoded as a string. */
function templateData(type: string, v: unknown): string {
  let data = v;
  if (typeof v === "string") {
    try {
      data = JSON.parse(v);
    } catch {
      throw invalidInput("templateData must be a JSON object");
    }
  }
  if (typeof data !== "object" || data === null || Array.isArray(data)) throw invalidInput("templateData must be a JSON object");
  if (type === "issue")
    for (const key of Object.keys(data))
      if (!(ISSUE_TEMPLATE_KEYS as readonly string[]).includes(key))
        throw new Unsupported(`the issue template field \`templateData.${key}\``);
  return JSON.stringify(data);
}

function name(v: unknown): string {
  if (typeof v !== "string" || !v.trim()) throw invalidInput("name must not be empty", "The template needs a name.");
  return v;
}

function teamRef(gql: Gql, v: unknown): string | null {
  if (v === null) return null;
  const team = typeof v === "string" ? findTeam(gql, v) : undefined;
  if (!team) throw entityNotFound("Team");
  return team.id;
}

function templateCreate(gql: Gql, args: Args) {
  const input = inputOf(args, "TemplateCreateInput", CREATE_FIELDS);
  if (typeof input.type !== "string" || !input.type.trim()) throw invalidInput("type must not be empty");
  const id = newId(gql, input.id);
  if (gql.byId("Template", id)) throw invalidInput("A template with this id already exists");
  const now = iso(gql);
  gql.db.run(
    `INSERT INTO lin_templates (id, name, description, type, template_data, team_id, icon, color, sort_order, creator_id, last_updated_by_id,
       created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    id,
    name(input.name),
    strOr(input.description),
    input.type,
    templateData(input.type, input.templateData),
    has(input, "teamId") ? teamRef(gql, input.teamId) : null,
    strOr(input.icon),
    strOr(input.color),
    typeof input.sortOrder === "number" ? input.sortOrder : 0,
    gql.viewerId,
    gql.viewerId,
    now,
    now,
  );
  return { success: true, lastSyncId: syncId(gql), template: reload(gql, "Template", id) };
}

function templateUpdate(gql: Gql, args: Args) {
  const input = inputOf(args, "TemplateUpdateInput", UPDATE_FIELDS);
  const before = findTemplate(gql, args.id);
  const change = new RowChanges();
  if (has(input, "name")) change.set("name", name(input.name));
  if (has(input, "description")) change.set("description", strOr(input.description));
  if (has(input, "icon")) change.set("icon", strOr(input.icon));
  if (has(input, "color")) change.set("color", strOr(input.color));
  if (has(input, "templateData")) change.set("template_data", templateData(String(before.type), input.templateData));
  if (has(input, "teamId")) change.set("team_id", teamRef(gql, input.teamId));
  if (has(input, "sortOrder")) {
    if (typeof input.sortOrder !== "number") throw invalidInput("sortOrder must be a number");
    change.set("sort_order", input.sortOrder);
  }
  change.write(gql.db, "lin_templates", before.id, { updated_at: iso(gql), last_updated_by_id: gql.viewerId });
  return { success: true, lastSyncId: syncId(gql), template: reload(gql, "Template", before.id) };
}

function templateDelete(gql: Gql, args: Args) {
  const template = findTemplate(gql, args.id);
  gql.db.run("DELETE FROM lin_templates WHERE id = ?", template.id);
  gql.forget("Template", template.id);
  return { success: true, lastSyncId: syncId(gql), entityId: template.id };
}

/** issueCreate, with `templateId`: the template's fields under the caller's own. */
function issueCreateFromTemplate(gql: Gql, args: Args) {
  const input = inputOf(args, "IssueCreateInput", [...ISSUE_CREATE_FIELDS, "templateId"]);
  if (!has(input, "templateId")) return { success: true, lastSyncId: syncId(gql), issue: createIssue(gql, input) };
  const template = findTemplate(gql, input.templateId);
  if (template.type !== "issue") throw invalidInput("The template is not an issue template", "This template cannot create an issue.");
  const { templateId: _applied, ...own } = input;
  const fromTemplate = templateDataOf(template);
  const merged: Record<string, unknown> = {
    ...fromTemplate,
    ...Object.fromEntries(Object.entries(own).filter(([, v]) => v !== undefined)),
  };
  const issue = createIssue(gql, merged);
  gql.db.run("UPDATE lin_issues SET last_applied_template_id = ? WHERE id = ?", template.id, issue.id);
  gql.db.run("UPDATE lin_templates SET last_applied_at = ? WHERE id = ?", iso(gql), template.id);
  return { success: true, lastSyncId: syncId(gql), issue: reload(gql, "Issue", issue.id) };
}

export const TEMPLATE_QUERIES: Record<string, Resolver> = {
  template: (_s, args, gql) => findTemplate(gql, args.id),
  templates: (_s, _a, gql) => gql.db.all<Row>("SELECT * FROM lin_templates ORDER BY sort_order, created_at, rowid"),
};

export const TEMPLATE_MUTATIONS: Record<string, Resolver> = {
  templateCreate: (_s, a, g) => templateCreate(g, a),
  templateUpdate: (_s, a, g) => templateUpdate(g, a),
  templateDelete: (_s, a, g) => templateDelete(g, a),
  issueCreate: (_s, a, g) => issueCreateFromTemplate(g, a),
};

export const TEMPLATE_TYPE: Record<string, Resolver> = {
  createdAt: (r) => r.created_at,
  updatedAt: (r) => r.updated_at,
  description: (r) => r.description,
  icon: (r) => r.icon,
  color: (r) => r.color,
  sortOrder: (r) => r.sort_order,
  lastAppliedAt: (r) => r.last_applied_at,
  // Linear's schema: "The template data as a JSON-encoded string"; @linear/sdk's Template model
  // parses it (`parseJson(data.templateData)`), so the JSON scalar carries the text, not an object.
  templateData: (r) => JSON.stringify(templateDataOf(r)),
  // The body the template pre-fills: an issue template's description.
  content: (r) => strOr(templateDataOf(r).description),
  team: (r, _a, gql) => gql.byId("Team", str(r.team_id)) ?? null,
  creator: (r, _a, gql) => gql.byId("User", str(r.creator_id)) ?? null,
  lastUpdatedBy: (r, _a, gql) => gql.byId("User", str(r.last_updated_by_id)) ?? null,
};
