// Running the `pome` CLI the way a user does: a child process, with its own HOME (so no user
// config leaks in), pointed at the dev server the Node project started.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, inject } from "vitest";

export const ROOT = path.resolve(import.meta.dirname, "../../..");
export const CLI = path.join(ROOT, "cli", "pome.mjs");
export const example = (name: string) => path.join(ROOT, "examples", "tasks", `${name}.md`);
export const agent = (name: string) => path.join(ROOT, "examples", "agents", `${name}.mjs`);

export interface PomeResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Folders made for this test file; removed when it ends, so a test run leaves none behind. */
const made: string[] = [];
afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

export function tempDir(label = "pome-cli-"): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), label));
  made.push(dir);
  return dir;
}

/** A HOME with no config in it, shared by every call that does not bring its own. */
const quietHome = tempDir("pome-home-");

export interface PomeOptions {
  env?: Record<string, string | undefined>;
  cwd?: string;
  apiUrl?: string | null;
  /** Called with each chunk of stderr and a way to signal the process (to test Ctrl-C). */
  onStderr?: (text: string, signal: (name: NodeJS.Signals) => void) => void;
}

export function pome(args: string[], opts: PomeOptions = {}): Promise<PomeResult> {
  const env: Record<string, string | undefined> = {
    ...process.env,
    HOME: quietHome,
    XDG_CONFIG_HOME: path.join(quietHome, ".config"),
    POME_API_KEY: undefined,
    POME_AGENT_MODEL: undefined,
    ...(opts.apiUrl === null ? { POME_API_URL: undefined } : { POME_API_URL: opts.apiUrl ?? inject("pomeUrl") }),
    ...opts.env,
  };
  for (const key of Object.keys(env)) if (env[key] === undefined) delete env[key];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: opts.cwd ?? ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => {
      stderr += d;
      opts.onStderr?.(stderr, (name) => child.kill(name));
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** Runs pome with --json and parses stdout, failing with the whole output when it is not JSON. */
export async function pomeJson<T = Record<string, unknown>>(
  args: string[],
  opts: Parameters<typeof pome>[1] = {},
): Promise<PomeResult & { json: T }> {
  // Options after a bare `--` belong to the examinee, so --json goes before it.
  const split = args.indexOf("--");
  const withJson = split === -1 ? [...args, "--json"] : [...args.slice(0, split), "--json", ...args.slice(split)];
  const result = await pome(withJson, opts);
  try {
    return { ...result, json: JSON.parse(result.stdout) as T };
  } catch {
    throw new Error(`pome ${args.join(" ")} printed no JSON (exit ${result.code}):\n${result.stdout}\n${result.stderr}`);
  }
}

/** A closed port: a URL nothing answers on. */
export const DEAD_URL = "http://127.0.0.1:9";
