import { describe, expect, it } from "vitest";
import { APP_FEATURE, README, failure, sandboxWith, smallWorld, stateOf } from "./fixtures";

const repo = { owner: "acme", repo: "api" };
const b64 = (text: string) => btoa(text);

type Octokit = Awaited<ReturnType<typeof sandboxWith>>["octokit"];

/** A branch cut from main's head with one file changed on it, the way an agent makes one. */
async function branchWithChange(octokit: Octokit, name: string, path: string, content: string) {
  const main = await octokit.git.getRef({ ...repo, ref: "heads/main" });
  await octokit.git.createRef({ ...repo, ref: `refs/heads/${name}`, sha: main.data.object.sha });
  const existing = await octokit.repos.getContent({ ...repo, path, ref: name }).catch(() => undefined);
  const sha = existing && !Array.isArray(existing.data) && "sha" in existing.data ? existing.data.sha : undefined;
  await octokit.repos.createOrUpdateFileContents({ ...repo, path, branch: name, message: `Change ${path}`, content: b64(content), sha });
}

describe("pull requests read like GitHub's", () => {
  it("lists open pull requests with head and base refs, shas and repositories", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const { data } = await octokit.pulls.list(repo);
    expect(data).toHaveLength(1);
    const pr = data[0];
    expect(pr).toMatchObject({ number: 4, state: "open", title: "Raise the timeout", draft: false, user: { login: "bob" } });
    expect(pr.head).toMatchObject({ ref: "feature", label: "acme:feature", repo: { full_name: "acme/api" }, user: { login: "acme" } });
    expect(pr.base.ref).toBe("main");
    const feature = await octokit.repos.getBranch({ ...repo, branch: "feature" });
    expect(pr.head.sha).toBe(feature.data.commit.sha);
    expect(pr.html_url).toBe("https://github.com/acme/api/pull/4");
    expect((await octokit.pulls.list({ ...repo, state: "closed" })).data).toEqual([]);
    expect((await octokit.pulls.list({ ...repo, head: "acme:feature" })).data.map((p) => p.number)).toEqual([4]);
    expect((await octokit.pulls.list({ ...repo, base: "other" })).data).toEqual([]);
  });

  it("gets a pull request with its merge state and the size of its change", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const { data } = await octokit.pulls.get({ ...repo, pull_number: 4 });
    expect(data).toMatchObject({
      merged: false,
      mergeable: true,
      mergeable_state: "clean",
      merged_by: null,
      merge_commit_sha: null,
      commits: 1,
      changed_files: 3,
      additions: 3,
      deletions: 3,
      comments: 0,
      requested_reviewers: [],
    });
  });

  it("lists the changed files with status, counts and patch", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const { data } = await octokit.pulls.listFiles({ ...repo, pull_number: 4 });
    expect(data.map((f) => [f.filename, f.status, f.additions, f.deletions, f.changes])).toEqual([
      ["docs/guide.md", "removed", 0, 1, 1],
      ["src/app.ts", "modified", 2, 2, 4],
      ["src/new.ts", "added", 1, 0, 1],
    ]);
    expect(data[1].patch).toBe(
      "@@ -1,2 +1,2 @@\n-export const version = 1;\n-export const timeoutMs = 10_000;\n+export const version = 2;\n+export const timeoutMs = 30_000;",
    );
  });

  it("serves the whole change as a diff when asked for the diff media type", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const { data } = await octokit.pulls.get({ ...repo, pull_number: 4, mediaType: { format: "diff" } });
    const text = data as unknown as string;
    expect(typeof text).toBe("string");
    expect(text).toContain("diff --git a/src/app.ts b/src/app.ts\n");
    expect(text).toContain("+export const version = 2;\n");
    expect(text).toContain("deleted file mode 100644");
  });

  it("lists the pull request's commits", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const { data } = await octokit.pulls.listCommits({ ...repo, pull_number: 4 });
    expect(data.map((c) => c.commit.message)).toEqual(["Initial commit"]);
  });

  it("answers 404 for a pull request number that is an issue", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    expect((await failure(octokit.pulls.get({ ...repo, pull_number: 1 }))).status).toBe(404);
  });
});

