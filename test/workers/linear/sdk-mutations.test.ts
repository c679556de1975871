// Mutations through @linear/sdk: payloads, identifiers, state-transition timestamps, labels,
// threaded comments, relations, reactions, attachments, projects, cycles, states, subscriptions.
import { beforeAll, describe, expect, it } from "vitest";
import { gql, linearFor, linearSandbox, routeFetchThroughSelf } from "./fixtures";
import { twinFetch } from "../helpers";

beforeAll(routeFetchThroughSelf);

async function world() {
  const sb = await linearSandbox();
  const client = linearFor(sb);
  const team = (await client.teams()).nodes[0];
  const states = (await team.states()).nodes;
  const stateId = (name: string) => states.find((s) => s.name === name)?.id ?? "";
  const labels = (await team.labels()).nodes;
  const bob = (await client.users()).nodes.find((u) => u.email === "bob@acme.test");
  return { sb, client, team, stateId, labels, bob };
}

const exportOf = async (sb: Awaited<ReturnType<typeof linearSandbox>>) =>
  (await (await twinFetch(sb, "/_pome/state", {}, "linear")).json()) as {
    issues: {
      identifier: string;
      state: string;
      labels: string[];
      completedAt: string | null;
      comments: { body: string; children: { body: string }[] }[];
      relations: { type: string; relatedIssue: string }[];
    }[];
  };

