// pome validate <task.md> [--offline]
import { parseCommandLine } from "../lib/args.mjs";
import { ApiResponseError } from "../lib/api.mjs";
import { CliError, EXIT, usageError } from "../lib/errors.mjs";
import { formatTaskError, readText, parseTaskSource, taskModules } from "../lib/task-file.mjs";

export const OPTIONS = { offline: { type: "boolean", default: false } };

export const HELP = `pome validate <task.md> [--offline]

Checks a task file: it parses, it has a prompt and criteria, its seed boots on each twin (the
twins' own parsers, via POST /v1/seeds/validate) and every [code] criterion binds to a declared
check (POST /v1/checks/bind). Parsing runs locally; --offline skips the two server checks.

Exit: 0 valid, 1 not valid, 2 usage, 3 API unreachable or refused.`;

/** Runs a server check; a refusal of the input is a finding, anything else is an API error. */
async function serverCheck(fn) {
  try {
    return { ok: true, value: await fn() };
  } catch (err) {
    if (err instanceof ApiResponseError && err.status === 422) return { ok: false, error: err };
    throw err;
  }
}

export async function run(argv, ctx) {
  const { values, positionals } = parseCommandLine(argv, OPTIONS);
  if (positionals.length !== 1) throw usageError("pome validate takes one task file: pome validate <task.md>");
  const file = positionals[0];
  const { markdown: parser, wire } = await taskModules();
  const parsed = await parseTaskSource(readText(file), ctx.api);
  const problems = [];
  const checks = [];
  const note = (ok, what) => {
    checks.push({ ok, what });
    ctx.out.progress(`${ok ? "✓" : "✗"} ${what}`);
  };
  if (!parsed.ok) {
    for (const e of parsed.errors) problems.push({ kind: "parse", message: formatTaskError(file, e), line: e.line ?? null });
    note(false, `${file} does not parse`);
    return report(ctx, file, problems, checks);
  }
  const task = parsed.task;
  note(true, `${file} parses: "${task.name ?? "untitled"}", twins ${task.config.twins.join(", ")}, ${task.criteria.length} criteria`);
  for (const e of parser.missingForRun(task)) problems.push({ kind: "incomplete", message: formatTaskError(file, e) });

  let seed;
  if (task.seed) {
    const converted = wire.seedForRequest(task.seed, task.config.twins);
    if (converted.error) problems.push({ kind: "seed", message: `${file}: Seed State: ${converted.error}` });
    else seed = converted.found ? converted.seed : undefined;
  }
  if (values.offline) {
    note(true, "offline: the seed and the criteria binding were not checked against the server");
    return report(ctx, file, problems, checks);
  }

  if (seed !== undefined) {
    const outcome = await serverCheck(() => ctx.api.post("/v1/seeds/validate", { twins: task.config.twins, seed }));
    if (outcome.ok)
      note(
        true,
        `seed boots on ${outcome.value.checked.join(", ") || "no checked twin"}${outcome.value.unchecked?.length ? ` (not checked: ${outcome.value.unchecked.join(", ")})` : ""}`,
      );
    else {
      const issues = outcome.error.apiDetails?.issues ?? [];
      problems.push({ kind: "seed", message: `${file}: Seed State: ${outcome.error.serverMessage}`, issues });
      note(false, "seed does not boot");
    }
  }

  const byTwin = new Map();
  task.criteria.forEach((c, index) => {
    if (c.kind !== "code") return;
    const twin = c.twin ?? task.config.twins[0];
    byTwin.set(twin, [...(byTwin.get(twin) ?? []), { index, text: c.text, alwaysScored: c.alwaysScored === true }]);
  });
  for (const [twin, items] of byTwin) {
    // A seed that does not boot is already reported; the binding is then checked on its own.
    const seedBroken = problems.some((p) => p.kind === "seed");
    const twinSeed = seedBroken ? undefined : task.seed?.[twin];
    const outcome = await serverCheck(() =>
      ctx.api.post("/v1/checks/bind", {
        twin,
        texts: items.map((i) => i.text),
        ...(twinSeed === undefined ? {} : { seed: twinSeed }),
        always_scored: items.flatMap((item, i) => (item.alwaysScored ? [i] : [])),
      }),
    );
    if (!outcome.ok) {
      problems.push({ kind: "criteria", message: `${file}: ${twin}: ${outcome.error.serverMessage}` });
      continue;
    }
    outcome.value.results.forEach((result, i) => {
      // Valid, but it will not count: say so while the author can still change it.
      if (result.already_true_in_seed && !seedBroken) ctx.out.warn(`criterion c${items[i].index + 1}: ${result.warning}`);
      if (result.check_id) return;
      const nearest = (result.nearest ?? []).map((n) => `\n      nearest: ${n}`).join("");
      problems.push({
        kind: "criteria",
        message: `${file}: criterion ${items[i].index + 1} binds no ${twin} check: "${items[i].text}"${nearest}`,
        nearest: result.nearest ?? [],
      });
    });
    const bound = outcome.value.results.filter((r) => r.check_id).length;
    note(bound === items.length, `${bound} of ${items.length} [code] criteria bind to ${twin} checks`);
  }
  return report(ctx, file, problems, checks);
}

function report(ctx, file, problems, checks) {
  const valid = problems.length === 0;
  const text = valid ? `${file} is valid.` : `${file} is not valid:\n${problems.map((p) => `  ${p.message}`).join("\n")}`;
  if (ctx.out.json) ctx.out.result("", { file, valid, problems, checks });
  else if (valid) ctx.out.result(text);
  else throw new CliError(text, EXIT.FAILED);
  return valid ? EXIT.OK : EXIT.FAILED;
}
