// pome report <run_id>
import { parseCommandLine } from "../lib/args.mjs";
import { EXIT, usageError } from "../lib/errors.mjs";

export const HELP = `pome report <run_id>

Prints the run's markdown report (with --json, the whole run).`;

export async function run(argv, ctx) {
  const { positionals } = parseCommandLine(argv);
  if (positionals.length !== 1) throw usageError("pome report takes one run id: pome report <run_id>");
  const id = encodeURIComponent(positionals[0]);
  if (ctx.out.json) ctx.out.result("", await ctx.api.get(`/v1/runs/${id}`));
  else ctx.out.result(await ctx.api.text(`/v1/runs/${id}/report.md`));
  return EXIT.OK;
}
