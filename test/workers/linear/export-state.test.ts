// What calls leave in the inbox and in comment threads is seed state: a resolved thread, a
// notification read, snoozed or archived, and notifications calls made for other people are
// exported, and booting the export gives the same answers.
import { describe, expect, it } from "vitest";
import { linearTwin } from "../../../durable-objects/twins/linear";
import { type LinearSeed, parseLinearSeed } from "../../../durable-objects/twins/linear/seed";
import { inTwinWorld } from "../kit/world";
import { acmeWorld } from "./fixtures";

/** ENG-1 has Bob's comment mentioning the viewer (a derived notification) with Ada's reply. */
const world = () => {
  const w = acmeWorld();
  const eng1 = w.issues[0] as Record<string, unknown>;
  eng1.comments = [
    { user: "bob@acme.test", body: "@ada seen on iOS too.", children: [{ user: "ada@acme.test", body: "Thanks, looking." }] },
  ];
  return w;
};

type Body = { data?: Record<string, unknown>; errors?: unknown[] };
const THREAD = `{ issue(id: "ENG-1") { comments(filter: { parent: { null: true } }) { nodes { resolvedAt resolvingUser { email } resolvingComment { body } } } } }`;
const INBOX = "{ notifications(includeArchived: true) { nodes { type readAt snoozedUntilAt archivedAt } } }";

