// Figure 3: sandbox creation (validate + provision + seed) for an empty, a mid-size and a big
// world, and the time to refuse an invalid seed; kinds interleaved in a shuffled order each
// repetition, every created sandbox discarded before the next is made. The target is linear
// growth: the big world against the mid-size one within 1.1 × their size ratio (10,000 issues
// against 1,000: ≤ 11×). The empty create is what any sandbox costs, and the baseline of the rest.
import { describeFailure, jsonOf, request } from "../lib/http.mjs";
import { PEER, failed, figure } from "../lib/figures.mjs";
import { median, shuffle } from "../lib/stats.mjs";
import { emptyWorld, githubWorld, invalidWorld } from "../lib/worlds.mjs";

const S3 = "3. Sandbox creation";
/** Linear growth allows this much over the size ratio: 10,000 against 1,000 issues ≤ 11×. */
const LINEAR_SLACK = 1.1;

export async function measureCreate({ platform, sizes, random, log }) {
  const mid = sizes.createMid.toLocaleString("en-US");
  const big = sizes.createBig.toLocaleString("en-US");
  const kinds = [
    { key: "empty", seed: emptyWorld(), expect: 201 },
    { key: "mid", seed: githubWorld({ issues: sizes.createMid, labels: 50 }), expect: 201 },
    { key: "big", seed: githubWorld({ issues: sizes.createBig, labels: 50 }), expect: 201 },
    { key: "invalid", seed: invalidWorld(), expect: 422 },
  ];
  const samples = Object.fromEntries(kinds.map((k) => [k.key, []]));
  const firstAnswer = [];
  const failures = {};

  const once = async (kind, record) => {
    const reply = await platform.createRaw(kind.seed);
    const body = jsonOf(reply);
    if (reply.status !== kind.expect) {
      failures[kind.key] ??= describeFailure(`POST /v1/sandboxes (${kind.key} world)`, reply);
      if (body?.session_id) await platform.discard(body.session_id);
      return;
    }
    if (kind.key === "invalid" && body?.error?.details?.issues?.[0]?.path === undefined) {
      failures.invalid ??= "POST /v1/sandboxes → 422 without details.issues[0].path naming the failing field";
    }
    if (record) samples[kind.key].push(reply.ms);
    if (kind.expect !== 201) return;
    if (kind.key === "empty" && record) {
      // Cold start as the peer measures it: create, then the twin's first answer.
      const user = await request(`${body.per_twin?.github?.api_url}/user`, { headers: { authorization: `Bearer ${body.agent_token}` } });
      if (user.status === 200) firstAnswer.push(reply.ms + user.ms);
    }
    await platform.discard(body.session_id);
  };

  for (const kind of kinds) await once(kind, false);
  for (let r = 0; r < sizes.createReps; r++) {
    for (const kind of shuffle(kinds, random)) if (!failures[kind.key]) await once(kind, true);
    log(`create: repetition ${r + 1}/${sizes.createReps} done`);
  }

  const spec = {
    empty: { id: "create.empty", section: S3, name: "Create, empty world", baselineLabel: "—", target: null },
    mid: { id: "create.mid", section: S3, name: `Create, ${mid}-issue world`, baselineLabel: "empty create", target: null },
    big: {
      id: "create.big",
      section: S3,
      name: `Create, ${big}-issue world`,
      baselineLabel: `${mid}-issue create`,
      target: { max: Number(((LINEAR_SLACK * sizes.createBig) / sizes.createMid).toFixed(2)) },
    },
    invalid: { id: "create.invalid", section: S3, name: "Refuse an invalid seed (422)", baselineLabel: "empty create", target: { max: 1 } },
  };
  // Each kind's baseline: the big world's is the mid-size one (linear growth), the others' the empty one.
  const baseOf = { empty: null, mid: "empty", big: "mid", invalid: "empty" };
  const out = kinds.map(({ key }) => {
    if (failures[key]) return failed(spec[key], failures[key]);
    const base = baseOf[key];
    if (base && failures[base]) return failed(spec[key], `no baseline: ${failures[base]}`);
    return figure({
      ...spec[key],
      value: median(samples[key]),
      baseline: base ? median(samples[base]) : null,
      ratio: key === "empty" ? null : undefined,
      reps: samples[key].length,
      samples: samples[key].length,
    });
  });
  const cold = {
    id: "create.first-answer",
    section: S3,
    name: "Create + first twin answer, empty world",
    baselineLabel: "—",
    target: null,
    peer: PEER.coldStart,
  };
  out.push(
    firstAnswer.length
      ? figure({ ...cold, value: median(firstAnswer), ratio: null, reps: firstAnswer.length, samples: firstAnswer.length })
      : failed(cold, failures.empty ?? "GET /user did not answer 200 on a new sandbox"),
  );
  return out;
}
