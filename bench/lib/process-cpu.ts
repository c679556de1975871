// CPU time of the workerd processes serving a port, read from /proc: the honest bound on "Worker
// time" from outside the runtime. Summed over every workerd process under the server (wrangler's
// entry proxy and the runtime running the router Worker, its Durable Objects and the local D1 and
// R2), it contains the router Worker's own CPU time and more, and unlike wall time it does not
// grow when other work on the machine delays the request. Linux only.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, readlinkSync } from "node:fs";

const TICKS_PER_SECOND = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
  } catch {
    return 100;
  }
})();

interface Stat {
  pid: number;
  comm: string;
  ppid: number;
  /** utime + stime, in clock ticks. */
  ticks: number;
}

function stat(pid: number): Stat | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name is in parentheses and may hold spaces; the fields after it are fixed.
    const close = text.lastIndexOf(")");
    const comm = text.slice(text.indexOf("(") + 1, close);
    const fields = text.slice(close + 2).split(" ");
    return { pid, comm, ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) };
  } catch {
    return undefined;
  }
}

const pids = () =>
  readdirSync("/proc")
    .filter((d) => /^\d+$/.test(d))
    .map(Number);

/** The process holding the listening socket of a local TCP port. */
function listener(port: number): number | undefined {
  const hex = port.toString(16).toUpperCase().padStart(4, "0");
  const inodes = new Set<string>();
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    let text = "";
    try {
      text = readFileSync(table, "utf8");
    } catch {
      continue;
    }
    for (const line of text.split("\n").slice(1)) {
      const cols = line.trim().split(/\s+/);
      // cols[1] is local address:port, cols[3] the state (0A = LISTEN), cols[9] the inode.
      if (cols[1]?.endsWith(`:${hex}`) && cols[3] === "0A") inodes.add(cols[9]);
    }
  }
  for (const pid of pids()) {
    let fds: string[] = [];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
        if (m && inodes.has(m[1])) return pid;
      } catch {
        // the descriptor closed meanwhile
      }
    }
  }
  return undefined;
}

/** Every workerd process started by the same parent as the one listening on the port. */
export function workerdProcesses(port: number): number[] {
  const pid = listener(port);
  if (pid === undefined) throw new Error(`nothing listens on port ${port}`);
  const parent = stat(pid)?.ppid;
  const all = pids()
    .map(stat)
    .filter((s): s is Stat => s !== undefined);
  const under = new Set([parent]);
  // Descendants of the parent, in any depth.
  let grew = true;
  while (grew) {
    grew = false;
    for (const s of all) {
      if (under.has(s.pid) || !under.has(s.ppid)) continue;
      under.add(s.pid);
      grew = true;
    }
  }
  return all.filter((s) => under.has(s.pid) && s.comm === "workerd").map((s) => s.pid);
}

/** CPU milliseconds the processes have used so far. */
export const cpuMs = (processes: readonly number[]) =>
  processes.reduce((sum, pid) => sum + (stat(pid)?.ticks ?? 0), 0) * (1000 / TICKS_PER_SECOND);
