// users.drafts.*: a draft is a message labelled DRAFT with a draft id of its own. Updating a
// draft replaces its message (a new message id, as Gmail does); sending it stores a new SENT
// message and deletes the draft.
import { z } from "zod";
import type { InputProblem } from "../../kit/route";
import type { Route, TwinContext, TwinResponse } from "../../types";
import { carriedMail } from "../context";
import { format, gmailRoute, type ListQuery, listShape, pageSize, uploadMetadata } from "../declare";
import { badRequest, fail, gJson, gNoContent, notFound } from "../errors";
import { page } from "../store/list";
import { deleteMessage, getMessage, insertMessage, type StoredMessage } from "../store/messages";
import { nextCount, nextMessageId } from "../store/meta";
import { mailOf, resolveThread, sendMail, type Mail } from "../store/outgoing";
import { type Format, messageRef, messageView } from "../views";

interface DraftRow {
  id: string;
  message_id: string;
}

function draftAt(ctx: TwinContext, id: string): { draft: DraftRow; message: StoredMessage } {
  const draft = ctx.db.one<DraftRow>("SELECT id, message_id FROM gm_drafts WHERE id = ?", id) ?? fail(notFound());
  const message = getMessage(ctx.db, draft.message_id) ?? fail(notFound());
  return { draft, message };
}

/**
 * The JSON of a draft call: the draft's message (its `raw` is parsed before the call, parse.ts) and,
 * for drafts.send, the draft's id. An upload carries the message in its body and this as metadata.
 */
const draftMessage = z
  .object({
    raw: z.string().optional().describe("The whole message, RFC 822, base64url-encoded"),
    threadId: z.string().optional().describe("The thread the draft replies in"),
  })
  .optional()
  .describe("The draft's message");
const draftBody = z
  .object({ id: z.string().optional().describe("The draft's id (ignored: the path names it)"), message: draftMessage })
  .default({});
const sendBody = z.object({ id: z.string().describe("The draft's id, e.g. r7390128431662530001"), message: draftMessage });
type DraftBody = z.output<typeof draftBody>;

/** Gmail's words for a send that names no draft (no body at all, or none with an id). */
function sendRefusal(problem: InputProblem): TwinResponse | undefined {
  const namesNothing = problem.path.length === 0 || (problem.path.length === 1 && problem.path[0] === "id");
  if (problem.place === "body" && namesNothing && problem.received === undefined) return noDraftId();
  return undefined;
}
const noDraftId = () => badRequest("Invalid draft: id is required");

function storeDraft(ctx: TwinContext, mail: Mail, requestedThread: string | undefined): StoredMessage {
  const id = nextMessageId(ctx.db);
  const threadId = resolveThread(ctx.db, requestedThread, mail.content.headers, id);
  return insertMessage(ctx.db, { id, threadId, internalDate: ctx.clock.now(), labelIds: ["DRAFT"], isDraft: true, ...mail });
}

const draftView = (id: string, m: StoredMessage) => ({ id, message: messageRef(m) });

function create(ctx: TwinContext, body: DraftBody) {
  const mail = mailOf(carriedMail(ctx, "draft.message.raw"));
  const message = storeDraft(ctx, mail, body.message?.threadId);
  const id = `r${(7390128431662540000n + BigInt(nextCount(ctx.db, "next_draft", 1))).toString()}`;
  ctx.db.run("INSERT INTO gm_drafts (id, message_id, seq) VALUES (?, ?, ?)", id, message.id, nextCount(ctx.db, "draft_seq", 1));
  return gJson(200, draftView(id, message));
}

function update(ctx: TwinContext, id: string, body: DraftBody) {
  const { draft, message: old } = draftAt(ctx, id);
  const mail = mailOf(carriedMail(ctx, "draft.message.raw"));
  const threadId = body.message?.threadId ?? (old.threadId === old.id ? undefined : old.threadId);
  deleteMessage(ctx.db, old);
  const message = storeDraft(ctx, mail, threadId);
  ctx.db.run("UPDATE gm_drafts SET message_id = ? WHERE id = ?", message.id, draft.id);
  return gJson(200, draftView(draft.id, message));
}

