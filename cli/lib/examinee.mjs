// Launching the examinee: its environment (the sandbox's URLs and credentials, the prompt, never
// the team key), its output on our stderr so stdout stays the report, a deadline before the
// sandbox expires, and heartbeats while it thinks.
import { spawn } from "node:child_process";

/** POME_GITHUB_REST_URL for `github`; twin ids are lower-case words. */
export const twinVar = (twin, what) => `POME_${twin.toUpperCase().replace(/[^A-Z0-9]/g, "_")}_${what}`;

/**
 * @param {NodeJS.ProcessEnv} base the environment to inherit
 * @param {any} sandbox the POST /v1/sandboxes answer
 * @param {{ prompt: string, name?: string, twins: string[], groupId: string, trial: number, trials: number }} task
 */
export function examineeEnv(base, sandbox, task) {
  const env = { ...base };
  // The examinee is under test: it gets the sandbox's credentials, never the team's API key.
  delete env.POME_API_KEY;
  for (const twin of task.twins) {
    const urls = sandbox.per_twin?.[twin] ?? {};
    if (urls.api_url) env[twinVar(twin, "REST_URL")] = urls.api_url;
    if (urls.mcp_url) env[twinVar(twin, "MCP_URL")] = urls.mcp_url;
    if (urls.openapi_url) env[twinVar(twin, "OPENAPI_URL")] = urls.openapi_url;
    const credential = sandbox.provider_credentials?.[twin];
    if (credential?.token) env[twinVar(twin, "TOKEN")] = credential.token;
  }
  env.POME_AUTH_TOKEN = sandbox.agent_token;
  env.POME_SESSION_ID = sandbox.session_id;
  env.POME_EXPIRES_AT = sandbox.expires_at;
  env.POME_TWINS = task.twins.join(",");
  env.POME_TASK_PROMPT = task.prompt;
  if (task.name) env.POME_TASK_NAME = task.name;
  env.POME_GROUP_ID = task.groupId;
  env.POME_TRIAL = String(task.trial);
  env.POME_TRIALS = String(task.trials);
  return env;
}

/**
 * Runs the command to completion. Resolves with how it ended; never rejects for the examinee's
 * own failure. A command that cannot start at all resolves with `spawnError`.
 * @param {string[]} command
 * @param {{ env: NodeJS.ProcessEnv, deadlineMs: number, onTick?: () => void, tickMs?: number, signal?: AbortSignal }} opts
 */
export function launchExaminee(command, { env, deadlineMs, onTick, tickMs = 60_000, signal }) {
  // One word with spaces (`-- "node agent.mjs --fast"`) is a shell command line.
  const viaShell = command.length === 1 && /\s/.test(command[0]);
  const started = Date.now();
  return new Promise((resolve) => {
    let child;
    try {
      child = spawn(command[0], viaShell ? [] : command.slice(1), { env, shell: viaShell, stdio: ["inherit", 2, 2] });
    } catch (err) {
      resolve({ spawnError: err, exitCode: null, durationMs: 0 });
      return;
    }
    let stopReason;
    const kill = (reason) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      stopReason ??= reason;
      child.kill("SIGTERM");
      setTimeout(() => child.kill("SIGKILL"), 5_000).unref();
    };
    const deadline = setTimeout(() => kill("timeout"), Math.max(0, deadlineMs));
    const ticker = onTick ? setInterval(onTick, tickMs) : undefined;
    const onAbort = () => kill("interrupted");
    signal?.addEventListener("abort", onAbort, { once: true });
    let settled = false;
    const done = (result) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      if (ticker) clearInterval(ticker);
      signal?.removeEventListener("abort", onAbort);
      resolve({ ...result, durationMs: Date.now() - started });
    };
    child.once("error", (err) => done({ spawnError: err, exitCode: null }));
    child.once("exit", (code, sig) => {
      const exitCode = code ?? 128 + (sig ? signalNumber(sig) : 0);
      const reason = stopReason ?? (sig ? `signal ${sig}` : code === 0 ? "completed" : "exited with an error");
      done({ exitCode, signal: sig ?? null, stopReason: reason });
    });
  });
}

const SIGNALS = { SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGKILL: 9, SIGTERM: 15 };
const signalNumber = (sig) => SIGNALS[sig] ?? 0;
