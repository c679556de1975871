// The Linear seed: defaults filled, natural-key references checked with their paths, and a world
// that exports as its normalized seed (also after the agent's changes).
import { describe, expect, it } from "vitest";
import { linearTwin } from "../../../durable-objects/twins/linear";
import { parseLinearSeed } from "../../../durable-objects/twins/linear/seed";
import { inTwinWorld } from "../kit/world";
import { postJson } from "../helpers";
import { acmeWorld } from "./fixtures";

const paths = (raw: unknown) => {
  const r = parseLinearSeed(raw);
  return r.ok ? [] : r.issues.map((i) => i.path);
};

describe("linear seed: defaults and round trip", () => {
  it("fills Linear's defaults: viewer, states, default state, members, creator, ids", () => {
    const r = parseLinearSeed({
      users: [{ email: "a@x.test" }, { email: "b@x.test" }],
      teams: [{ key: "OPS", name: "Ops" }],
      issues: [{ identifier: "OPS-4", title: "t" }],
    });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.seed.viewer).toBe("a@x.test");
    expect(r.seed.teams[0].states.map((s) => s.name)).toEqual(["Backlog", "Todo", "In Progress", "Done", "Canceled"]);
    expect(r.seed.teams[0].defaultIssueState).toBe("Backlog");
    expect(r.seed.teams[0].members).toEqual(["a@x.test", "b@x.test"]);
    expect(r.seed.issues[0]).toMatchObject({ state: "Backlog", priority: 0, creator: "a@x.test" });
    expect(r.seed.issues[0].id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(parseLinearSeed({ users: [{ email: "a@x.test" }], teams: [{ key: "OPS", name: "Ops" }] })).toEqual(
      parseLinearSeed({ users: [{ email: "a@x.test" }], teams: [{ key: "OPS", name: "Ops" }] }),
    );
  });

  it("exports the booted world as its normalized seed, with timestamps for seeded completed states", async () => {
    const raw = acmeWorld();
    raw.issues.push({ identifier: "ENG-7", title: "Shipped", state: "Done", createdAt: "2026-06-01T00:00:00Z" } as never);
    const r = parseLinearSeed(raw);
    if (!r.ok) throw new Error(JSON.stringify(r.issues));
    expect(r.seed.issues[2]).toMatchObject({ completedAt: "2026-06-01T00:00:00Z", startedAt: "2026-06-01T00:00:00Z", canceledAt: null });
    await inTwinWorld(linearTwin, raw, (w) => {
      expect(w.exportState()).toEqual(r.seed);
      // The export seeds again to the same world.
      expect(parseLinearSeed(w.exportState())).toEqual({ ok: true, seed: r.seed });
    });
  });

  it("numbers new issues after the highest seeded number of the team (gaps allowed)", async () => {
    const raw = acmeWorld();
    raw.issues.push({ identifier: "ENG-41", title: "Far" } as never);
    await inTwinWorld(linearTwin, raw, (w) => {
      const team = w.exportState().teams[0].id;
      const res = w.call("POST", "/graphql", {
        body: { query: `mutation { issueCreate(input: { teamId: "${team}", title: "Next" }) { issue { identifier } } }` },
      });
      expect(res.body).toEqual({ data: { issueCreate: { issue: { identifier: "ENG-42" } } } });
      expect(w.exportState().issues.at(-1)).toMatchObject({ identifier: "ENG-42", title: "Next", creator: "ada@acme.test", state: "Todo" });
    });
  });
});

