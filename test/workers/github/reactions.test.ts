// Reactions on issue comments and pull request review comments through @octokit/rest: listing
// them (with the content filter and pages) and deleting one by its id. GitHub's reference
// (docs.github.com/rest/reactions/reactions): "List reactions for a pull request review comment"
// answers 200 with an array of Reaction objects ({ id, node_id, user, content, created_at }) or 404;
// "Delete an issue comment reaction" and "Delete a pull request comment reaction" answer 204 No Content.
import { describe, expect, it } from "vitest";
import { failure, sandboxWith, smallWorld } from "./fixtures";

const repo = { owner: "acme", repo: "api" };
const pull = { ...repo, pull_number: 4 };

type Octokit = Awaited<ReturnType<typeof sandboxWith>>["octokit"];

/** A review comment on pull request #4's new file, made by the authenticated user (octo). */
async function reviewComment(octokit: Octokit) {
  const commit_id = (await octokit.pulls.get(pull)).data.head.sha;
  return (await octokit.pulls.createReviewComment({ ...pull, body: "Empty module?", commit_id, path: "src/new.ts", line: 1 })).data;
}

describe("reactions.deleteForIssueComment", () => {
  it("deletes one reaction from an issue comment (204): it leaves the list and the comment's rollup", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const comment = (await octokit.issues.createComment({ ...repo, issue_number: 1, body: "Seeing this too." })).data;
    const heart = await octokit.reactions.createForIssueComment({ ...repo, comment_id: comment.id, content: "heart" });
    const rocket = await octokit.reactions.createForIssueComment({ ...repo, comment_id: comment.id, content: "rocket" });
    expect((await octokit.issues.getComment({ ...repo, comment_id: comment.id })).data.reactions).toMatchObject({
      total_count: 2,
      heart: 1,
      rocket: 1,
    });

    const deleted = await octokit.reactions.deleteForIssueComment({ ...repo, comment_id: comment.id, reaction_id: heart.data.id });
    expect(deleted.status).toBe(204);
    expect(deleted.data).toBeFalsy();

    const left = await octokit.reactions.listForIssueComment({ ...repo, comment_id: comment.id });
    expect(left.data.map((r) => [r.id, r.content, r.user?.login])).toEqual([[rocket.data.id, "rocket", "octo"]]);
    expect((await octokit.issues.getComment({ ...repo, comment_id: comment.id })).data.reactions).toMatchObject({
      total_count: 1,
      heart: 0,
      rocket: 1,
    });
    // Reacting again makes a new reaction (201), not the deleted one.
    const again = await octokit.reactions.createForIssueComment({ ...repo, comment_id: comment.id, content: "heart" });
    expect(again.status).toBe(201);
    expect(again.data.id).not.toBe(heart.data.id);
  });

  it("answers GitHub's 404 for a reaction that is not on that comment, and for an unknown comment", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const first = (await octokit.issues.createComment({ ...repo, issue_number: 1, body: "One" })).data;
    const second = (await octokit.issues.createComment({ ...repo, issue_number: 2, body: "Two" })).data;
    const onFirst = await octokit.reactions.createForIssueComment({ ...repo, comment_id: first.id, content: "+1" });

    const elsewhere = await failure(
      octokit.reactions.deleteForIssueComment({ ...repo, comment_id: second.id, reaction_id: onFirst.data.id }),
    );
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.response.data).toMatchObject({ message: "Not Found", documentation_url: expect.any(String) });
    const noComment = await failure(octokit.reactions.deleteForIssueComment({ ...repo, comment_id: 999999, reaction_id: onFirst.data.id }));
    expect(noComment.status).toBe(404);
    expect(noComment.response.data.message).toBe("Not Found");
    // The refused deletes left the reaction where it was.
    expect((await octokit.reactions.listForIssueComment({ ...repo, comment_id: first.id })).data.map((r) => r.id)).toEqual([
      onFirst.data.id,
    ]);
  });
});

