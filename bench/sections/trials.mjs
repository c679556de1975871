// Figure 9: trials in parallel. The same N trials of an example task with its reference agent, run
// as a user runs them (`pome run --runs N`), at `--concurrency 4` against one at a time; the
// figure is the wall time of the parallel run as a fraction of the sequential one (target ≤ 0.5:
// at least twice as fast). The two runs alternate, sequential first, so neither always gets the
// warmer server.
import { spawn } from "node:child_process";
import path from "node:path";
import { failed, figure } from "../lib/figures.mjs";
import { median } from "../lib/stats.mjs";

const S9 = "9. Trials in parallel";
const ROOT = path.resolve(import.meta.dirname, "../..");
const TASK = "triage-bug-report";
const CONCURRENCY = 4;

/** Runs `pome run` to the end; resolves with its wall time and parsed --json outcome. */
function pomeRun(baseUrl, runs, concurrency) {
  const args = [
    path.join(ROOT, "cli", "pome.mjs"),
    "run",
    path.join(ROOT, "examples", "tasks", `${TASK}.md`),
    "--runs",
    String(runs),
    "--concurrency",
    String(concurrency),
    "--agent-version",
    "bench-reference",
    "--json",
    "--quiet",
    "--",
    process.execPath,
    path.join(ROOT, "examples", "agents", `${TASK}.mjs`),
  ];
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: ROOT,
      env: { ...process.env, POME_API_URL: baseUrl, POME_API_KEY: "pme_local_dev" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => {
      const ms = performance.now() - started;
      try {
        resolve({ ms, code, outcome: JSON.parse(stdout), stderr });
      } catch {
        resolve({ ms, code, outcome: null, stderr: `${stdout}\n${stderr}` });
      }
    });
  });
}

export async function measureTrials({ platform, sizes, log }) {
  const runs = sizes.parallelTrials;
  const baseUrl = platform.baseUrl;
  const sequential = [];
  const parallel = [];
  let problem;
  for (let r = 0; r < sizes.parallelTrialsReps && !problem; r++) {
    for (const [concurrency, series] of [
      [1, sequential],
      [CONCURRENCY, parallel],
    ]) {
      const run = await pomeRun(baseUrl, runs, concurrency);
      if (run.code !== 0 || run.outcome?.passed_trials !== runs) {
        problem = `pome run --runs ${runs} --concurrency ${concurrency} exited ${run.code} with ${run.outcome?.passed_trials ?? "no"} passed trials: ${run.stderr.slice(-400)}`;
        break;
      }
      series.push(run.ms);
      log(`trials: ${runs} trials at concurrency ${concurrency} took ${(run.ms / 1000).toFixed(1)} s`);
    }
  }
  const spec = {
    id: "trials.parallel",
    section: S9,
    name: `${runs} trials of ${TASK} at --concurrency ${CONCURRENCY}, against one at a time`,
    baselineLabel: `${runs} trials one at a time`,
    target: { max: 0.5, of: "ratio" },
  };
  if (problem) return [failed(spec, problem)];
  const value = median(parallel);
  const baseline = median(sequential);
  return [
    figure({
      ...spec,
      value,
      baseline,
      reps: parallel.length,
      samples: { parallel, sequential },
      note: `${(baseline / value).toFixed(2)}× faster: ${(value / runs / 1000).toFixed(2)} s a trial against ${(baseline / runs / 1000).toFixed(2)} s`,
    }),
  ];
}
