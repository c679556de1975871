// users.getProfile and users.messages.*: list, get, send, insert, import, modify, batchModify,
// trash, untrash, delete, batchDelete, and attachments.get, with their media-upload forms.
import { z } from "zod";
import { decodeBase64, fromUtf8 } from "../../kit/bytes";
import type { Route, TwinContext } from "../../types";
import { carriedMail } from "../context";
import { format, gmailId, gmailRoute, labelIds, type ListQuery, listShape, pageSize, queryList, uploadMetadata } from "../declare";
import { badRequest, fail, gJson, gNoContent, notFound } from "../errors";
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

/** A message by its id: 400 for an id Gmail could not have issued, 404 for an unknown one. */
export function messageAt(ctx: TwinContext, id: string): StoredMessage {
  return getMessage(ctx.db, checkedId(id)) ?? fail(notFound());
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

/** The body of a label change (messages.modify, batchModify, threads.modify). */
export const labelChangeShape = {
  addLabelIds: labelIds.describe('Label ids to add, e.g. ["STARRED"] or "Label_1"'),
  removeLabelIds: labelIds.describe('Label ids to remove, e.g. ["INBOX"] to archive, ["UNREAD"] to mark read'),
};
export const labelChangeBody = z.object(labelChangeShape).default({});
type LabelChange = z.output<typeof labelChangeBody>;

export function labelChange(ctx: TwinContext, body: LabelChange): { add: string[]; remove: string[] } {
  const add = body.addLabelIds ?? [];
  const remove = body.removeLabelIds ?? [];
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

function list(ctx: TwinContext, query: ListQuery) {
  const { items, next } = page(
    ctx.db,
    { labelIds: queryList(ctx, query.labelIds), q: query.q, includeSpamTrash: query.includeSpamTrash === true, now: ctx.clock.now() },
    pageSize(query.maxResults),
    query.pageToken ?? null,
  );
  const out: Record<string, unknown> = {};
  if (items.length) out.messages = items.map(messageStub);
  if (next) out.nextPageToken = next;
  // An estimate, as Gmail's is: this page, plus one when more follow.
  out.resultSizeEstimate = items.length + (next ? 1 : 0);
  return gJson(200, out);
}

/** The JSON of a call carrying a message; an upload carries it in its body, this beside it. */
const rawField = z.string().optional().describe("The whole message, RFC 822, base64url-encoded");
const threadIdField = z.string().optional().describe("The thread the message joins");
const sendBody = z.object({ raw: rawField, threadId: threadIdField }).default({});
const storeBody = z
  .object({
    raw: rawField,
    threadId: threadIdField,
    labelIds: labelIds.describe('Labels the message gets (import defaults to ["INBOX", "UNREAD"])'),
  })
  .default({});
const storeQuery = {
  internalDateSource: z
    .string()
    .optional()
    .describe("dateHeader (the message's Date) or receivedTime (now); default receivedTime for insert, dateHeader for import"),
};
const uploadQuery = {
  uploadType: z.string().optional().describe("multipart (JSON metadata and the message) or media (the message alone)"),
};

function send(ctx: TwinContext, body: z.output<typeof sendBody>) {
  const mail = carriedMail(ctx, "raw");
  const sent = sendMail(ctx, mailOf(mail), body.threadId);
  return gJson(200, messageRef(sent));
}

/** insert and import: mail put straight into the mailbox, with the labels asked for. */
function store(ctx: TwinContext, kind: "insert" | "import", body: z.output<typeof storeBody>, dateSource: string | undefined) {
  const mail = mailOf(carriedMail(ctx, "raw"));
  const labels = body.labelIds ?? (kind === "import" ? ["INBOX", "UNREAD"] : []);
  for (const id of labels) if (!labelExists(ctx.db, id)) fail(badRequest(`Invalid label: ${id}`));
  const source = dateSource ?? (kind === "import" ? "dateHeader" : "receivedTime");
  const dated = Date.parse(headerValue(mail.content.headers, "Date") ?? "");
  const internalDate = source === "dateHeader" && Number.isFinite(dated) ? dated : ctx.clock.now();
  const id = nextMessageId(ctx.db);
  const threadId = arrivingThread(ctx.db, body.threadId, mail.content.headers, id);
  const stored = insertMessage(ctx.db, { id, threadId, internalDate, labelIds: labels, ...mail });
  return gJson(200, messageRef(stored));
}

const batchBody = z.object({ ids: z.array(z.string()).optional().describe("Message ids (at most 1000)"), ...labelChangeShape }).default({});

function idsOf(ids: readonly string[] | undefined): string[] {
  const all = ids ?? [];
  if (all.length > 1000) fail(badRequest("Too many ids: at most 1000"));
  return all.map(checkedId);
}

/** Unknown ids are skipped without a word, as Gmail does. */
function batchModify(ctx: TwinContext, body: z.output<typeof batchBody>) {
  const ids = idsOf(body.ids);
  const { add, remove } = labelChange(ctx, body);
  for (const id of ids) {
    const m = getMessage(ctx.db, id);
    if (m) relabel(ctx.db, m, add, remove);
  }
  return gNoContent();
}

function remove(ctx: TwinContext, m: StoredMessage) {
  if (m.isDraft) ctx.db.run("DELETE FROM gm_drafts WHERE message_id = ?", m.id);
  deleteMessage(ctx.db, m);
  return gNoContent();
}

function batchDelete(ctx: TwinContext, ids: readonly string[] | undefined) {
  for (const id of idsOf(ids)) {
    const m = getMessage(ctx.db, id);
    if (m) remove(ctx, m);
  }
  return gNoContent();
}

function attachment(ctx: TwinContext, messageId: string, token: string) {
  const m = messageAt(ctx, messageId);
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
const byId = { id: gmailId("message") };

export const messageRoutes: readonly Route[] = [
  gmailRoute({
    method: "GET",
    path: "/profile",
    operation: "gmail.users.getProfile",
    summary: "Get the mailbox's profile",
    tool: { name: "get_profile", description: "The mailbox's address, message and thread totals, and current historyId." },
    handler: (ctx) => profile(ctx),
  }),
  gmailRoute({
    method: "GET",
    path: "/messages",
    operation: `${M}.list`,
    summary: "List messages",
    query: listShape,
    tool: {
      name: "list_messages",
      description: "List message ids, newest first, filtered by Gmail search and labels (all labels must match).",
    },
    handler: (ctx, { query }) => list(ctx, query),
  }),
  gmailRoute({
    method: "POST",
    path: "/messages/send",
    operation: `${M}.send`,
    summary: "Send a message",
    body: sendBody,
    handler: (ctx, { body }) => send(ctx, body),
  }),
  gmailRoute({
    method: "POST",
    path: "/messages/send",
    upload: true,
    operation: `${M}.send`,
    summary: "Send a message",
    query: uploadQuery,
    handler: (ctx) => send(ctx, uploadMetadata(ctx, sendBody)),
  }),
  gmailRoute({
    method: "POST",
    path: "/messages/import",
    operation: `${M}.import`,
    summary: "Import a message",
    query: storeQuery,
    body: storeBody,
    handler: (ctx, { query, body }) => store(ctx, "import", body, query.internalDateSource),
  }),
  gmailRoute({
    method: "POST",
    path: "/messages/import",
    upload: true,
    operation: `${M}.import`,
    summary: "Import a message",
    query: { ...storeQuery, ...uploadQuery },
    handler: (ctx, { query }) => store(ctx, "import", uploadMetadata(ctx, storeBody), query.internalDateSource),
  }),
  gmailRoute({
    method: "POST",
    path: "/messages/batchModify",
    operation: `${M}.batchModify`,
    summary: "Change labels of many messages",
    body: batchBody,
    tool: { name: "batch_modify_messages", description: "Add and remove labels on many messages at once (unknown ids are skipped)." },
    handler: (ctx, { body }) => batchModify(ctx, body),
  }),
  gmailRoute({
    method: "POST",
    path: "/messages/batchDelete",
    operation: `${M}.batchDelete`,
    summary: "Delete many messages",
    body: z.object({ ids: z.array(z.string()).optional().describe("Message ids (at most 1000)") }).default({}),
    handler: (ctx, { body }) => batchDelete(ctx, body.ids),
  }),
  gmailRoute({
    method: "POST",
    path: "/messages",
    operation: `${M}.insert`,
    summary: "Insert a message",
    query: storeQuery,
    body: storeBody,
    handler: (ctx, { query, body }) => store(ctx, "insert", body, query.internalDateSource),
  }),
  gmailRoute({
    method: "POST",
    path: "/messages",
    upload: true,
    operation: `${M}.insert`,
    summary: "Insert a message",
    query: { ...storeQuery, ...uploadQuery },
    handler: (ctx, { query }) => store(ctx, "insert", uploadMetadata(ctx, storeBody), query.internalDateSource),
  }),
  gmailRoute({
    method: "GET",
    path: "/messages/:messageId/attachments/:id",
    operation: `${M}.attachments.get`,
    summary: "Get an attachment",
    params: { messageId: gmailId("message"), id: z.string().min(1).describe("The attachment's id, from the message's part body") },
    handler: (ctx, { params }) => attachment(ctx, params.messageId, params.id),
  }),
  gmailRoute({
    method: "GET",
    path: "/messages/:id",
    operation: `${M}.get`,
    summary: "Get a message",
    params: byId,
    query: { format, metadataHeaders: z.array(z.string()).optional().describe("With format metadata: the headers to return") },
    tool: { name: "get_message", description: "Get one message: headers, body parts, labels and snippet." },
    handler: (ctx, { params, query }) =>
      gJson(200, messageView(messageAt(ctx, params.id), query.format ?? "full", queryList(ctx, query.metadataHeaders))),
  }),
  gmailRoute({
    method: "POST",
    path: "/messages/:id/modify",
    operation: `${M}.modify`,
    summary: "Change a message's labels",
    params: byId,
    body: labelChangeBody,
    tool: { name: "modify_message", description: "Add and remove labels on a message (archive: remove INBOX; mark read: remove UNREAD)." },
    handler: (ctx, { params, body }) => {
      const m = messageAt(ctx, params.id);
      const { add, remove: rm } = labelChange(ctx, body);
      return gJson(200, messageRef(relabel(ctx.db, m, add, rm)));
    },
  }),
  gmailRoute({
    method: "POST",
    path: "/messages/:id/trash",
    operation: `${M}.trash`,
    summary: "Move a message to the trash",
    params: byId,
    tool: { name: "trash_message", description: "Move a message to the trash.", destructive: true },
    handler: (ctx, { params }) => gJson(200, messageRef(trashMessage(ctx.db, messageAt(ctx, params.id)))),
  }),
  gmailRoute({
    method: "POST",
    path: "/messages/:id/untrash",
    operation: `${M}.untrash`,
    summary: "Take a message out of the trash",
    params: byId,
    tool: {
      name: "untrash_message",
      description: "Take a message out of the trash, back where trash took it from (the inbox, or spam).",
    },
    handler: (ctx, { params }) => gJson(200, messageRef(untrashMessage(ctx.db, messageAt(ctx, params.id)))),
  }),
  gmailRoute({
    method: "DELETE",
    path: "/messages/:id",
    operation: `${M}.delete`,
    summary: "Delete a message for good",
    params: byId,
    handler: (ctx, { params }) => remove(ctx, messageAt(ctx, params.id)),
  }),
];
