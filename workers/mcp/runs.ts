// run_task and run_trials: mint the group id, check the agent's twin allowlist, start the
// sandbox(es) through POST /v1/sandboxes, and hand back what the coach launches the examinee with.
import type { TwinId } from "../../durable-objects/twins/registry";
import { ApiError } from "../errors";
import { newId } from "../ids";
import { requireAgentTwins } from "../tasks/agent-store";
import type { V1 } from "./control-api";
import { examineeLaunch, examineeTask, type CreatedSandbox, type LaunchTransport } from "./launch";

/** The fields of GET /v1/tasks/:id a run needs. */
interface StoredTask {
  id: string;
  name: string | null;
  twins: TwinId[];
  prompt: string;
  config: { runs: number | null; pass_threshold: number | null; pass_score: number | null };
  /** Each criterion with the check it binds to now (null: it binds none). */
  criteria?: { id: string; kind: string; text: string; twin?: string; check_id: string | null }[];
}

export interface RunRequest {
  task_id: string;
  agent_id?: string;
  agent_version?: string;
  group_id?: string;
  baseline_group_id?: string;
  transport?: LaunchTransport;
  /** Start even though some [code] criteria bind no check: the runs will be incomplete. */
  allow_unbound?: boolean;
}

export interface RunContext {
  v1: V1;
  env: Env;
  teamId: string;
}

/** A group id in the coach's shape: `grp_` and 12 base62 characters (within the 6–64 rule). */
export const mintGroupId = () => newId("grp", 12);

/** Reads the task and checks the agent may use its twins; both are the same for every trial. */
async function prepare(ctx: RunContext, req: RunRequest): Promise<StoredTask> {
  const task = await ctx.v1.json<StoredTask>("GET", `/v1/tasks/${encodeURIComponent(req.task_id)}`);
  // Refuses with 400 `twins not enabled` (an ApiError, shaped into the envelope by the tool).
  if (req.agent_id !== undefined) await requireAgentTwins(ctx.env, ctx.teamId, req.agent_id, task.twins);
  if (!req.allow_unbound) refuseUnbound(task);
  return task;
}

/**
 * A stored task bound when it was saved, but a vocabulary can change since: a run whose [code]
 * criteria do not all bind could only be incomplete, so it is refused before any sandbox starts.
 */
function refuseUnbound(task: StoredTask): void {
  const unbound = (task.criteria ?? []).filter((c) => c.kind === "code" && c.check_id === null);
  if (!unbound.length) return;
  throw new ApiError(
    "validation_failed",
    `Criterion "${unbound[0].text}" binds no check${unbound.length > 1 ? ` (and ${unbound.length - 1} more)` : ""}; the run could only be incomplete. Fix the task (validate_task names the nearest checks) or pass allow_unbound: true`,
    { error: "unbound_criteria", criteria: unbound.map((c) => ({ id: c.id, text: c.text, twin: c.twin ?? task.twins[0] })) },
  );
}

async function startSandbox(ctx: RunContext, task: StoredTask, req: RunRequest, groupId: string, trial = { trial: 1, trials: 1 }) {
  const sandbox = await ctx.v1.json<CreatedSandbox>("POST", "/v1/sandboxes", {
    task_id: task.id,
    twins: task.twins,
    group_id: groupId,
    ...(req.agent_version !== undefined ? { agent_version: req.agent_version } : {}),
  });
  const launch = { prompt: task.prompt, name: task.name, groupId, ...trial };
  return {
    session_id: sandbox.session_id,
    expires_at: sandbox.expires_at,
    agent_token: sandbox.agent_token,
    examinee_task: examineeTask(sandbox, launch),
    examinee_launch: examineeLaunch(sandbox, launch, req.transport ?? "rest"),
  };
}

/** What every run of this request shares, echoed so the coach can pass it on to finalize_run. */
function runLabels(task: StoredTask, req: RunRequest, groupId: string) {
  return {
    task_id: task.id,
    task_name: task.name,
    group_id: groupId,
    baseline_group_id: req.baseline_group_id ?? null,
    agent_id: req.agent_id ?? null,
    agent_version: req.agent_version ?? null,
  };
}

