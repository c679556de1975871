// Hostile input, property-based, over every route, every MCP tool and (for a GraphQL twin) every
// field of every twin in the registry (issue 36, point 2): regular-expression metacharacters, LIKE
// wildcards, deep nesting, long and odd strings, huge numbers, unicode and wrong types, in path
// values, query values (each twin's own parameters, read from its MCP tools, and the filters
// issue 36 names) and bodies; JSON-RPC batches; generated deep and wide GraphQL documents. The
// promises: never a 5xx (a twin's 501 for what it does not implement aside), a refusal in the
// vendor's shape that changes nothing, and no call over the bound. A new twin, route, tool or
// GraphQL field is covered by the registry (or the schema) alone.
import fc from "fast-check";
import { buildClientSchema, getIntrospectionQuery, type IntrospectionQuery } from "graphql";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { TWIN_IDS, twinById } from "../../../durable-objects/twins/registry";
import type { TwinId } from "../../../durable-objects/twins/registry";
import type { Route, TwinDefinition, TwinRequest, TwinTool } from "../../../durable-objects/twins/types";
import { queryText } from "../../../workers/mcp/twin";
import { createSandbox, type CreatedSandbox } from "../helpers";
import { FILTER_PARAMS, hostileBody, hostileJson, hostilePathValue, hostileQuery } from "./arbitraries";
import { brokenGraphql, graphqlDocuments } from "./graphql-arbitraries";
import { HEAVY_CALLS, type HeavyCall } from "./heavy-calls";
import { Slowest, expectVendorShape, goodValues, refused, stateOf, timedFetch } from "./twin-calls";

/**
 * The bound each call is held to here. README "Reliability" states the product's bound: no call of
 * any twin takes more than 250 ms of CPU on any world a seed can describe, on a 2-core machine.
 * This measures wall time instead (the runtime gives no per-call CPU time), inside a test runner
 * that shares the machine's two cores with other test files and the neighbours' work, where a call
 * of a few milliseconds has been seen to wait hundreds for the CPU: hence four times the stated
 * bound. A call that backtracks, recurses or loops over a huge input takes seconds or minutes, far
 * over either figure, so the margin hides no such call. The slowest call per twin is printed.
 */
const BOUND_MS = 1_000;

/**
 * Random runs per property, per twin, after the deterministic ones (every route once, every tool
 * argument once): half a run per route and per tool, so the file stays near a minute of `npm test`
 * on a quiet machine.
 */
const RUNS_PER_ROUTE = 0.5;
const RUNS_PER_TOOL = 0.5;
const MCP_RUNS = 25;
const GRAPHQL_RUNS = 50;

/** The values every parameter of every operation is sent once, in turn (deterministic coverage). */
const WORST: readonly unknown[] = [
  "(*",
  `${"*".repeat(29)}!`,
  "(".repeat(5000),
  "%_%",
  "y".repeat(5000),
  "99999999999999999999",
  1e20,
  "(a+)+$",
  `id_${"9".repeat(57)}`,
  -1,
  "\\",
  "[",
  ".*.*.*=.*",
  "is:unread OR ".repeat(400),
  { $gt: "" },
];

const slowest = new Slowest();
afterAll(() =>
  console.log(slowest.report(`Slowest hostile call per twin (wall time inside workerd; the test's bound is ${BOUND_MS} ms):`)),
);

/** The names a twin reads: every argument of its MCP tools (which are its operations), and the issue's filters. */
function parameterNames(twin: TwinDefinition): string[] {
  const names = new Set<string>(FILTER_PARAMS);
  for (const tool of twin.tools) for (const key of Object.keys(tool.input.shape)) names.add(key);
  return [...names];
}

