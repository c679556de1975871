// pome validate <task.md> [--offline | --oracle]
import { parseCommandLine } from "../lib/args.mjs";
import { ApiResponseError } from "../lib/api.mjs";
import { bindTask, subjectWarnings, unboundLines } from "../lib/binding.mjs";
import { CliError, EXIT, usageError } from "../lib/errors.mjs";
import { missingRoles, runOracle } from "../lib/oracle.mjs";
import { formatTaskError, readText, parseTaskSource, taskModules } from "../lib/task-file.mjs";

export const OPTIONS = { offline: { type: "boolean", default: false }, oracle: { type: "boolean", default: false } };

export const HELP = `pome validate <task.md> [--offline | --oracle]

Checks a task file: it parses, it has a prompt and criteria, its seed boots on each twin (the
twins' own parsers, via POST /v1/seeds/validate) and every [code] criterion binds to a declared
check (POST /v1/checks/bind). Parsing runs locally; --offline skips the server and binds the
criteria with the grader's own binding code against the vocabulary \`pome checks\` last fetched
(or the one the CLI ships).

--oracle then runs the task's oracle pair, as \`pome run\` would, once each: the agent its Config
names as \`reference:\` must pass and the one named \`naive:\` must fail (incomplete or errored
does not count as failing). Their commands run from the task file's folder; a leading \`node\` is
the Node running pome. A task that is not valid, or declares no pair, runs nothing.

Exit: 0 valid (and, with --oracle, the reference passed and the naive agent failed), 1 not valid
or an oracle agent got the wrong verdict, 2 usage, 3 API unreachable or refused.`;

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
  if (values.offline && values.oracle) throw usageError("--oracle runs agents against the server; it cannot be --offline");
  const { markdown: parser, wire } = await taskModules();
  const source = readText(file);
  const parsed = await parseTaskSource(source, ctx.api);
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
  // Valid, but bound to fail: a subject the seed lacks that the agent could not create.
  const subjects = await subjectWarnings(task);
  for (const w of subjects) ctx.out.warn(w.message);
  if (subjects.length)
    note(false, `${subjects.length} criteri${subjects.length === 1 ? "on names a subject" : "a name subjects"} the seed does not have`);
  if (values.offline) {
    // The grader's binding code, against the vocabulary last fetched or shipped: a typo is caught offline too.
    const rows = await bindTask(task, { api: ctx.api, offline: true });
    for (const line of unboundLines(file, rows)) problems.push({ kind: "criteria", message: line });
    const sources = [...new Set(rows.map((r) => r.source))];
    note(
      rows.every((r) => r.check_id),
      `offline: ${rows.filter((r) => r.check_id).length} of ${rows.length} [code] criteria bind (vocabulary ${sources.join(", ") || "not needed"}); the seed was not checked against the server`,
    );
    return report(ctx, file, problems, checks);
  }

  if (seed !== undefined) {
    const outcome = await serverCheck(() => ctx.api.post("/v1/seeds/validate", { twins: task.config.twins, seed }));
    if (outcome.ok) note(true, `seed boots on ${outcome.value.checked.join(", ")}`);
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
  if (!values.oracle) return report(ctx, file, problems, checks);
  return oracle(ctx, { file, task, source, criteria: wire.criteriaForFinalize(task), problems, checks });
}

/** --oracle: the pair runs only on a task that is otherwise valid; each wrong verdict is a problem. */
async function oracle(ctx, { file, task, source, criteria, problems, checks }) {
  const missing = missingRoles(task);
  if (missing.length)
    problems.push({
      kind: "oracle",
      message: `${file}: Config declares no ${missing.join(" and no ")} agent (e.g. ${missing.map((r) => `${r}: node ../agents/<task>${r === "naive" ? "-naive" : ""}.mjs`).join(", ")})`,
    });
  if (problems.length) return report(ctx, file, problems, checks, []);
  const results = await runOracle({ api: ctx.api, out: ctx.out, task, markdown: source, criteria, taskFile: file });
  for (const r of results) {
    const what = `oracle: the ${r.role} agent ${r.verdict}${r.run_id ? ` (run ${r.run_id}, score ${r.score ?? "n/a"})` : ""}`;
    note(checks, ctx, r.ok, r.ok ? `${what}, as it must` : `${what}; it must be ${r.expected}`);
    if (!r.ok)
      problems.push({
        kind: "oracle",
        message: `${file}: the ${r.role} agent (${r.command}) ended ${r.verdict}, not ${r.expected}${r.verdict_reason ? `: ${r.verdict_reason}` : ""}${r.run_id ? `; read it: pome report ${r.run_id}` : ""}`,
      });
  }
  return report(ctx, file, problems, checks, results);
}

function note(checks, ctx, ok, what) {
  checks.push({ ok, what });
  ctx.out.progress(`${ok ? "✓" : "✗"} ${what}`);
}

function report(ctx, file, problems, checks, oracleResults) {
  const valid = problems.length === 0;
  const pair = oracleResults?.length ? " Its reference agent passed and its naive agent failed." : "";
  const text = valid ? `${file} is valid.${pair}` : `${file} is not valid:\n${problems.map((p) => `  ${p.message}`).join("\n")}`;
  if (ctx.out.json) ctx.out.result("", { file, valid, problems, checks, ...(oracleResults ? { oracle: oracleResults } : {}) });
  else if (valid) ctx.out.result(text);
  else throw new CliError(text, EXIT.FAILED);
  return valid ? EXIT.OK : EXIT.FAILED;
}
