// The `data` of the webhooks of resources other than issues and comments (webhooks.ts), each with
// the fields of its payload type in @linear/sdk 98 (IssueLabelWebhookPayload, ProjectWebhookPayload,
// CycleWebhookPayload, ReactionWebhookPayload, AttachmentWebhookPayload) that the twin keeps, the
// link Linear's envelope `url` carries, and the teams a team-scoped webhook hears them in.
import type { Gql, Row } from "./context";
import { orgOf, slug, str } from "./resolvers/types";

export interface ResourceEvent {
  data: Record<string, unknown>;
  url: string;
  teams: string | null | readonly string[];
}

const workspaceUrl = (gql: Gql) => `https://linear.app/${orgOf(gql).urlKey}`;

export function labelEvent(gql: Gql, r: Row): ResourceEvent {
  return {
    data: {
      id: r.id,
      createdAt: r.created_at,
      updatedAt: r.updated_at,
      archivedAt: null,
      name: r.name,
      color: r.color,
      description: r.description,
      isGroup: false,
      parentId: null,
      teamId: r.team_id,
      creatorId: r.creator_id,
    },
    url: `${workspaceUrl(gql)}/settings/${r.team_id ? "teams" : "labels"}`,
    teams: str(r.team_id),
  };
}

export function projectEvent(gql: Gql, r: Row): ResourceEvent {
  const teamIds = gql.db
    .all<{ team_id: string }>("SELECT team_id FROM lin_project_teams WHERE project_id = ? ORDER BY position", r.id)
    .map((t) => t.team_id);
  const url = `${workspaceUrl(gql)}/project/${slug(String(r.name))}-${r.id.slice(-12)}`;
  return {
    data: {
      id: r.id,
      createdAt: r.created_at,
      updatedAt: r.updated_at,
      name: r.name,
      description: r.description,
      slugId: r.id.slice(-12),
      state: r.state,
      leadId: r.lead_id,
      teamIds,
      completedAt: r.state === "completed" ? r.updated_at : null,
      canceledAt: r.state === "canceled" ? r.updated_at : null,
      url,
    },
    url,
    teams: teamIds,
  };
}

export function cycleEvent(gql: Gql, r: Row): ResourceEvent {
  const team = gql.byId("Team", str(r.team_id));
  return {
    data: {
      id: r.id,
      createdAt: r.created_at,
      updatedAt: r.updated_at ?? r.created_at,
      archivedAt: r.archived_at,
      number: r.number,
      name: r.name,
      description: r.description,
      startsAt: r.starts_at,
      endsAt: r.ends_at,
      completedAt: r.completed_at,
      teamId: r.team_id,
    },
    url: `${workspaceUrl(gql)}/team/${String(team?.key ?? "")}/cycle/${String(r.number)}`,
    teams: str(r.team_id),
  };
}

export function reactionEvent(gql: Gql, r: Row): ResourceEvent {
  const comment = gql.byId("Comment", str(r.comment_id));
  const issue = gql.byId("Issue", str(r.issue_id) ?? str(comment?.issue_id));
  const user = gql.byId("User", str(r.user_id));
  return {
    data: {
      id: r.id,
      createdAt: r.created_at,
      updatedAt: r.created_at,
      emoji: r.emoji,
      userId: r.user_id,
      issueId: r.issue_id,
      commentId: r.comment_id,
      user: user ? { id: user.id, name: user.name, email: user.email } : null,
      issue: r.issue_id && issue ? { id: issue.id, identifier: issue.identifier, title: issue.title, teamId: issue.team_id } : null,
      comment: comment ? { id: comment.id, body: comment.body, userId: comment.user_id } : null,
    },
    url: issue ? `${workspaceUrl(gql)}/issue/${String(issue.identifier)}` : workspaceUrl(gql),
    teams: str(issue?.team_id),
  };
}

export function attachmentEvent(gql: Gql, r: Row): ResourceEvent {
  const issue = gql.byId("Issue", str(r.issue_id));
  return {
    data: {
      id: r.id,
      createdAt: r.created_at,
      updatedAt: r.updated_at,
      archivedAt: null,
      title: r.title,
      subtitle: r.subtitle,
      url: r.url,
      issueId: r.issue_id,
      creatorId: r.creator_id,
      metadata: {},
      groupBySource: false,
    },
    url: String(r.url),
    teams: str(issue?.team_id),
  };
}
