import { describe, expect, it } from "vitest";
import { failure, sandboxWith, smallWorld } from "./fixtures";

const repo = { owner: "acme", repo: "api" };
// smallWorld's pull request #4 changes both lines of src/app.ts and adds src/new.ts.
const pull = { ...repo, pull_number: 4 };

async function headSha(octokit: Awaited<ReturnType<typeof sandboxWith>>["octokit"]) {
  return (await octokit.pulls.get(pull)).data.head.sha;
}

describe("inline review comments sit on a line of the diff", () => {
  it("comments on a right-side line with its diff hunk, inside a review of its own", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const created = await octokit.pulls.createReviewComment({
      ...pull,
      body: "Why 30 seconds?",
      commit_id: await headSha(octokit),
      path: "src/app.ts",
      line: 2,
      side: "RIGHT",
    });
    expect(created.status).toBe(201);
    expect(created.data).toMatchObject({ path: "src/app.ts", line: 2, side: "RIGHT", subject_type: "line", position: 4 });
    expect(created.data.diff_hunk.split("\n")[0]).toBe("@@ -1,2 +1,2 @@");
    expect(created.data.diff_hunk.split("\n").at(-1)).toBe("+export const timeoutMs = 30_000;");
    const listed = await octokit.pulls.listReviewComments(pull);
    expect(listed.data.map((c) => c.id)).toEqual([created.data.id]);
    const reviews = await octokit.pulls.listReviews(pull);
    expect(reviews.data.find((r) => r.id === created.data.pull_request_review_id)?.state).toBe("COMMENTED");
    expect((await octokit.pulls.getReviewComment({ ...repo, comment_id: created.data.id })).data.body).toBe("Why 30 seconds?");
  });

  it("takes a range on one hunk and the left side", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const commit_id = await headSha(octokit);
    const range = await octokit.pulls.createReviewComment({ ...pull, body: "Both", commit_id, path: "src/app.ts", start_line: 1, line: 2 });
    expect(range.data).toMatchObject({ start_line: 1, line: 2, start_side: "RIGHT", side: "RIGHT" });
    const left = await octokit.pulls.createReviewComment({
      ...pull,
      body: "Old value",
      commit_id,
      path: "src/app.ts",
      line: 1,
      side: "LEFT",
    });
    expect(left.data).toMatchObject({ line: 1, side: "LEFT", position: 1 });
  });

  it("refuses a line outside the diff and a file the pull request does not change, in GitHub's words", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const commit_id = await headSha(octokit);
    const line = await failure(octokit.pulls.createReviewComment({ ...pull, body: "x", commit_id, path: "src/app.ts", line: 40 }));
    expect(line.status).toBe(422);
    expect(line.response.data).toMatchObject({
      message: "Unprocessable Entity",
      errors: ["Pull request review thread line must be part of the diff and Pull request review thread diff hunk can't be blank"],
    });
    const path = await failure(octokit.pulls.createReviewComment({ ...pull, body: "x", commit_id, path: "README.md", line: 1 }));
    expect(path.response.data.errors).toEqual([
      "Pull request review thread path is invalid and Pull request review thread diff hunk can't be blank",
    ]);
    expect((await octokit.pulls.listReviewComments(pull)).data).toEqual([]);
  });
});

