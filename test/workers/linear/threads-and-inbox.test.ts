// Comment threads resolved and reopened, and the viewer's inbox read, snoozed and archived, through
// @linear/sdk; and the notifications the viewer's actions send other people, as Linear sends them.
import { IssueNotification } from "@linear/sdk";
import { beforeAll, describe, expect, it } from "vitest";
import { linearTwin } from "../../../durable-objects/twins/linear";
import { inTwinWorld } from "../kit/world";
import { acmeWorld, linearFor, linearSandbox, routeFetchThroughSelf } from "./fixtures";

beforeAll(routeFetchThroughSelf);

/**
 * ENG-1's thread: Bob's comment and Ada's reply. (The SDK's `comment.children()` sends no id, so
 * replies are found by the comments filter, as an agent would.)
 */
async function threadOf(client: ReturnType<typeof linearFor>) {
  const root = (await (await client.issue("ENG-1")).comments()).nodes.find((c) => c.body === "Seen on iOS too.");
  if (!root) throw new Error("no thread");
  const reply = (await client.comments({ filter: { parent: { id: { eq: root.id } } } })).nodes[0];
  return { root, reply };
}

describe("linear twin: comment threads are resolved and reopened through @linear/sdk", () => {
  it("resolves a thread by its root with the reply that settled it, then reopens it", async () => {
    const client = linearFor(await linearSandbox());
    const { root, reply } = await threadOf(client);
    const resolved = await client.commentResolve(root.id, { resolvingCommentId: reply.id });
    const after = await resolved.comment;
    expect(after?.resolvedAt).toBeInstanceOf(Date);
    expect((await after?.resolvingUser)?.email).toBe("ada@acme.test");
    expect((await after?.resolvingComment)?.body).toBe("Thanks, looking.");
    const reopened = await (await client.commentUnresolve(root.id)).comment;
    expect(reopened?.resolvedAt).toBeUndefined();
    expect(reopened?.resolvingUser).toBeUndefined();
  });

  it("resolves the thread's root when given a reply, and refuses a resolving comment from another thread", async () => {
    const client = linearFor(await linearSandbox());
    const { root, reply } = await threadOf(client);
    const other = await (await client.createComment({ issueId: "ENG-1", body: "Separate point." })).comment;
    if (!other) throw new Error("no comment");
    await expect(client.commentResolve(root.id, { resolvingCommentId: other.id })).rejects.toThrow(/reply in this thread/);
    const viaReply = await (await client.commentResolve(reply.id)).comment;
    expect(viaReply?.id).toBe(root.id);
    expect(viaReply?.resolvedAt).toBeInstanceOf(Date);
    expect(viaReply?.resolvingComment).toBeUndefined();
  });
});

/** Acme where Bob assigned Ada ENG-3 and commented twice on it. */
function inboxWorld() {
  const world = acmeWorld();
  world.issues.push({
    identifier: "ENG-3",
    title: "Flaky login",
    creator: "bob@acme.test",
    assignee: "ada@acme.test",
    createdAt: "2026-07-03T10:00:00Z",
    comments: [
      { user: "bob@acme.test", body: "repro attached", createdAt: "2026-07-03T11:00:00Z" },
      { user: "bob@acme.test", body: "@ada any luck?", createdAt: "2026-07-03T12:00:00Z" },
    ],
  } as never);
  return world;
}

