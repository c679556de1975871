// The viewer's inbox through @linear/sdk: notifications derived from what other people did in the
// seed (assigned the viewer, mentioned them, commented where they follow), paged, filtered, got
// one by one; the viewer's own actions notify no one; the inbox is not seed state.
import { IssueNotification } from "@linear/sdk";
import { beforeAll, describe, expect, it } from "vitest";
import { linearTwin } from "../../../durable-objects/twins/linear";
import { mentions } from "../../../durable-objects/twins/linear/notifications";
import { parseLinearSeed } from "../../../durable-objects/twins/linear/seed";
import { inTwinWorld } from "../kit/world";
import { acmeWorld, gql, linearFor, linearSandbox, routeFetchThroughSelf } from "./fixtures";

beforeAll(routeFetchThroughSelf);

/** Acme plus issues Bob made: one assigned to Ada, one mentioning her, one she subscribes to, one she does not follow. */
function inboxWorld() {
  const world = acmeWorld();
  world.issues.push(
    {
      identifier: "ENG-3",
      title: "Flaky login",
      creator: "bob@acme.test",
      assignee: "ada@acme.test",
      createdAt: "2026-07-03T10:00:00Z",
    } as never,
    {
      identifier: "ENG-4",
      title: "Ask",
      creator: "bob@acme.test",
      description: "@ada can you look?",
      createdAt: "2026-07-04T10:00:00Z",
    } as never,
    {
      identifier: "ENG-5",
      title: "Followed",
      creator: "bob@acme.test",
      subscribers: ["ada@acme.test"],
      createdAt: "2026-07-05T10:00:00Z",
      comments: [
        { user: "bob@acme.test", body: "ping @ada please", createdAt: "2026-07-05T11:00:00Z" },
        { user: "bob@acme.test", body: "any news?", createdAt: "2026-07-05T12:00:00Z" },
      ],
    } as never,
    {
      identifier: "ENG-6",
      title: "Not followed",
      creator: "bob@acme.test",
      createdAt: "2026-07-06T10:00:00Z",
      comments: [{ user: "bob@acme.test", body: "note to self", createdAt: "2026-07-06T11:00:00Z" }],
    } as never,
  );
  return world;
}

/** What Ada's inbox holds, newest first: ENG-1's comment by Bob is on an issue she created. */
const EXPECTED = [
  ["issueNewComment", "ENG-5", "any news?"],
  ["issueCommentMention", "ENG-5", "ping @ada please"],
  ["issueMention", "ENG-4", null],
  ["issueAssignedToYou", "ENG-3", null],
  ["issueNewComment", "ENG-1", "Seen on iOS too."],
];

