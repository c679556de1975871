// What the pages read: runs with their sandbox's agent and task, evidence blobs, open sandboxes.
// Scoped to the caller's team like every /v1 read.
import { and, desc, eq, inArray, isNull, type SQL } from "drizzle-orm";
import type { TwinId } from "../../../durable-objects/twins/registry";
import { database } from "../../db/client";
import { sandboxes } from "../../db/schema";
import { runs } from "../../db/schema-runs";
import type { CriteriaBreakdown } from "../../grading/types";
import { isOpen } from "../../../durable-objects/sandbox-states";
import { effectiveState, listSandboxes } from "../../sandbox-index";
import { trialOutcome, type TrialOutcome } from "../../stats/reliability";
import { sandboxStub } from "../../stubs";
import { buildTimelineIndex, clampPage, timelineIndexKey, type TapeView, type TimelineIndex, viewOf } from "../../dashboard/tape-view";
import { parseTask } from "../../tasks";
import { fromStorage, storedText } from "../../blobs/storage";

export interface RunFilters {
  task?: string;
  agent?: string;
  version?: string;
  group?: string;
}

export interface RunListRow {
  id: string;
  task_name: string | null;
  agent_id: string | null;
  agent_version: string | null;
  agent_model: string;
  group_id: string | null;
  baseline_group_id: string | null;
  twins: TwinId[];
  score: number | null;
  breakdown: CriteriaBreakdown;
  outcome: TrialOutcome;
  created_at: string;
}

/** "(none)" in a filter selects runs that declared no value. */
export const NONE = "(none)";

export async function listRunsForPage(env: Env, teamId: string, f: RunFilters, limit = 100): Promise<RunListRow[]> {
  const filter: SQL[] = [eq(runs.teamId, teamId)];
  const match = (
    column: typeof runs.taskName | typeof runs.agentVersion | typeof runs.groupId | typeof sandboxes.agentId,
    value: string | undefined,
  ) => {
    if (value === undefined || value === "") return;
    filter.push(value === NONE ? isNull(column) : eq(column, value));
  };
  match(runs.taskName, f.task);
  match(runs.agentVersion, f.version);
  match(runs.groupId, f.group);
  match(sandboxes.agentId, f.agent);
  const rows = await database(env)
    .select({
      id: runs.id,
      taskName: runs.taskName,
      taskHash: runs.taskHash,
      sessionId: runs.sessionId,
      agentId: sandboxes.agentId,
      agentVersion: runs.agentVersion,
      agentModel: runs.agentModel,
      groupId: runs.groupId,
      baselineGroupId: runs.baselineGroupId,
      twins: runs.twins,
      score: runs.satisfactionScore,
      verdict: runs.verdict,
      breakdown: runs.criteriaBreakdown,
      createdAt: runs.createdAt,
    })
    .from(runs)
    .leftJoin(sandboxes, eq(sandboxes.id, runs.sessionId))
    .where(and(...filter))
    .orderBy(desc(runs.createdAt), desc(runs.id))
    .limit(limit);
  const rules = await passRulesOf(env, rows);
  return rows.map((r) => ({
    id: r.id,
    task_name: r.taskName,
    agent_id: r.agentId ?? null,
    agent_version: r.agentVersion,
    agent_model: r.agentModel,
    group_id: r.groupId,
    baseline_group_id: r.baselineGroupId,
    twins: r.twins,
    score: r.score,
    breakdown: JSON.parse(r.breakdown) as CriteriaBreakdown,
    outcome: trialOutcome(r.score, rules.get(r.taskHash ?? "")?.passScore, r.verdict),
    created_at: r.createdAt,
  }));
}

