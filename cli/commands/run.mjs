// pome run <task.md> [--runs N] [--agent-version V] [--agent-model M] [--group-id G] -- <examinee command>
import { intOption, parseCommandLine } from "../lib/args.mjs";
import { refuseUnbound } from "../lib/binding.mjs";
import { apiLine } from "../lib/config.mjs";
import { EXIT, usageError } from "../lib/errors.mjs";
import { percent, table } from "../lib/output.mjs";
import { runTrials } from "../lib/run-trials.mjs";
import { statsText } from "../lib/stats.mjs";
import { loadTask, taskModules } from "../lib/task-file.mjs";
import { newGroupId } from "../lib/trials.mjs";

export const OPTIONS = {
  runs: { type: "string" },
  "agent-version": { type: "string" },
  "agent-model": { type: "string" },
  "group-id": { type: "string" },
  timeout: { type: "string" },
  concurrency: { type: "string" },
  "allow-unbound": { type: "boolean" },
};

export const HELP = `pome run <task.md> [options] -- <examinee command...>

Creates a sandbox from the task, runs the examinee with the sandbox in its environment, finalizes
the moment it exits, and prints the report. With several trials, all share one group id and the
pass rate is compared with the task's passThreshold.

Options:
  --runs N             trials to run (default: the task's \`runs\`, else 1)
  --agent-version V    version label stamped on the runs (default: pome.json agent.version)
  --agent-model M      model the examinee uses (default: $POME_AGENT_MODEL, pome.json agent.model, "unknown")
  --group-id G         reuse a group id (a pre-fix retry of the same exam); default: a new grp_…
  --timeout SECONDS    stop the examinee after this long (it is always stopped 30 s before the sandbox expires)
  --concurrency N      run N trials at once (default 1), never more than the team's quota of open
                       sandboxes; each trial then prints one line when it is graded
  --allow-unbound      run even though some [code] criteria bind no check (the run is then incomplete)

The task is validated first: a [code] criterion that binds no check is refused before any
sandbox starts (exit 2), naming the nearest checks, unless --allow-unbound.

The examinee gets: POME_<TWIN>_REST_URL, POME_<TWIN>_MCP_URL, POME_<TWIN>_OPENAPI_URL,
POME_<TWIN>_TOKEN (the provider-shaped credential), POME_AUTH_TOKEN,
POME_SESSION_ID, POME_EXPIRES_AT, POME_TWINS, POME_TASK_PROMPT, POME_TASK_NAME, POME_GROUP_ID,
POME_TRIAL, POME_TRIALS. It never gets POME_API_KEY.

Exit (docs/tasks.md): 0 passed (the pass rate met the threshold), 1 failed (the agent's doing,
a crash or a timeout included), 2 usage (or a task whose [code] criteria do not all bind),
3 API, 4 the examinee did not start, 5 incomplete (not fully graded: an unbound criterion, a
configured judge that failed), 6 errored (nothing could be graded), 130 interrupted.`;

/** The exit code of a set of trials' verdict: a CI can tell the agent's failure from the task's or the grader's. */
export function exitForVerdict(verdict) {
  if (verdict === "passed") return EXIT.OK;
  if (verdict === "incomplete") return EXIT.INCOMPLETE;
  if (verdict === "errored") return EXIT.ERRORED;
  return EXIT.FAILED;
}

export function agentModelFrom(values, ctx) {
  return values["agent-model"] || process.env.POME_AGENT_MODEL || ctx.config.agent.model || "unknown";
}

const GROUP_ID = /^[A-Za-z0-9_-]{6,64}$/;

export function checkGroupId(value, option) {
  if (value !== undefined && !GROUP_ID.test(value)) throw usageError(`${option} must be 6–64 of [A-Za-z0-9_-], not "${value}"`);
  return value;
}

/** Prints one run's report, or a table of trials and the pass rate (the whole outcome with --json). */
export async function printOutcome(ctx, outcome) {
  const { out, api } = ctx;
  if (out.json) return out.result("", outcome);
  if (outcome.runs.length === 1) return out.result(await api.text(`/v1/runs/${outcome.runs[0].run_id}/report.md`));
  const rows = outcome.runs.map((t) => [t.trial, t.run_id, t.score ?? "n/a", t.outcome, t.exit_code]);
  const { reliabilityLines } = await statsText();
  out.result(
    [
      `Trials of "${outcome.task ?? "task"}" in group ${outcome.group_id}`,
      "",
      table(["#", "run", "score", "result", "exit"], rows),
      "",
      verdictLine(outcome),
      ...reliabilityLines(outcome.reliability).slice(1),
      "Read a run: pome report <run>",
    ].join("\n"),
  );
}

export function verdictLine(o) {
  const need = o.pass_score === 100 ? "a score of 100" : `a score of at least ${o.pass_score}`;
  const incomplete = o.incomplete_trials ? `; ${o.incomplete_trials} incomplete (not fully graded), not counted` : "";
  const errored = `${incomplete}${o.errored_trials ? `; ${o.errored_trials} errored (nothing graded), not counted` : ""}`;
  const word = (o.verdict ?? (o.passed ? "passed" : "failed")).toUpperCase();
  return `Pass rate ${percent(o.pass_rate)} (${o.passed_trials} of ${o.graded_trials ?? o.trials} graded trials reached ${need}${errored}); threshold ${percent(o.pass_threshold)}: ${word}`;
}

export async function run(argv, ctx) {
  const { values, positionals, rest } = parseCommandLine(argv, OPTIONS);
  if (positionals.length !== 1) throw usageError("pome run takes one task file: pome run <task.md> -- <examinee command>");
  if (!rest.length) throw usageError("Give the examinee's command after `--`, e.g. pome run task.md -- node agent.mjs");
  const { markdown, task } = await loadTask(positionals[0], ctx.api);
  const { wire } = await taskModules();
  const runs = intOption(values, "runs", { max: 50 }) ?? task.config.runs ?? 1;
  const timeout = intOption(values, "timeout", { max: 24 * 3600 });
  // Say which server grades the run before anything else: a run "passed" elsewhere is no pass.
  ctx.out.progress(apiLine(ctx.config));
  await refuseUnbound(ctx, positionals[0], task, values["allow-unbound"] === true);
  const outcome = await runTrials({
    api: ctx.api,
    out: ctx.out,
    task,
    markdown,
    criteria: wire.criteriaForFinalize(task),
    command: rest,
    runs,
    groupId: checkGroupId(values["group-id"], "--group-id") ?? newGroupId(),
    agentVersion: values["agent-version"] || ctx.config.agent.version,
    agentModel: agentModelFrom(values, ctx),
    timeoutMs: timeout === undefined ? undefined : timeout * 1000,
    concurrency: intOption(values, "concurrency", { max: 50 }) ?? 1,
  });
  await printOutcome(ctx, outcome);
  if (outcome.runs.length === 1) ctx.out.progress(verdictLine(outcome));
  if (outcome.interrupted) return EXIT.INTERRUPTED;
  return exitForVerdict(outcome.verdict);
}
