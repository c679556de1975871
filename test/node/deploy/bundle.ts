// The production bundle as a deployment ships it, and what its start-up costs. A Worker's global
// scope runs before its first request (Cloudflare allows 1 s of it); anything built there (a
// GraphQL schema, a large JSON parsed, validators compiled) is paid on every cold start, by
// every twin, whether a sandbox uses it or not.
import { execFile } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { gzipSync } from "node:zlib";
import { Miniflare, convertV4MiniflareOptions } from "miniflare";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const WRANGLER = path.join(ROOT, "node_modules/.bin/wrangler");

export interface Bundle {
  dir: string;
  /** The Worker's modules (source maps and wrangler's README left out), as uploaded. */
  files: { name: string; bytes: number }[];
  bytes: number;
  gzipBytes: number;
}

/**
 * `wrangler deploy --dry-run --outdir`: the exact bundle `npm run deploy` uploads, nothing sent.
 * `config` defaults to the project's wrangler.toml.
 */
export async function buildBundle(dir: string, opts: { env?: string; config?: string } = {}): Promise<Bundle> {
  const args = ["deploy", "--dry-run", "--outdir", dir];
  if (opts.env) args.push("--env", opts.env);
  if (opts.config) args.push("--config", opts.config);
  await promisify(execFile)(WRANGLER, args, {
    cwd: ROOT,
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", CI: "1" },
    maxBuffer: 16 * 1024 * 1024,
  });
  const names = readdirSync(dir).filter((name) => !name.endsWith(".map") && name !== "README.md");
  const files = names.map((name) => ({ name, bytes: statSync(path.join(dir, name)).size }));
  // Cloudflare's size limit is on the compressed upload; each module is compressed on its own.
  const gzipBytes = names.reduce((sum, name) => sum + gzipSync(readFileSync(path.join(dir, name))).length, 0);
  return { dir, files, bytes: files.reduce((sum, f) => sum + f.bytes, 0), gzipBytes };
}

export interface StartupReport {
  /** JavaScript heap the module graph's evaluation leaves behind, after a full GC on each side. */
  retainedHeapBytes: number;
  /**
   * Distinct functions of the bundle that ran while its modules were evaluated, each with its
   * source module (from the bundler's `// path` markers) and name: which code runs at start-up.
   */
  functionsRun: { module: string; name: string }[];
  /** Sampled CPU time of the evaluation, idle and GC excluded (wall-clock samples: noisy). */
  cpuMs: number;
}

interface CoverageFunction {
  functionName: string;
  ranges: { startOffset: number; endOffset: number; count: number }[];
}
interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string } }[];
  samples: number[];
  timeDeltas: number[];
}

/** The bundler's module markers (`// node_modules/hono/dist/hono.js`), by offset in the bundle. */
function moduleMarkers(source: string): { offset: number; module: string }[] {
  const markers: { offset: number; module: string }[] = [];
  for (const m of source.matchAll(/^\/\/ ([^\s]+\.(?:m?js|cjs|ts|json))$/gm)) markers.push({ offset: m.index, module: m[1] });
  return markers;
}

