// Issue-side writes through @linear/sdk, each named by the GraphQL mutation it sends: archiving,
// unarchiving and deleting issues, editing and deleting comments, relations, reactions,
// unsubscribing, deleting labels, and a team's workflow states and settings.
// Shapes follow Linear's schema (@linear/sdk's schema types): archive mutations answer an
// ArchivePayload `{ success, lastSyncId, entity }`, deletes a DeletePayload `{ success, lastSyncId,
// entityId }`; an id naming nothing is refused `Entity not found: <Type>` with extensions
// `{ type: "invalid input", code: "INPUT_ERROR" }`, which the SDK raises as InvalidInputLinearError.
import { beforeAll, describe, expect, it } from "vitest";
import { gql, linearFor, linearSandbox, routeFetchThroughSelf, refusedInput, UNKNOWN_ID } from "./fixtures";

beforeAll(routeFetchThroughSelf);

describe("linear twin: issues archived, unarchived and deleted", () => {
  it("issueArchive hides the issue from lists, keeps it by id with archivedAt, and refuses an unknown id", async () => {
    const sb = await linearSandbox();
    const client = linearFor(sb);
    const issue = await client.issue("ENG-2");
    const archived = await client.archiveIssue(issue.id);
    expect(archived.success).toBe(true);
    expect(archived.lastSyncId).toBeGreaterThan(0);
    const entity = await archived.entity;
    expect([entity?.id, entity?.identifier, entity?.archivedAt instanceof Date]).toEqual([issue.id, "ENG-2", true]);
    expect((await client.issues()).nodes.map((i) => i.identifier)).toEqual(["ENG-1"]);
    expect((await client.issue("ENG-2")).archivedAt).toBeInstanceOf(Date);
    await refusedInput(client.archiveIssue(UNKNOWN_ID), /Entity not found: Issue/);
    const raw = await gql(sb, `mutation { issueArchive(id: "${UNKNOWN_ID}") { success } }`);
    expect(raw.status).toBe(400);
    expect(raw.body.errors?.[0]).toMatchObject({
      message: "Entity not found: Issue",
      path: ["issueArchive"],
      extensions: { type: "invalid input", code: "INPUT_ERROR", userError: true },
    });
  });

  it("issueUnarchive brings an archived issue back into lists with archivedAt cleared", async () => {
    const client = linearFor(await linearSandbox());
    await client.archiveIssue("ENG-2");
    const back = await client.unarchiveIssue("ENG-2");
    expect(back.success).toBe(true);
    const entity = await back.entity;
    expect([entity?.identifier, entity?.archivedAt]).toEqual(["ENG-2", undefined]);
    expect((await client.issues()).nodes.map((i) => i.identifier).sort()).toEqual(["ENG-1", "ENG-2"]);
    await refusedInput(client.unarchiveIssue(UNKNOWN_ID), /Entity not found: Issue/);
  });

  it("issueDelete moves the issue to the trash (archived, trashed) and permanentlyDelete needs an admin", async () => {
    const sb = await linearSandbox();
    const client = linearFor(sb);
    const deleted = await client.deleteIssue("ENG-2");
    expect(deleted.success).toBe(true);
    const entity = await deleted.entity;
    // Linear: "Trashed issues are deleted after 30 days" — deleteIssue answers the trashed issue.
    expect([entity?.identifier, entity?.trashed, entity?.archivedAt instanceof Date]).toEqual(["ENG-2", true, true]);
    expect((await client.issues()).nodes.map((i) => i.identifier)).toEqual(["ENG-1"]);
    const gone = await client.deleteIssue("ENG-2", { permanentlyDelete: true });
    expect([gone.success, await gone.entity]).toEqual([true, undefined]);
    await refusedInput(client.issue("ENG-2"), /Entity not found/);
    await refusedInput(client.deleteIssue(UNKNOWN_ID), /Entity not found: Issue/);
  });
});

