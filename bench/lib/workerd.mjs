// Finds the workerd process that runs our Worker and Durable Objects under `wrangler dev`, and
// reads its resident memory from /proc (Linux only).
//
// wrangler dev starts two workerd processes: a proxy listening on the dev port
// (`--socket-addr=entry=127.0.0.1:<port>`), and the runtime that holds the Worker and every
// Durable Object (`entry=127.0.0.1:0`). The runtime is the one whose memory grows with sandboxes.
import { readFileSync, readdirSync } from "node:fs";

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

/** The runtime workerd behind the dev server on `port`, or undefined when it cannot be found. */
export function findWorkerdRuntime(port) {
  const all = processes();
  const isWorkerd = (p) => p.args[0]?.endsWith("/workerd") && p.args[1] === "serve";
  const proxy = all.find((p) => isWorkerd(p) && p.args.some((a) => a === `--socket-addr=entry=127.0.0.1:${port}`));
  if (!proxy) return undefined;
  const siblings = all.filter((p) => isWorkerd(p) && p.ppid === proxy.ppid && p.pid !== proxy.pid);
  return siblings.length === 1 ? siblings[0].pid : undefined;
}

/** VmRSS (now) and VmHWM (peak since start) in MiB. */
export function residentMemory(pid) {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kib = (field) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN);
  return { rssMiB: kib("VmRSS") / 1024, peakMiB: kib("VmHWM") / 1024 };
}
