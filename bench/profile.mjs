// Where the platform spends its time: runs one kind of operation against a fresh dev server while
// the V8 sampling profiler of the Worker's isolate (router and Durable Objects share it) records,
// then prints the functions with the most self and total time. Writes a .cpuprofile for DevTools.
//
//   npm run bench -- --profile read [--calls 2000]
//   kinds: floor, read, write, list, repo (twin calls on a 10-issue world), mixed-alone and mixed-50
//   (the concurrency section's workload on one sandbox, and on 50 at once), slack-read, slack-write
//   (reactions.get and chat.postMessage on a 10-message workspace), linear-read, linear-write
//   (GraphQL issue(id) and commentCreate on a 10-issue workspace), create (10,000-issue
//   worlds), finalize (200 criteria over 10,000-row tapes; --calls sandboxes are prepared first)
import { writeFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import { closeConnections, request } from "./lib/http.mjs";
import { controlPlane } from "./lib/platform.mjs";
import { recordTape } from "./sections/finalize.mjs";
import { benchCriteria, githubWorld } from "./lib/worlds.mjs";
import { create as linearSandbox, linearWorld } from "./sections/linear.mjs";
import { create as slackSandbox, tsOf } from "./sections/slack.mjs";

/** A twin call on one small sandbox, warmed up by the same call. */
const twinCall = (call) => ({
  prepare: async (platform) => ({ sandbox: await platform.create(githubWorld({ issues: 10, labels: 50 })) }),
  warmUp: async (_, ctx) => {
    for (let i = 0; i < 200; i++) await call(ctx.sandbox, i);
  },
  run: (_, ctx, i) => call(ctx.sandbox, i),
  cleanup: (platform, ctx) => platform.discard(ctx.sandbox.id),
});

/** A Slack Web API call on one workspace of 10 messages. */
const slackCall = (call) => ({
  prepare: async (platform) => ({ sandbox: await slackSandbox(platform.baseUrl, 10) }),
  warmUp: async (_, ctx) => {
    for (let i = 0; i < 200; i++) await call(ctx.sandbox, i);
  },
  run: (_, ctx, i) => call(ctx.sandbox, i),
  cleanup: (platform, ctx) => platform.discard(ctx.sandbox.id),
});

/** A Linear GraphQL call on one workspace of 10 issues. */
const linearCall = (call) => ({
  prepare: async (platform) => ({ sandbox: await linearSandbox(platform.baseUrl, linearWorld(10)) }),
  warmUp: async (_, ctx) => {
    for (let i = 0; i < 200; i++) await call(ctx.sandbox, i);
  },
  run: (_, ctx, i) => call(ctx.sandbox, i),
  cleanup: (platform, ctx) => platform.discard(ctx.sandbox.id),
});

/**
 * The concurrency section's mixed workload (five point reads, two comments, two list pages, one
 * repository read per ten calls): each profiled "call" is one such call on each of `count`
 * sandboxes at once, so the isolate's busy time per call compares with the alone profile's.
 */
const mixed = (count) => ({
  prepare: async (platform) => {
    const sandboxes = [];
    for (let i = 0; i < count; i++) sandboxes.push(await platform.create(githubWorld({ issues: 100, labels: 50 })));
    return { sandboxes };
  },
  warmUp: async (_, ctx) => {
    for (let j = 0; j < 20; j++) await Promise.all(ctx.sandboxes.map((s) => mixedCall(s, j)));
  },
  run: (_, ctx, j) => Promise.all(ctx.sandboxes.map((s) => mixedCall(s, j))),
  cleanup: async (platform, ctx) => {
    for (const s of ctx.sandboxes) await platform.discard(s.id);
  },
  perRun: count,
});

function mixedCall(sandbox, j) {
  const n = 1 + Math.floor(Math.random() * 100);
  const slot = j % 10;
  if (slot < 5) return sandbox.readIssue(n);
  if (slot < 7) return sandbox.writeComment(n, `concurrent ${j}`);
  if (slot < 9) return sandbox.listIssues();
  return sandbox.getRepo();
}

const BIG = 10_000;
const OPS = {
  floor: twinCall((s) => s.floor()),
  read: twinCall((s, i) => s.readIssue(1 + (i % 10))),
  write: twinCall((s, i) => s.writeComment(1 + (i % 10), "profiled comment")),
  list: twinCall((s) => s.listIssues()),
  repo: twinCall((s) => s.getRepo()),
  "slack-read": slackCall((s, i) => s.read(tsOf(i % 10))),
  "slack-write": slackCall((s) => s.write()),
  "mixed-alone": mixed(1),
  "mixed-50": mixed(50),
  "linear-read": linearCall((s, i) => s.read(1 + (i % 10))),
  "linear-write": linearCall((s, i) => s.write(1 + (i % 10))),
  create: {
    prepare: async () => ({ created: [], world: githubWorld({ issues: BIG, labels: 50 }) }),
    warmUp: async (platform) => {
      for (let i = 0; i < 2; i++) await platform.discard((await platform.create(githubWorld({ issues: 1000, labels: 50 }))).id);
    },
    run: async (platform, ctx) => ctx.created.push(await platform.create(ctx.world)),
    cleanup: async (platform, ctx) => {
      for (const s of ctx.created) await platform.discard(s.id);
    },
  },
  finalize: {
    prepare: async (platform, calls) => {
      const sandboxes = [];
      for (let i = 0; i <= calls; i++) {
        const sandbox = await platform.create(githubWorld({ issues: 100, labels: 50 }));
        await recordTape(sandbox, i === 0 ? 100 : BIG, Math.random);
        sandboxes.push(sandbox);
      }
      return { sandboxes, criteria: benchCriteria(200, 100) };
    },
    warmUp: (platform, ctx) => platform.finalize(ctx.sandboxes[0].id, ctx.criteria),
    run: (platform, ctx, i) => platform.finalize(ctx.sandboxes[i + 1].id, ctx.criteria),
    cleanup: async () => {},
  },
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

const frameKey = ({ functionName, url, lineNumber }) =>
  `${functionName || "(anonymous)"} ${url ? `${url.split("/").slice(-2).join("/")}:${lineNumber + 1}` : ""}`.trim();

/**
 * Self time (samples whose top frame is the function) and total time (samples with the function
 * anywhere on the stack, counted once) per function, in microseconds, largest first.
 */
export function timesByFunction(profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const child of n.children ?? []) parent.set(child, n.id);
  const self = new Map();
  const inclusive = new Map();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    total += dt;
    const top = frameKey(byId.get(id).callFrame);
    self.set(top, (self.get(top) ?? 0) + dt);
    const seen = new Set();
    for (let at = id; at !== undefined; at = parent.get(at)) {
      const key = frameKey(byId.get(at).callFrame);
      if (seen.has(key)) continue;
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + dt);
    }
  });
  const sorted = (m) => [...m.entries()].sort((a, b) => b[1] - a[1]);
  return { total, self: sorted(self), inclusive: sorted(inclusive) };
}

