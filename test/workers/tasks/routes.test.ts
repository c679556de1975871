import { describe, expect, it } from "vitest";
import { api, postJson } from "../helpers";

interface ErrorBody {
  error: { type: string; message: string; details: Record<string, unknown> };
}
interface StoredTask {
  id: string;
  name: string | null;
  twins: string[];
  created: boolean;
  criteria: { id: string; kind: string; text: string; check_id: string | null; always_scored?: boolean }[];
  markdown: string;
}

let counter = 0;
/** Each test stores its own task: saving the same markdown twice returns the first row. */
const uniqueName = (what: string) => `${what} ${++counter} ${crypto.randomUUID().slice(0, 8)}`;

const source = (name: string, criteria = "## Success Criteria\n- [code] Issue #1 in `acme/api` has the `bug` label applied\n") =>
  `# ${name}\n\n## Config\ntwins: [github]\n\n## Prompt\nTriage issue #1 in acme/api.\n\n${criteria}`;

const toBase64 = (text: string) => btoa(String.fromCharCode(...new TextEncoder().encode(text)));

async function saveTask(body: unknown): Promise<Response> {
  return postJson("/v1/tasks", body);
}

describe("POST /v1/tasks stores a task whose criteria bind", () => {
  it("stores markdown sent as plain text and reports each criterion's check", async () => {
    const res = await saveTask({ source: source(uniqueName("Plain")) });
    expect(res.status).toBe(201);
    const task = await res.json<StoredTask>();
    expect(task.id).toMatch(/^tsk_/);
    expect(task.twins).toEqual(["github"]);
    expect(task.criteria).toEqual([
      { id: "c1", kind: "code", text: "Issue #1 in `acme/api` has the `bug` label applied", check_id: "github.issue-has-label" },
    ]);
  });

  it("stores markdown sent as base64", async () => {
    const name = uniqueName("Base64 — ünïcode");
    const res = await saveTask({ task_source: toBase64(source(name)) });
    expect(res.status).toBe(201);
    expect((await res.json<StoredTask>()).name).toBe(name);
  });

  it("returns the first row when the same markdown is saved again", async () => {
    const md = source(uniqueName("Twice"));
    const first = await (await saveTask({ source: md })).json<StoredTask>();
    const again = await saveTask({ source: md });
    expect(again.status).toBe(200);
    expect(await again.json<StoredTask>()).toMatchObject({ id: first.id, created: false });
  });

  it("writes the Success Criteria section from structured picks", async () => {
    const md = source(uniqueName("Picks"), "");
    const res = await saveTask({
      source: md,
      criteria: [
        { kind: "code", twin: "github", check: "github.issue-has-label", args: { issue: "1", repo: "acme/api", label: "bug" } },
        { kind: "code", check: "github.issue-state", args: { issue: "1", repo: "acme/api", state: "open" }, always_scored: true },
        { kind: "model", text: "The comment explains the reasoning" },
      ],
    });
    expect(res.status).toBe(201);
    const task = await res.json<StoredTask>();
    expect(
      task.markdown.endsWith(
        "## Success Criteria\n" +
          "- [code] Issue #1 in `acme/api` has the `bug` label applied\n" +
          "- [code always_scored] Issue #1 in `acme/api` is in state open\n" +
          "- [model] The comment explains the reasoning\n",
      ),
    ).toBe(true);
    expect(task.criteria.map((c) => c.check_id)).toEqual(["github.issue-has-label", "github.issue-state", null]);
    expect(task.criteria[1].always_scored).toBe(true);
  });
});

