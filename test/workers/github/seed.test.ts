// Seeds on the wire: the same parser on /v1/seeds/validate and on sandbox creation, refusing
// broken references and unknown keys with their paths, and a world that exports as its seed.
import { describe, expect, it } from "vitest";
import { parseGithubSeed } from "../../../durable-objects/twins/github/seed";
import { createSandbox, postJson } from "../helpers";
import { smallWorld, stateOf } from "./fixtures";

interface SeedError {
  error: { type: string; details: { error: string; twin: string; issues: { path: string; message: string; code: string }[] } };
}

async function refusal(seed: unknown) {
  const validate = await postJson("/v1/seeds/validate", { twins: ["github"], seed });
  const create = await postJson("/v1/sandboxes", { task_source: "IyAuLgo=", seed });
  expect(validate.status).toBe(422);
  expect(create.status).toBe(422);
  const a = await validate.json<SeedError>();
  const b = await create.json<SeedError>();
  expect(a.error.details.error).toBe("invalid_seed");
  expect(b.error.details.issues).toEqual(a.error.details.issues);
  return a.error.details.issues;
}

describe("a seed with broken references is refused with the failing path", () => {
  it("names a label the repository does not define", async () => {
    const world = smallWorld();
    world.repositories[0].issues[0].labels = ["nope"];
    const issues = await refusal(world);
    expect(issues).toEqual([expect.objectContaining({ path: "repositories[0].issues[0].labels[0]", code: "invalid_reference" })]);
  });

  it("names an assignee, a comment author and a branch that do not exist", async () => {
    const world = smallWorld();
    const issues: Record<string, unknown>[] = world.repositories[0].issues;
    issues[1] = { ...issues[1], assignees: ["ghost"] };
    world.repositories[0].issues[2].comments = [{ user: "phantom", body: "boo" }];
    world.repositories[0].pulls[0].head = "missing";
    const paths = (await refusal(world)).map((i) => i.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        "repositories[0].issues[1].assignees[0]",
        "repositories[0].issues[2].comments[0].user",
        "repositories[0].pulls[0].head",
      ]),
    );
  });

  it("refuses an issue number shared with a pull request", async () => {
    const world = smallWorld();
    world.repositories[0].pulls[0].number = 2;
    expect((await refusal(world)).map((i) => i.path)).toContain("repositories[0].pulls[0].number");
  });

  it("refuses an unknown key at its own path", async () => {
    const world = smallWorld();
    const issues = await refusal({
      ...world,
      repositories: [{ ...world.repositories[0], issues: [{ number: 1, title: "x", lables: ["bug"] }] }],
    });
    expect(issues).toEqual([expect.objectContaining({ path: "repositories[0].issues[0].lables", code: "unrecognized_keys" })]);
  });

  it("accepts a minimal seed: only owner/name and issue number/title are required", async () => {
    const res = await postJson("/v1/seeds/validate", {
      twins: ["github"],
      seed: { repositories: [{ owner: "o", name: "r", issues: [{ number: 1, title: "t" }] }] },
    });
    expect(res.status).toBe(200);
  });
});

describe("a sandbox's state is its normalized seed until something changes it", () => {
  it("serves /_pome/state equal to the parsed seed right after creation", async () => {
    const world = smallWorld();
    const sandbox = await createSandbox({ seed: world });
    const parsed = parseGithubSeed(world);
    expect(parsed.ok).toBe(true);
    expect(await stateOf(sandbox)).toEqual(parsed.ok ? parsed.seed : null);
  });
});