/** Arguments that satisfy a tool's schema, from the default world's values where a key names one. */
function baseArgs(tool: TwinTool, good: Record<string, string>): Record<string, unknown> | undefined {
  const args: Record<string, unknown> = {};
  for (const [key, schema] of Object.entries(tool.input.shape)) {
    if (z.safeParse(schema, undefined).success) continue;
    const known = good[key];
    const candidates: unknown[] = [known, Number(known), [known], "x", 1, true, ["x"], {}].filter(
      (v) => v !== undefined && !(typeof v === "number" && Number.isNaN(v)),
    );
    const value = candidates.find((c) => z.safeParse(schema, c).success);
    if (value === undefined) return undefined;
    args[key] = value;
  }
  return tool.input.safeParse(args).success ? args : undefined;
}

interface Call {
  method: string;
  path: string;
  query: string;
  body?: string;
  type?: string;
}

/**
 * The REST call a tool makes with `value` in its argument `key`: where the tool's own mapping puts
 * it when the schema takes it (path, query, body, GraphQL variables), else added raw where the
 * mapping sends its arguments (a wrong type the MCP schema would refuse still reaches the REST form).
 */
function toolCall(tool: TwinTool, key: string | undefined, value: unknown, good: Record<string, string>): Call | undefined {
  const base = baseArgs(tool, good);
  if (!base) return undefined;
  const withValue = key === undefined ? base : { ...base, [key]: value };
  const natural = tool.input.safeParse(withValue).success;
  const req = tool.toRequest(natural ? withValue : base);
  const query = new URLSearchParams(queryText(req.query));
  let body = req.body;
  if (!natural && key !== undefined) {
    const vars = (body as { variables?: unknown } | undefined)?.variables;
    if (vars && typeof vars === "object") body = { ...(body as object), variables: { ...vars, [key]: value } };
    else if (body !== undefined && typeof body === "object") body = { ...(body as object), [key]: value };
    else query.set(key, typeof value === "string" ? value : JSON.stringify(value));
  }
  return {
    method: req.method,
    path: req.path,
    query: query.toString(),
    ...(body === undefined ? {} : { body: JSON.stringify(body), type: "application/json" }),
  };
}

/** A concrete path for a route pattern: the default world's value for each parameter, or a hostile one. */
function pathFor(route: Route, good: Record<string, string>): fc.Arbitrary<string> {
  const parts = route.pattern.split("/").map((segment) => {
    const param = /^[:*]([A-Za-z_]+)$/.exec(segment)?.[1];
    if (!param) return fc.constant(segment);
    const known = good[param];
    return known === undefined
      ? hostilePathValue
      : fc.oneof({ weight: 2, arbitrary: fc.constant(encodeURIComponent(known)) }, { weight: 1, arbitrary: hostilePathValue });
  });
  return fc.tuple(...parts).map((segments) => segments.join("/"));
}

interface RouteCall {
  route: Route;
  path: string;
  query: string;
  body: { body: string; type: string };
  credential: number;
}

const goodPath = (route: Route, good: Record<string, string>) =>
  route.pattern
    .split("/")
    .map((segment) => {
      const param = /^[:*]([A-Za-z_]+)$/.exec(segment)?.[1];
      return param ? encodeURIComponent(good[param] ?? "x") : segment;
    })
    .join("/");

const describeValue = (value: unknown) => {
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return text.length > 60 ? `${JSON.stringify(text.slice(0, 40))}… (${text.length} chars)` : JSON.stringify(text);
};

/** Sends calls to one twin of one sandbox and holds each answer to the promises. */
class Prober {
  private world: string | undefined;

  constructor(
    readonly id: TwinId,
    readonly twin: TwinDefinition,
    readonly sandbox: CreatedSandbox,
  ) {}

  static async start(id: TwinId) {
    const prober = new Prober(id, twinById(id), await createSandbox({ twins: [id] }));
    prober.world = await stateOf(prober.sandbox, id);
    return prober;
  }

  /** The credentials a client of this twin may present: the agent token, the provider's, its user token. */
  credentials(): Record<string, string>[] {
    const { credential } = this.twin;
    const own = this.sandbox.provider_credentials[this.twin.id];
    const as = (token: string) => ({ [credential.header.toLowerCase()]: credential.scheme ? `${credential.scheme} ${token}` : token });
    return [{ authorization: `Bearer ${this.sandbox.agent_token}` }, as(own.token), ...(own.user_token ? [as(own.user_token)] : [])];
  }

