import { describe, expect, it } from "vitest";
import { README, failure, sandboxWith, smallWorld } from "./fixtures";

const repo = { owner: "acme", repo: "api" };

describe("contents writes record the author and committer they are given", () => {
  it("puts author and committer on the commit of a create, and the committer alone stands for both", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const created = await octokit.repos.createOrUpdateFileContents({
      ...repo,
      path: "CHANGELOG.md",
      message: "Start a changelog",
      content: btoa("# Changes\n"),
      author: { name: "Alice Smith", email: "alice@example.com", date: "2026-04-01T09:00:00Z" },
      committer: { name: "Release Bot", email: "bot@example.com" },
    });
    expect(created.data.commit.author).toMatchObject({ name: "Alice Smith", email: "alice@example.com", date: "2026-04-01T09:00:00Z" });
    expect(created.data.commit.committer).toMatchObject({ name: "Release Bot", email: "bot@example.com" });
    const listed = await octokit.repos.listCommits({ ...repo, per_page: 1 });
    expect(listed.data[0]?.commit.author?.name).toBe("Alice Smith");
    expect(listed.data[0]?.author?.login).toBe("alice");
    const removed = await octokit.repos.deleteFile({
      ...repo,
      path: "CHANGELOG.md",
      message: "Drop it",
      sha: created.data.content?.sha ?? "",
      committer: { name: "Release Bot", email: "bot@example.com" },
    });
    expect(removed.data.commit.author).toMatchObject({ name: "Release Bot", email: "bot@example.com" });
  });

  it("refuses an author without an email", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const err = await failure(
      octokit.repos.createOrUpdateFileContents({
        ...repo,
        path: "x.md",
        message: "x",
        content: btoa("x"),
        author: { name: "Nobody" } as { name: string; email: string },
      }),
    );
    expect(err.status).toBe(422);
    expect(err.response.data.message).toBe('Invalid request.\n\n"email" wasn\'t supplied.');
  });
});

describe("the README", () => {
  it("reads the repository's README, a directory's, and answers 404 where there is none", async () => {
    const { octokit } = await sandboxWith(
      smallWorld({
        branches: [
          {
            name: "main",
            files: [
              { path: "README.md", content: README },
              { path: "docs/readme.rst", content: "Docs\n" },
              { path: "src/app.ts", content: "x\n" },
            ],
          },
        ],
        pulls: [],
        statuses: [],
      }),
    );
    const root = await octokit.repos.getReadme({ ...repo });
    expect(root.data).toMatchObject({ name: "README.md", path: "README.md", type: "file", encoding: "base64" });
    expect(atob(root.data.content.replace(/\n/g, ""))).toBe(README);
    const docs = await octokit.repos.getReadmeInDirectory({ ...repo, dir: "docs" });
    expect(docs.data.path).toBe("docs/readme.rst");
    expect((await failure(octokit.repos.getReadmeInDirectory({ ...repo, dir: "src" }))).status).toBe(404);
  });
});

describe("comparing two commits", () => {
  it("lists the commits and files between a branch and one cut from it, with patches", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const main = await octokit.git.getRef({ ...repo, ref: "heads/main" });
    await octokit.git.createRef({ ...repo, ref: "refs/heads/fix", sha: main.data.object.sha });
    await octokit.repos.createOrUpdateFileContents({ ...repo, path: "fix.txt", message: "Fix", content: btoa("fixed\n"), branch: "fix" });
    const ahead = await octokit.repos.compareCommitsWithBasehead({ ...repo, basehead: "main...fix" });
    expect(ahead.data).toMatchObject({ status: "ahead", ahead_by: 1, behind_by: 0, total_commits: 1 });
    expect(ahead.data.merge_base_commit.sha).toBe(main.data.object.sha);
    expect(ahead.data.commits.map((c) => c.commit.message)).toEqual(["Fix"]);
    expect(ahead.data.files?.map((f) => [f.filename, f.status, f.patch])).toEqual([["fix.txt", "added", "@@ -0,0 +1 @@\n+fixed"]]);
    const behind = await octokit.repos.compareCommits({ ...repo, base: "fix", head: "main" });
    expect(behind.data).toMatchObject({ status: "behind", ahead_by: 0, behind_by: 1 });
    const same = await octokit.repos.compareCommitsWithBasehead({ ...repo, basehead: "main...main" });
    expect(same.data.status).toBe("identical");
    expect((await failure(octokit.repos.compareCommitsWithBasehead({ ...repo, basehead: "main...nope" }))).status).toBe(404);
  });
});

describe("pull-request files carry their patch", () => {
  it("lists each changed file with its unified diff hunk", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const files = await octokit.pulls.listFiles({ ...repo, pull_number: 4 });
    const app = files.data.find((f) => f.filename === "src/app.ts");
    expect(app?.status).toBe("modified");
    expect(app?.patch).toContain("-export const version = 1;");
    expect(app?.patch).toContain("+export const version = 2;");
  });
});

describe("issues lock with a reason", () => {
  it("records the reason on the issue and in its events, and clears it on unlock", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    await octokit.issues.lock({ ...repo, issue_number: 2, lock_reason: "too heated" });
    expect((await octokit.issues.get({ ...repo, issue_number: 2 })).data).toMatchObject({ locked: true, active_lock_reason: "too heated" });
    await octokit.issues.unlock({ ...repo, issue_number: 2 });
    expect((await octokit.issues.get({ ...repo, issue_number: 2 })).data).toMatchObject({ locked: false, active_lock_reason: null });
    const events = await octokit.issues.listEvents({ ...repo, issue_number: 2 });
    expect(events.data.map((e) => [e.event, "lock_reason" in e ? e.lock_reason : undefined])).toEqual([
      ["locked", "too heated"],
      ["unlocked", undefined],
    ]);
    const bad = await failure(
      octokit.request("PUT /repos/{owner}/{repo}/issues/{issue_number}/lock", { ...repo, issue_number: 2, lock_reason: "boring" as never }),
    );
    expect(bad.status).toBe(422);
  });
});

