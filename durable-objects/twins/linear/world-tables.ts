// The Linear seed's column maps: for each lin_ table, which column keeps which field of the seed's
// objects and how. Boot and export (world.ts) both go through these maps, so a field is declared
// once. References by natural key (an email, a team key, a state's name within its team) are
// resolved through `LinearRefs` both ways.
import { type Placed, type Refs, assembled, col, tableMap, type ListTable } from "../kit/world-table";
import type {
  LinearDocument,
  LinearMilestone,
  LinearProjectUpdate,
  LinearAttachment,
  LinearComment,
  LinearCycle,
  LinearIssue,
  LinearLabel,
  LinearProject,
  LinearRelation,
  LinearReply,
  LinearSeed,
  LinearState,
  LinearTeam,
  LinearUser,
  LinearWebhook,
} from "./seed";
import type { LinearCustomView, LinearInitiative, LinearNotificationState, LinearTemplate } from "./seed-workspace";

/** The natural key each kind of object is named by in a seed. */
export type LinearRefs = Refs<{
  user: string;
  team: string;
  state: string;
  label: string;
  cycle: number;
  project: string;
  issue: string;
  /** A milestone by name, looked up within its project (`inTeam(project name, milestone name)`). */
  milestone: string;
}>;

/** The lookup of a state, label or cycle: named within its team (`|name` for a workspace label). */
export const inTeam = (teamKey: string, name: string | number) => `${teamKey}|${name}`;

/** A user's id from the email a seed names them by (emails match case-insensitively). */
export const userIdOf = (refs: LinearRefs, email: string | null) => (email === null ? null : refs.id("user", email.toLowerCase()));

/** A reference to a user, stored as the id; export gives back the email, or `fallback` when none. */
const userRef = (column: string, fallback: (cell: string) => string = () => "") =>
  col.custom<string, LinearRefs>(
    column,
    (email, refs) => userIdOf(refs, email),
    (cell, refs) => refs.key("user", cell) ?? fallback(String(cell)),
  );
const nullableUserRef = (column: string) =>
  col.custom<string | null, LinearRefs>(
    column,
    (email, refs) => userIdOf(refs, email),
    (cell, refs) => refs.key("user", cell) ?? null,
  );
/** Who snoozed or was delegated an issue: an unknown id exports as itself. */
const optionalUserRef = (column: string) => col.optional(userRef(column, (id) => id));

export const users = tableMap<LinearUser, LinearRefs>()({
  table: "lin_users",
  fields: {
    email: col.text("email"),
    id: col.text("id"),
    name: col.text("name"),
    displayName: col.text("display_name"),
    admin: col.flag("admin"),
    active: col.flag("active"),
    createdAt: col.text("created_at"),
  },
});

/** A team's own rows (states, labels, cycles) sit in their team and take its creation time. */
interface InTeam {
  teamId: string | null;
  createdAt: string;
}

export const teams = tableMap<LinearTeam, LinearRefs, { nextNumber: number }>()({
  table: "lin_teams",
  fields: {
    key: col.text("key"),
    name: col.text("name"),
    id: col.text("id"),
    description: col.nullableText("description"),
    members: assembled,
    issueEstimationType: col.text<LinearTeam["issueEstimationType"]>("estimation_type"),
    defaultIssueState: col.custom<string, LinearRefs, Placed<LinearTeam, unknown>>(
      "default_state_id",
      (name, refs, { value }) => refs.id("state", inTeam(value.key, name)),
      (cell, refs) => refs.key("state", cell) || "",
    ),
    states: assembled,
    labels: assembled,
    cycles: assembled,
    createdAt: col.text("created_at"),
  },
  derived: { next_number: ({ place }) => place.nextNumber },
});

export const teamMembers: ListTable<string, LinearRefs> = {
  table: "lin_team_members",
  owner: "team_id",
  item: userRef("user_id", (id) => id),
  position: "position",
  orIgnore: true,
};

