// The authenticated user's notifications: list (all, participating, since, before), per
// repository, mark read (all, a repository's, one thread), mark done, and a thread's subscription.
import { z } from "zod";
import type { Route, TwinContext, TwinResponse } from "../../types";
import { apiUrl, isoNow, ok } from "../context";
import { lenient, repoParams, route } from "../declare";
import { fail, ghNoContent, ghNotFound, ghValidationFailed } from "../errors";
import { pageOf, paged } from "../pagination";
import { requireRepo } from "../repos";
import { View } from "../serialize";
import type { IssueRow } from "../store/rows";
import {
  findThread,
  listThreads,
  markRead,
  markThreadDone,
  markThreadRead,
  setSubscription,
  syncNotifications,
  type ThreadRow,
} from "../store/notifications";

/** GitHub's 205 Reset Content: done, and no body (a 205 may carry none). */
const resetContent = (): TwinResponse => ({ status: 205, headers: {}, body: "" });

const threadId = z.number().int().positive().describe("The notification thread's id (from list_notifications)");
const isoTime = z.string().describe("An ISO 8601 time, e.g. 2026-01-31T00:00:00Z");
const listQuery = {
  all: lenient(z.boolean()).describe("true to include threads already read (default false)"),
  participating: lenient(z.boolean()).describe("true for threads the user takes part in or is mentioned in"),
  since: isoTime.optional().describe("Only threads updated at or after this time"),
  before: isoTime.optional().describe("Only threads updated before this time"),
  per_page: lenient(z.number().int().positive()).describe("Results per page, up to 50 (default 50)"),
  page: lenient(z.number().int().positive()).describe("Page of results, starting at 1"),
};
type ListQuery = z.output<z.ZodObject<typeof listQuery>>;

/** A time GitHub reads as ISO 8601; anything else is its 422 naming the parameter. */
function checkedTime(value: string | undefined, field: string): string | undefined {
  if (value === undefined) return undefined;
  if (Number.isNaN(Date.parse(value))) fail(ghValidationFailed([{ resource: "Notification", field, code: "invalid", value }]));
  return value;
}

function threadObject(v: View, t: ThreadRow) {
  const repo = v.repoRow(t.repo_id);
  const issue = v.ctx.db.one<IssueRow>("SELECT * FROM gh_issues WHERE id = ?", t.issue_id);
  if (!repo || !issue) return undefined;
  const url = v.repoApi(repo, `/${issue.is_pull ? "pulls" : "issues"}/${issue.number}`);
  const lastComment = v.ctx.db.one<{ id: number }>(
    "SELECT id FROM gh_comments WHERE repo_id = ? AND issue_number = ? ORDER BY id DESC LIMIT 1",
    repo.id,
    issue.number,
  );
  const threadUrl = apiUrl(v.ctx, `/notifications/threads/${t.id}`);
  return {
    id: String(t.id),
    repository: v.repository(repo),
    subject: {
      title: issue.title,
      url,
      latest_comment_url: lastComment ? v.repoApi(repo, `/issues/comments/${lastComment.id}`) : url,
      type: issue.is_pull ? "PullRequest" : "Issue",
    },
    reason: t.reason,
    unread: t.unread === 1,
    updated_at: t.updated_at,
    last_read_at: t.last_read_at,
    url: threadUrl,
    subscription_url: `${threadUrl}/subscription`,
  };
}

function threadList(ctx: TwinContext, query: ListQuery, repoId?: number) {
  syncNotifications(ctx.db);
  const since = checkedTime(query.since, "since");
  const before = checkedTime(query.before, "before");
  // GitHub pages notifications 50 at a time, and no more.
  const page = pageOf(ctx, { perPage: 50, max: 50 });
  const { rows, total } = listThreads(
    ctx.db,
    { all: query.all ?? false, participating: query.participating ?? false, since, before, repoId },
    page.limit,
    page.offset,
  );
  const v = new View(ctx);
  return paged(
    ctx,
    rows.flatMap((t) => threadObject(v, t) ?? []),
    page,
    total,
  );
}

function requireThread(ctx: TwinContext, id: number): ThreadRow {
  syncNotifications(ctx.db);
  return findThread(ctx.db, id) ?? fail(ghNotFound());
}

function subscriptionObject(ctx: TwinContext, t: ThreadRow) {
  const url = apiUrl(ctx, `/notifications/threads/${t.id}`);
  // Without a choice of the user's own, the thread's reason is why they are subscribed.
  const chosen = t.subscribed !== null || t.ignored === 1;
  return {
    subscribed: chosen ? t.subscribed === 1 : true,
    ignored: t.ignored === 1,
    reason: chosen ? null : t.reason,
    created_at: t.subscribed_at ?? t.updated_at,
    url: `${url}/subscription`,
    thread_url: url,
  };
}

/** PUT …/notifications: everything updated at or before `last_read_at` (default now) is read; 205. */
const markAllBody = {
  last_read_at: z.string().optional().describe("Threads updated at or before this time are marked read (default now)"),
  read: z.boolean().optional().describe("Whether the threads are read (default true)"),
};

const threadParams = { thread_id: threadId };

