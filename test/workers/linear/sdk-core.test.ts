// The Linear twin through @linear/sdk, unchanged: queries with full fragments, lazy relations,
// identifier lookups, pagination and mutation payloads.
import { beforeAll, describe, expect, it } from "vitest";
import { acmeWorld, gql, linearFor, linearSandbox, routeFetchThroughSelf } from "./fixtures";

beforeAll(routeFetchThroughSelf);

describe("linear twin: reads through @linear/sdk", () => {
  it("serves the viewer, organization and teams with their full fragments", async () => {
    const sb = await linearSandbox();
    const client = linearFor(sb);
    const viewer = await client.viewer;
    expect(viewer.email).toBe("ada@acme.test");
    expect(viewer.admin).toBe(true);
    const org = await client.organization;
    expect(org.urlKey).toBe("acme");
    const teams = await client.teams();
    expect(teams.nodes.map((t) => t.key)).toEqual(["ENG"]);
    expect(teams.nodes[0].viewerCanLeave).toBe(true);
  });

  it("finds an issue by identifier and follows its lazy relations", async () => {
    const sb = await linearSandbox();
    const client = linearFor(sb);
    const issue = await client.issue("ENG-1");
    expect(issue.identifier).toBe("ENG-1");
    expect(issue.priorityLabel).toBe("Urgent");
    expect((await issue.state)?.name).toBe("Todo");
    expect((await issue.assignee)?.email).toBe("bob@acme.test");
    expect((await issue.team)?.key).toBe("ENG");
    expect((await issue.project)?.name).toBe("Checkout revamp");
    expect((await issue.labels()).nodes.map((l) => l.name)).toEqual(["Bug"]);
    const children = await issue.children();
    expect(children.nodes.map((c) => c.identifier)).toEqual(["ENG-2"]);
    const comments = await issue.comments();
    expect(comments.nodes.map((c) => c.body)).toEqual(["Seen on iOS too.", "Thanks, looking."]);
  });

  it("serves the fields SDK 98 selects beyond 88.3.0: viewerMembership null for a team the viewer is not in", async () => {
    const world = acmeWorld();
    world.teams.push({ key: "OPS", name: "Operations", members: ["bob@acme.test"] } as never);
    const sb = await linearSandbox(world);
    const client = linearFor(sb);
    const teams = (await client.teams()).nodes;
    const eng = teams.find((t) => t.key === "ENG");
    const ops = teams.find((t) => t.key === "OPS");
    expect(eng?.viewerCanLeave).toBe(true);
    expect(eng?.viewerCanJoin).toBe(false);
    expect(ops?.viewerCanJoin).toBe(true);
    expect(ops?.viewerCanLeave).toBe(false);
    const res = await gql(
      sb,
      "{ teams { nodes { key viewerMembership { id } } } organization { suggestedBranchNameEnabled defaultHomeViewTargetId } issueLabels { nodes { name groupType } } projects { nodes { resourceCount } } }",
    );
    expect(res.body.data).toMatchObject({
      teams: {
        nodes: [
          { key: "ENG", viewerMembership: { id: expect.any(String) } },
          { key: "OPS", viewerMembership: null },
        ],
      },
      organization: { suggestedBranchNameEnabled: true, defaultHomeViewTargetId: null },
      projects: { nodes: [{ resourceCount: 0 }] },
    });
    expect((await client.issueLabels()).nodes.map((l) => l.name).sort()).toEqual(["Bug", "Customer", "Feature"]);
    expect((await (await client.issue("ENG-1")).project)?.name).toBe("Checkout revamp");
    expect((await client.organization).name).toBe("Acme");
  });

  it("works the same with an agent_token sent as a Bearer access token", async () => {
    const sb = await linearSandbox();
    const client = linearFor(sb, { accessToken: sb.agent_token });
    expect((await client.viewer).email).toBe("ada@acme.test");
    const users = await client.users();
    expect(users.nodes.map((u) => u.email)).toEqual(["ada@acme.test", "bob@acme.test"]);
    const user = await client.user(users.nodes[1].id);
    expect((await user.assignedIssues()).nodes.map((i) => i.identifier)).toEqual(["ENG-1"]);
    const states = await client.workflowStates({ filter: { type: { eq: "completed" } } });
    expect(states.nodes.map((s) => s.name)).toEqual(["Done"]);
    expect((await client.workflowState(states.nodes[0].id)).type).toBe("completed");
    const cycles = await client.cycles();
    expect(cycles.nodes.map((c) => c.number)).toEqual([1]);
    expect((await (await client.cycle(cycles.nodes[0].id)).issues()).nodes.map((i) => i.identifier)).toEqual(["ENG-1"]);
    const comments = await client.comments();
    expect(comments.nodes).toHaveLength(2);
    expect((await client.comment({ id: comments.nodes[0].id })).body).toBeTruthy();
    expect((await client.issueRelations()).nodes.map((r) => r.type)).toEqual(["blocks"]);
    expect((await client.attachments()).nodes.map((a) => a.title)).toEqual(["Sentry event"]);
    expect((await client.projects()).nodes.map((p) => p.name)).toEqual(["Checkout revamp"]);
    const viewer = await client.viewer;
    expect((await viewer.createdIssues()).nodes.map((i) => i.identifier).sort()).toEqual(["ENG-1", "ENG-2"]);
  });
});
