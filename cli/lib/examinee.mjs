// Launching the examinee: its environment (the sandbox's URLs and credentials, the prompt, never
// the team key), its output on our stderr so stdout stays the report, a deadline before the
// sandbox expires, and heartbeats while it thinks.
import { spawn } from "node:child_process";
import { taskModules } from "./task-file.mjs";

/**
 * The examinee's environment: the one the control MCP's launch spec carries
 * (workers/mcp/launch.ts), on top of ours, less the team's API key.
 * @param {NodeJS.ProcessEnv} base the environment to inherit
 * @param {any} sandbox the POST /v1/sandboxes answer
 * @param {{ prompt: string, name?: string, twins: string[], groupId: string, trial: number, trials: number }} task
 */
export async function examineeEnv(base, sandbox, task) {
  const { launch } = await taskModules();
  const env = { ...base };
  // The examinee is under test: it gets the sandbox's credentials, never the team's API key.
  delete env.POME_API_KEY;
  const { twins, ...rest } = task;
  return {
    ...env,
    ...launch.examineeEnv(
      { ...sandbox, twins, per_twin: sandbox.per_twin ?? {}, provider_credentials: sandbox.provider_credentials ?? {} },
      rest,
    ),
  };
}

/**
 * Runs the command to completion. Resolves with how it ended; never rejects for the examinee's
 * own failure. A command that cannot start at all resolves with `spawnError`.
 * @param {string[]} command
 * @param {{ env: NodeJS.ProcessEnv, deadlineMs: number, onTick?: () => void, tickMs?: number, signal?: AbortSignal, cwd?: string }} opts
 */
export function launchExaminee(command, { env, deadlineMs, onTick, tickMs = 60_000, signal, cwd }) {
  // One word with spaces (`-- "node agent.mjs --fast"`) is a shell command line.
  const viaShell = command.length === 1 && /\s/.test(command[0]);
  const started = Date.now();
  return new Promise((resolve) => {
    let child;
    try {
      // stderr is piped through us, so its tail can be kept on the run and name a crash (issue 38).
      child = spawn(command[0], viaShell ? [] : command.slice(1), { env, cwd, shell: viaShell, stdio: ["inherit", 2, "pipe"] });
    } catch (err) {
      resolve({ spawnError: err, exitCode: null, durationMs: 0 });
      return;
    }
    let stderrTail = "";
    child.stderr?.on("data", (chunk) => {
      process.stderr.write(chunk);
      stderrTail = (stderrTail + chunk.toString("utf8")).slice(-STDERR_TAIL_CHARS);
    });
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
      resolve({ ...result, stderrTail, durationMs: Date.now() - started });
    };
    child.once("error", (err) => done({ spawnError: err, exitCode: null }));
    child.once("exit", (code, sig) => {
      const exitCode = code ?? 128 + (sig ? signalNumber(sig) : 0);
      const reason = stopReason ?? (sig ? `signal ${sig}` : code === 0 ? "completed" : "exited with an error");
      const finish = () => done({ exitCode, signal: sig ?? null, stopReason: reason });
      // Let stderr drain so the tail holds the last words, but never wait on a grandchild that keeps it open.
      if (!child.stderr || child.stderr.readableEnded) return finish();
      child.stderr.once("end", finish);
      setTimeout(finish, 250).unref();
    });
  });
}

/** How much of the examinee's stderr a run keeps (the API's STDERR_TAIL_LIMIT). */
const STDERR_TAIL_CHARS = 4000;

const SIGNALS = { SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGKILL: 9, SIGTERM: 15 };
const signalNumber = (sig) => SIGNALS[sig] ?? 0;