const threadRoutes: readonly Route[] = [
  route({
    method: "GET",
    pattern: "/notifications/threads/:thread_id",
    operation: "activity.getThread",
    summary: "Get a thread",
    params: threadParams,
    tool: { name: "get_notification", description: "Get one notification thread: its subject, reason and whether it is unread." },
    handler: (ctx, { params: p }) => ok(threadObject(new View(ctx), requireThread(ctx, p.thread_id)) ?? fail(ghNotFound())),
  }),
  route({
    method: "PATCH",
    pattern: "/notifications/threads/:thread_id",
    operation: "activity.markThreadAsRead",
    summary: "Mark a thread as read",
    params: threadParams,
    tool: { name: "mark_notification_read", description: "Mark one notification thread read." },
    handler(ctx, { params: p }) {
      markThreadRead(ctx.db, requireThread(ctx, p.thread_id).id, isoNow(ctx));
      return resetContent();
    },
  }),
  route({
    method: "DELETE",
    pattern: "/notifications/threads/:thread_id",
    operation: "activity.markThreadAsDone",
    summary: "Mark a thread as done",
    params: threadParams,
    tool: { name: "mark_notification_done", description: "Mark one notification thread done: it leaves the inbox." },
    handler(ctx, { params: p }) {
      markThreadDone(ctx.db, requireThread(ctx, p.thread_id).id);
      return ghNoContent();
    },
  }),
  route({
    method: "GET",
    pattern: "/notifications/threads/:thread_id/subscription",
    operation: "activity.getThreadSubscriptionForAuthenticatedUser",
    summary: "Get a thread subscription for the authenticated user",
    params: threadParams,
    tool: {
      name: "get_notification_subscription",
      description: "Get whether the authenticated user is subscribed to, or has muted, a notification thread.",
    },
    handler: (ctx, { params: p }) => ok(subscriptionObject(ctx, requireThread(ctx, p.thread_id))),
  }),
  route({
    method: "PUT",
    pattern: "/notifications/threads/:thread_id/subscription",
    operation: "activity.setThreadSubscription",
    summary: "Set a thread subscription",
    params: threadParams,
    body: { ignored: z.boolean().optional().describe("true to mute the thread: no more notifications from it (default false)") },
    tool: { name: "set_notification_subscription", description: "Subscribe to a notification thread, or mute it with ignored=true." },
    handler(ctx, { params: p, body }) {
      const thread = requireThread(ctx, p.thread_id);
      setSubscription(ctx.db, thread.id, !body.ignored, body.ignored ?? false, isoNow(ctx));
      return ok(subscriptionObject(ctx, findThread(ctx.db, thread.id) ?? thread));
    },
  }),
  route({
    method: "DELETE",
    pattern: "/notifications/threads/:thread_id/subscription",
    operation: "activity.deleteThreadSubscription",
    summary: "Delete a thread subscription",
    params: threadParams,
    // GitHub mutes the thread until the user comments or is mentioned again.
    tool: {
      name: "delete_notification_subscription",
      description: "Unsubscribe from a notification thread: it notifies again only when you are mentioned or participate.",
    },
    handler(ctx, { params: p }) {
      setSubscription(ctx.db, requireThread(ctx, p.thread_id).id, false, false, isoNow(ctx));
      return ghNoContent();
    },
  }),
];

export const notificationRoutes: readonly Route[] = [
  route({
    method: "GET",
    pattern: "/notifications",
    operation: "activity.listNotificationsForAuthenticatedUser",
    summary: "List notifications for the authenticated user",
    query: listQuery,
    tool: {
      name: "list_notifications",
      description:
        "List your unread notifications (all=true for read ones too): mentions, assignments, review requests and replies on threads you take part in.",
    },
    handler: (ctx, { query }) => threadList(ctx, query),
  }),
  route({
    method: "GET",
    pattern: "/repos/:owner/:repo/notifications",
    operation: "activity.listRepoNotificationsForAuthenticatedUser",
    summary: "List repository notifications for the authenticated user",
    params: repoParams,
    query: listQuery,
    tool: {
      name: "list_repository_notifications",
      description: "List the authenticated user's notifications for one repository, unread ones by default.",
    },
    handler: (ctx, { query }) => threadList(ctx, query, requireRepo(ctx).id),
  }),
  route({
    method: "PUT",
    pattern: "/notifications",
    operation: "activity.markNotificationsAsRead",
    summary: "Mark notifications as read",
    body: markAllBody,
    tool: {
      name: "mark_all_notifications_read",
      description: "Mark every notification read (those updated at or before last_read_at, default now).",
    },
    handler(ctx, { body }) {
      syncNotifications(ctx.db);
      if (body.read !== false) markRead(ctx.db, checkedTime(body.last_read_at, "last_read_at") ?? isoNow(ctx));
      return resetContent();
    },
  }),
  route({
    method: "PUT",
    pattern: "/repos/:owner/:repo/notifications",
    operation: "activity.markRepoNotificationsAsRead",
    summary: "Mark repository notifications as read",
    params: repoParams,
    body: { last_read_at: markAllBody.last_read_at },
    tool: {
      name: "mark_repository_notifications_read",
      description: "Mark every notification of one repository read, optionally only those last updated before a time.",
    },
    handler(ctx, { body }) {
      const repo = requireRepo(ctx);
      syncNotifications(ctx.db);
      markRead(ctx.db, checkedTime(body.last_read_at, "last_read_at") ?? isoNow(ctx), repo.id);
      return resetContent();
    },
  }),
  ...threadRoutes,
];
