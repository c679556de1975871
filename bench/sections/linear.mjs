// Linear twin figures: GraphQL point read (issue by identifier), point write (commentCreate) and
// a page of issues against a bare Node round trip, and the same calls on a world of `bigWorld`
// issues against one of 10. One interleaved, shuffled loop, as the latency section does, so
// machine drift hits every series alike.
import { jsonOf, request } from "../lib/http.mjs";
import { PAGE, measureTwin, twinSandbox, twinSpecs } from "../lib/twin-section.mjs";

/**
 * The same world generateLinearSeed builds: one team, `count` issues, two people, two labels. Its
 * hourly budget is raised to the seed's ceiling: the bench sends thousands of calls in a minute,
 * and measures the twin's work, not Linear's rate limit (which refuses them past 5,000 requests).
 */
/** The one document of every bench world (documents are an area of round 3). */
const BENCH_DOCUMENT = "0b3c9a4e-5d1f-4c2a-9e8b-7f6a5d4c3b2a";

export function linearWorld(count) {
  return {
    rateLimits: { requests: 1_000_000, complexity: 100_000_000 },
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
    documents: [{ id: BENCH_DOCUMENT, title: "Bench runbook", content: "# Runbook\n\nSteps." }],
  };
}

export async function create(baseUrl, seed) {
  const sandbox = await twinSandbox(baseUrl, "linear", seed);
  const url = `${sandbox.body.per_twin.linear.api_url}/graphql`;
  const headers = { authorization: sandbox.body.provider_credentials.linear.token };
  // Variables, as @linear/sdk sends them: the document text is the same on every call.
  const gql = (query, variables = {}) => request(url, { method: "POST", headers, body: { query, variables } });
  return {
    ...sandbox,
    read: (n) =>
      gql(
        "query issue($id: String!) { issue(id: $id) { id identifier title priority state { name } assignee { email } labels { nodes { name } } } }",
        { id: `ENG-${n}` },
      ),
    write: (n) =>
      gql("mutation createComment($input: CommentCreateInput!) { commentCreate(input: $input) { success comment { id } } }", {
        input: { issueId: `ENG-${n}`, body: "bench" },
      }),
    document: () => gql("query doc($id: String!) { document(id: $id) { id title content creator { name } } }", { id: BENCH_DOCUMENT }),
    editDocument: (n) =>
      gql("mutation editDoc($id: String!, $input: DocumentUpdateInput!) { documentUpdate(id: $id, input: $input) { success } }", {
        id: BENCH_DOCUMENT,
        input: { content: `# Runbook\n\nStep ${n}.` },
      }),
    list: () =>
      gql(
        `{ issues(first: ${PAGE}) { nodes { id identifier title state { name } assignee { email } } pageInfo { hasNextPage endCursor } } }`,
      ),
  };
}

/** GraphQL answers 200 with `data` on success; anything else is a failure of the series. */
const answered = (reply) => reply.status === 200 && !jsonOf(reply)?.errors;

/** Point calls on documents, judged like the twin's own read and write. */
const AREAS = [
  { key: "document", kind: "read", name: "query document", label: "document", call: (s) => s.document() },
  { key: "document-update", kind: "write", name: "documentUpdate", label: "documentUpdate", call: (s, at) => s.editDocument(at()) },
];

export const measureLinear = (ctx) =>
  measureTwin(ctx, {
    name: "linear",
    areas: AREAS,
    specs: twinSpecs({
      twin: "linear",
      display: "Linear",
      big: ctx.sizes.bigWorld,
      read: "query issue",
      write: "commentCreate",
      list: "issues page",
      objects: "issues",
      world: "issue world",
      areas: AREAS,
    }),
    create: (count) => create(ctx.platform.baseUrl, linearWorld(count)),
    pick: (random, max) => 1 + Math.floor(random() * max),
    labels: { read: "issue", write: "commentCreate", list: "issues" },
    ok: answered,
  });
