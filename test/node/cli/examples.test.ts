// Every example task against the running platform, found in examples/tasks. Each declares its
// oracle pair in ## Config (`reference:` must pass, `naive:` must fail; issue 38), read from the
// file here and run by `pome validate --oracle`, the command a task author runs; and every task
// fails an agent that does nothing.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT, agent, example, pomeJson } from "./helpers";

interface Outcome {
  passed: boolean;
  runs: { score: number | null; exit_code: number; criteria_results: { text: string; status: string }[] }[];
}
interface OracleRow {
  role: string;
  command: string;
  run_id: string | null;
  score: number | null;
  verdict: string;
  verdict_reason: string | null;
  ok: boolean;
}
interface Validation {
  valid: boolean;
  problems: { message: string }[];
  oracle?: OracleRow[];
}

const TASKS = readdirSync(path.join(ROOT, "examples/tasks"))
  .filter((f) => f.endsWith(".md"))
  .map((f) => f.slice(0, -3))
  .sort();
const node = process.execPath;

/** The pair a task file declares: its Config's `reference:` and `naive:` lines, as written. */
function declaredPair(name: string): { reference?: string; naive?: string } {
  const text = readFileSync(example(name), "utf8");
  const config = text.split("\n## ").find((section) => section.startsWith("Config\n")) ?? "";
  const line = (key: string) => new RegExp(`^${key}:\\s*(.+)$`, "m").exec(config)?.[1]?.trim();
  return { reference: line("reference"), naive: line("naive") };
}

/** The agent file a command runs, resolved as pome resolves it: from the task file's folder. */
const agentFile = (command: string) => path.resolve(ROOT, "examples/tasks", command.split(/\s+/)[1] ?? "");

it("finds the examples of every twin, each declaring an oracle pair whose agents exist", () => {
  expect(TASKS.length).toBeGreaterThanOrEqual(14);
  const pairs = TASKS.map((name) => ({ name, ...declaredPair(name) }));
  expect(pairs.filter((p) => !p.reference || !p.naive).map((p) => p.name)).toEqual([]);
  for (const p of pairs) {
    expect(existsSync(agentFile(p.reference ?? "")), `${p.name}: ${p.reference}`).toBe(true);
    expect(existsSync(agentFile(p.naive ?? "")), `${p.name}: ${p.naive}`).toBe(true);
    expect(agentFile(p.naive ?? "")).not.toBe(agentFile(p.reference ?? ""));
  }
});

describe.each(TASKS)("example task %s", (name) => {
  it("its reference agent passes and its naive agent fails (pome validate --oracle)", async () => {
    const pair = declaredPair(name);
    const { code, json, stderr } = await pomeJson<Validation>(["validate", example(name), "--oracle"]);
    expect({ code, valid: json.valid, problems: json.problems }, stderr).toEqual({ code: 0, valid: true, problems: [] });
    const [reference, naive] = json.oracle ?? [];
    expect(reference).toMatchObject({ role: "reference", command: pair.reference, verdict: "passed", score: 100, ok: true });
    // The naive agent fails on the agent's account: a criterion it broke, not a crash or a task fault.
    expect(naive).toMatchObject({ role: "naive", command: pair.naive, verdict: "failed", ok: true });
    expect(naive?.score ?? 100).toBeLessThan(100);
  });

  it("fails an agent that does nothing", async () => {
    const { code, json } = await pomeJson<Outcome>([
      "run",
      example(name),
      "--agent-version",
      "do-nothing",
      "--",
      node,
      agent("do-nothing"),
    ]);
    expect(code).toBe(1);
    expect(json.passed).toBe(false);
    expect(json.runs[0]?.score ?? 0).toBeLessThan(100);
  });
});
