// What `npm start` and `npm run dev` share: where the project and its local state live, the
// environment that keeps wrangler offline and quiet, the few command-line flags both accept, and
// the start-up block both print once the server answers.
import { spawn } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
export const wranglerBin = path.join(root, "node_modules", ".bin", "wrangler");
export const LOCAL_KEY = "pme_local_dev";

export function localSettings(env = process.env) {
  return {
    host: "127.0.0.1",
    port: Number(env.PORT || 8787),
    stateDir: path.resolve(root, env.POME_STATE_DIR || path.join(".wrangler", "state")),
  };
}

/**
 * No network, no prompts, nothing traced: no telemetry, no update check, no fetch of Cloudflare's `Request.cf`
 * sample object, and none of wrangler 4's local observability or explorer, which record every
 * request into the state folder.
 */
export const quietEnv = (env = process.env) => ({
  ...env,
  WRANGLER_SEND_METRICS: "false",
  // The banner asks the npm registry whether a newer wrangler exists.
  WRANGLER_HIDE_BANNER: "true",
  WRANGLER_NO_SKILLS_UPDATE_PROMPTS: "true",
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
  X_LOCAL_OBSERVABILITY: "false",
  X_LOCAL_EXPLORER: "false",
});

/**
 * The flags both servers take, as `wrangler dev` spells them: `--var NAME:value` (repeatable)
 * and `--inspector-port <port>`. Anything else is refused, so a typo is not silently ignored.
 */
export function parseServerArgs(argv) {
  const vars = {};
  let inspectorPort;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const [flag, inline] =
      arg.startsWith("--") && arg.includes("=") ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)] : [arg, undefined];
    const value = () => {
      const v = inline ?? argv[++i];
      if (v === undefined) throw new Error(`${flag} needs a value`);
      return v;
    };
    if (flag === "--var") {
      for (const pair of value().split(/\s+/).filter(Boolean)) {
        const colon = pair.indexOf(":");
        if (colon <= 0) throw new Error(`--var takes NAME:value, not ${JSON.stringify(pair)}`);
        vars[pair.slice(0, colon)] = pair.slice(colon + 1);
      }
    } else if (flag === "--inspector-port") {
      inspectorPort = Number(value());
      if (!Number.isInteger(inspectorPort) || inspectorPort <= 0) throw new Error(`--inspector-port takes a port number`);
    } else {
      throw new Error(`unknown argument ${JSON.stringify(arg)} (accepted: --var NAME:value, --inspector-port <port>)`);
    }
  }
  return { vars, inspectorPort };
}

/** The D1 migration files, in the order wrangler applies them. */
export function migrationFiles() {
  const dir = path.join(root, "d1-migrations");
  return readdirSync(dir)
    .filter((f) => f.endsWith(".sql"))
    .sort()
    .map((name) => ({ name, sql: readFileSync(path.join(dir, name), "utf8") }));
}

/** Runs a command to completion with its output captured: resolves with its stdout, rejects with all of its output. */
export function runQuiet(command, args, opts = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: root, stdio: ["ignore", "pipe", "pipe"], ...opts });
    let output = "";
    let stdout = "";
    child.stdout.on("data", (d) => {
      output += d;
      stdout += d;
    });
    child.stderr.on("data", (d) => (output += d));
    child.on("error", reject);
    child.on("exit", (code, signal) =>
      code === 0
        ? resolve(stdout)
        : reject(new Error(`${path.basename(command)} ${path.basename(args[0])} failed (${signal ?? `exit ${code}`}):\n${output}`)),
    );
  });
}

/** The one start-up block: what is served, where, with which key. */
export function startupBlock({ url, mode, stateDir, migrations, vars }) {
  const rel = path.relative(root, stateDir);
  const state = rel && !rel.startsWith("..") ? rel : stateDir;
  const overrides = Object.entries(vars ?? {}).map(([k, v]) => `${k}=${v}`);
  return [
    `pome: the platform is up at ${url} (${mode})`,
    `  control plane   ${url}/v1             API key ${LOCAL_KEY} (team "local")`,
    `  twins           ${url}/<twin>/s/<session_id>/…  (and the providers' own root paths)`,
    `  MCP             ${url}/mcp            (and /<twin>/s/<session_id>/mcp)`,
    `  run pages       ${url}/app/runs/<run_id>`,
    `  local state     ${state}  (D1 migrations: ${migrations})`,
    ...(overrides.length ? [`  settings        ${overrides.join(", ")}`] : []),
    `  try: curl -s ${url}/v1/me -H "Authorization: Bearer ${LOCAL_KEY}"`,
    "Ctrl-C stops it.",
  ].join("\n");
}
