// Figure 5: many sandboxes driven at once against one driven alone. Every call must succeed, and
// every sandbox's tape must hold exactly its calls, numbered 1..N with no gap. Beside the calls per
// second, the runtime's own CPU time per call in both rounds (read from /proc, not sampled), and how
// busy its busiest thread was: workerd runs every isolate on one thread, so once that thread is
// saturated the calls per second are the inverse of the CPU a call costs, whatever the client does.
import { EXPECTED_STATUS } from "../lib/platform.mjs";
import { inParallel, jsonOf } from "../lib/http.mjs";
import { failed, figure } from "../lib/figures.mjs";
import { median } from "../lib/stats.mjs";
import { cpuBetween, findWorkerdRuntime, threadCpuMs } from "../lib/workerd.mjs";
import { githubWorld } from "../lib/worlds.mjs";

const S5 = "5. Concurrency";
const WORLD_ISSUES = 100;
/** Setup work (create, read tapes, discard) runs this many at a time; only the driving is all at once. */
const SETUP_PARALLELISM = 8;

/** The mixed workload: of every ten calls, five point reads, two comments, two list pages, one repository read. */
function mixedCall(sandbox, j, random) {
  const n = 1 + Math.floor(random() * WORLD_ISSUES);
  const slot = j % 10;
  if (slot < 5) return ["readIssue", sandbox.readIssue(n)];
  if (slot < 7) return ["writeComment", sandbox.writeComment(n, `concurrent ${j}`)];
  if (slot < 9) return ["listIssues", sandbox.listIssues()];
  return ["getRepo", sandbox.getRepo()];
}

/** Drives one sandbox through `calls` sequential calls; returns the unexpected answers. */
async function drive(sandbox, calls, random) {
  const errors = [];
  for (let j = 0; j < calls; j++) {
    const [op, pending] = mixedCall(sandbox, j, random);
    const reply = await pending;
    if (reply.status !== EXPECTED_STATUS[op]) errors.push(`${op} → ${reply.status || "no answer"}`);
  }
  return errors;
}

/** Whether a sandbox's tape is exactly `calls` rows with seq 1..calls. */
async function tapeIsExact(sandbox, calls) {
  const rows = jsonOf(await sandbox.tape());
  if (!Array.isArray(rows) || rows.length !== calls) return false;
  return rows.every((row, i) => row.seq === i + 1);
}

/**
 * One repetition: `count` fresh sandboxes driven at once. Throughput in calls per second; with the
 * runtime's pid, its CPU time per call and its busiest thread's share of the drive's wall time.
 */
async function round(platform, count, calls, random, pid) {
  const sandboxes = [];
  try {
    const created = await inParallel(Array.from({ length: count }), SETUP_PARALLELISM, () =>
      platform.create(githubWorld({ issues: WORLD_ISSUES, labels: 50 })),
    );
    sandboxes.push(...created);
    const cpuBefore = pid ? threadCpuMs(pid) : undefined;
    const started = performance.now();
    const errors = (await Promise.all(sandboxes.map((s) => drive(s, calls, random)))).flat();
    const wallMs = performance.now() - started;
    const cpu = cpuBefore && cpuBetween(cpuBefore, threadCpuMs(pid), wallMs);
    const exact = await inParallel(sandboxes, SETUP_PARALLELISM, (s) => tapeIsExact(s, calls));
    return {
      throughput: (count * calls) / (wallMs / 1000),
      cpuPerCall: cpu ? cpu.totalMs / (count * calls) : NaN,
      busiestShare: cpu ? cpu.busiestShare : NaN,
      errors,
      exactTapes: exact.filter(Boolean).length,
    };
  } finally {
    await inParallel(sandboxes, SETUP_PARALLELISM, (s) => platform.discard(s.id));
  }
}

