// Finds the workerd process that runs our Worker and Durable Objects, and reads its memory and CPU time.
//
// `npm start` runs one workerd, which listens on the port itself (a socket its configuration names,
// not its command line). `npm run dev` (wrangler dev) starts two: a proxy listening on the port, and
// the runtime that holds the Worker and every Durable Object (`entry=127.0.0.1:0`), a sibling of
// the proxy. The runtime is the one whose memory grows with sandboxes.
import { readFileSync, readdirSync, readlinkSync } from "node:fs";

function processes() {
  const out = [];
  let pids = [];
  try {
    pids = readdirSync("/proc").filter((p) => /^\d+$/.test(p));
  } catch {
    return out;
  }
  for (const pid of pids) {
    try {
      const args = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean);
      // The parent pid is the 4th field of /proc/<pid>/stat, after the parenthesised command name.
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      out.push({ pid: Number(pid), ppid, args });
    } catch {
      // the process ended while we looked
    }
  }
  return out;
}

/** The socket inodes listening on a TCP port (IPv4 and IPv6), from the kernel's tables. */
function listeningInodes(port) {
  const inodes = new Set();
  const hexPort = port.toString(16).toUpperCase().padStart(4, "0");
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    let lines = [];
    try {
      lines = readFileSync(table, "utf8").trim().split("\n").slice(1);
    } catch {
      continue;
    }
    for (const line of lines) {
      // sl local_address rem_address st … inode: state 0A is LISTEN.
      const fields = line.trim().split(/\s+/);
      if (fields[1]?.endsWith(`:${hexPort}`) && fields[3] === "0A") inodes.add(fields[9]);
    }
  }
  return inodes;
}

/** Whether the process holds one of these sockets open. */
function holdsSocket(pid, inodes) {
  try {
    return readdirSync(`/proc/${pid}/fd`).some((fd) => {
      try {
        return inodes.has(/^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1] ?? "");
      } catch {
        return false;
      }
    });
  } catch {
    return false;
  }
}

const isWorkerd = (p) => p.args[0]?.endsWith("/workerd") && p.args[1] === "serve";

/** The workerd listening on `port` and the other workerd processes its parent started, listener first. */
function serverWorkerds(port) {
  const all = processes();
  const inodes = listeningInodes(port);
  const listening = all.find((p) => isWorkerd(p) && holdsSocket(p.pid, inodes));
  if (!listening) return [];
  return [listening, ...all.filter((p) => isWorkerd(p) && p.ppid === listening.ppid && p.pid !== listening.pid)];
}

/** The runtime workerd behind the dev server on `port`, or undefined when it cannot be found. */
export function findWorkerdRuntime(port) {
  const [listening, ...siblings] = serverWorkerds(port);
  if (!listening) return undefined;
  if (siblings.length === 0) return listening.pid; // npm start: the one listening is the runtime
  return siblings.length === 1 ? siblings[0].pid : undefined;
}

/**
 * Every workerd process serving `port` (with wrangler dev, its proxy and the runtime): what a
 * request costs the server in CPU is the sum over them (processesCpuMs).
 */
export const serverWorkerdPids = (port) => serverWorkerds(port).map((p) => p.pid);

/** VmRSS (now) and VmHWM (peak since start) in MiB. */
export function residentMemory(pid) {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kib = (field) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN);
  return { rssMiB: kib("VmRSS") / 1024, peakMiB: kib("VmHWM") / 1024 };
}

/** Every process under `pid` (itself included): the server's whole tree. */
export function processTree(pid) {
  const all = processes();
  const tree = new Set([pid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of all) {
      if (tree.has(p.ppid) && !tree.has(p.pid)) {
        tree.add(p.pid);
        grew = true;
      }
    }
  }
  return [...tree];
}

/** Total VmRSS of a process tree, in MiB (a process that ended meanwhile counts as 0). */
export function treeMemoryMiB(pid) {
  let total = 0;
  for (const p of processTree(pid)) {
    try {
      total += residentMemory(p).rssMiB;
    } catch {
      // gone
    }
  }
  return total;
}

/**
 * CPU time each thread of a process has run, in milliseconds, by thread id: the first field of
 * /proc/<pid>/task/<tid>/schedstat, in nanoseconds (finer than the 10 ms ticks of /proc/…/stat).
 */
export function threadCpuMs(pid) {
  const out = new Map();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      out.set(tid, Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ")[0]) / 1e6);
    } catch {
      // the thread ended while we looked
    }
  }
  return out;
}

/** CPU milliseconds all threads of these processes have run so far (a process that ended counts 0). */
export function processesCpuMs(pids) {
  let total = 0;
  for (const pid of pids) {
    try {
      for (const ms of threadCpuMs(pid).values()) total += ms;
    } catch {
      // the process ended while we looked
    }
  }
  return total;
}

/**
 * What a process's threads ran between two threadCpuMs readings taken `wallMs` apart: the CPU
 * time of all of them, and the share of the wall time its busiest thread was running.
 */
export function cpuBetween(before, after, wallMs) {
  let total = 0;
  let busiest = 0;
  for (const [tid, ms] of after) {
    const ran = ms - (before.get(tid) ?? 0);
    total += ran;
    busiest = Math.max(busiest, ran);
  }
  return { totalMs: total, busiestShare: wallMs > 0 ? busiest / wallMs : NaN };
}