/** Profiles `calls` operations of kind `opName`; prints the top `top` functions by self and total time. */
export async function profileCalls({ opName, calls = 2000, top = 25, devServer }) {
  const op = OPS[opName];
  if (!op) throw new Error(`--profile takes one of ${Object.keys(OPS).join(", ")}`);
  const { freePort, startDevServer } = devServer;
  const inspectorPort = await freePort();
  const server = await startDevServer({ args: ["--var", "BENCH_FLOOR_ENABLED:true", "--inspector-port", String(inspectorPort)] });
  try {
    const platform = controlPlane(server.url);
    const ctx = await op.prepare(platform, calls);
    await op.warmUp(platform, ctx); // profile the compiled code, not the compiler
    const targets = JSON.parse((await request(`http://127.0.0.1:${inspectorPort}/json`)).text);
    const target = targets.find((t) => t.webSocketDebuggerUrl);
    if (!target) throw new Error("the dev server's inspector lists no target");
    const cdp = await devtools(target.webSocketDebuggerUrl);
    await cdp.send("Profiler.enable");
    await cdp.send("Profiler.setSamplingInterval", { interval: 50 });
    await cdp.send("Profiler.start");
    const started = performance.now();
    for (let i = 0; i < calls; i++) await op.run(platform, ctx, i);
    const wall = performance.now() - started;
    const { profile } = await cdp.send("Profiler.stop");
    cdp.close();
    await op.cleanup(platform, ctx);

    const dir = path.join(import.meta.dirname, "profiles");
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, `${opName}.cpuprofile`);
    writeFileSync(file, JSON.stringify(profile));
    const { total, self, inclusive } = timesByFunction(profile);
    const idle = self.find(([k]) => k === "(idle)")?.[1] ?? 0;
    const busy = total - idle;
    // A run of a concurrent kind is one call on each of its sandboxes.
    calls *= op.perRun ?? 1;
    console.log(
      `${calls} ${opName} calls in ${wall.toFixed(0)} ms; the isolate was busy ${(busy / 1000).toFixed(0)} ms of ${(total / 1000).toFixed(0)} sampled (${(busy / 1000 / calls).toFixed(3)} ms per call)`,
    );
    const print = (title, rows) => {
      console.log(`\n${title}\n    ms/call  share  function`);
      for (const [key, t] of rows.filter(([k]) => k !== "(idle)" && k !== "(root)").slice(0, top)) {
        console.log(`${(t / 1000 / calls).toFixed(3).padStart(11)}  ${((100 * t) / busy).toFixed(1).padStart(4)}%  ${key}`);
      }
    };
    print("Self time (busy share)", self);
    print("Total time, callees included (busy share)", inclusive);
    console.log(`profile: ${path.relative(process.cwd(), file)} (open in Chrome DevTools → Performance)`);
  } finally {
    closeConnections();
    await server.stop().catch(() => {});
  }
}
