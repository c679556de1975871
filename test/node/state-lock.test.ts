// The local server protects its state: one server per state folder (a second `npm start` or
// `npm run dev` on it refuses at once, naming the folder and the process holding it; a lock left
// by a server that no longer runs is taken over), a taken port is reported before anything is
// built, Ctrl-C stops it cleanly, and its start-up block names the dashboard and the judge.
// Every server here is the real command a user types, in a process group of its own, signalled
// the way a terminal signals it.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LOCAL_KEY, freePort } from "./server";

const LOCK = "pome-server.lock";
const CRASH = /Workers runtime crashed unexpectedly/;
/** How long a busy machine may take to build and start a server. */
const READY_MS = 240_000;

interface Launched {
  url: string;
  /** npm's pid, also the process group's id (Ctrl-C in a terminal signals the whole group). */
  pid: number;
  output(): string;
  /** Resolves when npm exits, with how. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Resolves once the start-up block (which names the URL) is printed; rejects if it exits first. */
  ready(): Promise<void>;
  /** Sends `signal` to the whole process group, as a terminal does on Ctrl-C. */
  signalGroup(signal: NodeJS.Signals): void;
}

/** `npm run start|dev` as a user runs it, with its own state folder and port. */
function launch(opts: {
  stateDir: string;
  port: number;
  script?: "start" | "dev";
  args?: string[];
  env?: Record<string, string>;
}): Launched {
  const script = opts.script ?? "start";
  const child: ChildProcess = spawn("npm", ["run", script, "--silent", ...(opts.args?.length ? ["--", ...opts.args] : [])], {
    cwd: path.resolve(import.meta.dirname, "../.."),
    env: { ...process.env, PORT: String(opts.port), POME_STATE_DIR: opts.stateDir, ...opts.env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let log = "";
  const url = `http://127.0.0.1:${opts.port}`;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  const listeners = new Set<() => void>();
  const onData = (d: Buffer) => {
    log += d;
    for (const listener of listeners) listener();
  };
  child.stdout?.on("data", onData);
  child.stderr?.on("data", onData);
  return {
    url,
    pid: child.pid ?? 0,
    output: () => log,
    exited,
    signalGroup: (signal) => {
      if (child.exitCode === null && child.signalCode === null && child.pid) process.kill(-child.pid, signal);
    },
    ready: () =>
      new Promise<void>((resolve, reject) => {
        const check = () => {
          if (log.includes("Ctrl-C stops it")) resolve();
        };
        listeners.add(check);
        check();
        void exited.then(({ code, signal }) => reject(new Error(`npm run ${script} exited (${signal ?? code}) before it was up:\n${log}`)));
      }),
  };
}

/** Stops a launched server if it still runs (SIGTERM to its group) and waits for it. */
async function stopIfRunning(server: Launched | undefined) {
  if (!server) return;
  server.signalGroup("SIGTERM");
  await server.exited;
}

/** The process group of a running process, from /proc (Linux). */
const processGroupOf = (pid: number) => Number(readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ")[2]);
const commandOf = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ");

/**
 * How an interrupted `npm start` ends cleanly: npm, signalled with its group, ends by that signal
 * once the server has stopped (as the shell expects of an interrupted command), or the server's
 * own exit 0 or 130 comes through. Never exit 1, never another signal.
 */
const cleanEnd = ({ code, signal }: { code: number | null; signal: NodeJS.Signals | null }) =>
  signal === "SIGINT" || code === 0 || code === 130;

const key = { authorization: `Bearer ${LOCAL_KEY}`, "content-type": "application/json" };
interface Sandbox {
  session_id: string;
  agent_token: string;
  per_twin: { github: { api_url: string } };
}

const folders: string[] = [];
const stateFolder = () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "pome-lock-"));
  folders.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

const JUDGE_KEY = `judge-key-marker-${Math.random().toString(36).slice(2, 10)}`;

describe("one server per state folder", () => {
  let first: Launched;
  let stateDir: string;
  beforeAll(async () => {
    stateDir = stateFolder();
    // With a judge named on the command line, for the start-up block's test below.
    first = launch({
      stateDir,
      port: await freePort(),
      args: ["--var", "JUDGE_PROVIDER:openai", "--var", "JUDGE_MODEL:gpt-test", "--var", `JUDGE_API_KEY:${JUDGE_KEY}`],
    });
    await first.ready();
  }, READY_MS);
  afterAll(() => stopIfRunning(first));

  it("refuses a second npm start and npm run dev at once, naming the folder and the first one's process; the first keeps a gap-free tape", async () => {
    const sandbox = (await (
      await fetch(`${first.url}/v1/sandboxes`, { method: "POST", headers: key, body: JSON.stringify({ task_source: "IyAuLgo=" }) })
    ).json()) as Sandbox;
    const agent = { authorization: `Bearer ${sandbox.agent_token}`, "content-type": "application/json" };
    const comment = async (body: string) =>
      (
        await fetch(`${sandbox.per_twin.github.api_url}/repos/acme/api/issues/1/comments`, {
          method: "POST",
          headers: agent,
          body: JSON.stringify({ body }),
        })
      ).status;
    for (let i = 0; i < 3; i++) expect(await comment(`before ${i}`)).toBe(201);
    const lockBefore = readFileSync(path.join(stateDir, LOCK), "utf8");

    for (const script of ["start", "dev"] as const) {
      const began = Date.now();
      const second = launch({ stateDir, port: await freePort(), script });
      const { code } = await second.exited;
      const out = second.output();
      expect(code, out).toBe(1);
      // Before anything is built: no migrations run, no bundle made (well under a build's 30 s+).
      expect(Date.now() - began, out).toBeLessThan(20_000);
      expect(out).toContain(`the state folder ${stateDir} is in use by npm start`);
      expect(out).toContain(`serving ${first.url}`);
      expect(out).toContain("POME_STATE_DIR=");
      // The pid named is the first server's own process: in the first npm's process group, running start.mjs.
      const pid = Number(/\(pid (\d+)/.exec(out)?.[1]);
      expect(processGroupOf(pid)).toBe(first.pid);
      expect(commandOf(pid)).toContain("scripts/start.mjs");
      expect(out).not.toMatch(/took over/);
    }
    // The refused servers left the lock as it was.
    expect(readFileSync(path.join(stateDir, LOCK), "utf8")).toBe(lockBefore);

    for (let i = 0; i < 3; i++) expect(await comment(`after ${i}`)).toBe(201);
    const tape = (await (await fetch(`${sandbox.per_twin.github.api_url}/_pome/events`, { headers: agent })).json()) as {
      seq: number;
      status: number;
    }[];
    expect(tape.map((row) => row.seq)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(tape.every((row) => row.status === 201)).toBe(true);
    expect(first.output()).not.toMatch(/UNIQUE constraint|failed/i);
  });

  it("names the dashboard and a judge set with --var in the start-up block, never the judge's key", () => {
    const out = first.output();
    expect(out).toMatch(new RegExp(`dashboard\\s+${first.url}/app\\n`));
    const judge = out.split("\n").find((line) => line.trim().startsWith("judge")) ?? "";
    expect(judge).toContain("openai gpt-test grades [model] criteria");
    expect(judge).toContain("JUDGE_PROVIDER=openai from --var");
    expect(judge).toContain("JUDGE_API_KEY (secret, from --var)");
    expect(out).not.toContain(JUDGE_KEY);
  });
});

describe("a lock left by a server that no longer runs is taken over", () => {
  let server: Launched | undefined;
  afterAll(() => stopIfRunning(server));

  it("starts on a folder whose lock names a dead process, says so, and removes its own lock on Ctrl-C", async () => {
    const stateDir = stateFolder();
    // A pid that ran and ended: what a server killed with SIGKILL leaves in its lock.
    const dead = spawnSync(process.execPath, ["-e", ""]).pid;
    writeFileSync(path.join(stateDir, LOCK), `${JSON.stringify({ pid: dead, command: "npm start", url: "http://127.0.0.1:1" })}\n`);
    // With a judge named in the environment (wrangler reads it with CLOUDFLARE_INCLUDE_PROCESS_ENV=true).
    server = launch({
      stateDir,
      port: await freePort(),
      env: { CLOUDFLARE_INCLUDE_PROCESS_ENV: "true", JUDGE_PROVIDER: "openai", JUDGE_BASE_URL: "http://127.0.0.1:9/v1" },
    });
    await server.ready();
    const out = server.output();
    expect(out).toContain(`took over the lock of ${stateDir}: npm start (pid ${dead}, serving http://127.0.0.1:1) is no longer running`);
    const holder = JSON.parse(readFileSync(path.join(stateDir, LOCK), "utf8")) as { pid: number };
    expect(processGroupOf(holder.pid)).toBe(server.pid);
    expect((await fetch(`${server.url}/v1/me`, { headers: key })).status).toBe(200);
    expect(out.split("\n").find((line) => line.trim().startsWith("judge"))).toContain("JUDGE_PROVIDER=openai from the environment");

    server.signalGroup("SIGINT");
    expect(cleanEnd(await server.exited)).toBe(true);
    expect(existsSync(path.join(stateDir, LOCK))).toBe(false);
  });
});

describe("of servers starting at the same moment on one folder, exactly one takes it", () => {
  /**
   * `count` processes taking the folder's lock at once; each says whether it took it, and the
   * one that did holds it until every racer has answered (its stdin closes).
   */
  async function race(stateDir: string, count: number) {
    const lockModule = path.resolve(import.meta.dirname, "../../scripts/state-lock.mjs");
    const program = `import(${JSON.stringify(lockModule)}).then((m) => {
      try { m.takeStateLock(${JSON.stringify(stateDir)}, { command: "racer" }, () => {}); console.log("took"); }
      catch (err) { console.log(err.name === "StateFolderInUse" ? "refused" : String(err)); }
      process.stdin.resume();
    })`;
    const racers = Array.from({ length: count }, () => spawn(process.execPath, ["-e", program], { stdio: ["pipe", "pipe", "inherit"] }));
    const outcomes = await Promise.all(
      racers.map(
        (racer) =>
          new Promise<string>((resolve) => {
            let out = "";
            racer.stdout?.on("data", (d) => {
              out += d;
              if (out.includes("\n")) resolve(out.trim());
            });
            racer.once("exit", () => resolve(out.trim()));
          }),
      ),
    );
    await Promise.all(
      racers.map(
        (racer) =>
          new Promise((resolve) => {
            if (racer.exitCode !== null || racer.signalCode !== null) return resolve(undefined);
            racer.once("exit", resolve).stdin?.end();
          }),
      ),
    );
    return outcomes;
  }

  it("on a free folder", async () => {
    const outcomes = await race(stateFolder(), 6);
    expect(outcomes.filter((o) => o === "took")).toHaveLength(1);
    expect(outcomes.filter((o) => o === "refused")).toHaveLength(5);
  });

  it("on a folder whose lock is stale, and the lock is gone when its holder exits", async () => {
    const stateDir = stateFolder();
    const dead = spawnSync(process.execPath, ["-e", ""]).pid;
    writeFileSync(path.join(stateDir, LOCK), `${JSON.stringify({ pid: dead })}\n`);
    const outcomes = await race(stateDir, 6);
    expect(outcomes.filter((o) => o === "took")).toHaveLength(1);
    expect(outcomes.filter((o) => o === "refused")).toHaveLength(5);
    expect(existsSync(path.join(stateDir, LOCK))).toBe(false);
  });
});

describe("a taken port is reported before anything is built", () => {
  let blocker: net.Server;
  let taken = 0;
  beforeAll(async () => {
    blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const address = blocker.address();
    taken = typeof address === "object" && address ? address.port : 0;
  });
  afterAll(() => new Promise<void>((resolve) => blocker.close(() => resolve())));

  for (const script of ["start", "dev"] as const) {
    it(`npm ${script === "start" ? "start" : "run dev"} names the address and how to choose another, within seconds`, async () => {
      const stateDir = stateFolder();
      const began = Date.now();
      const server = launch({ stateDir, port: taken, script });
      const { code } = await server.exited;
      const out = server.output();
      expect(Date.now() - began, out).toBeLessThan(10_000);
      expect(code, out).toBe(1);
      expect(out).toMatch(new RegExp(`127\\.0\\.0\\.1:${taken} is already in use; .*\\(PORT=\\d+ npm (run dev|start)\\)`));
      // Nothing was built or opened, and the lock is gone with the process.
      expect(existsSync(path.join(stateDir, "bundle"))).toBe(false);
      expect(existsSync(path.join(stateDir, "v3"))).toBe(false);
      expect(existsSync(path.join(stateDir, LOCK))).toBe(false);
    });
  }
});

describe("Ctrl-C stops npm start cleanly", () => {
  it(
    "ten times in a row: no crash message, a clean exit, the lock and the bundle removed",
    async () => {
      const stateDir = stateFolder();
      for (let round = 1; round <= 10; round++) {
        const server = launch({ stateDir, port: await freePort() });
        try {
          await server.ready();
          if (round === 1) {
            // No judge anywhere: the start-up block says so, and how to set one.
            expect(server.output()).toMatch(/judge\s+none: \[model\] criteria are skipped \(judge_unavailable\); set JUDGE_PROVIDER/);
          }
          expect((await fetch(`${server.url}/v1/me`, { headers: key })).status).toBe(200);
          server.signalGroup("SIGINT");
          const ended = await server.exited;
          const out = server.output();
          expect(out, `round ${round}`).not.toMatch(CRASH);
          expect(out, `round ${round}`).not.toMatch(/failed|error/i);
          expect(cleanEnd(ended), `round ${round}: ${ended.signal ?? ended.code}\n${out}`).toBe(true);
          expect(existsSync(path.join(stateDir, LOCK)), `round ${round}`).toBe(false);
          expect(existsSync(path.join(stateDir, "bundle")), `round ${round}`).toBe(false);
        } finally {
          await stopIfRunning(server);
        }
      }
    },
    10 * READY_MS,
  );
});
