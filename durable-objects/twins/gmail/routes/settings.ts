// users.settings: filters (list, get, create, delete) and vacation (send-as, forwarding,
// delegates, IMAP, POP and language have their own files).
import { z } from "zod";
import type { Route, TwinContext } from "../../types";
import { gmailRoute, labelIds } from "../declare";
import { badRequest, fail, gJson, gNoContent, invalidQuery, notFound } from "../errors";
import { criteriaProblem, type FilterCriteria } from "../store/filters";
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

const text = (what: string) => z.string().optional().describe(what);
/**
 * A filter as filters.create takes it. Its objects keep every key, so the handler can answer
 * Gmail's own refusal for a name it does not know.
 */
const filterBody = z
  .object({
    criteria: z
      .looseObject({
        from: text("Sender to match"),
        to: text("Recipient to match"),
        subject: text("Subject text to match"),
        query: text("A Gmail search to match"),
        negatedQuery: text("A Gmail search the mail must not match"),
        hasAttachment: z.boolean().optional().describe("Only mail with an attachment"),
        excludeChats: z.unknown().optional().describe("Leave chats out (a boolean)"),
        size: z.unknown().optional().describe("A size in bytes to compare with (an integer)"),
        sizeComparison: z.unknown().optional().describe("larger or smaller"),
      })
      .optional()
      .describe("What arriving mail the filter matches"),
    action: z
      .looseObject({
        addLabelIds: labelIds.describe("Labels to add"),
        removeLabelIds: labelIds.describe("Labels to remove (INBOX to skip the inbox)"),
        forward: text("An accepted forwarding address to forward to"),
      })
      .optional()
      .describe("What the filter does to matching mail"),
  })
  .default({});

function createFilter(ctx: TwinContext, body: z.output<typeof filterBody>) {
  const criteria: FilterCriteria & Record<string, unknown> = body.criteria ?? {};
  const action: { addLabelIds?: string[]; removeLabelIds?: string[] } & Record<string, unknown> = body.action ?? {};
  for (const key of Object.keys(criteria))
    if (!CRITERIA.includes(key)) fail(badRequest(`Invalid JSON payload received. Unknown name "${key}" at 'filter.criteria'`));
  for (const key of Object.keys(action))
    if (!ACTION.includes(key)) fail(badRequest(`Invalid JSON payload received. Unknown name "${key}" at 'filter.action'`));
  if (!Object.keys(criteria).length) fail(badRequest("Filter doesn't have any criteria"));
  if (!Object.keys(action).length) fail(badRequest("Filter doesn't have any actions"));
  // The query is read now, as Gmail does when it saves a filter, so it can run at every delivery.
  if (criteriaProblem(criteria)) fail(invalidQuery());
  for (const id of [...(action.addLabelIds ?? []), ...(action.removeLabelIds ?? [])])
    if (!labelExists(ctx.db, id)) fail(badRequest(`Invalid label ${id} in AddLabelIds`));
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

const filterAt = (ctx: TwinContext, id: string) =>
  ctx.db.one<FilterRow>("SELECT id, criteria, action FROM gm_filters WHERE id = ?", id) ?? fail(notFound());

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

/** A time in epoch milliseconds: a whole JSON number, or one written as digits (Google's int64 form). */
const epochMs = (what: string) =>
  z
    .union([z.number().int(), z.string().regex(/^\d+$/)])
    .nullable()
    .optional()
    .describe(`${what}, in epoch milliseconds`);

/** The responder as updateVacation takes it; every key is kept so an unknown one is refused by name. */
const vacationBody = z
  .looseObject({
    enableAutoReply: z.boolean().optional().describe("Whether the responder is on (default off)"),
    responseSubject: text("Subject of the automatic reply"),
    responseBodyPlainText: text("Text of the automatic reply"),
    responseBodyHtml: text("HTML of the automatic reply"),
    restrictToContacts: z.boolean().optional().describe("Reply only to the mailbox's contacts"),
    restrictToDomain: z.boolean().optional().describe("Reply only to the mailbox's own domain"),
    startTime: epochMs("When replies start"),
    endTime: epochMs("When replies stop"),
  })
  .default({});

function updateVacation(ctx: TwinContext, body: z.output<typeof vacationBody>) {
  for (const key of Object.keys(body))
    if (!VACATION_KEYS.includes(key)) fail(badRequest(`Invalid JSON payload received. Unknown name "${key}"`));
  const out: GmailVacation = { enableAutoReply: body.enableAutoReply ?? false };
  for (const key of ["responseSubject", "responseBodyPlainText", "responseBodyHtml"] as const) {
    const v = body[key];
    if (v !== undefined) out[key] = v;
  }
  for (const key of ["restrictToContacts", "restrictToDomain"] as const) {
    const v = body[key];
    if (v !== undefined) out[key] = v;
  }
  for (const key of ["startTime", "endTime"] as const) {
    const v = body[key];
    if (v !== undefined && v !== null) out[key] = String(Number(v));
  }
  setJson(ctx.db, "vacation", out);
  return gJson(200, out);
}

const S = "gmail.users.settings";
const byId = { id: z.string().min(1).describe("The filter's id") };

export const settingsRoutes: readonly Route[] = [
  gmailRoute({
    method: "GET",
    path: "/settings/filters",
    operation: `${S}.filters.list`,
    summary: "List filters",
    tool: { name: "list_filters", description: "The mailbox's filters: criteria and the labels they add or remove." },
    handler: (ctx) => {
      const filters = ctx.db.all<FilterRow>("SELECT id, criteria, action FROM gm_filters ORDER BY seq").map(filterView);
      return gJson(200, filters.length ? { filter: filters } : {});
    },
  }),
  gmailRoute({
    method: "POST",
    path: "/settings/filters",
    operation: `${S}.filters.create`,
    summary: "Create a filter",
    body: filterBody,
    handler: (ctx, { body }) => createFilter(ctx, body),
  }),
  gmailRoute({
    method: "GET",
    path: "/settings/filters/:id",
    operation: `${S}.filters.get`,
    summary: "Get a filter",
    params: byId,
    handler: (ctx, { params }) => gJson(200, filterView(filterAt(ctx, params.id))),
  }),
  gmailRoute({
    method: "DELETE",
    path: "/settings/filters/:id",
    operation: `${S}.filters.delete`,
    summary: "Delete a filter",
    params: byId,
    tool: { name: "delete_filter", description: "Delete a filter by its id." },
    handler: (ctx, { params }) => {
      ctx.db.run("DELETE FROM gm_filters WHERE id = ?", filterAt(ctx, params.id).id);
      return gNoContent();
    },
  }),
  gmailRoute({
    method: "GET",
    path: "/settings/vacation",
    operation: `${S}.getVacation`,
    summary: "Get the auto-reply settings",
    tool: { name: "get_vacation", description: "The auto-reply (vacation responder) settings." },
    handler: (ctx) => gJson(200, getJson<GmailVacation>(ctx.db, "vacation", { enableAutoReply: false })),
  }),
  gmailRoute({
    method: "PUT",
    path: "/settings/vacation",
    operation: `${S}.updateVacation`,
    summary: "Replace the auto-reply settings",
    body: vacationBody,
    tool: { name: "update_vacation", description: "Turn the auto-reply on or off and set its subject and text." },
    handler: (ctx, { body }) => updateVacation(ctx, body),
  }),
];