describe("linear twin: the viewer's inbox is read, snoozed and archived through @linear/sdk", () => {
  it("marks one notification read and unread again", async () => {
    const client = linearFor(await linearSandbox(inboxWorld()));
    const first = (await client.notifications()).nodes[0];
    const readAt = new Date("2026-07-04T08:00:00.000Z");
    expect((await client.updateNotification(first.id, { readAt })).success).toBe(true);
    expect((await client.notification(first.id)).readAt).toEqual(readAt);
    await client.updateNotification(first.id, { readAt: null });
    expect((await client.notification(first.id)).readAt).toBeUndefined();
  });

  it("marks a notification and the others about its issue read at once, and unread again", async () => {
    const client = linearFor(await linearSandbox(inboxWorld()));
    const inbox = (await client.notifications()).nodes;
    const about = async (n: (typeof inbox)[number]) => (n instanceof IssueNotification ? (await n.issue)?.identifier : undefined);
    const eng3 = [];
    for (const n of inbox) if ((await about(n)) === "ENG-3") eng3.push(n.id);
    // Assigned to Ada, and mentioned in Bob's second comment (his first is on an issue she does not follow).
    expect(eng3).toHaveLength(2);
    const readAt = new Date("2026-07-04T09:00:00.000Z");
    const batch = await client.notificationMarkReadAll({ id: eng3[0] }, readAt);
    expect(batch.success).toBe(true);
    const after = (await client.notifications()).nodes;
    for (const n of after) expect(n.readAt).toEqual(eng3.includes(n.id) ? readAt : undefined);
    await client.notificationMarkUnreadAll({ id: eng3[1] });
    for (const n of (await client.notifications()).nodes) expect(n.readAt).toBeUndefined();
  });

  it("snoozes a notification until a time", async () => {
    const client = linearFor(await linearSandbox(inboxWorld()));
    const first = (await client.notifications()).nodes[0];
    const until = new Date("2026-08-01T00:00:00.000Z");
    await client.updateNotification(first.id, { snoozedUntilAt: until });
    expect((await client.notification(first.id)).snoozedUntilAt).toEqual(until);
  });

  it("archives a notification out of the inbox and restores it", async () => {
    const client = linearFor(await linearSandbox(inboxWorld()));
    const before = (await client.notifications()).nodes;
    const archived = await client.archiveNotification(before[0].id);
    expect(archived.success).toBe(true);
    expect((await client.notifications()).nodes.map((n) => n.id)).toEqual(before.slice(1).map((n) => n.id));
    expect((await client.notifications({ includeArchived: true })).nodes).toHaveLength(before.length);
    await client.unarchiveNotification(before[0].id);
    expect((await client.notifications()).nodes.map((n) => n.id)).toEqual(before.map((n) => n.id));
  });

  it("refuses a notification that is not the viewer's, changing nothing", async () => {
    const client = linearFor(await linearSandbox(inboxWorld()));
    await expect(client.archiveNotification("00000000-0000-4000-8000-000000000000")).rejects.toThrow(/Entity not found/);
  });
});

describe("linear twin: the viewer's actions notify other people as Linear does", () => {
  it("notifies an assignee, a user mentioned in a comment, and the issue's other subscribers", async () => {
    await inTwinWorld(linearTwin, acmeWorld(), (w) => {
      const bob = w.db.one<{ id: string }>("SELECT id FROM lin_users WHERE email = 'bob@acme.test'")?.id;
      const call = (query: string) => w.call("POST", "/graphql", { body: { query } });
      call(`mutation { issueCreate(input: { teamId: "ENG", title: "New", assigneeId: "${bob}" }) { success } }`);
      call(`mutation { commentCreate(input: { issueId: "ENG-3", body: "over to you @bob" }) { success } }`);
      call(`mutation { commentCreate(input: { issueId: "ENG-3", body: "one more thing" }) { success } }`);
      const bobs = w.db.all<{ type: string; actor_id: string }>(
        "SELECT type, actor_id FROM lin_notifications WHERE user_id = ? ORDER BY created_at, rowid",
        bob ?? "",
      );
      // Bob is mentioned in the first comment (a mention, not also a new-comment notice) and
      // follows ENG-3 (its assignee is subscribed), so he hears of the second.
      expect(bobs.map((n) => n.type)).toEqual(["issueAssignedToYou", "issueCommentMention", "issueNewComment"]);
      const viewer = w.db.one<{ value: string }>("SELECT value FROM lin_meta WHERE key = 'viewer_id'")?.value;
      expect(new Set(bobs.map((n) => n.actor_id))).toEqual(new Set([viewer]));
      // Nobody is notified of their own actions: the viewer's inbox is unchanged.
      expect(w.db.one<{ n: number }>("SELECT count(*) AS n FROM lin_notifications WHERE user_id = ?", viewer ?? "")?.n).toBe(1);
    });
  });
});
