// GitHub's rate-limit buckets: core, search, code_search and graphql counted apart, each answer
// naming its bucket in x-ratelimit-resource, GET /rate_limit and authorized 304s free.
import { describe, expect, it } from "vitest";
import { twinFetch } from "../helpers";
import { failure, sandboxWith, smallWorld } from "./fixtures";

const repo = { owner: "acme", repo: "api" };

describe("search calls count in their own buckets, not in core", () => {
  it("counts issue searches in search (30 a minute) and code searches in code_search (10 a minute)", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    await octokit.issues.get({ ...repo, issue_number: 1 });
    const first = await octokit.search.issuesAndPullRequests({ q: "repo:acme/api timeout" });
    expect(first.headers["x-ratelimit-resource"]).toBe("search");
    expect(first.headers["x-ratelimit-limit"]).toBe("30");
    expect(first.headers["x-ratelimit-used"]).toBe("1");
    expect(first.headers["x-ratelimit-remaining"]).toBe("29");
    const second = await octokit.search.repos({ q: "api" });
    expect(second.headers["x-ratelimit-used"]).toBe("2");
    const code = await octokit.search.code({ q: "timeoutMs repo:acme/api" });
    expect(code.headers["x-ratelimit-resource"]).toBe("code_search");
    expect(code.headers["x-ratelimit-limit"]).toBe("10");
    expect(code.headers["x-ratelimit-used"]).toBe("1");

    const { data } = await octokit.rateLimit.get();
    expect(data.resources.core).toMatchObject({ limit: 5000, used: 1, remaining: 4999, resource: "core" });
    expect(data.resources.search).toMatchObject({ limit: 30, used: 2, remaining: 28, resource: "search" });
    expect(data.resources.code_search).toMatchObject({ limit: 10, used: 1, remaining: 9, resource: "code_search" });
    expect(data.resources.graphql).toMatchObject({ limit: 5000, used: 0, resource: "graphql" });
    // A search window lasts a minute from its first call; core's an hour.
    const now = Date.now() / 1000;
    expect(data.resources.search.reset).toBeGreaterThan(now);
    expect(data.resources.search.reset).toBeLessThanOrEqual(Math.ceil(now + 60));
    expect(data.resources.core.reset).toBeGreaterThan(now + 60);
  });

  it("counts a refused search in search too", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const refused = await failure(octokit.search.issuesAndPullRequests({ q: "repo:nobody/nothing bug" }));
    expect(refused.status).toBe(422);
    expect(refused.response.headers["x-ratelimit-resource"]).toBe("search");
    expect((await octokit.rateLimit.get()).data.resources).toMatchObject({ search: { used: 1 }, core: { used: 0 } });
  });
});

describe("GraphQL calls spend points in the graphql bucket", () => {
  it("reports the points in rateLimit, the headers and GET /rate_limit alike", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const data = await octokit.graphql<{ rateLimit: { used: number; remaining: number; cost: number; limit: number } }>(
      `{ rateLimit { limit cost used remaining } viewer { login } }`,
    );
    expect(data.rateLimit).toEqual({ limit: 5000, cost: 1, used: 1, remaining: 4999 });
    const raw = await octokit.request("POST /graphql", { query: "{ viewer { login } }" });
    expect(raw.headers["x-ratelimit-resource"]).toBe("graphql");
    expect(raw.headers["x-ratelimit-used"]).toBe("2");
    const { data: limits } = await octokit.rateLimit.get();
    expect(limits.resources.graphql).toMatchObject({ used: 2, remaining: 4998 });
    expect(limits.resources.core.used).toBe(0);
  });
});

describe("calls GitHub does not count", () => {
  it("does not count GET /rate_limit itself", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    await octokit.repos.get({ ...repo });
    await octokit.rateLimit.get();
    const { data, headers } = await octokit.rateLimit.get();
    expect(data.resources.core.used).toBe(1);
    expect(headers["x-ratelimit-resource"]).toBe("core");
    expect(headers["x-ratelimit-used"]).toBe("1");
  });

  it("does not count an authorized conditional request answered 304", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const first = await octokit.issues.get({ ...repo, issue_number: 1 });
    expect(first.headers["x-ratelimit-used"]).toBe("1");
    const etag = first.headers.etag ?? "";
    for (let i = 0; i < 3; i++) {
      const notModified = await failure(octokit.issues.get({ ...repo, issue_number: 1, headers: { "if-none-match": etag } }));
      expect(notModified.status).toBe(304);
      expect(notModified.response.headers["x-ratelimit-used"]).toBe("1");
    }
    const { data } = await octokit.rateLimit.get();
    expect(data.resources.core.used).toBe(1);
    // A 200 to a conditional request whose validator no longer holds counts as any call does.
    const changed = await octokit.issues.get({ ...repo, issue_number: 1, headers: { "if-none-match": 'W/"stale"' } });
    expect(changed.headers["x-ratelimit-used"]).toBe("2");
  });

  it("counts in core a call no route served, once a route runs", async () => {
    const { octokit, sandbox } = await sandboxWith(smallWorld());
    expect((await twinFetch(sandbox, "/repos/acme/api/unserved-area")).status).toBe(501);
    await octokit.repos.get({ ...repo });
    expect((await octokit.rateLimit.get()).data.resources.core.used).toBe(2);
  });
});

describe("a spent search bucket refuses the call as GitHub does", () => {
  it("answers the 31st search in a minute 403 with remaining 0, and spends nothing else", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    for (let i = 0; i < 30; i++) await octokit.search.issuesAndPullRequests({ q: `repo:acme/api timeout ${i}` });
    const refused = await failure(octokit.search.issuesAndPullRequests({ q: "repo:acme/api timeout" }));
    expect(refused.status).toBe(403);
    // What @octokit/plugin-throttling reads as the primary limit: 403 and remaining "0".
    expect(refused.response.headers).toMatchObject({
      "x-ratelimit-remaining": "0",
      "x-ratelimit-used": "30",
      "x-ratelimit-limit": "30",
      "x-ratelimit-resource": "search",
    });
    expect(Number(refused.response.headers["x-ratelimit-reset"])).toBeGreaterThan(Date.now() / 1000);
    const octo = (await octokit.users.getByUsername({ username: "octo" })).data.id;
    expect(refused.response.data.message).toMatch(
      new RegExp(`^API rate limit exceeded for user ID ${octo}\\. If you reach out to GitHub Support`),
    );
    expect(refused.response.data.documentation_url).toBe("https://docs.github.com/rest/overview/rate-limits-for-the-rest-api");
    // Other search kinds share the bucket; code search has its own and still answers.
    expect((await failure(octokit.search.repos({ q: "api" }))).status).toBe(403);
    expect((await octokit.search.code({ q: "timeoutMs repo:acme/api" })).status).toBe(200);
    // The refusals were not counted again, and core only saw the one users call.
    const { data } = await octokit.rateLimit.get();
    expect(data.resources.search).toMatchObject({ used: 30, remaining: 0 });
    expect(data.resources.core.used).toBe(1);
  });
});
