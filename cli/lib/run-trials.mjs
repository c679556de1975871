// The `pome run` loop, shared with `pome rerun`: for each trial, create a sandbox from the task,
// launch the examinee with the sandbox in its environment, and finalize the moment it exits.
import { randomUUID } from "node:crypto";
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
 *   cwd?: string,
 * }} opts
 * `cwd`: where the examinee runs (an oracle agent runs from its task file's folder); default ours.
 */
export async function runTrials(opts) {
  const { api, out, task, command } = opts;
  const twins = task.config.twins;
  const label = task.name ?? "task";
  const { reliability, trialOutcome } = await statsReliability();
  const trials = [];
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
  try {
    for (let trial = 1; trial <= opts.runs && !interrupt.signal.aborted; trial++) {
      const tag = opts.runs > 1 ? `[${trial}/${opts.runs}] ` : "";
      out.progress(`${tag}creating a sandbox for "${label}" (${twins.join(", ")})`);
      const sandbox = await api.post("/v1/sandboxes", {
        twins,
        task_source: toBase64(opts.markdown),
        group_id: opts.groupId,
        idempotency_key: randomUUID(),
        ...(opts.agentVersion ? { agent_version: opts.agentVersion } : {}),
      });
      const sessionId = sandbox.session_id;
      const untilExpiry = Date.parse(sandbox.expires_at) - Date.now() - EXPIRY_MARGIN_MS;
      out.progress(`${tag}sandbox ${sessionId} is ready; launching: ${command.join(" ")}`);
      const env = await examineeEnv(process.env, sandbox, {
        prompt: task.prompt,
        name: task.name,
        twins,
        groupId: opts.groupId,
        trial,
        trials: opts.runs,
      });
      const ended = await launchExaminee(command, {
        env,
        deadlineMs: Math.min(untilExpiry, opts.timeoutMs ?? Infinity),
        signal: interrupt.signal,
        cwd: opts.cwd,
        tickMs: HEARTBEAT_MS,
        onTick: () =>
          api.request("POST", `/v1/sandboxes/${sessionId}/heartbeat`).catch((err) => out.warn(`heartbeat failed: ${err.message}`)),
      });
      if (ended.spawnError) {
        await api
          .deleteSandbox(sessionId, { discard: true })
          .catch((err) => out.warn(`could not discard sandbox ${sessionId}: ${err.message}`));
        throw new CliError(`Could not start the examinee \`${command.join(" ")}\`: ${ended.spawnError.message}`, EXIT.EXAMINEE, {
          command,
        });
      }
      out.progress(
        `${tag}examinee ended: ${ended.stopReason}, exit ${ended.exitCode}, after ${(ended.durationMs / 1000).toFixed(1)}s; finalizing`,
      );
      const result = await api.post(
        `/v1/sandboxes/${sessionId}/finalize`,
        {
          criteria: opts.criteria,
          stop_reason: ended.stopReason,
          exit_code: ended.exitCode,
          ...(ended.signal ? { exit_signal: ended.signal } : {}),
          ...(ended.stderrTail ? { stderr_tail: ended.stderrTail } : {}),
          duration_ms: ended.durationMs,
          agent_model: opts.agentModel,
          agent_sdk: "pome-cli",
          ...(opts.agentVersion ? { agent_version: opts.agentVersion } : {}),
          ...(task.name ? { scenario_name: task.name.slice(0, 200) } : {}),
          scenario_prompt: task.prompt.slice(0, 20_000),
          ...(opts.baselineGroupId ? { baseline_group_id: opts.baselineGroupId } : {}),
        },
        { timeoutMs: 180_000 },
      );
      // The server's verdict decides: a score of 100 over an unbound criterion is incomplete, not passed.
      const outcome = trialOutcome(result.score ?? null, task.config.passScore, result.verdict);
      const passed = outcome === "passed";
      const why = result.verdict_reason ? ` (${result.verdict_reason})` : "";
      out.progress(`${tag}run ${result.run_id}: score ${result.score ?? "n/a"} → ${outcome}${why}`);
      trials.push({
        trial,
        session_id: sessionId,
        run_id: result.run_id,
        score: result.score ?? null,
        passed,
        outcome,
        verdict_reason: result.verdict_reason ?? null,
        exit_code: ended.exitCode,
        duration_ms: ended.durationMs,
        stop_reason: ended.stopReason,
        criteria_results: result.criteria_results ?? [],
        dashboard_url: result.dashboard_url ?? null,
      });
    }
  } finally {
    process.off("SIGINT", onSigint);
  }
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
