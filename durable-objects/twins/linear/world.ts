// Boot and export: the seed goes into the lin_ tables (issues set-wise, for large worlds), and
// the tables come back out in the seed's own shape, so export(boot(seed)) equals the seed.
import type { Db } from "../../sql";
import { bool, bulkInsert, groupBy } from "../kit/sql";
import type { Clock } from "../types";
import { deriveNotifications } from "./notifications";
import { parseIdentifier, type LinearComment, type LinearIssue, type LinearSeed, type LinearTeam } from "./seed";

const json = (v: unknown) => JSON.stringify(v);

export function bootLinear(db: Db, seed: LinearSeed, _clock: Clock): void {
  const meta = (key: string, value: string) => db.run("INSERT OR REPLACE INTO lin_meta (key, value) VALUES (?, ?)", key, value);
  meta("organization", json(seed.organization));
  meta("last_sync_id", "1000");
  meta("next_id", "1");
  meta("faults", json(seed.faults));
  if (seed.rateLimits) meta("rate_limits", json(seed.rateLimits));
  const userId = new Map(seed.users.map((u) => [u.email.toLowerCase(), u.id]));
  const uid = (email: string | null) => (email === null ? null : (userId.get(email.toLowerCase()) ?? null));
  meta("viewer_id", uid(seed.viewer) ?? "");
  for (const u of seed.users) {
    db.run(
      "INSERT INTO lin_users (id, email, name, display_name, admin, active, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
      u.id,
      u.email,
      u.name,
      u.displayName,
      bool(u.admin),
      bool(u.active),
      u.createdAt,
    );
  }
  const labelIds = new Map<string, string>();
  for (const l of seed.labels) {
    labelIds.set(`|${l.name}`, l.id);
    db.run(
      "INSERT INTO lin_labels (id, team_id, name, color, description, created_at, updated_at) VALUES (?, NULL, ?, ?, ?, ?, ?)",
      l.id,
      l.name,
      l.color,
      l.description,
      "2026-01-01T00:00:00.000Z",
      "2026-01-01T00:00:00.000Z",
    );
  }
  const teams = new Map<string, LinearTeam>();
  const stateIds = new Map<string, string>();
  const cycleIds = new Map<string, string>();
  const maxNumber = new Map<string, number>();
  // Identifiers an issue left behind when it moved team are never handed out again.
  for (const it of seed.issues) {
    for (const ref of [it.identifier, ...(it.formerIdentifiers ?? [])]) {
      const ident = parseIdentifier(ref);
      if (ident) maxNumber.set(ident.key, Math.max(maxNumber.get(ident.key) ?? 0, ident.number));
    }
  }
  for (const t of seed.teams) {
    teams.set(t.key, t);
    const defaultState = t.states.find((s) => s.name === t.defaultIssueState);
    db.run(
      "INSERT INTO lin_teams (id, key, name, description, estimation_type, default_state_id, next_number, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
      t.id,
      t.key,
      t.name,
      t.description,
      t.issueEstimationType,
      defaultState?.id ?? null,
      (maxNumber.get(t.key) ?? 0) + 1,
      t.createdAt,
    );
    t.members.forEach((m, i) =>
      db.run("INSERT OR IGNORE INTO lin_team_members (team_id, user_id, position) VALUES (?, ?, ?)", t.id, uid(m), i),
    );
    for (const s of t.states) {
      stateIds.set(`${t.key}|${s.name}`, s.id);
      db.run(
        "INSERT INTO lin_states (id, team_id, name, type, color, position, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
        s.id,
        t.id,
        s.name,
        s.type,
        s.color,
        s.position,
        t.createdAt,
      );
    }
    for (const l of t.labels) {
      labelIds.set(`${t.key}|${l.name}`, l.id);
      db.run(
        "INSERT INTO lin_labels (id, team_id, name, color, description, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
        l.id,
        t.id,
        l.name,
        l.color,
        l.description,
        t.createdAt,
        t.createdAt,
      );
    }
    for (const c of t.cycles) {
      cycleIds.set(`${t.key}|${c.number}`, c.id);
      db.run(
        `INSERT INTO lin_cycles (id, team_id, number, name, starts_at, ends_at, created_at, description, completed_at, archived_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        c.id,
        t.id,
        c.number,
        c.name,
        c.startsAt,
        c.endsAt,
        t.createdAt,
        c.description ?? null,
        c.completedAt ?? null,
        c.archivedAt ?? null,
      );
    }
  }
  const projectIds = new Map<string, string>();
  for (const p of seed.projects) {
    projectIds.set(p.name, p.id);
    db.run(
      "INSERT INTO lin_projects (id, name, description, state, lead_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
      p.id,
      p.name,
      p.description,
      p.state,
      uid(p.lead),
      p.createdAt,
      p.createdAt,
    );
    p.teams.forEach((k, i) =>
      db.run("INSERT INTO lin_project_teams (project_id, team_id, position) VALUES (?, ?, ?)", p.id, teams.get(k)?.id ?? k, i),
    );
  }
  const issueIds = new Map(seed.issues.map((it) => [it.identifier, it.id]));
  const keyOf = (it: LinearIssue) => parseIdentifier(it.identifier)?.key ?? "";
  bulkInsert(
    db,
    `INSERT INTO lin_issues (id, team_id, number, identifier, title, description, state_id, priority, estimate, assignee_id, creator_id,
       project_id, cycle_id, parent_id, due_date, created_at, updated_at, started_at, completed_at, canceled_at, archived_at, trashed, sort_order)
     SELECT value->>0, value->>1, value->>2, value->>3, value->>4, value->>5, value->>6, value->>7, value->>8, value->>9, value->>10,
       value->>11, value->>12, value->>13, value->>14, value->>15, value->>16, value->>17, value->>18, value->>19, value->>20, value->>21, value->>22
     FROM json_each(?)`,
    seed.issues.map((it, i) => {
      const key = keyOf(it);
      return [
        it.id,
        teams.get(key)?.id ?? "",
        parseIdentifier(it.identifier)?.number ?? 0,
        it.identifier,
        it.title,
        it.description,
        stateIds.get(`${key}|${it.state}`) ?? "",
        it.priority,
        it.estimate,
        uid(it.assignee),
        uid(it.creator),
        it.project === null ? null : (projectIds.get(it.project) ?? null),
        it.cycle === null ? null : (cycleIds.get(`${key}|${it.cycle}`) ?? null),
        it.parent === null ? null : (issueIds.get(it.parent) ?? null),
        it.dueDate,
        it.createdAt,
        it.updatedAt,
        it.startedAt,
        it.completedAt,
        it.canceledAt,
        it.archivedAt,
        bool(it.trashed),
        i,
      ];
    }),
  );
  bulkInsert(
    db,
    "INSERT OR IGNORE INTO lin_issue_labels (issue_id, label_id, position) SELECT value->>0, value->>1, value->>2 FROM json_each(?)",
    seed.issues.flatMap((it) =>
      it.labels.map((name, i) => [it.id, labelIds.get(`${keyOf(it)}|${name}`) ?? labelIds.get(`|${name}`) ?? "", i]),
    ),
  );
  for (const it of seed.issues) {
    if (it.snoozedUntilAt !== undefined || it.snoozedBy !== undefined || it.delegate !== undefined)
      db.run(
        "UPDATE lin_issues SET snoozed_until_at = ?, snoozed_by_id = ?, delegate_id = ? WHERE id = ?",
        it.snoozedUntilAt ?? null,
        uid(it.snoozedBy ?? null),
        uid(it.delegate ?? null),
        it.id,
      );
    for (const f of it.formerIdentifiers ?? []) db.run("INSERT INTO lin_former_identifiers (identifier, issue_id) VALUES (?, ?)", f, it.id);
    for (const h of it.history ?? [])
      db.run(
        "INSERT INTO lin_issue_history (id, issue_id, actor_id, created_at, changes) VALUES (?, ?, ?, ?, ?)",
        h.id,
        it.id,
        uid(h.actor),
        h.createdAt,
        json(h.changes),
      );
    it.subscribers.forEach((s, i) =>
      db.run("INSERT OR IGNORE INTO lin_subscribers (issue_id, user_id, position) VALUES (?, ?, ?)", it.id, uid(s), i),
    );
    for (const r of it.relations) {
      db.run(
        "INSERT INTO lin_relations (id, issue_id, related_issue_id, type, created_at) VALUES (?, ?, ?, ?, ?)",
        r.id,
        it.id,
        issueIds.get(r.relatedIssue) ?? "",
        r.type,
        it.createdAt,
      );
    }
    for (const a of it.attachments) {
      db.run(
        "INSERT INTO lin_attachments (id, issue_id, title, subtitle, url, creator_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        a.id,
        it.id,
        a.title,
        a.subtitle,
        a.url,
        uid(a.creator),
        it.createdAt,
        it.createdAt,
      );
    }
    for (const c of it.comments) {
      const insert = (x: { id: string; body: string; user: string; createdAt: string }, parent: string | null) =>
        db.run(
          "INSERT INTO lin_comments (id, issue_id, parent_id, user_id, body, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
          x.id,
          it.id,
          parent,
          uid(x.user),
          x.body,
          x.createdAt,
          x.createdAt,
        );
      insert(c, null);
      for (const r of c.children) insert(r, c.id);
    }
  }
  for (const w of seed.webhooks) {
    db.run(
      "INSERT INTO lin_webhooks (id, url, resource_types, team_id, secret, enabled, label) VALUES (?, ?, ?, ?, ?, ?, ?)",
      w.id,
      w.url,
      json(w.resourceTypes),
      w.team === null ? null : (teams.get(w.team)?.id ?? null),
      w.secret,
      bool(w.enabled),
      w.label,
    );
  }
  deriveNotifications(db, uid(seed.viewer) ?? "");
  for (const a of seed.oauthApplications) {
    db.run(
      "INSERT INTO lin_oauth_apps (client_id, client_secret, name, redirect_uris) VALUES (?, ?, ?, ?)",
      a.clientId,
      a.clientSecret,
      a.name,
      json(a.redirectUris),
    );
  }
}

interface IssueRow {
  id: string;
  team_id: string;
  identifier: string;
  title: string;
  description: string | null;
  state_id: string;
  priority: number;
  estimate: number | null;
  assignee_id: string | null;
  creator_id: string | null;
  project_id: string | null;
  cycle_id: string | null;
  parent_id: string | null;
  due_date: string | null;
  created_at: string;
  updated_at: string;
  started_at: string | null;
  completed_at: string | null;
  canceled_at: string | null;
  archived_at: string | null;
  trashed: number;
  snoozed_until_at: string | null;
  snoozed_by_id: string | null;
  delegate_id: string | null;
}

export function exportLinear(db: Db): LinearSeed {
  const meta = (key: string) => db.one<{ value: string }>("SELECT value FROM lin_meta WHERE key = ?", key)?.value ?? "";
  const users = db.all<{
    id: string;
    email: string;
    name: string;
    display_name: string;
    admin: number;
    active: number;
    created_at: string;
  }>("SELECT * FROM lin_users ORDER BY rowid");
  const email = new Map(users.map((u) => [u.id, u.email]));
  const em = (id: string | null) => (id === null ? null : (email.get(id) ?? null));
  const teamRows = db.all<{
    id: string;
    key: string;
    name: string;
    description: string | null;
    estimation_type: LinearTeam["issueEstimationType"];
    default_state_id: string | null;
    created_at: string;
  }>("SELECT * FROM lin_teams ORDER BY rowid");
  const teamKey = new Map(teamRows.map((t) => [t.id, t.key]));
  const states = db.all<{
    id: string;
    team_id: string;
    name: string;
    type: LinearTeam["states"][number]["type"];
    color: string;
    position: number;
  }>("SELECT * FROM lin_states ORDER BY rowid");
  const stateName = new Map(states.map((s) => [s.id, s.name]));
  const labels = db.all<{ id: string; team_id: string | null; name: string; color: string; description: string | null }>(
    "SELECT * FROM lin_labels ORDER BY rowid",
  );
  const labelName = new Map(labels.map((l) => [l.id, l.name]));
  const cycles = db.all<{
    id: string;
    team_id: string;
    number: number;
    name: string | null;
    starts_at: string;
    ends_at: string;
    description: string | null;
    completed_at: string | null;
    archived_at: string | null;
  }>("SELECT * FROM lin_cycles ORDER BY rowid");
  const cycleNumber = new Map(cycles.map((c) => [c.id, c.number]));
  const members = groupBy(
    db.all<{ team_id: string; user_id: string }>("SELECT team_id, user_id FROM lin_team_members ORDER BY team_id, position"),
    (r) => r.team_id,
  );
  const byTeam = <T extends { team_id: string | null }>(rows: T[]) => groupBy(rows, (r) => r.team_id);
  const statesBy = byTeam(states);
  const labelsBy = byTeam(labels);
  const cyclesBy = byTeam(cycles);
  const teams: LinearTeam[] = teamRows.map((t) => ({
    key: t.key,
    name: t.name,
    id: t.id,
    description: t.description,
    members: (members.get(t.id) ?? []).map((m) => em(m.user_id) ?? m.user_id),
    issueEstimationType: t.estimation_type,
    defaultIssueState: (t.default_state_id && stateName.get(t.default_state_id)) || "",
    states: (statesBy.get(t.id) ?? []).map((s) => ({ name: s.name, type: s.type, id: s.id, color: s.color, position: s.position })),
    labels: (labelsBy.get(t.id) ?? []).map((l) => ({ name: l.name, id: l.id, color: l.color, description: l.description })),
    cycles: (cyclesBy.get(t.id) ?? []).map((c) => ({
      number: c.number,
      id: c.id,
      name: c.name,
      startsAt: c.starts_at,
      endsAt: c.ends_at,
      ...(c.description !== null ? { description: c.description } : {}),
      ...(c.completed_at !== null ? { completedAt: c.completed_at } : {}),
      ...(c.archived_at !== null ? { archivedAt: c.archived_at } : {}),
    })),
    createdAt: t.created_at,
  }));
  const projectTeams = groupBy(
    db.all<{ project_id: string; team_id: string }>("SELECT project_id, team_id FROM lin_project_teams ORDER BY project_id, position"),
    (r) => r.project_id,
  );
  const projectRows = db.all<{
    id: string;
    name: string;
    description: string;
    state: LinearSeed["projects"][number]["state"];
    lead_id: string | null;
    created_at: string;
  }>("SELECT * FROM lin_projects ORDER BY rowid");
  const projectName = new Map(projectRows.map((p) => [p.id, p.name]));
  const issueRows = db.all<IssueRow>("SELECT * FROM lin_issues ORDER BY rowid");
  const identifier = new Map(issueRows.map((i) => [i.id, i.identifier]));
  const formerIdentifiers = groupBy(
    db.all<{ identifier: string; issue_id: string }>("SELECT identifier, issue_id FROM lin_former_identifiers ORDER BY rowid"),
    (r) => r.issue_id,
  );
  const history = groupBy(
    db.all<{ id: string; issue_id: string; actor_id: string | null; created_at: string; changes: string }>(
      "SELECT * FROM lin_issue_history ORDER BY created_at, rowid",
    ),
    (r) => r.issue_id,
  );
  const issueLabels = groupBy(
    db.all<{ issue_id: string; label_id: string }>("SELECT issue_id, label_id FROM lin_issue_labels ORDER BY issue_id, position"),
    (r) => r.issue_id,
  );
  const subscribers = groupBy(
    db.all<{ issue_id: string; user_id: string }>("SELECT issue_id, user_id FROM lin_subscribers ORDER BY issue_id, position"),
    (r) => r.issue_id,
  );
  const relations = groupBy(
    db.all<{ id: string; issue_id: string; related_issue_id: string; type: LinearIssue["relations"][number]["type"] }>(
      "SELECT * FROM lin_relations ORDER BY rowid",
    ),
    (r) => r.issue_id,
  );
  const attachments = groupBy(
    db.all<{ id: string; issue_id: string; title: string; subtitle: string | null; url: string; creator_id: string | null }>(
      "SELECT * FROM lin_attachments ORDER BY rowid",
    ),
    (r) => r.issue_id,
  );
  const commentRows = db.all<{
    id: string;
    issue_id: string;
    parent_id: string | null;
    user_id: string | null;
    body: string;
    created_at: string;
  }>("SELECT * FROM lin_comments ORDER BY rowid");
  const replies = groupBy(
    commentRows.filter((c) => c.parent_id !== null),
    (c) => c.parent_id,
  );
  const topComments = groupBy(
    commentRows.filter((c) => c.parent_id === null),
    (c) => c.issue_id,
  );
  const commentOf = (c: (typeof commentRows)[number]) => ({ body: c.body, id: c.id, user: em(c.user_id) ?? "", createdAt: c.created_at });
  const issues: LinearIssue[] = issueRows.map((i) => {
    const comments: LinearComment[] = (topComments.get(i.id) ?? []).map((c) => ({
      ...commentOf(c),
      children: (replies.get(c.id) ?? []).map(commentOf),
    }));
    return {
      identifier: i.identifier,
      title: i.title,
      id: i.id,
      description: i.description,
      state: stateName.get(i.state_id) ?? "",
      priority: i.priority,
      estimate: i.estimate,
      assignee: em(i.assignee_id),
      creator: em(i.creator_id) ?? "",
      labels: (issueLabels.get(i.id) ?? []).map((l) => labelName.get(l.label_id) ?? l.label_id),
      project: i.project_id === null ? null : (projectName.get(i.project_id) ?? null),
      cycle: i.cycle_id === null ? null : (cycleNumber.get(i.cycle_id) ?? null),
      parent: i.parent_id === null ? null : (identifier.get(i.parent_id) ?? null),
      dueDate: i.due_date,
      subscribers: (subscribers.get(i.id) ?? []).map((s) => em(s.user_id) ?? s.user_id),
      relations: (relations.get(i.id) ?? []).map((r) => ({
        type: r.type,
        relatedIssue: identifier.get(r.related_issue_id) ?? r.related_issue_id,
        id: r.id,
      })),
      attachments: (attachments.get(i.id) ?? []).map((a) => ({
        title: a.title,
        url: a.url,
        id: a.id,
        subtitle: a.subtitle,
        creator: em(a.creator_id) ?? "",
      })),
      comments,
      createdAt: i.created_at,
      updatedAt: i.updated_at,
      startedAt: i.started_at,
      completedAt: i.completed_at,
      canceledAt: i.canceled_at,
      archivedAt: i.archived_at,
      trashed: i.trashed === 1,
      ...(i.snoozed_until_at !== null ? { snoozedUntilAt: i.snoozed_until_at } : {}),
      ...(i.snoozed_by_id !== null ? { snoozedBy: em(i.snoozed_by_id) ?? i.snoozed_by_id } : {}),
      ...(i.delegate_id !== null ? { delegate: em(i.delegate_id) ?? i.delegate_id } : {}),
      ...(formerIdentifiers.has(i.id) ? { formerIdentifiers: (formerIdentifiers.get(i.id) ?? []).map((f) => f.identifier) } : {}),
      ...(history.has(i.id)
        ? {
            history: (history.get(i.id) ?? []).map((h) => ({
              id: h.id,
              createdAt: h.created_at,
              actor: em(h.actor_id),
              changes: JSON.parse(h.changes) as Record<string, string | number | boolean | null | string[]>,
            })),
          }
        : {}),
    };
  });
  const orgRaw = meta("organization");
  return {
    organization: orgRaw ? (JSON.parse(orgRaw) as LinearSeed["organization"]) : { name: "", urlKey: "", id: "" },
    viewer: email.get(meta("viewer_id")) ?? "",
    users: users.map((u) => ({
      email: u.email,
      id: u.id,
      name: u.name,
      displayName: u.display_name,
      admin: u.admin === 1,
      active: u.active === 1,
      createdAt: u.created_at,
    })),
    labels: labels.filter((l) => l.team_id === null).map((l) => ({ name: l.name, id: l.id, color: l.color, description: l.description })),
    teams,
    projects: projectRows.map((p) => ({
      name: p.name,
      id: p.id,
      description: p.description,
      teams: (projectTeams.get(p.id) ?? []).map((r) => teamKey.get(r.team_id) ?? r.team_id),
      state: p.state,
      lead: em(p.lead_id),
      createdAt: p.created_at,
    })),
    issues,
    webhooks: db
      .all<{
        id: string;
        url: string;
        resource_types: string;
        team_id: string | null;
        secret: string;
        enabled: number;
        label: string | null;
      }>("SELECT * FROM lin_webhooks ORDER BY rowid")
      .map((w) => ({
        url: w.url,
        resourceTypes: JSON.parse(w.resource_types) as LinearSeed["webhooks"][number]["resourceTypes"],
        id: w.id,
        team: w.team_id === null ? null : (teamKey.get(w.team_id) ?? null),
        secret: w.secret,
        enabled: w.enabled === 1,
        label: w.label,
      })),
    faults: JSON.parse(meta("faults") || "[]") as LinearSeed["faults"],
    ...(meta("rate_limits") ? { rateLimits: JSON.parse(meta("rate_limits")) as NonNullable<LinearSeed["rateLimits"]> } : {}),
    oauthApplications: db
      .all<{ client_id: string; client_secret: string; name: string; redirect_uris: string }>("SELECT * FROM lin_oauth_apps ORDER BY rowid")
      .map((a) => ({
        clientId: a.client_id,
        clientSecret: a.client_secret,
        name: a.name,
        redirectUris: JSON.parse(a.redirect_uris) as string[],
      })),
  };
}
