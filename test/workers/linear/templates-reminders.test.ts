// Templates through @linear/sdk (written, listed, applied by issueCreate(templateId) with the
// input's own fields winning) and issue reminders (a notification that arrives at its time).
import { beforeAll, describe, expect, it } from "vitest";
import { linearTwin } from "../../../durable-objects/twins/linear";
import { parseLinearSeed } from "../../../durable-objects/twins/linear/seed";
import { inTwinWorld } from "../kit/world";
import { acmeWorld, gql, linearFor, linearSandbox, routeFetchThroughSelf } from "./fixtures";

beforeAll(routeFetchThroughSelf);

describe("linear twin: templates are written and listed through @linear/sdk", () => {
  it("creates a team's issue template, lists it with the workspace's, updates and deletes it", async () => {
    const client = linearFor(await linearSandbox());
    const team = await client.team("ENG");
    const created = await client.createTemplate({
      name: "Bug report",
      type: "issue",
      teamId: "ENG",
      templateData: { title: "Bug: ", description: "## Steps\n\n## Expected", priority: 2 },
    });
    const template = await created.template;
    expect([template?.name, template?.type, (await template?.team)?.id, template?.templateData]).toEqual([
      "Bug report",
      "issue",
      team.id,
      { title: "Bug: ", description: "## Steps\n\n## Expected", priority: 2 },
    ]);
    await client.createTemplate({ name: "Spec", type: "document", templateData: { content: "# Spec" } });
    expect((await client.templates).map((t) => t.name)).toEqual(["Bug report", "Spec"]);
    // Team.templates: the team's own, not the workspace's; filtered by NullableTemplateFilter.
    expect((await team.templates()).nodes.map((t) => t.name)).toEqual(["Bug report"]);
    expect((await team.templates({ filter: { name: { eq: "Spec" } } })).nodes).toEqual([]);
    const renamed = await (await client.updateTemplate(template?.id ?? "", { name: "Bug" })).template;
    expect(renamed?.name).toBe("Bug");
    expect((await client.deleteTemplate(template?.id ?? "")).entityId).toBe(template?.id);
    await expect(client.template(template?.id ?? "")).rejects.toThrow(/Entity not found/);
  });

  it("refuses an issue template field the twin does not apply, and keeps nothing", async () => {
    const sandbox = await linearSandbox();
    const res = await gql(
      sandbox,
      `mutation { templateCreate(input: { name: "X", type: "issue", templateData: { slaType: "all" } }) { success } }`,
    );
    expect(res.status).toBe(501);
    expect(await linearFor(sandbox).templates).toEqual([]);
  });
});

describe("linear twin: issueCreate(templateId) applies the template's data", () => {
  it("fills the issue from the template, lets the input's own fields win, and records the template", async () => {
    const client = linearFor(await linearSandbox());
    const team = await client.team("ENG");
    const bug = (await client.issueLabels({ filter: { name: { eq: "Bug" } } })).nodes[0];
    const bob = (await client.users({ filter: { email: { eq: "bob@acme.test" } } })).nodes[0];
    const template = await (
      await client.createTemplate({
        name: "Bug report",
        type: "issue",
        templateData: { title: "Bug", description: "## Steps", priority: 2, labelIds: [bug?.id], assigneeId: bob?.id },
      })
    ).template;
    const issue = await (await client.createIssue({ teamId: team.id, templateId: template?.id, title: "Login loops" })).issue;
    expect([issue?.title, issue?.description, issue?.priority, (await issue?.assignee)?.email]).toEqual([
      "Login loops",
      "## Steps",
      2,
      "bob@acme.test",
    ]);
    expect((await issue?.labels())?.nodes.map((l) => l.name)).toEqual(["Bug"]);
    expect((await issue?.lastAppliedTemplate)?.id).toBe(template?.id);
    const fromTemplate = await client.issues({ filter: { lastAppliedTemplate: { name: { eq: "Bug report" } } } });
    expect(fromTemplate.nodes.map((i) => i.id)).toEqual([issue?.id]);
    expect((await client.issues({ filter: { lastAppliedTemplate: { null: true } } })).nodes).toHaveLength(2);
    expect((await client.template(template?.id ?? "")).lastAppliedAt).toBeInstanceOf(Date);
  });

  it("refuses an unknown template and a template of another kind, creating nothing", async () => {
    const client = linearFor(await linearSandbox());
    const team = await client.team("ENG");
    const doc = await (await client.createTemplate({ name: "Doc", type: "document", templateData: {} })).template;
    await expect(client.createIssue({ teamId: team.id, templateId: "0a1b2c3d-0000-4000-8000-00000000dead" })).rejects.toThrow(
      /Entity not found/,
    );
    await expect(client.createIssue({ teamId: team.id, templateId: doc?.id, title: "X" })).rejects.toThrow(/issue template/);
    expect((await client.issues()).nodes).toHaveLength(2);
  });
});

