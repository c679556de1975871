// users.threads.*: a thread is the messages sharing a threadId, oldest first.
import { z } from "zod";
import type { Route, TwinContext } from "../../types";
import { format, gmailId, gmailRoute, type ListQuery, listShape, pageSize, queryList } from "../declare";
import { fail, gJson, gNoContent, notFound } from "../errors";
import { checkedId } from "../ids";
import { isAtOrBefore, matcher, positionOf, tokenOf, walk } from "../store/list";
import { deleteMessage, relabel, threadMessages, trashMessage, untrashMessage, type StoredMessage } from "../store/messages";
import { type Format, messageView } from "../views";
import { labelChange, labelChangeBody } from "./messages";

function threadAt(ctx: TwinContext, id: string): StoredMessage[] {
  const messages = threadMessages(ctx.db, checkedId(id));
  return messages.length ? messages : fail(notFound());
}

const historyOf = (messages: readonly StoredMessage[]) => String(Math.max(...messages.map((m) => m.historyId)));

/**
 * Threads newest first, each placed by its newest message that passes the filters. The page token
 * is the position of the last served thread's message (opaque, as messages.list's): the next page
 * walks on from there, leaving out threads a newer passing message already placed on a page.
 */
function list(ctx: TwinContext, query: ListQuery) {
  const max = pageSize(query.maxResults);
  const after = positionOf(query.pageToken ?? null);
  const opts = {
    labelIds: queryList(ctx, query.labelIds),
    q: query.q,
    includeSpamTrash: query.includeSpamTrash === true,
    now: ctx.clock.now(),
  };
  const passes = matcher(ctx.db, opts);
  const seen = new Set<string>();
  const threads: { id: string; snippet: string; historyId: string }[] = [];
  let last: StoredMessage | undefined;
  let more = false;
  for (const m of walk(ctx.db, opts, after, Math.min(200, max + 1))) {
    if (seen.has(m.threadId)) continue;
    seen.add(m.threadId);
    const all = threadMessages(ctx.db, m.threadId);
    // A thread with a passing message at the token or before it was served on an earlier page.
    if (after && all.some((o) => isAtOrBefore(o, after) && passes(o))) continue;
    if (threads.length === max) {
      more = true;
      break;
    }
    const latest = all[all.length - 1] ?? m;
    threads.push({ id: m.threadId, snippet: latest.snippet, historyId: historyOf(all) });
    last = m;
  }
  const out: Record<string, unknown> = {};
  if (threads.length) out.threads = threads;
  if (more && last) out.nextPageToken = tokenOf(last);
  out.resultSizeEstimate = threads.length + (more ? 1 : 0);
  return gJson(200, out);
}

function get(ctx: TwinContext, id: string, format: Format, headers: readonly string[]) {
  const messages = threadAt(ctx, id);
  return gJson(200, {
    id,
    historyId: historyOf(messages),
    messages: messages.map((m) => messageView(m, format, headers)),
  });
}

function changeAll(ctx: TwinContext, id: string, change: (m: StoredMessage) => StoredMessage) {
  const messages = threadAt(ctx, id).map(change);
  return gJson(200, { id, historyId: historyOf(messages), messages: messages.map((m) => messageView(m, "minimal")) });
}

function remove(ctx: TwinContext, id: string) {
  for (const m of threadAt(ctx, id)) {
    if (m.isDraft) ctx.db.run("DELETE FROM gm_drafts WHERE message_id = ?", m.id);
    deleteMessage(ctx.db, m);
  }
  return gNoContent();
}

const T = "gmail.users.threads";
const byId = { id: gmailId("thread") };

export const threadRoutes: readonly Route[] = [
  gmailRoute({
    method: "GET",
    path: "/threads",
    operation: `${T}.list`,
    summary: "List threads",
    query: listShape,
    tool: { name: "list_threads", description: "List threads, newest first, filtered like list_messages." },
    handler: (ctx, { query }) => list(ctx, query),
  }),
  gmailRoute({
    method: "GET",
    path: "/threads/:id",
    operation: `${T}.get`,
    summary: "Get a thread",
    params: byId,
    query: { format, metadataHeaders: z.array(z.string()).optional().describe("With format metadata: the headers to return") },
    tool: { name: "get_thread", description: "Get a thread with all its messages, oldest first." },
    handler: (ctx, { params, query }) => get(ctx, params.id, query.format ?? "full", queryList(ctx, query.metadataHeaders)),
  }),
  gmailRoute({
    method: "POST",
    path: "/threads/:id/modify",
    operation: `${T}.modify`,
    summary: "Change the labels of a thread's messages",
    params: byId,
    body: labelChangeBody,
    tool: { name: "modify_thread", description: "Add and remove labels on every message of a thread." },
    handler: (ctx, { params, body }) => {
      const { add, remove: rm } = labelChange(ctx, body);
      return changeAll(ctx, params.id, (m) => relabel(ctx.db, m, add, rm));
    },
  }),
  gmailRoute({
    method: "POST",
    path: "/threads/:id/trash",
    operation: `${T}.trash`,
    summary: "Move a thread to the trash",
    params: byId,
    tool: { name: "trash_thread", description: "Move every message of a thread to the trash.", destructive: true },
    handler: (ctx, { params }) => changeAll(ctx, params.id, (m) => trashMessage(ctx.db, m)),
  }),
  gmailRoute({
    method: "POST",
    path: "/threads/:id/untrash",
    operation: `${T}.untrash`,
    summary: "Take a thread out of the trash",
    params: byId,
    tool: { name: "untrash_thread", description: "Take a thread's messages out of the trash, each back where trash took it from." },
    handler: (ctx, { params }) => changeAll(ctx, params.id, (m) => untrashMessage(ctx.db, m)),
  }),
  gmailRoute({
    method: "DELETE",
    path: "/threads/:id",
    operation: `${T}.delete`,
    summary: "Delete a thread for good",
    params: byId,
    handler: (ctx, { params }) => remove(ctx, params.id),
  }),
];
