// pome rerun <group_id> [--runs N] [--task task.md] [--agent-version V] -- <examinee command>
import { intOption, parseCommandLine } from "../lib/args.mjs";
import { apiLine } from "../lib/config.mjs";
import { CliError, EXIT, usageError } from "../lib/errors.mjs";
import { percent, table } from "../lib/output.mjs";
import { runTrials } from "../lib/run-trials.mjs";
import { formatTaskError, loadTask, parseTaskSource, taskModules } from "../lib/task-file.mjs";
import { statsText } from "../lib/stats.mjs";
import { criterionFlips, newGroupId } from "../lib/trials.mjs";
import { agentModelFrom, checkGroupId, exitForVerdict, verdictLine } from "./run.mjs";

export const OPTIONS = {
  runs: { type: "string" },
  task: { type: "string" },
  "agent-version": { type: "string" },
  "agent-model": { type: "string" },
  timeout: { type: "string" },
  concurrency: { type: "string" },
};

export const HELP = `pome rerun <group_id> [options] -- <examinee command...>

Re-runs the task of a baseline group after a fix, as a new group linked to it by
baseline_group_id, and prints every criterion whose status changed.

Options:
  --runs N             trials (default: as many as the baseline group has)
  --task FILE          the task file (default: the task the baseline's sandbox was started with)
  --agent-version V    the fixed agent's version: bump it, the rerun is a different agent
  --agent-model M      as for pome run
  --timeout SECONDS    as for pome run
  --concurrency N      as for pome run: N trials at once

Exit: 0 the rerun met the task's threshold, 1 it did not, 2 usage, 3 API, 4 examinee did not start.`;

async function baselineTask(ctx, runs, file) {
  if (file) return loadTask(file, ctx.api);
  const { markdown: parser } = await taskModules();
  const sandbox = await ctx.api.get(`/v1/sandboxes/${runs[0].session_id}`);
  const markdown = sandbox.task_markdown;
  if (!markdown) throw usageError(`The baseline's sandbox ${runs[0].session_id} kept no task; pass the file with --task`);
  const parsed = await parseTaskSource(markdown, ctx.api);
  const errors = parsed.ok ? parser.missingForRun(parsed.task) : parsed.errors;
  if (errors.length)
    throw usageError(
      `The baseline's task does not parse any more; pass the file with --task:\n${errors.map((e) => `  ${formatTaskError("task", e)}`).join("\n")}`,
    );
  return { markdown, task: parsed.task };
}

/** The baseline's pass rate against the rerun's, and whether the difference is beyond the noise. */
export function changeLine(comparison) {
  const rate = (r) => (r.pass_rate === null ? "n/a" : percent(Math.round(r.pass_rate * 10000) / 100));
  const points =
    comparison.pass_rate_change === null
      ? ""
      : ` (${comparison.pass_rate_change >= 0 ? "+" : ""}${Math.round(comparison.pass_rate_change * 1000) / 10} points)`;
  const test = comparison.test
    ? comparison.test.significant
      ? `; Fisher's exact test p = ${comparison.test.p_value.toFixed(3)}: larger than the noise`
      : `; Fisher's exact test p = ${comparison.test.p_value.toFixed(3)}: within the noise of ${comparison.baseline.graded} against ${comparison.rerun.graded} trials`
    : "";
  return `Against baseline ${comparison.baseline_group_id}: ${rate(comparison.baseline)} → ${rate(comparison.rerun)}${points}${test}`;
}

export async function run(argv, ctx) {
  const { values, positionals, rest } = parseCommandLine(argv, OPTIONS);
  if (positionals.length !== 1) throw usageError("pome rerun takes the baseline group id: pome rerun <group_id> -- <examinee command>");
  if (!rest.length) throw usageError("Give the examinee's command after `--`, e.g. pome rerun grp_… -- node agent.mjs");
  const baselineGroup = checkGroupId(positionals[0], "the group id");
  ctx.out.progress(apiLine(ctx.config));
  const baseline = await ctx.api.get("/v1/runs", { group_id: baselineGroup, limit: 200 });
  if (!Array.isArray(baseline) || !baseline.length) throw new CliError(`Group ${baselineGroup} has no runs to compare with`, EXIT.USAGE);
  const { markdown, task } = await baselineTask(ctx, baseline, values.task);
  const { wire } = await taskModules();
  const timeout = intOption(values, "timeout", { max: 24 * 3600 });

  ctx.out.progress(`baseline ${baselineGroup}: ${baseline.length} run(s) of "${baseline[0].task_name ?? task.name ?? "task"}"`);
  const outcome = await runTrials({
    api: ctx.api,
    out: ctx.out,
    task,
    markdown,
    criteria: wire.criteriaForFinalize(task),
    command: rest,
    runs: intOption(values, "runs", { max: 50 }) ?? baseline.length,
    groupId: newGroupId(),
    baselineGroupId: baselineGroup,
    agentVersion: values["agent-version"] || ctx.config.agent.version,
    agentModel: agentModelFrom(values, ctx),
    timeoutMs: timeout === undefined ? undefined : timeout * 1000,
    concurrency: intOption(values, "concurrency", { max: 50 }) ?? 1,
  });
  const before = await Promise.all(baseline.map((r) => ctx.api.get(`/v1/runs/${r.id}`)));
  const flips = criterionFlips(before, outcome.runs);
  const changed = flips.filter((f) => f.changed);
  // The server's comparison: the same flips, and whether the change is larger than the noise.
  const comparison = outcome.runs.length
    ? await ctx.api.get(`/v1/groups/${encodeURIComponent(outcome.group_id)}/compare`, { baseline: baselineGroup })
    : null;
  const result = { ...outcome, flips, comparison };
  const { reliabilityLines } = await statsText();
  // Each fact once: the criteria that changed (one table), the rerun's pass rate and verdict (one
  // line), the change against the baseline with its significance, then the rest of the reliability.
  const lines = [
    `Rerun of ${baselineGroup} as ${outcome.group_id}`,
    "",
    changed.length
      ? table(
          ["before", "after", "criterion"],
          changed.map((f) => [f.before, f.after, f.text]),
        )
      : "No criterion changed status.",
    "",
    verdictLine(outcome),
    ...(comparison ? [changeLine(comparison), ...reliabilityLines(comparison.rerun).slice(1)] : []),
  ];
  ctx.out.result(lines.join("\n"), result);
  if (outcome.interrupted) return EXIT.INTERRUPTED;
  return exitForVerdict(outcome.verdict);
}
