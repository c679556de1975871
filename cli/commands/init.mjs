// pome init [file] [--twin <id>] [--name "Title"] [--force]
import { existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseCommandLine } from "../lib/args.mjs";
import { EXIT, usageError } from "../lib/errors.mjs";

export const OPTIONS = { twin: { type: "string" }, name: { type: "string" }, force: { type: "boolean", default: false } };

export const HELP = `pome init [file] [--twin <id>] [--name "Title"] [--force]

Writes a task file to start from (default: task.md): config, prompt, a seed and criteria that
bind, for one twin (default: the server's default twin, from GET /v1/twins). Edit it, then
validate it (\`npx pome validate\` in the repository). An existing file is kept unless --force.`;

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const TWINS_DIR = path.join(ROOT, "durable-objects/twins");
const EXAMPLES_DIR = path.join(ROOT, "examples/tasks");

/**
 * The starting file for a twin: the template its folder ships, else the first example task that
 * uses that twin alone, so a twin is scaffolded the day it lands without a line here.
 */
function starterFor(twin) {
  if (!/^[a-z][a-z0-9-]*$/.test(twin) || !existsSync(path.join(TWINS_DIR, twin, "index.ts")))
    throw usageError(`--twin: "${twin}" is not a twin of this platform (GET /v1/twins lists them)`);
  const template = path.join(TWINS_DIR, twin, "task-template.md");
  if (existsSync(template)) return readFileSync(template, "utf8");
  const only = new RegExp(`^twins:\\s*\\[\\s*${twin}\\s*\\]\\s*$`, "m");
  for (const file of readdirSync(EXAMPLES_DIR)
    .filter((f) => f.endsWith(".md"))
    .sort()) {
    const text = readFileSync(path.join(EXAMPLES_DIR, file), "utf8");
    if (only.test(text)) return text;
  }
  throw usageError(`The ${twin} twin has no task template or example yet; write the file by hand (see \`pome checks ${twin}\`)`);
}

/**
 * How to run pome from `cwd` on a fresh clone, where it is not on the PATH: `npx pome` inside the
 * repository (npm finds its bin), else node with the path to this CLI.
 */
export function pomeCommand(cwd) {
  const fromRoot = path.relative(ROOT, path.resolve(cwd));
  if (!fromRoot.startsWith("..") && !path.isAbsolute(fromRoot)) return "npx pome";
  const cli = path.relative(cwd, path.join(ROOT, "cli", "pome.mjs"));
  return `node ${/\s/.test(cli) ? JSON.stringify(cli) : cli}`;
}

export async function run(argv, ctx) {
  const { values, positionals } = parseCommandLine(argv, OPTIONS);
  if (positionals.length > 1) throw usageError("pome init takes at most one file name");
  const file = positionals[0] ?? "task.md";
  if (existsSync(file) && !values.force) throw usageError(`${file} already exists; choose another name or pass --force`);
  const name = values.name?.trim();
  if (name !== undefined && (!name || /[\r\n]/.test(name))) throw usageError("--name must be one non-empty line");
  const twin = values.twin ?? (await ctx.api.get("/v1/twins")).default;
  let text = starterFor(twin);
  if (name) text = text.replace(/^# .*$/m, `# ${name}`);
  writeFileSync(file, text);
  const pome = pomeCommand(process.cwd());
  ctx.out.result(`Wrote ${file} (${twin}). Next: edit it, then \`${pome} validate ${file}\` and \`${pome} run ${file} -- <your agent>\`.`, {
    file,
    twin,
    next: [`${pome} validate ${file}`, `${pome} run ${file} -- <your agent>`],
  });
  return EXIT.OK;
}
