// Hostile and careless input to the GitHub twin: every value is answered as GitHub answers it,
// quickly, and a refusal changes nothing. Through Octokit, as an agent would call it.
import { describe, expect, it } from "vitest";
import { twinFetch, type CreatedSandbox } from "../helpers";
import { failure, sandboxWith, smallWorld } from "./fixtures";

/** Well under the 250 ms a call may take, with room for a loaded two-core machine. */
const QUICK_MS = 1000;

/** Runs a call and asserts it answered quickly (timed from the moment it is made). */
async function quickly<T>(call: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const result = await call();
  expect(performance.now() - started).toBeLessThan(QUICK_MS);
  return result;
}

const stateOf = async (sandbox: CreatedSandbox) => (await twinFetch(sandbox, "/_pome/state")).text();

/** smallWorld plus issues whose titles hold the characters LIKE and regular expressions treat specially. */
function literalWorld() {
  const world = smallWorld();
  const titles = ["Rate is 100% of quota", "Rate is 100 of quota", "rename a_b", "rename axb", "match .* here", "match all here"];
  const repo = world.repositories[0];
  return {
    ...world,
    repositories: [
      {
        ...repo,
        issues: [
          ...repo.issues,
          ...titles.map((title, i) => ({ number: 10 + i, title, body: i === 2 ? "cc @a_b" : i === 3 ? "cc @axb" : "", user: "alice" })),
          { number: 20, title: `Long: ${"x".repeat(60)} café (*`, user: "bob" },
        ],
      },
    ],
  };
}

describe("search text matches literally, whatever its characters", () => {
  it("finds `%`, `_` and `.*` only where the text holds them", async () => {
    const { octokit } = await sandboxWith(literalWorld());
    const numbers = async (q: string) =>
      (await quickly(() => octokit.search.issuesAndPullRequests({ q: `repo:acme/api ${q}`, sort: "created", order: "asc" }))).data.items
        .map((i) => i.number)
        .sort((a, b) => a - b);
    expect(await numbers("100%")).toEqual([10]);
    expect(await numbers("a_b")).toEqual([12]);
    expect(await numbers(".*")).toEqual([14]);
    expect(await numbers("%")).toEqual([10]);
    expect(await numbers("_")).toEqual([12]);
    expect(await numbers("(*")).toEqual([20]);
    expect(await numbers("CAFÉ")).toEqual([]);
    expect(await numbers("café")).toEqual([20]);
  });

  it("searches a term longer than SQLite's LIKE limit, and many qualifiers at once", async () => {
    const { octokit } = await sandboxWith(literalWorld());
    const long = await quickly(() => octokit.search.issuesAndPullRequests({ q: `repo:acme/api ${"x".repeat(60)}` }));
    expect(long.data.items.map((i) => i.number)).toEqual([20]);
    const missing = await quickly(() => octokit.search.issuesAndPullRequests({ q: `repo:acme/api ${"y".repeat(250)}` }));
    expect(missing.data.total_count).toBe(0);
    // More terms and labels than SQLite takes parameters (100) or nests expressions (100 levels).
    const terms = await quickly(() => octokit.search.issuesAndPullRequests({ q: `repo:acme/api ${"e ".repeat(120)}` }));
    expect(terms.status).toBe(200);
    const labels = await quickly(() =>
      octokit.search.issuesAndPullRequests({ q: `repo:acme/api label:${Array(150).fill("bug").join(",")}` }),
    );
    expect(labels.data.items.map((i) => i.number).sort()).toEqual([1, 3]);
    const notLabels = await quickly(() => octokit.search.issuesAndPullRequests({ q: `repo:acme/api ${"-label:bug ".repeat(60)} rename` }));
    expect(notLabels.data.items.map((i) => i.number).sort()).toEqual([12, 13]);
  });

  it("lists issues that mention a login with `_` literally", async () => {
    const { octokit } = await sandboxWith(literalWorld());
    const { data } = await quickly(() => octokit.issues.listForRepo({ owner: "acme", repo: "api", mentioned: "a_b" }));
    expect(data.map((i) => i.number)).toEqual([12]);
  });
});