describe("reactions on issues and comments", () => {
  it("creates (201, then 200 for the same one), lists, counts on the issue, and deletes", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const first = await octokit.reactions.createForIssue({ ...repo, issue_number: 1, content: "heart" });
    expect(first.status).toBe(201);
    expect(first.data).toMatchObject({ content: "heart", user: { login: "octo" } });
    const again = await octokit.reactions.createForIssue({ ...repo, issue_number: 1, content: "heart" });
    expect(again.status).toBe(200);
    expect(again.data.id).toBe(first.data.id);
    await octokit.reactions.createForIssue({ ...repo, issue_number: 1, content: "+1" });
    const issue = await octokit.issues.get({ ...repo, issue_number: 1 });
    expect(issue.data.reactions).toMatchObject({ total_count: 2, heart: 1, "+1": 1, eyes: 0 });
    const hearts = await octokit.reactions.listForIssue({ ...repo, issue_number: 1, content: "heart" });
    expect(hearts.data.map((r) => r.id)).toEqual([first.data.id]);
    expect((await octokit.reactions.deleteForIssue({ ...repo, issue_number: 1, reaction_id: first.data.id })).status).toBe(204);
    expect((await octokit.reactions.listForIssue({ ...repo, issue_number: 1 })).data.map((r) => r.content)).toEqual(["+1"]);
    expect((await failure(octokit.reactions.deleteForIssue({ ...repo, issue_number: 1, reaction_id: first.data.id }))).status).toBe(404);
  });

  it("reacts to a comment, and refuses a content GitHub does not have", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const comment = (await octokit.issues.listComments({ ...repo, issue_number: 3 })).data[0];
    const id = comment?.id ?? 0;
    await octokit.reactions.createForIssueComment({ ...repo, comment_id: id, content: "rocket" });
    expect((await octokit.reactions.listForIssueComment({ ...repo, comment_id: id })).data.map((r) => r.content)).toEqual(["rocket"]);
    expect((await octokit.issues.getComment({ ...repo, comment_id: id })).data.reactions?.rocket).toBe(1);
    const bad = await failure(
      octokit.request("POST /repos/{owner}/{repo}/issues/comments/{comment_id}/reactions", {
        ...repo,
        comment_id: id,
        content: "party" as never,
      }),
    );
    expect(bad.status).toBe(422);
    expect(bad.response.data.errors).toEqual([{ resource: "Reaction", field: "content", code: "invalid", value: "party" }]);
  });
});

describe("issue events and the timeline are built from what happened", () => {
  it("records labels, assignees, milestone, renames and closing, in order", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    await octokit.issues.addLabels({ ...repo, issue_number: 2, labels: ["enhancement"] });
    await octokit.issues.addAssignees({ ...repo, issue_number: 2, assignees: ["alice"] });
    await octokit.issues.update({ ...repo, issue_number: 2, title: "Document the Link header", milestone: 1 });
    await octokit.issues.createComment({ ...repo, issue_number: 2, body: "On it." });
    await octokit.issues.removeLabel({ ...repo, issue_number: 2, name: "enhancement" });
    await octokit.issues.update({ ...repo, issue_number: 2, state: "closed", state_reason: "not_planned" });
    const events = await octokit.issues.listEvents({ ...repo, issue_number: 2 });
    expect(events.data.map((e) => e.event)).toEqual(["labeled", "assigned", "milestoned", "renamed", "unlabeled", "closed"]);
    expect(events.data[0]).toMatchObject({ label: { name: "enhancement", color: "a2eeef" }, actor: { login: "octo" } });
    expect(events.data[1]).toMatchObject({ assignee: { login: "alice" }, assigner: { login: "octo" } });
    expect(events.data[3]).toMatchObject({ rename: { from: "Document pagination", to: "Document the Link header" } });
    expect(events.data[5]).toMatchObject({ state_reason: "not_planned" });
    const one = await octokit.issues.getEvent({ ...repo, event_id: events.data[0]?.id ?? 0 });
    expect(one.data.issue?.number).toBe(2);
    const timeline = await octokit.issues.listEventsForTimeline({ ...repo, issue_number: 2 });
    expect(timeline.data.map((e) => ("event" in e ? e.event : undefined))).toEqual([
      "labeled",
      "assigned",
      "milestoned",
      "renamed",
      "commented",
      "unlabeled",
      "closed",
    ]);
    const repoWide = await octokit.issues.listEventsForRepo({ ...repo });
    expect(repoWide.data[0]?.event).toBe("closed");
  });

  it("shows a pull request's commits, reviews, review requests and merge on its timeline", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    await octokit.pulls.requestReviewers({ ...repo, pull_number: 4, reviewers: ["alice"] });
    await octokit.pulls.createReview({ ...repo, pull_number: 4, event: "APPROVE", body: "Ship it" });
    const merged = await octokit.pulls.merge({ ...repo, pull_number: 4 });
    const timeline = await octokit.issues.listEventsForTimeline({ ...repo, issue_number: 4 });
    const kinds = timeline.data.map((e) => ("event" in e ? e.event : undefined));
    expect(kinds).toContain("committed");
    expect(kinds).toContain("review_requested");
    expect(kinds).toContain("reviewed");
    expect(kinds.slice(-2)).toEqual(["merged", "closed"]);
    const closed = timeline.data.at(-1);
    expect(closed && "commit_id" in closed ? closed.commit_id : undefined).toBe(merged.data.sha);
  });
});
