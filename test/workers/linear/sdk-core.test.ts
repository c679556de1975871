// The Linear twin through @linear/sdk, unchanged: queries with full fragments, lazy relations,
// identifier lookups, pagination and mutation payloads.
import { beforeAll, describe, expect, it } from "vitest";
import { acmeWorld, linearFor, linearSandbox, routeFetchThroughSelf } from "./fixtures";

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
});
