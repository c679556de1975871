// The Linear twin's seed: Linear's own object and field names, strict (an unknown key is refused
// at its path), references by natural key, checked for integrity, and normalized so that
// export(boot(seed)) equals parseSeed(seed). The export is this same document.
import { z } from "zod";
import { IdsPerTable, SeedProblems, parseSeedWith } from "../kit/seed";
import { refusedUnderEverySetting } from "../kit/platform";
import type { SeedResult } from "../types";
import { uuidFor } from "./ids";
import {
  type LinearCustomView,
  type LinearInitiative,
  type LinearNotificationState,
  type LinearTemplate,
  type WorkspaceRefs,
  customViewSchema,
  initiativeSchema,
  normalizeCustomViews,
  normalizeInitiatives,
  normalizeNotifications,
  normalizeTemplates,
  notificationSchema,
  notInInboxSchema,
  normalizeNotInInbox,
  type LinearNotInInbox,
  templateSchema,
} from "./seed-workspace";

/** When a seed gives no time. Fixed, so two boots of one seed are the same world. */
export const SEED_EPOCH = "2026-01-01T00:00:00.000Z";

export const STATE_TYPES = ["triage", "backlog", "unstarted", "started", "completed", "canceled"] as const;
export const RELATION_TYPES = ["blocks", "duplicate", "related", "similar"] as const;
export const ESTIMATION_TYPES = ["notUsed", "exponential", "fibonacci", "linear", "tShirt"] as const;
/** The resource types whose changes the twin delivers: each one it writes (Linear's WebhookResourceType, @linear/sdk 98). */
export const WEBHOOK_RESOURCE_TYPES = [
  "Issue",
  "Comment",
  "IssueLabel",
  "Project",
  "ProjectUpdate",
  "Cycle",
  "Document",
  "Reaction",
  "Attachment",
  "Initiative",
] as const;
export type StateType = (typeof STATE_TYPES)[number];
export type EstimationType = (typeof ESTIMATION_TYPES)[number];

const uuid = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/, "Invalid id: a UUID v4");
const time = z.iso.datetime({ offset: true });
const color = z.string().regex(/^#[0-9a-fA-F]{6}$/, "Invalid color: #rrggbb");

const user = z.strictObject({
  email: z.string().min(3).includes("@"),
  id: uuid.optional(),
  name: z.string().optional(),
  displayName: z.string().optional(),
  admin: z.boolean().default(false),
  active: z.boolean().default(true),
  createdAt: time.optional(),
});
const label = z.strictObject({
  name: z.string().min(1),
  id: uuid.optional(),
  color: color.default("#bec2c8"),
  description: z.string().nullable().default(null),
});
const state = z.strictObject({
  name: z.string().min(1),
  type: z.enum(STATE_TYPES),
  id: uuid.optional(),
  color: color.optional(),
  position: z.number().optional(),
  // Present only when set (workflowStateArchive); an export leaves it out otherwise.
  archivedAt: time.optional(),
});
const cycle = z.strictObject({
  number: z.number().int().positive(),
  id: uuid.optional(),
  name: z.string().nullable().default(null),
  startsAt: time,
  endsAt: time,
  // Present only when set (an export leaves them out otherwise, so older seeds export unchanged).
  description: z.string().optional(),
  completedAt: time.optional(),
  archivedAt: time.optional(),
});
const team = z.strictObject({
  key: z.string(),
  name: z.string().min(1),
  id: uuid.optional(),
  description: z.string().nullable().default(null),
  members: z.array(z.string()).optional(),
  issueEstimationType: z.enum(ESTIMATION_TYPES).default("notUsed"),
  defaultIssueState: z.string().optional(),
  states: z.array(state).optional(),
  labels: z.array(label).default([]),
  cycles: z.array(cycle).default([]),
  createdAt: time.optional(),
});
const milestone = z.strictObject({
  name: z.string().min(1),
  id: uuid.optional(),
  description: z.string().nullable().default(null),
  targetDate: z.iso.date().nullable().default(null),
  sortOrder: z.number().optional(),
});
const projectUpdate = z.strictObject({
  body: z.string(),
  id: uuid.optional(),
  health: z.enum(["onTrack", "atRisk", "offTrack"]).default("onTrack"),
  user: z.string().optional(),
  createdAt: time.optional(),
});
const document = z.strictObject({
  title: z.string().min(1),
  id: uuid.optional(),
  content: z.string().nullable().default(null),
  project: z.string().nullable().default(null),
  creator: z.string().optional(),
  icon: z.string().nullable().default(null),
  color: z.string().nullable().default(null),
  createdAt: time.optional(),
  updatedAt: time.optional(),
  trashed: z.boolean().default(false),
});
/** A favorite in a user's sidebar: an object named by its id, or a folder (resolvers/favorites.ts). */
export const FAVORITE_TYPES = ["issue", "project", "cycle", "label", "document", "customView", "initiative", "folder"] as const;
const favorite = z.strictObject({
  type: z.enum(FAVORITE_TYPES),
  id: uuid.optional(),
  owner: z.string().optional(),
  target: uuid.nullable().default(null),
  folderName: z.string().nullable().default(null),
  parent: uuid.nullable().default(null),
  sortOrder: z.number().default(0),
  createdAt: time.optional(),
});
const project = z.strictObject({
  // Present only when set (an export leaves them out otherwise, so older seeds export unchanged).
  milestones: z.array(milestone).optional(),
  updates: z.array(projectUpdate).optional(),
  name: z.string().min(1),
  id: uuid.optional(),
  description: z.string().default(""),
  teams: z.array(z.string()).default([]),
  state: z.enum(["backlog", "planned", "started", "paused", "completed", "canceled"]).default("planned"),
  lead: z.string().nullable().default(null),
  createdAt: time.optional(),
});
const reply = z.strictObject({
  body: z.string(),
  id: uuid.optional(),
  user: z.string().optional(),
  createdAt: time.optional(),
  // A thread's resolution (commentResolve), on its first comment only; present only when set.
  resolvedAt: time.optional(),
  resolvingUser: z.string().optional(),
  resolvingComment: uuid.optional(),
});
const comment = reply.extend({ children: z.array(reply).default([]) });
const relation = z.strictObject({ type: z.enum(RELATION_TYPES), relatedIssue: z.string(), id: uuid.optional() });
const attachment = z.strictObject({
  title: z.string().min(1),
  url: z.url(),
  id: uuid.optional(),
  subtitle: z.string().nullable().default(null),
  creator: z.string().optional(),
});
// One IssueHistory entry: who changed what, when. `changes` holds IssueHistory's own field names
// (fromStateId, toAssigneeId, addedLabelIds, fromTitle, updatedDescription, archived…) with ids.
const historyValue = z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(z.string())]);
const historyEntry = z.strictObject({
  id: uuid,
  createdAt: time,
  actor: z.string().nullable(),
  changes: z.record(z.string().regex(/^[a-zA-Z]{1,40}$/), historyValue),
});

