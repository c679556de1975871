// activity.markThreadAsDone through @octokit/rest: DELETE /notifications/threads/{thread_id}.
// GitHub's reference (docs.github.com/rest/activity/notifications#mark-a-thread-as-done): "Marks a
// thread as "done." Marking a thread as "done" is equivalent to marking a notification in your
// notification inbox on GitHub as done"; it answers 204 No Content and documents no refusal, so
// these tests assert the effect only (a done thread leaves the inbox, read or unread).
import { describe, expect, it } from "vitest";
import { sandboxWith, smallWorld } from "./fixtures";

/** smallWorld plus three issues that notify octo (a mention, an assignment, a review request). */
function inboxWorld() {
  const world = smallWorld();
  const repo = world.repositories[0] as Record<string, unknown> & { issues: unknown[]; pulls: unknown[] };
  repo.issues.push(
    { number: 5, title: "Octo, look at this", body: "@octo can you check the logs?", user: "alice", updated_at: "2026-02-05T00:00:00Z" },
    { number: 6, title: "Assigned to octo", user: "alice", assignees: ["octo"], updated_at: "2026-02-06T00:00:00Z" },
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

type Octokit = Awaited<ReturnType<typeof sandboxWith>>["octokit"];
const titles = async (octokit: Octokit, all = false) =>
  (await octokit.activity.listNotificationsForAuthenticatedUser({ all })).data.map((t) => t.subject.title);

describe("activity.markThreadAsDone", () => {
  it("marks an unread thread done with 204 and no body: it leaves the inbox, even with all=true", async () => {
    const { octokit } = await sandboxWith(inboxWorld());
    expect(await titles(octokit)).toEqual(["Please review", "Assigned to octo", "Octo, look at this"]);
    const thread = (await octokit.activity.listNotificationsForAuthenticatedUser()).data.find(
      (t) => t.subject.title === "Assigned to octo",
    );
    expect(thread?.unread).toBe(true);

    const done = await octokit.activity.markThreadAsDone({ thread_id: Number(thread?.id) });
    expect(done.status).toBe(204);
    expect(done.data).toBeFalsy();

    expect(await titles(octokit)).toEqual(["Please review", "Octo, look at this"]);
    expect(await titles(octokit, true)).toEqual(["Please review", "Octo, look at this"]);
    const inRepo = await octokit.activity.listRepoNotificationsForAuthenticatedUser({ owner: "acme", repo: "api", all: true });
    expect(inRepo.data.map((t) => t.subject.title)).toEqual(["Please review", "Octo, look at this"]);
    // The other threads are as they were: unread.
    expect((await octokit.activity.listNotificationsForAuthenticatedUser()).data.every((t) => t.unread)).toBe(true);
  });

  it("marks a thread already read done: it no longer lists among the read ones", async () => {
    const { octokit } = await sandboxWith(inboxWorld());
    const [first] = (await octokit.activity.listNotificationsForAuthenticatedUser()).data;
    await octokit.activity.markThreadAsRead({ thread_id: Number(first.id) });
    expect(await titles(octokit, true)).toContain(first.subject.title);
    expect((await octokit.activity.markThreadAsDone({ thread_id: Number(first.id) })).status).toBe(204);
    expect(await titles(octokit, true)).not.toContain(first.subject.title);
    expect(await titles(octokit, true)).toHaveLength(2);
  });
});
