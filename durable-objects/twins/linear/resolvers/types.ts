// Field resolvers of Linear's object types over the lin_ rows. A field listed here is computed
// from the world; a field the twin does not model falls back, in schema.ts, to the empty value of
// its type (null, [], false, 0), because @linear/sdk's model constructors read every field.
import type { Gql, Row } from "../context";
import { page, type PageArgs } from "../connection";
import { compileFilter, type EntityName } from "../filters";
import type { SqlValue } from "../../types";
import { worldConstants, type Organization } from "../meta";
import { NOTIFICATION_KINDS, arrivedSql, type NotificationKind } from "../notifications";

export type Args = Record<string, unknown>;
export type Resolver = (src: Row, args: Args, gql: Gql) => unknown;

export const PRIORITY_LABELS = ["No priority", "Urgent", "High", "Medium", "Low"];

export const str = (v: SqlValue | undefined): string | null => (typeof v === "string" ? v : null);
const num = (v: SqlValue | undefined): number => (typeof v === "number" ? v : 0);

/** The workspace (every issue's url needs its urlKey). */
export const orgOf = (gql: Gql): Organization => worldConstants(gql.db).organization;

export const slug = (title: string) =>
  title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60);

/** A list of one entity: `where` narrows it to the parent, the argument filter narrows further. */
export function listOf(
  gql: Gql,
  entity: EntityName,
  table: string,
  args: Args,
  where: string[] = [],
  params: SqlValue[] = [],
  opts: { archivable?: boolean; order?: { column: string; direction: "ASC" | "DESC" }; small?: boolean } = {},
) {
  const alias = "x";
  const f = compileFilter(entity, args.filter, alias, gql.viewerId, gql.clock.now());
  const conn = page(
    gql,
    {
      table,
      alias,
      where: [...where, f.sql],
      params: [...params, ...f.params],
      archivable: opts.archivable,
      order: opts.order,
      small: opts.small,
      // Only the lists whose field Linear gives a `sort` argument ever receive one.
      sortable: entity === "issue" || entity === "user" || entity === "project" || entity === "document" ? entity : undefined,
    },
    args as PageArgs,
  );
  if (table === "lin_comments") preloadComments(gql, conn.nodes);
  return conn;
}

/** Comments of a list, with their authors, issues and reactions loaded at once. */
function preloadComments(gql: Gql, rows: readonly Row[]) {
  gql.prime("Comment", rows);
  gql.preload(
    "User",
    rows.map((r) => str(r.user_id)),
  );
  gql.preload(
    "Issue",
    rows.map((r) => str(r.issue_id)),
  );
  reactionsOf(
    gql,
    "comment_id",
    rows.map((r) => r.id),
  );
}

/** Issues of a list, with the rows their fragment points at loaded in one query per table. */
export function issueList(gql: Gql, args: Args, where: string[] = [], params: SqlValue[] = []) {
  const conn = listOf(gql, "issue", "lin_issues", args, [...where, "x.trashed = 0"], params, { archivable: true });
  preloadIssues(gql, conn.nodes);
  return conn;
}

/** The viewer's inbox, newest first; every notification the twin derives is about an issue. */
export function notificationList(gql: Gql, args: Args) {
  const now = new Date(gql.clock.now()).toISOString();
  const conn = listOf(gql, "notification", "lin_notifications", args, ["x.user_id = ?", arrivedSql("x")], [gql.viewerId, now], {
    archivable: true,
  });
  gql.preload(
    "User",
    conn.nodes.flatMap((r) => [str(r.actor_id), str(r.user_id)]),
  );
  gql.preload(
    "Comment",
    conn.nodes.map((r) => str(r.comment_id)),
  );
  gql.preload(
    "Issue",
    conn.nodes.map((r) => str(r.issue_id)),
  );
  const typed = (r: Row) => ({ ...r, __typename: "IssueNotification" });
  return { ...conn, nodes: conn.nodes.map(typed), edges: conn.edges.map((e) => ({ ...e, node: typed(e.node) })) };
}

