#!/usr/bin/env node
// pome: the command-line tool for the Pome digital-twin platform. Plain Node, no dependencies.
// See cli/README.md for configuration, commands and exit codes.
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { GLOBAL_OPTIONS } from "./lib/args.mjs";
import { PomeApi } from "./lib/api.mjs";
import { loadConfig } from "./lib/config.mjs";
import { CliError, EXIT } from "./lib/errors.mjs";
import { createOutput } from "./lib/output.mjs";

const COMMANDS = {
  init: "scaffold a task file",
  tasks: "list the example tasks, or --copy them here",
  checks: "list a twin's [code] checks",
  validate: "check a task file (parse, seed, criteria binding)",
  sandbox: "create | list | get | heartbeat | delete sandboxes",
  run: "run a task against your agent and print the report",
  rerun: "re-run a group's task after a fix and show what flipped",
  runs: "list runs",
  report: "print a run's report",
  regrade: "grade a stored run again from its evidence and show what flipped",
  grade: "grade downloaded evidence offline, with the server's grading code",
  trace: "download a run's tape (or --state, or --evidence DIR)",
  doctor: "check config, API, key, twin and routing",
};

const root = path.dirname(fileURLToPath(import.meta.url));
const version = () => JSON.parse(readFileSync(path.join(root, "..", "package.json"), "utf8")).version;

const USAGE = `pome <command> [options]

Commands:
${Object.entries(COMMANDS)
  .map(([name, what]) => `  ${name.padEnd(9)} ${what}`)
  .join("\n")}

Options for every command:
  --json            print one JSON document on stdout (progress stays on stderr)
  --api-url URL     the Pome API (else $POME_API_URL, ./pome.json, ~/.config/pome/config.json, http://127.0.0.1:$PORT, http://127.0.0.1:8787)
  --api-key KEY     a team key pme_… (else $POME_API_KEY, the same files, pme_local_dev)
  -q, --quiet       no progress on stderr
  -h, --help        help for a command: pome <command> --help

Exit codes: 0 ok/passed, 1 failed (run below threshold, invalid task, doctor check),
2 usage (or a task whose [code] criteria do not all bind), 3 API or config, 4 the examinee
could not start, 5 incomplete (not fully graded), 6 errored (nothing graded), 130 interrupted.
docs/tasks.md explains the verdicts.`;

/** The global flags, read leniently before the command's own strict parse (so --help always works). */
function globalFlags(argv) {
  const flags = {};
  const mine = argv.includes("--") ? argv.slice(0, argv.indexOf("--")) : argv;
  for (let i = 0; i < mine.length; i++) {
    const [name, inline] = mine[i].startsWith("--") ? mine[i].slice(2).split(/=(.*)/s) : [undefined];
    if (name === undefined || !(name in GLOBAL_OPTIONS)) {
      if (mine[i] === "-q") flags.quiet = true;
      if (mine[i] === "-h") flags.help = true;
      continue;
    }
    if (GLOBAL_OPTIONS[name].type === "boolean") flags[name] = true;
    else flags[name] = inline ?? mine[++i];
  }
  return flags;
}

async function main(argv) {
  const [name, ...rest] = argv;
  const flags = globalFlags(rest);
  const out = createOutput({ json: flags.json, quiet: flags.quiet });
  try {
    if (!name || name === "help" || name === "--help" || name === "-h") {
      out.result(USAGE, { commands: COMMANDS });
      return EXIT.OK;
    }
    if (name === "--version" || name === "-v" || name === "version") {
      out.result(`pome ${version()}`, { version: version() });
      return EXIT.OK;
    }
    if (!(name in COMMANDS))
      throw new CliError(`Unknown command "${name}". Commands: ${Object.keys(COMMANDS).join(", ")} (pome --help)`, EXIT.USAGE);
    const command = await import(`./commands/${name}.mjs`);
    if (flags.help) {
      out.result(command.HELP, { command: name, help: command.HELP });
      return EXIT.OK;
    }
    const config = loadConfig({ flags });
    return await command.run(rest, { out, config, api: new PomeApi(config) });
  } catch (err) {
    if (!(err instanceof CliError)) throw err;
    // Messages that already open with the command's own name ("pome report takes …") stand alone.
    const prefix = name && name in COMMANDS ? `pome ${name}` : "pome";
    process.stderr.write(`${err.message.startsWith(`${prefix} `) ? err.message : `${prefix}: ${err.message}`}\n`);
    if (out.json) out.result("", { error: { message: err.message, exit_code: err.exitCode, ...err.details } });
    return err.exitCode;
  }
}

/** Commands that read task files with the TypeScript parser, which needs Node's type stripping. */
const NEEDS_PARSER = new Set(["run", "rerun", "validate", "sandbox", "checks", "regrade"]);

function stripsTypes() {
  const [major, minor] = process.versions.node.split(".").map(Number);
  return major > 23 || (major === 23 && minor >= 6) || (major === 22 && minor >= 18);
}

/**
 * On an older Node (the system Node 20 of some machines), hand the command to the Node 22 the
 * repository pins, when it is installed, instead of failing. Resolves with its exit code.
 */
function underPinnedNode(argv) {
  const pinned = path.join(root, "..", "node_modules", "node", "bin", "node");
  if (stripsTypes() || !NEEDS_PARSER.has(argv[0]) || process.env.POME_CLI_REEXEC || !existsSync(pinned)) return undefined;
  return new Promise((resolve) => {
    const child = spawn(pinned, [fileURLToPath(import.meta.url), ...argv], {
      stdio: "inherit",
      env: { ...process.env, POME_CLI_REEXEC: "1" },
    });
    // Signals sent to this process alone are passed on; the child finalizes and exits on its own.
    for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
    child.on("exit", (code, signal) => resolve(code ?? (signal ? EXIT.INTERRUPTED : EXIT.API)));
    child.on("error", () => resolve(undefined));
  });
}

const argv = process.argv.slice(2);
(underPinnedNode(argv) ?? Promise.resolve(undefined))
  .then((code) => (code === undefined ? main(argv) : code))
  .then(
    (code) => {
      process.exitCode = code;
    },
    (err) => {
      process.stderr.write(`pome: unexpected failure: ${err?.stack ?? err}\n`);
      process.exitCode = EXIT.API;
    },
  );
