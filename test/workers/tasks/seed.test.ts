import { describe, expect, it } from "vitest";
import { seedForRequest, seedFromTask } from "../../../workers/tasks";

const world = { users: [{ login: "northwind", type: "Organization" }] };
const task = (seed: unknown) => `# T\n\n## Prompt\nHi\n\n## Seed State\n\`\`\`json\n${JSON.stringify(seed, null, 2)}\n\`\`\`\n`;

describe("a one-twin seed file is unwrapped into the flat wire seed", () => {
  it("sends the twin's world without the wrapper", () => {
    expect(seedFromTask(task({ github: world }), ["github"])).toEqual({ found: true, seed: world });
  });

  it("finds nothing when the file seeds no requested twin", () => {
    expect(seedFromTask(task({}), ["github"])).toEqual({ found: false });
  });
});

describe("a several-twin seed keeps its envelope", () => {
  it("sends the envelope keyed by twin", () => {
    const envelope = { github: world, slack: { channels: [] } };
    expect(seedFromTask(task(envelope), ["github", "slack"])).toEqual({ found: true, seed: envelope });
  });

  it("lets a twin missing from the envelope boot its default world", () => {
    expect(seedForRequest({ github: world }, ["github", "slack"])).toEqual({ found: true, seed: { github: world } });
  });
});

describe("seeds that cannot be sent are refused with a reason", () => {
  it("refuses a key naming a twin the sandbox does not have", () => {
    const result = seedFromTask(task({ github: world, slack: {} }), ["github"]);
    expect(result.found).toBe(false);
    expect(result.error).toMatch(/"slack", which is not a twin of this sandbox/);
  });

  it("refuses a flat seed written without the twin key", () => {
    expect(seedFromTask(task(world), ["github"]).error).toMatch(/"users"/);
  });

  it("reports seed JSON that does not parse", () => {
    const result = seedFromTask("## Seed State\n```json\n{nope}\n```\n", ["github"]);
    expect(result).toMatchObject({ found: false, error: expect.stringMatching(/not valid JSON/) });
  });
});

describe("a source without a seed leaves the world to the twin", () => {
  it("finds no seed in the stub source `# ..`", () => {
    expect(seedFromTask("# ..\n", ["github"])).toEqual({ found: false });
  });

  it("still reads the seed when other sections are malformed", () => {
    const md = `${task({ github: world })}\n## Success Criteria\n- not a criterion\n`;
    expect(seedFromTask(md, ["github"])).toEqual({ found: true, seed: world });
  });
});
