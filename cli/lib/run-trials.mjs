// The `pome run` loop, shared with `pome rerun`: for each trial, create a sandbox from the task,
// launch the examinee with the sandbox in its environment, and finalize the moment it exits.
import { randomUUID } from "node:crypto";
import { ApiResponseError } from "./api.mjs";
import { CliError, EXIT } from "./errors.mjs";
import { examineeEnv, launchExaminee } from "./examinee.mjs";
import { toBase64 } from "./task-file.mjs";
import { statsReliability } from "./stats.mjs";
import { summarize } from "./trials.mjs";

/** Finalize before the sandbox dies: the examinee is stopped this long before expires_at. */
const EXPIRY_MARGIN_MS = 30_000;
const HEARTBEAT_MS = 60_000;

/**
 * @param {{
 *   api: import("./api.mjs").PomeApi, out: ReturnType<import("./output.mjs").createOutput>,
 *   task: import("../../workers/tasks/types.ts").Task, markdown: string, criteria: unknown[],
 *   command: string[], runs: number, groupId: string, baselineGroupId?: string,
 *   agentVersion?: string, agentModel: string, timeoutMs?: number,
 *   cwd?: string, concurrency?: number,
 * }} opts
 * `cwd`: where the examinee runs (an oracle agent runs from its task file's folder); default ours.
 * `concurrency`: trials run at once (default 1), never more than the team's sandbox quota.
 */
export async function runTrials(opts) {
  const { api, out, task } = opts;
  const { reliability, trialOutcome } = await statsReliability();
  const interrupt = new AbortController();
  let firstInterrupt = 0;
  const onSigint = () => {
    // A terminal's Ctrl-C can arrive twice at once (directly, and passed on by a wrapper); only a
    // second press, later, means "quit now".
    if (firstInterrupt && Date.now() - firstInterrupt > 500) process.exit(EXIT.INTERRUPTED);
    if (firstInterrupt) return;
    firstInterrupt = Date.now();
    out.warn("interrupted: stopping the examinee and finalizing what it did (Ctrl-C again to quit at once)");
    interrupt.abort();
  };
  process.on("SIGINT", onSigint);
  const trials = [];
  try {
    const lanes = await lanesWithinQuota(api, out, Math.min(opts.concurrency ?? 1, opts.runs));
    const quota = quotaGate(out);
    const context = { ...opts, trialOutcome, signal: interrupt.signal, quota, verbose: lanes === 1 };
    let next = 1;
    let fatal;
    // `lanes` workers take the next trial number until none is left: at most `lanes` sandboxes
    // of this command are open at once.
    const lane = async () => {
      while (next <= opts.runs && !interrupt.signal.aborted && fatal === undefined) {
        const trial = next++;
        try {
          trials.push(await runTrial(context, trial));
        } catch (err) {
          fatal ??= err;
        }
      }
    };
    await Promise.all(Array.from({ length: lanes }, lane));
    if (fatal !== undefined) throw fatal;
  } finally {
    process.off("SIGINT", onSigint);
  }
  trials.sort((a, b) => a.trial - b.trial);
  return {
    group_id: opts.groupId,
    baseline_group_id: opts.baselineGroupId ?? null,
    task: task.name ?? null,
    agent_version: opts.agentVersion ?? null,
    agent_model: opts.agentModel,
    interrupted: interrupt.signal.aborted,
    // The control plane's arithmetic: a trial with no score errored and leaves the fraction.
    ...summarize(
      reliability(
        trials.map((t) => ({ run_id: t.run_id, score: t.score, verdict: t.outcome, criteria: t.criteria_results })),
        task.config,
      ),
    ),
    runs: trials,
  };
}

/**
 * How many trials may run at once: what was asked, never more than the team's quota of open
 * sandboxes (GET /v1/usage). Sandboxes others hold are waited for by the quota gate instead.
 */
async function lanesWithinQuota(api, out, asked) {
  if (asked <= 1) return 1;
  const usage = await api.get("/v1/usage").catch(() => undefined);
  const quota = typeof usage?.sessions_quota === "number" ? usage.sessions_quota : asked;
  if (asked <= quota) return asked;
  out.progress(`--concurrency ${asked} is above the team's quota of ${quota} open sandboxes; running ${quota} at a time`);
  return Math.max(1, quota);
}

/** How long a trial waits for a sandbox slot held by someone else before the run gives up. */
const QUOTA_WAIT_MS = 60_000;
const QUOTA_POLL_MS = 2_000;

/**
 * Sandbox creation within the quota: a 402 quota_exceeded waits for one of our own trials to
 * free its sandbox, or, when none of ours holds one, polls for a slot others free, and after
 * QUOTA_WAIT_MS reports the quota (exit 3) instead of failing a trial.
 */
