// Figure 4: finalize with 200 criteria over a short and a long tape. Each repetition records both
// tapes at once (many calls in flight; the Durable Object orders them), checks their length, then
// times the two finalizes back to back, alternating which goes first.
import { describeFailure, inParallel, jsonOf } from "../lib/http.mjs";
import { failed, figure } from "../lib/figures.mjs";
import { median } from "../lib/stats.mjs";
import { benchCriteria, githubWorld } from "../lib/worlds.mjs";

const S4 = "4. Finalize";
const WORLD_ISSUES = 100;

/** Makes `rows` twin calls on a sandbox: nine point reads to one comment, as an agent reads more than it writes. */
export async function recordTape(sandbox, rows, random) {
  const calls = Array.from({ length: rows }, (_, i) => i);
  await inParallel(calls, 8, (i) => {
    const n = 1 + Math.floor(random() * WORLD_ISSUES);
    return i % 10 === 9 ? sandbox.writeComment(n, `bench ${i}`) : sandbox.readIssue(n);
  });
  const health = jsonOf(await sandbox.health());
  return health?.tape_length;
}

export async function measureFinalize({ platform, sizes, random, log }) {
  const small = sizes.tapeSmall.toLocaleString("en-US");
  const big = sizes.tapeBig.toLocaleString("en-US");
  const criteria = benchCriteria(sizes.criteria, WORLD_ISSUES);
  const specs = {
    small: {
      id: "finalize.small",
      section: S4,
      name: `Finalize ${criteria.length} criteria, ${small}-row tape`,
      baselineLabel: "—",
      target: null,
    },
    big: {
      id: "finalize.big",
      section: S4,
      name: `Finalize ${criteria.length} criteria, ${big}-row tape`,
      baselineLabel: `${small}-row finalize`,
      target: { max: 10 },
    },
  };
  const samples = { small: [], big: [] };
  let failure;
  let note;

  /** One sandbox per tape size; finalizes them in `order`; records the times when `record`. */
  const round = async (order, record, rows = { small: sizes.tapeSmall, big: sizes.tapeBig }) => {
    const sandboxes = {};
    try {
      for (const key of order) sandboxes[key] = await platform.create(githubWorld({ issues: WORLD_ISSUES, labels: 50 }));
      const lengths = await Promise.all(order.map((key) => recordTape(sandboxes[key], rows[key], random)));
      order.forEach((key, i) => {
        if (lengths[i] !== rows[key]) note ??= `a ${key} tape held ${lengths[i]} rows, not ${rows[key]}`;
      });
      for (const key of order) {
        const reply = await platform.finalize(sandboxes[key].id, criteria);
        const results = jsonOf(reply)?.criteria_results;
        if (reply.status !== 200) {
          failure = describeFailure("POST /v1/sandboxes/:id/finalize", reply);
          return;
        }
        if (!Array.isArray(results) || results.length !== criteria.length) {
          failure = `POST /v1/sandboxes/:id/finalize → 200 with ${Array.isArray(results) ? results.length : "no"} criteria_results for ${criteria.length} criteria`;
          return;
        }
        if (record) samples[key].push(reply.ms);
        delete sandboxes[key];
      }
    } finally {
      // Whatever was not finalized (a refusal, a crash) is discarded so it stops counting on the quota.
      for (const s of Object.values(sandboxes)) await platform.discard(s.id);
    }
  };

  try {
    // Warm-up: the same path over short tapes, so the first timed finalize pays no compilation.
    await round(["small", "big"], false, { small: sizes.finalizeWarmupRows, big: sizes.finalizeWarmupRows });
    for (let r = 0; r < sizes.finalizeReps && !failure; r++) {
      await round(r % 2 ? ["big", "small"] : ["small", "big"], true);
      log(`finalize: repetition ${r + 1}/${sizes.finalizeReps} done`);
    }
  } catch (err) {
    failure = err.message;
  }
  if (failure) return [failed(specs.small, failure), failed(specs.big, failure)];
  const smallMedian = median(samples.small);
  const perRep = samples.big.map((ms, i) => ms / samples.small[i]);
  return [
    figure({ ...specs.small, value: smallMedian, ratio: null, reps: samples.small.length, note }),
    figure({
      ...specs.big,
      value: median(samples.big),
      baseline: smallMedian,
      spread: [Math.min(...perRep), Math.max(...perRep)],
      reps: samples.big.length,
      note,
    }),
  ];
}
