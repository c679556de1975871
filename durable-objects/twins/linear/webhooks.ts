// Linear's data-change webhooks: on an issue or comment change, every enabled endpoint the world
// registered for that resource type (and team, when it names one) gets a POST whose body follows
// Linear's envelope (`action`, `type`, `data`, `updatedFrom`, `url`, `webhookTimestamp`…). The
// platform sends it after the call commits and signs it with `Linear-Signature` (HMAC-SHA256 of
// the body, hex) through the twin's signWebhook.
import type { Gql, Row } from "./context";
import { uuidFor } from "./ids";
import { PRIORITY_LABELS, orgOf, slug, str } from "./resolvers/types";

export type WebhookAction = "create" | "update" | "remove";
type Action = WebhookAction;

interface HookRow {
  id: string;
  url: string;
  resource_types: string;
  team_id: string | null;
  secret: string;
}

/**
 * The enabled endpoints registered for `type`. A webhook scoped to a team hears of what happens in
 * that team: `teams` are the teams the object belongs to (an issue's one team, a project's teams);
 * an object of no team (a document outside any project) reaches only workspace-wide webhooks.
 */
function endpoints(gql: Gql, type: string, teams: string | null | readonly string[]): HookRow[] {
  const inTeams = typeof teams === "string" ? [teams] : (teams ?? []);
  return gql.db
    .all<HookRow>("SELECT id, url, resource_types, team_id, secret FROM lin_webhooks WHERE enabled = 1 ORDER BY rowid")
    .filter((h) => (JSON.parse(h.resource_types) as string[]).includes(type) && (h.team_id === null || inTeams.includes(h.team_id)));
}

function issueData(gql: Gql, r: Row) {
  const state = gql.byId("WorkflowState", str(r.state_id));
  const team = gql.byId("Team", str(r.team_id));
  const labels = gql.db.all<{ id: string; name: string; color: string }>(
    "SELECT l.id, l.name, l.color FROM lin_issue_labels il JOIN lin_labels l ON l.id = il.label_id WHERE il.issue_id = ? ORDER BY il.position",
    r.id,
  );
  return {
    id: r.id,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    archivedAt: r.archived_at,
    number: r.number,
    title: r.title,
    description: r.description,
    priority: r.priority,
    priorityLabel: PRIORITY_LABELS[Number(r.priority)] ?? "No priority",
    estimate: r.estimate,
    identifier: r.identifier,
    url: `https://linear.app/${orgOf(gql).urlKey}/issue/${String(r.identifier)}/${slug(String(r.title))}`,
    teamId: r.team_id,
    stateId: r.state_id,
    assigneeId: r.assignee_id,
    creatorId: r.creator_id,
    projectId: r.project_id,
    cycleId: r.cycle_id,
    parentId: r.parent_id,
    dueDate: r.due_date,
    startedAt: r.started_at,
    completedAt: r.completed_at,
    canceledAt: r.canceled_at,
    trashed: r.trashed === 1,
    labelIds: labels.map((l) => l.id),
    state: state ? { id: state.id, name: state.name, color: state.color, type: state.type } : null,
    team: team ? { id: team.id, key: team.key, name: team.name } : null,
    labels,
  };
}

/** The fields of `before` that changed, with their previous values (Linear's `updatedFrom`). */
export function updatedFrom(after: Record<string, unknown>, before: Record<string, unknown>) {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(before)) {
    if (typeof v === "object" && v !== null && !Array.isArray(v)) continue;
    if (JSON.stringify(after[k]) !== JSON.stringify(v)) out[k] = v;
  }
  return out;
}

function send(
  gql: Gql,
  type: string,
  action: Action,
  teamId: string | null | readonly string[],
  data: Record<string, unknown>,
  url: string,
  from?: Record<string, unknown>,
) {
  const hooks = endpoints(gql, type, teamId);
  if (!hooks.length) return;
  const at = gql.clock.now();
  const org = orgOf(gql);
  for (const h of hooks) {
    const delivery = uuidFor("delivery", h.id, String(at), type, action, String(data.id));
    const body = JSON.stringify({
      action,
      actor: actorOf(gql),
      createdAt: new Date(at).toISOString(),
      data,
      ...(from ? { updatedFrom: from } : {}),
      url,
      type,
      organizationId: org.id,
      webhookTimestamp: at,
      webhookId: h.id,
    });
    gql.webhook({
      url: h.url,
      body,
      secret: h.secret,
      headers: { "linear-delivery": delivery, "linear-event": type, "user-agent": "Linear-Webhook" },
    });
  }
}

function actorOf(gql: Gql) {
  const u = gql.byId("User", gql.viewerId);
  return u ? { id: u.id, type: "user", name: u.name, email: u.email } : null;
}

export function issueWebhooks(gql: Gql, action: Action, issue: Row, before?: Row) {
  const data = issueData(gql, issue);
  const from = before && action === "update" ? updatedFrom(data, issueData(gql, before)) : undefined;
  send(gql, "Issue", action, str(issue.team_id), data, String(data.url), from);
}

function commentData(comment: Row, issue: Row) {
  return {
    id: comment.id,
    createdAt: comment.created_at,
    updatedAt: comment.updated_at,
    body: comment.body,
    issueId: comment.issue_id,
    parentId: comment.parent_id,
    userId: comment.user_id,
    editedAt: comment.edited_at,
    resolvedAt: comment.resolved_at ?? null,
    resolvingUserId: comment.resolving_user_id ?? null,
    resolvingCommentId: comment.resolving_comment_id ?? null,
    issue: { id: issue.id, identifier: issue.identifier, title: issue.title, teamId: issue.team_id },
  };
}

export function commentWebhooks(gql: Gql, action: Action, comment: Row, issue: Row, before?: Row) {
  const data = commentData(comment, issue);
  const from = before && action === "update" ? updatedFrom(data, commentData(before, issue)) : undefined;
  send(
    gql,
    "Comment",
    action,
    str(issue.team_id),
    data,
    `https://linear.app/${orgOf(gql).urlKey}/issue/${String(issue.identifier)}#comment-${comment.id.slice(0, 8)}`,
    from,
  );
}

/** `Linear-Signature`: the hex HMAC-SHA256 of the exact body, keyed by the endpoint's secret. */
export async function signLinearWebhook(delivery: { body: string; secret: string }): Promise<Record<string, string>> {
  const enc = new TextEncoder();
  const key = await crypto.subtle.importKey("raw", enc.encode(delivery.secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, enc.encode(delivery.body)));
  return { "linear-signature": [...mac].map((b) => b.toString(16).padStart(2, "0")).join("") };
}

/**
 * Any other resource's change (Project, Cycle, IssueLabel, Reaction, Attachment, Document,
 * ProjectUpdate, …), in the same envelope: `data` is the object as the webhook serializes it
 * (webhook-data.ts), `updatedFrom` the changed fields' previous values on an update.
 */
export function resourceWebhooks(
  gql: Gql,
  type: string,
  action: WebhookAction,
  event: { data: Record<string, unknown>; url: string; teams: string | null | readonly string[]; before?: Record<string, unknown> },
) {
  const from = event.before && action === "update" ? updatedFrom(event.data, event.before) : undefined;
  send(gql, type, action, event.teams, event.data, event.url, from);
}