function list(ctx: TwinContext, query: Omit<ListQuery, "labelIds">) {
  const opts = { labelIds: ["DRAFT"], q: query.q, includeSpamTrash: query.includeSpamTrash === true, now: ctx.clock.now() };
  const { items, next } = page(ctx.db, opts, pageSize(query.maxResults), query.pageToken ?? null);
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

function get(ctx: TwinContext, id: string, format: Format) {
  const { draft, message } = draftAt(ctx, id);
  return gJson(200, { id: draft.id, message: messageView(message, format) });
}

function remove(ctx: TwinContext, id: string) {
  const { draft, message } = draftAt(ctx, id);
  ctx.db.run("DELETE FROM gm_drafts WHERE id = ?", draft.id);
  deleteMessage(ctx.db, message);
  return gNoContent();
}

function send(ctx: TwinContext, body: DraftBody) {
  const { draft, message } = draftAt(ctx, body.id ?? noDraftIdFail());
  // A message sent with the call replaces the draft's content first.
  const carried = ctx.req.prepared !== undefined ? mailOf(carriedMail(ctx, "draft.message.raw")) : undefined;
  const mail: Mail = carried ?? {
    content: message.content,
    ...(message.raw ? { raw: { text: message.raw, headers: message.headers, fits: message.form === "parsed" } } : {}),
  };
  const threadId = body.message?.threadId ?? (message.threadId === message.id ? undefined : message.threadId);
  const sent = sendMail(ctx, mail, threadId);
  ctx.db.run("DELETE FROM gm_drafts WHERE id = ?", draft.id);
  deleteMessage(ctx.db, message);
  return gJson(200, messageRef(sent));
}

const noDraftIdFail = (): never => fail(noDraftId());

const D = "gmail.users.drafts";
const byId = { id: z.string().min(1).describe("The draft's id, e.g. r7390128431662530001") };
const uploadQuery = {
  uploadType: z.string().optional().describe("multipart (JSON metadata and the message) or media (the message alone)"),
};
// drafts.list takes no labelIds: every draft is labelled DRAFT.
const { labelIds: _labelIds, ...draftListShape } = listShape;

export const draftRoutes: readonly Route[] = [
  gmailRoute({
    method: "GET",
    path: "/drafts",
    operation: `${D}.list`,
    summary: "List drafts",
    query: draftListShape,
    tool: { name: "list_drafts", description: "List drafts, newest first." },
    handler: (ctx, { query }) => list(ctx, query),
  }),
  gmailRoute({
    method: "POST",
    path: "/drafts",
    operation: `${D}.create`,
    summary: "Create a draft",
    body: draftBody,
    handler: (ctx, { body }) => create(ctx, body),
  }),
  gmailRoute({
    method: "POST",
    path: "/drafts",
    upload: true,
    operation: `${D}.create`,
    summary: "Create a draft",
    query: uploadQuery,
    handler: (ctx) => create(ctx, uploadMetadata(ctx, draftBody)),
  }),
  gmailRoute({
    method: "POST",
    path: "/drafts/send",
    operation: `${D}.send`,
    summary: "Send a draft",
    body: sendBody,
    refuse: sendRefusal,
    tool: { name: "send_draft", description: "Send a draft by its draft id (r…); the draft is removed and a SENT message stored." },
    handler: (ctx, { body }) => send(ctx, body),
  }),
  gmailRoute({
    method: "POST",
    path: "/drafts/send",
    upload: true,
    operation: `${D}.send`,
    summary: "Send a draft",
    query: uploadQuery,
    // The upload's metadata names the draft the way the JSON body does; its own refusal applies.
    handler: (ctx) => send(ctx, uploadMetadata(ctx, draftBody)),
  }),
  gmailRoute({
    method: "GET",
    path: "/drafts/:id",
    operation: `${D}.get`,
    summary: "Get a draft",
    params: byId,
    query: { format },
    tool: { name: "get_draft", description: "Get a draft and its message." },
    handler: (ctx, { params, query }) => get(ctx, params.id, query.format ?? "full"),
  }),
  gmailRoute({
    method: "PUT",
    path: "/drafts/:id",
    operation: `${D}.update`,
    summary: "Replace a draft's message",
    params: byId,
    body: draftBody,
    handler: (ctx, { params, body }) => update(ctx, params.id, body),
  }),
  gmailRoute({
    method: "PUT",
    path: "/drafts/:id",
    upload: true,
    operation: `${D}.update`,
    summary: "Replace a draft's message",
    params: byId,
    query: uploadQuery,
    handler: (ctx, { params }) => update(ctx, params.id, uploadMetadata(ctx, draftBody)),
  }),
  gmailRoute({
    method: "DELETE",
    path: "/drafts/:id",
    operation: `${D}.delete`,
    summary: "Delete a draft",
    params: byId,
    tool: { name: "delete_draft", description: "Delete a draft (it is not sent)." },
    handler: (ctx, { params }) => remove(ctx, params.id),
  }),
];
