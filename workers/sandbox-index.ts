// The D1 index of sandboxes: quota reservation, listing and lookups. The Sandbox Durable Object
// is the source of truth for a sandbox's life and mirrors its state into these rows.
import { and, desc, eq, gt, inArray, sql } from "drizzle-orm";
import { OPEN_STATES, OPEN_STATES_SQL, isOpen } from "../durable-objects/sandbox-states";
import type { TwinId } from "../durable-objects/twins/registry";
import { database } from "./db/client";
import { sandboxes, type SandboxRow } from "./db/schema";

export async function countOpenSandboxes(env: Env, teamId: string): Promise<number> {
  const rows = await database(env)
    .select({ n: sql<number>`count(*)` })
    .from(sandboxes)
    .where(
      and(eq(sandboxes.teamId, teamId), inArray(sandboxes.state, [...OPEN_STATES]), gt(sandboxes.expiresAt, new Date().toISOString())),
    );
  return rows[0]?.n ?? 0;
}

export interface NewSandbox {
  id: string;
  teamId: string;
  twins: TwinId[];
  taskName: string | null;
  taskMarkdown: string | null;
  taskId: string | null;
  groupId: string | null;
  agentVersion: string | null;
  agentId: string | null;
  baselineGroupId: string | null;
  idempotencyKey: string | null;
  idempotencyHash: string | null;
  createdAt: string;
  expiresAt: string;
}

/**
 * Inserts the row only while the team is under its quota, in one statement, so two concurrent
 * creates cannot both take the last slot. Returns false when the quota is full.
 */
export async function reserveSandbox(env: Env, s: NewSandbox, quota: number): Promise<boolean> {
  const result = await env.DB.prepare(
    `INSERT INTO sandboxes (id, team_id, twins, state, task_name, task_markdown, task_id, group_id, agent_version,
       agent_id, baseline_group_id, idempotency_key, idempotency_hash, created_at, expires_at)
     SELECT ?, ?, ?, 'provisioning', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?
     WHERE (SELECT count(*) FROM sandboxes WHERE team_id = ? AND state IN (${OPEN_STATES_SQL})
            AND expires_at > ?) < ?`,
  )
    .bind(
      s.id,
      s.teamId,
      JSON.stringify(s.twins),
      s.taskName,
      s.taskMarkdown,
      s.taskId,
      s.groupId,
      s.agentVersion,
      s.agentId,
      s.baselineGroupId,
      s.idempotencyKey,
      s.idempotencyHash,
      s.createdAt,
      s.expiresAt,
      s.teamId,
      s.createdAt,
      quota,
    )
    .run();
  return (result.meta.changes ?? 0) === 1;
}

export async function setSandboxState(env: Env, id: string, state: string, closedAt: string | null = null, closeReason?: string | null) {
  await database(env)
    .update(sandboxes)
    .set({ state, closedAt, ...(closeReason !== undefined ? { closeReason } : {}) })
    .where(eq(sandboxes.id, id));
}

export async function findSandbox(env: Env, teamId: string, id: string): Promise<SandboxRow | undefined> {
  const rows = await database(env)
    .select()
    .from(sandboxes)
    .where(and(eq(sandboxes.id, id), eq(sandboxes.teamId, teamId)))
    .limit(1);
  return rows[0];
}

export async function findByIdempotencyKey(env: Env, teamId: string, key: string, since: string): Promise<SandboxRow | undefined> {
  const rows = await database(env)
    .select()
    .from(sandboxes)
    .where(and(eq(sandboxes.teamId, teamId), eq(sandboxes.idempotencyKey, key), gt(sandboxes.createdAt, since)))
    .orderBy(desc(sandboxes.createdAt))
    .limit(1);
  return rows[0];
}

export async function listSandboxes(env: Env, teamId: string, opts: { state?: string; limit: number }): Promise<SandboxRow[]> {
  const where = opts.state ? and(eq(sandboxes.teamId, teamId), eq(sandboxes.state, opts.state)) : eq(sandboxes.teamId, teamId);
  return database(env).select().from(sandboxes).where(where).orderBy(desc(sandboxes.createdAt), desc(sandboxes.id)).limit(opts.limit);
}

/** A row whose lifetime has passed is expired even if its alarm has not run yet. */
export function effectiveState(row: Pick<SandboxRow, "state" | "expiresAt">, now = Date.now()): string {
  return isOpen(row.state) && Date.parse(row.expiresAt) <= now ? "expired" : row.state;
}
