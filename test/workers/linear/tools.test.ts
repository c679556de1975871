// The Linear MCP tools: each is one GraphQL document that validates against the twin's schema,
// and each runs against a world and answers without errors, taped under its root field.
import { Kind, parse, validate, type OperationDefinitionNode } from "graphql";
import { describe, expect, it } from "vitest";
import { linearTwin } from "../../../durable-objects/twins/linear";
import { uuidFor } from "../../../durable-objects/twins/linear/ids";
import { MUTATION_RESOLVERS, QUERY_RESOLVERS, linearSchema } from "../../../durable-objects/twins/linear/schema";
import { LINEAR_UNTOOLED_FIELDS, linearTools } from "../../../durable-objects/twins/linear/tools";
import { inTwinWorld } from "../kit/world";
import { acmeWorld } from "./fixtures";

const ARGS: Record<string, (ids: Ids) => Record<string, unknown>> = {
  get_viewer: () => ({}),
  list_teams: () => ({}),
  list_users: () => ({ first: 10 }),
  list_issues: () => ({ filter: { state: { type: { eq: "unstarted" } } }, sort: [{ priority: { order: "Ascending" } }], last: 5 }),
  get_issue: () => ({ issueId: "ENG-1" }),
  search_issues: () => ({ term: "refund" }),
  create_issue: (ids) => ({ teamId: "ENG", title: "From MCP", priority: 2, labelIds: [ids.bug] }),
  update_issue: (ids) => ({ issueId: "ENG-2", stateId: ids.done, assigneeId: null }),
  archive_issue: () => ({ issueId: "ENG-2" }),
  add_issue_label: (ids) => ({ issueId: "ENG-2", labelId: ids.bug }),
  remove_issue_label: (ids) => ({ issueId: "ENG-1", labelId: ids.bug }),
  create_comment: () => ({ issueId: "ENG-1", body: "From MCP" }),
  create_issue_relation: () => ({ issueId: "ENG-3", relatedIssueId: "ENG-1", type: "related" }),
  create_issue_label: () => ({ name: "Urgent-ish", teamId: "ENG" }),
  link_url: () => ({ issueId: "ENG-1", url: "https://example.test/doc" }),
  list_projects: () => ({}),
  list_cycles: () => ({}),
  update_comment: (ids) => ({ commentId: ids.comment, body: "Edited" }),
  delete_comment: (ids) => ({ commentId: ids.comment }),
  delete_issue: () => ({ issueId: "ENG-3" }),
  unarchive_issue: () => ({ issueId: "ENG-3" }),
  delete_issue_relation: (ids) => ({ relationId: ids.relation }),
  create_reaction: () => ({ issueId: "ENG-1", emoji: "eyes" }),
  subscribe_to_issue: () => ({ issueId: "ENG-2" }),
  create_project: () => ({ name: "Billing", teamIds: ["ENG"] }),
  update_project: (ids) => ({ projectId: ids.project, description: "Invoices" }),
  create_cycle: () => ({ teamId: "ENG", startsAt: "2026-07-20T00:00:00Z", endsAt: "2026-08-03T00:00:00Z" }),
  create_workflow_state: () => ({ teamId: "ENG", name: "In Review", type: "started", color: "#00ff00" }),
  get_team: () => ({ teamId: "ENG" }),
  get_user: (ids) => ({ userId: ids.user }),
  list_workflow_states: () => ({ filter: { type: { eq: "completed" } } }),
  get_workflow_state: (ids) => ({ stateId: ids.done }),
  get_issue_label: (ids) => ({ labelId: ids.bug }),
  update_issue_label: (ids) => ({ labelId: ids.bug, color: "#ff0000" }),
  list_comments: () => ({ first: 10 }),
  get_comment: (ids) => ({ commentId: ids.comment }),
  get_project: (ids) => ({ projectId: ids.project }),
  get_cycle: (ids) => ({ cycleId: ids.cycle }),
  list_issue_relations: () => ({}),
  get_issue_relation: (ids) => ({ relationId: ids.relation }),
  list_attachments: () => ({}),
  get_attachment: (ids) => ({ attachmentId: ids.attachment }),
  create_attachment: () => ({ issueId: "ENG-2", url: "https://example.test/spec", title: "Spec" }),
  unsubscribe_from_issue: () => ({ issueId: "ENG-1" }),
  list_webhooks: () => ({}),
  get_webhook: (ids) => ({ webhookId: ids.webhook }),
  create_webhook: () => ({ url: "http://127.0.0.1:9/new", resourceTypes: ["Comment"], teamId: "ENG" }),
  update_webhook: (ids) => ({ webhookId: ids.webhook, enabled: false }),
  delete_webhook: (ids) => ({ webhookId: ids.webhook }),
  list_notifications: () => ({ first: 5 }),
  get_notification: (ids) => ({ notificationId: ids.notification }),
  get_rate_limit_status: () => ({}),
  update_cycle: (ids) => ({ cycleId: ids.cycle, name: "Sprint one", description: "The first" }),
  archive_cycle: (ids) => ({ cycleId: ids.cycle }),
  create_issues: () => ({
    issues: [
      { teamId: "ENG", title: "One" },
      { teamId: "ENG", title: "Two", priority: 2 },
    ],
  }),
  get_issue_history: () => ({ issueId: "ENG-1" }),
  list_documents: () => ({ filter: { title: { containsIgnoreCase: "spec" } } }),
  get_document: (ids) => ({ documentId: ids.document }),
  create_document: (ids) => ({ title: "Runbook", content: "# Steps", projectId: ids.project }),
  update_document: (ids) => ({ documentId: ids.document, content: "# Spec v2" }),
  delete_document: (ids) => ({ documentId: ids.document }),
  restore_document: (ids) => ({ documentId: ids.document }),
  list_project_milestones: () => ({}),
  get_project_milestone: (ids) => ({ milestoneId: ids.milestone }),
  create_project_milestone: (ids) => ({ projectId: ids.project, name: "GA", targetDate: "2027-01-01" }),
  update_project_milestone: (ids) => ({ milestoneId: ids.milestone, name: "Beta 1" }),
  delete_project_milestone: (ids) => ({ milestoneId: ids.milestone }),
  list_project_updates: () => ({}),
  get_project_update: (ids) => ({ projectUpdateId: ids.projectUpdate }),
  create_project_update: (ids) => ({ projectId: ids.project, body: "On track", health: "onTrack" }),
  update_project_update: (ids) => ({ projectUpdateId: ids.projectUpdate, health: "atRisk" }),
  delete_project_update: (ids) => ({ projectUpdateId: ids.otherProjectUpdate }),
  archive_project_update: (ids) => ({ projectUpdateId: ids.projectUpdate }),
  unarchive_project_update: (ids) => ({ projectUpdateId: ids.projectUpdate }),
  resolve_comment_thread: (ids) => ({ commentId: ids.thread }),
  unresolve_comment_thread: (ids) => ({ commentId: ids.thread }),
  update_notification: (ids) => ({ notificationId: ids.notification, readAt: "2026-07-04T00:00:00Z" }),
  mark_notifications_read: (ids) => ({ id: ids.notification, readAt: "2026-07-04T00:00:00Z" }),
  mark_notifications_unread: (ids) => ({ id: ids.notification }),
  archive_notifications: (ids) => ({ id: ids.notification }),
  archive_notification: (ids) => ({ notificationId: ids.notification }),
  unarchive_notification: (ids) => ({ notificationId: ids.notification }),
  delete_issue_label: (ids) => ({ labelId: ids.feature }),
  update_workflow_state: (ids) => ({ stateId: ids.canceled, name: "Won't do" }),
  archive_workflow_state: (ids) => ({ stateId: ids.canceled }),
  find_attachments_by_url: () => ({ url: "https://sentry.example.test/e/1" }),
  find_issue_by_branch: () => ({ branchName: "ada/eng-1-checkout-fails" }),
  create_team: () => ({ name: "Operations", key: "OPS" }),
  update_team: (ids) => ({ teamId: ids.team, description: "Builds the product" }),
  list_favorites: () => ({}),
  get_favorite: (ids) => ({ id: ids.favorite }),
  create_favorite: () => ({ issueId: "ENG-1" }),
  update_favorite: (ids) => ({ id: ids.favorite, folderName: "Sprint 2" }),
  delete_favorite: (ids) => ({ id: ids.favorite }),
  list_initiatives: () => ({ filter: { status: { eq: "Planned" } } }),
  get_initiative: (ids) => ({ id: ids.initiative }),
  create_initiative: () => ({ name: "From MCP", status: "Active", targetDate: "2026-12-31" }),
  update_initiative: (ids) => ({ id: ids.initiative, status: "Completed" }),
  delete_initiative: (ids) => ({ id: ids.initiative }),
  archive_initiative: (ids) => ({ id: ids.initiative }),
  unarchive_initiative: (ids) => ({ id: ids.initiative }),
  add_project_to_initiative: (ids) => ({ initiativeId: ids.initiative, projectId: ids.project }),
  remove_project_from_initiative: (ids) => ({ id: ids.initiativeLink }),
  list_initiative_projects: () => ({}),
  get_initiative_project: (ids) => ({ id: ids.initiativeLink }),
  list_custom_views: () => ({ filter: { shared: { eq: true } } }),
  get_custom_view: (ids) => ({ id: ids.view, filter: { priority: { lte: 2 } } }),
  create_custom_view: () => ({ name: "Mine", filterData: { assignee: { isMe: { eq: true } } } }),
  update_custom_view: (ids) => ({ id: ids.view, shared: false }),
  delete_custom_view: (ids) => ({ id: ids.view }),
  list_templates: () => ({}),
  get_template: (ids) => ({ id: ids.template }),
  create_template: () => ({ name: "Chore", type: "issue", templateData: { priority: 4 } }),
  update_template: (ids) => ({ id: ids.template, templateData: '{"priority":3}' }),
  delete_template: (ids) => ({ id: ids.template }),
  set_issue_reminder: () => ({ issueId: "ENG-1", reminderAt: "2026-12-01T09:00:00Z" }),
};
interface Ids {
  bug: string;
  done: string;
  comment: string;
  relation: string;
  project: string;
  user: string;
  cycle: string;
  attachment: string;
  webhook: string;
  notification: string;
  document: string;
  milestone: string;
  projectUpdate: string;
  otherProjectUpdate: string;
  thread: string;
  feature: string;
  canceled: string;
  team: string;
  favorite: string;
  initiative: string;
  initiativeLink: string;
  view: string;
  template: string;
}
const PLACEHOLDER_IDS: Ids = {
  bug: "b",
  done: "d",
  comment: "c",
  relation: "r",
  project: "p",
  user: "u",
  cycle: "y",
  attachment: "a",
  webhook: "w",
  notification: "n",
  document: "o",
  milestone: "m",
  projectUpdate: "pu",
  otherProjectUpdate: "pu2",
  thread: "t",
  feature: "f",
  canceled: "x",
  team: "tm",
  favorite: "fv",
  initiative: "in",
  initiativeLink: "il",
  view: "cv",
  template: "tp",
};

