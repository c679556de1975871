// Boot and export: the seed goes into the lin_ tables set-wise, and the tables come back out in the
// seed's own shape, so export(boot(seed)) equals the seed. Which column keeps which field is
// declared once, per table, in world-tables.ts; this file says which objects go into which table.
import type { Db } from "../types";
import { groupBy } from "../kit/sql";
import {
  type Placed,
  Refs,
  type StoredRow,
  insertLists,
  insertObjects,
  insertPlaced,
  objectOf,
  readLists,
  readRows,
} from "../kit/world-table";
import type { Clock } from "../types";
import { deriveNotifications, derivedNotifications } from "./notifications";
import {
  SEED_EPOCH,
  parseIdentifier,
  type LinearFavorite,
  type LinearIssue,
  type LinearReply,
  type LinearSeed,
  type LinearTeam,
} from "./seed";
import { uuidFor } from "./ids";
import * as T from "./world-tables";
import { type LinearRefs, inTeam, userIdOf } from "./world-tables";

const json = (v: unknown) => JSON.stringify(v);

/** Every seeded object a reference may name, by its natural key. */
function seedRefs(seed: LinearSeed): LinearRefs {
  const refs: LinearRefs = new Refs();
  for (const u of seed.users) refs.add("user", u.id, u.email, u.email.toLowerCase());
  for (const l of seed.labels) refs.add("label", l.id, l.name, inTeam("", l.name));
  for (const t of seed.teams) {
    refs.add("team", t.id, t.key);
    for (const s of t.states) refs.add("state", s.id, s.name, inTeam(t.key, s.name));
    for (const l of t.labels) refs.add("label", l.id, l.name, inTeam(t.key, l.name));
    for (const c of t.cycles) refs.add("cycle", c.id, c.number, inTeam(t.key, c.number));
  }
  for (const p of seed.projects) {
    refs.add("project", p.id, p.name);
    for (const m of p.milestones ?? []) refs.add("milestone", m.id, m.name, inTeam(p.name, m.name));
  }
  for (const it of seed.issues) refs.add("issue", it.id, it.identifier);
  return refs;
}

/** The next number of each team: past every identifier an issue has or had (never handed out again). */
function nextNumbers(issues: readonly LinearIssue[]): Map<string, number> {
  const highest = new Map<string, number>();
  for (const it of issues) {
    for (const ref of [it.identifier, ...(it.formerIdentifiers ?? [])]) {
      const ident = parseIdentifier(ref);
      if (ident) highest.set(ident.key, Math.max(highest.get(ident.key) ?? 0, ident.number));
    }
  }
  return highest;
}

function bootMeta(db: Db, seed: LinearSeed, refs: LinearRefs): void {
  const meta = (key: string, value: string) => db.run("INSERT OR REPLACE INTO lin_meta (key, value) VALUES (?, ?)", key, value);
  meta("organization", json(seed.organization));
  meta("last_sync_id", "1000");
  meta("next_id", "1");
  meta("faults", json(seed.faults));
  if (seed.rateLimits) meta("rate_limits", json(seed.rateLimits));
  meta("viewer_id", userIdOf(refs, seed.viewer) ?? "");
}

