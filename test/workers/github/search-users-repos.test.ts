import { describe, expect, it } from "vitest";
import { Octokit } from "@octokit/rest";
import { SELF } from "cloudflare:test";
import { ORIGIN, twinFetch } from "../helpers";
import { failure, manyIssuesWorld, sandboxWith, smallWorld, tapeOf } from "./fixtures";

describe("search finds issues and pull requests with GitHub's qualifiers", () => {
  it("answers {total_count, incomplete_results, items} with scores", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const { data } = await octokit.search.issuesAndPullRequests({ q: "repo:acme/api is:issue is:open" });
    expect(data.total_count).toBe(2);
    expect(data.incomplete_results).toBe(false);
    expect(data.items.map((i) => i.number).sort()).toEqual([1, 2]);
    expect(data.items[0].score).toBe(1);
    expect(data.items[0].repository_url).toMatch(/\/repos\/acme\/api$/);
  });

  it("filters by is:pr, state:, label:, no:label, author:, assignee: and free text", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const numbers = async (q: string) =>
      (await octokit.search.issuesAndPullRequests({ q, sort: "created", order: "asc" })).data.items.map((i) => i.number);
    expect(await numbers("repo:acme/api is:pr")).toEqual([4]);
    expect(await numbers("repo:acme/api state:closed")).toEqual([3]);
    expect(await numbers("repo:acme/api label:bug")).toEqual([1, 3]);
    expect(await numbers("repo:acme/api label:bug -label:bug")).toEqual([]);
    expect(await numbers("repo:acme/api no:label")).toEqual([2, 4]);
    expect(await numbers("repo:acme/api author:bob")).toEqual([2, 4]);
    expect(await numbers("repo:acme/api assignee:bob")).toEqual([1]);
    expect(await numbers("repo:acme/api timeout")).toEqual([4]);
    expect(await numbers("repo:acme/api long reports")).toEqual([1]);
    expect(await numbers('repo:acme/api "link header"')).toEqual([2]);
    expect(await numbers("repo:acme/api pagination in:title")).toEqual([2]);
    expect(await numbers("user:acme is:issue is:closed")).toEqual([3]);
    expect(await numbers("repo:acme/api is:merged")).toEqual([]);
  });

  it("paginates its items with octokit.paginate", async () => {
    const { octokit } = await sandboxWith(manyIssuesWorld(45));
    const items = await octokit.paginate(octokit.search.issuesAndPullRequests, { q: "repo:acme/big Issue", per_page: 20 });
    expect(items).toHaveLength(45);
  });

  it("refuses a missing query and an unknown repository with 422", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const missing = await failure(octokit.search.issuesAndPullRequests({ q: "" }));
    expect(missing.status).toBe(422);
    const unknown = await failure(octokit.search.issuesAndPullRequests({ q: "repo:acme/nope bug" }));
    expect(unknown.status).toBe(422);
    expect(unknown.response.data.errors).toEqual([expect.objectContaining({ resource: "Search", field: "q", code: "invalid" })]);
  });
});