describe("a search longer than 256 characters is refused as GitHub refuses it", () => {
  it("answers 422 Validation Failed naming `q`, and changes nothing", async () => {
    const { sandbox, octokit } = await sandboxWith(smallWorld());
    const before = await stateOf(sandbox);
    for (const q of ["a".repeat(257), `repo:acme/api ${"word ".repeat(60)}`, "label:bug ".repeat(200)]) {
      const err = await quickly(() => failure(octokit.search.issuesAndPullRequests({ q })));
      expect(err.status).toBe(422);
      expect(err.response.data).toMatchObject({
        message: "Validation Failed",
        errors: [{ message: "The search is longer than 256 characters.", resource: "Search", field: "q", code: "invalid" }],
        documentation_url: expect.stringContaining("docs.github.com"),
      });
    }
    expect(await stateOf(sandbox)).toBe(before);
    const atTheLimit = await quickly(() => octokit.search.issuesAndPullRequests({ q: "a".repeat(256) }));
    expect(atTheLimit.status).toBe(200);
  });
});

describe("page values are read leniently, as GitHub reads them", () => {
  it("answers an empty page past the end, however far, and the first page for nonsense", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const far = await quickly(() => octokit.issues.listForRepo({ owner: "acme", repo: "api", page: 1e20 }));
    expect(far.status).toBe(200);
    expect(far.data).toEqual([]);
    for (const page of ["99999999999999999999", "9".repeat(400)])
      expect((await quickly(() => octokit.request(`GET /repos/acme/api/issues?page=${page}`))).data).toEqual([]);
    // Search serves its first 1000 results only, and says so for a page past them.
    const search = await quickly(() => failure(octokit.search.issuesAndPullRequests({ q: "repo:acme/api", page: 1e20 })));
    expect(search.status).toBe(422);
    expect(search.response.data.message).toBe("Only the first 1000 search results are available");
    const first = await octokit.issues.listForRepo({ owner: "acme", repo: "api" });
    for (const odd of ["-5", "abc", "0", "1.5"]) {
      const page = await quickly(() =>
        octokit.request(`GET /repos/{owner}/{repo}/issues?page=${odd}&per_page=${odd}`, { owner: "acme", repo: "api" }),
      );
      expect(page.data.map((i: { number: number }) => i.number)).toEqual(first.data.map((i) => i.number));
    }
    const huge = await quickly(() => octokit.pulls.list({ owner: "acme", repo: "api", per_page: 1e20 }));
    expect(huge.data.map((p) => p.number)).toEqual([4]);
  });
});

describe("odd ids and paths answer 404, not 5xx", () => {
  it("answers a 60- or 10,000-character id or path as GitHub's Not Found, and changes nothing", async () => {
    const { sandbox, octokit } = await sandboxWith(smallWorld());
    const before = await stateOf(sandbox);
    for (const id of ["9".repeat(60), "x".repeat(60), "9".repeat(10_000)]) {
      const calls = [
        () => octokit.request(`GET /repos/acme/api/issues/${id}`),
        () => octokit.request(`GET /repos/acme/api/pulls/${id}/files`),
        () => octokit.request(`GET /repos/acme/api/milestones/${id}`),
        () => octokit.request(`GET /repos/acme/api/issues/comments/${id}`),
        () => octokit.request(`GET /repositories/${id}/issues`),
        () => octokit.request(`GET /repos/${id}/api`),
        () => octokit.request(`GET /repos/acme/api/contents/${"/".repeat(id.length)}${id}`),
      ];
      for (const call of calls) {
        const err = await quickly(() => failure(call()));
        expect(err.status).toBeGreaterThanOrEqual(400);
        expect(err.status).toBeLessThan(500);
      }
    }
    expect(await stateOf(sandbox)).toBe(before);
  });

  it("reads a path made of thousands of slashes at once", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const slashes = "/".repeat(5000);
    const commits = await quickly(() =>
      octokit.repos.listCommits({ owner: "acme", repo: "api", path: `${slashes}a${slashes}b${slashes}` }),
    );
    expect(commits.data).toEqual([]);
    const readme = await quickly(() => octokit.repos.listCommits({ owner: "acme", repo: "api", path: `${slashes}README.md${slashes}` }));
    expect(readme.data.length).toBeGreaterThan(0);
  });
});