function bootTeams(db: Db, seed: LinearSeed, refs: LinearRefs): void {
  insertPlaced(
    db,
    T.labels,
    seed.labels.map((value) => ({ value, place: { teamId: null, createdAt: SEED_EPOCH } })),
    refs,
  );
  const highest = nextNumbers(seed.issues);
  insertPlaced(
    db,
    T.teams,
    seed.teams.map((value) => ({ value, place: { nextNumber: (highest.get(value.key) ?? 0) + 1 } })),
    refs,
  );
  insertLists(db, T.teamMembers, seed.teams, (t) => ({ id: t.id, items: t.members }), refs);
  const inTeamOf = <V>(rows: (t: LinearTeam) => readonly V[]) =>
    seed.teams.flatMap((t) => rows(t).map((value) => ({ value, place: { teamId: t.id, createdAt: t.createdAt } })));
  insertPlaced(
    db,
    T.states,
    inTeamOf((t) => t.states),
    refs,
  );
  insertPlaced(
    db,
    T.labels,
    inTeamOf((t) => t.labels),
    refs,
  );
  insertPlaced(
    db,
    T.cycles,
    inTeamOf((t) => t.cycles),
    refs,
  );
  insertObjects(db, T.projects, seed.projects, refs);
  insertLists(db, T.projectTeams, seed.projects, (p) => ({ id: p.id, items: p.teams }), refs);
  const onProject = <V>(rows: (p: LinearSeed["projects"][number]) => readonly V[] | undefined) =>
    seed.projects.flatMap((p) => (rows(p) ?? []).map((value) => ({ value, place: { projectId: p.id, createdAt: p.createdAt } })));
  insertPlaced(
    db,
    T.milestones,
    onProject((p) => p.milestones),
    refs,
  );
  insertPlaced(
    db,
    T.projectUpdates,
    onProject((p) => p.updates),
    refs,
  );
}

function bootIssues(db: Db, seed: LinearSeed, refs: LinearRefs): void {
  const placed = seed.issues.map((value, index) => {
    const ident = parseIdentifier(value.identifier);
    const teamKey = ident?.key ?? "";
    return { value, place: { teamKey, teamId: refs.id("team", teamKey) ?? "", number: ident?.number ?? 0, index } };
  });
  insertPlaced(db, T.issues, placed, refs);
  insertLists(db, T.issueLabels, placed, ({ value }) => ({ id: value.id, items: value.labels }), refs);
  insertLists(db, T.formerIdentifiers, seed.issues, (it) => ({ id: it.id, items: it.formerIdentifiers ?? [] }), refs);
  const onIssue = <V>(rows: (it: LinearIssue) => readonly V[]) =>
    seed.issues.flatMap((it) => rows(it).map((value) => ({ value, place: { issueId: it.id, createdAt: it.createdAt } })));
  insertPlaced(
    db,
    T.history,
    onIssue((it) => it.history ?? []),
    refs,
  );
  insertLists(db, T.subscribers, seed.issues, (it) => ({ id: it.id, items: it.subscribers }), refs);
  insertPlaced(
    db,
    T.relations,
    onIssue((it) => it.relations),
    refs,
  );
  insertPlaced(
    db,
    T.attachments,
    onIssue((it) => it.attachments),
    refs,
  );
  // Each comment, then its replies: the order export reads them back in.
  const comments: Placed<LinearReply, { issueId: string; parentId: string | null }>[] = [];
  for (const it of seed.issues) {
    for (const c of it.comments) {
      comments.push({ value: c, place: { issueId: it.id, parentId: null } });
      for (const r of c.children) comments.push({ value: r, place: { issueId: it.id, parentId: c.id } });
    }
  }
  insertPlaced(db, T.replies, comments, refs);
}

/** The column of lin_favorites that holds a favorite's target, by its type (resolvers/favorites.ts). */
const FAVORITE_COLUMNS: Record<Exclude<LinearFavorite["type"], "folder">, string> = {
  issue: "issue_id",
  project: "project_id",
  cycle: "cycle_id",
  label: "label_id",
  document: "document_id",
  customView: "custom_view_id",
  initiative: "initiative_id",
};