export const states = tableMap<LinearState, LinearRefs, InTeam>()({
  table: "lin_states",
  fields: {
    name: col.text("name"),
    type: col.text<LinearState["type"]>("type"),
    id: col.text("id"),
    color: col.text("color"),
    position: col.number("position"),
    archivedAt: col.optional(col.text("archived_at")),
  },
  derived: { team_id: ({ place }) => place.teamId, created_at: ({ place }) => place.createdAt },
});

/** Workspace labels (no team) and a team's labels share lin_labels. */
export const labels = tableMap<LinearLabel, LinearRefs, InTeam>()({
  table: "lin_labels",
  fields: {
    name: col.text("name"),
    id: col.text("id"),
    color: col.text("color"),
    description: col.nullableText("description"),
  },
  derived: {
    team_id: ({ place }) => place.teamId,
    created_at: ({ place }) => place.createdAt,
    updated_at: ({ place }) => place.createdAt,
  },
});

export const cycles = tableMap<LinearCycle, LinearRefs, InTeam>()({
  table: "lin_cycles",
  fields: {
    number: col.number("number"),
    id: col.text("id"),
    name: col.nullableText("name"),
    startsAt: col.text("starts_at"),
    endsAt: col.text("ends_at"),
    description: col.optional(col.text("description")),
    completedAt: col.optional(col.text("completed_at")),
    archivedAt: col.optional(col.text("archived_at")),
  },
  derived: { team_id: ({ place }) => place.teamId, created_at: ({ place }) => place.createdAt },
});

export const projects = tableMap<LinearProject, LinearRefs>()({
  table: "lin_projects",
  fields: {
    name: col.text("name"),
    id: col.text("id"),
    description: col.text("description"),
    teams: assembled,
    state: col.text<LinearProject["state"]>("state"),
    lead: nullableUserRef("lead_id"),
    createdAt: col.text("created_at"),
    milestones: assembled,
    updates: assembled,
  },
  derived: { updated_at: ({ value }) => value.createdAt },
});

export const projectTeams: ListTable<string, LinearRefs> = {
  table: "lin_project_teams",
  owner: "project_id",
  item: col.custom<string, LinearRefs>(
    "team_id",
    (key, refs) => refs.id("team", key) ?? key,
    (cell, refs) => refs.key("team", cell) ?? String(cell),
  ),
  position: "position",
};

/** Where an issue sits: its team (from its identifier) and its place in the seed's list. */
export interface IssuePlace {
  teamKey: string;
  teamId: string;
  number: number;
  index: number;
}
type PlacedIssue = Placed<LinearIssue, IssuePlace>;

export const issues = tableMap<LinearIssue, LinearRefs, IssuePlace>()({
  table: "lin_issues",
  fields: {
    identifier: col.text("identifier"),
    title: col.text("title"),
    id: col.text("id"),
    description: col.nullableText("description"),
    state: col.custom<string, LinearRefs, PlacedIssue>(
      "state_id",
      (name, refs, { place }) => refs.id("state", inTeam(place.teamKey, name)) ?? "",
      (cell, refs) => refs.key("state", cell) ?? "",
    ),
    priority: col.number("priority"),
    estimate: col.nullableNumber("estimate"),
    assignee: nullableUserRef("assignee_id"),
    creator: userRef("creator_id"),
    labels: assembled,
    project: col.custom<string | null, LinearRefs>(
      "project_id",
      (name, refs) => refs.id("project", name),
      (cell, refs) => refs.key("project", cell) ?? null,
    ),
    cycle: col.custom<number | null, LinearRefs, PlacedIssue>(
      "cycle_id",
      (number, refs, { place }) => (number === null ? null : refs.id("cycle", inTeam(place.teamKey, number))),
      (cell, refs) => refs.key("cycle", cell) ?? null,
    ),
    parent: col.custom<string | null, LinearRefs>(
      "parent_id",
      (identifier, refs) => refs.id("issue", identifier),
      (cell, refs) => refs.key("issue", cell) ?? null,
    ),
    dueDate: col.nullableText("due_date"),
    subscribers: assembled,
    relations: assembled,
    attachments: assembled,
    comments: assembled,
    createdAt: col.text("created_at"),
    updatedAt: col.text("updated_at"),
    startedAt: col.nullableText("started_at"),
    completedAt: col.nullableText("completed_at"),
    canceledAt: col.nullableText("canceled_at"),
    archivedAt: col.nullableText("archived_at"),
    trashed: col.flag("trashed"),
    snoozedUntilAt: col.optional(col.text("snoozed_until_at")),
    snoozedBy: optionalUserRef("snoozed_by_id"),
    delegate: optionalUserRef("delegate_id"),
    formerIdentifiers: assembled,
    history: assembled,
    projectMilestone: col.optional(
      col.custom<string, LinearRefs, PlacedIssue>(
        "project_milestone_id",
        (name, refs, { value }) => refs.id("milestone", inTeam(value.project ?? "", name)),
        (cell, refs) => refs.key("milestone", cell) ?? String(cell),
      ),
    ),
    lastAppliedTemplate: col.optional(col.text("last_applied_template_id")),
  },
  derived: {
    team_id: ({ place }) => place.teamId,
    number: ({ place }) => place.number,
    sort_order: ({ place }) => place.index,
  },
});

