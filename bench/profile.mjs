// Where a twin call spends its time: drives one kind of call against a fresh dev server while the
// V8 sampling profiler of the Worker's isolate (router and Durable Objects run in the same one)
// records, then prints the functions with the most self time. Writes a .cpuprofile for DevTools.
//
//   npm run bench -- --profile read [--calls 2000]      ops: floor, read, write, list, repo
import { writeFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import { closeConnections, request } from "./lib/http.mjs";
import { controlPlane } from "./lib/platform.mjs";
import { githubWorld } from "./lib/worlds.mjs";

const OPS = {
  floor: (s) => s.floor(),
  read: (s, i) => s.readIssue(1 + (i % 10)),
  write: (s, i) => s.writeComment(1 + (i % 10), "profiled comment"),
  list: (s) => s.listIssues(),
  repo: (s) => s.getRepo(),
};

/** A minimal Chrome DevTools Protocol client over the inspector's WebSocket. */
async function devtools(url) {
  // The inspector proxy refuses a connection without an allowed Origin (undici takes headers here).
  const socket = new WebSocket(url, { headers: { origin: "http://127.0.0.1" } });
  await new Promise((resolve, reject) => {
    socket.addEventListener("open", resolve, { once: true });
    socket.addEventListener("error", reject, { once: true });
  });
  let nextId = 1;
  const pending = new Map();
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(String(event.data));
    const waiter = pending.get(message.id);
    if (!waiter) return;
    pending.delete(message.id);
    if (message.error) waiter.reject(new Error(message.error.message));
    else waiter.resolve(message.result);
  });
  return {
    send: (method, params = {}) =>
      new Promise((resolve, reject) => {
        const id = nextId++;
        pending.set(id, { resolve, reject });
        socket.send(JSON.stringify({ id, method, params }));
      }),
    close: () => socket.close(),
  };
}

/** Self time per function (name, file:line), largest first, from a V8 CPU profile. */
export function selfTimes(profile) {
  const byNode = new Map(profile.nodes.map((n) => [n.id, n]));
  const totals = new Map();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    total += dt;
    const { functionName, url, lineNumber } = byNode.get(id).callFrame;
    const where = url ? `${url.split("/").slice(-2).join("/")}:${lineNumber + 1}` : "";
    const key = `${functionName || "(anonymous)"} ${where}`.trim();
    totals.set(key, (totals.get(key) ?? 0) + dt);
  });
  return { total, rows: [...totals.entries()].sort((a, b) => b[1] - a[1]) };
}

/** Profiles `calls` calls of kind `opName`; prints the top `top` functions by self time. */
export async function profileCalls({ opName, calls = 2000, top = 30, devServer }) {
  const op = OPS[opName];
  if (!op) throw new Error(`--profile takes one of ${Object.keys(OPS).join(", ")}`);
  const { freePort, startDevServer } = devServer;
  const inspectorPort = await freePort();
  const server = await startDevServer({ args: ["--var", "BENCH_FLOOR_ENABLED:true", "--inspector-port", String(inspectorPort)] });
  try {
    const platform = controlPlane(server.url);
    const sandbox = await platform.create(githubWorld({ issues: 10, labels: 50 }));
    for (let i = 0; i < 200; i++) await op(sandbox, i); // warm-up: compiled code, not the compiler
    const targets = JSON.parse((await request(`http://127.0.0.1:${inspectorPort}/json`)).text);
    const target = targets.find((t) => t.webSocketDebuggerUrl);
    if (!target) throw new Error("the dev server's inspector lists no target");
    const cdp = await devtools(target.webSocketDebuggerUrl);
    await cdp.send("Profiler.enable");
    await cdp.send("Profiler.setSamplingInterval", { interval: 50 });
    await cdp.send("Profiler.start");
    const started = performance.now();
    for (let i = 0; i < calls; i++) await op(sandbox, i);
    const wall = performance.now() - started;
    const { profile } = await cdp.send("Profiler.stop");
    cdp.close();
    await platform.discard(sandbox.id);

    const dir = path.join(import.meta.dirname, "profiles");
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, `${opName}.cpuprofile`);
    writeFileSync(file, JSON.stringify(profile));
    const { total, rows } = selfTimes(profile);
    const busy = rows.filter(([k]) => !k.startsWith("(idle)")).reduce((n, [, t]) => n + t, 0);
    console.log(`${calls} ${opName} calls in ${wall.toFixed(0)} ms; the isolate was busy ${(busy / 1000).toFixed(0)} ms of ${(total / 1000).toFixed(0)} sampled (${(busy / 1000 / calls).toFixed(3)} ms per call)`);
    console.log("self time  share  function");
    for (const [key, t] of rows.slice(0, top)) {
      console.log(`${(t / 1000).toFixed(1).padStart(8)} ms  ${((100 * t) / total).toFixed(1).padStart(4)}%  ${key}`);
    }
    console.log(`profile: ${path.relative(process.cwd(), file)} (open in Chrome DevTools → Performance)`);
  } finally {
    closeConnections();
    await server.stop().catch(() => {});
  }
}
