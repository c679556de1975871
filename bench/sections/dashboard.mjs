// Figure 7: the dashboard's Run page for a long tape. Its target is Worker time, which is CPU
// time, and workerd does not report it to a client (inside the runtime the clock stands still
// between I/O), so it is read from outside: the CPU the server's workerd processes spend per
// request, from /proc. That holds the router Worker's CPU and more (the local D1 and R2 run in the
// same processes), and unlike wall time it does not grow when other work delays a request. The
// first view of a run indexes the whole tape once and is measured apart from later views; the
// same pages of a short tape, in the same run, are the baseline.
import { serverWorkerdPids, processesCpuMs } from "../lib/workerd.mjs";
import { LABELLED, NO_UNSUPPORTED, platform as appPlatform } from "../../test/node/app/seed.ts";
import { failed, figure } from "../lib/figures.mjs";
import { median } from "../lib/stats.mjs";

const S7 = "7. Dashboard";
const PER_PAGE = 100;
const BUDGET_MS = 100;

/** Reads of one issue and of a page of issues, comments (mutating), and a few unsupported calls. */
function call(i) {
  if (i % 20 === 7) return ["POST", "/repos/acme/api/pages", {}];
  if (i % 10 === 3) return ["POST", "/repos/acme/api/issues/1/comments", { body: `Looked again (${i})` }];
  if (i % 2) return ["GET", "/repos/acme/api/issues?per_page=5"];
  return ["GET", "/repos/acme/api/issues/1"];
}

/** A finalized run whose tape has `rows` calls, made a few at a time. */
async function runWithTape(app, rows) {
  const sandbox = await app.sandbox({ group_id: `grp_bench_dash_${rows}_${Math.random().toString(36).slice(2, 8)}` });
  let next = 0;
  await Promise.all(
    Array.from({ length: 6 }, async () => {
      while (next < rows) {
        const [method, path, body] = call(next++);
        await app.twin(sandbox, "github", method, path, body);
      }
    }),
  );
  return app.finalize(sandbox, [LABELLED, NO_UNSUPPORTED], { scenario_name: `Bench: ${rows} calls` });
}

/** Mean workerd CPU (ms) per request over `n` requests for `url`; throws on anything but 200. */
async function cpuPerRequest(pids, url, n) {
  const before = processesCpuMs(pids);
  for (let i = 0; i < n; i++) {
    const res = await fetch(url);
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`GET ${new URL(url).pathname} → ${res.status}`);
  }
  return (processesCpuMs(pids) - before) / n;
}

export async function measureDashboard({ platform, sizes, log }) {
  const rows = sizes.dashboardRows;
  const baseRows = sizes.dashboardBaseRows;
  const label = rows.toLocaleString("en-US");
  const specs = {
    first: {
      id: "dashboard.first-view",
      section: S7,
      name: `Run page, first view, ${label}-row tape (workerd CPU)`,
      baselineLabel: `${baseRows}-row first view`,
      target: { max: BUDGET_MS, of: "value" },
    },
    later: {
      id: "dashboard.page",
      section: S7,
      name: `Run page, a later view, ${label}-row tape (workerd CPU)`,
      baselineLabel: `${baseRows}-row page`,
      target: { max: BUDGET_MS, of: "value" },
    },
  };
  const pids = serverWorkerdPids(Number(new URL(platform.baseUrl).port));
  if (!pids.length) return Object.values(specs).map((s) => failed(s, "no workerd process found under the server's port"));
  const app = appPlatform(platform.baseUrl);
  const page = (run, n) => `${platform.baseUrl}/app/runs/${run.run_id}${n === undefined ? "" : `?page=${n}`}`;
  try {
    const [warm, base, long] = [await runWithTape(app, baseRows), await runWithTape(app, baseRows), await runWithTape(app, rows)];
    log(`dashboard: runs of ${baseRows}, ${baseRows} and ${rows} calls finalized`);
    // Warm-up: the pages' code compiled and their caches filled on a run measured by nothing.
    await cpuPerRequest(pids, page(warm), 1);
    await cpuPerRequest(pids, page(warm, 1), sizes.dashboardRequests);
    // The first view of each run indexes its tape; one request each, measured once.
    const firstBase = await cpuPerRequest(pids, page(base), 1);
    const firstLong = await cpuPerRequest(pids, page(long), 1);
    const pages = Math.ceil(rows / PER_PAGE);
    const later = [];
    const laterBase = [];
    for (const n of [1, Math.ceil(pages / 2), pages]) {
      later.push(await cpuPerRequest(pids, page(long, n), sizes.dashboardRequests));
      laterBase.push(await cpuPerRequest(pids, page(base, 1), sizes.dashboardRequests));
    }
    return [
      figure({ ...specs.first, value: firstLong, baseline: firstBase, reps: 1, samples: 1 }),
      figure({
        ...specs.later,
        value: median(later),
        baseline: median(laterBase),
        spread: [Math.min(...later), Math.max(...later)],
        reps: later.length,
        samples: later.length * sizes.dashboardRequests,
        note: `pages 1, ${Math.ceil(pages / 2)} and ${pages} of ${pages}, ${sizes.dashboardRequests} requests each`,
      }),
    ];
  } catch (err) {
    return Object.values(specs).map((s) => failed(s, err?.message ?? String(err)));
  }
}
