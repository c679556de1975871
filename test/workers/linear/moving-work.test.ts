// Moving and tracing work through @linear/sdk: an issue moved to another team gets the new
// team's next identifier while the old one still finds it; Issue.history records state,
// assignee, team and label changes; issueBatchCreate makes several issues in one call.
import { beforeAll, describe, expect, it } from "vitest";
import { acmeWorld, linearFor, linearSandbox, routeFetchThroughSelf } from "./fixtures";
import { twinFetch } from "../helpers";

beforeAll(routeFetchThroughSelf);

/** ENG (with a Bug label and a cycle) and OPS (its own Bug label, a "Doing" started state). */
function twoTeams() {
  const world = acmeWorld();
  world.teams.push({
    key: "OPS",
    name: "Operations",
    members: ["ada@acme.test", "bob@acme.test"],
    states: [
      { name: "Todo", type: "unstarted" },
      { name: "Doing", type: "started" },
      { name: "Done", type: "completed" },
    ],
    labels: [{ name: "Bug", color: "#eb5757" }],
    issues: undefined,
  } as never);
  world.issues.push({ identifier: "OPS-7", title: "Rotate the keys" } as never);
  return world;
}

describe("linear twin: moving an issue to another team", () => {
  it("gives it the new team's next identifier, keeps the old one resolving, maps state and labels, leaves the cycle", async () => {
    const sb = await linearSandbox(twoTeams());
    const client = linearFor(sb);
    const ops = await client.team("OPS");
    const before = await client.issue("ENG-1");
    expect((await before.cycle)?.number).toBe(1);
    await client.updateIssue(before.id, {
      stateId: (await (await client.team("ENG")).states()).nodes.find((s) => s.name === "In Progress")?.id,
    });
    const payload = await client.updateIssue(before.id, { teamId: ops.id });
    expect(payload.success).toBe(true);
    const moved = await payload.issue;
    expect(moved?.identifier).toBe("OPS-8");
    expect((await moved?.team)?.key).toBe("OPS");
    // No "In Progress" in OPS: its first started state.
    expect((await moved?.state)?.name).toBe("Doing");
    const labels = (await moved?.labels())?.nodes ?? [];
    expect(labels.map((l) => l.name)).toEqual(["Bug"]);
    expect(labels[0].id).not.toBe(before.labelIds[0]);
    expect(await moved?.cycle).toBeUndefined();
    // The old identifier still finds it.
    expect((await client.issue("ENG-1")).identifier).toBe("OPS-8");
    // ENG's numbers are not handed out again.
    const created = await client.createIssue({ teamId: (await client.team("ENG")).id, title: "After the move" });
    expect((await created.issue)?.identifier).toBe("ENG-3");
  });

  it("takes a state of the new team in the same call, and refuses one of the old team", async () => {
    const client = linearFor(await linearSandbox(twoTeams()));
    const ops = await client.team("OPS");
    const engTodo = (await (await client.team("ENG")).states()).nodes.find((s) => s.name === "Todo");
    const opsDone = (await ops.states()).nodes.find((s) => s.name === "Done");
    const issue = await client.issue("ENG-2");
    await expect(client.updateIssue(issue.id, { teamId: ops.id, stateId: engTodo?.id })).rejects.toThrow(/state/i);
    expect((await client.issue("ENG-2")).identifier).toBe("ENG-2");
    const moved = await (await client.updateIssue(issue.id, { teamId: ops.id, stateId: opsDone?.id })).issue;
    expect((await moved?.state)?.name).toBe("Done");
    expect(moved?.completedAt).toBeInstanceOf(Date);
  });

  it("exports the move (the new identifier, the former one) and boots it back", async () => {
    const sb = await linearSandbox(twoTeams());
    const client = linearFor(sb);
    const issue = await client.issue("ENG-2");
    await client.updateIssue(issue.id, { teamId: (await client.team("OPS")).id });
    const state = (await (await twinFetch(sb, "/_pome/state", {}, "linear")).json()) as {
      issues: { identifier: string; formerIdentifiers?: string[]; history?: unknown[] }[];
    };
    const exported = state.issues.find((i) => i.identifier === "OPS-8");
    expect(exported?.formerIdentifiers).toEqual(["ENG-2"]);
    expect(exported?.history).toHaveLength(1);
    const again = await linearSandbox(state);
    expect(await (await twinFetch(again, "/_pome/state", {}, "linear")).json()).toEqual(state);
    expect((await linearFor(again).issue("ENG-2")).identifier).toBe("OPS-8");
  });
});

