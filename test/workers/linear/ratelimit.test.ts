// Linear's rate limiting through @linear/sdk: the request and complexity headers on every answer,
// `rateLimitStatus`, and the RATELIMITED refusal (HTTP 400, statusCode 429) when a bucket is empty.
import { SELF } from "cloudflare:test";
import { RatelimitedLinearError } from "@linear/sdk";
import { beforeAll, describe, expect, it } from "vitest";
import { acmeWorld, linearFor, linearSandbox, routeFetchThroughSelf } from "./fixtures";
import { charge, fullAt, levelAt, HOUR_MS } from "../../../durable-objects/twins/linear/ratelimit";
import type { Db } from "../../../durable-objects/sql";
import { twinFetch } from "../helpers";

beforeAll(routeFetchThroughSelf);

const RATE_HEADERS = [
  "x-ratelimit-requests-limit",
  "x-ratelimit-requests-remaining",
  "x-ratelimit-requests-reset",
  "x-complexity",
  "x-ratelimit-complexity-limit",
  "x-ratelimit-complexity-remaining",
  "x-ratelimit-complexity-reset",
];

describe("linear twin: rate-limit headers on every answer", () => {
  it("reports both buckets through the SDK's raw request, counting down per request and per point", async () => {
    const sb = await linearSandbox();
    const client = linearFor(sb);
    const first = await client.client.rawRequest("query { viewer { id name } }");
    for (const h of RATE_HEADERS) expect(first.headers?.get(h), h).toMatch(/^\d+$/);
    expect(first.headers?.get("x-ratelimit-requests-limit")).toBe("5000");
    expect(first.headers?.get("x-ratelimit-complexity-limit")).toBe("3000000");
    expect(first.headers?.get("x-ratelimit-requests-remaining")).toBe("4999");
    // One object and two scalars: 1 + 0.2, rounded up.
    expect(first.headers?.get("x-complexity")).toBe("2");
    const reset = Number(first.headers?.get("x-ratelimit-requests-reset"));
    expect(reset).toBeGreaterThan(Date.now());
    expect(reset).toBeLessThan(Date.now() + HOUR_MS);
    const second = await client.client.rawRequest("query { issues(first: 10) { nodes { id title } } }");
    expect(Number(second.headers?.get("x-ratelimit-requests-remaining"))).toBeLessThanOrEqual(4998);
    expect(Number(second.headers?.get("x-complexity"))).toBeGreaterThan(10);
    expect(Number(second.headers?.get("x-ratelimit-complexity-remaining"))).toBeLessThan(3_000_000 - 2);
  });

  it("sends them on refusals too (an unknown issue, a query too complex)", async () => {
    const sb = await linearSandbox();
    const url = `${sb.per_twin.linear.api_url}/graphql`;
    const post = (query: string) =>
      SELF.fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: sb.provider_credentials.linear.token },
        body: JSON.stringify({ query }),
      });
    const missing = await post('{ issue(id: "ENG-999") { id } }');
    expect(missing.status).toBe(400);
    expect(missing.headers.get("x-ratelimit-requests-remaining")).toMatch(/^\d+$/);
    const heavy = await post("{ issues(first: 250) { nodes { id title labels(first: 250) { nodes { id name } } } } }");
    expect(heavy.status).toBe(400);
    expect(((await heavy.json()) as { errors: { message: string }[] }).errors[0].message).toBe("Query too complex");
    expect(heavy.headers.get("x-ratelimit-complexity-remaining")).toMatch(/^\d+$/);
  });
});

describe("linear twin: rateLimitStatus", () => {
  it("answers the caller's two buckets through the SDK, after this call is charged", async () => {
    const sb = await linearSandbox(acmeWorld({ rateLimits: { requests: 100, complexity: 50_000 } }));
    const client = linearFor(sb);
    await client.viewer;
    const status = await client.rateLimitStatus;
    expect(status.kind).toBe("apiKey");
    const byType = Object.fromEntries(status.limits.map((l) => [l.type, l]));
    expect(byType.requestCount.allowedAmount).toBe(100);
    expect(byType.requestCount.remainingAmount).toBe(98);
    expect(byType.requestCount.period).toBe(HOUR_MS);
    expect(byType.complexity.allowedAmount).toBe(50_000);
    expect(byType.complexity.remainingAmount).toBeLessThan(50_000);
    expect(byType.complexity.reset).toBeGreaterThan(Date.now());
  });
});

describe("linear twin: RATELIMITED when a bucket is empty", () => {
  it("refuses the request past the hourly count with RatelimitedLinearError and its headers, changing nothing", async () => {
    const sb = await linearSandbox(acmeWorld({ rateLimits: { requests: 3, complexity: 100_000 } }));
    const client = linearFor(sb);
    const team = (await client.teams()).nodes[0];
    await client.viewer;
    await client.createIssue({ teamId: team.id, title: "Third request" });
    const err = await client.createIssue({ teamId: team.id, title: "Fourth request" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RatelimitedLinearError);
    const limited = err as RatelimitedLinearError;
    expect(limited.status).toBe(400);
    expect(limited.errors?.[0]?.type).toBe("Ratelimited");
    expect(limited.raw?.response?.errors?.[0]?.extensions).toMatchObject({ code: "RATELIMITED", statusCode: 429 });
    expect(limited.requestsLimit).toBe(3);
    expect(limited.requestsRemaining).toBe(0);
    expect(limited.retryAfter).toBeGreaterThan(0);
    expect(limited.requestsResetAt).toBeGreaterThan(Date.now());
    // The refused call created nothing: the state shows only the third request's issue.
    const state = await twinFetch(sb, "/_pome/state", {}, "linear");
    const issues = ((await state.json()) as { issues: { title: string }[] }).issues.map((i) => i.title);
    expect(issues).toContain("Third request");
    expect(issues).not.toContain("Fourth request");
  });

  it("refuses a query whose complexity is more than the points left this hour", async () => {
    const sb = await linearSandbox(acmeWorld({ rateLimits: { requests: 100, complexity: 300 } }));
    const client = linearFor(sb);
    const err = await client.issues({ first: 50 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RatelimitedLinearError);
    const limited = err as RatelimitedLinearError;
    expect(limited.complexityLimit).toBe(300);
    expect(limited.complexityRemaining).toBeLessThanOrEqual(300);
    // A small query still fits.
    expect((await client.viewer).email).toBe("ada@acme.test");
  });
});

describe("linear twin: the leaky bucket", () => {
  const fakeDb = {} as Db;
  it("refills at limit/hour and reports when it is full again", () => {
    expect(levelAt({ limit: 3600, level: 0, at: 0 }, 1000)).toBeCloseTo(1);
    expect(levelAt({ limit: 3600, level: 3600, at: 0 }, HOUR_MS)).toBe(3600);
    expect(fullAt(3600, 3599, 0)).toBe(1000);
  });
  it("charges a request and its points; a refused request still counts, its points do not", () => {
    const limits = { requests: 3, complexity: 10 };
    expect(charge(fakeDb, "u", limits, 4, 0).refused).toBeUndefined();
    expect(charge(fakeDb, "u", limits, 7, 0).refused).toBe("complexity");
    const third = charge(fakeDb, "u", limits, 1, 0);
    expect(third.refused).toBeUndefined();
    expect(third.state).toMatchObject({ requestsRemaining: 0, complexityRemaining: 5 });
    expect(charge(fakeDb, "u", limits, 1, 0).refused).toBe("requests");
    // Half an hour later one request has come back.
    expect(charge(fakeDb, "u", limits, 1, HOUR_MS / 2).refused).toBeUndefined();
  });
});
