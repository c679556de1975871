// pulls.listReviewCommentsForRepo through @octokit/rest: every pull request's inline review
// comments in one list. GitHub's reference (docs.github.com/rest/pulls/comments#list-review-comments-in-a-repository):
// "By default, review comments are in ascending order by ID"; `sort` is created or updated;
// `direction` (asc or desc) is "Ignored without `sort` parameter"; `since` keeps only comments "last
// updated after the given time"; per_page and page page it, with a Link header.
import { describe, expect, it } from "vitest";
import { failure, sandboxWith, smallWorld } from "./fixtures";

const repo = { owner: "acme", repo: "api" };

/** smallWorld plus a `docs` branch and pull request #5, with review comments on #4 and #5. */
function commentedWorld() {
  const world = smallWorld();
  const r = world.repositories[0] as unknown as { branches: unknown[]; pulls: Record<string, unknown>[] };
  r.branches.push({ name: "docs", files: [{ path: "docs/guide.md", content: "Guide, revised\n" }] });
  r.pulls[0].review_comments = [
    {
      id: 1001,
      user: "alice",
      body: "Why 30 seconds?",
      path: "src/app.ts",
      line: 2,
      side: "RIGHT",
      created_at: "2026-02-01T00:00:00Z",
      updated_at: "2026-02-01T00:00:00Z",
    },
    {
      id: 1003,
      user: "bob",
      body: "It matches the gateway.",
      path: "src/app.ts",
      line: 2,
      side: "RIGHT",
      in_reply_to_id: 1001,
      created_at: "2026-02-03T00:00:00Z",
      updated_at: "2026-02-06T00:00:00Z",
    },
  ];
  r.pulls.push({
    number: 5,
    title: "Revise the guide",
    user: "alice",
    head: "docs",
    base: "main",
    created_at: "2026-01-20T00:00:00Z",
    review_comments: [
      {
        id: 1002,
        user: "bob",
        body: "Typo?",
        path: "docs/guide.md",
        line: 1,
        side: "RIGHT",
        created_at: "2026-02-02T00:00:00Z",
        updated_at: "2026-02-02T00:00:00Z",
      },
      {
        id: 1004,
        user: "bob",
        body: "Is this file still needed?",
        path: "docs/guide.md",
        subject_type: "file",
        created_at: "2026-02-04T00:00:00Z",
        updated_at: "2026-02-04T00:00:00Z",
      },
    ],
  });
  return world;
}

type Octokit = Awaited<ReturnType<typeof sandboxWith>>["octokit"];
type Query = Omit<Parameters<Octokit["pulls"]["listReviewCommentsForRepo"]>[0] & object, "owner" | "repo">;
const ids = async (octokit: Octokit, q: Query = {}) =>
  (await octokit.pulls.listReviewCommentsForRepo({ ...repo, ...q })).data.map((c) => c.id);

describe("pulls.listReviewCommentsForRepo", () => {
  it("lists every pull request's review comments in ascending id order, each naming its pull request", async () => {
    const { octokit } = await sandboxWith(commentedWorld());
    const listed = await octokit.pulls.listReviewCommentsForRepo(repo);
    expect(listed.status).toBe(200);
    expect(listed.data.map((c) => [c.id, c.user.login, c.path, c.body])).toEqual([
      [1001, "alice", "src/app.ts", "Why 30 seconds?"],
      [1002, "bob", "docs/guide.md", "Typo?"],
      [1003, "bob", "src/app.ts", "It matches the gateway."],
      [1004, "bob", "docs/guide.md", "Is this file still needed?"],
    ]);
    const [first, second, reply, file] = listed.data;
    expect(first.pull_request_url).toMatch(/\/repos\/acme\/api\/pulls\/4$/);
    expect(second.pull_request_url).toMatch(/\/repos\/acme\/api\/pulls\/5$/);
    expect(first.html_url).toBe("https://github.com/acme/api/pull/4#discussion_r1001");
    expect(first._links.pull_request.href).toBe(first.pull_request_url);
    expect(first).toMatchObject({ line: 2, side: "RIGHT", subject_type: "line", created_at: "2026-02-01T00:00:00Z" });
    expect(reply.in_reply_to_id).toBe(1001);
    expect(first.in_reply_to_id).toBeUndefined();
    expect(file).toMatchObject({ subject_type: "file", line: null });
  });

  it("sorts by created or updated, either direction, and ignores direction without sort", async () => {
    const { octokit } = await sandboxWith(commentedWorld());
    expect(await ids(octokit, { sort: "created", direction: "desc" })).toEqual([1004, 1003, 1002, 1001]);
    expect(await ids(octokit, { sort: "created", direction: "asc" })).toEqual([1001, 1002, 1003, 1004]);
    // This operation's description also lists `created_at` among the sorts.
    expect(await ids(octokit, { sort: "created_at", direction: "desc" })).toEqual([1004, 1003, 1002, 1001]);
    // 1003 was edited last (2026-02-06).
    expect(await ids(octokit, { sort: "updated", direction: "asc" })).toEqual([1001, 1002, 1004, 1003]);
    expect(await ids(octokit, { sort: "updated", direction: "desc" })).toEqual([1003, 1004, 1002, 1001]);
    // "direction: The direction to sort results. Ignored without `sort` parameter." (the description).
    expect(await ids(octokit, { direction: "desc" })).toEqual([1001, 1002, 1003, 1004]);
  });

  it("keeps only comments updated since a time, and pages with a Link header", async () => {
    const { octokit } = await sandboxWith(commentedWorld());
    expect(await ids(octokit, { since: "2026-02-03T12:00:00Z" })).toEqual([1003, 1004]);
    expect(await ids(octokit, { since: "2026-03-01T00:00:00Z" })).toEqual([]);
    const page1 = await octokit.pulls.listReviewCommentsForRepo({ ...repo, per_page: 3 });
    expect(page1.data.map((c) => c.id)).toEqual([1001, 1002, 1003]);
    expect(page1.headers.link).toMatch(/[?&]page=2[^>]*>; rel="next"/);
    expect(page1.headers.link).toMatch(/[?&]page=2[^>]*>; rel="last"/);
    expect(await ids(octokit, { per_page: 3, page: 2 })).toEqual([1004]);
  });

  it("reads back comments made and deleted through the API", async () => {
    const { octokit } = await sandboxWith(commentedWorld());
    const commit_id = (await octokit.pulls.get({ ...repo, pull_number: 4 })).data.head.sha;
    const made = await octokit.pulls.createReviewComment({
      ...repo,
      pull_number: 4,
      body: "New file?",
      commit_id,
      path: "src/new.ts",
      line: 1,
    });
    await octokit.pulls.deleteReviewComment({ ...repo, comment_id: 1002 });
    const listed = (await octokit.pulls.listReviewCommentsForRepo(repo)).data;
    expect(listed.map((c) => c.id)).toEqual([1001, 1003, 1004, made.data.id]);
    expect(listed.at(-1)).toMatchObject({ body: "New file?", user: { login: "octo" }, path: "src/new.ts" });
  });

  it("answers an empty list for a repository without review comments, and GitHub's 404 for an unknown repository", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    expect((await octokit.pulls.listReviewCommentsForRepo(repo)).data).toEqual([]);
    const err = await failure(octokit.pulls.listReviewCommentsForRepo({ owner: "acme", repo: "nope" }));
    expect(err.status).toBe(404);
    expect(err.response.data).toMatchObject({ message: "Not Found", documentation_url: expect.any(String) });
  });
});
