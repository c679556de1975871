// Activity on issues and pull requests: reactions (issues, issue comments), issue events, and the
// timeline. These routes come before the issue routes, so `/issues/events` is never read as an
// issue number.
import type { Route, TwinContext } from "../../types";
import { jsonBody, ok, route, storeOf } from "../context";
import { fail, ghNoContent, ghNotFound } from "../errors";
import { notSupplied, oneOf } from "../input";
import { pageOf, paged } from "../pagination";
import { requireRepo, requireWritableRepo, type RepoRow } from "../repos";
import { View } from "../serialize";
import { requireComment } from "../store/comments";
import { findEvent, issueEvents, repoEvents } from "../store/events";
import { requireIssue } from "../store/issues";
import { pullCommits } from "../store/merge";
import { deleteReaction, listReactions, react, REACTION_CONTENTS, type ReactionSubject } from "../store/reactions";
import type { CommentRow, IssueRow, ReviewRow } from "../store/rows";
import { commitTime, issueEventObject, reactionObject, timelineObject, timelineOrder, type TimelineItem } from "../view-activity";
import { issueObject } from "../view-issues";

/** The subject a reaction route names, after checking it exists in the repository. */
type SubjectOf = (ctx: TwinContext, repo: RepoRow) => { subject: ReactionSubject; id: number };

const issueSubject: SubjectOf = (ctx, repo) => ({ subject: "issue", id: requireIssue(ctx.db, repo.id, ctx.params.issue_number).id });
const commentSubject: SubjectOf = (ctx, repo) => ({ subject: "comment", id: requireComment(ctx.db, repo.id, ctx.params.comment_id).id });

/** List, create and delete routes of one reaction subject, under `base`. */
export function reactionRoutes(base: string, names: { list: string; create: string; delete: string }, subjectOf: SubjectOf): Route[] {
  return [
    route("GET", `${base}/reactions`, names.list, "List reactions", (ctx) => {
      const repo = requireRepo(ctx);
      const { subject, id } = subjectOf(ctx, repo);
      const content = ctx.query.get("content") || undefined;
      if (content !== undefined) oneOf(content, REACTION_CONTENTS, "Reaction", "content");
      const page = pageOf(ctx);
      const { rows, total } = listReactions(ctx.db, subject, id, content, page.limit, page.offset);
      const v = new View(ctx);
      return paged(
        ctx,
        rows.map((r) => reactionObject(v, r)),
        page,
        total,
        repo.id,
      );
    }),
    route("POST", `${base}/reactions`, names.create, "Create reaction", (ctx) => {
      const repo = requireWritableRepo(ctx);
      const { subject, id } = subjectOf(ctx, repo);
      const body = jsonBody(ctx);
      const content = oneOf(body.content, REACTION_CONTENTS, "Reaction", "content") ?? notSupplied("content");
      const { row, created } = react(storeOf(ctx), repo.id, subject, id, content);
      // The docs: "201 Reaction created", "200 Reaction exists".
      return ok(reactionObject(new View(ctx), row), created ? 201 : 200);
    }),
    route("DELETE", `${base}/reactions/:reaction_id`, names.delete, "Delete reaction", (ctx) => {
      const repo = requireWritableRepo(ctx);
      const { subject, id } = subjectOf(ctx, repo);
      const reaction = Number(ctx.params.reaction_id);
      if (!Number.isInteger(reaction) || !deleteReaction(ctx.db, subject, id, reaction)) fail(ghNotFound());
      return ghNoContent();
    }),
  ];
}

