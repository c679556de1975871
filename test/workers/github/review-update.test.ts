// pulls.updateReview through @octokit/rest: PUT /repos/{owner}/{repo}/pulls/{pull_number}/reviews/{review_id}.
// GitHub's reference (docs.github.com/rest/pulls/reviews#update-a-review-for-a-pull-request):
// "Updates the contents of a specified review summary comment"; the body's `body` is required;
// it answers 200 with the Review, or 422 with validation-error-simple ({ message, documentation_url,
// errors?: string[] }).
import { describe, expect, it } from "vitest";
import { failure, sandboxWith, smallWorld } from "./fixtures";

const repo = { owner: "acme", repo: "api" };
// smallWorld's pull request #4 is bob's, so octo (the authenticated user) may request changes on it.
const pull = { ...repo, pull_number: 4 };

describe("pulls.updateReview", () => {
  it("replaces a submitted review's text and keeps its verdict, id and submission time", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const review = await octokit.pulls.createReview({ ...pull, event: "REQUEST_CHANGES", body: "Please add a test." });
    const updated = await octokit.pulls.updateReview({ ...pull, review_id: review.data.id, body: "Please add a test for the timeout." });
    expect(updated.status).toBe(200);
    expect(updated.data).toMatchObject({
      id: review.data.id,
      node_id: review.data.node_id,
      body: "Please add a test for the timeout.",
      state: "CHANGES_REQUESTED",
      user: { login: "octo" },
      submitted_at: review.data.submitted_at,
      commit_id: review.data.commit_id,
      html_url: `https://github.com/acme/api/pull/4#pullrequestreview-${review.data.id}`,
    });
    expect(updated.data.pull_request_url).toMatch(/\/repos\/acme\/api\/pulls\/4$/);

    const read = await octokit.pulls.getReview({ ...pull, review_id: review.data.id });
    expect(read.data).toMatchObject({ body: "Please add a test for the timeout.", state: "CHANGES_REQUESTED" });
    const listed = await octokit.pulls.listReviews(pull);
    expect(listed.data.map((r) => [r.id, r.body])).toEqual([[review.data.id, "Please add a test for the timeout."]]);
  });

  it("updates a pending review's text, which stays pending until submitted", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const pending = await octokit.pulls.createReview({ ...pull, body: "Draft" });
    expect(pending.data.state).toBe("PENDING");
    const updated = await octokit.pulls.updateReview({ ...pull, review_id: pending.data.id, body: "Looks good overall." });
    expect(updated.data).toMatchObject({ id: pending.data.id, state: "PENDING", body: "Looks good overall." });
    expect(updated.data.submitted_at).toBeUndefined();
    const submitted = await octokit.pulls.submitReview({ ...pull, review_id: pending.data.id, event: "COMMENT" });
    expect(submitted.data).toMatchObject({ state: "COMMENTED", body: "Looks good overall." });
  });

  it("answers GitHub's 404 for an unknown review, and for a review of another pull request", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const review = await octokit.pulls.createReview({ ...pull, event: "COMMENT", body: "Noted." });
    const unknown = await failure(octokit.pulls.updateReview({ ...pull, review_id: 999999, body: "x" }));
    expect(unknown.status).toBe(404);
    expect(unknown.response.data).toMatchObject({ message: "Not Found", documentation_url: expect.any(String) });
    // Issue #1 is no pull request: the review is found only under #4.
    const elsewhere = await failure(octokit.pulls.updateReview({ ...repo, pull_number: 1, review_id: review.data.id, body: "x" }));
    expect(elsewhere.status).toBe(404);
    expect((await octokit.pulls.getReview({ ...pull, review_id: review.data.id })).data.body).toBe("Noted.");
  });

  it("refuses a request without body with 422 in the validation-error-simple shape, changing nothing", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const review = await octokit.pulls.createReview({ ...pull, event: "COMMENT", body: "Noted." });
    const err = await failure(octokit.pulls.updateReview({ ...pull, review_id: review.data.id } as never));
    expect(err.status).toBe(422);
    const body = err.response.data;
    // GitHub's request-schema refusal for a required property left out.
    expect(body).toMatchObject({ message: 'Invalid request.\n\n"body" wasn\'t supplied.', documentation_url: expect.any(String) });
    for (const e of body.errors ?? []) expect(typeof e).toBe("string");
    expect((await octokit.pulls.getReview({ ...pull, review_id: review.data.id })).data.body).toBe("Noted.");
  });

  it("refuses submitReview without event and dismissReview without message in the same shape", async () => {
    // Both answer their 422 with validation-error-simple in GitHub's description, as updateReview does.
    const { octokit } = await sandboxWith(smallWorld());
    const pending = await octokit.pulls.createReview({ ...pull, body: "Draft." });
    const submit = await failure(octokit.pulls.submitReview({ ...pull, review_id: pending.data.id } as never));
    expect(submit.status).toBe(422);
    expect(submit.response.data.message).toBe('Invalid request.\n\n"event" wasn\'t supplied.');
    for (const e of submit.response.data.errors ?? []) expect(typeof e).toBe("string");
    expect((await octokit.pulls.getReview({ ...pull, review_id: pending.data.id })).data.state).toBe("PENDING");
    const done = await octokit.pulls.createReview({ ...pull, event: "COMMENT", body: "Seen." });
    const dismiss = await failure(octokit.pulls.dismissReview({ ...pull, review_id: done.data.id } as never));
    expect(dismiss.status).toBe(422);
    expect(dismiss.response.data.message).toBe('Invalid request.\n\n"message" wasn\'t supplied.');
    for (const e of dismiss.response.data.errors ?? []) expect(typeof e).toBe("string");
  });
});