export async function runTask(ctx: RunContext, req: RunRequest) {
  const task = await prepare(ctx, req);
  const groupId = req.group_id ?? mintGroupId();
  return { ...(await startSandbox(ctx, task, req, groupId)), ...runLabels(task, req, groupId) };
}

/** Discards sandboxes started for a batch that could not be completed, so they free their quota. */
async function discard(ctx: RunContext, sessionIds: string[]): Promise<void> {
  for (const id of sessionIds) {
    const path = `/v1/sandboxes/${encodeURIComponent(id)}`;
    const refusal = await ctx.v1.raw("DELETE", path);
    const token = (refusal.json as { error?: { details?: { discard_token?: unknown } } } | undefined)?.error?.details?.discard_token;
    if (typeof token === "string") await ctx.v1.raw("DELETE", `${path}?confirm_discard=${encodeURIComponent(token)}`);
  }
}

export interface TrialsRequest extends RunRequest {
  n: number;
  /** Trials to start now (default all n), never more than the team's free sandbox slots. */
  concurrency?: number;
  /** The first trial of this batch (default 1); later batches continue a group, so they need its group_id. */
  first_trial?: number;
}

/** Sandboxes the team may still open (GET /v1/usage); `wanted` when the answer says nothing. */
async function freeSlots(ctx: RunContext, wanted: number): Promise<number> {
  const usage = await ctx.v1.raw("GET", "/v1/usage");
  const remaining = (usage.json as { sessions_remaining?: unknown } | undefined)?.sessions_remaining;
  return typeof remaining === "number" ? remaining : wanted;
}

/** The trial numbers of one batch: `count` from `first`. */
const trialNumbers = (first: number, count: number) => Array.from({ length: Math.max(0, count) }, (_, i) => first + i);

/**
 * Starts a batch of trials under one group id, their sandboxes provisioned in parallel, or none: a
 * half-provisioned batch is discarded. Without `concurrency` the batch is all N trials (refused
 * whole when the quota cannot hold them); with it, at most that many and never more than the
 * team's free slots, the rest returned as `pending_trials` for a later call with `first_trial`.
 */
export async function runTrials(ctx: RunContext, req: TrialsRequest) {
  const first = req.first_trial ?? 1;
  if (first > req.n)
    throw new ApiError("validation_failed", `first_trial: ${first} is past the last trial (n is ${req.n})`, {
      issues: [{ path: "first_trial", message: `At most n (${req.n})` }],
    });
  if (first > 1 && req.group_id === undefined)
    throw new ApiError("validation_failed", "first_trial: a later batch continues a group; pass the group_id the first batch returned", {
      issues: [{ path: "group_id", message: "Required with first_trial" }],
    });
  const task = await prepare(ctx, req);
  const groupId = req.group_id ?? mintGroupId();
  const left = req.n - first + 1;
  const wanted = Math.min(left, req.concurrency ?? left);
  const size = req.concurrency === undefined ? wanted : Math.min(wanted, await freeSlots(ctx, wanted));
  if (size < 1)
    throw new ApiError("quota_exceeded", "Every sandbox your plan allows is open; finalize a trial (or delete a sandbox) and call again", {
      group_id: groupId,
      pending_trials: trialNumbers(first, left),
    });
  const settled = await Promise.allSettled(
    trialNumbers(first, size).map((trial) => startSandbox(ctx, task, req, groupId, { trial, trials: req.n })),
  );
  const started = settled.flatMap((s) => (s.status === "fulfilled" ? [s.value] : []));
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === "rejected");
  if (failed) {
    await discard(
      ctx,
      started.map((t) => t.session_id),
    );
    throw failed.reason;
  }
  const pending = trialNumbers(first + size, left - size);
  return {
    ...runLabels(task, req, groupId),
    n: req.n,
    pass_threshold: task.config.pass_threshold ?? 100,
    pass_score: task.config.pass_score ?? 100,
    trials: started.map((t, i) => ({ trial: first + i, ...t })),
    /** Trials not started yet: launch and finalize these, then call again with `next`. */
    pending_trials: pending,
    next: pending.length ? { first_trial: pending[0], group_id: groupId, concurrency: req.concurrency ?? pending.length } : null,
  };
}
