// Activity on the wire: reactions, issue events and timeline items, in the shapes of
// @octokit/openapi's `reaction`, `issue-event`, `issue-event-for-issue` and `timeline-issue-events`.
import { findUser, type RepoRow } from "./repos";
import { nodeId, type View } from "./serialize";
import { commitIdentity, type CommitRow } from "./store/git";
import { readDetail, type IssueEventRow } from "./store/events";
import type { ReactionRow } from "./store/reactions";
import type { CommentRow, IssueRow, ReviewRow } from "./store/rows";
import { commentObject } from "./view-issues";
import { commitPeople, gitCommitObject } from "./view-git";
import type { TeamRow } from "./store/orgs";
import { reviewObject } from "./view-pulls";
import { teamObject } from "./view-orgs";

export function reactionObject(v: View, r: ReactionRow) {
  return { id: r.id, node_id: nodeId("Reaction", r.id), user: v.user(r.user), content: r.content, created_at: r.created_at };
}

/** The GraphQL type name GitHub's node ids of events carry (`LabeledEvent`, `ClosedEvent`...). */
const eventType = (event: string) =>
  `${event
    .split("_")
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join("")}Event`;

/** An issue event; `withIssue` adds the issue, as the repository-wide list and getEvent do. */
export function issueEventObject(v: View, r: RepoRow, e: IssueEventRow, issue?: unknown) {
  const d = readDetail(e);
  return {
    id: e.id,
    node_id: nodeId(eventType(e.event), e.id),
    url: v.repoApi(r, `/issues/events/${e.id}`),
    actor: v.user(e.actor),
    event: e.event,
    commit_id: e.commit_id,
    commit_url: e.commit_id ? v.repoApi(r, `/commits/${e.commit_id}`) : null,
    created_at: e.created_at,
    performed_via_github_app: null,
    ...(d.label ? { label: d.label } : {}),
    ...(d.assignee ? { assignee: v.user(d.assignee), assigner: v.user(e.actor) } : {}),
    ...(d.milestone ? { milestone: d.milestone } : {}),
    ...(d.rename ? { rename: d.rename } : {}),
    ...(e.event === "locked" ? { lock_reason: d.lock_reason ?? null } : {}),
    ...(d.state_reason !== undefined ? { state_reason: d.state_reason } : {}),
    ...(d.requested_reviewer ? { requested_reviewer: v.user(d.requested_reviewer), review_requester: v.user(e.actor) } : {}),
    ...(d.requested_team !== undefined ? requestedTeamDetail(v, d.requested_team, e.actor) : {}),
    ...(issue !== undefined ? { issue } : {}),
  };
}

export type TimelineItem =
  | { kind: "event"; at: string; order: number; row: IssueEventRow }
  | { kind: "comment"; at: string; order: number; row: CommentRow }
  | { kind: "review"; at: string; order: number; row: ReviewRow }
  | { kind: "commit"; at: string; order: number; row: CommitRow };

/** Everything that happened on an issue, oldest first: events, comments, reviews and commits. */
export function timelineOrder(items: TimelineItem[]): TimelineItem[] {
  return items.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : a.order - b.order));
}

export function timelineObject(v: View, r: RepoRow, issue: IssueRow, item: TimelineItem) {
  switch (item.kind) {
    case "event":
      return issueEventObject(v, r, item.row);
    case "comment":
      return { ...commentObject(v, r, item.row, !!issue.is_pull), event: "commented", actor: v.user(item.row.user) };
    case "review": {
      const review = reviewObject(v, r, issue, item.row);
      // The timeline names the state in lower case (`approved`), unlike the reviews API.
      return { ...review, event: "reviewed", state: item.row.state.toLowerCase() };
    }
    case "commit": {
      const { author, committer } = commitPeople(v, item.row);
      return { ...gitCommitObject(v, r, item.row), author, committer, event: "committed" };
    }
  }
}

/** When a commit happened, for the timeline's order: its author date. */
export const commitTime = (c: CommitRow) => commitIdentity(c)?.author.date ?? c.created_at;

/** A team review request's event fields: the team (`team`, absent once deleted) and who asked. */
function requestedTeamDetail(v: View, teamId: number, actor: string) {
  const team = v.ctx.db.one<TeamRow>("SELECT * FROM gh_teams WHERE id = ?", teamId);
  if (!team) return { review_requester: v.user(actor) };
  return { requested_team: teamObject(v, team, findUser(v.ctx, team.org)?.id ?? 0), review_requester: v.user(actor) };
}