export function preloadIssues(gql: Gql, rows: readonly Row[]) {
  gql.prime("Issue", rows);
  gql.preload(
    "WorkflowState",
    rows.map((r) => str(r.state_id)),
  );
  gql.preload(
    "Team",
    rows.map((r) => str(r.team_id)),
  );
  gql.preload(
    "User",
    rows.flatMap((r) => [str(r.assignee_id), str(r.creator_id)]),
  );
  gql.preload(
    "Project",
    rows.map((r) => str(r.project_id)),
  );
  gql.preload(
    "Cycle",
    rows.map((r) => str(r.cycle_id)),
  );
  const ids = rows.map((r) => r.id);
  labelIdsOf(gql, ids);
  reactionsOf(gql, "issue_id", ids);
}

const labelIdsOf = (gql: Gql, issueIds: string[]) =>
  gql.grouped(
    "issue_labels",
    "SELECT issue_id, label_id AS id FROM lin_issue_labels WHERE issue_id IN (SELECT value FROM json_each(?)) ORDER BY position",
    issueIds,
    "issue_id",
  );
const reactionsOf = (gql: Gql, column: "issue_id" | "comment_id", ids: string[]) =>
  gql.grouped(
    `reactions_${column}`,
    `SELECT * FROM lin_reactions WHERE ${column} IN (SELECT value FROM json_each(?)) ORDER BY created_at`,
    ids,
    column,
  );

function issueUrl(gql: Gql, r: Row): string {
  return `https://linear.app/${orgOf(gql).urlKey}/issue/${String(r.identifier)}/${slug(String(r.title))}`;
}

const common: Record<string, Resolver> = {
  createdAt: (r) => r.created_at,
  updatedAt: (r) => r.updated_at ?? r.created_at,
  archivedAt: (r) => r.archived_at ?? null,
};

const initialsOf = (name: string) =>
  name
    .split(/\s+/)
    .map((w) => w[0] ?? "")
    .join("")
    .slice(0, 2)
    .toUpperCase();

/** A team's active, next or previous cycle (archived ones aside), by CYCLE_WHEN's rules. */
export function cycleAt(gql: Gql, teamId: string, which: "active" | "next" | "previous"): Row | undefined {
  const now = new Date(gql.clock.now()).toISOString();
  const sql = {
    active:
      "SELECT * FROM lin_cycles WHERE team_id = ?1 AND archived_at IS NULL AND julianday(starts_at) <= julianday(?2) AND julianday(ends_at) > julianday(?2) ORDER BY number LIMIT 1",
    next: "SELECT * FROM lin_cycles WHERE team_id = ?1 AND archived_at IS NULL AND julianday(starts_at) > julianday(?2) ORDER BY julianday(starts_at), number LIMIT 1",
    previous:
      "SELECT * FROM lin_cycles WHERE team_id = ?1 AND archived_at IS NULL AND julianday(ends_at) <= julianday(?2) ORDER BY julianday(ends_at) DESC, number DESC LIMIT 1",
  }[which];
  return gql.db.one<Row>(sql, teamId, now);
}

const isKind = (t: SqlValue | undefined): t is NotificationKind => typeof t === "string" && t in NOTIFICATION_KINDS;

const isMember = (gql: Gql, teamId: string) =>
  gql.db.one<{ n: number }>("SELECT 1 AS n FROM lin_team_members WHERE team_id = ? AND user_id = ?", teamId, gql.viewerId) !== undefined;