function bootFavorites(db: Db, favorites: readonly LinearFavorite[], refs: LinearRefs) {
  for (const f of favorites) {
    const column = f.type === "folder" ? null : FAVORITE_COLUMNS[f.type];
    db.run(
      `INSERT INTO lin_favorites (id, owner_id, type, ${column ?? "folder_name"}, parent_id, sort_order, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      f.id,
      userIdOf(refs, f.owner) ?? "",
      f.type,
      column ? f.target : f.folderName,
      f.parent,
      f.sortOrder,
      f.createdAt,
      f.createdAt,
    );
  }
}

function exportFavorites(db: Db, refs: LinearRefs): LinearFavorite[] {
  return readRows(db, "lin_favorites").map((r) => {
    const type = String(r.type) as LinearFavorite["type"];
    const target = type === "folder" ? null : r[FAVORITE_COLUMNS[type]];
    return {
      type,
      id: String(r.id),
      owner: refs.key("user", String(r.owner_id)) ?? "",
      target: typeof target === "string" ? target : null,
      folderName: typeof r.folder_name === "string" ? r.folder_name : null,
      parent: typeof r.parent_id === "string" ? r.parent_id : null,
      sortOrder: Number(r.sort_order),
      createdAt: String(r.created_at),
    };
  });
}

export function bootLinear(db: Db, seed: LinearSeed, _clock: Clock): void {
  const refs = seedRefs(seed);
  bootMeta(db, seed, refs);
  insertObjects(db, T.users, seed.users, refs);
  bootTeams(db, seed, refs);
  bootIssues(db, seed, refs);
  insertObjects(db, T.documents, seed.documents ?? [], refs);
  bootFavorites(db, seed.favorites ?? [], refs);
  insertObjects(db, T.webhooks, seed.webhooks, refs);
  deriveNotifications(db, userIdOf(refs, seed.viewer) ?? "");
  bootNotInInbox(db, seed.notificationsNotInInbox ?? [], refs);
  bootNotificationState(db, seed.notifications ?? [], refs);
  bootPlanning(db, seed, refs);
  insertObjects(db, T.oauthApplications, seed.oauthApplications, refs);
}

/** Initiatives with the projects in them, custom views and templates. */
function bootPlanning(db: Db, seed: LinearSeed, refs: LinearRefs) {
  const initiatives = seed.initiatives ?? [];
  insertObjects(db, T.initiatives, initiatives, refs);
  insertPlaced(
    db,
    T.initiativeProjects,
    initiatives.flatMap((it) =>
      it.projects.map((project, index) => ({
        value: { project, id: uuidFor("initiative-project", it.id, project) },
        place: { initiativeId: it.id, createdAt: it.createdAt, index },
      })),
    ),
    refs,
  );
  insertObjects(db, T.customViews, seed.customViews ?? [], refs);
  insertObjects(db, T.templates, seed.templates ?? [], refs);
}

/**
 * The world-implied notifications the seed says are not in the inbox, taken out of the derived
 * one. A derived notification's id is the kind and its source (the comment, else the issue), so
 * the seed's entry names the same row the derivation wrote.
 */
function bootNotInInbox(db: Db, absent: NonNullable<LinearSeed["notificationsNotInInbox"]>, refs: LinearRefs) {
  if (!absent.length) return;
  const ids = absent.map((x) => uuidFor("notification", x.type, x.comment ?? refs.id("issue", x.issue) ?? x.issue));
  db.run("DELETE FROM lin_notifications WHERE id IN (SELECT value FROM json_each(?))", json(ids));
}

/** What the world implies for the viewer's inbox but the inbox lacks: a boot of the export leaves them out again. */
function exportNotInInbox(db: Db, refs: LinearRefs): NonNullable<LinearSeed["notificationsNotInInbox"]> {
  const viewerId = db.one<{ value: string }>("SELECT value FROM lin_meta WHERE key = 'viewer_id'")?.value ?? "";
  const present = new Set(db.all<{ id: string }>("SELECT id FROM lin_notifications WHERE user_id = ?", viewerId).map((r) => r.id));
  return derivedNotifications(db, viewerId)
    .filter((n) => !present.has(n.id))
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id))
    .map((n) => ({
      type: n.type as NonNullable<LinearSeed["notificationsNotInInbox"]>[number]["type"],
      issue: refs.key("issue", n.issueId) ?? n.issueId,
      comment: n.commentId,
    }));
}

/** The seed's notifications, written over the derived inbox (the same id replaces a derived one). */
function bootNotificationState(db: Db, notifications: NonNullable<LinearSeed["notifications"]>, refs: LinearRefs) {
  if (!notifications.length) return;
  db.run("DELETE FROM lin_notifications WHERE id IN (SELECT value FROM json_each(?))", json(notifications.map((x) => x.id)));
  insertObjects(db, T.notifications, notifications, refs);
}

/** The inbox the world does not imply: notifications the derivation would not make, or that were read, snoozed or archived. */
function exportNotificationState(db: Db, refs: LinearRefs): NonNullable<LinearSeed["notifications"]> {
  const viewerId = db.one<{ value: string }>("SELECT value FROM lin_meta WHERE key = 'viewer_id'")?.value ?? "";
  const derived = new Set(derivedNotifications(db, viewerId).map((x) => x.id));
  return readRows(db, T.notifications.table, "ORDER BY created_at, rowid")
    .filter(
      (r) =>
        !derived.has(String(r.id)) ||
        r.read_at !== null ||
        r.snoozed_until_at !== null ||
        r.archived_at !== null ||
        r.updated_at !== r.created_at,
    )
    .map((r) => objectOf(T.notifications, r, refs));
}

function exportPlanning(db: Db, refs: LinearRefs): Pick<LinearSeed, "initiatives" | "customViews" | "templates"> {
  const links = byColumn(readRows(db, T.initiativeProjects.table, "ORDER BY sort_order, rowid"), "initiative_id");
  const initiatives = readRows(db, T.initiatives.table).map((r) =>
    objectOf(T.initiatives, r, refs, {
      projects: (links.get(String(r.id)) ?? []).map((l) => objectOf(T.initiativeProjects, l, refs).project),
    }),
  );
  const customViews = readRows(db, T.customViews.table).map((r) => objectOf(T.customViews, r, refs));
  const templates = readRows(db, T.templates.table).map((r) => objectOf(T.templates, r, refs));
  return {
    ...(initiatives.length ? { initiatives } : {}),
    ...(customViews.length ? { customViews } : {}),
    ...(templates.length ? { templates } : {}),
  };
}

/** The rows of the tables other objects name, and the references they resolve. */
interface Stored {
  refs: LinearRefs;
  users: StoredRow[];
  teams: StoredRow[];
  states: StoredRow[];
  labels: StoredRow[];
  cycles: StoredRow[];
  projects: StoredRow[];
  issues: StoredRow[];
}

function readStored(db: Db): Stored {
  const stored: Stored = {
    refs: new Refs(),
    users: readRows(db, T.users.table),
    teams: readRows(db, T.teams.table),
    states: readRows(db, T.states.table),
    labels: readRows(db, T.labels.table),
    cycles: readRows(db, T.cycles.table),
    projects: readRows(db, T.projects.table),
    issues: readRows(db, T.issues.table),
  };
  const { refs } = stored;
  const add = (kind: "user" | "team" | "state" | "label" | "project" | "issue", rows: StoredRow[], key: string) => {
    for (const row of rows) refs.add(kind, String(row.id), String(row[key]));
  };
  add("user", stored.users, "email");
  add("team", stored.teams, "key");
  add("state", stored.states, "name");
  add("label", stored.labels, "name");
  for (const row of stored.cycles) refs.add("cycle", String(row.id), Number(row.number));
  add("project", stored.projects, "name");
  for (const row of readRows(db, T.milestones.table)) refs.add("milestone", String(row.id), String(row.name));
  add("issue", stored.issues, "identifier");
  return stored;
}

const byColumn = (rows: readonly StoredRow[], column: string) => groupBy(rows, (r) => r[column]);

function exportTeams(db: Db, stored: Stored): LinearSeed["teams"] {
  const { refs } = stored;
  const members = readLists(db, T.teamMembers, refs);
  const states = byColumn(stored.states, "team_id");
  const labels = byColumn(stored.labels, "team_id");
  const cycles = byColumn(stored.cycles, "team_id");
  return stored.teams.map((t) => {
    const id = String(t.id);
    return objectOf(T.teams, t, refs, {
      members: members.get(id) ?? [],
      states: (states.get(id) ?? []).map((s) => objectOf(T.states, s, refs)),
      labels: (labels.get(id) ?? []).map((l) => objectOf(T.labels, l, refs)),
      cycles: (cycles.get(id) ?? []).map((c) => objectOf(T.cycles, c, refs)),
    });
  });
}

function exportIssues(db: Db, stored: Stored): LinearIssue[] {
  const { refs } = stored;
  const labels = readLists(db, T.issueLabels, refs);
  const subscribers = readLists(db, T.subscribers, refs);
  const former = readLists(db, T.formerIdentifiers, refs);
  const history = byColumn(readRows(db, T.history.table, "ORDER BY created_at, rowid"), "issue_id");
  const relations = byColumn(readRows(db, T.relations.table), "issue_id");
  const attachments = byColumn(readRows(db, T.attachments.table), "issue_id");
  const commentRows = readRows(db, T.replies.table);
  const replies = byColumn(
    commentRows.filter((c) => c.parent_id !== null),
    "parent_id",
  );
  const topComments = byColumn(
    commentRows.filter((c) => c.parent_id === null),
    "issue_id",
  );
  return stored.issues.map((row) => {
    const id = String(row.id);
    const historyRows = history.get(id);
    return objectOf(T.issues, row, refs, {
      labels: labels.get(id) ?? [],
      subscribers: subscribers.get(id) ?? [],
      relations: (relations.get(id) ?? []).map((r) => objectOf(T.relations, r, refs)),
      attachments: (attachments.get(id) ?? []).map((a) => objectOf(T.attachments, a, refs)),
      comments: (topComments.get(id) ?? []).map((c) =>
        objectOf(T.comments, c, refs, { children: (replies.get(c.id) ?? []).map((r) => objectOf(T.replies, r, refs)) }),
      ),
      formerIdentifiers: former.get(id),
      history: historyRows?.map((h) => objectOf(T.history, h, refs)),
    });
  });
}

export function exportLinear(db: Db): LinearSeed {
  const meta = (key: string) => db.one<{ value: string }>("SELECT value FROM lin_meta WHERE key = ?", key)?.value ?? "";
  const stored = readStored(db);
  const { refs } = stored;
  const projectTeams = readLists(db, T.projectTeams, refs);
  const milestones = byColumn(readRows(db, T.milestones.table, "ORDER BY sort_order, rowid"), "project_id");
  const updates = byColumn(readRows(db, T.projectUpdates.table, "ORDER BY created_at, rowid"), "project_id");
  const documents = readRows(db, T.documents.table).map((d) => objectOf(T.documents, d, refs));
  const favorites = exportFavorites(db, refs);
  const notifications = exportNotificationState(db, refs);
  const notificationsNotInInbox = exportNotInInbox(db, refs);
  const orgRaw = meta("organization");
  return {
    organization: orgRaw ? (JSON.parse(orgRaw) as LinearSeed["organization"]) : { name: "", urlKey: "", id: "" },
    viewer: refs.key("user", meta("viewer_id")) ?? "",
    users: stored.users.map((u) => objectOf(T.users, u, refs)),
    labels: stored.labels.filter((l) => l.team_id === null).map((l) => objectOf(T.labels, l, refs)),
    teams: exportTeams(db, stored),
    projects: stored.projects.map((p) => {
      const id = String(p.id);
      const ms = milestones.get(id)?.map((m) => objectOf(T.milestones, m, refs));
      const us = updates.get(id)?.map((u) => objectOf(T.projectUpdates, u, refs));
      return objectOf(T.projects, p, refs, {
        teams: projectTeams.get(id) ?? [],
        ...(ms ? { milestones: ms } : {}),
        ...(us ? { updates: us } : {}),
      });
    }),
    issues: exportIssues(db, stored),
    ...(documents.length ? { documents } : {}),
    ...(favorites.length ? { favorites } : {}),
    ...exportPlanning(db, refs),
    ...(notifications.length ? { notifications } : {}),
    ...(notificationsNotInInbox.length ? { notificationsNotInInbox } : {}),
    webhooks: readRows(db, T.webhooks.table).map((w) => objectOf(T.webhooks, w, refs)),
    faults: JSON.parse(meta("faults") || "[]") as LinearSeed["faults"],
    ...(meta("rate_limits") ? { rateLimits: JSON.parse(meta("rate_limits")) as NonNullable<LinearSeed["rateLimits"]> } : {}),
    oauthApplications: readRows(db, T.oauthApplications.table).map((a) => objectOf(T.oauthApplications, a, refs)),
  };
}
