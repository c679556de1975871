// Activity on issues and pull requests: reactions (issues, issue comments), issue events, and the
// timeline. These routes come before the issue routes, so `/issues/events` is never read as an
// issue number.
import { z } from "zod";
import type { Route, TwinContext } from "../../types";
import { ok, storeOf } from "../context";
import { commentId, issueNumber, pageQuery, repoParams, route } from "../declare";
import { fail, ghNoContent, ghNotFound } from "../errors";
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
export type SubjectOf = (ctx: TwinContext, repo: RepoRow, id: number) => { subject: ReactionSubject; id: number };

const issueSubject: SubjectOf = (ctx, repo, id) => ({ subject: "issue", id: requireIssue(ctx.db, repo.id, id).id });
const commentSubject: SubjectOf = (ctx, repo, id) => ({ subject: "comment", id: requireComment(ctx.db, repo.id, String(id)).id });

/** What a reaction route is on: its path, Octokit's names, the id argument and the tools' noun. */
export interface ReactionTarget {
  base: string;
  names: { list: string; create: string; delete: string };
  idArg: "issue_number" | "comment_id";
  /** The subject in tool names: `issue`, `issue_comment`, `review_comment`. */
  kind: string;
  subjectOf: SubjectOf;
}

const content = z.enum(REACTION_CONTENTS).describe("The reaction");

/** List, create and delete routes of one reaction subject, under `base`. */
export function reactionRoutes(t: ReactionTarget): Route[] {
  // Only the target's own id argument is declared; the type names both so handlers read either.
  const id = t.idArg === "issue_number" ? issueNumber : commentId.describe("The comment's id");
  const params = { ...repoParams, [t.idArg]: id } as typeof repoParams & Record<ReactionTarget["idArg"], typeof id>;
  const what = t.kind.replace(/_/g, " ");
  return [
    route({
      method: "GET",
      pattern: `${t.base}/reactions`,
      operation: t.names.list,
      summary: "List reactions",
      resource: "Reaction",
      params,
      // An empty `content` reads as none; any other value outside the set is refused.
      query: { content: content.or(z.literal("")).optional().describe("Only reactions of this kind"), ...pageQuery },
      tool: { name: `list_${t.kind}_reactions`, description: `List the reactions (emoji and who left them) on ${what}.` },
      handler(ctx, { params: p, query }) {
        const repo = requireRepo(ctx);
        const { subject, id: subjectId } = t.subjectOf(ctx, repo, p[t.idArg]);
        const page = pageOf(ctx);
        const { rows, total } = listReactions(ctx.db, subject, subjectId, query.content || undefined, page.limit, page.offset);
        const v = new View(ctx);
        return paged(
          ctx,
          rows.map((r) => reactionObject(v, r)),
          page,
          total,
          repo.id,
        );
      },
    }),
    route({
      method: "POST",
      pattern: `${t.base}/reactions`,
      operation: t.names.create,
      summary: "Create reaction",
      resource: "Reaction",
      params,
      body: { content },
      tool: { name: `add_${t.kind}_reaction`, description: `React to ${what} (asking twice returns the same reaction).` },
      handler(ctx, { params: p, body }) {
        const repo = requireWritableRepo(ctx);
        const { subject, id: subjectId } = t.subjectOf(ctx, repo, p[t.idArg]);
        const { row, created } = react(storeOf(ctx), repo.id, subject, subjectId, body.content);
        // The docs: "201 Reaction created", "200 Reaction exists".
        return ok(reactionObject(new View(ctx), row), created ? 201 : 200);
      },
    }),
    route({
      method: "DELETE",
      pattern: `${t.base}/reactions/:reaction_id`,
      operation: t.names.delete,
      summary: "Delete reaction",
      params: { ...params, reaction_id: z.number().int().positive().describe("The reaction's id") },
      tool: { name: `delete_${t.kind}_reaction`, description: `Delete one reaction from ${what}.` },
      handler(ctx, { params: p }) {
        const repo = requireWritableRepo(ctx);
        const { subject, id: subjectId } = t.subjectOf(ctx, repo, p[t.idArg]);
        if (!deleteReaction(ctx.db, subject, subjectId, p.reaction_id)) fail(ghNotFound());
        return ghNoContent();
      },
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

const issueParams = { ...repoParams, issue_number: issueNumber };

export const activityRoutes: readonly Route[] = [
  route({
    method: "GET",
    pattern: "/repos/:owner/:repo/issues/events",
    operation: "issues.listEventsForRepo",
    summary: "List issue events for a repository",
    params: repoParams,
    query: pageQuery,
    tool: { name: "list_repository_issue_events", description: "List issue events across a repository, newest first." },
    handler(ctx) {
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
    },
  }),
  route({
    method: "GET",
    pattern: "/repos/:owner/:repo/issues/events/:event_id",
    operation: "issues.getEvent",
    summary: "Get an issue event",
    params: { ...repoParams, event_id: z.number().int().positive().describe("The event's id") },
    tool: { name: "get_issue_event", description: "Get one issue event (a label, an assignment, a closing) by its id." },
    handler(ctx, { params }) {
      const repo = requireRepo(ctx);
      const event = findEvent(ctx.db, repo.id, params.event_id) ?? fail(ghNotFound());
      const v = new View(ctx);
      const issue = ctx.db.one<IssueRow>("SELECT * FROM gh_issues WHERE id = ?", event.issue_id);
      return ok(issueEventObject(v, repo, event, issue ? issueObject(v, repo, issue) : null));
    },
  }),
  route({
    method: "GET",
    pattern: "/repos/:owner/:repo/issues/:issue_number/events",
    operation: "issues.listEvents",
    summary: "List issue events",
    params: issueParams,
    query: pageQuery,
    tool: {
      name: "list_issue_events",
      description: "List what happened to an issue or pull request: labels, assignees, milestone, renames, closing, merging.",
    },
    handler(ctx, { params }) {
      const repo = requireRepo(ctx);
      const issue = requireIssue(ctx.db, repo.id, params.issue_number);
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
    },
  }),
  route({
    method: "GET",
    pattern: "/repos/:owner/:repo/issues/:issue_number/timeline",
    operation: "issues.listEventsForTimeline",
    summary: "List timeline events for an issue",
    params: issueParams,
    query: pageQuery,
    tool: {
      name: "list_issue_timeline",
      description: "List an issue's or pull request's timeline: events, comments, reviews and commits, oldest first.",
    },
    handler(ctx, { params }) {
      const repo = requireRepo(ctx);
      const issue = requireIssue(ctx.db, repo.id, params.issue_number);
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
  }),
  ...reactionRoutes({
    base: "/repos/:owner/:repo/issues/comments/:comment_id",
    names: { list: "reactions.listForIssueComment", create: "reactions.createForIssueComment", delete: "reactions.deleteForIssueComment" },
    idArg: "comment_id",
    kind: "issue_comment",
    subjectOf: commentSubject,
  }),
  ...reactionRoutes({
    base: "/repos/:owner/:repo/issues/:issue_number",
    names: { list: "reactions.listForIssue", create: "reactions.createForIssue", delete: "reactions.deleteForIssue" },
    idArg: "issue_number",
    kind: "issue",
    subjectOf: issueSubject,
  }),
];