const issue = z.strictObject({
  identifier: z.string(),
  title: z.string().min(1),
  id: uuid.optional(),
  description: z.string().nullable().default(null),
  state: z.string().optional(),
  priority: z.number().int().default(0),
  estimate: z.number().nullable().default(null),
  assignee: z.string().nullable().default(null),
  creator: z.string().optional(),
  labels: z.array(z.string()).default([]),
  project: z.string().nullable().default(null),
  cycle: z.number().int().nullable().default(null),
  parent: z.string().nullable().default(null),
  dueDate: z.iso.date().nullable().default(null),
  subscribers: z.array(z.string()).default([]),
  relations: z.array(relation).default([]),
  attachments: z.array(attachment).default([]),
  comments: z.array(comment).default([]),
  createdAt: time.optional(),
  updatedAt: time.optional(),
  startedAt: time.nullable().optional(),
  completedAt: time.nullable().optional(),
  canceledAt: time.nullable().optional(),
  archivedAt: time.nullable().default(null),
  trashed: z.boolean().default(false),
  // Present only when set (an export leaves them out otherwise, so older seeds export unchanged).
  snoozedUntilAt: time.optional(),
  snoozedBy: z.string().optional(),
  delegate: z.string().optional(),
  /** Identifiers the issue had in teams it has left; they still find it. */
  formerIdentifiers: z.array(z.string()).optional(),
  projectMilestone: z.string().optional(),
  history: z.array(historyEntry).optional(),
  /** The template the issue was created from (issueCreate's templateId), by id. */
  lastAppliedTemplate: uuid.optional(),
});
const webhook = z.strictObject({
  url: z.url(),
  // The resource types whose changes the twin delivers.
  resourceTypes: z.array(z.enum(WEBHOOK_RESOURCE_TYPES)).min(1),
  id: uuid.optional(),
  team: z.string().nullable().default(null),
  secret: z.string().optional(),
  enabled: z.boolean().default(true),
  label: z.string().nullable().default(null),
});
const oauthApp = z.strictObject({
  clientId: z.string().min(8),
  clientSecret: z.string().min(8),
  name: z.string().min(1),
  redirectUris: z.array(z.url()).min(1),
});

// A seeded fault: calls of `operation` (a root field, e.g. issueCreate) are counted; after `skip`
// of them, the next `times` answer Linear's error of that class and change nothing.
const fault = z.strictObject({
  operation: z.string().min(1),
  error: z.enum(["ratelimited", "internal", "forbidden", "authentication"]),
  skip: z.number().int().min(0).default(0),
  times: z.number().int().min(1).default(1),
});

// Hourly rate limits in place of Linear's (5,000 requests, 3,000,000 complexity points for an
// API key), so that a task can see the twin refuse with RATELIMITED; absent, Linear's apply.
const rateLimits = z.strictObject({
  requests: z.number().int().min(1).max(1_000_000),
  complexity: z.number().int().min(1).max(100_000_000),
});

const rawSeed = z.strictObject({
  organization: z
    .strictObject({
      name: z.string().min(1).default("Acme"),
      urlKey: z
        .string()
        .regex(/^[a-z0-9-]+$/)
        .default("acme"),
      id: uuid.optional(),
    })
    .default({ name: "Acme", urlKey: "acme" }),
  viewer: z.string().optional(),
  users: z
    .array(user)
    .min(1)
    .default([{ email: "agent@acme.test", name: "Pome Agent", admin: true, active: true }]),
  labels: z.array(label).default([]),
  teams: z.array(team).default([]),
  projects: z.array(project).default([]),
  issues: z.array(issue).default([]),
  documents: z.array(document).optional(),
  favorites: z.array(favorite).optional(),
  initiatives: z.array(initiativeSchema).optional(),
  customViews: z.array(customViewSchema).optional(),
  templates: z.array(templateSchema).optional(),
  notifications: z.array(notificationSchema).optional(),
  notificationsNotInInbox: z.array(notInInboxSchema).optional(),
  webhooks: z.array(webhook).default([]),
  oauthApplications: z.array(oauthApp).default([]),
  faults: z.array(fault).default([]),
  rateLimits: rateLimits.optional(),
});
type RawSeed = z.infer<typeof rawSeed>;

// The normalized seed: every default filled, every id present. This is also the export's shape.
type Req<T, K extends keyof T> = Omit<T, K> & { [P in K]-?: Exclude<T[P], undefined> };
export type LinearUser = Req<z.infer<typeof user>, "id" | "name" | "displayName" | "createdAt">;
export type LinearLabel = Req<z.infer<typeof label>, "id">;
export type LinearState = Req<z.infer<typeof state>, "id" | "color" | "position">;
export type LinearCycle = Req<z.infer<typeof cycle>, "id">;
export type LinearTeam = Omit<
  Req<z.infer<typeof team>, "id" | "members" | "defaultIssueState" | "createdAt">,
  "states" | "labels" | "cycles"