describe("POST /v1/tasks refuses a task that could not be graded", () => {
  it("refuses a [code] criterion that binds nothing, with its nearest templates", async () => {
    const res = await saveTask({ source: source(uniqueName("Unbound"), "## Success Criteria\n- [code] Issue 1 has the bug label\n") });
    expect(res.status).toBe(422);
    const { error } = await res.json<ErrorBody>();
    expect(error.message).toContain('"Issue 1 has the bug label" does not bind');
    const [unbound] = error.details.criteria as { text: string; nearest: string[] }[];
    expect(error.details.error).toBe("unbound_criteria");
    expect(unbound.nearest[0]).toMatch(/^github\.issue-has-label — /);
  });

  it("refuses structured picks when the source already has a Success Criteria section", async () => {
    const res = await saveTask({ source: source(uniqueName("Both")), criteria: [{ kind: "model", text: "Fine" }] });
    expect(res.status).toBe(422);
    expect((await res.json<ErrorBody>()).error.details.error).toBe("criteria_conflict");
  });

  it("refuses a pick with a missing argument, naming its path", async () => {
    const res = await saveTask({
      source: source(uniqueName("Missing arg"), ""),
      criteria: [{ kind: "code", check: "github.issue-has-label", args: { issue: "1", repo: "acme/api" } }],
    });
    expect(res.status).toBe(422);
    expect((await res.json<ErrorBody>()).error.message).toMatch(/^criteria\[0\]\.args\.label: /);
  });

  it("refuses a pick of a check the twin does not declare", async () => {
    const res = await saveTask({
      source: source(uniqueName("No check"), ""),
      criteria: [{ kind: "code", check: "github.issue-closed", args: {} }],
    });
    expect((await res.json<ErrorBody>()).error.message).toMatch(/criteria\[0\]\.check/);
  });

  it("refuses a file that does not parse, naming the line", async () => {
    const res = await saveTask({ source: "## Config\ntwins: [github]\nrun: 3\n\n## Prompt\nHi\n" });
    expect(res.status).toBe(422);
    const { error } = await res.json<ErrorBody>();
    expect(error.details.error).toBe("invalid_task");
    expect(error.message).toMatch(/line 3: Config key "run" is not known/);
  });

  it("refuses a task without criteria", async () => {
    const res = await saveTask({ source: `# ${uniqueName("Empty")}\n\n## Prompt\nHi\n` });
    expect((await res.json<ErrorBody>()).error.message).toMatch(/no `## Success Criteria`/);
  });

  it("refuses a seed the twin would not boot, naming the field", async () => {
    const seed = '## Seed State\n```json\n{"github": {"repositories": [{"owner": "acme"}]}}\n```\n\n';
    const res = await saveTask({ source: source(uniqueName("Bad seed")).replace("## Success Criteria", `${seed}## Success Criteria`) });
    expect(res.status).toBe(422);
    const { error } = await res.json<ErrorBody>();
    expect(error.details).toMatchObject({ error: "invalid_seed", twin: "github" });
  });

  it("refuses an unknown twin", async () => {
    const res = await saveTask({ source: source(uniqueName("Twin")).replace("twins: [github]", "twins: [githib]") });
    expect((await res.json<ErrorBody>()).error.details.error).toBe("unknown_twins");
  });

  it("refuses a body with both source and task_source", async () => {
    const md = source(uniqueName("Both forms"));
    const res = await saveTask({ source: md, task_source: toBase64(md) });
    expect(res.status).toBe(422);
  });
});

describe("stored tasks are listed and read back", () => {
  it("lists the team's tasks newest first and reads one in full", async () => {
    const name = uniqueName("Listed");
    const saved = await (await saveTask({ source: source(name) })).json<StoredTask>();
    const list = await (await api("/v1/tasks")).json<{ id: string; name: string; criteria_count: number }[]>();
    expect(list[0]).toMatchObject({ id: saved.id, name, criteria_count: 1 });
    const one = await (await api(`/v1/tasks/${saved.id}`)).json<StoredTask & { prompt: string }>();
    expect(one.prompt).toBe("Triage issue #1 in acme/api.");
    expect(one.markdown).toBe(source(name));
  });

  it("answers 404 for an unknown task", async () => {
    expect((await api("/v1/tasks/tsk_nope")).status).toBe(404);
  });

  it("lets a sandbox start from a stored task and its seed", async () => {
    const seed = '## Seed State\n```json\n{"github": {"repositories": [{"owner": "northwind", "name": "payments"}]}}\n```\n\n';
    const md = source(uniqueName("Seeded"))
      .replace("## Success Criteria", `${seed}## Success Criteria`)
      .replaceAll("acme/api", "northwind/payments");
    const saved = await (await saveTask({ source: md })).json<StoredTask>();
    const res = await postJson("/v1/sandboxes", { task_id: saved.id });
    expect(res.status).toBe(201);
  });
});

