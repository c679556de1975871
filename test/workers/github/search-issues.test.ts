import { describe, expect, it } from "vitest";
import { failure, sandboxWith, smallWorld } from "./fixtures";

// smallWorld's acme/api: #1 (alice, bug, assigned bob, milestone v1.0, "cc @alice", 2026-01-01),
// #2 (bob, 2026-01-02), #3 (alice, closed, bug, one comment by bob, 2026-01-03), pull #4 (bob, 2026-01-04).

describe("issue search reads the qualifiers GitHub documents", () => {
  it("filters by date ranges on created:, updated: and closed:", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const numbers = async (q: string) =>
      (await octokit.search.issuesAndPullRequests({ q: `repo:acme/api ${q}`, sort: "created", order: "asc" })).data.items.map(
        (i) => i.number,
      );
    expect(await numbers("created:>2026-01-02")).toEqual([3, 4]);
    expect(await numbers("created:>=2026-01-02")).toEqual([2, 3, 4]);
    expect(await numbers("created:<2026-01-02")).toEqual([1]);
    expect(await numbers("created:<=2026-01-02")).toEqual([1, 2]);
    expect(await numbers("created:2026-01-02..2026-01-03")).toEqual([2, 3]);
    expect(await numbers("created:2026-01-03..*")).toEqual([3, 4]);
    expect(await numbers("created:2026-01-02")).toEqual([2]);
    expect(await numbers("created:>2026-01-02T12:00:00Z")).toEqual([3, 4]);
    expect(await numbers("closed:>=2026-01-01")).toEqual([3]);
    expect(await numbers("updated:<2026-01-01")).toEqual([]);
  });

  it("filters by counts: comments:, reactions: and interactions:", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    await octokit.reactions.createForIssue({ owner: "acme", repo: "api", issue_number: 2, content: "heart" });
    const numbers = async (q: string) =>
      (await octokit.search.issuesAndPullRequests({ q: `repo:acme/api ${q}`, sort: "created", order: "asc" })).data.items.map(
        (i) => i.number,
      );
    expect(await numbers("comments:>0")).toEqual([3]);
    expect(await numbers("comments:0")).toEqual([1, 2, 4]);
    expect(await numbers("reactions:>=1")).toEqual([2]);
    expect(await numbers("interactions:1")).toEqual([2, 3]);
    expect(await numbers("interactions:1 comments:0..0")).toEqual([2]);
  });

  it("finds people: mentions:, commenter:, involves:, assignee:@me and -author:", async () => {
    const world = smallWorld();
    world.authenticated_user = "bob";
    const { octokit } = await sandboxWith(world);
    const numbers = async (q: string) =>
      (await octokit.search.issuesAndPullRequests({ q: `repo:acme/api ${q}`, sort: "created", order: "asc" })).data.items.map(
        (i) => i.number,
      );
    expect(await numbers("mentions:alice")).toEqual([1]);
    expect(await numbers("mentions:ali")).toEqual([]);
    expect(await numbers("commenter:bob")).toEqual([3]);
    expect(await numbers("involves:bob")).toEqual([1, 2, 3, 4]);
    expect(await numbers("involves:alice")).toEqual([1, 3]);
    expect(await numbers("assignee:@me")).toEqual([1]);
    expect(await numbers("author:@me")).toEqual([2, 4]);
    expect(await numbers("-author:bob")).toEqual([1, 3]);
  });

  it("reads milestone:, label lists (any of), in:comments, head:, base:, review: and draft:", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const numbers = async (q: string) =>
      (await octokit.search.issuesAndPullRequests({ q: `repo:acme/api ${q}`, sort: "created", order: "asc" })).data.items.map(
        (i) => i.number,
      );
    expect(await numbers('milestone:"v1.0"')).toEqual([1]);
    expect(await numbers("no:milestone is:issue")).toEqual([2, 3]);
    expect(await numbers("label:bug,enhancement")).toEqual([1, 3]);
    expect(await numbers("label:bug label:enhancement")).toEqual([]);
    expect(await numbers("confirmed")).toEqual([]);
    expect(await numbers("confirmed in:comments")).toEqual([3]);
    expect(await numbers("head:feature base:main")).toEqual([4]);
    expect(await numbers("review:none")).toEqual([4]);
    expect(await numbers("draft:false")).toEqual([4]);
    expect(await numbers("is:draft")).toEqual([]);
  });

  it("sorts by sort: in the query and by the sort parameter, comments first", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const first = async (q: string, sort?: "comments" | "interactions") =>
      (await octokit.search.issuesAndPullRequests({ q: `repo:acme/api ${q}`, sort })).data.items.map((i) => i.number);
    expect(await first("is:issue", "comments")).toEqual([3, 2, 1]);
    expect(await first("is:issue sort:created-asc")).toEqual([1, 2, 3]);
    expect(await first("is:issue sort:comments-desc")).toEqual([3, 2, 1]);
  });

  it("refuses text over 256 characters and pages past the first 1000 results with GitHub's 422", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const long = await failure(octokit.search.issuesAndPullRequests({ q: `repo:acme/api ${"x".repeat(257)}` }));
    expect(long.status).toBe(422);
    expect(long.response.data.errors).toEqual([expect.objectContaining({ field: "q", code: "invalid" })]);
    const far = await failure(octokit.search.issuesAndPullRequests({ q: "repo:acme/api", per_page: 100, page: 11 }));
    expect(far.status).toBe(422);
    expect(far.response.data.message).toBe("Only the first 1000 search results are available");
  });
});