export const TYPE_RESOLVERS: Record<string, Record<string, Resolver>> = {
  Issue: {
    ...common,
    description: (r) => r.description,
    number: (r) => r.number,
    priorityLabel: (r) => PRIORITY_LABELS[num(r.priority)] ?? "No priority",
    dueDate: (r) => r.due_date,
    snoozedUntilAt: (r) => r.snoozed_until_at,
    snoozedBy: (r, _a, gql) => gql.byId("User", str(r.snoozed_by_id)) ?? null,
    delegate: (r, _a, gql) => gql.byId("User", str(r.delegate_id)) ?? null,
    startedAt: (r) => r.started_at,
    completedAt: (r) => r.completed_at,
    canceledAt: (r) => r.canceled_at,
    trashed: (r) => (r.trashed === 1 ? true : null),
    sortOrder: (r) => r.sort_order,
    boardOrder: (r) => r.sort_order,
    prioritySortOrder: (r) => num(r.priority),
    url: (r, _a, gql) => issueUrl(gql, r),
    branchName: (r, _a, gql) => {
      const who = gql.byId("User", str(r.assignee_id) ?? gql.viewerId);
      return `${String(who?.display_name ?? "user")}/${String(r.identifier).toLowerCase()}-${slug(String(r.title))}`.slice(0, 80);
    },
    team: (r, _a, gql) => gql.byId("Team", str(r.team_id)),
    state: (r, _a, gql) => gql.byId("WorkflowState", str(r.state_id)),
    assignee: (r, _a, gql) => gql.byId("User", str(r.assignee_id)) ?? null,
    creator: (r, _a, gql) => gql.byId("User", str(r.creator_id)) ?? null,
    project: (r, _a, gql) => gql.byId("Project", str(r.project_id)) ?? null,
    cycle: (r, _a, gql) => gql.byId("Cycle", str(r.cycle_id)) ?? null,
    parent: (r, _a, gql) => gql.byId("Issue", str(r.parent_id)) ?? null,
    labelIds: (r, _a, gql) => labelIdsOf(gql, [r.id])(r.id).map((l) => l.id),
    reactions: (r, _a, gql) => reactionsOf(gql, "issue_id", [r.id])(r.id),
    labels: (r, args, gql) =>
      listOf(gql, "label", "lin_labels", args, ["x.id IN (SELECT label_id FROM lin_issue_labels WHERE issue_id = ?)"], [r.id], {
        order: { column: "created_at", direction: "ASC" },
        small: true,
      }),
    children: (r, args, gql) => issueList(gql, args, ["x.parent_id = ?"], [r.id]),
    comments: (r, args, gql) =>
      listOf(gql, "comment", "lin_comments", args, ["x.issue_id = ?"], [r.id], { order: { column: "created_at", direction: "ASC" } }),
    relations: (r, args, gql) => listOf(gql, "issue", "lin_relations", { ...args, filter: undefined }, ["x.issue_id = ?"], [r.id]),
    inverseRelations: (r, args, gql) =>
      listOf(gql, "issue", "lin_relations", { ...args, filter: undefined }, ["x.related_issue_id = ?"], [r.id]),
    attachments: (r, args, gql) => listOf(gql, "attachment", "lin_attachments", args, ["x.issue_id = ?"], [r.id]),
    subscribers: (r, args, gql) =>
      listOf(gql, "user", "lin_users", args, ["x.id IN (SELECT user_id FROM lin_subscribers WHERE issue_id = ?)"], [r.id], {
        order: { column: "created_at", direction: "ASC" },
      }),
  },
  Team: {
    ...common,
    displayName: (r) => r.name,
    issueEstimationType: (r) => r.estimation_type,
    defaultIssueState: (r, _a, gql) => gql.byId("WorkflowState", str(r.default_state_id)) ?? null,
    triageEnabled: (r, _a, gql) => gql.db.one("SELECT 1 AS n FROM lin_states WHERE team_id = ? AND type = 'triage'", r.id) !== undefined,
    triageIssueState: (r, _a, gql) =>
      gql.db.one<Row>("SELECT * FROM lin_states WHERE team_id = ? AND type = 'triage' ORDER BY position LIMIT 1", r.id) ?? null,
    cyclesEnabled: (r, _a, gql) => gql.db.one("SELECT 1 AS n FROM lin_cycles WHERE team_id = ? LIMIT 1", r.id) !== undefined,
    activeCycle: (r, _a, gql) => cycleAt(gql, r.id, "active") ?? null,
    timezone: () => "UTC",
    color: () => "#5e6ad2",
    private: () => false,
    visibility: () => "public",
    issueCount: (r, args, gql) =>
      gql.db.one<{ n: number }>(
        `SELECT count(*) AS n FROM lin_issues WHERE team_id = ? AND trashed = 0${args.includeArchived === true ? "" : " AND archived_at IS NULL"}`,
        r.id,
      )?.n ?? 0,
    viewerMembership: (r, _a, gql) => (isMember(gql, r.id) ? { id: `${r.id.slice(0, 24)}${gql.viewerId.slice(24)}` } : null),
    viewerCanJoin: (r, _a, gql) => !isMember(gql, r.id),
    viewerCanLeave: (r, _a, gql) => isMember(gql, r.id),
    states: (r, args, gql) =>
      listOf(gql, "state", "lin_states", args, ["x.team_id = ?"], [r.id], {
        order: { column: "position", direction: "ASC" },
        archivable: true,
      }),
    labels: (r, args, gql) =>
      listOf(gql, "label", "lin_labels", args, ["x.team_id = ?"], [r.id], { order: { column: "created_at", direction: "ASC" } }),
    members: (r, args, gql) =>
      listOf(gql, "user", "lin_users", args, ["x.id IN (SELECT user_id FROM lin_team_members WHERE team_id = ?)"], [r.id], {
        order: { column: "created_at", direction: "ASC" },
      }),
    issues: (r, args, gql) => issueList(gql, args, ["x.team_id = ?"], [r.id]),
    cycles: (r, args, gql) =>
      listOf(gql, "cycle", "lin_cycles", args, ["x.team_id = ?"], [r.id], {
        order: { column: "number", direction: "ASC" },
        archivable: true,
      }),
    projects: (r, args, gql) =>
      listOf(gql, "project", "lin_projects", args, ["x.id IN (SELECT project_id FROM lin_project_teams WHERE team_id = ?)"], [r.id]),
    // The team's own templates (Linear: "Templates associated with the team"); workspace ones are `templates`'.
    templates: (r, args, gql) =>
      listOf(gql, "template", "lin_templates", args, ["x.team_id = ?"], [r.id], { order: { column: "sort_order", direction: "ASC" } }),
  },
  User: {
    ...common,
    displayName: (r) => r.display_name,
    admin: (r) => r.admin === 1,
    active: (r) => r.active === 1,
    isMe: (r, _a, gql) => r.id === gql.viewerId,
    isAssignable: (r) => r.active === 1,
    isMentionable: (r) => r.active === 1,
    initials: (r) => initialsOf(String(r.name)),
    avatarBackgroundColor: () => "#5e6ad2",
    url: (r, _a, gql) => `https://linear.app/${orgOf(gql).urlKey}/profiles/${String(r.display_name)}`,
    timezone: () => "UTC",
    organization: (_r, _a, gql) => orgOf(gql),
    createdIssueCount: (r, _a, gql) => gql.db.one<{ n: number }>("SELECT count(*) AS n FROM lin_issues WHERE creator_id = ?", r.id)?.n ?? 0,
    assignedIssues: (r, args, gql) => issueList(gql, args, ["x.assignee_id = ?"], [r.id]),
    createdIssues: (r, args, gql) => issueList(gql, args, ["x.creator_id = ?"], [r.id]),
    teams: (r, args, gql) =>
      listOf(gql, "team", "lin_teams", args, ["x.id IN (SELECT team_id FROM lin_team_members WHERE user_id = ?)"], [r.id], {
        order: { column: "created_at", direction: "ASC" },
      }),
  },
  Organization: {
    createdAt: () => "2026-01-01T00:00:00.000Z",
    updatedAt: () => "2026-01-01T00:00:00.000Z",
    userCount: (_r, _a, gql) => gql.db.one<{ n: number }>("SELECT count(*) AS n FROM lin_users WHERE active = 1")?.n ?? 0,
    createdIssueCount: (_r, _a, gql) => gql.db.one<{ n: number }>("SELECT count(*) AS n FROM lin_issues")?.n ?? 0,
    teams: (_r, args, gql) => listOf(gql, "team", "lin_teams", args, [], [], { order: { column: "created_at", direction: "ASC" } }),
    users: (_r, args, gql) => listOf(gql, "user", "lin_users", args, [], [], { order: { column: "created_at", direction: "ASC" } }),
    labels: (_r, args, gql) =>
      listOf(gql, "label", "lin_labels", args, ["x.team_id IS NULL"], [], { order: { column: "created_at", direction: "ASC" } }),
    allowedAuthServices: () => [],
    previousUrlKeys: () => [],
    suggestedBranchNameEnabled: () => true,
  },
  WorkflowState: {
    ...common,
    team: (r, _a, gql) => gql.byId("Team", str(r.team_id)),
    issues: (r, args, gql) => issueList(gql, args, ["x.state_id = ?"], [r.id]),
  },
  IssueLabel: {
    ...common,
    isGroup: () => false,
    groupType: () => null,
    team: (r, _a, gql) => gql.byId("Team", str(r.team_id)) ?? null,
    creator: (r, _a, gql) => gql.byId("User", str(r.creator_id)) ?? null,
    issues: (r, args, gql) => issueList(gql, args, ["x.id IN (SELECT issue_id FROM lin_issue_labels WHERE label_id = ?)"], [r.id]),
  },
  Project: {
    ...common,
    lead: (r, _a, gql) => gql.byId("User", str(r.lead_id)) ?? null,
    slugId: (r) => r.id.slice(-12),
    url: (r, _a, gql) => `https://linear.app/${orgOf(gql).urlKey}/project/${slug(String(r.name))}-${r.id.slice(-12)}`,
    color: () => "#bec2c8",
    priorityLabel: () => "No priority",
    resourceCount: () => 0,
    status: (r) => ({
      id: `${r.id.slice(0, 28)}00000000`,
      name: String(r.state),
      type: r.state,
      color: "#bec2c8",
      position: 0,
      indefinite: false,
      createdAt: r.created_at,
      updatedAt: r.created_at,
    }),
    teams: (r, args, gql) =>
      listOf(gql, "team", "lin_teams", args, ["x.id IN (SELECT team_id FROM lin_project_teams WHERE project_id = ?)"], [r.id], {
        order: { column: "created_at", direction: "ASC" },
      }),
    issues: (r, args, gql) => issueList(gql, args, ["x.project_id = ?"], [r.id]),
  },
  Cycle: {
    ...common,
    startsAt: (r) => r.starts_at,
    endsAt: (r) => r.ends_at,
    team: (r, _a, gql) => gql.byId("Team", str(r.team_id)),
    updatedAt: (r) => r.updated_at ?? r.created_at,
    description: (r) => r.description,
    completedAt: (r) => r.completed_at,
    isActive: (r, _a, gql) => Date.parse(String(r.starts_at)) <= gql.clock.now() && gql.clock.now() < Date.parse(String(r.ends_at)),
    isPast: (r, _a, gql) => Date.parse(String(r.ends_at)) <= gql.clock.now(),
    isFuture: (r, _a, gql) => Date.parse(String(r.starts_at)) > gql.clock.now(),
    isNext: (r, _a, gql) => cycleAt(gql, String(r.team_id), "next")?.id === r.id,
    isPrevious: (r, _a, gql) => cycleAt(gql, String(r.team_id), "previous")?.id === r.id,
    // The share of the cycle's issues (by estimate, 1 when unestimated) in a completed state.
    progress: (r, _a, gql) => {
      const row = gql.db.one<{ done: number | null; total: number | null }>(
        `SELECT sum(CASE WHEN s.type = 'completed' THEN coalesce(i.estimate, 1) ELSE 0 END) AS done, sum(coalesce(i.estimate, 1)) AS total
         FROM lin_issues i JOIN lin_states s ON s.id = i.state_id WHERE i.cycle_id = ? AND i.trashed = 0 AND i.archived_at IS NULL`,
        r.id,
      );
      return row?.total ? (row.done ?? 0) / row.total : 0;
    },
    issues: (r, args, gql) => issueList(gql, args, ["x.cycle_id = ?"], [r.id]),
  },
  Comment: {
    ...common,
    editedAt: (r) => r.edited_at,
    issueId: (r) => r.issue_id,
    parentId: (r) => r.parent_id,
    user: (r, _a, gql) => gql.byId("User", str(r.user_id)) ?? null,
    issue: (r, _a, gql) => gql.byId("Issue", str(r.issue_id)) ?? null,
    parent: (r, _a, gql) => gql.byId("Comment", str(r.parent_id)) ?? null,
    reactions: (r, _a, gql) => reactionsOf(gql, "comment_id", [r.id])(r.id),
    url: (r, _a, gql) => {
      const issue = gql.byId("Issue", str(r.issue_id));
      return `${issue ? issueUrl(gql, issue) : `https://linear.app/${orgOf(gql).urlKey}`}#comment-${r.id.slice(0, 8)}`;
    },
    children: (r, args, gql) =>
      listOf(gql, "comment", "lin_comments", args, ["x.parent_id = ?"], [r.id], { order: { column: "created_at", direction: "ASC" } }),
  },
  IssueRelation: {
    ...common,
    updatedAt: (r) => r.created_at,
    issue: (r, _a, gql) => gql.byId("Issue", str(r.issue_id)),
    relatedIssue: (r, _a, gql) => gql.byId("Issue", str(r.related_issue_id)),
  },
  Attachment: {
    ...common,
    issue: (r, _a, gql) => gql.byId("Issue", str(r.issue_id)),
    creator: (r, _a, gql) => gql.byId("User", str(r.creator_id)) ?? null,
    metadata: () => ({}),
  },
  Webhook: {
    ...common,
    resourceTypes: (r) => JSON.parse(String(r.resource_types)) as string[],
    enabled: (r) => r.enabled === 1,
    allPublicTeams: (r) => r.team_id === null,
    team: (r, _a, gql) => gql.byId("Team", str(r.team_id)) ?? null,
    creator: (r, _a, gql) => gql.byId("User", str(r.creator_id)) ?? null,
  },
  IssueNotification: {
    ...common,
    type: (r) => r.type,
    category: (r) => (isKind(r.type) ? NOTIFICATION_KINDS[r.type] : "system"),
    readAt: (r) => r.read_at,
    user: (r, _a, gql) => gql.byId("User", str(r.user_id)),
    actor: (r, _a, gql) => gql.byId("User", str(r.actor_id)) ?? null,
    actorInitials: (r, _a, gql) => initialsOf(String(gql.byId("User", str(r.actor_id))?.name ?? "")),
    actorAvatarColor: () => "#5e6ad2",
    isLinearActor: () => false,
    issueId: (r) => r.issue_id,
    issue: (r, _a, gql) => gql.byId("Issue", str(r.issue_id)),
    team: (r, _a, gql) => gql.byId("Team", str(gql.byId("Issue", str(r.issue_id))?.team_id)),
    issueStatusType: (r, _a, gql) => gql.byId("WorkflowState", str(gql.byId("Issue", str(r.issue_id))?.state_id))?.type ?? null,
    commentId: (r) => r.comment_id,
    comment: (r, _a, gql) => gql.byId("Comment", str(r.comment_id)) ?? null,
    parentCommentId: (r, _a, gql) => str(gql.byId("Comment", str(r.comment_id))?.parent_id),
    parentComment: (r, _a, gql) => gql.byId("Comment", str(gql.byId("Comment", str(r.comment_id))?.parent_id)) ?? null,
    title: (r, _a, gql) => {
      const issue = gql.byId("Issue", str(r.issue_id));
      return issue ? `${String(issue.identifier)} ${String(issue.title)}` : "";
    },
    url: (r, _a, gql) => {
      const issue = gql.byId("Issue", str(r.issue_id));
      const base = issue ? issueUrl(gql, issue) : `https://linear.app/${orgOf(gql).urlKey}`;
      return r.comment_id ? `${base}#comment-${String(r.comment_id).slice(0, 8)}` : base;
    },
    inboxUrl: (r, _a, gql) => `https://linear.app/${orgOf(gql).urlKey}/inbox/${r.id}`,
    groupingKey: (r) => `issue:${String(r.issue_id)}`,
    subscriptions: () => null,
  },
  Reaction: {
    ...common,
    updatedAt: (r) => r.created_at,
    user: (r, _a, gql) => gql.byId("User", str(r.user_id)) ?? null,
    issue: (r, _a, gql) => gql.byId("Issue", str(r.issue_id)) ?? null,
    comment: (r, _a, gql) => gql.byId("Comment", str(r.comment_id)) ?? null,
  },
};