/** The values the Runs page's filters offer. */
export async function filterChoices(env: Env, teamId: string) {
  const db = database(env);
  const distinct = async (column: typeof runs.taskName | typeof runs.agentVersion | typeof runs.groupId) =>
    (await db.selectDistinct({ v: column }).from(runs).where(eq(runs.teamId, teamId)).orderBy(desc(column)).limit(200)).map(
      (r) => r.v ?? NONE,
    );
  const agents = (
    await db
      .selectDistinct({ v: sandboxes.agentId })
      .from(runs)
      .innerJoin(sandboxes, eq(sandboxes.id, runs.sessionId))
      .where(eq(runs.teamId, teamId))
      .limit(200)
  ).map((r) => r.v ?? NONE);
  const [tasks, versions, groups] = await Promise.all([distinct(runs.taskName), distinct(runs.agentVersion), distinct(runs.groupId)]);
  return { tasks, versions, groups, agents };
}

/** A blob's text, or undefined when it is absent. */
export const blobText = storedText;

export interface OpenSandbox {
  id: string;
  twins: TwinId[];
  state: string;
  task_name: string | null;
  group_id: string | null;
  agent_version: string | null;
  created_at: string;
  expires_at: string;
  /** When the idle timer closes it unless a call or heartbeat comes first. */
  idle_at: string | null;
  calls: number | null;
}

export async function openSandboxes(env: Env, teamId: string): Promise<OpenSandbox[]> {
  const now = Date.now();
  const rows = (await listSandboxes(env, teamId, { limit: 200 })).filter((r) => isOpen(effectiveState(r, now)));
  return Promise.all(
    rows.map(async (r) => {
      // The Durable Object is the source of truth for the call count and the idle deadline.
      const described = await sandboxStub(env, r.id).describe();
      const meta = described.ok ? described.meta : undefined;
      const last = meta ? (meta.lastRequestAt ?? meta.readyAt ?? meta.createdAt) : null;
      return {
        id: r.id,
        twins: r.twins,
        state: meta?.state ?? r.state,
        task_name: r.taskName,
        group_id: r.groupId,
        agent_version: r.agentVersion,
        created_at: r.createdAt,
        expires_at: r.expiresAt,
        idle_at: meta && last !== null ? new Date(Math.min(meta.expiresAt, last + meta.idleSeconds * 1000)).toISOString() : null,
        calls: described.ok ? described.tapeLength : null,
      };
    }),
  );
}

export interface IndexEntry {
  task_name: string | null;
  agent_id: string | null;
  agent_version: string | null;
  trials: number;
  graded: number;
  passed: number;
  errored: number;
  /** Not fully graded (issue 38): counted apart, like errored ones. */
  incomplete: number;
  pass_threshold: number;
  groups: number;
  last_run_at: string;
}

/**
 * Every implicit run-set's pass rate, from one read of the team's runs: the Reliability page's
 * index. The arithmetic is the shared one; only the grouping happens here.
 */
export async function reliabilityIndex(env: Env, teamId: string): Promise<IndexEntry[]> {
  const rows = await database(env)
    .select({
      taskName: runs.taskName,
      taskHash: runs.taskHash,
      sessionId: runs.sessionId,
      agentId: sandboxes.agentId,
      agentVersion: runs.agentVersion,
      groupId: runs.groupId,
      score: runs.satisfactionScore,
      verdict: runs.verdict,
      createdAt: runs.createdAt,
    })
    .from(runs)
    .leftJoin(sandboxes, eq(sandboxes.id, runs.sessionId))
    .where(eq(runs.teamId, teamId))
    .orderBy(desc(runs.createdAt))
    .limit(5000);
  const rules = await passRulesOf(env, rows);
  const sets = new Map<string, { entry: IndexEntry; groups: Set<string | null> }>();
  for (const r of rows) {
    const key = JSON.stringify([r.taskName, r.agentId ?? null, r.agentVersion]);
    const rule = rules.get(r.taskHash ?? "");
    let set = sets.get(key);
    if (!set) {
      const entry: IndexEntry = {
        task_name: r.taskName,
        agent_id: r.agentId ?? null,
        agent_version: r.agentVersion,
        trials: 0,
        graded: 0,
        passed: 0,
        errored: 0,
        incomplete: 0,
        pass_threshold: rule?.passThreshold ?? 100,
        groups: 0,
        last_run_at: r.createdAt,
      };
      set = { entry, groups: new Set() };
      sets.set(key, set);
    }
    const outcome = trialOutcome(r.score, rule?.passScore, r.verdict);
    set.entry.trials++;
    if (outcome === "errored") set.entry.errored++;
    else if (outcome === "incomplete") set.entry.incomplete++;
    else set.entry.graded++;
    if (outcome === "passed") set.entry.passed++;
    set.groups.add(r.groupId);
  }
  return [...sets.values()]
    .map(({ entry, groups }) => ({ ...entry, groups: groups.size }))
    .sort((a, b) => (a.task_name ?? "").localeCompare(b.task_name ?? "") || b.last_run_at.localeCompare(a.last_run_at));
}