/** An issue's labels: a team label of the issue's team, else the workspace label of that name. */
export const issueLabels: ListTable<string, LinearRefs, PlacedIssue> = {
  table: "lin_issue_labels",
  owner: "issue_id",
  item: col.custom<string, LinearRefs, PlacedIssue>(
    "label_id",
    (name, refs, { place }) => refs.id("label", inTeam(place.teamKey, name)) ?? refs.id("label", inTeam("", name)) ?? "",
    (cell, refs) => refs.key("label", cell) ?? String(cell),
  ),
  position: "position",
  orIgnore: true,
};

export const subscribers: ListTable<string, LinearRefs> = {
  table: "lin_subscribers",
  owner: "issue_id",
  item: userRef("user_id", (id) => id),
  position: "position",
  orIgnore: true,
};

/** Identifiers an issue had in teams it left: they still find it, in the order they were listed. */
export const formerIdentifiers: ListTable<string, LinearRefs> = {
  table: "lin_former_identifiers",
  owner: "issue_id",
  item: col.text("identifier"),
};

export type LinearHistoryEntry = NonNullable<LinearIssue["history"]>[number];
/** What hangs off one issue: its id and creation time. */
interface OnIssue {
  issueId: string;
  createdAt: string;
}

export const history = tableMap<LinearHistoryEntry, LinearRefs, OnIssue>()({
  table: "lin_issue_history",
  fields: {
    id: col.text("id"),
    createdAt: col.text("created_at"),
    actor: nullableUserRef("actor_id"),
    changes: col.json<LinearHistoryEntry["changes"]>("changes"),
  },
  derived: { issue_id: ({ place }) => place.issueId },
});

export const relations = tableMap<LinearRelation, LinearRefs, OnIssue>()({
  table: "lin_relations",
  fields: {
    type: col.text<LinearRelation["type"]>("type"),
    relatedIssue: col.custom<string, LinearRefs>(
      "related_issue_id",
      (identifier, refs) => refs.id("issue", identifier) ?? "",
      (cell, refs) => refs.key("issue", cell) ?? String(cell),
    ),
    id: col.text("id"),
  },
  derived: { issue_id: ({ place }) => place.issueId, created_at: ({ place }) => place.createdAt },
});

export const attachments = tableMap<LinearAttachment, LinearRefs, OnIssue>()({
  table: "lin_attachments",
  fields: {
    title: col.text("title"),
    url: col.text("url"),
    id: col.text("id"),
    subtitle: col.nullableText("subtitle"),
    creator: userRef("creator_id"),
  },
  derived: {
    issue_id: ({ place }) => place.issueId,
    created_at: ({ place }) => place.createdAt,
    updated_at: ({ place }) => place.createdAt,
  },
});

