// What `npm start` and `npm run dev` share: where the project and its local state live, the
// environment that keeps wrangler offline and quiet, the few command-line flags both accept, and
// the start-up block both print once the server answers.
import { spawn } from "node:child_process";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import net from "node:net";
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

/**
 * Whether `host:port` can be listened on: tried (and closed again) before anything is built, so
 * a taken port is reported at once rather than after the build. Resolves when it is free; rejects
 * with a message naming the address and how to choose another port.
 */
export function checkPortFree(host, port, command = "npm start") {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", (err) => {
      const why = err?.code === "EADDRINUSE" ? "is already in use" : `cannot be listened on (${err?.code ?? err?.message ?? err})`;
      reject(
        new Error(
          `${host}:${port} ${why}; stop what serves there, or start on another port (PORT=${port === 8788 ? 8789 : 8788} ${command})`,
        ),
      );
    });
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve()));
  });
}

/** The commands runQuiet is running, so a server stopped while it builds does not leave them behind. */
const runningChildren = new Set();

/** Sends `signal` to every command runQuiet is still running. */
export function stopRunningChildren(signal = "SIGTERM") {
  for (const child of runningChildren) child.kill(signal);
}

/** Runs a command to completion with its output captured: resolves with its stdout, rejects with all of its output. */
export function runQuiet(command, args, opts = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: root, stdio: ["ignore", "pipe", "pipe"], ...opts });
    runningChildren.add(child);
    child.on("exit", () => runningChildren.delete(child));
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

/**
 * The settings whose values are secrets (workers/settings.ts, wrangler.toml's required secrets),
 * and any other whose name says it holds one. Output names them and says where they came from,
 * never their values.
 */
const SECRET_SETTINGS = new Set(["TOKEN_SECRET", "TOKEN_SECRET_PREVIOUS", "ADMIN_SECRET", "JUDGE_API_KEY"]);
export const isSecretSetting = (name) =>
  SECRET_SETTINGS.has(name) || /SECRET|PASSWORD|PASSPHRASE|CREDENTIAL|PRIVATE|TOKEN|API_?KEY|_KEY$/i.test(name);

/** One setting as the start-up block shows it: `NAME=value`, or a secret's name and source. */
export const describeSetting = (name, value, source) => (isSecretSetting(name) ? `${name} (secret, from ${source})` : `${name}=${value}`);

/**
 * Every value of a secret setting among `settings` (a name → value map), for masking output
 * lines: the start-up block never prints them, and a log line that quotes one is masked.
 */
export const secretValues = (settings) =>
  Object.entries(settings ?? {})
    .filter(([name, value]) => isSecretSetting(name) && typeof value === "string" && value.length >= 4)
    .map(([, value]) => value);

/** A line with every given secret value replaced by [REDACTED]. */
export function maskSecrets(line, secrets) {
  let out = line;
  for (const secret of secrets) out = out.split(secret).join("[REDACTED]");
  return out;
}

/**
 * The one start-up block: what is served, where, with which key. `vars` are the --var settings;
 * `loadedSecrets` the names of secret settings wrangler loaded from a file (`.dev.vars`, `.env`)
 * or the environment, with that source; `judge` the line judgeSummary() wrote.
 */
export function startupBlock({ url, mode, stateDir, migrations, vars, loadedSecrets = [], judge }) {
  const rel = path.relative(root, stateDir);
  const state = rel && !rel.startsWith("..") ? rel : stateDir;
  const overrides = [
    ...Object.entries(vars ?? {}).map(([k, v]) => describeSetting(k, v, "--var")),
    ...loadedSecrets.filter(({ name }) => !(name in (vars ?? {}))).map(({ name, source }) => describeSetting(name, "", source)),
  ];
  return [
    `pome: the platform is up at ${url} (${mode})`,
    `  control plane   ${url}/v1             API key ${LOCAL_KEY} (team "local")`,
    `  twins           ${url}/<twin>/s/<session_id>/…  (and the providers' own root paths)`,
    `  MCP             ${url}/mcp            (and /<twin>/s/<session_id>/mcp)`,
    `  dashboard       ${url}/app`,
    `  run pages       ${url}/app/runs/<run_id>`,
    ...(judge ? [`  judge           ${judge}`] : []),
    `  local state     ${state}  (D1 migrations: ${migrations})`,
    ...(overrides.length ? [`  settings        ${overrides.join(", ")}`] : []),
    `  try: curl -s ${url}/v1/me -H "Authorization: Bearer ${LOCAL_KEY}"`,
    "Ctrl-C stops it.",
  ].join("\n");
}

/**
 * The secret settings among the bindings wrangler derived for local use, and where each came
 * from. wrangler reads `.dev.vars` if it exists; otherwise `.env` files, plus the process
 * environment when CLOUDFLARE_INCLUDE_PROCESS_ENV=true (wrangler's getVarsForDev).
 */