> & {
  states: LinearState[];
  labels: LinearLabel[];
  cycles: LinearCycle[];
};
export type LinearMilestone = Req<z.infer<typeof milestone>, "id" | "sortOrder">;
export type LinearProjectUpdate = Req<z.infer<typeof projectUpdate>, "id" | "user" | "createdAt">;
export type LinearDocument = Req<z.infer<typeof document>, "id" | "creator" | "createdAt" | "updatedAt">;
export type LinearFavorite = Req<z.infer<typeof favorite>, "id" | "owner" | "createdAt">;
export type LinearProject = Omit<Req<z.infer<typeof project>, "id" | "createdAt">, "milestones" | "updates"> & {
  milestones?: LinearMilestone[];
  updates?: LinearProjectUpdate[];
};
export type LinearReply = Req<z.infer<typeof reply>, "id" | "user" | "createdAt">;
export type LinearComment = LinearReply & { children: LinearReply[] };
export type LinearRelation = Req<z.infer<typeof relation>, "id">;
export type LinearAttachment = Req<z.infer<typeof attachment>, "id" | "creator">;
export type LinearIssue = Omit<
  Req<z.infer<typeof issue>, "id" | "state" | "creator" | "createdAt" | "updatedAt" | "startedAt" | "completedAt" | "canceledAt">,
  "comments" | "relations" | "attachments"
> & { comments: LinearComment[]; relations: LinearRelation[]; attachments: LinearAttachment[] };
export type LinearWebhook = Req<z.infer<typeof webhook>, "id" | "secret">;
export interface LinearSeed {
  organization: { name: string; urlKey: string; id: string };
  viewer: string;
  users: LinearUser[];
  labels: LinearLabel[];
  teams: LinearTeam[];
  projects: LinearProject[];
  issues: LinearIssue[];
  documents?: LinearDocument[];
  favorites?: LinearFavorite[];
  initiatives?: LinearInitiative[];
  customViews?: LinearCustomView[];
  templates?: LinearTemplate[];
  notifications?: LinearNotificationState[];
  notificationsNotInInbox?: LinearNotInInbox[];
  webhooks: LinearWebhook[];
  oauthApplications: z.infer<typeof oauthApp>[];
  faults: z.infer<typeof fault>[];
  rateLimits?: z.infer<typeof rateLimits>;
}

export const DEFAULT_STATES: { name: string; type: StateType; color: string }[] = [
  { name: "Backlog", type: "backlog", color: "#bec2c8" },
  { name: "Todo", type: "unstarted", color: "#e2e2e2" },
  { name: "In Progress", type: "started", color: "#f2c94c" },
  { name: "Done", type: "completed", color: "#5e6ad2" },
  { name: "Canceled", type: "canceled", color: "#95a2b3" },
];
const STATE_COLORS: Record<StateType, string> = {
  triage: "#fc7840",
  backlog: "#bec2c8",
  unstarted: "#e2e2e2",
  started: "#f2c94c",
  completed: "#5e6ad2",
  canceled: "#95a2b3",
};

/** The points a team's estimation scale allows (Linear's scales; `notUsed` takes none). */
export function estimateScale(type: EstimationType): number[] {
  switch (type) {
    case "exponential":
      return [0, 1, 2, 4, 8, 16];
    case "fibonacci":
      return [0, 1, 2, 3, 5, 8];
    case "linear":
      return [0, 1, 2, 3, 4, 5];
    case "tShirt":
      return [0, 1, 2, 3, 5, 8];
    default:
      return [];
  }
}

const IDENTIFIER = /^([A-Z][A-Z0-9]*)-(\d+)$/;
export const parseIdentifier = (value: string) => {
  const m = IDENTIFIER.exec(value);
  return m ? { key: m[1], number: Number(m[2]) } : undefined;
};

/** What normalizing a Linear seed has found so far: the problems, and the objects references name. */
interface Normalizing {
  p: SeedProblems;
  /** Each user's email by its lower-cased form (emails match case-insensitively). */
  emails: Map<string, string>;
  viewer: string;
  workspaceLabels: Set<string>;
  teamsByKey: Map<string, LinearTeam>;
  projectNames: Map<string, LinearProject>;
  /** Each issue identifier and its index in the seed. */
  identifiers: Map<string, number>;
}

/** A reference to a user by email: the email as the user has it, or the value with a problem at `path`. */
function userRef(n: Pick<Normalizing, "p" | "emails">, value: string, path: string): string {
  return n.p.resolve(n.emails, value.toLowerCase(), path, () => `Unknown user "${value}": not in users`) ?? value;
}

function normalizeUsers(p: SeedProblems, raw: RawSeed["users"]) {
  const emails = new Map<string, string>();
  const users: LinearUser[] = raw.map((u, i) => {
    const key = u.email.toLowerCase();
    if (emails.has(key)) p.add(`users[${i}].email`, `Duplicate user email "${u.email}"`, "duplicate");
    emails.set(key, u.email);
    const name = u.name ?? u.email.split("@")[0];
    return {
      ...u,
      id: u.id ?? uuidFor("user", key),
      name,
      displayName: u.displayName ?? u.email.split("@")[0],
      createdAt: u.createdAt ?? SEED_EPOCH,
    };
  });
  return { users, emails };
}

