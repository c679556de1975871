// Stored tasks in D1. The markdown is the source of truth; the other columns are for listing.
import { and, desc, eq } from "drizzle-orm";
import { database } from "../db/client";
import { tasks, type TaskRow } from "../db/schema-tasks";
import { newId, sha256Hex } from "../ids";
import type { PreparedTask } from "./prepare";

export async function findTask(env: Env, teamId: string, id: string): Promise<TaskRow | undefined> {
  const rows = await database(env)
    .select()
    .from(tasks)
    .where(and(eq(tasks.teamId, teamId), eq(tasks.id, id)))
    .limit(1);
  return rows[0];
}

export async function listTasks(env: Env, teamId: string, limit: number): Promise<TaskRow[]> {
  return database(env).select().from(tasks).where(eq(tasks.teamId, teamId)).orderBy(desc(tasks.createdAt), desc(tasks.id)).limit(limit);
}

/** Stores a task; the same markdown saved twice by one team returns the first row. */
export async function saveTask(env: Env, teamId: string, prepared: PreparedTask): Promise<{ row: TaskRow; created: boolean }> {
  const db = database(env);
  const contentHash = `sha256:${await sha256Hex(prepared.markdown)}`;
  const row: TaskRow = {
    id: newId("tsk"),
    teamId,
    name: prepared.task.name ?? null,
    markdown: prepared.markdown,
    twins: prepared.twins,
    criteriaCount: prepared.task.criteria.length,
    contentHash,
    createdAt: new Date().toISOString(),
  };
  const inserted = await db.insert(tasks).values(row).onConflictDoNothing().returning();
  if (inserted[0]) return { row: inserted[0], created: true };
  const existing = await db
    .select()
    .from(tasks)
    .where(and(eq(tasks.teamId, teamId), eq(tasks.contentHash, contentHash)))
    .limit(1);
  if (!existing[0]) throw new Error("task insert conflicted but no row has its content hash");
  return { row: existing[0], created: false };
}
