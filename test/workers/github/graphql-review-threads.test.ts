// Review threads in GraphQL through `octokit.graphql`, over the same rows as REST's pull-request
// review comments (checked through @octokit/rest both ways), with GitHub's PRRT_/PRRC_ ids.
import { describe, expect, it } from "vitest";
import { postJson } from "../helpers";
import { sandboxWith, smallWorld, stateOf } from "./fixtures";

type Data = { readonly [key: string]: Data } & readonly Data[] & string;

const repo = { owner: "acme", repo: "api" };
// smallWorld's pull request #4 changes both lines of src/app.ts and adds src/new.ts.
const pull = { ...repo, pull_number: 4 };

const THREADS = `query($after: String) {
  repository(owner: "acme", name: "api") {
    pullRequest(number: 4) {
      reviewThreads(first: 10, after: $after) {
        totalCount
        pageInfo { hasNextPage endCursor }
        nodes {
          id isResolved isOutdated isCollapsed path line startLine diffSide startDiffSide subjectType
          viewerCanResolve viewerCanUnresolve resolvedBy { login }
          pullRequest { number }
          comments(first: 10) { totalCount nodes { id databaseId body author { login } path line diffHunk replyTo { databaseId } state url } }
        }
      }
    }
  }
}`;

async function pullId(octokit: Awaited<ReturnType<typeof sandboxWith>>["octokit"]) {
  const data = await octokit.graphql<Data>(`{ repository(owner: "acme", name: "api") { pullRequest(number: 4) { id } } }`);
  return data.repository.pullRequest.id as string;
}