function teamStates(p: SeedProblems, t: RawSeed["teams"][number], at: string): LinearState[] {
  const stateNames = new Set<string>();
  return (t.states ?? DEFAULT_STATES).map((s, si) => {
    p.unique(stateNames, s.name, `${at}.states[${si}].name`, `Duplicate state "${s.name}" in team ${t.key}`);
    return {
      name: s.name,
      type: s.type,
      id: ("id" in s && s.id) || uuidFor("state", t.key, s.name),
      color: s.color ?? STATE_COLORS[s.type],
      position: "position" in s && s.position !== undefined ? s.position : si,
      ...("archivedAt" in s && s.archivedAt !== undefined ? { archivedAt: s.archivedAt } : {}),
    };
  });
}

function teamLabelsAndCycles(n: Normalizing, t: RawSeed["teams"][number], at: string) {
  const { p } = n;
  const teamLabelNames = new Set<string>();
  const labels = t.labels.map((l, li) => {
    if (teamLabelNames.has(l.name)) p.add(`${at}.labels[${li}].name`, `Duplicate label "${l.name}" in team ${t.key}`, "duplicate");
    if (n.workspaceLabels.has(l.name)) p.add(`${at}.labels[${li}].name`, `Label "${l.name}" is already a workspace label`, "duplicate");
    teamLabelNames.add(l.name);
    return { ...l, id: l.id ?? uuidFor("label", t.key, l.name) };
  });
  const cycleNumbers = new Set<number>();
  const cycles = t.cycles.map((c, ci) => {
    if (cycleNumbers.has(c.number)) p.add(`${at}.cycles[${ci}].number`, `Duplicate cycle ${c.number} in team ${t.key}`, "duplicate");
    if (Date.parse(c.endsAt) <= Date.parse(c.startsAt))
      p.add(`${at}.cycles[${ci}].endsAt`, "A cycle ends after it starts", "invalid_value");
    cycleNumbers.add(c.number);
    return { ...c, id: c.id ?? uuidFor("cycle", t.key, String(c.number)) };
  });
  return { labels, cycles };
}

function normalizeTeam(n: Normalizing, t: RawSeed["teams"][number], ti: number, users: LinearUser[]): LinearTeam {
  const { p } = n;
  const at = `teams[${ti}]`;
  if (!/^[A-Z][A-Z0-9]*$/.test(t.key))
    p.add(`${at}.key`, `Invalid team key "${t.key}": capital letters and digits, starting with a letter`, "invalid_format");
  if (n.teamsByKey.has(t.key)) p.add(`${at}.key`, `Duplicate team key "${t.key}"`, "duplicate");
  const states = teamStates(p, t, at);
  const firstOf = (type: StateType) => states.find((s) => s.type === type)?.name;
  const defaultIssueState = t.defaultIssueState ?? firstOf("backlog") ?? firstOf("unstarted") ?? states[0]?.name ?? "";
  if (!states.some((s) => s.name === defaultIssueState))
    p.add(`${at}.defaultIssueState`, `Unknown state "${defaultIssueState}": not a state of team ${t.key}`);
  const { labels, cycles } = teamLabelsAndCycles(n, t, at);
  const members = t.members ? t.members.map((m, mi) => userRef(n, m, `${at}.members[${mi}]`)) : users.map((u) => u.email);
  const out: LinearTeam = {
    key: t.key,
    name: t.name,
    id: t.id ?? uuidFor("team", t.key),
    description: t.description,
    members,
    issueEstimationType: t.issueEstimationType,
    defaultIssueState,
    states,
    labels,
    cycles,
    createdAt: t.createdAt ?? SEED_EPOCH,
  };
  n.teamsByKey.set(t.key, out);
  return out;
}

function normalizeProjects(n: Normalizing, raw: RawSeed["projects"]): LinearProject[] {
  const { p } = n;
  return raw.map((pr, i) => {
    if (n.projectNames.has(pr.name)) p.add(`projects[${i}].name`, `Duplicate project "${pr.name}"`, "duplicate");
    pr.teams.forEach((k, ki) => {
      if (!n.teamsByKey.has(k)) p.add(`projects[${i}].teams[${ki}]`, `Unknown team "${k}"`);
    });
    const { milestones, updates, ...rest } = pr;
    const createdAt = pr.createdAt ?? SEED_EPOCH;
    const out: LinearProject = {
      ...rest,
      id: pr.id ?? uuidFor("project", pr.name),
      lead: pr.lead === null ? null : userRef(n, pr.lead, `projects[${i}].lead`),
      createdAt,
      ...projectParts(n, pr, i, createdAt),
    };
    n.projectNames.set(pr.name, out);
    return out;
  });
}

/** A project's milestones (names unique in it) and updates, present only when the seed gives some. */
function projectParts(n: Normalizing, pr: RawSeed["projects"][number], i: number, createdAt: string) {
  const names = new Set<string>();
  const milestones = (pr.milestones ?? []).map((m, mi) => {
    n.p.unique(names, m.name, `projects[${i}].milestones[${mi}].name`, `Duplicate milestone "${m.name}" in project ${pr.name}`);
    return { ...m, id: m.id ?? uuidFor("milestone", pr.name, m.name), sortOrder: m.sortOrder ?? mi };
  });
  const updates = (pr.updates ?? []).map((u, ui) => ({
    ...u,
    id: u.id ?? uuidFor("project-update", pr.name, String(ui)),
    user: userRef(n, u.user ?? n.viewer, `projects[${i}].updates[${ui}].user`),
    createdAt: u.createdAt ?? createdAt,
  }));
  return { ...(milestones.length ? { milestones } : {}), ...(updates.length ? { updates } : {}) };
}

