// What every resolver of one GraphQL call shares: the world, the clock, the viewer, and a cache
// of rows read in this call. Lists load the rows their nodes point at in one query per table
// (`preload`), so a page of issues with their states, teams and people is a few reads, not N+1.
import type { Db, SqlValue } from "../../sql";
import type { Clock, TwinContext, WebhookDelivery } from "../types";

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
} as const;
export type Entity = keyof typeof TABLES;

export interface Gql {
  db: Db;
  clock: Clock;
  viewerId: string;
  /** Rows written before this call began: a mutation that wrote nothing changed nothing. */
  writesAtStart: number;
  sessionId: string;
  /** Where this sandbox's twin paths hang (for url fields that point back at the twin). */
  baseUrl: string;
  webhook(delivery: WebhookDelivery): void;
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

export function makeGql(ctx: TwinContext, viewerId: string): Gql {
  const cache = new Map<string, Map<string, Row | null>>();
  const groups = new Map<string, Map<string, Row[]>>();
  const tableCache = (e: Entity) => {
    let m = cache.get(e);
    if (!m) {
      m = new Map();
      cache.set(e, m);
    }
    return m;
  };
  const gql: Gql = {
    db: ctx.db,
    clock: ctx.clock,
    viewerId,
    writesAtStart: ctx.db.rowsWritten,
    sessionId: ctx.sessionId,
    baseUrl: ctx.req.baseUrl,
    webhook: (d) => ctx.webhook(d),
    byId(entity, id) {
      if (!id) return undefined;
      const m = tableCache(entity);
      if (!m.has(id)) m.set(id, ctx.db.one<Row>(`SELECT * FROM ${TABLES[entity]} WHERE id = ?`, id) ?? null);
      return m.get(id) ?? undefined;
    },
    cached: (entity, id) => tableCache(entity).get(id),
    preload(entity, ids) {
      const m = tableCache(entity);
      const missing = [...new Set(ids.filter((id): id is string => typeof id === "string" && id !== "" && !m.has(id)))];
      if (!missing.length) return;
      for (const row of ctx.db.all<Row>(
        `SELECT * FROM ${TABLES[entity]} WHERE id IN (SELECT value FROM json_each(?))`,
        JSON.stringify(missing),
      ))
        m.set(row.id, row);
      for (const id of missing) if (!m.has(id)) m.set(id, null);
    },
    grouped(name, sql, keys, key) {
      let g = groups.get(name);
      if (!g) {
        g = new Map();
        groups.set(name, g);
      }
      const missing = [...new Set(keys.filter((k) => !g.has(k)))];
      if (missing.length) {
        for (const k of missing) g.set(k, []);
        for (const row of ctx.db.all<Row>(sql, JSON.stringify(missing))) g.get(String(row[key]))?.push(row);
      }
      const groupsOf = g;
      return (k) => groupsOf.get(k) ?? [];
    },
    prime(entity, rows) {
      const m = tableCache(entity);
      for (const r of rows) m.set(r.id, r);
    },
    forget(entity, id) {
      tableCache(entity).delete(id);
      groups.clear();
    },
  };
  return gql;
}
