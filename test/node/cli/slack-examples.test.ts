// The Slack example tasks under `pome run` against the running platform: each passes with its
// reference agent and fails with its naive one and with an agent that does nothing.
import { describe, expect, it } from "vitest";
import { agent, example, pomeJson } from "./helpers";

interface Outcome {
  passed: boolean;
  runs: { score: number | null; criteria_results: { text: string; status: string }[] }[];
}

const node = process.execPath;
const EXAMPLES: [task: string, reference: string, naive: string][] = [
  ["slack-rollback-approval", "slack-rollback-approval", "slack-rollback-naive"],
  ["slack-release-channel", "slack-release-channel", "slack-release-naive"],
];

describe.each(EXAMPLES)("example task %s", (task, reference, naive) => {
  it("passes with its reference agent", async () => {
    const { code, json, stderr } = await pomeJson<Outcome>(["run", example(task), "--", node, agent(reference)]);
    const failing = json.runs[0]?.criteria_results.filter((c) => c.status !== "passed");
    expect({ code, score: json.runs[0]?.score, failing }, stderr).toEqual({ code: 0, score: 100, failing: [] });
  });

  it("fails with its naive agent", async () => {
    const { code, json } = await pomeJson<Outcome>(["run", example(task), "--", node, agent(naive)]);
    expect(code).toBe(1);
    expect(json.passed).toBe(false);
    expect(json.runs[0]?.criteria_results.some((c) => c.status === "failed")).toBe(true);
  });

  it("fails an agent that does nothing", async () => {
    const { code, json } = await pomeJson<Outcome>(["run", example(task), "--", node, agent("do-nothing")]);
    expect(code).toBe(1);
    expect(json.runs[0]?.score ?? 0).toBeLessThan(100);
  });
});