describe("linear twin: Issue.history", () => {
  it("records who changed the state, assignee, team and labels, with from/to objects", async () => {
    const client = linearFor(await linearSandbox(twoTeams()));
    const eng = await client.team("ENG");
    const states = (await eng.states()).nodes;
    const users = (await client.users()).nodes;
    const bob = users.find((u) => u.email === "bob@acme.test");
    const feature = (await eng.labels()).nodes.find((l) => l.name === "Feature");
    const issue = await client.issue("ENG-2");
    await client.updateIssue(issue.id, { stateId: states.find((s) => s.name === "In Progress")?.id, assigneeId: bob?.id });
    await client.updateIssue(issue.id, { addedLabelIds: [feature?.id ?? ""] });
    await client.updateIssue(issue.id, { title: "Refund flow times out on retries", description: "Now with steps." });
    await client.updateIssue(issue.id, { teamId: (await client.team("OPS")).id });
    const history = (await (await client.issue("OPS-8")).history()).nodes;
    expect(history).toHaveLength(4);
    const [moveState, addLabel, retitle, moveTeam] = history;
    expect((await moveState.actor)?.email).toBe("ada@acme.test");
    expect((await moveState.fromState)?.name).toBe("Todo");
    expect((await moveState.toState)?.name).toBe("In Progress");
    expect(await moveState.fromAssignee).toBeUndefined();
    expect((await moveState.toAssignee)?.email).toBe("bob@acme.test");
    expect(addLabel.addedLabelIds).toEqual([feature?.id]);
    expect(retitle.fromTitle).toBe("Refund flow times out");
    expect(retitle.toTitle).toBe("Refund flow times out on retries");
    expect(retitle.updatedDescription).toBe(true);
    expect((await moveTeam.fromTeam)?.key).toBe("ENG");
    expect((await moveTeam.toTeam)?.key).toBe("OPS");
    // Feature has no namesake in OPS: dropped, and the entry says so.
    expect(moveTeam.removedLabelIds).toEqual([feature?.id]);
  });

  it("delegates an issue: Issue.delegate, the delegate filter, and a history entry from/to the delegate", async () => {
    const client = linearFor(await linearSandbox(twoTeams()));
    const bob = (await client.users()).nodes.find((u) => u.email === "bob@acme.test");
    const issue = await client.issue("ENG-2");
    await client.updateIssue(issue.id, { delegateId: bob?.id });
    const delegated = await client.issue("ENG-2");
    expect((await delegated.delegate)?.email).toBe("bob@acme.test");
    const found = await client.issues({ filter: { delegate: { email: { eq: "bob@acme.test" } } } });
    expect(found.nodes.map((i) => i.identifier)).toEqual(["ENG-2"]);
    const [entry] = (await delegated.history()).nodes;
    expect(await entry.fromDelegate).toBeUndefined();
    expect((await entry.toDelegate)?.email).toBe("bob@acme.test");
    await client.updateIssue(issue.id, { delegateId: null });
    expect(await (await client.issue("ENG-2")).delegate).toBeUndefined();
  });

  it("records nothing for an update that changes nothing", async () => {
    const client = linearFor(await linearSandbox(twoTeams()));
    const issue = await client.issue("ENG-2");
    await client.updateIssue(issue.id, { title: issue.title });
    expect((await issue.history()).nodes).toHaveLength(0);
  });
});

describe("linear twin: issueBatchCreate", () => {
  it("creates every issue in one call, numbered in order, with one sync id", async () => {
    const client = linearFor(await linearSandbox(twoTeams()));
    const eng = await client.team("ENG");
    const ops = await client.team("OPS");
    const payload = await client.createIssueBatch({
      issues: [
        { teamId: eng.id, title: "Write the runbook" },
        { teamId: eng.id, title: "Review the runbook", priority: 2 },
        { teamId: ops.id, title: "Publish the runbook" },
      ],
    });
    expect(payload.success).toBe(true);
    expect(payload.issues.map((i) => i.identifier)).toEqual(["ENG-3", "ENG-4", "OPS-8"]);
    expect(payload.issues[1].priority).toBe(2);
    expect((await client.issues({ filter: { title: { endsWith: "runbook" } } })).nodes).toHaveLength(3);
  });

  it("creates none when one is refused", async () => {
    const client = linearFor(await linearSandbox(twoTeams()));
    const eng = await client.team("ENG");
    await expect(
      client.createIssueBatch({
        issues: [
          { teamId: eng.id, title: "Fine" },
          { teamId: eng.id, title: "" },
        ],
      }),
    ).rejects.toThrow();
    expect((await client.issues({ filter: { title: { eq: "Fine" } } })).nodes).toHaveLength(0);
  });
});
