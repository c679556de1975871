// users.getProfile and users.messages.*: list, get, send, insert, import, modify, batchModify,
// trash, untrash, delete, batchDelete, and attachments.get, with their media-upload forms.
import { decodeBase64, fromUtf8 } from "../../kit/bytes";
import type { Route, TwinContext } from "../../types";
import { callBody, boolQuery, carriedMail, formatOf, gmailRoute, jsonBody, listQuery, maxResultsOf, uploadRoute } from "../context";
import { badRequest, fail, gJson, gNoContent, notFound, readers } from "../errors";
import { checkedId, isGmailId } from "../ids";
import { headerValue } from "../mime";
import {
  deleteMessage,
  getMessage,
  insertMessage,
  labelExists,
  relabel,
  trashMessage,
  untrashMessage,
  type StoredMessage,
} from "../store/messages";
import { currentHistoryId, getMeta, mailboxAddress, nextMessageId } from "../store/meta";
import { arrivingThread, mailOf, sendMail } from "../store/outgoing";
import { page } from "../store/list";
import { messageRef, messageStub, messageView } from "../views";

/** A message by the id in the path: 400 for an id Gmail could not have issued, 404 for an unknown one. */
export function messageAt(ctx: TwinContext, param = "id"): StoredMessage {
  return getMessage(ctx.db, checkedId(ctx.params[param] ?? "")) ?? fail(notFound());
}

/**
 * Labels a modify may name: known ones, except SENT and DRAFT, which only sending and drafting set
 * (Gmail answers `Invalid label: SENT`, google-api-php-client#1254).
 */
export function checkLabels(ctx: TwinContext, ids: readonly string[]): void {
  for (const id of ids) {
    if (!labelExists(ctx.db, id)) fail(badRequest(`Invalid label: ${id}`));
    if (id === "DRAFT" || id === "SENT") fail(badRequest(`Invalid label: ${id}`));
  }
}

export function labelChange(ctx: TwinContext): { add: string[]; remove: string[] } {
  const body = jsonBody(ctx);
  const add = readers.optStringArray(body, "addLabelIds") ?? [];
  const remove = readers.optStringArray(body, "removeLabelIds") ?? [];
  // Gmail refuses a change that names no label (google-api-nodejs-client#312 shows its answer).
  if (!add.length && !remove.length) fail(badRequest("No label add or removes specified"));
  checkLabels(ctx, add);
  checkLabels(ctx, remove);
  return { add, remove };
}

function profile(ctx: TwinContext) {
  return gJson(200, {
    emailAddress: mailboxAddress(ctx.db),
    messagesTotal: Number(getMeta(ctx.db, "messages_total") ?? "0"),
    threadsTotal: Number(getMeta(ctx.db, "threads_total") ?? "0"),
    historyId: String(currentHistoryId(ctx.db)),
  });
}

function list(ctx: TwinContext) {
  const { items, next } = page(
    ctx.db,
    {
      labelIds: listQuery(ctx, "labelIds"),
      q: ctx.query.get("q") ?? undefined,
      includeSpamTrash: boolQuery(ctx, "includeSpamTrash"),
      now: ctx.clock.now(),
    },
    maxResultsOf(ctx),
    ctx.query.get("pageToken"),
  );
  const out: Record<string, unknown> = {};
  if (items.length) out.messages = items.map(messageStub);
  if (next) out.nextPageToken = next;
  // An estimate, as Gmail's is: this page, plus one when more follow.
  out.resultSizeEstimate = items.length + (next ? 1 : 0);
  return gJson(200, out);
}

function get(ctx: TwinContext) {
  const format = formatOf(ctx);
  return gJson(200, messageView(messageAt(ctx), format, listQuery(ctx, "metadataHeaders")));
}

function send(ctx: TwinContext) {
  const body = callBody(ctx);
  const mail = carriedMail(ctx, "raw");
  const sent = sendMail(ctx, mailOf(mail), readers.optString(body, "threadId"));
  return gJson(200, messageRef(sent));
}

/** insert and import: mail put straight into the mailbox, with the labels asked for. */
function store(ctx: TwinContext, kind: "insert" | "import") {
  const body = callBody(ctx);
  const mail = mailOf(carriedMail(ctx, "raw"));
  const asked = readers.optStringArray(body, "labelIds");
  const labelIds = asked ?? (kind === "import" ? ["INBOX", "UNREAD"] : []);
  for (const id of labelIds) if (!labelExists(ctx.db, id)) fail(badRequest(`Invalid label: ${id}`));
  const source = ctx.query.get("internalDateSource") ?? (kind === "import" ? "dateHeader" : "receivedTime");
  const dated = Date.parse(headerValue(mail.content.headers, "Date") ?? "");
  const internalDate = source === "dateHeader" && Number.isFinite(dated) ? dated : ctx.clock.now();
  const id = nextMessageId(ctx.db);
  const threadId = arrivingThread(ctx.db, readers.optString(body, "threadId"), mail.content.headers, id);
  const stored = insertMessage(ctx.db, { id, threadId, internalDate, labelIds, ...mail });
  return gJson(200, messageRef(stored));
}

