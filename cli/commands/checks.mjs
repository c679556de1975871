// pome checks <twin>
import { parseCommandLine } from "../lib/args.mjs";
import { EXIT, usageError } from "../lib/errors.mjs";
import { table } from "../lib/output.mjs";

export const HELP = `pome checks <twin>

Lists the twin's closed set of [code] checks: the sentence each one renders, with its parameters.
A [code] criterion must be one of these sentences, filled in.`;

export async function run(argv, ctx) {
  const { positionals } = parseCommandLine(argv);
  if (positionals.length !== 1) throw usageError("pome checks takes one twin: pome checks github");
  const vocabulary = await ctx.api.get("/v1/checks", { twin: positionals[0] });
  const checks = vocabulary.checks ?? [];
  const text = checks.length
    ? [`${vocabulary.twin} declares ${checks.length} checks (${vocabulary.digest})`, "", table(["check", "sentence"], checks.map((c) => [c.id, c.template]))].join("\n")
    : `${vocabulary.twin} publishes no checks yet: its [code] criteria cannot bind.`;
  ctx.out.result(text, vocabulary);
  return EXIT.OK;
}