/** Documents, each in a known project (or none), written by a known user (the viewer by default). */
function normalizeDocuments(n: Normalizing, raw: RawSeed["documents"]): LinearDocument[] {
  return (raw ?? []).map((d, i) => {
    if (d.project !== null && !n.projectNames.has(d.project)) n.p.add(`documents[${i}].project`, `Unknown project "${d.project}"`);
    const createdAt = d.createdAt ?? SEED_EPOCH;
    return {
      ...d,
      id: d.id ?? uuidFor("document", String(i), d.title),
      creator: userRef(n, d.creator ?? n.viewer, `documents[${i}].creator`),
      createdAt,
      updatedAt: d.updatedAt ?? createdAt,
    };
  });
}

/** Favorites, each of a known user (the viewer by default), naming an object of the seed or a folder of theirs. */
function normalizeFavorites(n: Normalizing, raw: RawSeed["favorites"], known: ReadonlySet<string>): LinearFavorite[] {
  const out = (raw ?? []).map((f, i) => {
    const at = `favorites[${i}]`;
    if (f.type === "folder" ? f.target !== null || !f.folderName : f.target === null || f.folderName !== null)
      n.p.add(at, f.type === "folder" ? "A folder has a folderName and no target" : "A favorite names its target and has no folderName");
    if (f.target !== null && !known.has(f.target)) n.p.add(`${at}.target`, `Unknown ${f.type} "${f.target}"`);
    return {
      ...f,
      id: f.id ?? uuidFor("favorite", String(i), f.type, f.target ?? f.folderName ?? ""),
      owner: userRef(n, f.owner ?? n.viewer, `${at}.owner`),
      createdAt: f.createdAt ?? SEED_EPOCH,
    };
  });
  const folders = new Map(out.filter((f) => f.type === "folder").map((f) => [f.id, f.owner]));
  out.forEach((f, i) => {
    if (f.parent !== null && (folders.get(f.parent) !== f.owner || f.type === "folder"))
      n.p.add(`favorites[${i}].parent`, `Unknown folder "${f.parent}" of ${f.owner}`);
  });
  return out;
}

/** Each identifier once, and identifiers issues left behind well-formed and taken by no other. */
function checkIdentifiers(p: SeedProblems, issues: RawSeed["issues"]): Map<string, number> {
  const identifiers = new Map<string, number>();
  issues.forEach((it, i) => {
    if (identifiers.has(it.identifier)) p.add(`issues[${i}].identifier`, `Duplicate identifier "${it.identifier}"`, "duplicate");
    identifiers.set(it.identifier, i);
  });
  const former = new Set<string>();
  issues.forEach((it, i) =>
    it.formerIdentifiers?.forEach((f, fi) => {
      if (!parseIdentifier(f))
        p.add(`issues[${i}].formerIdentifiers[${fi}]`, `Invalid identifier "${f}": TEAMKEY-number`, "invalid_format");
      if (identifiers.has(f) || former.has(f))
        p.add(`issues[${i}].formerIdentifiers[${fi}]`, `Identifier "${f}" is already taken`, "duplicate");
      former.add(f);
    }),
  );
  return identifiers;
}

type RawIssue = RawSeed["issues"][number];

/** The issue's team (from its identifier), state, labels, priority, estimate, project, cycle, parent and relations, checked. */
function checkIssueFields(n: Normalizing, it: RawIssue, at: string) {
  const { p } = n;
  const ident = parseIdentifier(it.identifier);
  const t = ident ? n.teamsByKey.get(ident.key) : undefined;
  if (!ident || ident.number < 1) p.add(`${at}.identifier`, `Invalid identifier "${it.identifier}": TEAMKEY-number`, "invalid_format");
  else if (!t) p.add(`${at}.identifier`, `Unknown team "${ident.key}" in identifier "${it.identifier}"`);
  const stateName = it.state ?? t?.defaultIssueState ?? "";
  const st = t?.states.find((s) => s.name === stateName);
  if (t && !st) p.add(`${at}.state`, `Unknown state "${stateName}": not a state of team ${t.key}`);
  it.labels.forEach((name, li) => {
    if (t && !n.workspaceLabels.has(name) && !t.labels.some((l) => l.name === name))
      p.add(`${at}.labels[${li}]`, `Unknown label "${name}" for team ${t.key}`);
  });
  if (it.priority < 0 || it.priority > 4) p.add(`${at}.priority`, "Priority is 0 (none) to 4 (low)", "invalid_value");
  if (it.estimate !== null && t) {
    const scale = estimateScale(t.issueEstimationType);
    if (!scale.includes(it.estimate))
      p.add(`${at}.estimate`, `Estimate ${it.estimate} is not on team ${t.key}'s ${t.issueEstimationType} scale`, "invalid_value");
  }
  if (it.project !== null) {
    const pr = n.projectNames.get(it.project);
    if (!pr) p.add(`${at}.project`, `Unknown project "${it.project}"`);
    else if (t && !pr.teams.includes(t.key)) p.add(`${at}.project`, `Project "${it.project}" does not include team ${t.key}`);
  }
  if (it.cycle !== null && t && !t.cycles.some((c) => c.number === it.cycle))
    p.add(`${at}.cycle`, `Unknown cycle ${it.cycle} of team ${t.key}`);
  if (it.parent !== null && (!n.identifiers.has(it.parent) || it.parent === it.identifier))
    p.add(`${at}.parent`, `Unknown parent issue "${it.parent}"`);
  checkIssueRelations(n, it, at);
  return { stateName, type: st?.type };
}

function checkIssueRelations(n: Normalizing, it: RawIssue, at: string): void {
  const pairs = new Set<string>();
  it.relations.forEach((r, ri) => {
    if (!n.identifiers.has(r.relatedIssue) || r.relatedIssue === it.identifier)
      n.p.add(`${at}.relations[${ri}].relatedIssue`, `Unknown related issue "${r.relatedIssue}"`);
    n.p.unique(pairs, r.relatedIssue, `${at}.relations[${ri}]`, `A second relation with ${r.relatedIssue}`);
  });
}

