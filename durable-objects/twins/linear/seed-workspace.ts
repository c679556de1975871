// Seed keys for the rest of the workspace: initiatives (with the projects in them), custom views
// (a saved IssueFilter), templates, and inbox state (notifications read, snoozed, archived, or
// made by calls). Each is optional and left out of the export when empty, so older seeds export
// unchanged. seed.ts composes these into the seed; references resolve through the callbacks it
// passes, so this file does not import it.
import { z } from "zod";
import type { SeedProblems } from "../kit/seed";
import { compileFilter } from "./filters";
import { uuidFor } from "./ids";
import { NOTIFICATION_KINDS, type NotificationKind } from "./notification-kinds";

const uuid = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/, "Invalid id: a UUID v4");
const time = z.iso.datetime({ offset: true });

/** The IssueCreateInput fields an issue template may pre-fill (resolvers/templates.ts applies them). */
export const ISSUE_TEMPLATE_KEYS = [
  "title",
  "description",
  "priority",
  "estimate",
  "labelIds",
  "stateId",
  "assigneeId",
  "projectId",
  "projectMilestoneId",
  "cycleId",
  "parentId",
  "dueDate",
  "subscriberIds",
  "teamId",
] as const;

export const INITIATIVE_STATUSES = ["Planned", "Active", "Completed", "Proposed", "Canceled"] as const;

export const initiativeSchema = z.strictObject({
  name: z.string().min(1),
  id: uuid.optional(),
  description: z.string().nullable().default(null),
  content: z.string().nullable().default(null),
  icon: z.string().nullable().default(null),
  color: z.string().nullable().default(null),
  status: z.enum(INITIATIVE_STATUSES).default("Planned"),
  owner: z.string().nullable().optional(),
  creator: z.string().optional(),
  targetDate: z.iso.date().nullable().default(null),
  sortOrder: z.number().default(0),
  /** The projects in the initiative, by name. */
  projects: z.array(z.string()).default([]),
  createdAt: time.optional(),
  updatedAt: time.optional(),
  startedAt: time.nullable().default(null),
  completedAt: time.nullable().default(null),
  archivedAt: time.nullable().default(null),
  trashed: z.boolean().default(false),
});

export const customViewSchema = z.strictObject({
  name: z.string().min(1),
  id: uuid.optional(),
  description: z.string().nullable().default(null),
  icon: z.string().nullable().default(null),
  color: z.string().nullable().default(null),
  /** An IssueFilter, as `issues(filter:)` takes it. */
  filterData: z.record(z.string(), z.unknown()).default({}),
  shared: z.boolean().default(false),
  owner: z.string().optional(),
  creator: z.string().optional(),
  team: z.string().nullable().default(null),
  createdAt: time.optional(),
  updatedAt: time.optional(),
});

export const templateSchema = z.strictObject({
  name: z.string().min(1),
  id: uuid.optional(),
  type: z.string().min(1).default("issue"),
  /** An issue template's IssueCreateInput fields (ids, as the API takes them). */
  templateData: z.record(z.string(), z.unknown()).default({}),
  description: z.string().nullable().default(null),
  icon: z.string().nullable().default(null),
  color: z.string().nullable().default(null),
  team: z.string().nullable().default(null),
  sortOrder: z.number().default(0),
  creator: z.string().optional(),
  createdAt: time.optional(),
  updatedAt: time.optional(),
  lastAppliedAt: time.nullable().default(null),
});

const NOTIFICATION_TYPES = Object.keys(NOTIFICATION_KINDS) as [keyof typeof NOTIFICATION_KINDS, ...(keyof typeof NOTIFICATION_KINDS)[]];

/**
 * A notification the seed states outright: one a call made (another user notified, a reminder),
 * or a derived one (same id) with its read, snooze or archive state. Boot derives the inbox and
 * then writes these over it.
 */
export const notificationSchema = z.strictObject({
  id: uuid,
  type: z.enum(NOTIFICATION_TYPES),
  user: z.string(),
  actor: z.string().nullable().default(null),
  issue: z.string(),
  comment: uuid.nullable().default(null),
  createdAt: time,
  updatedAt: time.optional(),
  readAt: time.nullable().default(null),
  snoozedUntilAt: time.nullable().default(null),
  archivedAt: time.nullable().default(null),
});

/** The kinds boot derives from the world (a reminder is only ever stated, never derived). */
const DERIVED_TYPES = NOTIFICATION_TYPES.filter((t) => t !== "issueReminder") as [NotificationKind, ...NotificationKind[]];

/**
 * A notification the world implies that is not in the viewer's inbox: boot derives the inbox from
 * the world, then leaves this one out. An export names each one the derivation would make but the
 * inbox lacks (the viewer assigned themself an issue someone else created: Linear does not notify
 * you of your own action, yet the world now implies the assignment notification), so booting the
 * export gives the same inbox. `comment` is the comment a comment notification is about.
 */
export const notInInboxSchema = z.strictObject({
  type: z.enum(DERIVED_TYPES),
  issue: z.string(),
  comment: uuid.nullable().default(null),
});

