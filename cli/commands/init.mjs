// pome init [file] [--name "Title"] [--force]
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseCommandLine } from "../lib/args.mjs";
import { EXIT, usageError } from "../lib/errors.mjs";

export const OPTIONS = { name: { type: "string" }, force: { type: "boolean", default: false } };

export const HELP = `pome init [file] [--name "Title"] [--force]

Writes a task file to start from (default: task.md): config, prompt, a GitHub seed and criteria
that bind. Edit it, then \`pome validate\` it. An existing file is kept unless --force.`;

const TEMPLATE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../templates/task.md");

export async function run(argv, ctx) {
  const { values, positionals } = parseCommandLine(argv, OPTIONS);
  if (positionals.length > 1) throw usageError("pome init takes at most one file name");
  const file = positionals[0] ?? "task.md";
  if (existsSync(file) && !values.force) throw usageError(`${file} already exists; choose another name or pass --force`);
  const name = values.name?.trim();
  if (name !== undefined && (!name || /[\r\n]/.test(name))) throw usageError("--name must be one non-empty line");
  let text = readFileSync(TEMPLATE, "utf8");
  if (name) text = text.replace(/^# .*$/m, `# ${name}`);
  writeFileSync(file, text);
  ctx.out.result(`Wrote ${file}. Next: edit it, then \`pome validate ${file}\` and \`pome run ${file} -- <your agent>\`.`, { file });
  return EXIT.OK;
}
