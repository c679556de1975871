// The measurements every latency section makes: probe each series once (a missing route costs one
// call, not thousands), warm up, then run the live series for several repetitions, and report each
// figure as the median over repetitions of its percentile against its baseline's, with the spread
// of the per-repetition ratios. `measureInterleaved` shuffles the series within each iteration, so
// machine drift hits every series alike; `measureAlone` runs each series as a stream of its own.
import { failed, figure } from "./figures.mjs";
import { describeFailure } from "./http.mjs";
import { median, percentile, shuffle } from "./stats.mjs";

/** Whether a series' reply counts: its own `ok`, else its `expect`ed status, else 200. */
const answered = (s, reply) => (s.ok ? s.ok(reply) : reply.status === (s.expect ?? 200));

/** One call of a series: its time goes to `record` when it answered, else it counts as an error. */
async function callOnce(s, record) {
  const reply = await s.call();
  if (answered(s, reply)) record?.(s, reply.ms);
  else {
    s.errors = (s.errors ?? 0) + 1;
    s.failure ??= describeFailure(s.label ?? s.key, reply);
  }
}

/**
 * @param {{ name: string, series: { key: string, label?: string, call: () => Promise<{ status: number, ms: number }>, ok?: (reply: unknown) => boolean, expect?: number }[],
 *   specs: { op: string, base: string, p: number }[], sizes: { latencyWarmup: number, latencyIterations: number, latencyReps: number },
 *   random: () => number, log: (line: string) => void }} run
 */
export async function measureInterleaved({ name, series, specs, sizes, random, log }) {
  for (const s of series) {
    const reply = await s.call();
    if (!answered(s, reply)) s.failure = describeFailure(s.label ?? s.key, reply);
  }
  const live = series.filter((s) => !s.failure);
  log(`${name}: ${live.length} of ${series.length} series answer; ${sizes.latencyWarmup} warm-up iterations`);
  const runOnce = async (iterations, record) => {
    for (let i = 0; i < iterations; i++) {
      for (const s of shuffle(live, random)) await callOnce(s, record);
    }
  };
  await runOnce(sizes.latencyWarmup);
  /** reps[r][key] = the samples of series `key` in repetition r */
  const reps = [];
  for (let r = 0; r < sizes.latencyReps; r++) {
    const samples = Object.fromEntries(live.map((s) => [s.key, []]));
    await runOnce(sizes.latencyIterations, (s, ms) => samples[s.key].push(ms));
    reps.push(samples);
    log(`${name}: repetition ${r + 1}/${sizes.latencyReps} done`);
  }
  return figuresOf(specs, series, reps);
}

/**
 * The same series, each kind alone: per repetition, in a shuffled order, each series warms up
 * and then makes `latencyIterations` calls back to back. What a call leaves behind (a deferred tape
 * row, garbage) is paid by the next call of its own kind, and nothing else's is, so the ratios
 * are each kind's whole cost against the other's, which the interleaved figures spread over
 * every series. Expects series that `measureInterleaved` has probed (a failed one is skipped).
 * @param {Parameters<typeof measureInterleaved>[0]} run
 */
export async function measureAlone({ name, series, specs, sizes, random, log }) {
  const live = series.filter((s) => !s.failure);
  const reps = [];
  for (let r = 0; r < sizes.latencyReps; r++) {
    const samples = Object.fromEntries(live.map((s) => [s.key, []]));
    const record = (s, ms) => samples[s.key].push(ms);
    for (const s of shuffle(live, random)) {
      for (let i = 0; i < sizes.latencyWarmup / 4; i++) await callOnce(s);
      for (let i = 0; i < sizes.latencyIterations; i++) await callOnce(s, record);
    }
    reps.push(samples);
    log(`${name}: repetition ${r + 1}/${sizes.latencyReps} done`);
  }
  return figuresOf(specs, series, reps);
}

/** reps[r][key] holds the samples of series `key` in repetition r. */
function figuresOf(specs, series, reps) {
  const byKey = Object.fromEntries(series.map((s) => [s.key, s]));
  return specs.map((spec) => {
    const broken = [byKey[spec.op], byKey[spec.base]].find((s) => s.failure);
    if (broken) return failed(spec, broken.errors ? `${broken.errors} calls failed, first: ${broken.failure}` : broken.failure);
    const stat = (rep, key, p = spec.p) => percentile(rep[key], p);
    const perRep = reps.map((rep) => stat(rep, spec.op) / stat(rep, spec.base));
    // The tail beside the median: each repetition's p99, the median over repetitions.
    const tail = (key) => median(reps.map((rep) => stat(rep, key, 99)));
    const p99 = spec.withP99 ? { value: tail(spec.op), baseline: tail(spec.base), ratio: tail(spec.op) / tail(spec.base) } : null;
    return figure({
      ...spec,
      value: median(reps.map((rep) => stat(rep, spec.op))),
      baseline: median(reps.map((rep) => stat(rep, spec.base))),
      spread: [Math.min(...perRep), Math.max(...perRep)],
      reps: reps.length,
      samples: reps.reduce((n, rep) => n + rep[spec.op].length, 0),
      p99,
    });
  });
}
