// Reading run-sets out of D1: an explicit trial group (`group_id`), or the implicit run-set of one
// agent's version on one task. Every read is scoped to the caller's team, so another team's group
// is indistinguishable from one that does not exist.
import { and, asc, desc, eq, inArray, isNotNull, isNull, sql, type SQL } from "drizzle-orm";
import { database } from "../db/client";
import { sandboxes } from "../db/schema";
import { runs } from "../db/schema-runs";
import type { CriterionResult } from "../grading/types";
import { parseTask } from "../tasks";
import type { TaskConfig } from "../tasks/types";
import { reliability, trialOutcome, type Reliability, type Trial, type TrialOutcome } from "./reliability";

/** The implicit run-set: one (agent, task, agent_version). A null part means "not declared". */
export interface RunSetKey {
  task_name: string | null;
  task_id: string | null;
  agent_id: string | null;
  agent_version: string | null;
}

export interface RunSetRun {
  id: string;
  session_id: string;
  score: number | null;
  outcome: TrialOutcome;
  task_name: string | null;
  agent_version: string | null;
  agent_id: string | null;
  group_id: string | null;
  baseline_group_id: string | null;
  twins: string[];
  created_at: string;
}

export interface RunSetReliability extends Reliability {
  task_names: string[];
  agent_versions: (string | null)[];
  /** The baseline the set's runs name, for a rerun group; the most recent one when they differ. */
  baseline_group_id: string | null;
  runs: RunSetRun[];
}

const columns = {
  id: runs.id,
  sessionId: runs.sessionId,
  score: runs.satisfactionScore,
  verdict: runs.verdict,
  criteria: runs.criteriaResults,
  taskName: runs.taskName,
  agentVersion: runs.agentVersion,
  groupId: runs.groupId,
  baselineGroupId: runs.baselineGroupId,
  twins: runs.twins,
  createdAt: runs.createdAt,
  agentId: sandboxes.agentId,
  taskId: sandboxes.taskId,
};

type Row = { [K in keyof typeof columns]: (typeof columns)[K]["_"]["data"] | null };

async function select(env: Env, teamId: string, filter: SQL[]): Promise<Row[]> {
  return database(env)
    .select(columns)
    .from(runs)
    .leftJoin(sandboxes, eq(sandboxes.id, runs.sessionId))
    .where(and(eq(runs.teamId, teamId), ...filter))
    .orderBy(asc(runs.createdAt), asc(runs.id))
    .limit(1000);
}

/**
 * The task's pass rules, from the newest run's task file that parses; defaults when none was
 * kept. Only a few task files are read: they can be megabytes (seeds live in them).
 */
export async function passConfig(env: Env, sessionIdsNewestFirst: readonly string[]): Promise<TaskConfig | undefined> {
  const ids = sessionIdsNewestFirst.slice(0, 5);
  if (!ids.length) return undefined;
  const found = await database(env)
    .select({ id: sandboxes.id, markdown: sandboxes.taskMarkdown })
    .from(sandboxes)
    .where(inArray(sandboxes.id, ids));
  const byId = new Map(found.map((f) => [f.id, f.markdown]));
  for (const id of ids) {
    const markdown = byId.get(id);
    if (!markdown) continue;
    const parsed = parseTask(markdown);
    if (parsed.ok) return parsed.task.config;
  }
  return undefined;
}

const criteriaOf = (text: string | null): CriterionResult[] => (text ? (JSON.parse(text) as CriterionResult[]) : []);
const distinct = <T>(values: T[]) => [...new Set(values)];

async function summarize(env: Env, rows: readonly Row[]): Promise<RunSetReliability> {
  const config = await passConfig(env, rows.map((r) => r.sessionId ?? "").reverse());
  const trials: Trial[] = rows.map((r) => ({
    run_id: r.id ?? "",
    score: r.score ?? null,
    verdict: r.verdict ?? null,
    criteria: criteriaOf(r.criteria),
  }));
  const stats = reliability(trials, { passScore: config?.passScore, passThreshold: config?.passThreshold });
  const baselines = rows.map((r) => r.baselineGroupId).filter((b): b is string => !!b);
  return {
    ...stats,
    task_names: distinct(rows.map((r) => r.taskName).filter((n): n is string => !!n)),
    agent_versions: distinct(rows.map((r) => r.agentVersion ?? null)),
    baseline_group_id: baselines.at(-1) ?? null,
    runs: rows.map((r) => ({
      id: r.id ?? "",
      session_id: r.sessionId ?? "",
      score: r.score ?? null,
      outcome: trialOutcome(r.score ?? null, stats.pass_score, r.verdict),
      task_name: r.taskName ?? null,
      agent_version: r.agentVersion ?? null,
      agent_id: r.agentId ?? null,
      group_id: r.groupId ?? null,
      baseline_group_id: r.baselineGroupId ?? null,
      twins: r.twins ?? [],
      created_at: r.createdAt ?? "",
    })),
  };
}

/** A trial group's reliability; undefined when the team has no run in it. */
export async function groupReliability(env: Env, teamId: string, groupId: string): Promise<RunSetReliability | undefined> {
  const rows = await select(env, teamId, [eq(runs.groupId, groupId)]);
  return rows.length ? summarize(env, rows) : undefined;
}

const equalsOrNull = (column: typeof sandboxes.agentId | typeof runs.agentVersion, value: string | null) =>
  value === null ? isNull(column) : eq(column, value);

/** The implicit run-set of one (agent, task, agent_version), across every group. */
export async function runSetReliability(env: Env, teamId: string, key: RunSetKey): Promise<RunSetReliability | undefined> {
  const filter: SQL[] = [equalsOrNull(sandboxes.agentId, key.agent_id), equalsOrNull(runs.agentVersion, key.agent_version)];
  if (key.task_id !== null) filter.push(eq(sandboxes.taskId, key.task_id));
  if (key.task_name !== null) filter.push(eq(runs.taskName, key.task_name));
  const rows = await select(env, teamId, filter);
  return rows.length ? summarize(env, rows) : undefined;
}

export interface RunSetListing extends Omit<RunSetKey, "task_id"> {
  runs: number;
  groups: number;
  last_run_at: string;
}

/** Every implicit run-set the team has, most recently run first: the Reliability page's index. */
export async function listRunSets(env: Env, teamId: string, limit = 100): Promise<RunSetListing[]> {
  const rows = await database(env)
    .select({
      task_name: runs.taskName,
      agent_id: sandboxes.agentId,
      agent_version: runs.agentVersion,
      runs: sql<number>`count(*)`,
      groups: sql<number>`count(distinct ${runs.groupId})`,
      last_run_at: sql<string>`max(${runs.createdAt})`,
    })
    .from(runs)
    .leftJoin(sandboxes, eq(sandboxes.id, runs.sessionId))
    // A run of an ad-hoc sandbox (started without a task) belongs to no task's run-set.
    .where(and(eq(runs.teamId, teamId), isNotNull(runs.taskName)))
    .groupBy(runs.taskName, sandboxes.agentId, runs.agentVersion)
    .orderBy(desc(sql`max(${runs.createdAt})`))
    .limit(limit);
  return rows.map((r) => ({ ...r, agent_id: r.agent_id ?? null }));
}
