// Every example task under `pome run` against the running platform, found in examples/tasks: it
// passes with its reference agent (examples/agents/<task>.mjs), fails an agent that does nothing,
// and, where one ships (<task>-naive.mjs), fails the naive agent that acts plausibly and wrongly.
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT, agent, example, pomeJson } from "./helpers";

interface Outcome {
  passed: boolean;
  runs: { score: number | null; exit_code: number; criteria_results: { text: string; status: string }[] }[];
}

const TASKS = readdirSync(path.join(ROOT, "examples/tasks"))
  .filter((f) => f.endsWith(".md"))
  .map((f) => f.slice(0, -3))
  .sort();
const WITH_NAIVE = TASKS.filter((name) => existsSync(agent(`${name}-naive`)));
const node = process.execPath;

it("finds the examples of every twin, each with its reference agent", () => {
  expect(TASKS.length).toBeGreaterThanOrEqual(14);
  expect(TASKS.filter((name) => !existsSync(agent(name)))).toEqual([]);
  expect(WITH_NAIVE.length).toBeGreaterThanOrEqual(8);
});

describe.each(TASKS)("example task %s", (name) => {
  it("passes with its reference agent", async () => {
    const { code, json, stderr } = await pomeJson<Outcome>(["run", example(name), "--", node, agent(name)]);
    const failing = json.runs[0]?.criteria_results.filter((c) => c.status !== "passed" && c.status !== "skipped");
    expect({ code, score: json.runs[0]?.score, failing }, stderr).toEqual({ code: 0, score: 100, failing: [] });
    expect(json.passed).toBe(true);
  });

  it("fails an agent that does nothing", async () => {
    const { code, json } = await pomeJson<Outcome>(["run", example(name), "--", node, agent("do-nothing")]);
    expect(code).toBe(1);
    expect(json.passed).toBe(false);
    expect(json.runs[0]?.score ?? 0).toBeLessThan(100);
  });
});

describe.each(WITH_NAIVE)("example task %s with its naive agent", (name) => {
  it("fails it on the criteria the naive shortcut breaks", async () => {
    const { code, json } = await pomeJson<Outcome>(["run", example(name), "--", node, agent(`${name}-naive`)]);
    expect(code).toBe(1);
    expect(json.passed).toBe(false);
    expect(json.runs[0]?.criteria_results.some((c) => c.status === "failed")).toBe(true);
  });
});
