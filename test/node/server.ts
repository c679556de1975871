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
  const stateDir = mkdtempSync(path.join(opts.stateRoot ?? os.tmpdir(), "pome-state-"));
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
  child.stdout?.on("data", (d) => (log += d));
  child.stderr?.on("data", (d) => (log += d));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (opts.timeoutMs ?? 90_000);
  for (;;) {
    if (child.exitCode !== null) throw new Error(`npm run ${opts.script ?? "start"} exited with ${child.exitCode}:\n${log}`);
    try {
      const res = await fetch(`${url}/v1/me`, { headers: { authorization: `Bearer ${LOCAL_KEY}` } });
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      process.kill(-(child.pid ?? 0), "SIGTERM");
      throw new Error(`npm run ${opts.script ?? "start"} did not answer within the timeout:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 300));
  }
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
      rmSync(stateDir, { recursive: true, force: true });
    },
  };
}