  /** Whether the twin says the call only reads (GET, a GraphQL query…): only other calls can have changed the world. */
  private mayWrite(call: Call): boolean {
    const req: TwinRequest = {
      method: call.method,
      path: call.path,
      query: call.query,
      headers: {},
      body: call.body ?? "",
      baseUrl: "",
      transport: this.twin.transportFor?.(call.path) ?? "rest",
    };
    return !(this.twin.readsOnly?.(req) ?? (call.method === "GET" || call.method === "HEAD"));
  }

  async send(call: Call, what: string, credential = 0, opts: { mcp?: boolean; anyWrite?: boolean } = {}) {
    const { id } = this;
    const url = opts.mcp
      ? this.sandbox.per_twin[id].mcp_url
      : `${this.sandbox.per_twin[id].api_url}${call.path}${call.query ? `?${call.query}` : ""}`;
    const headers: Record<string, string> = { ...this.credentials()[credential % this.credentials().length] };
    if (call.type) headers["content-type"] = call.type;
    if (opts.mcp) headers.accept = "application/json, text/event-stream";
    const hasBody = call.method !== "GET" && call.method !== "HEAD";
    const once = () => timedFetch(url, { method: call.method, headers, body: hasBody ? call.body : undefined });
    const label = `${call.method} ${opts.mcp ? "/mcp" : call.path}${call.query ? `?${call.query}` : ""} ${what}`.slice(0, 400);
    const writes = opts.anyWrite || this.mayWrite(call);
    const answer = await once();
    expect(
      answer.status === 501 || answer.status < 500,
      `${label.slice(0, 300)} → HTTP ${answer.status}: ${answer.text.slice(0, 300)}`,
    ).toBe(true);
    const wasRefused = refused(answer.status, answer.text);
    if (answer.status >= 400 && !opts.mcp && answer.status !== 413)
      expectVendorShape(this.twin, answer.status, answer.text, answer.contentType);
    if (writes) {
      const now = await stateOf(this.sandbox, id);
      if (wasRefused) expect(now, `${label.slice(0, 300)} was refused (HTTP ${answer.status}) but changed the world`).toBe(this.world);
      this.world = now;
    }
    // A call over the bound is sent again, twice at most, and judged by its fastest answer: a call
    // that backtracks, recurses or loops is slow every time; one that waited for a busy machine's
    // CPU is not.
    let fastest = answer.ms;
    for (let retry = 0; retry < 2 && fastest >= BOUND_MS; retry++) {
      fastest = Math.min(fastest, (await once()).ms);
      if (writes) this.world = await stateOf(this.sandbox, id);
    }
    slowest.note(id, fastest, label);
    expect(fastest, `${label.slice(0, 300)} took ${fastest.toFixed(0)} ms (the fastest of three tries)`).toBeLessThan(BOUND_MS);
    return answer;
  }
}