const replyFields = {
  body: col.text("body"),
  id: col.text("id"),
  user: userRef("user_id"),
  createdAt: col.text("created_at"),
  // A thread's resolution, on its first comment (commentResolve); left out when unresolved.
  resolvedAt: col.optional(col.text("resolved_at")),
  resolvingUser: optionalUserRef("resolving_user_id"),
  resolvingComment: col.optional(col.text("resolving_comment_id")),
};
const commentDerived = {
  issue_id: ({ place }: Placed<LinearReply, OnReply>) => place.issueId,
  parent_id: ({ place }: Placed<LinearReply, OnReply>) => place.parentId,
  updated_at: ({ value }: Placed<LinearReply, OnReply>) => value.createdAt,
};
/** A comment sits on an issue; a reply also under the comment it answers. */
interface OnReply {
  issueId: string;
  parentId: string | null;
}

/** Comments and their replies share lin_comments; boot writes both through `replies`. */
export const replies = tableMap<LinearReply, LinearRefs, OnReply>()({
  table: "lin_comments",
  fields: replyFields,
  derived: commentDerived,
});
export const comments = tableMap<LinearComment, LinearRefs, OnReply>()({
  table: "lin_comments",
  fields: { ...replyFields, children: assembled },
});

export const webhooks = tableMap<LinearWebhook, LinearRefs>()({
  table: "lin_webhooks",
  fields: {
    url: col.text("url"),
    resourceTypes: col.json<LinearWebhook["resourceTypes"]>("resource_types"),
    id: col.text("id"),
    team: col.custom<string | null, LinearRefs>(
      "team_id",
      (key, refs) => refs.id("team", key),
      (cell, refs) => refs.key("team", cell) ?? null,
    ),
    secret: col.text("secret"),
    enabled: col.flag("enabled"),
    label: col.nullableText("label"),
  },
});

export const oauthApplications = tableMap<LinearSeed["oauthApplications"][number], LinearRefs>()({
  table: "lin_oauth_apps",
  fields: {
    clientId: col.text("client_id"),
    clientSecret: col.text("client_secret"),
    name: col.text("name"),
    redirectUris: col.json<string[]>("redirect_uris"),
  },
});

/** What hangs off one project: its id and creation time. */
interface OnProject {
  projectId: string;
  createdAt: string;
}

export const milestones = tableMap<LinearMilestone, LinearRefs, OnProject>()({
  table: "lin_project_milestones",
  fields: {
    name: col.text("name"),
    id: col.text("id"),
    description: col.nullableText("description"),
    targetDate: col.nullableText("target_date"),
    sortOrder: col.number("sort_order"),
  },
  derived: {
    project_id: ({ place }) => place.projectId,
    created_at: ({ place }) => place.createdAt,
    updated_at: ({ place }) => place.createdAt,
  },
});

export const projectUpdates = tableMap<LinearProjectUpdate, LinearRefs, OnProject>()({
  table: "lin_project_updates",
  fields: {
    body: col.text("body"),
    id: col.text("id"),
    health: col.text<LinearProjectUpdate["health"]>("health"),
    user: userRef("user_id"),
    createdAt: col.text("created_at"),
  },
  derived: { project_id: ({ place }) => place.projectId, updated_at: ({ value }) => value.createdAt },
});

export const documents = tableMap<LinearDocument, LinearRefs>()({
  table: "lin_documents",
  fields: {
    title: col.text("title"),
    id: col.text("id"),
    content: col.nullableText("content"),
    project: col.custom<string | null, LinearRefs>(
      "project_id",
      (name, refs) => refs.id("project", name),
      (cell, refs) => refs.key("project", cell) ?? null,
    ),
    creator: userRef("creator_id"),
    icon: col.nullableText("icon"),
    color: col.nullableText("color"),
    createdAt: col.text("created_at"),
    updatedAt: col.text("updated_at"),
    trashed: col.flag("trashed"),
  },
  derived: {
    updated_by_id: ({ value }, refs) => userIdOf(refs, value.creator),
    archived_at: ({ value }) => (value.trashed ? value.updatedAt : null),
  },
});

/** A team named by its key (null: the workspace's). */
const teamKeyRef = (column: string) =>
  col.custom<string | null, LinearRefs>(
    column,
    (key, refs) => refs.id("team", key),
    (cell, refs) => refs.key("team", cell) ?? null,
  );