type Req<T, K extends keyof T> = Omit<T, K> & { [P in K]-?: Exclude<T[P], undefined> };
export type LinearNotInInbox = z.infer<typeof notInInboxSchema>;
export type LinearInitiative = Req<z.infer<typeof initiativeSchema>, "id" | "owner" | "creator" | "createdAt" | "updatedAt">;
export type LinearCustomView = Req<z.infer<typeof customViewSchema>, "id" | "owner" | "creator" | "createdAt" | "updatedAt">;
export type LinearTemplate = Req<z.infer<typeof templateSchema>, "id" | "creator" | "createdAt" | "updatedAt">;
export type LinearNotificationState = Req<z.infer<typeof notificationSchema>, "updatedAt">;

/** What the workspace keys need from the rest of the seed. */
export interface WorkspaceRefs {
  p: SeedProblems;
  viewer: string;
  /** A user's email as the seed spells it, or a problem at `path`. */
  user(value: string, path: string): string;
  teamKeys: ReadonlySet<string>;
  projectNames: ReadonlySet<string>;
  identifiers: ReadonlySet<string>;
}

const EPOCH = "2026-01-01T00:00:00.000Z";

export function normalizeInitiatives(r: WorkspaceRefs, raw: z.infer<typeof initiativeSchema>[] | undefined): LinearInitiative[] {
  return (raw ?? []).map((it, i) => {
    const at = `initiatives[${i}]`;
    it.projects.forEach((name, pi) => {
      if (!r.projectNames.has(name)) r.p.add(`${at}.projects[${pi}]`, `Unknown project "${name}"`);
    });
    if (new Set(it.projects).size !== it.projects.length) r.p.add(`${at}.projects`, "A project is in an initiative once", "duplicate");
    const createdAt = it.createdAt ?? EPOCH;
    return {
      ...it,
      id: it.id ?? uuidFor("initiative", String(i), it.name),
      owner: it.owner === null ? null : r.user(it.owner ?? r.viewer, `${at}.owner`),
      creator: r.user(it.creator ?? r.viewer, `${at}.creator`),
      createdAt,
      updatedAt: it.updatedAt ?? createdAt,
    };
  });
}

/** A filter problem as the seed reports it: the compiler's own message. */
function filterProblem(filter: Record<string, unknown>): string | null {
  try {
    compileFilter("issue", filter, "x", "", Date.parse(EPOCH));
    return null;
  } catch (e) {
    return e instanceof Error ? e.message : "Invalid filter";
  }
}

export function normalizeCustomViews(r: WorkspaceRefs, raw: z.infer<typeof customViewSchema>[] | undefined): LinearCustomView[] {
  return (raw ?? []).map((v, i) => {
    const at = `customViews[${i}]`;
    const problem = filterProblem(v.filterData);
    if (problem) r.p.add(`${at}.filterData`, problem);
    if (v.team !== null && !r.teamKeys.has(v.team)) r.p.add(`${at}.team`, `Unknown team "${v.team}"`);
    const createdAt = v.createdAt ?? EPOCH;
    return {
      ...v,
      id: v.id ?? uuidFor("custom-view", String(i), v.name),
      owner: r.user(v.owner ?? r.viewer, `${at}.owner`),
      creator: r.user(v.creator ?? r.viewer, `${at}.creator`),
      createdAt,
      updatedAt: v.updatedAt ?? createdAt,
    };
  });
}

export function normalizeTemplates(r: WorkspaceRefs, raw: z.infer<typeof templateSchema>[] | undefined): LinearTemplate[] {
  return (raw ?? []).map((t, i) => {
    const at = `templates[${i}]`;
    if (t.team !== null && !r.teamKeys.has(t.team)) r.p.add(`${at}.team`, `Unknown team "${t.team}"`);
    if (t.type === "issue")
      for (const key of Object.keys(t.templateData))
        if (!(ISSUE_TEMPLATE_KEYS as readonly string[]).includes(key))
          r.p.add(`${at}.templateData.${key}`, `An issue template takes IssueCreateInput fields: ${ISSUE_TEMPLATE_KEYS.join(", ")}`);
    const createdAt = t.createdAt ?? EPOCH;
    return {
      ...t,
      id: t.id ?? uuidFor("template", String(i), t.name),
      creator: r.user(t.creator ?? r.viewer, `${at}.creator`),
      createdAt,
      updatedAt: t.updatedAt ?? createdAt,
    };
  });
}

export function normalizeNotifications(r: WorkspaceRefs, raw: z.infer<typeof notificationSchema>[] | undefined): LinearNotificationState[] {
  return (raw ?? []).map((x, i) => {
    const at = `notifications[${i}]`;
    if (!r.identifiers.has(x.issue)) r.p.add(`${at}.issue`, `Unknown issue "${x.issue}"`);
    return {
      ...x,
      user: r.user(x.user, `${at}.user`),
      actor: x.actor === null ? null : r.user(x.actor, `${at}.actor`),
      updatedAt: x.updatedAt ?? x.createdAt,
    };
  });
}

export function normalizeNotInInbox(r: WorkspaceRefs, raw: z.infer<typeof notInInboxSchema>[] | undefined): LinearNotInInbox[] {
  return (raw ?? []).map((x, i) => {
    if (!r.identifiers.has(x.issue)) r.p.add(`notificationsNotInInbox[${i}].issue`, `Unknown issue "${x.issue}"`);
    const comment = x.type === "issueCommentMention" || x.type === "issueNewComment";
    if (comment !== (x.comment !== null))
      r.p.add(
        `notificationsNotInInbox[${i}].comment`,
        comment ? `A ${x.type} notification names its comment` : `A ${x.type} notification names no comment`,
      );
    return x;
  });
}
