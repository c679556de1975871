// What every resolver of one GraphQL call shares: the world, the clock, the viewer, and a cache
// of rows read in this call. Lists load the rows their nodes point at in one query per table
// (`preload`), so a page of issues with their states, teams and people is a few reads, not N+1.
import type { EgressVerdict } from "../types";
import type { Db, SqlValue } from "../types";
import type { Clock, TwinContext, WebhookDelivery } from "../types";
import type { RateLimitStatus } from "./ratemeter";

export type Row = Record<string, SqlValue> & { id: string };

export const TABLES = {
  User: "lin_users",
  Team: "lin_teams",
  WorkflowState: "lin_states",
  IssueLabel: "lin_labels",
  Project: "lin_projects",
  Cycle: "lin_cycles",
  Issue: "lin_issues",
  Comment: "lin_comments",
  IssueRelation: "lin_relations",
  Attachment: "lin_attachments",
  Reaction: "lin_reactions",
  Webhook: "lin_webhooks",
  Notification: "lin_notifications",
  Document: "lin_documents",
  ProjectMilestone: "lin_project_milestones",
  ProjectUpdate: "lin_project_updates",
  Favorite: "lin_favorites",
  Initiative: "lin_initiatives",
  InitiativeToProject: "lin_initiative_projects",
  CustomView: "lin_custom_views",
  Template: "lin_templates",
} as const;
export type Entity = keyof typeof TABLES;

export interface Gql {
  db: Db;
  clock: Clock;
  viewerId: string;
  /** Rows written before this call began: a mutation that wrote nothing changed nothing. */
  writesAtStart: number;
  sessionId: string;
  /** The caller's rate-limit buckets after this call (rateLimitStatus). */
  rateLimitStatus(): RateLimitStatus;
  /** Where this sandbox's twin paths hang (for url fields that point back at the twin). */
  baseUrl: string;
  webhook(delivery: WebhookDelivery): void;
  /** The platform's egress policy for a webhook URL (TwinContext.egress). */
  egress(url: string): EgressVerdict;
  /** A row by id, from this call's cache or one indexed read. */
  byId(entity: Entity, id: string | null | undefined): Row | undefined;
  /** What this call's cache holds for an id: a row, null (known absent), or undefined (never read). */
  cached(entity: Entity, id: string): Row | null | undefined;
  /** Reads the rows for many ids in one query and caches them. */
  preload(entity: Entity, ids: readonly (string | null | undefined)[]): void;
  /** Rows grouped by one column, loaded for many keys at once and cached per key. */
  grouped(name: string, sql: string, keys: readonly string[], key: string): (k: string) => Row[];
  prime(entity: Entity, rows: readonly Row[]): void;
  forget(entity: Entity, id: string): void;
}

/** A statement text per entity, written once: a text built for every read costs a copy each time. */
function perEntity(make: (table: string) => string): (entity: Entity) => string {
  const texts = new Map<Entity, string>();
  return (entity) => {
    let text = texts.get(entity);
    if (text === undefined) {
      text = make(TABLES[entity]);
      texts.set(entity, text);
    }
    return text;
  };
}
const byIdSql = perEntity((table) => `SELECT * FROM ${table} WHERE id = ?`);
const byIdsSql = perEntity((table) => `SELECT * FROM ${table} WHERE id IN (SELECT value FROM json_each(?))`);

/** One call's Gql: a class, so a call creates its caches and not a dozen closures besides. */
class CallGql implements Gql {
  readonly db: Db;
  readonly clock: Clock;
  readonly writesAtStart: number;
  readonly sessionId: string;
  readonly baseUrl: string;
  private readonly cache = new Map<Entity, Map<string, Row | null>>();
  private readonly groups = new Map<string, Map<string, Row[]>>();

  constructor(
    private readonly ctx: TwinContext,
    readonly viewerId: string,
    readonly rateLimitStatus: () => RateLimitStatus,
  ) {
    this.db = ctx.db;
    this.clock = ctx.clock;
    this.writesAtStart = ctx.db.rowsWritten;
    this.sessionId = ctx.sessionId;
    this.baseUrl = ctx.req.baseUrl;
  }

  private tableCache(e: Entity): Map<string, Row | null> {
    let m = this.cache.get(e);
    if (!m) {
      m = new Map();
      this.cache.set(e, m);
    }
    return m;
  }

  webhook(delivery: WebhookDelivery): void {
    this.ctx.webhook(delivery);
  }

  egress(url: string): EgressVerdict {
    return this.ctx.egress(url);
  }

  byId(entity: Entity, id: string | null | undefined): Row | undefined {
    if (!id) return undefined;
    const m = this.tableCache(entity);
    let row = m.get(id);
    if (row === undefined) {
      row = this.db.one<Row>(byIdSql(entity), id) ?? null;
      m.set(id, row);
    }
    return row ?? undefined;
  }

  cached(entity: Entity, id: string): Row | null | undefined {
    return this.tableCache(entity).get(id);
  }

  preload(entity: Entity, ids: readonly (string | null | undefined)[]): void {
    const m = this.tableCache(entity);
    const missing = [...new Set(ids.filter((id): id is string => typeof id === "string" && id !== "" && !m.has(id)))];
    if (!missing.length) return;
    for (const row of this.db.all<Row>(byIdsSql(entity), JSON.stringify(missing))) m.set(row.id, row);
    for (const id of missing) if (!m.has(id)) m.set(id, null);
  }

  grouped(name: string, sql: string, keys: readonly string[], key: string): (k: string) => Row[] {
    let g = this.groups.get(name);
    if (!g) {
      g = new Map();
      this.groups.set(name, g);
    }
    const missing = [...new Set(keys.filter((k) => !g.has(k)))];
    if (missing.length) {
      for (const k of missing) g.set(k, []);
      for (const row of this.db.all<Row>(sql, JSON.stringify(missing))) g.get(String(row[key]))?.push(row);
    }
    const groupsOf = g;
    return (k) => groupsOf.get(k) ?? [];
  }

  prime(entity: Entity, rows: readonly Row[]): void {
    const m = this.tableCache(entity);
    for (const r of rows) m.set(r.id, r);
  }

  forget(entity: Entity, id: string): void {
    this.tableCache(entity).delete(id);
    this.groups.clear();
  }
}

export function makeGql(ctx: TwinContext, viewerId: string, rateLimitStatus: () => RateLimitStatus): Gql {
  return new CallGql(ctx, viewerId, rateLimitStatus);
}