describe("linear twin: comments edited and deleted", () => {
  it("commentUpdate changes the body, sets editedAt, and refuses an empty body and an unknown id", async () => {
    const client = linearFor(await linearSandbox());
    const issue = await client.issue("ENG-2");
    const created = await (await client.createComment({ issueId: issue.id, body: "First take." })).comment;
    expect(created?.editedAt).toBeUndefined();
    const updated = await client.updateComment(created?.id ?? "", { body: "Second take." });
    expect(updated.success).toBe(true);
    const comment = await updated.comment;
    expect([comment?.id, comment?.body, comment?.editedAt instanceof Date]).toEqual([created?.id, "Second take.", true]);
    expect((await client.comment({ id: created?.id ?? "" })).body).toBe("Second take.");
    await refusedInput(client.updateComment(created?.id ?? "", { body: "  " }), /empty|needs a body/);
    await refusedInput(client.updateComment(UNKNOWN_ID, { body: "x" }), /Entity not found: Comment/);
  });

  it("commentDelete removes the comment and its replies, answering its id, and refuses an unknown id", async () => {
    const client = linearFor(await linearSandbox());
    const issue = await client.issue("ENG-1");
    const before = (await issue.comments()).nodes;
    expect(before.map((c) => c.body).sort()).toEqual(["Seen on iOS too.", "Thanks, looking."]);
    const top = before.find((c) => c.body === "Seen on iOS too.");
    const deleted = await client.deleteComment(top?.id ?? "");
    expect([deleted.success, deleted.entityId]).toEqual([true, top?.id]);
    expect((await issue.comments()).nodes).toEqual([]);
    await refusedInput(client.comment({ id: top?.id ?? "" }), /Entity not found/);
    await refusedInput(client.deleteComment(UNKNOWN_ID), /Entity not found: Comment/);
  });
});

describe("linear twin: relations, reactions and subscriptions", () => {
  it("issueRelationCreate relates two issues, seen from both sides, and refuses self, duplicate and unknown", async () => {
    const client = linearFor(await linearSandbox());
    const two = await client.issue("ENG-2");
    const created = await (await client.createIssue({ teamId: (await two.team)?.id ?? "", title: "Third" })).issue;
    const payload = await client.createIssueRelation({ issueId: created?.id ?? "", relatedIssueId: two.id, type: "duplicate" as never });
    expect(payload.success).toBe(true);
    const rel = await payload.issueRelation;
    expect([rel?.type, (await rel?.issue)?.id, (await rel?.relatedIssue)?.identifier]).toEqual(["duplicate", created?.id, "ENG-2"]);
    expect((await (await client.issue(created?.id ?? "")).relations()).nodes.map((r) => r.id)).toEqual([rel?.id]);
    expect((await two.inverseRelations()).nodes.map((r) => r.id)).toContain(rel?.id);
    await refusedInput(client.createIssueRelation({ issueId: two.id, relatedIssueId: two.id, type: "related" as never }), /itself/);
    await refusedInput(
      client.createIssueRelation({ issueId: two.id, relatedIssueId: created?.id ?? "", type: "blocks" as never }),
      /already related/,
    );
    await refusedInput(
      client.createIssueRelation({ issueId: two.id, relatedIssueId: UNKNOWN_ID, type: "blocks" as never }),
      /Entity not found: Issue/,
    );
    // IssueRelationCreateInput.issueId/relatedIssueId (@linear/sdk schema): "Can be a UUID or issue identifier (e.g., 'LIN-123')".
    const byIdentifier = await (await client.createIssueRelation({ issueId: "ENG-3", relatedIssueId: "ENG-1", type: "related" as never }))
      .issueRelation;
    expect([(await byIdentifier?.issue)?.identifier, (await byIdentifier?.relatedIssue)?.identifier]).toEqual(["ENG-3", "ENG-1"]);
  });

  it("issueRelationDelete removes the relation from both issues and refuses an unknown id", async () => {
    const client = linearFor(await linearSandbox());
    const one = await client.issue("ENG-1");
    const [rel] = (await one.relations()).nodes;
    expect([rel?.type, (await rel?.relatedIssue)?.identifier]).toEqual(["blocks", "ENG-2"]);
    const deleted = await client.deleteIssueRelation(rel?.id ?? "");
    expect([deleted.success, deleted.entityId]).toEqual([true, rel?.id]);
    expect((await one.relations()).nodes).toEqual([]);
    expect((await (await client.issue("ENG-2")).inverseRelations()).nodes).toEqual([]);
    await refusedInput(client.deleteIssueRelation(rel?.id ?? ""), /Entity not found/);
  });

  it("reactionCreate puts the viewer's emoji on an issue and a comment, and refuses no target and an unknown one", async () => {
    const sb = await linearSandbox();
    const client = linearFor(sb);
    const one = await client.issue("ENG-1");
    const onIssue = await client.createReaction({ issueId: one.id, emoji: "+1" });
    expect(onIssue.success).toBe(true);
    const reaction = await onIssue.reaction;
    expect([reaction?.emoji, (await reaction?.user)?.email, (await reaction?.issue)?.identifier]).toEqual(["+1", "ada@acme.test", "ENG-1"]);
    const [comment] = (await one.comments({ filter: { body: { eq: "Seen on iOS too." } } })).nodes;
    await client.createReaction({ commentId: comment?.id, emoji: "eyes" });
    const read = await gql(
      sb,
      `{ issue(id: "ENG-1") { reactions { emoji } comments(filter: { body: { eq: "Seen on iOS too." } }) { nodes { reactions { emoji user { email } } } } } }`,
    );
    expect(read.body.data).toEqual({
      issue: { reactions: [{ emoji: "+1" }], comments: { nodes: [{ reactions: [{ emoji: "eyes", user: { email: "ada@acme.test" } }] }] } },
    });
    // ReactionCreateInput.issueId (@linear/sdk schema): "Can be a UUID or issue identifier (e.g., 'LIN-123')".
    expect((await (await (await client.createReaction({ issueId: "ENG-2", emoji: "tada" })).reaction)?.issue)?.identifier).toBe("ENG-2");
    await refusedInput(client.createReaction({ emoji: "+1" }), /issueId or a commentId|react to/);
    await refusedInput(client.createReaction({ issueId: UNKNOWN_ID, emoji: "+1" }), /Entity not found: Issue/);
    await refusedInput(client.createReaction({ commentId: UNKNOWN_ID, emoji: "+1" }), /Entity not found: Comment/);
  });

  it("issueUnsubscribe takes the viewer off the issue's subscribers and refuses an unknown issue", async () => {
    const client = linearFor(await linearSandbox());
    await client.issueSubscribe("ENG-2");
    const subscribed = async () => (await (await client.issue("ENG-2")).subscribers()).nodes.map((u) => u.email);
    expect(await subscribed()).toContain("ada@acme.test");
    const payload = await client.issueUnsubscribe("ENG-2");
    expect([payload.success, (await payload.issue)?.identifier]).toEqual([true, "ENG-2"]);
    expect(await subscribed()).not.toContain("ada@acme.test");
    await refusedInput(client.issueUnsubscribe(UNKNOWN_ID), /Entity not found: Issue/);
  });
});

