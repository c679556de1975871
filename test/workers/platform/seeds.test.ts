import { describe, expect, it } from "vitest";
import { api, postJson } from "../helpers";

type ErrorBody = { error: { type: string; message: string; details: Record<string, unknown> } };

describe("POST /v1/seeds/validate runs the twin's own boot parser", () => {
  it("reports every twin named as checked by its own parser for a world that boots", async () => {
    const res = await postJson("/v1/seeds/validate", {
      twins: ["github", "slack"],
      seed: {
        github: { repositories: [{ owner: "northwind", name: "payments" }] },
        slack: { channels: [] },
      },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ valid: true, checked: ["github", "slack"] });
  });

  it("names the failing field in the reference's shape", async () => {
    const res = await postJson("/v1/seeds/validate", {
      twins: ["github"],
      seed: { users: [{ login: "northwind", type: "Organization" }], repositories: [{ owner: "northwind" }] },
    });
    expect(res.status).toBe(422);
    const body = await res.json<ErrorBody>();
    expect(body.error.type).toBe("validation_failed");
    expect(body.error.message).toMatch(/^Seed is not valid for the github twin: repositories\[0\]\.name — /);
    expect(body.error.details).toMatchObject({
      error: "invalid_seed",
      twin: "github",
      issue_count: 1,
      issues: [{ path: "repositories[0].name", code: "invalid_type" }],
    });
  });

  it("refuses an unknown key with its path instead of dropping it", async () => {
    const res = await postJson("/v1/seeds/validate", {
      twins: ["github"],
      seed: { repositories: [{ owner: "acme", name: "api", isuses: [] }] },
    });
    const body = await res.json<ErrorBody>();
    expect(res.status).toBe(422);
    expect(body.error.details.issues).toEqual([
      { path: "repositories[0].isuses", message: 'Unrecognized key: "isuses"', code: "unrecognized_keys" },
    ]);
  });

  it("refuses a reference to something the seed does not define", async () => {
    const res = await postJson("/v1/seeds/validate", {
      twins: ["github"],
      seed: { repositories: [{ owner: "acme", name: "api", issues: [{ number: 1, title: "t", labels: ["bug"], assignees: ["ghost"] }] }] },
    });
    const body = await res.json<ErrorBody>();
    expect(body.error.details.issues).toEqual([
      expect.objectContaining({ path: "repositories[0].issues[0].labels[0]" }),
      expect.objectContaining({ path: "repositories[0].issues[0].assignees[0]" }),
    ]);
  });

  it("gives the same details block as sandbox creation for the same bad world", async () => {
    const seed = { repositories: [{ owner: "acme" }] };
    const validate = await (await postJson("/v1/seeds/validate", { twins: ["github"], seed })).json<ErrorBody>();
    const create = await (await postJson("/v1/sandboxes", { twins: ["github"], task_source: "IyAuLgo=", seed })).json<ErrorBody>();
    expect(create.error.details).toEqual(validate.error.details);
  });

  it("refuses an envelope key that is not a twin of the request", async () => {
    const res = await postJson("/v1/seeds/validate", { twins: ["github", "slack"], seed: { github: {}, stripe: {} } });
    expect(res.status).toBe(422);
    expect((await res.json<ErrorBody>()).error.details).toMatchObject({ error: "invalid_seed_envelope", keys: ["stripe"] });
  });

  it("refuses unknown twins, naming them", async () => {
    const res = await postJson("/v1/seeds/validate", { twins: ["github", "jira"], seed: {} });
    expect(res.status).toBe(422);
    expect((await res.json<ErrorBody>()).error.details).toMatchObject({ error: "unknown_twins", unknown_twins: ["jira"] });
  });

  it("answers 400 for a body that is not JSON and 413 past 4 MiB", async () => {
    expect((await api("/v1/seeds/validate", { method: "POST", body: "{not json" })).status).toBe(400);
    const huge = JSON.stringify({
      twins: ["github"],
      seed: { repositories: [{ owner: "a", name: "b", description: "x".repeat(4 * 1024 * 1024) }] },
    });
    const res = await api("/v1/seeds/validate", { method: "POST", body: huge });
    expect(res.status).toBe(413);
    expect((await res.json<ErrorBody>()).error.type).toBe("payload_too_large");
  });
});

describe("every seed's safety rule (no __proto__ key, bounded nesting)", () => {
  const refusal = async (seed: unknown) => {
    const res = await postJson("/v1/seeds/validate", { twins: ["github"], seed });
    expect(res.status).toBe(422);
    return (await res.json<ErrorBody>()).error.details;
  };

  it("names the path of a __proto__ key anywhere in the seed", async () => {
    const body = '{"twins":["github"],"seed":{"repositories":[{"owner":"a","name":"b","issues":[{"number":1,"__proto__":{}}]}]}}';
    const res = await api("/v1/seeds/validate", { method: "POST", body });
    expect(res.status).toBe(422);
    expect((await res.json<ErrorBody>()).error.details).toEqual({
      error: "invalid_seed",
      issue_count: 1,
      issues: [{ path: "repositories[0].issues[0].__proto__", message: 'A seed may not use the key "__proto__"', code: "forbidden_key" }],
    });
  });

  it("names the first value nested deeper than 48 levels, and lets 48 through to the parser", async () => {
    const nest = (depth: number): unknown => (depth === 0 ? "x" : [nest(depth - 1)]);
    // users, then 48 arrays: the innermost string sits 49 levels down.
    const details = await refusal({ users: nest(48) });
    expect(details).toMatchObject({ error: "invalid_seed", issues: [{ path: `users${"[0]".repeat(48)}`, code: "too_deep" }] });
    // One level less passes the rule and reaches the twin's parser, which refuses its shape instead.
    expect(await refusal({ users: nest(47) })).toMatchObject({ error: "invalid_seed", twin: "github" });
  });
});
