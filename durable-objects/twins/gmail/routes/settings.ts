// users.settings: filters (list, get, create, delete) and vacation (send-as, forwarding,
// delegates, IMAP, POP and language have their own files).
import type { Route, TwinContext } from "../../types";
import { gmailRoute, jsonBody } from "../context";
import { badRequest, fail, gJson, gNoContent, invalidQuery, notFound, readers } from "../errors";
import { isBody } from "../../kit/input";
import { criteriaProblem } from "../store/filters";
import { labelExists } from "../store/messages";
import { getJson, nextCount, setJson } from "../store/meta";
import type { GmailVacation } from "../seed";

interface FilterRow {
  id: string;
  criteria: string;
  action: string;
}

const filterView = (f: FilterRow) => ({ id: f.id, criteria: JSON.parse(f.criteria) as unknown, action: JSON.parse(f.action) as unknown });

const CRITERIA = ["from", "to", "subject", "query", "negatedQuery", "hasAttachment", "excludeChats", "size", "sizeComparison"];
const ACTION = ["addLabelIds", "removeLabelIds", "forward"];

function createFilter(ctx: TwinContext) {
  const body = jsonBody(ctx);
  const criteria = isBody(body.criteria) ? body.criteria : {};
  const action = isBody(body.action) ? body.action : {};
  for (const key of Object.keys(criteria))
    if (!CRITERIA.includes(key)) fail(badRequest(`Invalid JSON payload received. Unknown name "${key}" at 'filter.criteria'`));
  for (const key of Object.keys(action))
    if (!ACTION.includes(key)) fail(badRequest(`Invalid JSON payload received. Unknown name "${key}" at 'filter.action'`));
  if (!Object.keys(criteria).length) fail(badRequest("Filter doesn't have any criteria"));
  if (!Object.keys(action).length) fail(badRequest("Filter doesn't have any actions"));
  // The query is read now, as Gmail does when it saves a filter, so it can run at every delivery.
  for (const key of ["from", "to", "subject", "query", "negatedQuery"]) readers.optString(criteria, key);
  readers.optBoolean(criteria, "hasAttachment");
  if (criteriaProblem(criteria)) fail(invalidQuery());
  for (const key of ["addLabelIds", "removeLabelIds"]) {
    for (const id of readers.optStringArray(action, key) ?? [])
      if (!labelExists(ctx.db, id)) fail(badRequest(`Invalid label ${id} in AddLabelIds`));
  }
  const id = `ANe1Bmk${String(nextCount(ctx.db, "next_filter", 1)).padStart(3, "0")}`;
  const row = { id, criteria: JSON.stringify(criteria), action: JSON.stringify(action) };
  ctx.db.run(
    "INSERT INTO gm_filters (id, criteria, action, seq) VALUES (?, ?, ?, ?)",
    id,
    row.criteria,
    row.action,
    nextCount(ctx.db, "filter_seq", 1),
  );
  return gJson(200, filterView(row));
}

const filterAt = (ctx: TwinContext) =>
  ctx.db.one<FilterRow>("SELECT id, criteria, action FROM gm_filters WHERE id = ?", ctx.params.id ?? "") ?? fail(notFound());

const VACATION_KEYS = [
  "enableAutoReply",
  "responseSubject",
  "responseBodyPlainText",
  "responseBodyHtml",
  "restrictToContacts",
  "restrictToDomain",
  "startTime",
  "endTime",
];

function updateVacation(ctx: TwinContext) {
  const body = jsonBody(ctx);
  for (const key of Object.keys(body))
    if (!VACATION_KEYS.includes(key)) fail(badRequest(`Invalid JSON payload received. Unknown name "${key}"`));
  const out: GmailVacation = { enableAutoReply: readers.optBoolean(body, "enableAutoReply") ?? false };
  for (const key of ["responseSubject", "responseBodyPlainText", "responseBodyHtml"] as const) {
    const v = readers.optString(body, key);
    if (v !== undefined) out[key] = v;
  }
  for (const key of ["restrictToContacts", "restrictToDomain"] as const) {
    const v = readers.optBoolean(body, key);
    if (v !== undefined) out[key] = v;
  }
  for (const key of ["startTime", "endTime"] as const) {
    const v = readers.optNumber(body, key);
    if (typeof v === "number") out[key] = String(v);
  }
  setJson(ctx.db, "vacation", out);
  return gJson(200, out);
}

const S = "gmail.users.settings";

export const settingsRoutes: readonly Route[] = [
  gmailRoute("GET", "/settings/filters", `${S}.filters.list`, "List filters", (ctx) => {
    const filters = ctx.db.all<FilterRow>("SELECT id, criteria, action FROM gm_filters ORDER BY seq").map(filterView);
    return gJson(200, filters.length ? { filter: filters } : {});
  }),
  gmailRoute("POST", "/settings/filters", `${S}.filters.create`, "Create a filter", createFilter),
  gmailRoute("GET", "/settings/filters/:id", `${S}.filters.get`, "Get a filter", (ctx) => gJson(200, filterView(filterAt(ctx)))),
  gmailRoute("DELETE", "/settings/filters/:id", `${S}.filters.delete`, "Delete a filter", (ctx) => {
    ctx.db.run("DELETE FROM gm_filters WHERE id = ?", filterAt(ctx).id);
    return gNoContent();
  }),
  gmailRoute("GET", "/settings/vacation", `${S}.getVacation`, "Get the auto-reply settings", (ctx) =>
    gJson(200, getJson<GmailVacation>(ctx.db, "vacation", { enableAutoReply: false })),
  ),
  gmailRoute("PUT", "/settings/vacation", `${S}.updateVacation`, "Replace the auto-reply settings", updateVacation),
];