describe("linear twin: issue mutations through @linear/sdk", () => {
  it("creates an issue with the next identifier, the team's default state, and refetches it from the payload", async () => {
    const { sb, client, team, labels, bob } = await world();
    const payload = await client.createIssue({
      teamId: team.id,
      title: "Dark mode",
      description: "Please",
      priority: 2,
      estimate: 5,
      labelIds: [labels[1].id],
      assigneeId: bob?.id,
    });
    expect(payload.success).toBe(true);
    expect(payload.lastSyncId).toBeGreaterThan(0);
    const issue = await payload.issue;
    expect(issue?.identifier).toBe("ENG-3");
    expect(issue?.priorityLabel).toBe("High");
    expect(issue?.estimate).toBe(5);
    expect(issue?.url).toBe("https://linear.app/acme/issue/ENG-3/dark-mode");
    expect(issue?.branchName).toBe("bob/eng-3-dark-mode");
    expect((await issue?.state)?.name).toBe("Todo");
    expect((await issue?.labels())?.nodes.map((l) => l.name)).toEqual(["Feature"]);
    const exported = await exportOf(sb);
    expect(exported.issues.map((i) => i.identifier)).toEqual(["ENG-1", "ENG-2", "ENG-3"]);
  });

  it("sets completedAt when moved to a completed state and clears it when reopened", async () => {
    const { client, stateId } = await world();
    await client.updateIssue("ENG-1", { stateId: stateId("Done") });
    const done = await client.issue("ENG-1");
    expect(done.completedAt).toBeInstanceOf(Date);
    expect(done.startedAt).toBeInstanceOf(Date);
    await client.updateIssue("ENG-1", { stateId: stateId("Canceled") });
    const canceled = await client.issue("ENG-1");
    expect(canceled.completedAt).toBeUndefined();
    expect(canceled.canceledAt).toBeInstanceOf(Date);
    await client.updateIssue("ENG-1", { stateId: stateId("Todo") });
    const reopened = await client.issue("ENG-1");
    expect(reopened.canceledAt).toBeUndefined();
    expect(reopened.startedAt).toBeUndefined();
  });

  it("adds and removes labels, archives, unarchives and trashes", async () => {
    const { sb, client, labels } = await world();
    const feature = labels.find((l) => l.name === "Feature");
    await client.issueAddLabel("ENG-1", feature?.id ?? "");
    expect((await (await client.issue("ENG-1")).labels()).nodes.map((l) => l.name).sort()).toEqual(["Bug", "Feature"]);
    await client.issueRemoveLabel("ENG-1", feature?.id ?? "");
    expect((await (await client.issue("ENG-1")).labels()).nodes.map((l) => l.name)).toEqual(["Bug"]);
    const archived = await client.archiveIssue("ENG-2");
    expect(archived.success).toBe(true);
    expect((await client.issues()).nodes.map((i) => i.identifier)).toEqual(["ENG-1"]);
    expect((await client.issues({ includeArchived: true })).nodes.map((i) => i.identifier)).toEqual(["ENG-2", "ENG-1"]);
    await client.unarchiveIssue("ENG-2");
    await client.deleteIssue("ENG-2");
    const trashed = (await exportOf(sb)).issues.find((i) => i.identifier === "ENG-2");
    expect(trashed).toMatchObject({ trashed: true });
  });

  it("threads comment replies by parentId, edits and deletes them", async () => {
    const { sb, client } = await world();
    const issue = await client.issue("ENG-2");
    const top = await (await client.createComment({ issueId: issue.id, body: "Repro attached." })).comment;
    const reply = await (await client.createComment({ issueId: issue.id, body: "Confirmed.", parentId: top?.id })).comment;
    expect((await reply?.parent)?.id).toBe(top?.id);
    // SDK 98's comment.children() forwards only the variables it is given (not the comment's id).
    expect((await top?.children({ id: top.id }))?.nodes.map((c) => c.body)).toEqual(["Confirmed."]);
    await client.updateComment(reply?.id ?? "", { body: "Confirmed on Android." });
    let exported = (await exportOf(sb)).issues.find((i) => i.identifier === "ENG-2");
    expect(exported?.comments).toMatchObject([{ body: "Repro attached.", children: [{ body: "Confirmed on Android." }] }]);
    const deleted = await client.deleteComment(top?.id ?? "");
    expect(deleted.success).toBe(true);
    exported = (await exportOf(sb)).issues.find((i) => i.identifier === "ENG-2");
    expect(exported?.comments).toEqual([]);
  });

  it("moves lastSyncId on by one per mutation and gives new objects distinct ids", async () => {
    const { client } = await world();
    const issue = await client.issue("ENG-2");
    const first = await client.createComment({ issueId: issue.id, body: "One." });
    const second = await client.createComment({ issueId: issue.id, body: "Two." });
    expect(second.lastSyncId).toBe(first.lastSyncId + 1);
    const [a, b] = [await first.comment, await second.comment];
    expect(a?.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(b?.id).not.toBe(a?.id);
    const updated = await client.updateIssue(issue.id, { title: "Renamed" });
    expect(updated.lastSyncId).toBe(second.lastSyncId + 1);
  });

  it("answers a new comment as a later read sees it, and subscribes its writer once", async () => {
    const { sb, client } = await world();
    const issue = await client.issue("ENG-2");
    const before = (await issue.subscribers()).nodes.map((u) => u.email);
    expect(before).not.toContain("ada@acme.test");
    const fields = "id body createdAt updatedAt editedAt user { email } issue { identifier } parent { id }";
    const created = await gql(
      sb,
      `mutation { commentCreate(input: { issueId: "ENG-2", body: "Looking now." }) { success comment { ${fields} } } }`,
    );
    const comment = (created.body.data as { commentCreate: { comment: { id: string } } }).commentCreate.comment;
    expect(comment).toMatchObject({ body: "Looking now.", user: { email: "ada@acme.test" }, issue: { identifier: "ENG-2" }, parent: null });
    const read = await gql(sb, `{ comment(id: "${comment.id}") { ${fields} } }`);
    expect(read.body.data?.comment).toEqual(comment);
    await client.createComment({ issueId: issue.id, body: "And again." });
    await client.createComment({ issueId: issue.id, body: "Not following.", doNotSubscribeToIssue: true });
    expect((await issue.subscribers()).nodes.map((u) => u.email)).toEqual([...before, "ada@acme.test"]);
  });

  it("relates issues, reacts, attaches links and subscribes", async () => {
    const { sb, client } = await world();
    const team = (await client.teams()).nodes[0];
    const one = await client.issue("ENG-1");
    const two = await client.issue((await client.createIssue({ teamId: team.id, title: "Checkout 500 again" })).issueId ?? "");
    const dup = client.createIssueRelation({ issueId: one.id, relatedIssueId: (await client.issue("ENG-2")).id, type: "related" as never });
    await expect(dup).rejects.toThrow("These issues are already related");
    const rel = await (await client.createIssueRelation({ issueId: two.id, relatedIssueId: one.id, type: "duplicate" as never }))
      .issueRelation;
    expect(rel?.type).toBe("duplicate");
    expect((await rel?.relatedIssue)?.identifier).toBe("ENG-1");
    expect((await two.relations()).nodes).toHaveLength(1);
    expect((await one.inverseRelations()).nodes).toHaveLength(1);
    const reaction = await client.createReaction({ issueId: one.id, emoji: "+1" });
    expect(reaction.success).toBe(true);
    const link = await client.attachmentLinkURL(one.id, "https://github.com/acme/api/pull/7", { title: "PR #7" });
    expect((await link.attachment)?.title).toBe("PR #7");
    expect((await one.attachments()).nodes.map((a) => a.url).sort()).toEqual([
      "https://github.com/acme/api/pull/7",
      "https://sentry.example.test/e/1",
    ]);
    await client.issueSubscribe(two.id);
    expect((await two.subscribers()).nodes.map((u) => u.email)).toContain("ada@acme.test");
    const exported = (await exportOf(sb)).issues.find((i) => i.identifier === "ENG-3");
    expect(exported?.relations).toEqual([expect.objectContaining({ type: "duplicate", relatedIssue: "ENG-1" })]);
    await client.deleteIssueRelation(rel?.id ?? "");
    expect((await two.relations()).nodes).toHaveLength(0);
  });

  it("creates labels, projects, cycles and workflow states", async () => {
    const { client, team } = await world();
    const label = await (await client.createIssueLabel({ name: "Regression", color: "#ff0000", teamId: team.id })).issueLabel;
    expect(label?.name).toBe("Regression");
    await client.updateIssueLabel(label?.id ?? "", { name: "Regressions" });
    expect((await team.labels()).nodes.map((l) => l.name)).toContain("Regressions");
    const project = await (await client.createProject({ name: "Billing", teamIds: [team.id] })).project;
    expect(project?.name).toBe("Billing");
    await client.updateProject(project?.id ?? "", { description: "Invoices" });
    expect((await client.project(project?.id ?? "")).description).toBe("Invoices");
    const cycle = await (
      await client.createCycle({ teamId: team.id, startsAt: new Date("2026-07-20T00:00:00Z"), endsAt: new Date("2026-08-03T00:00:00Z") })
    ).cycle;
    expect(cycle?.number).toBe(2);
    const state = await (await client.createWorkflowState({ teamId: team.id, name: "In Review", type: "started", color: "#00ff00" }))
      .workflowState;
    expect(state?.type).toBe("started");
    expect((await team.states()).nodes.map((s) => s.name)).toContain("In Review");
  });
});