function timeline(ctx: TwinContext, repo: RepoRow, issue: IssueRow): TimelineItem[] {
  const items: TimelineItem[] = issueEvents(ctx.db, issue.id).map((row) => ({ kind: "event", at: row.created_at, order: row.id, row }));
  for (const row of ctx.db.all<CommentRow>(
    "SELECT * FROM gh_comments WHERE repo_id = ? AND issue_number = ? ORDER BY id",
    repo.id,
    issue.number,
  ))
    items.push({ kind: "comment", at: row.created_at, order: row.id, row });
  if (issue.is_pull) {
    const reviews = ctx.db.all<ReviewRow>(
      "SELECT * FROM gh_reviews WHERE repo_id = ? AND pull_number = ? AND state != 'PENDING' ORDER BY id",
      repo.id,
      issue.number,
    );
    for (const row of reviews) items.push({ kind: "review", at: row.submitted_at ?? issue.created_at, order: row.id, row });
    for (const row of pullCommits(ctx.db, issue)) items.push({ kind: "commit", at: commitTime(row), order: row.seq, row });
  }
  return timelineOrder(items);
}

export const activityRoutes: readonly Route[] = [
  route("GET", "/repos/:owner/:repo/issues/events", "issues.listEventsForRepo", "List issue events for a repository", (ctx) => {
    const repo = requireRepo(ctx);
    const page = pageOf(ctx);
    const { rows, total } = repoEvents(ctx.db, repo.id, page.limit, page.offset);
    const v = new View(ctx);
    const issueOf = (id: number) => {
      const row = ctx.db.one<IssueRow>("SELECT * FROM gh_issues WHERE id = ?", id);
      return row ? issueObject(v, repo, row) : null;
    };
    return paged(
      ctx,
      rows.map((e) => issueEventObject(v, repo, e, issueOf(e.issue_id))),
      page,
      total,
      repo.id,
    );
  }),
  route("GET", "/repos/:owner/:repo/issues/events/:event_id", "issues.getEvent", "Get an issue event", (ctx) => {
    const repo = requireRepo(ctx);
    const id = Number(ctx.params.event_id);
    const event = (Number.isInteger(id) ? findEvent(ctx.db, repo.id, id) : undefined) ?? fail(ghNotFound());
    const v = new View(ctx);
    const issue = ctx.db.one<IssueRow>("SELECT * FROM gh_issues WHERE id = ?", event.issue_id);
    return ok(issueEventObject(v, repo, event, issue ? issueObject(v, repo, issue) : null));
  }),
  route("GET", "/repos/:owner/:repo/issues/:issue_number/events", "issues.listEvents", "List issue events", (ctx) => {
    const repo = requireRepo(ctx);
    const issue = requireIssue(ctx.db, repo.id, ctx.params.issue_number);
    const page = pageOf(ctx);
    const all = issueEvents(ctx.db, issue.id);
    const v = new View(ctx);
    return paged(
      ctx,
      all.slice(page.offset, page.offset + page.limit).map((e) => issueEventObject(v, repo, e)),
      page,
      all.length,
      repo.id,
    );
  }),
  route(
    "GET",
    "/repos/:owner/:repo/issues/:issue_number/timeline",
    "issues.listEventsForTimeline",
    "List timeline events for an issue",
    (ctx) => {
      const repo = requireRepo(ctx);
      const issue = requireIssue(ctx.db, repo.id, ctx.params.issue_number);
      const page = pageOf(ctx);
      const items = timeline(ctx, repo, issue);
      const v = new View(ctx);
      return paged(
        ctx,
        items.slice(page.offset, page.offset + page.limit).map((item) => timelineObject(v, repo, issue, item)),
        page,
        items.length,
        repo.id,
      );
    },
  ),
  ...reactionRoutes(
    "/repos/:owner/:repo/issues/comments/:comment_id",
    { list: "reactions.listForIssueComment", create: "reactions.createForIssueComment", delete: "reactions.deleteForIssueComment" },
    commentSubject,
  ),
  ...reactionRoutes(
    "/repos/:owner/:repo/issues/:issue_number",
    { list: "reactions.listForIssue", create: "reactions.createForIssue", delete: "reactions.deleteForIssue" },
    issueSubject,
  ),
];