describe("linear twin: labels, workflow states and teams", () => {
  it("issueLabelDelete removes the label from the workspace and from its issues, and refuses an unknown id", async () => {
    const client = linearFor(await linearSandbox());
    const bug = (await client.issueLabels({ filter: { name: { eq: "Bug" } } })).nodes[0];
    const deleted = await client.deleteIssueLabel(bug?.id ?? "");
    expect([deleted.success, deleted.entityId]).toEqual([true, bug?.id]);
    expect((await client.issueLabels()).nodes.map((l) => l.name).sort()).toEqual(["Customer", "Feature"]);
    expect((await (await client.issue("ENG-1")).labels()).nodes).toEqual([]);
    await refusedInput(client.deleteIssueLabel(bug?.id ?? ""), /Entity not found/);
  });

  it("workflowStateCreate adds a state to the team's workflow after the others, and refuses bad input", async () => {
    const client = linearFor(await linearSandbox());
    const team = await client.team("ENG");
    const payload = await client.createWorkflowState({ teamId: team.id, name: "In Review", type: "started", color: "#f2c94c" });
    expect(payload.success).toBe(true);
    const state = await payload.workflowState;
    expect([state?.name, state?.type, state?.color, (await state?.team)?.key]).toEqual(["In Review", "started", "#f2c94c", "ENG"]);
    const states = (await team.states()).nodes.sort((a, b) => a.position - b.position);
    expect(states.at(-1)?.name).toBe("In Review");
    await refusedInput(
      client.createWorkflowState({ teamId: team.id, name: "In Review", type: "started", color: "#f2c94c" }),
      /already exists/,
    );
    await refusedInput(client.createWorkflowState({ teamId: team.id, name: "QA", type: "review", color: "#f2c94c" }), /type/);
    // WorkflowStateCreateInput.type (@linear/sdk schema): "Valid values: backlog, unstarted, started,
    // completed, canceled" — triage is not among them.
    await refusedInput(client.createWorkflowState({ teamId: team.id, name: "Inbox", type: "triage", color: "#f2c94c" }), /type/);
    await refusedInput(
      client.createWorkflowState({ teamId: UNKNOWN_ID, name: "QA", type: "started", color: "#f2c94c" }),
      /Entity not found: Team/,
    );
  });

  it("workflowStateUpdate renames, recolours and moves a state, and refuses a taken name and an unknown id", async () => {
    const client = linearFor(await linearSandbox());
    const backlog = (await client.workflowStates({ filter: { name: { eq: "Backlog" } } })).nodes[0];
    const payload = await client.updateWorkflowState(backlog?.id ?? "", {
      name: "Icebox",
      color: "#bec2c8",
      position: 99,
      description: "Later",
    });
    const state = await payload.workflowState;
    expect([payload.success, state?.name, state?.color, state?.position, state?.description, state?.type]).toEqual([
      true,
      "Icebox",
      "#bec2c8",
      99,
      "Later",
      "backlog",
    ]);
    expect((await client.workflowState(backlog?.id ?? "")).name).toBe("Icebox");
    await refusedInput(client.updateWorkflowState(backlog?.id ?? "", { name: "Done" }), /already exists/);
    await refusedInput(client.updateWorkflowState(UNKNOWN_ID, { name: "x" }), /Entity not found/);
  });

  it("workflowStateArchive archives an unused state, refuses one with issues and the default, and an unknown id", async () => {
    const client = linearFor(await linearSandbox());
    const byName = async (name: string) => (await client.workflowStates({ filter: { name: { eq: name } } })).nodes[0];
    const canceled = await byName("Canceled");
    const payload = await client.archiveWorkflowState(canceled?.id ?? "");
    const entity = await payload.entity;
    expect([payload.success, entity?.id, entity?.archivedAt instanceof Date]).toEqual([true, canceled?.id, true]);
    expect((await (await client.team("ENG")).states()).nodes.map((s) => s.name)).not.toContain("Canceled");
    // ENG-1 is in Todo, which is also the team's default state: Linear asks to move them first.
    await refusedInput(client.archiveWorkflowState((await byName("Todo"))?.id ?? ""), /default state|has issues/);
    await client.createIssue({ teamId: (await client.team("ENG")).id, title: "Started", stateId: (await byName("In Progress"))?.id });
    await refusedInput(client.archiveWorkflowState((await byName("In Progress"))?.id ?? ""), /has issues/);
    await refusedInput(client.archiveWorkflowState(UNKNOWN_ID), /Entity not found/);
  });

  it("teamUpdate renames the team, changes its key (issues follow) and refuses a bad key and an unknown id", async () => {
    const client = linearFor(await linearSandbox());
    const team = await client.team("ENG");
    const payload = await client.updateTeam(team.id, { name: "Platform", key: "PLT", description: "Core services" });
    const updated = await payload.team;
    expect([payload.success, updated?.name, updated?.key, updated?.description]).toEqual([true, "Platform", "PLT", "Core services"]);
    expect((await client.issue("ENG-1")).identifier).toBe("PLT-1");
    expect((await client.team(team.id)).name).toBe("Platform");
    await refusedInput(client.updateTeam(team.id, { key: "not a key" }), /Team key/);
    // TeamUpdateInput.issueEstimationType (@linear/sdk schema): 'Must be one of "notUsed", "exponential", "fibonacci", "linear", "tShirt"'.
    expect((await (await client.updateTeam(team.id, { issueEstimationType: "tShirt" })).team)?.issueEstimationType).toBe("tShirt");
    await refusedInput(client.updateTeam(team.id, { issueEstimationType: "bogus" }), /issueEstimationType|estimation/i);
    await refusedInput(client.updateTeam(UNKNOWN_ID, { name: "x" }), /Entity not found/);
  });
});
