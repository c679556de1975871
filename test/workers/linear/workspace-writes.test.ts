// Workspace-side writes through @linear/sdk, each named by the GraphQL mutation it sends: custom
// views edited and deleted, favorites moved and removed, templates edited and deleted, and the
// viewer's inbox archived in bulk and restored. Payload shapes are Linear's schema (@linear/sdk's
// schema types): deletes answer DeletePayload `{ success, lastSyncId, entityId }`,
// notificationUnarchive a NotificationArchivePayload `{ success, lastSyncId, entity }`,
// notificationArchiveAll a NotificationBatchActionPayload `{ success, lastSyncId, notifications }`;
// an id naming nothing is `Entity not found: <Type>` (InvalidInputLinearError to the SDK).
import { beforeAll, describe, expect, it } from "vitest";
import { acmeWorld, gql, linearFor, linearSandbox, routeFetchThroughSelf, refusedInput, UNKNOWN_ID } from "./fixtures";

beforeAll(routeFetchThroughSelf);

describe("linear twin: custom views edited and deleted", () => {
  it("customViewUpdate renames, shares and re-filters a view, and refuses an empty name and an unknown id", async () => {
    const client = linearFor(await linearSandbox());
    const view = await (await client.createCustomView({ name: "Bugs", filterData: { labels: { name: { eq: "Bug" } } } })).customView;
    const payload = await client.updateCustomView(view?.id ?? "", {
      name: "Children",
      description: "Sub-issues",
      shared: true,
      filterData: { parent: { null: false } },
    });
    const updated = await payload.customView;
    expect([payload.success, updated?.id, updated?.name, updated?.description, updated?.shared, updated?.filterData]).toEqual([
      true,
      view?.id,
      "Children",
      "Sub-issues",
      true,
      { parent: { null: false } },
    ]);
    expect((await (await client.customView(view?.id ?? "")).issues()).nodes.map((i) => i.identifier)).toEqual(["ENG-2"]);
    await refusedInput(client.updateCustomView(view?.id ?? "", { name: " " }), /name must not be empty|needs a name/);
    await refusedInput(client.updateCustomView(UNKNOWN_ID, { name: "x" }), /Entity not found: CustomView/);
  });

  it("customViewDelete removes the view from the list and from lookup, and refuses it again", async () => {
    const client = linearFor(await linearSandbox());
    const view = await (await client.createCustomView({ name: "Bugs" })).customView;
    const deleted = await client.deleteCustomView(view?.id ?? "");
    expect([deleted.success, deleted.entityId]).toEqual([true, view?.id]);
    expect((await client.customViews()).nodes).toEqual([]);
    await refusedInput(client.customView(view?.id ?? ""), /Entity not found/);
    await refusedInput(client.deleteCustomView(view?.id ?? ""), /Entity not found: CustomView/);
  });
});

describe("linear twin: favorites moved and removed", () => {
  it("favoriteUpdate renames a folder, moves a favorite into it and reorders, and refuses a folder in a folder", async () => {
    const client = linearFor(await linearSandbox());
    const folder = await (await client.createFavorite({ folderName: "Now" })).favorite;
    const issue = await (await client.createFavorite({ issueId: "ENG-1" })).favorite;
    const renamed = await client.updateFavorite(folder?.id ?? "", { folderName: "This week" });
    expect([renamed.success, (await renamed.favorite)?.folderName]).toEqual([true, "This week"]);
    const moved = await (await client.updateFavorite(issue?.id ?? "", { parentId: folder?.id, sortOrder: 5 })).favorite;
    expect([(await moved?.parent)?.id, moved?.sortOrder]).toEqual([folder?.id, 5]);
    expect((await (await client.favorite(folder?.id ?? "")).children()).nodes.map((f) => f.id)).toEqual([issue?.id]);
    const other = await (await client.createFavorite({ folderName: "Later" })).favorite;
    await refusedInput(client.updateFavorite(other?.id ?? "", { parentId: folder?.id }), /folder cannot be put in a folder/);
    await refusedInput(client.updateFavorite(issue?.id ?? "", { folderName: "x" }), /Only a folder/);
    await refusedInput(client.updateFavorite(UNKNOWN_ID, { sortOrder: 1 }), /Entity not found/);
  });

  it("favoriteDelete removes a favorite; a deleted folder's favorites move to the top level", async () => {
    const client = linearFor(await linearSandbox());
    const folder = await (await client.createFavorite({ folderName: "Now" })).favorite;
    const issue = await (await client.createFavorite({ issueId: "ENG-1", parentId: folder?.id })).favorite;
    const deleted = await client.deleteFavorite(folder?.id ?? "");
    expect([deleted.success, deleted.entityId]).toEqual([true, folder?.id]);
    const left = (await client.favorites()).nodes;
    expect(left.map((f) => [f.id, f.type])).toEqual([[issue?.id, "issue"]]);
    expect(await left[0]?.parent).toBeUndefined();
    await client.deleteFavorite(issue?.id ?? "");
    expect((await client.favorites()).nodes).toEqual([]);
    await refusedInput(client.deleteFavorite(issue?.id ?? ""), /Entity not found/);
  });
});