describe("linear twin: comment resolution and inbox state survive an export", () => {
  it("exports a resolved thread and a read, snoozed, archived notification, and the export boots to the same answers", async () => {
    let seen: { thread: Body; inbox: Body } | undefined;
    let exported: LinearSeed | undefined;
    await inTwinWorld(linearTwin, world(), (w) => {
      const ask = (query: string) => w.call("POST", "/graphql", { body: { query } }).body as Body;
      const comments = ask(`{ issue(id: "ENG-1") { comments { nodes { id body } } } }`) as {
        data: { issue: { comments: { nodes: { id: string; body: string }[] } } };
      };
      const root = comments.data.issue.comments.nodes.find((c) => c.body.startsWith("@ada"));
      const reply = comments.data.issue.comments.nodes.find((c) => c.body.startsWith("Thanks"));
      ask(`mutation { commentResolve(id: "${root?.id}", resolvingCommentId: "${reply?.id}") { success } }`);
      const inbox = ask("{ notifications { nodes { id } } }") as { data: { notifications: { nodes: { id: string }[] } } };
      const id = inbox.data.notifications.nodes[0]?.id;
      ask(
        `mutation { notificationUpdate(id: "${id}", input: { readAt: "2026-07-03T10:00:00Z", snoozedUntilAt: "2026-07-09T10:00:00Z" }) { success } }`,
      );
      ask(`mutation { notificationArchive(id: "${id}") { success } }`);
      seen = { thread: ask(THREAD), inbox: ask(INBOX) };
      exported = w.exportState();
    });
    const comment = exported?.issues[0]?.comments[0];
    expect([typeof comment?.resolvedAt, comment?.resolvingUser, comment?.resolvingComment]).toEqual([
      "string",
      "ada@acme.test",
      comment?.children[0]?.id,
    ]);
    expect(exported?.notifications?.map((n) => [n.type, n.user, n.actor, n.issue, n.readAt, n.snoozedUntilAt])).toEqual([
      ["issueCommentMention", "ada@acme.test", "bob@acme.test", "ENG-1", "2026-07-03T10:00:00.000Z", "2026-07-09T10:00:00.000Z"],
    ]);
    expect(parseLinearSeed(exported)).toEqual({ ok: true, seed: exported });
    await inTwinWorld(linearTwin, exported, (w) => {
      const ask = (query: string) => w.call("POST", "/graphql", { body: { query } }).body as Body;
      expect(ask(THREAD)).toEqual(seen?.thread);
      expect(ask(INBOX)).toEqual(seen?.inbox);
      expect(w.exportState()).toEqual(exported);
    });
  });

  it("exports the notifications a call made for another user", async () => {
    await inTwinWorld(linearTwin, acmeWorld(), (w) => {
      const made = w.call("POST", "/graphql", {
        body: { query: `mutation { commentCreate(input: { issueId: "ENG-2", body: "@bob can you look?" }) { success } }` },
      });
      expect(made.status).toBe(200);
      const exported = w.exportState();
      expect(exported.notifications?.map((n) => [n.type, n.user, n.actor, n.issue])).toEqual([
        ["issueCommentMention", "bob@acme.test", "ada@acme.test", "ENG-2"],
      ]);
      expect(parseLinearSeed(exported)).toEqual({ ok: true, seed: exported });
    });
  });

  it("exports a world-implied notification the inbox never had, so booting the export gives the same inbox", async () => {
    // Bob's issue, which the viewer (Ada) assigns to herself: the world now implies "assigned to
    // you", but Linear does not notify you of your own action, so the inbox does not get it.
    const w = acmeWorld({});
    (w.issues as Record<string, unknown>[]).push({ identifier: "ENG-3", title: "Flaky deploy", creator: "bob@acme.test" });
    const ALL = "{ notifications(includeArchived: true) { nodes { id type ... on IssueNotification { issue { identifier } } } } }";
    let seen: Body | undefined;
    let exported: LinearSeed | undefined;
    await inTwinWorld(linearTwin, w, (world) => {
      const ask = (query: string) => world.call("POST", "/graphql", { body: { query } }).body as Body;
      const me = (ask("{ viewer { id } }").data as { viewer: { id: string } }).viewer.id;
      ask(`mutation { issueUpdate(id: "ENG-3", input: { assigneeId: "${me}" }) { success } }`);
      seen = ask(ALL);
      exported = world.exportState();
    });
    // Only what the seed implied (Bob's comment on Ada's ENG-1); no assignment notification.
    const inbox = seen?.data as { notifications: { nodes: { type: string }[] } } | undefined;
    const types = inbox?.notifications.nodes.map((n) => n.type);
    expect(types).toEqual(["issueNewComment"]);
    expect(exported?.notificationsNotInInbox).toEqual([{ type: "issueAssignedToYou", issue: "ENG-3", comment: null }]);
    expect(parseLinearSeed(exported)).toEqual({ ok: true, seed: exported });
    await inTwinWorld(linearTwin, exported, (world) => {
      const ask = (query: string) => world.call("POST", "/graphql", { body: { query } }).body as Body;
      expect(ask(ALL)).toEqual(seen);
      expect(world.exportState()).toEqual(exported);
    });
  });

  it("takes a seed's word that a world-implied comment notification is not in the inbox, and checks it", async () => {
    const seeded = world();
    const comment = "0a1b2c3d-0000-4000-8000-00000000c0de";
    (seeded.issues[0] as { comments: Record<string, unknown>[] }).comments[0].id = comment;
    await inTwinWorld(
      linearTwin,
      { ...seeded, notificationsNotInInbox: [{ type: "issueCommentMention", issue: "ENG-1", comment }] },
      (w) => {
        const inbox = w.call("POST", "/graphql", { body: { query: INBOX } }).body as Body;
        expect(inbox).toEqual({ data: { notifications: { nodes: [] } } });
      },
    );
    await inTwinWorld(linearTwin, seeded, (w) => {
      const inbox = w.call("POST", "/graphql", { body: { query: INBOX } }).body as {
        data: { notifications: { nodes: { type: string }[] } };
      };
      expect(inbox.data.notifications.nodes.map((n) => n.type)).toEqual(["issueCommentMention"]);
    });
    expect(parseLinearSeed({ ...seeded, notificationsNotInInbox: [{ type: "issueAssignedToYou", issue: "ENG-404" }] }).ok).toBe(false);
    expect(parseLinearSeed({ ...seeded, notificationsNotInInbox: [{ type: "issueNewComment", issue: "ENG-1" }] }).ok).toBe(false);
    expect(parseLinearSeed({ ...seeded, notificationsNotInInbox: [{ type: "issueReminder", issue: "ENG-1" }] }).ok).toBe(false);
  });

  it("refuses a seeded resolution naming a comment outside the thread", () => {
    const w = world();
    (w.issues[0] as { comments: Record<string, unknown>[] }).comments[0].resolvedAt = "2026-07-03T10:00:00Z";
    (w.issues[0] as { comments: Record<string, unknown>[] }).comments[0].resolvingComment = "0a1b2c3d-0000-4000-8000-00000000dead";
    expect(parseLinearSeed(w).ok).toBe(false);
  });
});