describe("review threads in GraphQL", () => {
  it("opens a thread that REST lists, replies to it, and resolves it", async () => {
    const { octokit, sandbox } = await sandboxWith(smallWorld());
    const added = await octokit.graphql<Data>(
      `mutation($input: AddPullRequestReviewThreadInput!) {
        addPullRequestReviewThread(input: $input) { clientMutationId thread { id path line diffSide subjectType isResolved comments(first: 5) { nodes { id databaseId body } } } }
      }`,
      { input: { pullRequestId: await pullId(octokit), path: "src/app.ts", line: 2, body: "Why 30 seconds?", clientMutationId: "t1" } },
    );
    const thread = added.addPullRequestReviewThread.thread;
    expect(added.addPullRequestReviewThread.clientMutationId).toBe("t1");
    expect(thread).toMatchObject({ path: "src/app.ts", line: 2, diffSide: "RIGHT", subjectType: "LINE", isResolved: false });
    expect(thread.id).toMatch(/^PRRT_kw[A-Za-z0-9_-]+$/);
    const first = thread.comments.nodes[0];
    expect(first.id).toMatch(/^PRRC_kw[A-Za-z0-9_-]+$/);

    // REST reads the same comment, with the same global id, on a published COMMENTED review.
    const listed = await octokit.pulls.listReviewComments(pull);
    expect(listed.data).toHaveLength(1);
    expect(listed.data[0]).toMatchObject({ id: first.databaseId, node_id: first.id, body: "Why 30 seconds?", line: 2, side: "RIGHT" });
    const review = (await octokit.pulls.listReviews(pull)).data.find((r) => r.id === listed.data[0].pull_request_review_id);
    expect(review?.state).toBe("COMMENTED");

    // A REST reply joins the thread; a GraphQL reply too, and REST threads it under the first comment.
    await octokit.pulls.createReplyForReviewComment({ ...pull, comment_id: Number(first.databaseId), body: "Config says so." });
    const reply = await octokit.graphql<Data>(
      `mutation($input: AddPullRequestReviewThreadReplyInput!) { addPullRequestReviewThreadReply(input: $input) { comment { id body replyTo { id } pullRequest { number } } } }`,
      { input: { pullRequestReviewThreadId: thread.id, body: "Then 30 it is." } },
    );
    expect(reply.addPullRequestReviewThreadReply.comment).toMatchObject({
      body: "Then 30 it is.",
      replyTo: { id: first.id },
      pullRequest: { number: 4 },
    });
    const rest = (await octokit.pulls.listReviewComments(pull)).data;
    expect(rest.map((c) => [c.body, c.in_reply_to_id ?? null])).toEqual([
      ["Why 30 seconds?", null],
      ["Config says so.", first.databaseId],
      ["Then 30 it is.", first.databaseId],
    ]);

    const resolved = await octokit.graphql<Data>(
      `mutation($id: ID!) { resolveReviewThread(input: { threadId: $id, clientMutationId: "r" }) { clientMutationId thread { id isResolved isCollapsed viewerCanResolve viewerCanUnresolve resolvedBy { login } } } }`,
      { id: thread.id },
    );
    expect(resolved.resolveReviewThread).toEqual({
      clientMutationId: "r",
      thread: {
        id: thread.id,
        isResolved: true,
        isCollapsed: true,
        viewerCanResolve: false,
        viewerCanUnresolve: true,
        resolvedBy: { login: "octo" },
      },
    });

    const read = await octokit.graphql<Data>(THREADS);
    const threads = read.repository.pullRequest.reviewThreads;
    expect(threads.totalCount).toBe(1);
    expect(threads.nodes[0]).toMatchObject({ id: thread.id, isResolved: true, isOutdated: false, path: "src/app.ts", line: 2 });
    expect(threads.nodes[0].comments.totalCount).toBe(3);
    expect(threads.nodes[0].comments.nodes.map((c: Data) => c.body)).toEqual(["Why 30 seconds?", "Config says so.", "Then 30 it is."]);
    expect(threads.nodes[0].comments.nodes[1].replyTo).toEqual({ databaseId: first.databaseId });
    expect(threads.nodes[0].comments.nodes[0].url).toBe(`https://github.com/acme/api/pull/4#discussion_r${first.databaseId}`);

    // node(id:) answers the thread and a comment by their ids.
    const nodes = await octokit.graphql<Data>(
      `query($t: ID!, $c: ID!) { t: node(id: $t) { __typename ... on PullRequestReviewThread { isResolved } } c: node(id: $c) { __typename ... on PullRequestReviewComment { body } } }`,
      { t: thread.id, c: first.id },
    );
    expect(nodes).toEqual({
      t: { __typename: "PullRequestReviewThread", isResolved: true },
      c: { __typename: "PullRequestReviewComment", body: "Why 30 seconds?" },
    });

    const unresolved = await octokit.graphql<Data>(
      `mutation($id: ID!) { unresolveReviewThread(input: { threadId: $id }) { thread { isResolved resolvedBy { login } } } }`,
      { id: thread.id },
    );
    expect(unresolved.unresolveReviewThread.thread).toEqual({ isResolved: false, resolvedBy: null });

    // The state is the world's: exported with the pull request's review comments.
    await octokit.graphql(`mutation($id: ID!) { resolveReviewThread(input: { threadId: $id }) { thread { id } } }`, { id: thread.id });
    const state = await stateOf<{
      repositories: { name: string; pulls: { number: number; review_comments: Record<string, unknown>[] }[] }[];
    }>(sandbox);
    const comments = state.repositories.find((r) => r.name === "api")?.pulls.find((p) => p.number === 4)?.review_comments ?? [];
    expect(comments.map((c) => [c.body, c.in_reply_to_id, c.resolved_by])).toEqual([
      ["Why 30 seconds?", null, "octo"],
      ["Config says so.", first.databaseId, null],
      ["Then 30 it is.", first.databaseId, null],
    ]);
  });

  it("a comment made through REST is a thread in GraphQL; ranges, the left side and file threads", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const commit_id = (await octokit.pulls.get(pull)).data.head.sha;
    const made = await octokit.pulls.createReviewComment({
      ...pull,
      body: "Both lines",
      commit_id,
      path: "src/app.ts",
      start_line: 1,
      line: 2,
    });
    const id = await pullId(octokit);
    await octokit.graphql(
      `mutation($input: AddPullRequestReviewThreadInput!) { addPullRequestReviewThread(input: $input) { thread { id } } }`,
      { input: { pullRequestId: id, path: "src/app.ts", line: 1, side: "LEFT", body: "Old value" } },
    );
    await octokit.graphql(
      `mutation($input: AddPullRequestReviewThreadInput!) { addPullRequestReviewThread(input: $input) { thread { id } } }`,
      { input: { pullRequestId: id, path: "src/new.ts", subjectType: "FILE", body: "Whole file" } },
    );
    const read = await octokit.graphql<Data>(THREADS);
    const nodes = read.repository.pullRequest.reviewThreads.nodes;
    expect(nodes.map((t: Data) => [t.path, t.startLine, t.line, t.startDiffSide, t.diffSide, t.subjectType])).toEqual([
      ["src/app.ts", 1, 2, "RIGHT", "RIGHT", "LINE"],
      ["src/app.ts", null, 1, null, "LEFT", "LINE"],
      ["src/new.ts", null, null, null, "RIGHT", "FILE"],
    ]);
    expect(nodes[0].comments.nodes[0]).toMatchObject({ databaseId: made.data.id, id: made.data.node_id, diffHunk: made.data.diff_hunk });
    const rest = (await octokit.pulls.listReviewComments(pull)).data;
    expect(rest.map((c) => [c.path, c.line ?? null, c.side ?? null, c.subject_type])).toEqual([
      ["src/app.ts", 2, "RIGHT", "line"],
      ["src/app.ts", 1, "LEFT", "line"],
      ["src/new.ts", null, null, "file"],
    ]);
  });

  it("a thread added to a pending review stays the author's until the review is submitted", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const id = await pullId(octokit);
    const pending = await octokit.graphql<Data>(
      `mutation($id: ID!) { addPullRequestReview(input: { pullRequestId: $id }) { pullRequestReview { id state } } }`,
      { id },
    );
    const reviewId = pending.addPullRequestReview.pullRequestReview.id;
    const added = await octokit.graphql<Data>(
      `mutation($input: AddPullRequestReviewThreadInput!) { addPullRequestReviewThread(input: $input) { thread { comments(first: 1) { nodes { state pullRequestReview { id state } } } } } }`,
      { input: { pullRequestReviewId: reviewId, path: "src/new.ts", line: 1, body: "Draft note" } },
    );
    expect(added.addPullRequestReviewThread.thread.comments.nodes[0]).toEqual({
      state: "PENDING",
      pullRequestReview: { id: reviewId, state: "PENDING" },
    });
    const submitted = await octokit.graphql<Data>(
      `mutation($id: ID!) { submitPullRequestReview(input: { pullRequestReviewId: $id, event: COMMENT }) { pullRequestReview { state comments(first: 5) { totalCount nodes { body state } } } } }`,
      { id: reviewId },
    );
    expect(submitted.submitPullRequestReview.pullRequestReview).toEqual({
      state: "COMMENTED",
      comments: { totalCount: 1, nodes: [{ body: "Draft note", state: "SUBMITTED" }] },
    });
    const review = (await octokit.pulls.listReviews(pull)).data.find((r) => r.state === "COMMENTED");
    const inReview = await octokit.pulls.listCommentsForReview({ ...pull, review_id: review?.id ?? 0 });
    expect(inReview.data.map((c) => c.body)).toEqual(["Draft note"]);
  });

  it("refuses a line outside the diff, an unknown thread and a blank body, and writes nothing", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const id = await pullId(octokit);
    const outside = await octokit
      .graphql(`mutation($input: AddPullRequestReviewThreadInput!) { addPullRequestReviewThread(input: $input) { thread { id } } }`, {
        input: { pullRequestId: id, path: "src/app.ts", line: 40, body: "x" },
      })
      .catch((e: { errors: unknown[]; data: unknown }) => e);
    expect(outside).toMatchObject({
      data: { addPullRequestReviewThread: null },
      errors: [
        {
          type: "UNPROCESSABLE",
          path: ["addPullRequestReviewThread"],
          message: "Pull request review thread line must be part of the diff and Pull request review thread diff hunk can't be blank",
        },
      ],
    });
    const unknown = await octokit
      .graphql(`mutation { resolveReviewThread(input: { threadId: "PRRT_kwDOAAAAAc4AAAAB" }) { thread { id } } }`)
      .catch((e: { errors: unknown[] }) => e);
    expect(unknown).toMatchObject({
      errors: [{ type: "NOT_FOUND", message: "Could not resolve to a node with the global id of 'PRRT_kwDOAAAAAc4AAAAB'" }],
    });
    const blank = await octokit
      .graphql(`mutation($input: AddPullRequestReviewThreadInput!) { addPullRequestReviewThread(input: $input) { thread { id } } }`, {
        input: { pullRequestId: id, path: "src/app.ts", line: 2, body: "  " },
      })
      .catch((e: { errors: { type: string }[] }) => e);
    expect(blank).toMatchObject({ errors: [{ type: "UNPROCESSABLE" }] });
    expect((await octokit.pulls.listReviewComments(pull)).data).toEqual([]);
    expect((await octokit.pulls.listReviews(pull)).data).toEqual([]);
  });

  it("a thread goes outdated when a push changes the lines it was written on", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    await octokit.graphql(
      `mutation($input: AddPullRequestReviewThreadInput!) { addPullRequestReviewThread(input: $input) { thread { id } } }`,
      { input: { pullRequestId: await pullId(octokit), path: "src/app.ts", line: 2, body: "Why 30 seconds?" } },
    );
    const before = await octokit.graphql<Data>(THREADS);
    expect(before.repository.pullRequest.reviewThreads.nodes[0].isOutdated).toBe(false);
    const file = await octokit.repos.getContent({ ...repo, path: "src/app.ts", ref: "feature" });
    const sha = (file.data as { sha: string }).sha;
    await octokit.repos.createOrUpdateFileContents({
      ...repo,
      path: "src/app.ts",
      branch: "feature",
      sha,
      message: "Make it a minute",
      content: btoa("export const retries = 3;\nexport const timeoutMs = 60_000;\n"),
    });
    const after = await octokit.graphql<Data>(THREADS);
    expect(after.repository.pullRequest.reviewThreads.nodes[0].isOutdated).toBe(true);
  });
});

