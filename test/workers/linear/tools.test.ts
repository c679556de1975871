// The Linear MCP tools: each is one GraphQL document that validates against the twin's schema,
// and each runs against a world and answers without errors, taped under its root field.
import { parse, validate } from "graphql";
import { describe, expect, it } from "vitest";
import { linearTwin } from "../../../durable-objects/twins/linear";
import { linearSchema } from "../../../durable-objects/twins/linear/schema";
import { linearTools } from "../../../durable-objects/twins/linear/tools";
import { inTwinWorld } from "../kit/world";
import { acmeWorld } from "./fixtures";

const ARGS: Record<string, (ids: Ids) => Record<string, unknown>> = {
  get_viewer: () => ({}),
  list_teams: () => ({}),
  list_users: () => ({ first: 10 }),
  list_issues: () => ({ filter: { state: { type: { eq: "unstarted" } } }, first: 5 }),
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
};
interface Ids {
  bug: string;
  done: string;
  comment: string;
  relation: string;
  project: string;
}

describe("linear MCP tools", () => {
  it("each tool's document validates against the twin's schema", () => {
    for (const t of linearTools) {
      const req = t.toRequest(ARGS[t.name]({ bug: "b", done: "d", comment: "c", relation: "r", project: "p" }));
      expect(req.path).toBe("/graphql");
      const body = req.body as { query: string };
      expect(validate(linearSchema(), parse(body.query)), t.name).toEqual([]);
    }
    expect(Object.keys(ARGS).sort()).toEqual(linearTools.map((t) => t.name).sort());
  });

  it("each tool answers against a world without errors", async () => {
    await inTwinWorld(linearTwin, acmeWorld(), (w) => {
      const state = w.exportState();
      const team = state.teams[0];
      const one = state.issues[0];
      const ids: Ids = {
        bug: team.labels.find((l) => l.name === "Bug")?.id ?? "",
        done: team.states.find((s) => s.name === "Done")?.id ?? "",
        comment: one.comments[0].children[0].id,
        relation: one.relations[0].id,
        project: state.projects[0].id,
      };
      for (const t of linearTools) {
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