describe("linear twin: templates edited and deleted", () => {
  it("templateUpdate changes a template's name and data, used by the next issue made from it, and refuses an unknown id", async () => {
    const client = linearFor(await linearSandbox());
    const template = await (await client.createTemplate({ name: "Bug", type: "issue", teamId: "ENG", templateData: { title: "Bug: " } }))
      .template;
    const payload = await client.updateTemplate(template?.id ?? "", { name: "Bug report", templateData: { title: "Bug: ", priority: 2 } });
    const updated = await payload.template;
    expect([payload.success, updated?.id, updated?.name, updated?.templateData]).toEqual([
      true,
      template?.id,
      "Bug report",
      { title: "Bug: ", priority: 2 },
    ]);
    const team = await client.team("ENG");
    const issue = await (await client.createIssue({ teamId: team.id, templateId: template?.id })).issue;
    expect([issue?.title, issue?.priority]).toEqual(["Bug: ", 2]);
    await refusedInput(client.updateTemplate(template?.id ?? "", { name: "" }), /name must not be empty|needs a name/);
    // TemplateUpdateInput.teamId (@linear/sdk schema): "If set to null, the template will be shared across all teams."
    const shared = await (await client.updateTemplate(template?.id ?? "", { teamId: null })).template;
    expect(await shared?.team).toBeUndefined();
    await refusedInput(client.updateTemplate(UNKNOWN_ID, { name: "x" }), /Entity not found: Template/);
  });

  it("templateDelete removes the template from the workspace and refuses it again", async () => {
    const client = linearFor(await linearSandbox());
    const template = await (await client.createTemplate({ name: "Spec", type: "document", templateData: { content: "# Spec" } })).template;
    const deleted = await client.deleteTemplate(template?.id ?? "");
    expect([deleted.success, deleted.entityId]).toEqual([true, template?.id]);
    expect(await client.templates).toEqual([]);
    await refusedInput(client.template(template?.id ?? ""), /Entity not found/);
    await refusedInput(client.deleteTemplate(template?.id ?? ""), /Entity not found: Template/);
  });
});

/** Acme plus ENG-3 by Bob, followed by Ada, with two of Bob's comments: two notifications for Ada. */
function inboxWorld() {
  const world = acmeWorld();
  world.issues.push({
    identifier: "ENG-3",
    title: "Followed",
    creator: "bob@acme.test",
    subscribers: ["ada@acme.test"],
    createdAt: "2026-07-05T10:00:00Z",
    comments: [
      { user: "bob@acme.test", body: "first", createdAt: "2026-07-05T11:00:00Z" },
      { user: "bob@acme.test", body: "second", createdAt: "2026-07-05T12:00:00Z" },
    ],
  } as never);
  return world;
}

describe("linear twin: the inbox archived and restored", () => {
  const aboutEng3 = async (client: ReturnType<typeof linearFor>, includeArchived = false) => {
    const nodes = (await client.notifications({ includeArchived })).nodes;
    const out = [];
    for (const n of nodes) {
      const issue = await (n as unknown as { issue?: Promise<{ identifier: string } | undefined> }).issue;
      if (issue?.identifier === "ENG-3") out.push(n);
    }
    return out;
  };

  it("notificationArchiveAll archives a notification and the others about the same issue, and refuses an unknown id", async () => {
    const client = linearFor(await linearSandbox(inboxWorld()));
    const about = await aboutEng3(client);
    expect(about).toHaveLength(2);
    const payload = await client.notificationArchiveAll({ id: about[0]?.id });
    expect(payload.success).toBe(true);
    const archived = payload.notifications;
    expect(archived.map((n) => n.id).sort()).toEqual(about.map((n) => n.id).sort());
    expect(archived.every((n) => n.archivedAt instanceof Date)).toBe(true);
    expect(await aboutEng3(client)).toEqual([]);
    expect(await aboutEng3(client, true)).toHaveLength(2);
    // The other issue's notification (Bob's comment on ENG-1, which Ada created) stays.
    expect((await client.notifications()).nodes).toHaveLength(1);
    await refusedInput(client.notificationArchiveAll({ id: UNKNOWN_ID }), /Entity not found: Notification/);
  });

  it("notificationArchiveAll by issueId archives every notification about that issue", async () => {
    const client = linearFor(await linearSandbox(inboxWorld()));
    const issue = await client.issue("ENG-3");
    const payload = await client.notificationArchiveAll({ issueId: issue.id });
    expect([payload.success, payload.notifications.length]).toEqual([true, 2]);
    expect(await aboutEng3(client)).toEqual([]);
    expect((await client.notifications()).nodes).toHaveLength(1);
  });

  it("notificationUnarchive brings one archived notification back to the inbox, and refuses an unknown id", async () => {
    const sb = await linearSandbox(inboxWorld());
    const client = linearFor(sb);
    const [first] = await aboutEng3(client);
    await client.notificationArchiveAll({ id: first?.id });
    // @linear/sdk's NotificationArchivePayload class keeps only success and lastSyncId.
    const payload = await client.unarchiveNotification(first?.id ?? "");
    expect([payload.success, payload.lastSyncId > 0]).toEqual([true, true]);
    expect((await client.notification(first?.id ?? "")).archivedAt).toBeUndefined();
    expect((await aboutEng3(client)).map((n) => n.id)).toEqual([first?.id]);
    // The schema's payload also holds the notification as `entity`.
    await client.notificationArchiveAll({ id: first?.id });
    const answered = await gql(sb, `mutation { notificationUnarchive(id: "${first?.id}") { success entity { id archivedAt } } }`);
    expect(answered.body.data).toEqual({ notificationUnarchive: { success: true, entity: { id: first?.id, archivedAt: null } } });
    const raw = await gql(sb, `mutation { notificationUnarchive(id: "${UNKNOWN_ID}") { success } }`);
    expect(raw.body.errors?.[0]).toMatchObject({
      message: "Entity not found: Notification",
      extensions: { type: "invalid input", code: "INPUT_ERROR" },
    });
  });
});