describe("deleting comments and reviews keeps threads whole", () => {
  it("a thread outlives its deleted first comment, and a deleted pending review takes its drafts along", async () => {
    const { octokit, sandbox } = await sandboxWith(smallWorld());
    const commit_id = (await octokit.pulls.get(pull)).data.head.sha;
    const root = await octokit.pulls.createReviewComment({ ...pull, body: "First", commit_id, path: "src/app.ts", line: 2 });
    const reply = await octokit.pulls.createReplyForReviewComment({ ...pull, comment_id: root.data.id, body: "Second" });
    await octokit.pulls.createReplyForReviewComment({ ...pull, comment_id: root.data.id, body: "Third" });
    const threadId = (await octokit.graphql<Data>(THREADS)).repository.pullRequest.reviewThreads.nodes[0].id;
    await octokit.graphql(`mutation($id: ID!) { resolveReviewThread(input: { threadId: $id }) { thread { id } } }`, { id: threadId });
    await octokit.pulls.deleteReviewComment({ ...repo, comment_id: root.data.id });
    const threads = (await octokit.graphql<Data>(THREADS)).repository.pullRequest.reviewThreads;
    expect(threads.totalCount).toBe(1);
    expect(threads.nodes[0]).toMatchObject({ isResolved: true, comments: { totalCount: 2 } });
    expect(threads.nodes[0].comments.nodes.map((c: Data) => c.body)).toEqual(["Second", "Third"]);
    const rest = (await octokit.pulls.listReviewComments(pull)).data;
    expect(rest.map((c) => [c.body, c.in_reply_to_id ?? null])).toEqual([
      ["Second", null],
      ["Third", reply.data.id],
    ]);

    const pending = await octokit.pulls.createReview({ ...pull, comments: [{ path: "src/new.ts", line: 1, body: "Draft" }] });
    expect((await octokit.graphql<Data>(THREADS)).repository.pullRequest.reviewThreads.totalCount).toBe(2);
    await octokit.pulls.deletePendingReview({ ...pull, review_id: pending.data.id });
    expect((await octokit.graphql<Data>(THREADS)).repository.pullRequest.reviewThreads.totalCount).toBe(1);
    expect((await octokit.pulls.listReviewComments(pull)).data.map((c) => c.body)).toEqual(["Second", "Third"]);
    // What is left boots again from its export.
    const exported = await stateOf(sandbox);
    expect(await stateOf((await sandboxWith(exported)).sandbox)).toEqual(exported);
  });
});