describe("pull requests are opened and updated like GitHub's", () => {
  it("opens a pull request (201) with the next number of the shared issue space", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    await branchWithChange(octokit, "docs", "README.md", `${README}More.\n`);
    const { data, status } = await octokit.pulls.create({ ...repo, title: "Docs", head: "docs", base: "main", body: "Adds docs" });
    expect(status).toBe(201);
    expect(data).toMatchObject({
      number: 5,
      state: "open",
      user: { login: "octo" },
      commits: 1,
      changed_files: 1,
      additions: 1,
      deletions: 0,
      mergeable: true,
    });
    const asIssue = await octokit.issues.get({ ...repo, issue_number: 5 });
    expect(asIssue.data.pull_request).toBeDefined();
    const next = await octokit.issues.create({ ...repo, title: "after" });
    expect(next.data.number).toBe(6);
  });

  it("refuses a head or base that does not exist, an empty change, and a duplicate with 422", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const head = await failure(octokit.pulls.create({ ...repo, title: "x", head: "nope", base: "main" }));
    expect(head.status).toBe(422);
    expect(head.response.data.errors).toEqual([{ resource: "PullRequest", field: "head", code: "invalid" }]);
    const base = await failure(octokit.pulls.create({ ...repo, title: "x", head: "feature", base: "nope" }));
    expect(base.response.data.errors).toEqual([{ resource: "PullRequest", field: "base", code: "invalid" }]);
    const main = await octokit.git.getRef({ ...repo, ref: "heads/main" });
    await octokit.git.createRef({ ...repo, ref: "refs/heads/same", sha: main.data.object.sha });
    const empty = await failure(octokit.pulls.create({ ...repo, title: "x", head: "same", base: "main" }));
    expect(empty.response.data.errors).toEqual([{ resource: "PullRequest", code: "custom", message: "No commits between main and same" }]);
    const dup = await failure(octokit.pulls.create({ ...repo, title: "x", head: "feature", base: "main" }));
    expect(dup.response.data.errors).toEqual([
      { resource: "PullRequest", code: "custom", message: "A pull request already exists for acme:feature." },
    ]);
  });

  it("updates title and body, closes and reopens", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const updated = await octokit.pulls.update({ ...repo, pull_number: 4, title: "Raise the timeout to 30s", body: "Fixes #1 properly" });
    expect(updated.data).toMatchObject({ title: "Raise the timeout to 30s", body: "Fixes #1 properly" });
    const closed = await octokit.pulls.update({ ...repo, pull_number: 4, state: "closed" });
    expect(closed.data).toMatchObject({ state: "closed", merged: false, mergeable: null });
    expect(closed.data.closed_at).toBeTruthy();
    expect((await octokit.pulls.update({ ...repo, pull_number: 4, state: "open" })).data.state).toBe("open");
  });
});