/** An issue's comments and their replies (one level deep), by default the viewer's, at the issue's time. */
function issueComments(n: Normalizing, it: RawIssue, at: string, created: string): LinearComment[] {
  return it.comments.map((c, ci) => {
    const children = c.children.map((r, ri) => {
      const rat = `${at}.comments[${ci}].children[${ri}]`;
      if ("children" in r) n.p.add(`${rat}.children`, "Replies are one level deep", "invalid_value");
      if (r.resolvedAt !== undefined || r.resolvingUser !== undefined || r.resolvingComment !== undefined)
        n.p.add(rat, "Only a thread's first comment is resolved", "invalid_value");
      return {
        body: r.body,
        id: r.id ?? uuidFor("comment", it.identifier, `${ci}.${ri}`),
        user: userRef(n, r.user ?? n.viewer, `${rat}.user`),
        createdAt: r.createdAt ?? created,
      };
    });
    if (c.resolvingComment !== undefined && !children.some((r) => r.id === c.resolvingComment))
      n.p.add(`${at}.comments[${ci}].resolvingComment`, "The resolving comment must be a reply in the thread");
    if ((c.resolvingUser !== undefined || c.resolvingComment !== undefined) && c.resolvedAt === undefined)
      n.p.add(`${at}.comments[${ci}].resolvedAt`, "A resolved thread has resolvedAt");
    return {
      body: c.body,
      id: c.id ?? uuidFor("comment", it.identifier, String(ci)),
      user: userRef(n, c.user ?? n.viewer, `${at}.comments[${ci}].user`),
      createdAt: c.createdAt ?? created,
      ...(c.resolvedAt !== undefined ? { resolvedAt: c.resolvedAt } : {}),
      ...(c.resolvingUser !== undefined ? { resolvingUser: userRef(n, c.resolvingUser, `${at}.comments[${ci}].resolvingUser`) } : {}),
      ...(c.resolvingComment !== undefined ? { resolvingComment: c.resolvingComment } : {}),
      children,
    };
  });
}

/** Fields an issue has only when set: kept out of the normalized issue otherwise. */
function issueOptionalFields(
  n: Normalizing,
  it: RawIssue,
  at: string,
): Pick<
  LinearIssue,
  "snoozedUntilAt" | "snoozedBy" | "delegate" | "formerIdentifiers" | "history" | "projectMilestone" | "lastAppliedTemplate"
> {
  return {
    ...(it.lastAppliedTemplate !== undefined ? { lastAppliedTemplate: it.lastAppliedTemplate } : {}),
    ...(it.snoozedUntilAt !== undefined ? { snoozedUntilAt: it.snoozedUntilAt } : {}),
    ...(it.snoozedBy !== undefined ? { snoozedBy: userRef(n, it.snoozedBy, `${at}.snoozedBy`) } : {}),
    ...(it.delegate !== undefined ? { delegate: userRef(n, it.delegate, `${at}.delegate`) } : {}),
    ...(it.formerIdentifiers?.length ? { formerIdentifiers: it.formerIdentifiers } : {}),
    ...(it.projectMilestone !== undefined ? { projectMilestone: milestoneOf(n, it, at) } : {}),
    ...(it.history?.length
      ? {
          history: it.history.map((h, hi) => ({
            ...h,
            actor: h.actor === null ? null : userRef(n, h.actor, `${at}.history[${hi}].actor`),
          })),
        }
      : {}),
  };
}

/** An issue's milestone: one of its project's, by name. */
function milestoneOf(n: Normalizing, it: RawIssue, at: string): string {
  const name = it.projectMilestone ?? "";
  const pr = it.project === null ? undefined : n.projectNames.get(it.project);
  if (!pr) n.p.add(`${at}.projectMilestone`, "An issue's milestone needs the issue's project");
  else if (!pr.milestones?.some((m) => m.name === name))
    n.p.add(`${at}.projectMilestone`, `Unknown milestone "${name}" of project ${pr.name}`);
  return name;
}

function normalizeIssue(n: Normalizing, it: RawIssue, i: number): LinearIssue {
  const at = `issues[${i}]`;
  const { stateName, type } = checkIssueFields(n, it, at);
  const created = it.createdAt ?? SEED_EPOCH;
  const comments = issueComments(n, it, at, created);
  return {
    identifier: it.identifier,
    title: it.title,
    id: it.id ?? uuidFor("issue", it.identifier),
    description: it.description,
    state: stateName,
    priority: it.priority,
    estimate: it.estimate,
    assignee: it.assignee === null ? null : userRef(n, it.assignee, `${at}.assignee`),
    creator: userRef(n, it.creator ?? n.viewer, `${at}.creator`),
    labels: it.labels,
    project: it.project,
    cycle: it.cycle,
    parent: it.parent,
    dueDate: it.dueDate,
    subscribers: it.subscribers.map((s, si) => userRef(n, s, `${at}.subscribers[${si}]`)),
    relations: it.relations.map((r) => ({ ...r, id: r.id ?? uuidFor("relation", it.identifier, r.relatedIssue) })),
    attachments: it.attachments.map((a, ai) => ({
      ...a,
      id: a.id ?? uuidFor("attachment", it.identifier, String(ai)),
      creator: userRef(n, a.creator ?? n.viewer, `${at}.attachments[${ai}].creator`),
    })),
    comments,
    createdAt: created,
    updatedAt: it.updatedAt ?? created,
    startedAt:
      it.startedAt !== undefined ? it.startedAt : type === "started" || type === "completed" || type === "canceled" ? created : null,
    completedAt: it.completedAt !== undefined ? it.completedAt : type === "completed" ? created : null,
    canceledAt: it.canceledAt !== undefined ? it.canceledAt : type === "canceled" ? created : null,
    archivedAt: it.archivedAt,
    trashed: it.trashed,
    ...issueOptionalFields(n, it, at),
  };
}

