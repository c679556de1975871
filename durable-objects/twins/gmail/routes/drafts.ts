// users.drafts.*: a draft is a message labelled DRAFT with a draft id of its own. Updating a
// draft replaces its message (a new message id, as Gmail does); sending it stores a new SENT
// message and deletes the draft.
import type { Route, TwinContext } from "../../types";
import { boolQuery, callBody, carriedMail, formatOf, gmailRoute, maxResultsOf, uploadRoute } from "../context";
import { badRequest, fail, gJson, gNoContent, notFound, readers } from "../errors";
import { isBody } from "../../kit/input";
import { page } from "../store/list";
import { deleteMessage, getMessage, insertMessage, type StoredMessage } from "../store/messages";
import { nextCount, nextMessageId } from "../store/meta";
import { mailOf, resolveThread, sendMail, type Mail } from "../store/outgoing";
import { messageRef, messageView } from "../views";

interface DraftRow {
  id: string;
  message_id: string;
}

function draftAt(ctx: TwinContext, id: string): { draft: DraftRow; message: StoredMessage } {
  const draft = ctx.db.one<DraftRow>("SELECT id, message_id FROM gm_drafts WHERE id = ?", id) ?? fail(notFound());
  const message = getMessage(ctx.db, draft.message_id) ?? fail(notFound());
  return { draft, message };
}

/** The `message` object of a draft call (for an upload, from its metadata part). */
function messageField(ctx: TwinContext): Record<string, unknown> {
  const body = callBody(ctx);
  return isBody(body.message) ? body.message : {};
}

function storeDraft(ctx: TwinContext, mail: Mail, requestedThread: string | undefined): StoredMessage {
  const id = nextMessageId(ctx.db);
  const threadId = resolveThread(ctx.db, requestedThread, mail.content.headers, id);
  return insertMessage(ctx.db, { id, threadId, internalDate: ctx.clock.now(), labelIds: ["DRAFT"], isDraft: true, ...mail });
}

const draftView = (id: string, m: StoredMessage) => ({ id, message: messageRef(m) });

function create(ctx: TwinContext) {
  const mail = mailOf(carriedMail(ctx, "draft.message.raw"));
  const message = storeDraft(ctx, mail, readers.optString(messageField(ctx), "threadId"));
  const id = `r${(7390128431662540000n + BigInt(nextCount(ctx.db, "next_draft", 1))).toString()}`;
  ctx.db.run("INSERT INTO gm_drafts (id, message_id, seq) VALUES (?, ?, ?)", id, message.id, nextCount(ctx.db, "draft_seq", 1));
  return gJson(200, draftView(id, message));
}

function update(ctx: TwinContext) {
  const { draft, message: old } = draftAt(ctx, ctx.params.id ?? "");
  const mail = mailOf(carriedMail(ctx, "draft.message.raw"));
  const threadId = readers.optString(messageField(ctx), "threadId") ?? (old.threadId === old.id ? undefined : old.threadId);
  deleteMessage(ctx.db, old);
  const message = storeDraft(ctx, mail, threadId);
  ctx.db.run("UPDATE gm_drafts SET message_id = ? WHERE id = ?", message.id, draft.id);
  return gJson(200, draftView(draft.id, message));
}

function list(ctx: TwinContext) {
  const opts = {
    labelIds: ["DRAFT"],
    q: ctx.query.get("q") ?? undefined,
    includeSpamTrash: boolQuery(ctx, "includeSpamTrash"),
    now: ctx.clock.now(),
  };
  const { items, next } = page(ctx.db, opts, maxResultsOf(ctx), ctx.query.get("pageToken"));
  const drafts = items.flatMap((m) => {
    const row = ctx.db.one<{ id: string }>("SELECT id FROM gm_drafts WHERE message_id = ?", m.id);
    return row ? [{ id: row.id, message: { id: m.id, threadId: m.threadId } }] : [];
  });
  const out: Record<string, unknown> = {};
  if (drafts.length) out.drafts = drafts;
  if (next) out.nextPageToken = next;
  out.resultSizeEstimate = drafts.length + (next ? 1 : 0);
  return gJson(200, out);
}

function get(ctx: TwinContext) {
  const format = formatOf(ctx);
  const { draft, message } = draftAt(ctx, ctx.params.id ?? "");
  return gJson(200, { id: draft.id, message: messageView(message, format) });
}

function remove(ctx: TwinContext) {
  const { draft, message } = draftAt(ctx, ctx.params.id ?? "");
  ctx.db.run("DELETE FROM gm_drafts WHERE id = ?", draft.id);
  deleteMessage(ctx.db, message);
  return gNoContent();
}

function send(ctx: TwinContext) {
  const body = callBody(ctx);
  const id = readers.optString(body, "id") ?? fail(badRequest("Invalid draft: id is required"));
  const { draft, message } = draftAt(ctx, id);
  // A message sent with the call replaces the draft's content first.
  const carried = ctx.req.prepared !== undefined ? mailOf(carriedMail(ctx, "draft.message.raw")) : undefined;
  const mail: Mail = carried ?? {
    content: message.content,
    ...(message.raw ? { raw: { text: message.raw, headers: message.headers, fits: message.form === "parsed" } } : {}),
  };
  const threadId = readers.optString(messageField(ctx), "threadId") ?? (message.threadId === message.id ? undefined : message.threadId);
  const sent = sendMail(ctx, mail, threadId);
  ctx.db.run("DELETE FROM gm_drafts WHERE id = ?", draft.id);
  deleteMessage(ctx.db, message);
  return gJson(200, messageRef(sent));
}

const D = "gmail.users.drafts";

export const draftRoutes: readonly Route[] = [
  gmailRoute("GET", "/drafts", `${D}.list`, "List drafts", list),
  gmailRoute("POST", "/drafts", `${D}.create`, "Create a draft", create),
  uploadRoute("POST", "/drafts", `${D}.create`, "Create a draft", create),
  gmailRoute("POST", "/drafts/send", `${D}.send`, "Send a draft", send),
  uploadRoute("POST", "/drafts/send", `${D}.send`, "Send a draft", send),
  gmailRoute("GET", "/drafts/:id", `${D}.get`, "Get a draft", get),
  gmailRoute("PUT", "/drafts/:id", `${D}.update`, "Replace a draft's message", update),
  uploadRoute("PUT", "/drafts/:id", `${D}.update`, "Replace a draft's message", update),
  gmailRoute("DELETE", "/drafts/:id", `${D}.delete`, "Delete a draft", remove),
];