describe.each(TWIN_IDS)("the %s twin answers hostile input within the bound, never 5xx, changing nothing when it refuses", (id) => {
  const twin = twinById(id);
  const good = goodValues(twin);
  const params = parameterNames(twin);
  const fields = [...new Set([...params, "title", "body", "name", "text", "query", "description"])];

  it.runIf(twin.routes.length > 0)("on every route: hostile path values, query values and bodies", { timeout: 240_000 }, async () => {
    const prober = await Prober.start(id);
    const call = fc.constantFrom(...twin.routes).chain((route) =>
      fc.record({
        route: fc.constant(route),
        path: pathFor(route, good),
        query: fc.option(hostileQuery(params), { nil: "" }),
        body: hostileBody(fields),
        credential: fc.nat(2),
      }),
    );
    // Every route once with the default world's path values (so its handler runs) and one of the
    // worst values in one of the twin's parameters and body fields, then random calls.
    const examples = twin.routes.map((route, i) => {
      const value = WORST[i % WORST.length];
      const text = typeof value === "string" ? value : JSON.stringify(value);
      return [
        {
          route,
          path: goodPath(route, good),
          query: new URLSearchParams([[params[i % params.length], text]]).toString(),
          body: { body: JSON.stringify({ [fields[i % fields.length]]: value }), type: "application/json" },
          credential: i,
        },
      ] as [RouteCall];
    });
    await fc.assert(
      fc.asyncProperty(call, async ({ route, path, query, body, credential }) => {
        await prober.send({ method: route.method, path, query, body: body.body, type: body.type }, `(${route.pattern})`, credential);
      }),
      { numRuns: examples.length + Math.ceil(twin.routes.length * RUNS_PER_ROUTE), examples },
    );
  });

  it.runIf(twin.tools.length > 0)("in every operation's own parameters, as its MCP tool maps them", { timeout: 240_000 }, async () => {
    const prober = await Prober.start(id);
    const pairs = twin.tools.flatMap((tool): { tool: TwinTool; key: string | undefined }[] => {
      const keys = Object.keys(tool.input.shape);
      return keys.length ? keys.map((key) => ({ tool, key })) : [{ tool, key: undefined }];
    });
    const arbitrary = fc.record({ pair: fc.constantFrom(...pairs), value: hostileJson, credential: fc.nat(2) });
    // Each parameter of each operation once with one of the worst values, then random ones.
    const examples = pairs.map(
      (pair, i) =>
        [{ pair, value: WORST[i % WORST.length], credential: i }] as [{ pair: (typeof pairs)[number]; value: unknown; credential: number }],
    );
    const reachable = new Set(pairs.filter((p) => baseArgs(p.tool, good)).map((p) => `${p.tool.name}.${p.key}`));
    const sent = new Set<string>();
    await fc.assert(
      fc.asyncProperty(arbitrary, async ({ pair, value, credential }) => {
        const call = toolCall(pair.tool, pair.key, value, good);
        if (!call) return;
        sent.add(`${pair.tool.name}.${pair.key}`);
        await prober.send(call, `(${pair.tool.name}.${pair.key ?? "-"} = ${describeValue(value)})`, credential);
      }),
      // Examples count as runs: the random ones come after them.
      { numRuns: examples.length + Math.ceil(twin.tools.length * RUNS_PER_TOOL), examples },
    );
    // Every parameter of every tool whose required arguments the default world supplies was sent.
    expect([...reachable].filter((p) => !sent.has(p))).toEqual([]);
    expect(reachable.size).toBeGreaterThan(pairs.length / 2);
  });

  it.runIf(twin.tools.length > 0)(
    "on its MCP server: hostile tool arguments, one call or a batch of thousands",
    { timeout: 240_000 },
    async () => {
      const prober = await Prober.start(id);
      const message = fc
        .record({ tool: fc.constantFrom(...twin.tools), value: hostileJson, key: fc.nat(), id: fc.nat() })
        .map(({ tool, value, key, id: i }) => {
          const keys = Object.keys(tool.input.shape);
          const args = { ...(baseArgs(tool, good) ?? {}), ...(keys.length ? { [keys[key % keys.length]]: value } : {}) };
          return { jsonrpc: "2.0", id: i, method: "tools/call", params: { name: tool.name, arguments: args } };
        });
      // What to send, kept small so a failure prints readably: the body is built from it in the property.
      type Rpc = { jsonrpc: string; id: number; method: string; params: { name: string; arguments: Record<string, unknown> } };
      const shape = fc.oneof(
        { weight: 3, arbitrary: message.map((m) => ({ batch: [m] as Rpc[], times: 0, raw: "" })) },
        {
          weight: 2,
          arbitrary: fc
            .tuple(fc.array(message, { minLength: 1, maxLength: 20 }), fc.oneof(fc.constant(1), fc.integer({ min: 2, max: 300 })))
            .map(([batch, times]) => ({ batch: batch as Rpc[], times, raw: "" })),
        },
        {
          weight: 1,
          arbitrary: fc
            .constantFrom("[]", "[1]", "{", '{"jsonrpc":"2.0","id":1,"method":"tools/call"}', `[${"[".repeat(3000)}${"]".repeat(3000)}]`)
            .map((raw) => ({ batch: [] as Rpc[], times: 0, raw })),
        },
      );
      const readTool = twin.tools.find((t) => t.readOnly && baseArgs(t, good)) ?? twin.tools[0];
      const readCall: Rpc = {
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: readTool.name, arguments: baseArgs(readTool, good) ?? {} },
      };
      const bodyOf = ({ batch, times, raw }: { batch: Rpc[]; times: number; raw: string }) =>
        raw ||
        (times === 0
          ? JSON.stringify(batch[0])
          : JSON.stringify(
              Array.from({ length: times }, () => batch)
                .flat()
                .map((m, i) => ({ ...m, id: i + 1 })),
            ));
      await fc.assert(
        fc.asyncProperty(shape, async (what) => {
          const text = bodyOf(what);
          const count = what.raw ? 0 : Math.max(1, what.times) * what.batch.length;
          await prober.send(
            { method: "POST", path: "/mcp", query: "", body: text, type: "application/json" },
            `(a JSON-RPC body of ${count} tool call(s), ${text.length} chars)`,
            0,
            { mcp: true, anyWrite: true },
          );
        }),
        // Issue 36's batch of 5,000 calls, and the MCP SDK's own limit of 100 either side.
        {
          numRuns: 3 + MCP_RUNS,
          examples: [5000, 101, 100].map((times) => [{ batch: [readCall], times, raw: "" }]),
        },
      );
    },
  );

  const graphqlRoute = twin.routes.find((r) => twin.transportFor?.(r.pattern) === "graphql");
  it.runIf(graphqlRoute !== undefined)(
    "to generated GraphQL documents: deep, wide, with hostile arguments",
    { timeout: 240_000 },
    async () => {
      const prober = await Prober.start(id);
      const path = graphqlRoute?.pattern ?? "/graphql";
      // The twin's schema, as any client reads it.
      const introspection = await prober.send(
        { method: "POST", path, query: "", body: JSON.stringify({ query: getIntrospectionQuery() }), type: "application/json" },
        "(introspection)",
      );
      expect(introspection.status).toBe(200);
      const schema = buildClientSchema((JSON.parse(introspection.text) as { data: IntrospectionQuery }).data);
      const document = fc.oneof(
        { weight: 4, arbitrary: graphqlDocuments(schema).map((d) => ({ query: d.query, what: `(depth ${d.depth}, width ${d.width})` })) },
        { weight: 1, arbitrary: brokenGraphql.map((query) => ({ query, what: "(broken GraphQL)" })) },
      );
      await fc.assert(
        fc.asyncProperty(document, fc.nat(2), async ({ query, what }, credential) => {
          await prober.send(
            { method: "POST", path, query: "", body: JSON.stringify({ query }), type: "application/json" },
            what,
            credential,
          );
        }),
        { numRuns: GRAPHQL_RUNS },
      );
    },
  );

  const heavy = HEAVY_CALLS.filter((h) => h.twin === id);
  it.runIf(heavy.length > 0)("to the heaviest calls issue 36 found", { timeout: 240_000 }, async () => {
    const prober = await Prober.start(id);
    for (const call of heavy) await sendHeavy(prober, call);
  });
});

/** One of the known heavy calls, with the credential it names. */
async function sendHeavy(prober: Prober, call: HeavyCall) {
  const credentials = prober.credentials();
  const credential = call.credential === "user" ? credentials.length - 1 : 0;
  await prober.send(
    {
      method: call.method,
      path: call.path,
      query: new URLSearchParams(call.query ?? {}).toString(),
      body: call.body,
      type: call.contentType,
    },
    `(${call.name})`,
    credential,
    call.path === "/mcp" ? { mcp: true, anyWrite: true } : {},
  );
}