describe("linear seed: integrity refusals with their paths", () => {
  it("refuses duplicate emails, bad team keys, unknown states and labels", () => {
    expect(paths({ users: [{ email: "a@x.test" }, { email: "A@x.test" }] })).toEqual(["users[1].email"]);
    expect(paths({ teams: [{ key: "eng", name: "E" }] })).toEqual(["teams[0].key"]);
    expect(
      paths({
        teams: [
          { key: "E", name: "E" },
          { key: "E", name: "F" },
        ],
      }),
    ).toEqual(["teams[1].key"]);
    expect(paths({ teams: [{ key: "E", name: "E", defaultIssueState: "Nope" }] })).toEqual(["teams[0].defaultIssueState"]);
    expect(
      paths({
        teams: [
          {
            key: "E",
            name: "E",
            states: [
              { name: "A", type: "started" },
              { name: "A", type: "completed" },
            ],
          },
        ],
      }),
    ).toEqual(["teams[0].states[1].name"]);
    expect(paths({ teams: [{ key: "E", name: "E", states: [{ name: "A", type: "doing" }] }] })).toEqual(["teams[0].states[0].type"]);
    expect(paths({ labels: [{ name: "Bug" }], teams: [{ key: "E", name: "E", labels: [{ name: "Bug" }] }] })).toEqual([
      "teams[0].labels[0].name",
    ]);
  });

  it("refuses bad issue references: identifier, state, labels, people, project, cycle, priority, estimate, parent", () => {
    const base = acmeWorld();
    const issue = (extra: Record<string, unknown>) =>
      paths({
        ...base,
        issues: [
          { identifier: "ENG-1", title: "t", ...extra },
          { identifier: "ENG-2", title: "u" },
        ],
      });
    expect(paths({ ...base, issues: [{ identifier: "OPS-1", title: "t" }] })).toEqual(["issues[0].identifier"]);
    expect(paths({ ...base, issues: [{ identifier: "ENG-0", title: "t" }] })).toEqual(["issues[0].identifier"]);
    expect(
      paths({
        ...base,
        issues: [
          { identifier: "ENG-1", title: "t" },
          { identifier: "ENG-1", title: "u" },
        ],
      }),
    ).toEqual(["issues[1].identifier"]);
    expect(issue({ state: "Doing" })).toEqual(["issues[0].state"]);
    expect(issue({ labels: ["Nope"] })).toEqual(["issues[0].labels[0]"]);
    expect(issue({ assignee: "ghost@x.test" })).toEqual(["issues[0].assignee"]);
    expect(issue({ project: "Nope" })).toEqual(["issues[0].project"]);
    expect(issue({ cycle: 9 })).toEqual(["issues[0].cycle"]);
    expect(issue({ priority: 5 })).toEqual(["issues[0].priority"]);
    expect(issue({ estimate: 4 })).toEqual(["issues[0].estimate"]);
    expect(issue({ parent: "ENG-9" })).toEqual(["issues[0].parent"]);
    expect(
      paths({
        ...base,
        issues: [
          { identifier: "ENG-1", title: "t", parent: "ENG-2" },
          { identifier: "ENG-2", title: "u", parent: "ENG-1" },
        ],
      }),
    ).toEqual(["issues[0].parent", "issues[1].parent"]);
    expect(
      issue({
        relations: [
          { type: "blocks", relatedIssue: "ENG-2" },
          { type: "related", relatedIssue: "ENG-2" },
        ],
      }),
    ).toEqual(["issues[0].relations[1]"]);
    expect(issue({ relations: [{ type: "causes", relatedIssue: "ENG-2" }] })).toEqual(["issues[0].relations[0].type"]);
    expect(issue({ comments: [{ body: "a", children: [{ body: "b", children: [] }] }] })).toEqual([
      "issues[0].comments[0].children[0].children",
    ]);
    expect(issue({ lables: [] })).toEqual(["issues[0].lables"]);
  });

  it("refuses an id two rows of one table take, given or derived, at the later row", async () => {
    const id = "0b6f3c1e-2a4d-4e8f-9b7a-1c2d3e4f5a6b";
    const r = parseLinearSeed({
      users: [
        { email: "a@x.test", id },
        { email: "b@x.test", id },
      ],
      teams: [{ key: "OPS", name: "Ops", labels: [{ name: "Bug", id }] }],
      labels: [{ name: "Chore", id }],
      issues: [
        { identifier: "OPS-1", title: "t", id, comments: [{ body: "a", id, children: [{ body: "b", id }] }] },
        { identifier: "OPS-2", title: "u" },
      ],
    });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    // A workspace label and a team's share one table; an issue, a user and a comment do not.
    expect(r.issues.map((i) => [i.path, i.message, i.code])).toEqual([
      ["users[1].id", `Duplicate id "${id}": users[0].id has it too`, "duplicate"],
      ["teams[0].labels[0].id", `Duplicate id "${id}": labels[0].id has it too`, "duplicate"],
      ["issues[0].comments[0].children[0].id", `Duplicate id "${id}": issues[0].comments[0].id has it too`, "duplicate"],
    ]);
    // The same seed on the wire: refused before boot, not failed by it.
    const dup = { ...acmeWorld(), users: acmeWorld().users.map((u) => ({ ...u, id })) };
    const refused = await postJson("/v1/sandboxes", { twins: ["linear"], task_source: "IyAuLgo=", seed: dup });
    expect(refused.status).toBe(422);
    const body = await refused.json<{ error: { details: { issues: { path: string }[] } } }>();
    expect(body.error.details.issues.map((i) => i.path)).toEqual(["users[1].id"]);
  });

  it("is the parser the control plane uses: /v1/seeds/validate answers invalid_seed with the path", async () => {
    const res = await postJson("/v1/seeds/validate", {
      twins: ["linear"],
      seed: { ...acmeWorld(), issues: [{ identifier: "ENG-1", title: "t", state: "Nope" }] },
    });
    expect(res.status).toBe(422);
    const body = await res.json<{ error: { details: { error: string; issues: { path: string }[] } } }>();
    expect(body.error.details.error).toBe("invalid_seed");
    expect(body.error.details.issues.map((i) => i.path)).toEqual(["issues[0].state"]);
  });
});