describe("merging moves the head's files onto the base", () => {
  it("merges (200), writes a merge commit on the base, closes the pull and the issues it fixes", async () => {
    const { octokit, sandbox } = await sandboxWith(smallWorld());
    const before = await octokit.pulls.get({ ...repo, pull_number: 4 });
    const { data, status } = await octokit.pulls.merge({ ...repo, pull_number: 4, sha: before.data.head.sha });
    expect(status).toBe(200);
    expect(data).toMatchObject({ merged: true, message: "Pull Request successfully merged" });
    const after = await octokit.pulls.get({ ...repo, pull_number: 4 });
    expect(after.data).toMatchObject({ state: "closed", merged: true, merged_by: { login: "octo" }, merge_commit_sha: data.sha });
    expect(after.data.merged_at).toBeTruthy();
    expect(after.data.changed_files).toBe(3);
    const main = await octokit.repos.getBranch({ ...repo, branch: "main" });
    expect(main.data.commit.sha).toBe(data.sha);
    expect(main.data.commit.parents).toHaveLength(2);
    const app = await octokit.repos.getContent({ ...repo, path: "src/app.ts", mediaType: { format: "raw" } });
    expect(app.data as unknown as string).toBe(APP_FEATURE);
    expect((await failure(octokit.repos.getContent({ ...repo, path: "docs/guide.md" }))).status).toBe(404);
    expect((await octokit.pulls.checkIfMerged({ ...repo, pull_number: 4 })).status).toBe(204);
    // "Fixes #1" in the description closes issue 1 on a merge into the default branch.
    expect((await octokit.issues.get({ ...repo, issue_number: 1 })).data).toMatchObject({ state: "closed", state_reason: "completed" });
    const state = await stateOf<{
      repositories: {
        branches: { name: string; files: { path: string }[] }[];
        pulls: { number: number; merged: boolean; state: string }[];
      }[];
    }>(sandbox);
    expect(state.repositories[0].branches.find((b) => b.name === "main")?.files.map((f) => f.path)).toEqual([
      "README.md",
      "src/app.ts",
      "src/new.ts",
    ]);
    expect(state.repositories[0].pulls[0]).toMatchObject({ merged: true, state: "closed" });
  });

  it("answers 405 to merging twice and 404 to checkIfMerged before a merge", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    expect((await failure(octokit.pulls.checkIfMerged({ ...repo, pull_number: 4 }))).status).toBe(404);
    await octokit.pulls.merge({ ...repo, pull_number: 4 });
    const again = await failure(octokit.pulls.merge({ ...repo, pull_number: 4 }));
    expect(again.status).toBe(405);
    expect(again.response.data.message).toBe("Pull Request is not mergeable");
  });

  it("answers 409 when the head moved since the sha the caller saw", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const err = await failure(octokit.pulls.merge({ ...repo, pull_number: 4, sha: "0".repeat(40) }));
    expect(err.status).toBe(409);
    expect(err.response.data.message).toBe("Head branch was modified. Review and try the merge again.");
  });

  it("squashes into one single-parent commit titled after the pull request", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const { data } = await octokit.pulls.merge({ ...repo, pull_number: 4, merge_method: "squash" });
    const commit = await octokit.repos.getCommit({ ...repo, ref: data.sha });
    expect(commit.data.parents).toHaveLength(1);
    expect(commit.data.commit.message.split("\n")[0]).toBe("Raise the timeout (#4)");
    expect(commit.data.files?.map((f) => f.filename)).toEqual(["docs/guide.md", "src/app.ts", "src/new.ts"]);
    const bad = await failure(octokit.pulls.merge({ ...repo, pull_number: 4, merge_method: "fast" as "merge" }));
    expect(bad.status).toBe(422);
  });

  it("merges three-way: changes made on the base since the branch was cut survive", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    await branchWithChange(octokit, "docs", "README.md", `${README}More.\n`);
    const guide = await octokit.repos.getContent({ ...repo, path: "docs/guide.md" });
    const guideSha = !Array.isArray(guide.data) && "sha" in guide.data ? guide.data.sha : "";
    await octokit.repos.createOrUpdateFileContents({
      ...repo,
      path: "docs/guide.md",
      message: "Guide",
      content: b64("Guide v2\n"),
      sha: guideSha,
    });
    const pr = await octokit.pulls.create({ ...repo, title: "Docs", head: "docs", base: "main" });
    expect((await octokit.pulls.listFiles({ ...repo, pull_number: pr.data.number })).data.map((f) => f.filename)).toEqual(["README.md"]);
    await octokit.pulls.merge({ ...repo, pull_number: pr.data.number });
    const merged = await octokit.repos.getContent({ ...repo, path: "docs/guide.md", mediaType: { format: "raw" } });
    expect(merged.data as unknown as string).toBe("Guide v2\n");
  });

  it("refuses (405) a pull request whose branches changed the same file differently", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    await branchWithChange(octokit, "left", "README.md", "# left\n");
    const readme = await octokit.repos.getContent({ ...repo, path: "README.md" });
    const sha = !Array.isArray(readme.data) && "sha" in readme.data ? readme.data.sha : "";
    await octokit.repos.createOrUpdateFileContents({ ...repo, path: "README.md", message: "Right", content: b64("# right\n"), sha });
    const pr = await octokit.pulls.create({ ...repo, title: "Left", head: "left", base: "main" });
    expect(pr.data).toMatchObject({ mergeable: false, mergeable_state: "dirty" });
    expect((await failure(octokit.pulls.merge({ ...repo, pull_number: pr.data.number }))).status).toBe(405);
  });

  it("refuses (405) to merge a draft", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    await branchWithChange(octokit, "wip", "README.md", "# wip\n");
    const pr = await octokit.pulls.create({ ...repo, title: "WIP", head: "wip", base: "main", draft: true });
    expect(pr.data).toMatchObject({ draft: true, mergeable_state: "draft" });
    const err = await failure(octokit.pulls.merge({ ...repo, pull_number: pr.data.number }));
    expect(err.status).toBe(405);
    expect(err.response.data.message).toBe("Pull Request is still a draft");
  });
});