describe("review threads in the seed", () => {
  const seeded = () =>
    smallWorld({
      pulls: [
        {
          number: 4,
          title: "Raise the timeout",
          user: "bob",
          head: "feature",
          base: "main",
          reviews: [{ id: 900, user: "alice", state: "COMMENTED", body: "" }],
          review_comments: [
            { id: 901, user: "alice", body: "Why 30?", path: "src/app.ts", line: 2, side: "RIGHT", review_id: 900, resolved_by: "bob" },
            { id: 902, user: "bob", body: "Config.", path: "src/app.ts", line: 2, side: "RIGHT", in_reply_to_id: 901 },
            { id: 903, user: "alice", body: "And this file?", path: "src/new.ts", subject_type: "file" },
          ],
        },
      ],
    });

  it("boots seeded threads, resolved or not, and boots its own export into the same world", async () => {
    const { octokit, sandbox } = await sandboxWith(seeded());
    const read = await octokit.graphql<Data>(THREADS);
    const nodes = read.repository.pullRequest.reviewThreads.nodes;
    expect(nodes.map((t: Data) => [t.path, t.isResolved, t.resolvedBy?.login ?? null, t.comments.totalCount])).toEqual([
      ["src/app.ts", true, "bob", 2],
      ["src/new.ts", false, null, 1],
    ]);
    expect((await octokit.pulls.listReviewComments(pull)).data.map((c) => c.id)).toEqual([901, 902, 903]);
    await octokit.graphql(`mutation($id: ID!) { resolveReviewThread(input: { threadId: $id }) { thread { id } } }`, { id: nodes[1].id });
    const exported = await stateOf(sandbox);
    const again = await sandboxWith(exported);
    expect(await stateOf(again.sandbox)).toEqual(exported);
    const reread = await again.octokit.graphql<Data>(THREADS);
    expect(reread.repository.pullRequest.reviewThreads.nodes.map((t: Data) => [t.id, t.isResolved])).toEqual([
      [nodes[0].id, true],
      [nodes[1].id, true],
    ]);
  });

  it("refuses a reply to no earlier thread, a review of another pull request and resolved_by on a reply, with paths", async () => {
    const world = seeded();
    const comments = (world.repositories[0].pulls[0] as unknown as { review_comments: Record<string, unknown>[] }).review_comments;
    comments[1] = { ...comments[1], in_reply_to_id: 999, resolved_by: "alice" };
    comments[2] = { ...comments[2], review_id: 12345 };
    const validate = await postJson("/v1/seeds/validate", { twins: ["github"], seed: world });
    expect(validate.status).toBe(422);
    const body = await validate.json<{ error: { details: { issues: { path: string }[] } } }>();
    expect(body.error.details.issues.map((i) => i.path).sort()).toEqual([
      "repositories[0].pulls[0].review_comments[1].in_reply_to_id",
      "repositories[0].pulls[0].review_comments[1].resolved_by",
      "repositories[0].pulls[0].review_comments[2].review_id",
    ]);
  });
});
