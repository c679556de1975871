// users.threads.*: a thread is the messages sharing a threadId, oldest first.
import type { Route, TwinContext } from "../../types";
import { boolQuery, formatOf, gmailRoute, listQuery, maxResultsOf } from "../context";
import { fail, gJson, gNoContent, notFound } from "../errors";
import { checkedId } from "../ids";
import { isAtOrBefore, matcher, positionOf, tokenOf, walk } from "../store/list";
import { deleteMessage, relabel, threadMessages, trashMessage, untrashMessage, type StoredMessage } from "../store/messages";
import { messageView } from "../views";
import { labelChange } from "./messages";

function threadAt(ctx: TwinContext): StoredMessage[] {
  const messages = threadMessages(ctx.db, checkedId(ctx.params.id ?? ""));
  return messages.length ? messages : fail(notFound());
}

const historyOf = (messages: readonly StoredMessage[]) => String(Math.max(...messages.map((m) => m.historyId)));

/**
 * Threads newest first, each placed by its newest message that passes the filters. The page token
 * is the position of the last served thread's message (opaque, as messages.list's): the next page
 * walks on from there, leaving out threads a newer passing message already placed on a page.
 */
function list(ctx: TwinContext) {
  const max = maxResultsOf(ctx);
  const after = positionOf(ctx.query.get("pageToken"));
  const opts = {
    labelIds: listQuery(ctx, "labelIds"),
    q: ctx.query.get("q") ?? undefined,
    includeSpamTrash: boolQuery(ctx, "includeSpamTrash"),
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

function get(ctx: TwinContext) {
  const format = formatOf(ctx);
  const messages = threadAt(ctx);
  return gJson(200, {
    id: ctx.params.id,
    historyId: historyOf(messages),
    messages: messages.map((m) => messageView(m, format, listQuery(ctx, "metadataHeaders"))),
  });
}

function changeAll(ctx: TwinContext, change: (m: StoredMessage) => StoredMessage) {
  const messages = threadAt(ctx).map(change);
  return gJson(200, { id: ctx.params.id, historyId: historyOf(messages), messages: messages.map((m) => messageView(m, "minimal")) });
}

function remove(ctx: TwinContext) {
  for (const m of threadAt(ctx)) {
    if (m.isDraft) ctx.db.run("DELETE FROM gm_drafts WHERE message_id = ?", m.id);
    deleteMessage(ctx.db, m);
  }
  return gNoContent();
}

const T = "gmail.users.threads";

export const threadRoutes: readonly Route[] = [
  gmailRoute("GET", "/threads", `${T}.list`, "List threads", list),
  gmailRoute("GET", "/threads/:id", `${T}.get`, "Get a thread", get),
  gmailRoute("POST", "/threads/:id/modify", `${T}.modify`, "Change the labels of a thread's messages", (ctx) => {
    const { add, remove: rm } = labelChange(ctx);
    return changeAll(ctx, (m) => relabel(ctx.db, m, add, rm));
  }),
  gmailRoute("POST", "/threads/:id/trash", `${T}.trash`, "Move a thread to the trash", (ctx) =>
    changeAll(ctx, (m) => trashMessage(ctx.db, m)),
  ),
  gmailRoute("POST", "/threads/:id/untrash", `${T}.untrash`, "Take a thread out of the trash", (ctx) =>
    changeAll(ctx, (m) => untrashMessage(ctx.db, m)),
  ),
  gmailRoute("DELETE", "/threads/:id", `${T}.delete`, "Delete a thread for good", remove),
];
