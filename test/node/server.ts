// Starts the real local server the way a user does (`npm start`, or `npm run dev` for the
// live-reloading wrangler dev), on a free port with its own state folder, and waits until it answers.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

export const LOCAL_KEY = "pme_local_dev";

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

export interface DevServer {
  url: string;
  /** The npm process; the server's whole process tree hangs under it. */
  pid: number;
  /** The state folder (D1, R2, Durable Objects), removed by stop(). */
  stateDir: string;
  stop(): Promise<void>;
  /** SIGKILL to the whole process group: no shutdown, as a crash would be. Keeps the state folder. */
  kill(): Promise<void>;
  output(): string;
}

export async function startDevServer(
  opts: {
    env?: Record<string, string>;
    /** Extra server arguments, e.g. `--var NAME:value`, `--inspector-port N`. */
    args?: string[];
    timeoutMs?: number;
    /** `start` (the default): the deployment bundle under Miniflare; `dev`: wrangler dev. */
    script?: "start" | "dev";
    /** The folder the state folder is made in (default the OS temp folder). */
    stateRoot?: string;
  } = {},
): Promise<DevServer> {
  const port = await freePort();
  // A caller that names its own state folder (a restart test) keeps it; otherwise one is made here.
  const stateDir = opts.env?.POME_STATE_DIR ?? mkdtempSync(path.join(opts.stateRoot ?? os.tmpdir(), "pome-state-"));
  let log = "";
  const child: ChildProcess = spawn(
    "npm",
    ["run", opts.script ?? "start", "--silent", ...(opts.args?.length ? ["--", ...opts.args] : [])],
    {
      cwd: path.resolve(import.meta.dirname, "../.."),
      env: { ...process.env, PORT: String(port), POME_STATE_DIR: stateDir, ...opts.env },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    },
  );
  const url = `http://127.0.0.1:${port}`;
  const script = opts.script ?? "start";
  const ownsStateDir = !opts.env?.POME_STATE_DIR;
  // Both servers print their URL once they are listening: wait for that line, not a polling loop.
  // A server that never comes up leaves no state folder of ours behind.
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      process.kill(-(child.pid ?? 0), "SIGTERM");
      reject(new Error(`npm run ${script} did not start within the timeout:\n${log}`));
    }, opts.timeoutMs ?? 90_000);
    const onData = (d: Buffer) => {
      log += d;
      if (log.includes(url)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`npm run ${script} exited with ${code}:\n${log}`));
    });
  }).catch((err) => {
    if (ownsStateDir) rmSync(stateDir, { recursive: true, force: true });
    throw err;
  });
  const me = await fetch(`${url}/v1/me`, { headers: { authorization: `Bearer ${LOCAL_KEY}` } });
  if (me.status !== 200) throw new Error(`npm run ${script} announced ${url} but /v1/me answered ${me.status}:\n${log}`);
  return {
    url,
    pid: child.pid ?? 0,
    stateDir,
    output: () => log,
    async kill() {
      if (child.exitCode === null && child.signalCode === null && child.pid) {
        const exited = new Promise((r) => child.once("exit", r));
        process.kill(-child.pid, "SIGKILL");
        await exited;
      }
    },
    async stop() {
      if (child.exitCode === null && child.pid) {
        process.kill(-child.pid, "SIGTERM");
        await new Promise((r) => child.once("exit", r));
      }
      if (ownsStateDir) rmSync(stateDir, { recursive: true, force: true });
    },
  };
}
