import { describe, expect, it } from "vitest";
import { twinFetch } from "../helpers";
import { failure, sandboxWith, smallWorld } from "./fixtures";

/** smallWorld (octo acts) plus items that concern octo the ways GitHub notifies about. */
function inboxWorld() {
  const world = smallWorld();
  const repo = world.repositories[0] as Record<string, unknown> & { issues: unknown[]; pulls: unknown[] };
  repo.issues.push(
    { number: 5, title: "Octo, look at this", body: "@octo can you check the logs?", user: "alice", updated_at: "2026-02-05T00:00:00Z" },
    { number: 6, title: "Assigned to octo", user: "alice", assignees: ["octo"], updated_at: "2026-02-06T00:00:00Z" },
    {
      number: 7,
      title: "Octo's own report",
      user: "octo",
      created_at: "2026-02-07T00:00:00Z",
      comments: [{ user: "bob", body: "Same here.", created_at: "2026-02-07T10:00:00Z" }],
    },
    {
      number: 8,
      title: "A thread octo joined",
      user: "bob",
      created_at: "2026-02-08T00:00:00Z",
      comments: [
        { user: "octo", body: "Any news?", created_at: "2026-02-08T01:00:00Z" },
        { user: "alice", body: "Fixed on main.", created_at: "2026-02-08T02:00:00Z" },
      ],
    },
    { number: 9, title: "Not about octo", user: "bob", updated_at: "2026-02-09T00:00:00Z" },
  );
  repo.pulls.push({
    number: 10,
    title: "Please review",
    user: "alice",
    head: "feature",
    requested_reviewers: ["octo"],
    updated_at: "2026-02-10T00:00:00Z",
  });
  return world;
}

describe("the seeded world notifies the user as GitHub would", () => {
  it("lists unread threads, newest first, with GitHub's reasons", async () => {
    const { octokit } = await sandboxWith(inboxWorld());
    const { data } = await octokit.activity.listNotificationsForAuthenticatedUser();
    expect(data.map((t) => [t.subject.title, t.reason, t.subject.type])).toEqual([
      ["Please review", "review_requested", "PullRequest"],
      ["A thread octo joined", "comment", "Issue"],
      ["Octo's own report", "author", "Issue"],
      ["Assigned to octo", "assign", "Issue"],
      ["Octo, look at this", "mention", "Issue"],
    ]);
    expect(data[0]).toMatchObject({ unread: true, last_read_at: null, repository: { full_name: "acme/api" } });
    expect(data[0].subject.url).toMatch(/\/repos\/acme\/api\/pulls\/10$/);
  });

  it("filters by since, before and repository", async () => {
    const { octokit } = await sandboxWith(inboxWorld());
    const titles = async (q: { since?: string; before?: string }) =>
      (await octokit.activity.listNotificationsForAuthenticatedUser(q)).data.map((t) => t.subject.title);
    expect(await titles({ since: "2026-02-08T00:00:00Z" })).toEqual(["Please review", "A thread octo joined"]);
    expect(await titles({ before: "2026-02-06T00:00:00Z" })).toEqual(["Octo, look at this"]);
    const repo = await octokit.activity.listRepoNotificationsForAuthenticatedUser({ owner: "acme", repo: "api" });
    expect(repo.data).toHaveLength(5);
    expect((await failure(octokit.activity.listNotificationsForAuthenticatedUser({ since: "yesterday" }))).status).toBe(422);
  });

  it("does not notify the user of their own actions", async () => {
    const { octokit } = await sandboxWith(inboxWorld());
    await octokit.issues.createComment({ owner: "acme", repo: "api", issue_number: 9, body: "Me too, @octo" });
    await octokit.issues.addAssignees({ owner: "acme", repo: "api", issue_number: 9, assignees: ["octo"] });
    const titles = (await octokit.activity.listNotificationsForAuthenticatedUser()).data.map((t) => t.subject.title);
    expect(titles).not.toContain("Not about octo");
  });
});

describe("threads are read, marked done and (un)subscribed", () => {
  it("marks one thread read with 205, and lists it again only with all=true", async () => {
    const { octokit } = await sandboxWith(inboxWorld());
    const [first] = (await octokit.activity.listNotificationsForAuthenticatedUser()).data;
    const read = await octokit.activity.markThreadAsRead({ thread_id: Number(first.id) });
    expect(read.status).toBe(205);
    const unread = (await octokit.activity.listNotificationsForAuthenticatedUser()).data.map((t) => t.id);
    expect(unread).not.toContain(first.id);
    const all = (await octokit.activity.listNotificationsForAuthenticatedUser({ all: true })).data;
    expect(all.find((t) => t.id === first.id)).toMatchObject({ unread: false, last_read_at: expect.any(String) });
    expect((await octokit.activity.getThread({ thread_id: Number(first.id) })).data.unread).toBe(false);
  });

  it("marks everything read with PUT /notifications (205), up to last_read_at", async () => {
    const { octokit } = await sandboxWith(inboxWorld());
    const partial = await octokit.activity.markNotificationsAsRead({ last_read_at: "2026-02-07T12:00:00Z" });
    expect(partial.status).toBe(205);
    expect((await octokit.activity.listNotificationsForAuthenticatedUser()).data.map((t) => t.subject.title)).toEqual([
      "Please review",
      "A thread octo joined",
    ]);
    await octokit.activity.markRepoNotificationsAsRead({ owner: "acme", repo: "api" });
    expect((await octokit.activity.listNotificationsForAuthenticatedUser()).data).toEqual([]);
  });

  it("reads, mutes and removes a thread's subscription, and marks a thread done", async () => {
    const { octokit, sandbox } = await sandboxWith(inboxWorld());
    const [first] = (await octokit.activity.listNotificationsForAuthenticatedUser()).data;
    const thread_id = Number(first.id);
    expect((await octokit.activity.getThreadSubscriptionForAuthenticatedUser({ thread_id })).data).toMatchObject({
      subscribed: true,
      ignored: false,
      reason: "review_requested",
    });
    const muted = await octokit.activity.setThreadSubscription({ thread_id, ignored: true });
    expect(muted.data).toMatchObject({ subscribed: false, ignored: true });
    expect((await octokit.activity.deleteThreadSubscription({ thread_id })).status).toBe(204);
    expect((await octokit.activity.getThreadSubscriptionForAuthenticatedUser({ thread_id })).data).toMatchObject({
      subscribed: false,
      ignored: false,
    });
    expect((await twinFetch(sandbox, `/notifications/threads/${thread_id}`, { method: "DELETE" })).status).toBe(204);
    expect((await failure(octokit.activity.getThread({ thread_id }))).status).toBe(404);
  });
});
