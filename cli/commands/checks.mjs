// pome checks <twin> [--task <task.md>]
import { parseCommandLine } from "../lib/args.mjs";
import { cacheVocabulary } from "../lib/binding.mjs";
import { EXIT, usageError } from "../lib/errors.mjs";
import { table } from "../lib/output.mjs";
import { loadTask } from "../lib/task-file.mjs";

export const OPTIONS = { task: { type: "string" } };

export const HELP = `pome checks [<twin>] [--task <task.md>]

Without a twin, lists the twins. With one (its id, lowercase), lists its closed set of [code]
checks: the sentence each one renders, with its parameters.
A [code] criterion must be one of these sentences, filled in.

A criterion the seed already makes true is excluded from the score (an agent that did nothing
would pass it) unless it is marked always_scored: "- [code always_scored] <sentence>".
--task names the task's criteria of this twin that its seed already satisfies.`;

const RULE =
  "A criterion the seed already makes true is excluded from the score unless marked always_scored (- [code always_scored] <sentence>); pome checks <twin> --task <task.md> names them.";

/**
 * Asks the server which of the task's [code] criteria of `twin` its seed already satisfies, the
 * way finalize will decide, and warns about each. Returns the warnings.
 * @param {{ api: import("../lib/api.mjs").PomeApi, out: ReturnType<import("../lib/output.mjs").createOutput> }} ctx
 * @param {import("../../workers/tasks/types.ts").Task} task
 * @param {string} twin
 */
export async function warnTrueInSeed(ctx, task, twin) {
  const items = task.criteria
    .map((c, index) => ({ ...c, index }))
    .filter((c) => c.kind === "code" && (c.twin ?? task.config.twins[0]) === twin);
  if (!items.length) return [];
  const seed = task.seed?.[twin];
  const answer = await ctx.api.post("/v1/checks/bind", {
    twin,
    texts: items.map((c) => c.text),
    ...(seed === undefined ? {} : { seed }),
    always_scored: items.flatMap((c, i) => (c.alwaysScored ? [i] : [])),
  });
  const warnings = [];
  answer.results.forEach((result, i) => {
    if (!result.already_true_in_seed) return;
    const warning = { criterion_id: `c${items[i].index + 1}`, text: items[i].text, twin, message: result.warning };
    warnings.push(warning);
    ctx.out.warn(`criterion ${warning.criterion_id}: ${result.warning}`);
  });
  return warnings;
}

/** `pome checks` with no twin: the twins there are, and how to read one's checks. */
function listTwins(ctx, served) {
  const twins = served.twins ?? [];
  ctx.out.result(
    [
      "Twins and their checks: pome checks <twin>",
      "",
      table(
        ["twin", "name"],
        twins.map((t) => [t.id === served.default ? `${t.id} (default)` : t.id, t.name]),
      ),
    ].join("\n"),
    served,
  );
  return EXIT.OK;
}

/** Twin ids are lowercase and exact: anything else is a usage error naming the ones there are. */
export function knownTwin(name, served) {
  const ids = (served.twins ?? []).map((t) => t.id);
  if (ids.includes(name)) return name;
  const near = ids.find((id) => id === name.toLowerCase());
  throw usageError(
    near
      ? `"${name}" is not a twin: twin ids are lowercase; did you mean ${near}?`
      : `"${name}" is not a twin; the twins are ${ids.join(", ")}`,
  );
}

export async function run(argv, ctx) {
  const { values, positionals } = parseCommandLine(argv, OPTIONS);
  if (positionals.length > 1) throw usageError("pome checks takes one twin: pome checks <twin> (pome checks alone lists them)");
  const served = await ctx.api.get("/v1/twins");
  if (!positionals.length) return listTwins(ctx, served);
  const vocabulary = await ctx.api.get("/v1/checks", { twin: knownTwin(positionals[0], served) });
  const checks = vocabulary.checks ?? [];
  // `pome validate --offline` binds against the vocabulary last fetched.
  if (vocabulary.twin) cacheVocabulary(vocabulary.twin, checks);
  const text = checks.length
    ? [
        `${vocabulary.twin} declares ${checks.length} checks (${vocabulary.digest})`,
        "",
        table(
          ["check", "sentence"],
          checks.map((c) => [c.id, c.template]),
        ),
        "",
        RULE,
      ].join("\n")
    : `${vocabulary.twin} publishes no checks yet: its [code] criteria cannot bind.`;
  const warnings = values.task
    ? await warnTrueInSeed(ctx, (await loadTask(values.task, ctx.api, { requireRunnable: false })).task, vocabulary.twin)
    : [];
  ctx.out.result(text, values.task ? { ...vocabulary, warnings } : vocabulary);
  return EXIT.OK;
}
