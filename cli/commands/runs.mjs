// pome runs [--group-id G] [--task-name T] [--limit N]
import { intOption, parseCommandLine } from "../lib/args.mjs";
import { EXIT, usageError } from "../lib/errors.mjs";
import { table } from "../lib/output.mjs";

export const OPTIONS = { "group-id": { type: "string" }, "task-name": { type: "string" }, limit: { type: "string" } };

export const HELP = `pome runs [--group-id G] [--task-name T] [--limit N]

Lists runs, newest first. --group-id reads one trial group back.`;

export async function run(argv, ctx) {
  const { values, positionals } = parseCommandLine(argv, OPTIONS);
  if (positionals.length) throw usageError(`pome runs takes no arguments (got "${positionals[0]}")`);
  const runs = await ctx.api.get("/v1/runs", { group_id: values["group-id"], task_name: values["task-name"], limit: intOption(values, "limit", { max: 200 }) });
  const rows = runs.map((r) => [r.id, r.created_at, r.satisfaction_score ?? "n/a", r.group_id, r.agent_model, r.task_name]);
  ctx.out.result(runs.length ? table(["run", "created", "score", "group", "model", "task"], rows) : "No runs.", runs);
  return EXIT.OK;
}