describe("replies thread under the comment they answer", () => {
  it("replies through createReplyForReviewComment and in_reply_to, always to the thread's first comment", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const root = await octokit.pulls.createReviewComment({
      ...pull,
      body: "Rename this?",
      commit_id: await headSha(octokit),
      path: "src/new.ts",
      line: 1,
    });
    const reply = await octokit.pulls.createReplyForReviewComment({ ...pull, comment_id: root.data.id, body: "Done." });
    expect(reply.status).toBe(201);
    expect(reply.data).toMatchObject({ in_reply_to_id: root.data.id, path: "src/new.ts", line: 1, diff_hunk: root.data.diff_hunk });
    const nested = await octokit.pulls.createReviewComment({ ...pull, body: "Thanks", in_reply_to: reply.data.id } as never);
    expect(nested.data.in_reply_to_id).toBe(root.data.id);
    expect((await failure(octokit.pulls.createReplyForReviewComment({ ...pull, comment_id: 999999, body: "?" }))).status).toBe(404);
  });

  it("edits, reacts to, and deletes a review comment", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const c = await octokit.pulls.createReviewComment({
      ...pull,
      body: "typo",
      commit_id: await headSha(octokit),
      path: "src/new.ts",
      line: 1,
    });
    const edited = await octokit.pulls.updateReviewComment({ ...repo, comment_id: c.data.id, body: "Typo fixed?" });
    expect(edited.data.body).toBe("Typo fixed?");
    await octokit.reactions.createForPullRequestReviewComment({ ...repo, comment_id: c.data.id, content: "eyes" });
    expect((await octokit.pulls.getReviewComment({ ...repo, comment_id: c.data.id })).data.reactions?.eyes).toBe(1);
    expect((await octokit.pulls.deleteReviewComment({ ...repo, comment_id: c.data.id })).status).toBe(204);
    expect((await failure(octokit.pulls.getReviewComment({ ...repo, comment_id: c.data.id }))).status).toBe(404);
  });
});

describe("reviews carry inline comments", () => {
  it("creates a COMMENT review of inline comments only, and lists them under the review", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const review = await octokit.pulls.createReview({
      ...pull,
      event: "COMMENT",
      comments: [
        { path: "src/app.ts", line: 1, body: "Bump the major?" },
        { path: "src/new.ts", position: 1, body: "Empty module" },
      ],
    });
    expect(review.data.state).toBe("COMMENTED");
    const comments = await octokit.pulls.listCommentsForReview({ ...pull, review_id: review.data.id });
    expect(comments.data.map((c) => [c.path, c.line, c.body])).toEqual([
      ["src/app.ts", 1, "Bump the major?"],
      ["src/new.ts", 1, "Empty module"],
    ]);
  });

  it("writes nothing when one of its comments misses the diff", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const err = await failure(
      octokit.pulls.createReview({
        ...pull,
        event: "COMMENT",
        body: "Two notes",
        comments: [
          { path: "src/app.ts", line: 1, body: "fine" },
          { path: "src/app.ts", line: 99, body: "nowhere" },
        ],
      }),
    );
    expect(err.status).toBe(422);
    expect((await octokit.pulls.listReviews(pull)).data).toEqual([]);
    expect((await octokit.pulls.listReviewComments(pull)).data).toEqual([]);
  });
});

describe("updating a pull request's branch merges its base into it", () => {
  it("merges new base commits into the head branch, then has nothing left to merge", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const main = await octokit.git.getRef({ ...repo, ref: "heads/main" });
    await octokit.git.createRef({ ...repo, ref: "refs/heads/topic", sha: main.data.object.sha });
    await octokit.repos.createOrUpdateFileContents({ ...repo, path: "topic.txt", message: "Topic", content: btoa("t\n"), branch: "topic" });
    const pr = await octokit.pulls.create({ ...repo, title: "Topic", head: "topic", base: "main" });
    await octokit.repos.createOrUpdateFileContents({ ...repo, path: "base.txt", message: "Base moves", content: btoa("b\n") });
    const stale = await failure(octokit.pulls.updateBranch({ ...repo, pull_number: pr.data.number, expected_head_sha: "0".repeat(40) }));
    expect(stale.response.data.message).toBe("expected head sha didn't match current head ref.");
    const updated = await octokit.pulls.updateBranch({ ...repo, pull_number: pr.data.number, expected_head_sha: pr.data.head.sha });
    expect(updated.status).toBe(202);
    expect(updated.data.message).toBe("Updating pull request branch.");
    const onTopic = await octokit.repos.getContent({ ...repo, path: "base.txt", ref: "topic", mediaType: { format: "raw" } });
    expect(onTopic.data as unknown as string).toBe("b\n");
    const head = await octokit.repos.getCommit({ ...repo, ref: "topic" });
    expect(head.data.commit.message).toBe("Merge branch 'main' into topic");
    expect(head.data.parents).toHaveLength(2);
    const again = await failure(octokit.pulls.updateBranch({ ...repo, pull_number: pr.data.number }));
    expect(again.status).toBe(422);
    expect(again.response.data.message).toBe("There are no new commits on the base branch.");
  });
});
