// pome grade <evidence folder> <task.md>
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { parseCommandLine } from "../lib/args.mjs";
import { CliError, EXIT, usageError } from "../lib/errors.mjs";
import { loadGrader } from "../lib/grader.mjs";
import { readText } from "../lib/task-file.mjs";
import { exitForVerdict } from "./run.mjs";

export const HELP = `pome grade <evidence folder> <task.md>

Grades a run's downloaded evidence offline, with the code the server grades with (no server, no
key): the folder holds events.jsonl, state_initial.<twin>.json and state_final.<twin>.json, as
\`pome trace <run_id> --evidence DIR\` downloads them (and run.json, how the examinee ended; without
it the examinee is taken to have exited 0). [code] criteria are graded; [model] criteria are
excluded, since there is no judge offline, and the verdict says so. Prints the same report as
\`pome report\` (with --json, the run as GET /v1/runs/:id returns it).

The first use builds the grader with esbuild into node_modules/.cache/pome/grader.mjs; it is
rebuilt when a grading source is newer.

Exit: as pome run (docs/tasks.md): 0 passed, 1 failed, 5 incomplete, 6 errored, 2 usage (a folder
without events.jsonl, a task that does not parse), 3 esbuild missing.`;

const STATE_FILE = /^state_(initial|final)\.([a-z0-9_-]+)\.json$/;

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch (err) {
    throw usageError(`${file} is not JSON: ${err.message}`);
  }
}

/** The evidence folder as the grader reads it: the tape, the states by twin, how the run ended. */
export function readEvidenceFolder(dir) {
  if (!existsSync(dir)) throw usageError(`${dir}: no such folder`);
  const tapeFile = path.join(dir, "events.jsonl");
  if (!existsSync(tapeFile))
    throw usageError(`${dir} holds no events.jsonl; download a run's evidence with pome trace <run_id> --evidence ${dir}`);
  const initial = {};
  const final = {};
  for (const name of readdirSync(dir)) {
    const match = STATE_FILE.exec(name);
    if (!match) continue;
    (match[1] === "initial" ? initial : final)[match[2]] = readJson(path.join(dir, name));
  }
  const runFile = path.join(dir, "run.json");
  const run = existsSync(runFile) ? readJson(runFile) : {};
  return { tapeText: readFileSync(tapeFile, "utf8"), initial, final, run };
}

export async function run(argv, ctx) {
  const { positionals } = parseCommandLine(argv);
  if (positionals.length !== 2)
    throw usageError("pome grade takes an evidence folder and a task file: pome grade <evidence folder> <task.md>");
  const [dir, taskFile] = positionals;
  const evidence = readEvidenceFolder(dir);
  const markdown = readText(taskFile);
  ctx.out.progress("Grading offline with the server's grading code ([model] criteria excluded: no judge offline)");
  const { gradeOffline } = await loadGrader();
  const graded = await gradeOffline({ markdown, ...evidence, folder: path.resolve(dir) });
  if (!graded.ok)
    throw new CliError(`${taskFile} cannot grade ${dir}:\n${graded.problems.map((p) => `  ${p}`).join("\n")}`, EXIT.USAGE, {
      problems: graded.problems,
    });
  ctx.out.result(graded.report, graded.view);
  ctx.out.progress(`Verdict: ${graded.view.verdict} (${graded.view.verdict_reason})`);
  return exitForVerdict(graded.view.verdict);
}