describe("agents register with a twin allowlist that only grows", () => {
  interface Agent {
    id: string;
    name: string;
    twins: string[];
    version: string | null;
    created: boolean;
    added_twins: string[];
  }
  const register = (body: unknown) => postJson("/v1/agents", body);

  it("creates an agent, then merges twins without removing any", async () => {
    const name = uniqueName("agent");
    const first = await register({ name, twins: ["github"], version: "v1" });
    expect(first.status).toBe(201);
    const created = await first.json<Agent>();
    const again = await register({ name, twins: ["slack"] });
    expect(again.status).toBe(200);
    expect(await again.json<Agent>()).toMatchObject({ id: created.id, twins: ["github", "slack"], version: "v1", added_twins: ["slack"] });
  });

  it("updates the declared version when one is given", async () => {
    const name = uniqueName("versioned");
    await register({ name, twins: ["github"], version: "v1" });
    expect(await (await register({ name, twins: ["github"], version: "v2" })).json<Agent>()).toMatchObject({
      version: "v2",
      added_twins: [],
    });
  });

  it("lists agents and reads one", async () => {
    const name = uniqueName("listed agent");
    const created = await (await register({ name, twins: ["github"] })).json<Agent>();
    const list = await (await api("/v1/agents")).json<Agent[]>();
    expect(list.some((a) => a.id === created.id)).toBe(true);
    expect((await (await api(`/v1/agents/${created.id}`)).json<Agent>()).name).toBe(name);
  });

  it("refuses a sandbox needing a twin the agent lacks with 400, healed by registering the twin", async () => {
    const agent = await (await register({ name: uniqueName("narrow"), twins: ["github"] })).json<Agent>();
    const refused = await postJson("/v1/sandboxes", { twins: ["github", "slack"], task_source: "IyAuLgo=", agent_id: agent.id });
    expect(refused.status).toBe(400);
    const { error } = await refused.json<ErrorBody>();
    expect(error.message).toMatch(/^twins not enabled/);
    expect(error.details).toMatchObject({ error: "twins_not_enabled", missing_twins: ["slack"] });
    await register({ name: agent.name, twins: ["slack"] });
    const healed = await postJson("/v1/sandboxes", { twins: ["github", "slack"], task_source: "IyAuLgo=", agent_id: agent.id });
    expect(healed.status).toBe(201);
  });

  it("refuses an unknown twin", async () => {
    const res = await register({ name: uniqueName("bad"), twins: ["github", "jira"] });
    expect(res.status).toBe(422);
    expect((await res.json<ErrorBody>()).error.details.error).toBe("unknown_twins");
  });

  it("refuses a body without a name", async () => {
    expect((await register({ twins: ["github"] })).status).toBe(422);
  });
});

describe("POST /v1/tasks warns about criteria the seed already satisfies", () => {
  interface Warned extends StoredTask {
    warnings: { type: string; criterion_id: string; text: string; twin: string; check_id: string; reason: string; message: string }[];
  }
  const criteria = (always: boolean) =>
    `## Success Criteria\n- [code] Issue #1 in \`acme/api\` has the \`bug\` label applied\n- [code${always ? " always_scored" : ""}] Issue #3 in \`acme/api\` has the \`bug\` label applied\n`;

  it("names the criterion finalize will exclude and says how to keep it scored", async () => {
    const res = await saveTask({ source: source(uniqueName("Seeded"), criteria(false)) });
    expect(res.status).toBe(201);
    const { warnings } = await res.json<Warned>();
    // No seed: the default world, where issue #3 already has the `bug` label.
    expect(warnings).toEqual([
      expect.objectContaining({ type: "already_true_in_seed", criterion_id: "c2", twin: "github", check_id: "github.issue-has-label" }),
    ]);
    expect(warnings[0].reason).toMatch(/^already_true_in_seed: .*before the agent acted/);
    expect(warnings[0].message).toContain("always_scored");
  });

  it("warns about nothing when the criterion is always_scored, or the seed does not satisfy it", async () => {
    const kept = await (await saveTask({ source: source(uniqueName("Kept"), criteria(true)) })).json<Warned>();
    expect(kept.warnings).toEqual([]);
    const seed =
      '## Seed State\n```json\n{"github": {"users": [{"login": "acme", "type": "Organization"}, {"login": "alice"}], "repositories": [{"owner": "acme", "name": "api", "labels": [{"name": "bug"}], "issues": [{"number": 1, "title": "x", "user": "alice"}, {"number": 3, "title": "y", "user": "alice"}]}]}}\n```\n\n';
    const seeded = await (await saveTask({ source: source(uniqueName("Own seed"), `${seed}${criteria(false)}`) })).json<Warned>();
    expect(seeded.warnings).toEqual([]);
  });
});
