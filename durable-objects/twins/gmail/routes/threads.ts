// users.threads.*: a thread is the messages sharing a threadId, oldest first.
import type { Route, TwinContext } from "../../types";
import { boolQuery, formatOf, gmailRoute, listQuery, maxResultsOf } from "../context";
import { badRequest, fail, gJson, gNoContent, notFound } from "../errors";
import { checkedId } from "../ids";
import { walk } from "../store/list";
import { deleteMessage, relabel, threadMessages, type StoredMessage } from "../store/messages";
import { messageView } from "../views";
import { labelChange } from "./messages";

function threadAt(ctx: TwinContext): StoredMessage[] {
  const messages = threadMessages(ctx.db, checkedId(ctx.params.id ?? ""));
  return messages.length ? messages : fail(notFound());
}

const historyOf = (messages: readonly StoredMessage[]) => String(Math.max(...messages.map((m) => m.historyId)));

/** Threads newest first; the page token counts threads already served. */
function list(ctx: TwinContext) {
  const max = maxResultsOf(ctx);
  const token = ctx.query.get("pageToken");
  const skip = token === null ? 0 : /^\d+$/.test(token) ? Number(token) : fail(badRequest("Invalid pageToken"));
  const opts = {
    labelIds: listQuery(ctx, "labelIds"),
    q: ctx.query.get("q") ?? undefined,
    includeSpamTrash: boolQuery(ctx, "includeSpamTrash"),
    now: ctx.clock.now(),
  };
  const seen = new Set<string>();
  const threads: { id: string; snippet: string; historyId: string }[] = [];
  let more = false;
  for (const m of walk(ctx.db, opts)) {
    if (seen.has(m.threadId)) continue;
    seen.add(m.threadId);
    if (seen.size <= skip) continue;
    if (threads.length === max) {
      more = true;
      break;
    }
    const all = threadMessages(ctx.db, m.threadId);
    const latest = all[all.length - 1] ?? m;
    threads.push({ id: m.threadId, snippet: latest.snippet, historyId: historyOf(all) });
  }
  const out: Record<string, unknown> = {};
  if (threads.length) out.threads = threads;
  if (more) out.nextPageToken = String(skip + threads.length);
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

function relabelAll(ctx: TwinContext, add: string[], remove: string[]) {
  const messages = threadAt(ctx).map((m) => relabel(ctx.db, m, add, remove));
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
    return relabelAll(ctx, add, rm);
  }),
  gmailRoute("POST", "/threads/:id/trash", `${T}.trash`, "Move a thread to the trash", (ctx) =>
    relabelAll(ctx, ["TRASH"], ["INBOX", "SPAM"]),
  ),
  gmailRoute("POST", "/threads/:id/untrash", `${T}.untrash`, "Take a thread out of the trash", (ctx) => relabelAll(ctx, [], ["TRASH"])),
  gmailRoute("DELETE", "/threads/:id", `${T}.delete`, "Delete a thread for good", remove),
];