function modify(ctx: TwinContext) {
  const m = messageAt(ctx);
  const { add, remove } = labelChange(ctx);
  return gJson(200, messageRef(relabel(ctx.db, m, add, remove)));
}

function idsOf(ctx: TwinContext): string[] {
  const ids = readers.optStringArray(jsonBody(ctx), "ids") ?? [];
  if (ids.length > 1000) fail(badRequest("Too many ids: at most 1000"));
  return ids.map(checkedId);
}

/** Unknown ids are skipped without a word, as Gmail does. */
function batchModify(ctx: TwinContext) {
  const ids = idsOf(ctx);
  const { add, remove } = labelChange(ctx);
  for (const id of ids) {
    const m = getMessage(ctx.db, id);
    if (m) relabel(ctx.db, m, add, remove);
  }
  return gNoContent();
}

function trash(ctx: TwinContext) {
  const m = messageAt(ctx);
  return gJson(200, messageRef(trashMessage(ctx.db, m)));
}

function untrash(ctx: TwinContext) {
  const m = messageAt(ctx);
  return gJson(200, messageRef(untrashMessage(ctx.db, m)));
}

function remove(ctx: TwinContext) {
  const m = messageAt(ctx);
  if (m.isDraft) ctx.db.run("DELETE FROM gm_drafts WHERE message_id = ?", m.id);
  deleteMessage(ctx.db, m);
  return gNoContent();
}

function batchDelete(ctx: TwinContext) {
  for (const id of idsOf(ctx)) {
    const m = getMessage(ctx.db, id);
    if (!m) continue;
    if (m.isDraft) ctx.db.run("DELETE FROM gm_drafts WHERE message_id = ?", m.id);
    deleteMessage(ctx.db, m);
  }
  return gNoContent();
}

function attachment(ctx: TwinContext) {
  const m = messageAt(ctx, "messageId");
  const token = ctx.params.id ?? "";
  const decoded = token.startsWith("ANGjdJ") ? decodeBase64(token.slice(6)) : undefined;
  const [owner, index] = decoded ? fromUtf8(decoded).split(":") : [];
  const file = owner === m.id && isGmailId(owner) ? m.content.attachments[Number(index)] : undefined;
  if (!file) return fail(notFound());
  const bytes = decodeBase64(file.data) ?? new Uint8Array();
  return gJson(200, {
    attachmentId: token,
    size: bytes.length,
    data: file.data.replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, ""),
  });
}

const M = "gmail.users.messages";

export const messageRoutes: readonly Route[] = [
  gmailRoute("GET", "/profile", "gmail.users.getProfile", "Get the mailbox's profile", profile),
  gmailRoute("GET", "/messages", `${M}.list`, "List messages", list),
  gmailRoute("POST", "/messages/send", `${M}.send`, "Send a message", send),
  uploadRoute("POST", "/messages/send", `${M}.send`, "Send a message", send),
  gmailRoute("POST", "/messages/import", `${M}.import`, "Import a message", (ctx) => store(ctx, "import")),
  uploadRoute("POST", "/messages/import", `${M}.import`, "Import a message", (ctx) => store(ctx, "import")),
  gmailRoute("POST", "/messages/batchModify", `${M}.batchModify`, "Change labels of many messages", batchModify),
  gmailRoute("POST", "/messages/batchDelete", `${M}.batchDelete`, "Delete many messages", batchDelete),
  gmailRoute("POST", "/messages", `${M}.insert`, "Insert a message", (ctx) => store(ctx, "insert")),
  uploadRoute("POST", "/messages", `${M}.insert`, "Insert a message", (ctx) => store(ctx, "insert")),
  gmailRoute("GET", "/messages/:messageId/attachments/:id", `${M}.attachments.get`, "Get an attachment", attachment),
  gmailRoute("GET", "/messages/:id", `${M}.get`, "Get a message", get),
  gmailRoute("POST", "/messages/:id/modify", `${M}.modify`, "Change a message's labels", modify),
  gmailRoute("POST", "/messages/:id/trash", `${M}.trash`, "Move a message to the trash", trash),
  gmailRoute("POST", "/messages/:id/untrash", `${M}.untrash`, "Take a message out of the trash", untrash),
  gmailRoute("DELETE", "/messages/:id", `${M}.delete`, "Delete a message for good", remove),
];