export async function measureConcurrency({ platform, sizes, random, log, port }) {
  const { concurrentSandboxes: count, callsPerSandbox: calls } = sizes;
  const specs = {
    throughput: {
      id: "concurrency.throughput",
      section: S5,
      name: `Throughput, ${count} sandboxes at once`,
      unit: "calls/s",
      baselineLabel: "one sandbox alone",
      target: { min: 1.5 },
    },
    errors: {
      id: "concurrency.errors",
      section: S5,
      name: `Errors in ${count} × ${calls} calls`,
      unit: "",
      baselineLabel: "—",
      target: { equals: 0, of: "value" },
    },
    cpu: {
      id: "concurrency.cpu-per-call",
      section: S5,
      name: `workerd CPU per call, ${count} sandboxes at once`,
      baselineLabel: "one sandbox alone",
      // Concurrency may not make a call cost the runtime more: no lock, queue or per-sandbox
      // overhead that grows with the sandboxes served at once.
      target: { max: 1 },
    },
    busiest: {
      id: "concurrency.busiest-thread",
      section: S5,
      name: `workerd's busiest thread, share of the drive, ${count} at once`,
      unit: "%",
      baselineLabel: "one sandbox alone",
      target: null,
    },
    tapes: {
      id: "concurrency.tapes",
      section: S5,
      name: `Tapes of exactly ${calls} gap-free rows`,
      unit: `of ${count}`,
      baselineLabel: "—",
      target: { equals: count, of: "value" },
    },
  };
  const pid = findWorkerdRuntime(port);
  const single = [];
  const many = [];
  const cpuAlone = [];
  const cpuMany = [];
  const busiest = [];
  const busiestAlone = [];
  let errors = [];
  let exactTapes = Infinity;
  try {
    await round(platform, sizes.concurrencyWarmup.sandboxes, sizes.concurrencyWarmup.calls, random); // warm-up
    for (let r = 0; r < sizes.concurrencyReps; r++) {
      const alone = await round(platform, 1, calls, random, pid);
      const together = await round(platform, count, calls, random, pid);
      single.push(alone.throughput);
      many.push(together.throughput);
      cpuAlone.push(alone.cpuPerCall);
      cpuMany.push(together.cpuPerCall);
      busiest.push(together.busiestShare * 100);
      busiestAlone.push(alone.busiestShare * 100);
      errors = errors.concat(alone.errors, together.errors);
      exactTapes = Math.min(exactTapes, together.exactTapes);
      log(
        `concurrency: repetition ${r + 1}/${sizes.concurrencyReps} done (${together.throughput.toFixed(0)} vs ${alone.throughput.toFixed(0)} calls/s)`,
      );
    }
  } catch (err) {
    return Object.values(specs).map((s) => failed(s, err.message));
  }
  const byKind = Object.entries(
    errors.reduce((acc, e) => {
      acc[e] = (acc[e] ?? 0) + 1;
      return acc;
    }, {}),
  )
    .map(([e, n]) => `${n}× ${e}`)
    .join(", ");
  const perRep = many.map((t, i) => t / single[i]);
  const cpuPerRep = cpuMany.map((c, i) => c / cpuAlone[i]);
  const noRuntime = pid ? null : `no workerd runtime found behind port ${port} (needs Linux /proc)`;
  // Throughput of calls that failed fast (a missing route) says nothing; such a run fails the figure.
  const failure = errors.length ? `${errors.length} failed calls: ${byKind.slice(0, 160)}` : null;
  return [
    figure({
      ...specs.throughput,
      value: median(many),
      baseline: median(single),
      spread: [Math.min(...perRep), Math.max(...perRep)],
      reps: many.length,
      error: failure,
    }),
    figure({
      ...specs.cpu,
      value: median(cpuMany),
      baseline: median(cpuAlone),
      spread: [Math.min(...cpuPerRep), Math.max(...cpuPerRep)],
      reps: cpuMany.length,
      error: noRuntime ?? failure,
    }),
    // Both rounds keep the one thread busy: what the client does between calls overlaps the work a
    // call leaves for after its answer, so the baseline is bound by the same CPU as the 50.
    figure({
      ...specs.busiest,
      value: Math.round(median(busiest) * 10) / 10,
      baseline: Math.round(median(busiestAlone) * 10) / 10,
      ratio: null,
      reps: busiest.length,
      error: noRuntime,
    }),
    figure({ ...specs.errors, value: errors.length, ratio: null, reps: many.length, note: byKind || null }),
    figure({ ...specs.tapes, value: exactTapes, ratio: null, reps: many.length, note: "worst repetition" }),
  ];
}