describe("linear twin: notifications through @linear/sdk", () => {
  it("lists the viewer's notifications as IssueNotification models with their lazy relations", async () => {
    const sb = await linearSandbox(inboxWorld());
    const client = linearFor(sb);
    const inbox = await client.notifications();
    const rows = [];
    for (const n of inbox.nodes) {
      expect(n).toBeInstanceOf(IssueNotification);
      if (!(n instanceof IssueNotification)) continue;
      rows.push([n.type, (await n.issue)?.identifier, (await n.comment)?.body ?? null]);
      expect((await n.actor)?.email).toBe("bob@acme.test");
      expect((await n.user)?.email).toBe("ada@acme.test");
      expect((await n.team)?.key).toBe("ENG");
      expect(n.readAt).toBeUndefined();
    }
    expect(rows).toEqual(EXPECTED);
    const categories = inbox.nodes.map((n) => n.category);
    expect(categories).toEqual(["commentsAndReplies", "mentions", "mentions", "assignments", "commentsAndReplies"]);
  });

  it("pages the inbox with first/after (fetchNext) and gets one notification by id", async () => {
    const sb = await linearSandbox(inboxWorld());
    const client = linearFor(sb);
    const page = await client.notifications({ first: 2 });
    expect(page.nodes.map((n) => n.type)).toEqual(["issueNewComment", "issueCommentMention"]);
    expect(page.pageInfo.hasNextPage).toBe(true);
    await page.fetchNext();
    expect(page.nodes.map((n) => n.type)).toEqual(["issueNewComment", "issueCommentMention", "issueMention", "issueAssignedToYou"]);
    const first = page.nodes[0];
    const one = await client.notification(first.id);
    expect(one).toBeInstanceOf(IssueNotification);
    expect(one.type).toBe("issueNewComment");
    await expect(client.notification("00000000-0000-4000-8000-000000000000")).rejects.toThrow(/Could not find referenced Notification/);
  });

  it("filters by type and date through hand-written queries; a filter field it does not evaluate is a 501", async () => {
    const sb = await linearSandbox(inboxWorld());
    const byType = await gql(sb, `{ notifications(filter: { type: { in: ["issueAssignedToYou", "issueMention"] } }) { nodes { type } } }`);
    expect(byType.body.data).toEqual({ notifications: { nodes: [{ type: "issueMention" }, { type: "issueAssignedToYou" }] } });
    const recent = await gql(sb, `{ notifications(filter: { createdAt: { gt: "2026-07-05T00:00:00Z" } }) { nodes { type } } }`);
    expect(recent.body.data).toEqual({ notifications: { nodes: [{ type: "issueNewComment" }, { type: "issueCommentMention" }] } });
    const typed = await gql(
      sb,
      `{ notifications(first: 1) { nodes { __typename ... on IssueNotification { issueId issue { identifier } } } } }`,
    );
    expect(typed.body.data).toMatchObject({
      notifications: { nodes: [{ __typename: "IssueNotification", issue: { identifier: "ENG-5" } }] },
    });
    const unsupported = await gql(sb, `{ notifications(filter: { subscriptionType: { eq: issue } }) { nodes { id } } }`);
    expect(unsupported.status).toBe(501);
  });

  it("notifies no one of the viewer's own actions, and drops a notification whose comment is deleted", async () => {
    const sb = await linearSandbox(inboxWorld());
    const client = linearFor(sb);
    const before = (await client.notifications()).nodes.length;
    const eng5 = await client.issue("ENG-5");
    await client.createComment({ issueId: eng5.id, body: "on it @bob" });
    await client.updateIssue((await client.issue("ENG-6")).id, { assigneeId: (await client.viewer).id });
    expect((await client.notifications()).nodes.length).toBe(before);
    const mention = (await client.notifications()).nodes.find((n) => n.type === "issueCommentMention");
    if (!(mention instanceof IssueNotification)) throw new Error("no mention notification");
    const comment = await mention.comment;
    if (!comment) throw new Error("the mention has no comment");
    await client.deleteComment(comment.id);
    expect((await client.notifications()).nodes.map((n) => n.type)).not.toContain("issueCommentMention");
  });

  it("is derived at boot, not seed state: the export carries no inbox and boots to the same one", async () => {
    const raw = inboxWorld();
    const r = parseLinearSeed(raw);
    if (!r.ok) throw new Error(JSON.stringify(r.issues));
    const inboxOf = (w: { call: (m: string, p: string, o: { body: unknown }) => { body: unknown } }) =>
      w.call("POST", "/graphql", { body: { query: "{ notifications { nodes { id type } } }" } }).body;
    let first: unknown;
    await inTwinWorld(linearTwin, raw, (w) => {
      expect(w.exportState()).toEqual(r.seed);
      expect(JSON.stringify(w.exportState())).not.toContain("notification");
      first = inboxOf(w);
    });
    await inTwinWorld(linearTwin, r.seed, (w) => expect(inboxOf(w)).toEqual(first));
    expect(JSON.stringify(first)).toContain("issueAssignedToYou");
  });

  it("recognizes a mention as @displayName standing alone", () => {
    expect(mentions("ping @ada please", "ada")).toBe(true);
    expect(mentions("@Ada", "ada")).toBe(true);
    expect(mentions("mail ada@acme.test", "ada")).toBe(false);
    expect(mentions("@adam here", "ada")).toBe(false);
    expect(mentions("thanks @ada.", "ada")).toBe(true);
  });
});