/** The root fields a tool's document selects. */
function rootFieldsOf(query: string): string[] {
  return parse(query).definitions.flatMap((d) =>
    d.kind === Kind.OPERATION_DEFINITION
      ? (d as OperationDefinitionNode).selectionSet.selections.flatMap((s) => (s.kind === Kind.FIELD ? [s.name.value] : []))
      : [],
  );
}

describe("linear MCP tools", () => {
  it("each tool's document validates against the twin's schema", () => {
    for (const t of linearTools) {
      const req = t.toRequest(ARGS[t.name](PLACEHOLDER_IDS));
      expect(req.path).toBe("/graphql");
      const body = req.body as { query: string };
      expect(validate(linearSchema(), parse(body.query)), t.name).toEqual([]);
    }
    expect(Object.keys(ARGS).sort()).toEqual(linearTools.map((t) => t.name).sort());
  });

  it("has a tool for every root field the twin serves, and names a reason for each one without", () => {
    const tooled = new Set(
      linearTools.flatMap((t) => rootFieldsOf((t.toRequest(ARGS[t.name](PLACEHOLDER_IDS)).body as { query: string }).query)),
    );
    const served = [...Object.keys(QUERY_RESOLVERS), ...Object.keys(MUTATION_RESOLVERS)];
    expect(served.filter((f) => !tooled.has(f) && !LINEAR_UNTOOLED_FIELDS[f])).toEqual([]);
    for (const f of Object.keys(LINEAR_UNTOOLED_FIELDS)) {
      expect(served).toContain(f);
      expect(tooled.has(f), `${f} has a tool and a reason`).toBe(false);
    }
    for (const f of tooled) expect(served, `a tool sends ${f}, which the twin does not serve`).toContain(f);
  });

  it("each tool answers against a world without errors", async () => {
    const world = acmeWorld({
      webhooks: [{ url: "https://hooks.example.test/linear", resourceTypes: ["Issue"], team: "ENG", secret: "whsec_test" }],
      documents: [{ title: "Checkout spec", content: "# Spec", project: "Checkout revamp" }],
      favorites: [{ type: "folder", folderName: "Sprint" }],
      initiatives: [{ name: "Growth", projects: ["Checkout revamp"] }, { name: "Platform" }],
      customViews: [{ name: "Bugs", filterData: { labels: { name: { eq: "Bug" } } }, shared: true }],
      templates: [{ name: "Bug report", templateData: { priority: 2 } }],
    });
    Object.assign(world.projects[0], {
      milestones: [{ name: "Beta" }],
      updates: [{ body: "Started" }, { body: "Slipping", health: "atRisk" }],
    });
    await inTwinWorld(linearTwin, world, (w) => {
      const state = w.exportState();
      const team = state.teams[0];
      const one = state.issues[0];
      const ids: Ids = {
        bug: team.labels.find((l) => l.name === "Bug")?.id ?? "",
        done: team.states.find((s) => s.name === "Done")?.id ?? "",
        comment: one.comments[0].children[0].id,
        relation: one.relations[0].id,
        project: state.projects[0].id,
        user: state.users[1].id,
        cycle: team.cycles[0].id,
        attachment: one.attachments[0].id,
        webhook: state.webhooks[0].id,
        // Bob's comment on Ada's ENG-1 is in her inbox.
        notification: uuidFor("notification", "issueNewComment", one.comments[0].id),
        document: state.documents?.[0]?.id ?? "",
        milestone: state.projects[0].milestones?.[0]?.id ?? "",
        projectUpdate: state.projects[0].updates?.[0]?.id ?? "",
        otherProjectUpdate: state.projects[0].updates?.[1]?.id ?? "",
        thread: one.comments[0].id,
        feature: team.labels.find((l) => l.name === "Feature")?.id ?? "",
        canceled: team.states.find((s) => s.name === "Canceled")?.id ?? "",
        team: team.id,
        favorite: state.favorites?.[0]?.id ?? "",
        initiative: state.initiatives?.[1]?.id ?? "",
        initiativeLink: uuidFor("initiative-project", state.initiatives?.[0]?.id ?? "", "Checkout revamp"),
        view: state.customViews?.[0]?.id ?? "",
        template: state.templates?.[0]?.id ?? "",
      };
      // Reads first, so each finds the seeded object a later write changes or removes.
      const ordered = [...linearTools.filter((t) => t.readOnly), ...linearTools.filter((t) => !t.readOnly)];
      for (const t of ordered) {
        const req = t.toRequest(ARGS[t.name](ids));
        const res = w.call(req.method, req.path, { body: req.body });
        expect(res.status, `${t.name}: ${JSON.stringify(res.body)}`).toBe(200);
        expect((res.body as { errors?: unknown }).errors, t.name).toBeUndefined();
      }
      const exported = w.exportState();
      expect(exported.issues.find((i) => i.title === "From MCP")).toMatchObject({ identifier: "ENG-3", priority: 2, labels: ["Bug"] });
      expect(exported.issues.find((i) => i.identifier === "ENG-2")).toMatchObject({ state: "Done", assignee: null, labels: ["Bug"] });
    });
  });
});