/** No parent cycles (a chain longer than the issue count loops), and one relation per pair of issues. */
function checkIssueGraph(p: SeedProblems, issues: LinearIssue[]): void {
  const parentOf = new Map(issues.map((it) => [it.identifier, it.parent]));
  issues.forEach((it, i) => {
    let cur = it.parent;
    for (let steps = 0; cur !== null && steps <= issues.length; steps++) {
      if (cur === it.identifier) {
        p.add(`issues[${i}].parent`, `Parent chain of ${it.identifier} loops back to it`, "invalid_reference");
        break;
      }
      cur = parentOf.get(cur) ?? null;
    }
  });
  // A pair of issues carries one relation, whichever side declares it.
  const seenPairs = new Set<string>();
  issues.forEach((it, i) =>
    it.relations.forEach((r, ri) => {
      const key = [it.identifier, r.relatedIssue].sort().join("|");
      if (seenPairs.has(key) && !it.relations.slice(0, ri).some((x) => x.relatedIssue === r.relatedIssue))
        p.add(`issues[${i}].relations[${ri}]`, `${it.identifier} and ${r.relatedIssue} are already related`, "duplicate");
      seenPairs.add(key);
    }),
  );
}

function normalizeWebhooks(n: Normalizing, raw: RawSeed["webhooks"]): LinearWebhook[] {
  return raw.map((w, i) => {
    if (w.team !== null && !n.teamsByKey.has(w.team)) n.p.add(`webhooks[${i}].team`, `Unknown team "${w.team}"`);
    const refused = refusedUnderEverySetting(w.url);
    if (refused) n.p.add(`webhooks[${i}].url`, `url is not allowed: ${refused}`, "invalid_url");
    return {
      ...w,
      id: w.id ?? uuidFor("webhook", w.url, String(i)),
      secret: w.secret ?? `lin_wh_${uuidFor("webhook-secret", w.url, String(i)).replace(/-/g, "")}`,
    };
  });
}

/** An issue's last applied template must be one the seed holds. */
function checkAppliedTemplates(p: SeedProblems, issues: { lastAppliedTemplate?: string }[], templates: { id: string }[]): void {
  const templateIds = new Set(templates.map((t) => t.id));
  issues.forEach((it, i) => {
    if (it.lastAppliedTemplate !== undefined && !templateIds.has(it.lastAppliedTemplate))
      p.add(`issues[${i}].lastAppliedTemplate`, `Unknown template "${it.lastAppliedTemplate}"`);
  });
}

function normalize(raw: RawSeed): SeedResult<LinearSeed> {
  const p = new SeedProblems();
  const { users, emails } = normalizeUsers(p, raw.users);
  const viewer = raw.viewer === undefined ? users[0].email : userRef({ p, emails }, raw.viewer, "viewer");
  const workspaceLabels = new Set<string>();
  const labels = raw.labels.map((l, i) => {
    p.unique(workspaceLabels, l.name, `labels[${i}].name`, `Duplicate label "${l.name}"`);
    return { ...l, id: l.id ?? uuidFor("label", l.name) };
  });
  const n: Normalizing = {
    p,
    emails,
    viewer,
    workspaceLabels,
    teamsByKey: new Map(),
    projectNames: new Map(),
    identifiers: new Map(),
  };
  const teams = raw.teams.map((t, ti) => normalizeTeam(n, t, ti, users));
  const projects = normalizeProjects(n, raw.projects);
  n.identifiers = checkIdentifiers(p, raw.issues);
  const issues = raw.issues.map((it, i) => normalizeIssue(n, it, i));
  checkIssueGraph(p, issues);
  const webhooks = normalizeWebhooks(n, raw.webhooks);
  const documents = normalizeDocuments(n, raw.documents);
  const known = new Set<string>([
    ...teams.flatMap((t) => [...t.labels.map((l) => l.id), ...t.cycles.map((c) => c.id)]),
    ...labels.map((l) => l.id),
    ...projects.map((x) => x.id),
    ...issues.map((x) => x.id),
    ...documents.map((x) => x.id),
  ]);
  const refs: WorkspaceRefs = {
    p,
    viewer,
    user: (value, path) => userRef(n, value, path),
    teamKeys: new Set(teams.map((t) => t.key)),
    projectNames: new Set(projects.map((x) => x.name)),
    identifiers: new Set(issues.map((x) => x.identifier)),
  };
  const initiatives = normalizeInitiatives(refs, raw.initiatives);
  const customViews = normalizeCustomViews(refs, raw.customViews);
  for (const x of [...initiatives, ...customViews]) known.add(x.id);
  const favorites = normalizeFavorites(n, raw.favorites, known);
  const templates = normalizeTemplates(refs, raw.templates);
  const notifications = normalizeNotifications(refs, raw.notifications);
  const notificationsNotInInbox = normalizeNotInInbox(refs, raw.notificationsNotInInbox);
  checkAppliedTemplates(p, issues, templates);
  const organization = {
    name: raw.organization.name,
    urlKey: raw.organization.urlKey,
    id: raw.organization.id ?? uuidFor("organization", raw.organization.urlKey),
  };
  claimIds(p, { users, labels, teams, projects, issues, webhooks, documents, initiatives, customViews, templates, notifications });
  return p.result({
    organization,
    viewer,
    users,
    labels,
    teams,
    projects,
    issues,
    ...(documents.length ? { documents } : {}),
    ...(favorites.length ? { favorites } : {}),
    ...(initiatives.length ? { initiatives } : {}),
    ...(customViews.length ? { customViews } : {}),
    ...(templates.length ? { templates } : {}),
    ...(notifications.length ? { notifications } : {}),
    ...(notificationsNotInInbox.length ? { notificationsNotInInbox } : {}),
    webhooks,
    oauthApplications: raw.oauthApplications,
    faults: raw.faults,
    ...(raw.rateLimits ? { rateLimits: raw.rateLimits } : {}),
  });
}