function quotaGate(out) {
  let open = 0;
  let waiters = [];
  const release = () => {
    open--;
    const woken = waiters;
    waiters = [];
    for (const wake of woken) wake();
  };
  const create = async (api, body, tag) => {
    const since = Date.now();
    let warned = false;
    for (;;) {
      try {
        const sandbox = await api.post("/v1/sandboxes", body);
        open++;
        return sandbox;
      } catch (err) {
        if (!(err instanceof ApiResponseError && err.status === 402)) throw err;
        if (!warned) out.progress(`${tag}waiting for a free sandbox: ${err.serverMessage}`);
        warned = true;
        if (open > 0) await new Promise((wake) => waiters.push(wake));
        else if (Date.now() - since > QUOTA_WAIT_MS)
          throw new CliError(
            `No sandbox slot freed within ${QUOTA_WAIT_MS / 1000}s: ${err.serverMessage}. Lower --concurrency, or finalize or delete open sandboxes (pome sandbox list).`,
            EXIT.API,
            { reason: "quota_exceeded" },
          );
        else await new Promise((wake) => setTimeout(wake, QUOTA_POLL_MS));
      }
    }
  };
  return { create, release };
}

/** One trial: a sandbox from the task, the examinee in it, and its run graded the moment it exits. */
async function runTrial(ctx, trial) {
  const { api, out, task } = ctx;
  const twins = task.config.twins;
  const tag = ctx.runs > 1 ? `[${trial}/${ctx.runs}] ` : "";
  // One trial at a time narrates each step; trials in parallel print one line each, when done.
  const step = (message) => ctx.verbose && out.progress(`${tag}${message}`);
  step(`creating a sandbox for "${task.name ?? "task"}" (${twins.join(", ")})`);
  const sandbox = await ctx.quota.create(
    api,
    {
      twins,
      task_source: toBase64(ctx.markdown),
      group_id: ctx.groupId,
      idempotency_key: randomUUID(),
      ...(ctx.agentVersion ? { agent_version: ctx.agentVersion } : {}),
    },
    tag,
  );
  try {
    return await examineAndGrade(ctx, trial, sandbox, step, tag);
  } finally {
    ctx.quota.release();
  }
}

async function examineAndGrade(ctx, trial, sandbox, step, tag) {
  const { api, out, task, command } = ctx;
  const sessionId = sandbox.session_id;
  const untilExpiry = Date.parse(sandbox.expires_at) - Date.now() - EXPIRY_MARGIN_MS;
  step(`sandbox ${sessionId} is ready; launching: ${command.join(" ")}`);
  const env = await examineeEnv(process.env, sandbox, {
    prompt: task.prompt,
    name: task.name,
    twins: task.config.twins,
    groupId: ctx.groupId,
    trial,
    trials: ctx.runs,
  });
  const ended = await launchExaminee(command, {
    env,
    deadlineMs: Math.min(untilExpiry, ctx.timeoutMs ?? Infinity),
    signal: ctx.signal,
    cwd: ctx.cwd,
    tickMs: HEARTBEAT_MS,
    onTick: () => api.request("POST", `/v1/sandboxes/${sessionId}/heartbeat`).catch((err) => out.warn(`heartbeat failed: ${err.message}`)),
  });
  if (ended.spawnError) {
    await api
      .deleteSandbox(sessionId, { discard: true })
      .catch((err) => out.warn(`could not discard sandbox ${sessionId}: ${err.message}`));
    throw new CliError(`Could not start the examinee \`${command.join(" ")}\`: ${ended.spawnError.message}`, EXIT.EXAMINEE, {
      command,
    });
  }
  const ran = `${ended.stopReason}, exit ${ended.exitCode}, after ${(ended.durationMs / 1000).toFixed(1)}s`;
  step(`examinee ended: ${ran}; finalizing`);
  const result = await api.post(
    `/v1/sandboxes/${sessionId}/finalize`,
    {
      criteria: ctx.criteria,
      stop_reason: ended.stopReason,
      exit_code: ended.exitCode,
      ...(ended.signal ? { exit_signal: ended.signal } : {}),
      ...(ended.stderrTail ? { stderr_tail: ended.stderrTail } : {}),
      duration_ms: ended.durationMs,
      agent_model: ctx.agentModel,
      agent_sdk: "pome-cli",
      ...(ctx.agentVersion ? { agent_version: ctx.agentVersion } : {}),
      ...(task.name ? { scenario_name: task.name.slice(0, 200) } : {}),
      scenario_prompt: task.prompt.slice(0, 20_000),
      ...(ctx.baselineGroupId ? { baseline_group_id: ctx.baselineGroupId } : {}),
    },
    { timeoutMs: 180_000 },
  );
  // The server's verdict decides: a score of 100 over an unbound criterion is incomplete, not passed.
  const outcome = ctx.trialOutcome(result.score ?? null, task.config.passScore, result.verdict);
  const why = result.verdict_reason ? ` (${result.verdict_reason})` : "";
  const line = `run ${result.run_id}: score ${result.score ?? "n/a"} → ${outcome}${why}`;
  out.progress(`${tag}${line}${ctx.verbose ? "" : `; examinee ${ran}`}`);
  return {
    trial,
    session_id: sessionId,
    run_id: result.run_id,
    score: result.score ?? null,
    passed: outcome === "passed",
    outcome,
    verdict_reason: result.verdict_reason ?? null,
    exit_code: ended.exitCode,
    duration_ms: ended.durationMs,
    stop_reason: ended.stopReason,
    criteria_results: result.criteria_results ?? [],
    dashboard_url: result.dashboard_url ?? null,
  };
}
