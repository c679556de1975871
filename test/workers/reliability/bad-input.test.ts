// Bad input, property-based, over every route of every registered twin and the /v1 JSON
// endpoints: random and adversarial bodies, queries, headers and path values. The promises:
// never a 5xx (a twin's 501 for what it does not implement aside), always the vendor's own error
// shape on a twin and the error envelope on /v1, never a changed world on refusal, and the
// sandbox still finalizes afterwards. A new twin is covered by its registry line alone.
import { SELF, env } from "cloudflare:test";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TWIN_IDS, twinById } from "../../../durable-objects/twins/registry";
import type { TwinId } from "../../../durable-objects/twins/registry";
import type { Route } from "../../../durable-objects/twins/types";
import { code, finalizeOk } from "../grading/run-helpers";
import { ORIGIN, api, createSandbox, type CreatedSandbox } from "../helpers";
import { badBody, badHeaders, badQuery, contentType, pathValue } from "./arbitraries";
import { expectVendorShape, goodValues, stateOf } from "./twin-calls";

// Runs per property: enough to reach every route several times and keep `npm test` within minutes.
const RUNS = 250;

/** A concrete path for a route pattern, one arbitrary value per parameter. */
function pathFor(route: Route, good: Record<string, string>): fc.Arbitrary<string> {
  const parts = route.pattern.split("/").map((segment) => {
    const param = /^[:*]([A-Za-z_]+)$/.exec(segment)?.[1];
    return param ? pathValue(param, good) : fc.constant(segment);
  });
  return fc.tuple(...parts).map((segments) => segments.join("/"));
}

/** Every seq on the sandbox's tape, following /_pome/events' cursor from page to page. */
async function tapeSeqs(sandbox: CreatedSandbox, id: TwinId): Promise<number[]> {
  const seqs: number[] = [];
  for (let after: string | null = "0"; after !== null; ) {
    const res = await SELF.fetch(`${sandbox.per_twin[id].api_url}/_pome/events?all_twins=true&after_seq=${after}`, {
      headers: { authorization: `Bearer ${sandbox.agent_token}` },
    });
    seqs.push(...(await res.json<{ seq: number }[]>()).map((r) => r.seq));
    after = res.headers.get("x-pome-next-after-seq");
  }
  return seqs;
}

const MUTATING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

describe.each(TWIN_IDS)("the %s twin under bad input", (id) => {
  const twin = twinById(id);
  const good = goodValues(twin);
  const routes = twin.routes;

  it.runIf(routes.length > 0)(
    "never answers 5xx, refuses in its own shape, changes nothing when it refuses, and still finalizes",
    async () => {
      const sandbox = await createSandbox({ twins: [id] });
      const auth = `Bearer ${sandbox.agent_token}`;
      let taped = 0;
      const call = fc.constantFrom(...routes).chain((route) =>
        fc.record({
          route: fc.constant(route),
          path: pathFor(route, good),
          body: badBody,
          query: badQuery,
          type: contentType,
          extra: badHeaders,
        }),
      );
      await fc.assert(
        fc.asyncProperty(call, async ({ route, path, body, query, type, extra }) => {
          const mutating = MUTATING.has(route.method);
          const before = mutating ? await stateOf(sandbox, id) : "";
          const headers: Record<string, string> = { ...extra, authorization: auth };
          if (type) headers["content-type"] = type;
          const res = await SELF.fetch(`${sandbox.per_twin[id].api_url}${path}${query ? `?${query}` : ""}`, {
            method: route.method,
            headers,
            body: route.method === "GET" || route.method === "HEAD" ? undefined : body,
          });
          const text = await res.text();
          // A catch-all route (a mount such as `/api/v3/*path`) serves what its rest names: a rest
          // naming nothing the twin implements is the twin's 501, as at the root.
          const notImplemented = route.pattern.includes("*") && res.status === 501;
          if (!notImplemented) expect(res.status, `${route.method} ${path}: ${text.slice(0, 300)}`).toBeLessThan(500);
          if (res.status !== 413) taped++;
          if (res.status >= 400) {
            expectVendorShape(twin, res.status, text, res.headers.get("content-type") ?? "");
            if (mutating)
              expect(await stateOf(sandbox, id), `${route.method} ${path} refused ${res.status} but changed the world`).toBe(before);
          }
        }),
        { numRuns: RUNS },
      );
      // Every call but the oversized ones (refused before the sandbox saw them) is on a gap-free tape.
      const seqs = await tapeSeqs(sandbox, id);
      expect(seqs).toEqual(seqs.map((_, i) => i + 1));
      expect(seqs.length).toBe(taped);
      const run = await finalizeOk(sandbox.session_id, [
        code("c1", "No unsupported endpoint was called", { always_scored: true, twin: id }),
      ]);
      expect(run.run_id).toMatch(/^run_/);
    },
  );

  it("refuses any path it does not serve in its own shape, with any body, and still finalizes", async () => {
    const sandbox = await createSandbox({ twins: [id] });
    const token = sandbox.provider_credentials[id].token;
    const authorization = twin.credential.scheme ? `${twin.credential.scheme} ${token}` : token;
    const before = await stateOf(sandbox, id);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom("GET", "POST", "PUT", "PATCH", "DELETE"), fc.webPath(), badBody, async (method, path, body) => {
        const res = await SELF.fetch(`${sandbox.per_twin[id].api_url}/pome-fuzz${path}`, {
          method,
          headers: { authorization },
          body: method === "GET" ? undefined : body,
        });
        const text = await res.text();
        expect([
          ...(res.status === 413 ? [413] : []),
          twin.errors.notImplemented({ method, path, query: "", headers: {}, body: "", baseUrl: "", transport: "rest" }).status,
        ]).toContain(res.status);
        expectVendorShape(twin, res.status, text, res.headers.get("content-type") ?? "");
      }),
      { numRuns: Math.ceil(RUNS / 5) },
    );
    expect(await stateOf(sandbox, id)).toBe(before);
    await finalizeOk(sandbox.session_id, [code("c1", "No unsupported endpoint was called", { always_scored: true, twin: id })]);
  });
});