describe("linear twin: issueReminder sends a notification when its time comes", () => {
  it("answers the issue, and the reminder reaches the inbox only at its time", async () => {
    let now = Date.parse("2026-07-10T09:00:00Z");
    await inTwinWorld(
      linearTwin,
      acmeWorld(),
      (w) => {
        const set = w.call("POST", "/graphql", {
          body: { query: `mutation { issueReminder(id: "ENG-2", reminderAt: "2026-07-10T12:00:00Z") { success issue { identifier } } }` },
        });
        expect(set.body).toEqual({ data: { issueReminder: { success: true, issue: { identifier: "ENG-2" } } } });
        const inbox = () =>
          w.call("POST", "/graphql", {
            body: { query: "{ notifications { nodes { type category readAt ... on IssueNotification { issue { identifier } } } } }" },
          }).body as { data: { notifications: { nodes: { type: string; category: string; issue: { identifier: string } }[] } } };
        expect(inbox().data.notifications.nodes.filter((n) => n.type === "issueReminder")).toEqual([]);
        now = Date.parse("2026-07-10T12:00:01Z");
        expect(inbox().data.notifications.nodes.filter((n) => n.type === "issueReminder")).toEqual([
          { type: "issueReminder", category: "reminders", readAt: null, issue: { identifier: "ENG-2" } },
        ]);
        // A reminder is not derivable from the world, so the export keeps it.
        const exported = w.exportState();
        expect(exported.notifications?.map((n) => [n.type, n.issue, n.createdAt])).toEqual([
          ["issueReminder", "ENG-2", "2026-07-10T12:00:00.000Z"],
        ]);
        expect(parseLinearSeed(exported)).toEqual({ ok: true, seed: exported });
      },
      { now: () => now },
    );
  });

  it("sets a reminder through @linear/sdk, refusing an unknown issue", async () => {
    const client = linearFor(await linearSandbox());
    const payload = await client.issueReminder("ENG-1", new Date(Date.now() - 1000));
    expect([payload.success, (await payload.issue)?.identifier]).toEqual([true, "ENG-1"]);
    const reminders = (await client.notifications({ filter: { type: { eq: "issueReminder" } } })).nodes;
    expect(reminders).toHaveLength(1);
    await expect(client.issueReminder("ENG-999", new Date())).rejects.toThrow(/Entity not found/);
  });
});

describe("linear twin: templates are seed state", () => {
  it("boots seeded templates, applies one, exports it and the issue's template, and round-trips", async () => {
    const templateId = "0a1b2c3d-0000-4000-8000-0000000000e1";
    const world = acmeWorld({ templates: [{ name: "Chore", id: templateId, team: "ENG", templateData: { priority: 4 } }] });
    await inTwinWorld(linearTwin, world, (w) => {
      const teamId = w.exportState().teams[0]?.id;
      const made = w.call("POST", "/graphql", {
        body: {
          query: `mutation { issueCreate(input: { teamId: "${teamId}", title: "Tidy", templateId: "${templateId}" }) { issue { identifier priority } } }`,
        },
      });
      expect(made.body).toEqual({ data: { issueCreate: { issue: { identifier: "ENG-3", priority: 4 } } } });
      const exported = w.exportState();
      expect(exported.templates?.map((t) => [t.name, t.team, t.type, t.templateData, typeof t.lastAppliedAt])).toEqual([
        ["Chore", "ENG", "issue", { priority: 4 }, "string"],
      ]);
      expect(exported.issues.find((i) => i.identifier === "ENG-3")?.lastAppliedTemplate).toBe(templateId);
      expect(parseLinearSeed(exported)).toEqual({ ok: true, seed: exported });
    });
  });
});
