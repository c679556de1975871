// Seeds on the wire: the same parser on /v1/seeds/validate and on sandbox creation, refusing
// broken references and unknown keys with their paths, and a world that exports as its seed.
import { describe, expect, it } from "vitest";
import { githubSeedSchema, parseGithubSeed } from "../../../durable-objects/twins/github/seed";
import { githubSeedParser } from "../../../durable-objects/twins/github/seed-parser.generated";
import { generatedSource, withGeneratedParser } from "../../../durable-objects/twins/kit/compiled-schema";
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
    expect(await refusal(world)).toContainEqual(expect.objectContaining({ path: "repositories[0].pulls[0].number", code: "duplicate" }));
  });

  it("codes a duplicate as the other twins do, apart from a reference that misses", async () => {
    const world = smallWorld();
    const users: Record<string, unknown>[] = world.users;
    users.push({ ...users[0], login: String(users[0].login).toUpperCase() });
    world.repositories[0].issues[0].labels = ["bug", "BUG"];
    world.repositories[0].issues[1].assignees = ["nobody-here"];
    const codes = Object.fromEntries((await refusal(world)).map((i) => [i.path, i.code]));
    expect(codes).toMatchObject({
      [`users[${users.length - 1}].login`]: "duplicate",
      "repositories[0].issues[0].labels[1]": "duplicate",
      "repositories[0].issues[1].assignees[0]": "invalid_reference",
    });
  });

  it("refuses an id given twice in one table, an issue's and a pull request's alike, and keeps ids kinds share", async () => {
    const world = smallWorld();
    const repo = world.repositories[0];
    const users: Record<string, unknown>[] = world.users;
    users[0] = { ...users[0], id: 15 };
    users[1] = { ...users[1], id: 15 };
    const issues: Record<string, unknown>[] = repo.issues;
    issues[0] = { ...issues[0], id: 7 };
    const pulls: Record<string, unknown>[] = repo.pulls;
    pulls[0] = { ...pulls[0], id: 7 };
    expect(await refusal(world)).toEqual([
      expect.objectContaining({ path: "users[1].id", message: "Duplicate id 15: users[0].id has it too" }),
      expect.objectContaining({ path: "repositories[0].pulls[0].id", message: "Duplicate id 7: repositories[0].issues[0].id has it too" }),
    ]);

    // A user and an issue with the same id are two tables' rows, as on GitHub.
    const shared = smallWorld();
    const sharedUsers: Record<string, unknown>[] = shared.users;
    sharedUsers[0] = { ...sharedUsers[0], id: 15 };
    const sharedIssues: Record<string, unknown>[] = shared.repositories[0].issues;
    sharedIssues[0] = { ...sharedIssues[0], id: 15 };
    const created = await postJson("/v1/sandboxes", { task_source: "IyAuLgo=", seed: shared });
    expect(created.status).toBe(201);
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

describe("the seed schema's generated parser", () => {
  const compiled = withGeneratedParser(githubSeedSchema, githubSeedParser);

  it("is the code zod's compiler writes for the schema today", () => {
    // A stale parser is never used (its hash no longer matches): safe, but the slow parse is back.
    expect(generatedSource(githubSeedSchema).hash, "stale: run npm run generate:seed-parsers").toBe(githubSeedParser.hash);
  });

  // The test pool lets code be compiled from strings, which a deployed Worker (and `npm start`)
  // refuses: installing the parser must not depend on it either way.
  it("is installed without compiling code from strings, and the runtime's Function is left alone", () => {
    const before = globalThis.Function;
    expect(withGeneratedParser(githubSeedSchema, githubSeedParser)).not.toBe(githubSeedSchema);
    expect(compiled).not.toBe(githubSeedSchema);
    expect(globalThis.Function).toBe(before);
  });

  it("parses worlds exactly as the schema does", () => {
    const worlds: unknown[] = [
      {},
      smallWorld(),
      smallWorld({ topics: ["api"], private: true, archived: true }),
      {
        repositories: [
          {
            owner: "acme",
            name: "big",
            labels: [{ name: "bug" }, { name: "p1", color: "ff0000", description: "urgent" }],
            issues: Array.from({ length: 50 }, (_, i) => ({
              number: i + 1,
              title: `Issue ${i + 1}`,
              labels: i % 2 ? ["bug"] : ["bug", "p1"],
              ...(i % 5 ? {} : { state: "closed", closed_at: "2026-02-01T00:00:00Z", body: "done" }),
            })),
          },
        ],
      },
    ];
    for (const world of worlds) {
      const fast = compiled.safeParse(world);
      const slow = githubSeedSchema.safeParse(world);
      expect(fast.success).toBe(true);
      expect(fast.data).toEqual(slow.data);
      // Defaults are fresh values, never shared between parses.
      if (fast.success && slow.success) expect(fast.data.users).not.toBe(slow.data.users);
    }
  });

  it("hands a value it refuses to the schema, which names every issue at its path", () => {
    const bad = smallWorld();
    const repo = (bad.repositories as Record<string, unknown>[])[0];
    repo.issues = [
      { number: 1, titel: "misspelt" },
      { number: -2, title: "" },
    ];
    const fast = compiled.safeParse(bad);
    const slow = githubSeedSchema.safeParse(bad);
    expect(fast.success).toBe(false);
    expect(fast.error?.issues).toEqual(slow.error?.issues);
    expect(fast.error?.issues.map((i) => i.path.join("."))).toEqual(
      expect.arrayContaining(["repositories.0.issues.0.title", "repositories.0.issues.1.number", "repositories.0.issues.1.title"]),
    );
  });
});
