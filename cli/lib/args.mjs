// Command-line parsing: options per command (node:util parseArgs, strict), plus the global ones,
// and everything after a bare `--` kept apart as the examinee's command.
import { parseArgs } from "node:util";
import { usageError } from "./errors.mjs";

export const GLOBAL_OPTIONS = {
  json: { type: "boolean", default: false },
  "api-url": { type: "string" },
  "api-key": { type: "string" },
  quiet: { type: "boolean", short: "q", default: false },
  help: { type: "boolean", short: "h", default: false },
};

/**
 * @param {string[]} argv the words after the command name
 * @param {Record<string, import("node:util").ParseArgsOptionConfig>} options the command's own options
 * @returns {{ values: Record<string, any>, positionals: string[], rest: string[] }}
 */
export function parseCommandLine(argv, options = {}) {
  const split = argv.indexOf("--");
  const mine = split === -1 ? argv : argv.slice(0, split);
  const rest = split === -1 ? [] : argv.slice(split + 1);
  try {
    const { values, positionals } = parseArgs({
      args: mine,
      options: { ...GLOBAL_OPTIONS, ...options },
      allowPositionals: true,
      strict: true,
    });
    return { values, positionals, rest };
  } catch (err) {
    throw usageError(err.message.replace(/\. To specify a positional argument.*$/s, ""));
  }
}

/** A whole number option, with its bounds named in the error. */
export function intOption(values, name, { min = 1, max = Number.MAX_SAFE_INTEGER } = {}) {
  const raw = values[name];
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!/^\d+$/.test(String(raw)) || n < min || n > max)
    throw usageError(`--${name} must be a whole number from ${min} to ${max}, not "${raw}"`);
  return n;
}