export const initiatives = tableMap<LinearInitiative, LinearRefs>()({
  table: "lin_initiatives",
  fields: {
    name: col.text("name"),
    id: col.text("id"),
    description: col.nullableText("description"),
    content: col.nullableText("content"),
    icon: col.nullableText("icon"),
    color: col.nullableText("color"),
    status: col.text<LinearInitiative["status"]>("status"),
    owner: nullableUserRef("owner_id"),
    creator: userRef("creator_id"),
    targetDate: col.nullableText("target_date"),
    sortOrder: col.number("sort_order"),
    projects: assembled,
    createdAt: col.text("created_at"),
    updatedAt: col.text("updated_at"),
    startedAt: col.nullableText("started_at"),
    completedAt: col.nullableText("completed_at"),
    archivedAt: col.nullableText("archived_at"),
    trashed: col.flag("trashed"),
  },
});

/** A project in an initiative: the join row's id and the project, by name. */
export interface InitiativeProject {
  id: string;
  project: string;
}
interface OnInitiative {
  initiativeId: string;
  createdAt: string;
  index: number;
}

export const initiativeProjects = tableMap<InitiativeProject, LinearRefs, OnInitiative>()({
  table: "lin_initiative_projects",
  fields: {
    id: col.text("id"),
    project: col.custom<string, LinearRefs>(
      "project_id",
      (name, refs) => refs.id("project", name) ?? name,
      (cell, refs) => refs.key("project", cell) ?? String(cell),
    ),
  },
  derived: {
    initiative_id: ({ place }) => place.initiativeId,
    sort_order: ({ place }) => place.index,
    created_at: ({ place }) => place.createdAt,
  },
});

export const customViews = tableMap<LinearCustomView, LinearRefs>()({
  table: "lin_custom_views",
  fields: {
    name: col.text("name"),
    id: col.text("id"),
    description: col.nullableText("description"),
    icon: col.nullableText("icon"),
    color: col.nullableText("color"),
    filterData: col.json<LinearCustomView["filterData"]>("filter_data"),
    shared: col.flag("shared"),
    owner: userRef("owner_id"),
    creator: userRef("creator_id"),
    team: teamKeyRef("team_id"),
    createdAt: col.text("created_at"),
    updatedAt: col.text("updated_at"),
  },
  derived: { updated_by_id: ({ value }, refs) => userIdOf(refs, value.creator) },
});

export const templates = tableMap<LinearTemplate, LinearRefs>()({
  table: "lin_templates",
  fields: {
    name: col.text("name"),
    id: col.text("id"),
    type: col.text("type"),
    templateData: col.json<LinearTemplate["templateData"]>("template_data"),
    description: col.nullableText("description"),
    icon: col.nullableText("icon"),
    color: col.nullableText("color"),
    team: teamKeyRef("team_id"),
    sortOrder: col.number("sort_order"),
    creator: userRef("creator_id"),
    createdAt: col.text("created_at"),
    updatedAt: col.text("updated_at"),
    lastAppliedAt: col.nullableText("last_applied_at"),
  },
  derived: { last_updated_by_id: ({ value }, refs) => userIdOf(refs, value.creator) },
});

export const notifications = tableMap<LinearNotificationState, LinearRefs>()({
  table: "lin_notifications",
  fields: {
    id: col.text("id"),
    type: col.text<LinearNotificationState["type"]>("type"),
    user: userRef("user_id", (id) => id),
    actor: nullableUserRef("actor_id"),
    issue: col.custom<string, LinearRefs>(
      "issue_id",
      (identifier, refs) => refs.id("issue", identifier) ?? identifier,
      (cell, refs) => refs.key("issue", cell) ?? String(cell),
    ),
    comment: col.nullableText("comment_id"),
    createdAt: col.text("created_at"),
    updatedAt: col.text("updated_at"),
    readAt: col.nullableText("read_at"),
    snoozedUntilAt: col.nullableText("snoozed_until_at"),
    archivedAt: col.nullableText("archived_at"),
  },
});