/**
 * Every row's id, given or derived, once in its table (a workspace label and a team's share
 * lin_labels; a reply is a comment): a second row with an id is refused at its path. Not when
 * the top-level entry it belongs to was refused already: a second team with a key, or a second
 * issue with an identifier, derives the same ids as the first, and saying so again adds nothing.
 */
function claimIds(
  p: SeedProblems,
  seed: Pick<
    LinearSeed,
    | "users"
    | "labels"
    | "teams"
    | "projects"
    | "issues"
    | "webhooks"
    | "documents"
    | "initiatives"
    | "customViews"
    | "templates"
    | "notifications"
  >,
) {
  const ids = new IdsPerTable();
  const refused = (path: string) => {
    const entry = path.slice(0, path.indexOf("]") + 1);
    return p.issues.some((i) => i.path === entry || i.path.startsWith(`${entry}.`));
  };
  const claim = (table: string, id: string, path: () => string) => {
    const duplicate = ids.claim(table, id, path);
    if (duplicate && !refused(duplicate.path)) p.add(duplicate.path, duplicate.message, "duplicate");
  };
  seed.users.forEach((u, i) => claim("users", u.id, () => `users[${i}]`));
  seed.labels.forEach((l, i) => claim("labels", l.id, () => `labels[${i}]`));
  seed.teams.forEach((t, ti) => {
    const at = `teams[${ti}]`;
    claim("teams", t.id, () => at);
    t.states.forEach((s, si) => claim("states", s.id, () => `${at}.states[${si}]`));
    t.labels.forEach((l, li) => claim("labels", l.id, () => `${at}.labels[${li}]`));
    t.cycles.forEach((c, ci) => claim("cycles", c.id, () => `${at}.cycles[${ci}]`));
  });
  seed.projects.forEach((pr, i) => claim("projects", pr.id, () => `projects[${i}]`));
  seed.issues.forEach((it, i) => {
    const at = `issues[${i}]`;
    claim("issues", it.id, () => at);
    it.comments.forEach((c, ci) => {
      claim("comments", c.id, () => `${at}.comments[${ci}]`);
      c.children.forEach((r, ri) => claim("comments", r.id, () => `${at}.comments[${ci}].children[${ri}]`));
    });
    it.relations.forEach((r, ri) => claim("relations", r.id, () => `${at}.relations[${ri}]`));
    it.attachments.forEach((a, ai) => claim("attachments", a.id, () => `${at}.attachments[${ai}]`));
  });
  seed.webhooks.forEach((w, i) => claim("webhooks", w.id, () => `webhooks[${i}]`));
  seed.documents?.forEach((d, i) => claim("documents", d.id, () => `documents[${i}]`));
  seed.initiatives?.forEach((x, i) => claim("initiatives", x.id, () => `initiatives[${i}]`));
  seed.customViews?.forEach((x, i) => claim("customViews", x.id, () => `customViews[${i}]`));
  seed.templates?.forEach((x, i) => claim("templates", x.id, () => `templates[${i}]`));
  seed.notifications?.forEach((x, i) => claim("notifications", x.id, () => `notifications[${i}]`));
  seed.projects.forEach((pr, i) => {
    pr.milestones?.forEach((m, mi) => claim("milestones", m.id, () => `projects[${i}].milestones[${mi}]`));
    pr.updates?.forEach((u, ui) => claim("projectUpdates", u.id, () => `projects[${i}].updates[${ui}]`));
  });
}

export const parseLinearSeed = parseSeedWith(rawSeed, normalize);

function mustParse(raw: unknown): LinearSeed {
  const parsed = parseLinearSeed(raw);
  if (!parsed.ok) throw new Error(`invalid built-in Linear seed: ${JSON.stringify(parsed.issues)}`);
  return parsed.seed;
}

/** The world without a seed: Acme, one admin viewer, team ENG with the five default states, three labels, a few issues. */
export const defaultLinearSeed = (): LinearSeed =>
  mustParse({
    organization: { name: "Acme", urlKey: "acme" },
    users: [{ email: "agent@acme.test", name: "Pome Agent", displayName: "agent", admin: true }],
    teams: [
      {
        key: "ENG",
        name: "Engineering",
        labels: [
          { name: "Bug", color: "#eb5757" },
          { name: "Feature", color: "#bb87fc" },
          { name: "Improvement", color: "#4ea7fc" },
        ],
      },
    ],
    issues: [
      { identifier: "ENG-1", title: "Checkout fails with 500 on expired cards", state: "Todo", priority: 1, labels: ["Bug"] },
      { identifier: "ENG-2", title: "Add dark mode to settings", labels: ["Feature"] },
      { identifier: "ENG-3", title: "Speed up the search index rebuild", state: "In Progress", priority: 3, labels: ["Improvement"] },
    ],
  });

/** A valid world with `count` issues in one team, deterministic, for the contract and the bench. */
export function generateLinearSeed(count: number): unknown {
  return {
    users: [
      { email: "agent@acme.test", name: "Pome Agent", admin: true },
      { email: "bob@acme.test", name: "Bob Stone" },
    ],
    teams: [{ key: "ENG", name: "Engineering", labels: [{ name: "Bug" }, { name: "Feature" }] }],
    issues: Array.from({ length: count }, (_, i) => ({
      identifier: `ENG-${i + 1}`,
      title: `Issue ${i + 1}`,
      priority: i % 5,
      labels: i % 3 === 0 ? ["Bug"] : [],
      assignee: i % 2 === 0 ? "bob@acme.test" : null,
      createdAt: new Date(Date.parse(SEED_EPOCH) + i * 60_000).toISOString(),
    })),
  };
}