describe("reactions.listForPullRequestReviewComment", () => {
  it("lists a review comment's reactions as Reaction objects, filters by content and pages", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const comment = await reviewComment(octokit);
    const contents = ["+1", "eyes", "hooray"] as const;
    const made = [];
    for (const content of contents)
      made.push((await octokit.reactions.createForPullRequestReviewComment({ ...repo, comment_id: comment.id, content })).data);

    const listed = await octokit.reactions.listForPullRequestReviewComment({ ...repo, comment_id: comment.id });
    expect(listed.status).toBe(200);
    expect(listed.data.map((r) => [r.id, r.content])).toEqual(made.map((r) => [r.id, r.content]));
    expect(listed.data[0]).toEqual({
      id: made[0].id,
      node_id: expect.any(String),
      user: expect.objectContaining({ login: "octo", type: "User" }),
      content: "+1",
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
    });

    const eyes = await octokit.reactions.listForPullRequestReviewComment({ ...repo, comment_id: comment.id, content: "eyes" });
    expect(eyes.data.map((r) => r.content)).toEqual(["eyes"]);
    const laugh = await octokit.reactions.listForPullRequestReviewComment({ ...repo, comment_id: comment.id, content: "laugh" });
    expect(laugh.data).toEqual([]);

    const page1 = await octokit.reactions.listForPullRequestReviewComment({ ...repo, comment_id: comment.id, per_page: 2 });
    expect(page1.data.map((r) => r.content)).toEqual(["+1", "eyes"]);
    expect(page1.headers.link).toMatch(/[?&]page=2[^>]*>; rel="next"/);
    const page2 = await octokit.reactions.listForPullRequestReviewComment({ ...repo, comment_id: comment.id, per_page: 2, page: 2 });
    expect(page2.data.map((r) => r.content)).toEqual(["hooray"]);
  });

  it("answers an empty list for a comment nobody reacted to, and GitHub's 404 for an unknown comment", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const comment = await reviewComment(octokit);
    expect((await octokit.reactions.listForPullRequestReviewComment({ ...repo, comment_id: comment.id })).data).toEqual([]);
    // The description lists 404 (basic-error) for this operation.
    const err = await failure(octokit.reactions.listForPullRequestReviewComment({ ...repo, comment_id: 999999 }));
    expect(err.status).toBe(404);
    expect(err.response.data).toMatchObject({ message: "Not Found", documentation_url: expect.any(String) });
  });
});

describe("reactions.deleteForPullRequestComment", () => {
  it("deletes one reaction from a review comment (204): it leaves the list and the comment's rollup", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const comment = await reviewComment(octokit);
    const confused = await octokit.reactions.createForPullRequestReviewComment({ ...repo, comment_id: comment.id, content: "confused" });
    const eyes = await octokit.reactions.createForPullRequestReviewComment({ ...repo, comment_id: comment.id, content: "eyes" });

    const deleted = await octokit.reactions.deleteForPullRequestComment({ ...repo, comment_id: comment.id, reaction_id: confused.data.id });
    expect(deleted.status).toBe(204);
    expect(deleted.data).toBeFalsy();

    const left = await octokit.reactions.listForPullRequestReviewComment({ ...repo, comment_id: comment.id });
    expect(left.data.map((r) => r.id)).toEqual([eyes.data.id]);
    expect((await octokit.pulls.getReviewComment({ ...repo, comment_id: comment.id })).data.reactions).toMatchObject({
      total_count: 1,
      confused: 0,
      eyes: 1,
    });
  });

  it("answers GitHub's 404 for a deleted or foreign reaction id and for an unknown comment", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const comment = await reviewComment(octokit);
    const issueComment = (await octokit.issues.createComment({ ...repo, issue_number: 4, body: "Looks right." })).data;
    const onIssueComment = await octokit.reactions.createForIssueComment({ ...repo, comment_id: issueComment.id, content: "heart" });
    const own = await octokit.reactions.createForPullRequestReviewComment({ ...repo, comment_id: comment.id, content: "heart" });
    await octokit.reactions.deleteForPullRequestComment({ ...repo, comment_id: comment.id, reaction_id: own.data.id });

    const twice = await failure(
      octokit.reactions.deleteForPullRequestComment({ ...repo, comment_id: comment.id, reaction_id: own.data.id }),
    );
    expect(twice.status).toBe(404);
    expect(twice.response.data).toMatchObject({ message: "Not Found", documentation_url: expect.any(String) });
    // A reaction on an issue comment is not one of the review comment's.
    const foreign = await failure(
      octokit.reactions.deleteForPullRequestComment({ ...repo, comment_id: comment.id, reaction_id: onIssueComment.data.id }),
    );
    expect(foreign.status).toBe(404);
    expect((await octokit.reactions.listForIssueComment({ ...repo, comment_id: issueComment.id })).data).toHaveLength(1);
    const noComment = await failure(octokit.reactions.deleteForPullRequestComment({ ...repo, comment_id: 999999, reaction_id: 1 }));
    expect(noComment.status).toBe(404);
  });
});
