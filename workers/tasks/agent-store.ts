// Registered agents in D1. An agent's twin allowlist only grows: registering again merges the
// twins given into it and never removes one, so a coach can heal `twins not enabled` additively.
import { and, asc, eq } from "drizzle-orm";
import type { TwinId } from "../../durable-objects/twins/registry";
import { database } from "../db/client";
import { agents, type AgentRow } from "../db/schema-tasks";
import { ApiError, notFound } from "../errors";
import { newId } from "../ids";

export const agentTwins = (row: AgentRow): TwinId[] => row.twins;

export async function findAgent(env: Env, teamId: string, id: string): Promise<AgentRow | undefined> {
  const rows = await database(env)
    .select()
    .from(agents)
    .where(and(eq(agents.teamId, teamId), eq(agents.id, id)))
    .limit(1);
  return rows[0];
}

export async function listAgents(env: Env, teamId: string): Promise<AgentRow[]> {
  return database(env).select().from(agents).where(eq(agents.teamId, teamId)).orderBy(asc(agents.name));
}

export interface Registration {
  row: AgentRow;
  created: boolean;
  /** Twins this call added to the allowlist. */
  added: TwinId[];
}

const MERGE_ATTEMPTS = 5;

export async function registerAgent(
  env: Env,
  teamId: string,
  input: { name: string; twins: TwinId[]; version?: string },
): Promise<Registration> {
  const db = database(env);
  const now = new Date().toISOString();
  const fresh: AgentRow = {
    id: newId("agt"),
    teamId,
    name: input.name,
    twins: input.twins,
    version: input.version ?? null,
    createdAt: now,
    updatedAt: now,
  };
  const inserted = await db.insert(agents).values(fresh).onConflictDoNothing().returning();
  if (inserted[0]) return { row: inserted[0], created: true, added: input.twins };

  // Compare-and-swap on the old allowlist, so two registrations at once cannot drop a twin.
  for (let attempt = 0; attempt < MERGE_ATTEMPTS; attempt++) {
    const rows = await db
      .select()
      .from(agents)
      .where(and(eq(agents.teamId, teamId), eq(agents.name, input.name)))
      .limit(1);
    const current = rows[0];
    if (!current) throw new Error(`agent "${input.name}" conflicted on insert but cannot be read`);
    const had = agentTwins(current);
    const added = input.twins.filter((t) => !had.includes(t));
    const merged = [...had, ...added];
    const updated = await db
      .update(agents)
      .set({ twins: merged, version: input.version ?? current.version, updatedAt: now })
      .where(and(eq(agents.id, current.id), eq(agents.twins, current.twins)))
      .returning();
    if (updated[0]) return { row: updated[0], created: false, added };
  }
  throw new ApiError("conflict", `Agent "${input.name}" is being registered concurrently; retry`, { reason: "concurrent_registration" });
}

/**
 * For run_task and friends: refuses with 400 `twins not enabled` when the agent's allowlist lacks
 * a twin the run needs. Unknown and other teams' agents are 404.
 */
export async function requireAgentTwins(env: Env, teamId: string, agentId: string, twins: readonly TwinId[]): Promise<AgentRow> {
  const row = await findAgent(env, teamId, agentId);
  if (!row) throw notFound("Agent");
  const allowed = agentTwins(row);
  const missing = twins.filter((t) => !allowed.includes(t));
  if (missing.length)
    throw new ApiError(
      "bad_request",
      `twins not enabled for agent "${row.name}": ${missing.join(", ")}; register the agent again with these twins to add them`,
      {
        error: "twins_not_enabled",
        agent_id: row.id,
        missing_twins: missing,
        enabled_twins: allowed,
      },
    );
  return row;
}
