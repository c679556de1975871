// Linear twin figures: GraphQL point read (issue by identifier) and point write (commentCreate)
// against the floor route, the same calls on a world of `bigWorld` issues against one of 10
// (target ≤ 1.2×), and a page of 50 issues (target ≤ 2×). One interleaved, shuffled loop, as the
// latency section does, so machine drift hits every series alike.
import { describeFailure, jsonOf, request } from "../lib/http.mjs";
import { LOCAL_KEY } from "../lib/platform.mjs";
import { failed, figure } from "../lib/figures.mjs";
import { median, percentile, shuffle } from "../lib/stats.mjs";

const S1 = "1. Twin overhead vs the floor";
const S2 = "2. World-size independence";
const SMALL = 10;

/** The same world generateLinearSeed builds: one team, `count` issues, two people, two labels. */
export function linearWorld(count) {
  return {
    users: [
      { email: "agent@acme.test", name: "Pome Agent", admin: true },
      { email: "bob@acme.test", name: "Bob Stone" },
    ],
    teams: [{ key: "ENG", name: "Engineering", labels: [{ name: "Bug" }, { name: "Feature" }] }],
    issues: Array.from({ length: count }, (_, i) => ({
      identifier: `ENG-${i + 1}`,
      title: `Issue ${i + 1}`,
      priority: i % 5,
      labels: i % 3 === 0 ? ["Bug"] : [],
      assignee: i % 2 === 0 ? "bob@acme.test" : null,
      createdAt: new Date(Date.parse("2026-01-01T00:00:00Z") + i * 60_000).toISOString(),
    })),
  };
}

export async function create(baseUrl, seed) {
  const reply = await request(`${baseUrl}/v1/sandboxes`, {
    method: "POST",
    headers: { authorization: `Bearer ${LOCAL_KEY}` },
    body: { twins: ["linear"], task_source: "IyAuLgo=", seed },
  });
  const body = jsonOf(reply);
  if (reply.status !== 201 || !body?.per_twin?.linear) throw new Error(describeFailure("POST /v1/sandboxes (linear)", reply));
  const url = `${body.per_twin.linear.api_url}/graphql`;
  const headers = { authorization: body.provider_credentials.linear.token };
  // Variables, as @linear/sdk sends them: the document text is the same on every call.
  const gql = (query, variables = {}) => request(url, { method: "POST", headers, body: { query, variables } });
  return {
    id: body.session_id,
    floor: () => request(`${baseUrl}/_bench/floor/${body.session_id}`),
    read: (n) =>
      gql(
        "query issue($id: String!) { issue(id: $id) { id identifier title priority state { name } assignee { email } labels { nodes { name } } } }",
        { id: `ENG-${n}` },
      ),
    write: (n) =>
      gql("mutation createComment($input: CommentCreateInput!) { commentCreate(input: $input) { success comment { id } } }", {
        input: { issueId: `ENG-${n}`, body: "bench" },
      }),
    list: () =>
      gql("{ issues(first: 50) { nodes { id identifier title state { name } assignee { email } } pageInfo { hasNextPage endCursor } } }"),
  };
}

export async function measureLinear({ platform, sizes, random, log }) {
  const big = sizes.bigWorld;
  const n = big.toLocaleString("en-US");
  const specs = [
    {
      id: "linear.overhead.read.p50",
      section: S1,
      name: "Linear point read p50 (query issue)",
      op: "readSmall",
      base: "floor",
      baselineLabel: "floor p50",
      target: { max: 1.5 },
    },
    {
      id: "linear.overhead.write.p50",
      section: S1,
      name: "Linear point write p50 (commentCreate)",
      op: "writeSmall",
      base: "floor",
      baselineLabel: "floor p50",
      target: { max: 2 },
    },
    {
      id: "linear.world.read.p50",
      section: S2,
      name: `Linear point read p50, ${n} vs ${SMALL} issues`,
      op: "readBig",
      base: "readSmall",
      baselineLabel: `${SMALL}-issue world`,
      target: { max: 1.2 },
    },
    {
      id: "linear.world.write.p50",
      section: S2,
      name: `Linear point write p50, ${n} vs ${SMALL} issues`,
      op: "writeBig",
      base: "writeSmall",
      baselineLabel: `${SMALL}-issue world`,
      target: { max: 1.2 },
    },
    {
      id: "linear.world.list.p50",
      section: S2,
      name: `Linear page of 50 p50, ${n} vs ${SMALL} issues`,
      op: "listBig",
      base: "listSmall",
      baselineLabel: `${SMALL}-issue world`,
      target: { max: 2 },
    },
  ];
  let small;
  let large;
  try {
    small = await create(platform.baseUrl, linearWorld(SMALL));
    large = await create(platform.baseUrl, linearWorld(big));
  } catch (err) {
    if (small) await platform.discard(small.id);
    return specs.map((s) => failed(s, err.message));
  }
  try {
    const pick = (max) => 1 + Math.floor(random() * max);
    const series = [
      { key: "floor", call: () => small.floor() },
      { key: "readSmall", call: () => small.read(pick(SMALL)) },
      { key: "readBig", call: () => large.read(pick(big)) },
      { key: "writeSmall", call: () => small.write(pick(SMALL)) },
      { key: "writeBig", call: () => large.write(pick(big)) },
      { key: "listSmall", call: () => small.list() },
      { key: "listBig", call: () => large.list() },
    ];
    const samples = Object.fromEntries(series.map((s) => [s.key, []]));
    const loop = async (iterations, record) => {
      for (let i = 0; i < iterations; i++) {
        for (const s of shuffle(series, random)) {
          const reply = await s.call();
          // GraphQL answers 200 with `data` on success; anything else is a failure of the series.
          if (reply.status !== 200 || jsonOf(reply)?.errors) s.failure ??= describeFailure(s.key, reply);
          else if (record) samples[s.key].push(reply.ms);
        }
      }
    };
    await loop(sizes.latencyWarmup, false);
    await loop(sizes.latencyIterations, true);
    log(`linear: ${sizes.latencyIterations} iterations of ${series.length} series`);
    const byKey = Object.fromEntries(series.map((s) => [s.key, s]));
    return specs.map((spec) => {
      const broken = [byKey[spec.op], byKey[spec.base]].find((s) => s.failure);
      if (broken) return failed(spec, broken.failure);
      return figure({
        ...spec,
        value: percentile(samples[spec.op], 50),
        baseline: median(samples[spec.base]),
        samples: samples[spec.op].length,
      });
    });
  } finally {
    await platform.discard(small.id);
    await platform.discard(large.id);
  }
}