describe("users and repositories", () => {
  it("answers GET /user with the sandbox's user and GET /users/{login}", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const me = await octokit.users.getAuthenticated();
    expect(me.data).toMatchObject({ login: "octo", name: "Octo Agent", type: "User" });
    const alice = await octokit.users.getByUsername({ username: "ALICE" });
    expect(alice.data).toMatchObject({ login: "alice", name: "Alice Smith", email: "alice@example.com" });
    expect((await failure(octokit.users.getByUsername({ username: "ghost" }))).status).toBe(404);
  });

  it("gets a repository with its counts, default branch and owner", async () => {
    const { octokit, sandbox } = await sandboxWith(smallWorld());
    const { data } = await octokit.repos.get({ owner: "ACME", repo: "API" });
    expect(data).toMatchObject({
      full_name: "acme/api",
      default_branch: "main",
      open_issues_count: 3,
      private: false,
      owner: { login: "acme", type: "Organization" },
    });
    expect(data.organization?.login).toBe("acme");
    expect(data.url).toBe(`${sandbox.per_twin.github.api_url}/repos/acme/api`);
    const byId = await twinFetch(sandbox, `/repositories/${data.id}`);
    expect((await byId.json<{ full_name: string }>()).full_name).toBe("acme/api");
  });

  it("lists repositories for an organization, a user and the authenticated user", async () => {
    const world = smallWorld();
    world.repositories.push({
      ...world.repositories[0],
      name: "web",
      issues: [],
      pulls: [],
      statuses: [],
    } as (typeof world.repositories)[number]);
    world.repositories.push({ owner: "alice", name: "dotfiles" } as (typeof world.repositories)[number]);
    const { octokit } = await sandboxWith(world);
    expect((await octokit.repos.listForOrg({ org: "acme", sort: "full_name" })).data.map((r) => r.name)).toEqual(["api", "web"]);
    expect((await octokit.repos.listForUser({ username: "alice" })).data.map((r) => r.full_name)).toEqual(["alice/dotfiles"]);
    expect((await octokit.repos.listForAuthenticatedUser()).data.map((r) => r.full_name)).toEqual([
      "acme/api",
      "acme/web",
      "alice/dotfiles",
    ]);
    expect((await failure(octokit.repos.listForOrg({ org: "alice" }))).status).toBe(404);
  });

  it("answers GET /rate_limit with the same numbers its headers carry", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    await octokit.users.getAuthenticated();
    const { data, headers } = await octokit.rateLimit.get();
    // GET /rate_limit itself is not counted (rate-limit.test.ts).
    expect(data.resources.core).toMatchObject({ limit: 5000, used: 1, remaining: 4999 });
    expect(data.rate).toEqual(data.resources.core);
    expect(headers["x-ratelimit-used"]).toBe("1");
    expect(headers["x-ratelimit-reset"]).toBe(String(data.resources.core.reset));
  });
});

describe("the credential-routed root form", () => {
  it("serves Octokit pointed at the origin with the provider token, Link headers included", async () => {
    const { sandbox } = await sandboxWith(manyIssuesWorld(35));
    const root = new Octokit({
      baseUrl: ORIGIN,
      auth: sandbox.provider_credentials.github.token,
      request: { fetch: (input: RequestInfo | URL, init?: RequestInit) => SELF.fetch(new Request(input, init)) },
    });
    const all = await root.paginate(root.issues.listForRepo, { owner: "acme", repo: "big", per_page: 20 });
    expect(all).toHaveLength(35);
    const first = await root.issues.listForRepo({ owner: "acme", repo: "big", per_page: 20 });
    expect(first.headers.link).toMatch(new RegExp(`^<${ORIGIN}/repositories/\\d+/issues\\?per_page=20&page=2>; rel="next"`));
  });
});

describe("anything the twin does not implement answers 501 and is taped unsupported", () => {
  it("refuses an unimplemented route in GitHub's error shape", async () => {
    const { octokit, sandbox } = await sandboxWith(smallWorld());
    const err = await failure(octokit.repos.getPages({ owner: "acme", repo: "api" }));
    expect(err.status).toBe(501);
    expect(err.response.data.message).toContain("does not implement GET /repos/acme/api/pages");
    const tape = await tapeOf(sandbox);
    expect(tape.at(-1)).toMatchObject({ operation: "unsupported", fidelity: "unsupported", status: 501, mutated: false });
  });

  it("keeps inline review comments rather than dropping them (review-comments.test.ts covers them)", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const review = await octokit.pulls.createReview({
      owner: "acme",
      repo: "api",
      pull_number: 4,
      event: "COMMENT",
      body: "x",
      comments: [{ path: "src/app.ts", body: "here", line: 1 }],
    });
    const comments = await octokit.pulls.listCommentsForReview({ owner: "acme", repo: "api", pull_number: 4, review_id: review.data.id });
    expect(comments.data.map((c) => c.body)).toEqual(["here"]);
  });
});

describe("archived repositories are read-only", () => {
  it("answers 403 to a write on an archived repository", async () => {
    const { octokit } = await sandboxWith(smallWorld({ archived: true }));
    const err = await failure(octokit.issues.create({ owner: "acme", repo: "api", title: "x" }));
    expect(err.status).toBe(403);
    expect(err.response.data.message).toBe("Repository was archived so is read-only.");
  });
});