describe("reviews and requested reviewers", () => {
  it("creates an approving review (200) and lists and gets it", async () => {
    const { octokit, sandbox } = await sandboxWith(smallWorld());
    const created = await octokit.pulls.createReview({ ...repo, pull_number: 4, event: "APPROVE", body: "Ship it" });
    expect(created.status).toBe(200);
    expect(created.data).toMatchObject({ state: "APPROVED", body: "Ship it", user: { login: "octo" } });
    expect(created.data.submitted_at).toBeTruthy();
    const head = (await octokit.pulls.get({ ...repo, pull_number: 4 })).data.head.sha;
    expect(created.data.commit_id).toBe(head);
    expect((await octokit.pulls.listReviews({ ...repo, pull_number: 4 })).data.map((r) => r.state)).toEqual(["APPROVED"]);
    expect((await octokit.pulls.getReview({ ...repo, pull_number: 4, review_id: created.data.id })).data.id).toBe(created.data.id);
    const state = await stateOf<{ repositories: { pulls: { reviews: { user: string; state: string }[] }[] }[] }>(sandbox);
    expect(state.repositories[0].pulls[0].reviews).toEqual([expect.objectContaining({ user: "octo", state: "APPROVED", body: "Ship it" })]);
  });

  it("keeps a review without an event PENDING until it is submitted", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const pending = await octokit.pulls.createReview({ ...repo, pull_number: 4, body: "Thinking" });
    expect(pending.data.state).toBe("PENDING");
    expect(pending.data.submitted_at).toBeUndefined();
    const second = await failure(octokit.pulls.createReview({ ...repo, pull_number: 4 }));
    expect(second.status).toBe(422);
    const submitted = await octokit.pulls.submitReview({
      ...repo,
      pull_number: 4,
      review_id: pending.data.id,
      event: "REQUEST_CHANGES",
      body: "Needs tests",
    });
    expect(submitted.data).toMatchObject({ state: "CHANGES_REQUESTED", body: "Needs tests" });
    const resubmit = await failure(octokit.pulls.submitReview({ ...repo, pull_number: 4, review_id: pending.data.id, event: "APPROVE" }));
    expect(resubmit.status).toBe(422);
    const dismissed = await octokit.pulls.dismissReview({ ...repo, pull_number: 4, review_id: pending.data.id, message: "Stale" });
    expect(dismissed.data.state).toBe("DISMISSED");
  });

  it("refuses approving your own pull request with GitHub's 422", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    await branchWithChange(octokit, "mine", "README.md", "# mine\n");
    const pr = await octokit.pulls.create({ ...repo, title: "Mine", head: "mine", base: "main" });
    const err = await failure(octokit.pulls.createReview({ ...repo, pull_number: pr.data.number, event: "APPROVE" }));
    expect(err.status).toBe(422);
    expect(err.response.data).toMatchObject({ message: "Unprocessable Entity", errors: ["Can not approve your own pull request"] });
  });

  it("requests reviewers (201), refuses non-collaborators and the author, and removes them", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const requested = await octokit.pulls.requestReviewers({ ...repo, pull_number: 4, reviewers: ["alice", "octo"] });
    expect(requested.status).toBe(201);
    expect(requested.data.requested_reviewers?.map((u) => u.login)).toEqual(["alice", "octo"]);
    expect((await failure(octokit.pulls.requestReviewers({ ...repo, pull_number: 4, reviewers: ["mallory"] }))).status).toBe(422);
    const author = await failure(octokit.pulls.requestReviewers({ ...repo, pull_number: 4, reviewers: ["bob"] }));
    expect(author.response.data.message).toBe("Review cannot be requested from pull request author.");
    // Submitting a review takes the reviewer off the requested list, as on GitHub.
    await octokit.pulls.createReview({ ...repo, pull_number: 4, event: "COMMENT", body: "Looks fine" });
    expect((await octokit.pulls.listRequestedReviewers({ ...repo, pull_number: 4 })).data.users.map((u) => u.login)).toEqual(["alice"]);
    const removed = await octokit.pulls.removeRequestedReviewers({ ...repo, pull_number: 4, reviewers: ["alice"] });
    expect(removed.status).toBe(200);
    expect(removed.data.requested_reviewers).toEqual([]);
  });
});