function moduleAt(markers: { offset: number; module: string }[], offset: number): string {
  let lo = 0;
  let hi = markers.length - 1;
  let found = "(bundle prelude)";
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (markers[mid].offset <= offset) {
      found = markers[mid].module;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/** A module's package (`graphql`, `@linear/sdk`) or, for our own code, its folder. */
/** Functions run at start-up, counted by package. */
export function byPackage(report: StartupReport): Map<string, number> {
  const counts = new Map<string, number>();
  for (const fn of report.functionsRun) counts.set(packageOf(fn.module), (counts.get(packageOf(fn.module)) ?? 0) + 1);
  return counts;
}

export function packageOf(module: string): string {
  const nm = module.lastIndexOf("node_modules/");
  if (nm < 0) return module.split("/").slice(0, 3).join("/");
  const parts = module.slice(nm + "node_modules/".length).split("/");
  return parts[0].startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0];
}

class Inspector {
  #next = 1;
  #waiting = new Map<number, (message: { result?: unknown; error?: { message: string } }) => void>();
  private constructor(private readonly ws: WebSocket) {
    ws.addEventListener("message", (event) => {
      const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown; error?: { message: string } };
      if (process.env.PROBE_DEBUG) console.log("<<", String(event.data).slice(0, 160));
      const resolve = message.id === undefined ? undefined : this.#waiting.get(message.id);
      if (message.id !== undefined && resolve) {
        this.#waiting.delete(message.id);
        resolve(message);
      }
    });
  }

  static async connect(url: URL): Promise<Inspector> {
    const ws = new WebSocket(url);
    await new Promise<void>((resolve, reject) => {
      ws.addEventListener("open", () => resolve(), { once: true });
      ws.addEventListener("error", () => reject(new Error(`inspector at ${url} refused the connection`)), { once: true });
    });
    return new Inspector(ws);
  }

  /** One command; workerd answers some (Profiler.enable) with an echo that has no result. */
  async send(method: string, params: Record<string, unknown> = {}): Promise<unknown> {
    const id = this.#next++;
    const answer = new Promise<{ result?: unknown; error?: { message: string } }>((resolve) => this.#waiting.set(id, resolve));
    this.ws.send(JSON.stringify({ id, method, params }));
    const message = await answer;
    if (message.error) throw new Error(`${method}: ${message.error.message}`);
    return message.result;
  }

  close() {
    this.ws.close();
  }
}

const usedHeap = (result: unknown) => {
  if (typeof result === "object" && result !== null && "usedSize" in result && typeof result.usedSize === "number") return result.usedSize;
  throw new Error("Runtime.getHeapUsage answered without usedSize");
};

/**
 * Evaluates the bundle's module graph in workerd (the runtime Cloudflare runs) and measures that
 * evaluation alone: a probe entry module imports the bundle on its first request, with the
 * inspector attached before, so nothing but the bundle's global scope is measured.
 */
export async function measureStartup(
  bundle: Bundle,
  opts: { compatibilityDate: string; compatibilityFlags: string[] },
): Promise<StartupReport> {
  // wrangler names the bundle after its entry point, workers/index.ts.
  const main = "index.js";
  if (!bundle.files.some((f) => f.name === main)) throw new Error(`the bundle in ${bundle.dir} has no ${main}`);
  const source = readFileSync(path.join(bundle.dir, main), "utf8");
  const modules = bundle.files.map((f) => {
    if (!/\.m?js$/.test(f.name)) throw new Error(`the start-up probe does not know how to load ${f.name}`);
    return { type: "ESModule" as const, path: f.name, contents: readFileSync(path.join(bundle.dir, f.name), "utf8") };
  });
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      name: "startup-probe",
      inspectorPort: 0,
      compatibilityDate: opts.compatibilityDate,
      compatibilityFlags: opts.compatibilityFlags,
      modulesRoot: "/",
      modules: [
        {
          type: "ESModule",
          path: "startup-probe.mjs",
          contents: `export default { async fetch(request) {
            if (new URL(request.url).pathname !== "/import") return new Response("idle");
            await import(${JSON.stringify(main)});
            return new Response("imported");
          } };`,
        },
        ...modules,
      ],
    }),
  );
  try {
    await mf.ready;
    const inspector = await Inspector.connect(new URL("/core:user:startup-probe", await mf.getInspectorURL()));
    // workerd carries out some inspector commands (a GC, stopping a profile) only while the
    // isolate runs something, so requests that do nothing are sent until the answer arrives.
    const poke = async () => {
      const res = await mf.dispatchFetch("http://startup-probe/noop");
      await res.text();
    };
    const command = async (method: string) => {
      let answered = false;
      const answer = inspector.send(method).finally(() => {
        answered = true;
      });
      const deadline = Date.now() + 30_000;
      while (!answered && Date.now() < deadline) await poke();
      if (!answered) throw new Error(`the inspector did not answer ${method}`);
      return answer;
    };
    try {
      await inspector.send("HeapProfiler.enable");
      await command("HeapProfiler.collectGarbage");
      const before = usedHeap(await inspector.send("Runtime.getHeapUsage"));
      await inspector.send("Profiler.enable");
      await command("Profiler.start");
      const res = await mf.dispatchFetch("http://startup-probe/import");
      const body = await res.text();
      if (body !== "imported") throw new Error(`the bundle failed to evaluate: ${res.status} ${body.slice(0, 500)}`);
      const { profile } = (await command("Profiler.stop")) as { profile: CpuProfile };
      const coverage = (await command("Profiler.getBestEffortCoverage")) as { result: { url: string; functions: CoverageFunction[] }[] };
      await command("HeapProfiler.collectGarbage");
      const after = usedHeap(await inspector.send("Runtime.getHeapUsage"));

      const script = coverage.result.find((s) => s.url === main || s.url.endsWith(`/${main}`));
      if (!script) throw new Error(`no coverage for ${main}; scripts: ${coverage.result.map((s) => s.url).join(", ")}`);
      const markers = moduleMarkers(source);
      const functionsRun: { module: string; name: string }[] = [];
      for (const fn of script.functions) {
        const range = fn.ranges[0];
        // The first function is the module's own top level: it always runs and is not a call.
        if (!range || range.count === 0 || (range.startOffset === 0 && range.endOffset >= source.length - 1)) continue;
        functionsRun.push({ module: moduleAt(markers, range.startOffset), name: fn.functionName });
      }
      const idle = new Set(
        profile.nodes.filter((n) => ["(idle)", "(garbage collector)", "(program)"].includes(n.callFrame.functionName)).map((n) => n.id),
      );
      let cpuUs = 0;
      profile.samples.forEach((node, i) => {
        if (!idle.has(node)) cpuUs += profile.timeDeltas[i] ?? 0;
      });
      return { retainedHeapBytes: after - before, functionsRun, cpuMs: cpuUs / 1000 };
    } finally {
      inspector.close();
    }
  } finally {
    await mf.dispose();
  }
}
