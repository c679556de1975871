// pome tasks [--copy] [--dir D] [--force]
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseCommandLine } from "../lib/args.mjs";
import { EXIT, usageError } from "../lib/errors.mjs";
import { table } from "../lib/output.mjs";

export const OPTIONS = { copy: { type: "boolean", default: false }, dir: { type: "string" }, force: { type: "boolean", default: false } };

export const HELP = `pome tasks [--copy [--dir D] [--force]]

Lists the example tasks. --copy copies them into the current directory (or --dir); files that
already exist are kept unless --force. Their reference agents are in examples/agents/.`;

const EXAMPLES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../examples/tasks");

function examples() {
  return readdirSync(EXAMPLES)
    .filter((f) => f.endsWith(".md"))
    .sort()
    .map((file) => {
      const text = readFileSync(path.join(EXAMPLES, file), "utf8");
      return { file, title: /^# (.+)$/m.exec(text)?.[1] ?? file, twins: twinsOf(text) };
    });
}

/**
 * The twins a task's Config names (`twins: [a, b]`), read without the task parser so listing
 * needs no server; empty when it names none (the task then gets the server's default twin).
 */
export function twinsOf(markdown) {
  const line = /^twins:\s*\[([^\]]*)\]\s*$/m.exec(markdown);
  return line
    ? line[1]
        .split(",")
        .map((t) => t.trim().replace(/^["']|["']$/g, ""))
        .filter(Boolean)
    : [];
}

export async function run(argv, ctx) {
  const { values, positionals } = parseCommandLine(argv, OPTIONS);
  if (positionals.length)
    throw usageError(`pome tasks takes no arguments (got "${positionals[0]}"); did you mean --dir ${positionals[0]}?`);
  const list = examples();
  if (!values.copy) {
    ctx.out.result(
      table(
        ["file", "twins", "task"],
        list.map((e) => [e.file, e.twins.join(", ") || "(default)", e.title]),
      ),
      list.map((e) => ({ ...e, path: path.join(EXAMPLES, e.file) })),
    );
    return EXIT.OK;
  }
  const dir = values.dir ?? process.cwd();
  mkdirSync(dir, { recursive: true });
  const copied = [];
  const kept = [];
  for (const { file } of list) {
    const target = path.join(dir, file);
    if (existsSync(target) && !values.force) {
      kept.push(file);
      continue;
    }
    copyFileSync(path.join(EXAMPLES, file), target);
    copied.push(file);
  }
  const lines = [`Copied ${copied.length} example task(s) to ${dir}${copied.length ? `: ${copied.join(", ")}` : ""}`];
  if (kept.length) lines.push(`Kept ${kept.length} existing file(s) (--force overwrites): ${kept.join(", ")}`);
  ctx.out.result(lines.join("\n"), { dir, copied, kept });
  return EXIT.OK;
}
