// pome regrade <run_id> [--task task.md]
import { parseCommandLine } from "../lib/args.mjs";
import { usageError } from "../lib/errors.mjs";
import { table } from "../lib/output.mjs";
import { readText } from "../lib/task-file.mjs";
import { exitForVerdict } from "./run.mjs";

export const OPTIONS = { task: { type: "string" } };

export const HELP = `pome regrade <run_id> [--task task.md]

Grades a stored run again from its evidence (its tape and twin states), with the same code that
graded it, after a task or a check was fixed; nothing runs again. The answer is a new run linked
to the old one (regraded_from), left out of the old run's group, and the criteria that flipped.

Options:
  --task FILE    grade with this (fixed) task file's criteria instead of the run's own

Exit: as pome run (docs/tasks.md): 0 passed, 1 failed, 5 incomplete, 6 errored, 2 usage, 3 API.`;

export async function run(argv, ctx) {
  const { values, positionals } = parseCommandLine(argv, OPTIONS);
  if (positionals.length !== 1) throw usageError("pome regrade takes one run id: pome regrade <run_id> [--task task.md]");
  const body = values.task ? { task_markdown: readText(values.task) } : {};
  const answer = await ctx.api.post(`/v1/runs/${encodeURIComponent(positionals[0])}/regrade`, body, { timeoutMs: 180_000 });
  const flipped = answer.flipped ?? [];
  const changed = flipped.filter((f) => f.before !== f.after);
  const text = [
    `Run ${answer.run_id} re-graded ${answer.regraded_from}: ${answer.verdict} (${answer.verdict_reason})`,
    `Score ${answer.score ?? "n/a"}`,
    "",
    changed.length
      ? table(
          ["criterion", "before", "after", "text"],
          changed.map((f) => [f.id, f.before, f.after, f.text]),
        )
      : "No criterion changed status.",
    "",
    `Read it: pome report ${answer.run_id}`,
  ].join("\n");
  ctx.out.result(text, answer);
  return exitForVerdict(answer.verdict);
}