export function loadedSecretSettings(bindings, env = process.env) {
  const fromEnv = env.CLOUDFLARE_INCLUDE_PROCESS_ENV === "true";
  const source = (name) => (existsSync(path.join(root, ".dev.vars")) ? ".dev.vars" : fromEnv && name in env ? "the environment" : ".env");
  return Object.keys(bindings ?? {})
    .filter(isSecretSetting)
    .map((name) => ({ name, source: source(name) }));
}

/** Whether a dotenv file's text sets `name` (`NAME=…` or `export NAME=…`). */
const setsName = (text, name) => new RegExp(`^\\s*(?:export\\s+)?${name}\\s*=`, "m").test(text);
const readIfExists = (file) => (existsSync(file) ? readFileSync(file, "utf8") : undefined);

/**
 * Where the local server's value of setting `name` came from, the way wrangler's getVarsForDev
 * layers them: a --var; else `.dev.vars` when that file exists (wrangler then reads nothing
 * else); else the process environment when CLOUDFLARE_INCLUDE_PROCESS_ENV=true, or `.env`;
 * else wrangler.toml's [vars].
 */
export function settingSource(name, { vars = {}, env = process.env, dir = root } = {}) {
  if (name in vars) return "--var";
  const devVars = readIfExists(path.join(dir, ".dev.vars"));
  if (devVars !== undefined) return setsName(devVars, name) ? ".dev.vars" : "wrangler.toml";
  if (env.CLOUDFLARE_INCLUDE_PROCESS_ENV === "true" && name in env) return "the environment";
  if (setsName(readIfExists(path.join(dir, ".env")) ?? "", name)) return ".env";
  return "wrangler.toml";
}

const JUDGE_PROVIDERS = ["anthropic", "openai", "workers-ai"];

/**
 * One line on the judge for `[model]` criteria, mirroring workers/grading/judge's judgeFromEnv:
 * which provider and model, and where each setting came from; or that none is configured (or one
 * is named but incomplete), so such criteria are skipped `judge_unavailable`, and how to set one.
 * `bindings` are the settings wrangler derived (wrangler.toml, `.dev.vars`, `.env`, the
 * environment), `vars` the --var settings, which win. Never a secret's value.
 */
export function judgeSummary({ bindings = {}, vars = {}, env = process.env, dir = root } = {}) {
  const value = (name) => {
    const v = name in vars ? vars[name] : bindings[name];
    return typeof v === "string" ? v.trim() : "";
  };
  const from = (name) => settingSource(name, { vars, env, dir });
  const howTo = "set JUDGE_PROVIDER (anthropic, openai, workers-ai) and JUDGE_API_KEY in .dev.vars, or pass --var";
  const provider = value("JUDGE_PROVIDER");
  if (!provider) {
    const ignored =
      env.CLOUDFLARE_INCLUDE_PROCESS_ENV !== "true" && env.JUDGE_PROVIDER
        ? "; JUDGE_PROVIDER in the environment is read only with CLOUDFLARE_INCLUDE_PROCESS_ENV=true"
        : "";
    return `none: [model] criteria are skipped (judge_unavailable); ${howTo}${ignored}`;
  }
  const named = `JUDGE_PROVIDER=${provider} from ${from("JUDGE_PROVIDER")}`;
  if (!JUDGE_PROVIDERS.includes(provider))
    return `none: ${named} is not one of ${JUDGE_PROVIDERS.join(", ")}; [model] criteria are skipped (judge_unavailable)`;
  const key = value("JUDGE_API_KEY");
  const baseUrl = value("JUDGE_BASE_URL");
  const missing =
    provider === "workers-ai"
      ? bindings.AI
        ? undefined
        : "the AI binding"
      : provider === "anthropic"
        ? key
          ? undefined
          : "JUDGE_API_KEY"
        : key || baseUrl
          ? undefined
          : "JUDGE_API_KEY (or JUDGE_BASE_URL)";
  if (missing) return `none: ${named}, but ${missing} is missing; [model] criteria are skipped (judge_unavailable)`;
  const model = value("JUDGE_MODEL");
  const parts = [
    named,
    model ? `JUDGE_MODEL=${model} from ${from("JUDGE_MODEL")}` : "the provider's default model",
    ...(key ? [`JUDGE_API_KEY (secret, from ${from("JUDGE_API_KEY")})`] : []),
    ...(baseUrl ? [`JUDGE_BASE_URL=${baseUrl} from ${from("JUDGE_BASE_URL")}`] : []),
  ];
  return `${provider}${model ? ` ${model}` : ""} grades [model] criteria (${parts.join("; ")})`;
}