interface Endpoint {
  method: string;
  path: (ids: { sandbox: string; other: string }) => string;
  key?: string;
}

/** Every /v1 JSON endpoint that takes a body or a query. */
const ENDPOINTS: Endpoint[] = [
  { method: "POST", path: () => "/v1/sandboxes" },
  { method: "POST", path: () => "/v1/sessions" },
  { method: "POST", path: () => "/v1/seeds/validate" },
  { method: "POST", path: () => "/v1/tasks" },
  { method: "POST", path: () => "/v1/agents" },
  { method: "POST", path: () => "/v1/checks/render" },
  { method: "POST", path: () => "/v1/checks/bind" },
  { method: "POST", path: (i) => `/v1/sandboxes/${i.sandbox}/finalize` },
  { method: "POST", path: (i) => `/v1/sandboxes/${i.other}/finalize` },
  { method: "POST", path: (i) => `/v1/sandboxes/${i.sandbox}/heartbeat` },
  { method: "POST", path: (i) => `/v1/sandboxes/${i.sandbox}/uploads` },
  { method: "GET", path: () => "/v1/sandboxes" },
  { method: "GET", path: () => "/v1/runs" },
  { method: "GET", path: () => "/v1/tasks" },
  { method: "GET", path: () => "/v1/checks" },
  { method: "GET", path: (i) => `/v1/sandboxes/${i.other}` },
  { method: "POST", path: () => "/v1/admin/teams", key: "test-admin-secret" },
  { method: "POST", path: () => "/v1/admin/teams/tm_local/keys", key: "test-admin-secret" },
];

describe("the /v1 endpoints under bad input", () => {
  it("never answer 5xx, always in the error envelope with its request id, and refusals change nothing", async () => {
    const sandbox = await createSandbox();
    const ids = { sandbox: sandbox.session_id, other: "ses_AAAAAAAAAAAAAAAA" };
    const count = async () => (await env.DB.prepare("SELECT count(*) AS n FROM sandboxes").first<{ n: number }>())?.n ?? 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...ENDPOINTS),
        badBody,
        badQuery,
        contentType,
        badHeaders,
        async (endpoint, body, query, type, extra) => {
          const before = endpoint.method === "POST" ? await count() : 0;
          const path = endpoint.path(ids);
          const res = await api(`${path}${query ? `?${query}` : ""}`, {
            method: endpoint.method,
            key: endpoint.key,
            headers: { ...extra, ...(type ? { "content-type": type } : {}) },
            body: endpoint.method === "GET" ? undefined : body,
          });
          const text = await res.text();
          expect(res.status, `${endpoint.method} ${path}: ${text.slice(0, 300)}`).toBeLessThan(500);
          if (res.status >= 400) {
            const parsed = JSON.parse(text) as { error: { type: string; message: string; details: object; request_id: string } };
            expect(parsed.error).toMatchObject({ type: expect.any(String), message: expect.any(String), details: expect.any(Object) });
            expect(parsed.error.request_id).toBe(res.headers.get("x-request-id"));
            if (endpoint.method === "POST") expect(await count()).toBe(before);
          }
        },
      ),
      { numRuns: RUNS },
    );
    // Bad finalize bodies never closed the sandbox: it still finalizes.
    const run = await finalizeOk(sandbox.session_id, [code("c1", "Issue #1 exists in `acme/api`", { always_scored: true })]);
    expect(run.run_id).toMatch(/^run_/);
  });

  it("answers the root form with any credential-less or forged request in a twin's or the platform's shape, never 5xx", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.webPath(),
        fc.oneof(
          fc.constant(""),
          fc.string({ maxLength: 30 }),
          fc.constantFrom(...TWIN_IDS.map((t) => `${twinById(t).credential.prefix}forged`)),
        ),
        async (path, token) => {
          const res = await SELF.fetch(`${ORIGIN}${path || "/"}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
          expect(res.status).toBeLessThan(500);
          await res.arrayBuffer();
        },
      ),
      { numRuns: RUNS },
    );
  });
});