async function passRulesOf(env: Env, rows: readonly { taskHash: string | null; sessionId: string }[]) {
  const sessionByHash = new Map<string, string>();
  for (const r of rows) if (r.taskHash && !sessionByHash.has(r.taskHash)) sessionByHash.set(r.taskHash, r.sessionId);
  const out = new Map<string, { passScore?: number; passThreshold?: number }>();
  const ids = [...sessionByHash.values()];
  // D1 binds at most 100 parameters a statement.
  for (let i = 0; i < ids.length; i += 90) {
    const found = await database(env)
      .select({ id: sandboxes.id, markdown: sandboxes.taskMarkdown })
      .from(sandboxes)
      .where(inArray(sandboxes.id, ids.slice(i, i + 90)));
    const markdownOf = new Map(found.map((s) => [s.id, s.markdown]));
    for (const [hash, session] of sessionByHash) {
      if (!markdownOf.has(session)) continue;
      const markdown = markdownOf.get(session);
      const parsed = markdown ? parseTask(markdown) : undefined;
      out.set(hash, parsed?.ok ? { passScore: parsed.task.config.passScore, passThreshold: parsed.task.config.passThreshold } : {});
    }
  }
  return out;
}

/** The groups that name this one as their baseline: its reruns. */
export async function rerunsOf(env: Env, teamId: string, groupId: string): Promise<string[]> {
  const rows = await database(env)
    .selectDistinct({ g: runs.groupId })
    .from(runs)
    .where(and(eq(runs.teamId, teamId), eq(runs.baselineGroupId, groupId)))
    .limit(50);
  return rows.map((r) => r.g).filter((g): g is string => !!g && g !== groupId);
}

function parseIndex(text: string | undefined): TimelineIndex | undefined {
  if (text === undefined) return undefined;
  try {
    const value = JSON.parse(text) as { version?: unknown };
    return value.version === 1 ? (value as TimelineIndex) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * One page of a run's timeline. A tape never changes once its run exists, so its index is stored
 * beside it (by finalize, or by the first view of a run finalized without one); every view reads
 * the index and one page's byte range.
 */
export async function timelinePage(
  env: Env,
  keep: (work: Promise<unknown>) => void,
  traceKey: string,
  requestedPage: number,
): Promise<TapeView | undefined> {
  const bucket = env.EVIDENCE;
  const cached = parseIndex(await blobText(bucket, timelineIndexKey(traceKey)));
  if (cached) {
    const page = clampPage(cached, requestedPage);
    const range = cached.pages[page - 1];
    if (!range) return viewOf(cached, page, "");
    const object = await storage(() => bucket.get(traceKey, { range: { offset: range.offset, length: range.length } }));
    if (object) return viewOf(cached, page, await object.text());
  }
  const object = await storage(() => bucket.get(traceKey));
  if (!object) return undefined;
  const bytes = new Uint8Array(await object.arrayBuffer());
  const index = buildTimelineIndex(bytes);
  keep(
    bucket
      .put(timelineIndexKey(traceKey), JSON.stringify(index), { httpMetadata: { contentType: "application/json" } })
      .catch((err: unknown) => {
        // Only a cache: the next view builds it again.
        console.error("could not store the timeline index", err);
      }),
  );
  const page = clampPage(index, requestedPage);
  const range = index.pages[page - 1];
  return viewOf(index, page, range ? new TextDecoder().decode(bytes.subarray(range.offset, range.offset + range.length)) : "");
}

const storage = fromStorage;
