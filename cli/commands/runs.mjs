// pome runs [--group G] [--task-name T] [--limit N]
import { intOption, parseCommandLine } from "../lib/args.mjs";
import { EXIT, usageError } from "../lib/errors.mjs";
import { table } from "../lib/output.mjs";
import { statsText } from "../lib/stats.mjs";

export const OPTIONS = {
  group: { type: "string" },
  "group-id": { type: "string" },
  "task-name": { type: "string" },
  limit: { type: "string" },
};

export const HELP = `pome runs [--group G] [--task-name T] [--limit N]

Lists runs, newest first. --group (or --group-id) reads one trial group back with
its reliability: the pass rate with its 95% interval, pass^k, incomplete and
errored trials (counted apart) and flaky criteria, as GET /v1/groups/G computes them.
Each run shows its verdict: passed, failed, incomplete or errored (docs/tasks.md).`;

export async function run(argv, ctx) {
  const { values, positionals } = parseCommandLine(argv, OPTIONS);
  if (positionals.length) throw usageError(`pome runs takes no arguments (got "${positionals[0]}")`);
  const group = values.group ?? values["group-id"];
  const runs = await ctx.api.get("/v1/runs", {
    group_id: group,
    task_name: values["task-name"],
    limit: intOption(values, "limit", { max: 200 }),
  });
  // The verdict first: a score of 100 on a run nobody fully graded is no pass (issue 38).
  const rows = runs.map((r) => [
    r.id,
    r.created_at,
    r.verdict ?? "n/a",
    r.satisfaction_score ?? "n/a",
    r.group_id,
    r.agent_version ?? "(undeclared)",
    r.agent_model,
    r.task_name ?? "(no task)",
  ]);
  const listing = runs.length ? table(["run", "created", "verdict", "score", "group", "version", "model", "task"], rows) : "No runs.";
  if (!group || !runs.length) {
    ctx.out.result(listing, runs);
    return EXIT.OK;
  }
  const { runs: _trials, ...reliability } = await ctx.api.get(`/v1/groups/${encodeURIComponent(group)}`);
  const { reliabilityLines } = await statsText();
  ctx.out.result([listing, "", `Reliability of group ${group}:`, ...reliabilityLines(reliability)].join("\n"), {
    group_id: group,
    runs,
    reliability,
  });
  return EXIT.OK;
}
