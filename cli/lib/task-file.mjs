// Task files are read with the control plane's own parser (workers/tasks/markdown.ts), loaded
// through Node's type stripping, so the CLI and the server can never disagree about a task. That
// needs Node 22.18 or newer; `npx pome` in this repository uses the Node 22 it pins.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { CliError, EXIT, usageError } from "./errors.mjs";

const tasksDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../workers/tasks");

let modules;

/**
 * The control plane's own modules the CLI runs: the task parser and wire helpers, and the
 * examinee's launch environment (the same one the control MCP hands a coach).
 * @returns {Promise<{ markdown: typeof import("../../workers/tasks/markdown.ts"), wire: typeof import("../../workers/tasks/wire.ts"), launch: typeof import("../../workers/mcp/launch.ts") }>}
 */
export async function taskModules() {
  if (modules) return modules;
  try {
    const [markdown, wire, launch] = await Promise.all([
      import(pathToFileURL(path.join(tasksDir, "markdown.ts")).href),
      import(pathToFileURL(path.join(tasksDir, "wire.ts")).href),
      import(pathToFileURL(path.join(tasksDir, "../mcp/launch.ts")).href),
    ]);
    modules = { markdown, wire, launch };
    return modules;
  } catch (err) {
    if (err?.code === "ERR_UNKNOWN_FILE_EXTENSION" || err?.code === "ERR_UNSUPPORTED_NODE_MODULES_TYPE_STRIPPING")
      throw new CliError(
        `Reading task files needs Node 22.18 or newer (this is ${process.version}). Run pome through npm in the repository (\`npx pome …\`), which uses the Node 22 the project pins.`,
        EXIT.API,
      );
    throw err;
  }
}

export function readText(file) {
  try {
    return readFileSync(file, "utf8");
  } catch (err) {
    throw usageError(`Cannot read ${file}: ${err.code === "ENOENT" ? "no such file" : err.message}`);
  }
}

export const formatTaskError = (file, e) =>
  `${file}${e.line !== undefined ? `:${e.line}` : ""}: ${e.section && e.line === undefined ? `${e.section}: ` : ""}${e.message}`;

let serverDefaults;

/**
 * Parses a task the control plane's way. A task whose Config names no twins gets the server's
 * default twin (`GET /v1/twins`), asked once and only for such a task.
 * @param {string} markdown
 * @param {{ get(path: string): Promise<any> }} api
 */
export async function parseTaskSource(markdown, api) {
  const { markdown: parser } = await taskModules();
  if (parser.namesTwins(markdown)) return parser.parseTask(markdown, []);
  serverDefaults ??= api.get("/v1/twins").then(
    (answer) => [answer.default],
    (err) => {
      throw new CliError(
        `The task names no twins, so it gets the server's default twin, which needs the server: ${err.message}. Or name them in ## Config (twins: [...])`,
        err.exitCode ?? EXIT.API,
      );
    },
  );
  return parser.parseTask(markdown, await serverDefaults);
}

/**
 * Reads and parses a task file. A file that does not parse is refused with every problem listed.
 * @param {string} file
 * @param {{ get(path: string): Promise<any> }} api
 * @param {{ exitCode?: number, requireRunnable?: boolean }} [opts]
 */
export async function loadTask(file, api, { exitCode = EXIT.USAGE, requireRunnable = true } = {}) {
  const { markdown: parser } = await taskModules();
  const markdown = readText(file);
  const parsed = await parseTaskSource(markdown, api);
  const errors = parsed.ok ? (requireRunnable ? parser.missingForRun(parsed.task) : []) : parsed.errors;
  if (errors.length) {
    throw new CliError(`${file} is not a usable task:\n${errors.map((e) => `  ${formatTaskError(file, e)}`).join("\n")}`, exitCode, {
      file,
      errors,
    });
  }
  return { file, markdown, task: parsed.task };
}

export const toBase64 = (text) => Buffer.from(text, "utf8").toString("base64");
