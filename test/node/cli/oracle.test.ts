// Oracle pairs (issue 38, point 5): `pome validate --oracle` runs a task's reference agent and its
// naive agent through `pome run`'s loop, and fails (exit 1) unless the reference passes and the
// naive one fails. Commands run from the task file's folder.
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT, example, pome, pomeJson, tempDir } from "./helpers";

interface Validation {
  valid: boolean;
  problems: { kind: string; message: string }[];
  oracle?: { role: string; verdict: string; ok: boolean; run_id: string | null }[];
}

const TASK = "refund-duplicate-charge";

/** The example task copied to a folder of its own, its Config's pair replaced by `pair`. */
function taskWithPair(pair: string[]): string {
  const dir = tempDir("pome-oracle-");
  mkdirSync(path.join(dir, "tasks"));
  const text = readFileSync(example(TASK), "utf8").replace(/^(reference|naive):.*\n/gm, "");
  const file = path.join(dir, "tasks", `${TASK}.md`);
  writeFileSync(file, text.replace("passThreshold: 100%\n", `passThreshold: 100%\n${pair.map((l) => `${l}\n`).join("")}`));
  return file;
}

describe("pome validate --oracle runs the pair from the task file's folder", () => {
  it("passes when the reference passes and the naive agent fails", async () => {
    const { code, json, stderr } = await pomeJson<Validation>(["validate", example(TASK), "--oracle"]);
    expect(code, stderr).toBe(0);
    expect(json.oracle?.map((r) => [r.role, r.verdict, r.ok])).toEqual([
      ["reference", "passed", true],
      ["naive", "failed", true],
    ]);
    expect(stderr).toContain("✓ oracle: the reference agent passed");
  });

  it("fails (exit 1) when the naive agent passes: the criteria cannot tell it from the reference", async () => {
    const agents = path.join(ROOT, "examples", "agents");
    const file = taskWithPair([`reference: node ${agents}/${TASK}.mjs`, `naive: node ${agents}/${TASK}.mjs`]);
    const { code, stderr } = await pome(["validate", file, "--oracle"]);
    expect(code).toBe(1);
    expect(stderr).toContain("the naive agent (node ");
    expect(stderr).toContain("ended passed, not failed");
  });

  it("fails when the reference agent does not pass, naming its run", async () => {
    const file = taskWithPair(["reference: node ../agents/idle.mjs", "naive: node ../agents/idle.mjs"]);
    // Relative commands resolve from the task file's folder: ../agents/ beside tasks/.
    const target = path.join(path.dirname(file), "..", "agents");
    mkdirSync(target, { recursive: true });
    copyFileSync(path.join(ROOT, "examples/agents/do-nothing.mjs"), path.join(target, "idle.mjs"));
    const { code, json } = await pomeJson<Validation>(["validate", file, "--oracle"]);
    expect(code).toBe(1);
    expect(json.valid).toBe(false);
    expect(json.oracle?.map((r) => [r.role, r.verdict, r.ok])).toEqual([
      ["reference", "failed", false],
      ["naive", "failed", true],
    ]);
    expect(json.problems[0]?.message).toMatch(
      /the reference agent \(node \.\.\/agents\/idle\.mjs\) ended failed, not passed.*pome report run_/,
    );
  });

  it("refuses a task that declares no pair, running nothing", async () => {
    const file = taskWithPair([]);
    const { code, stderr } = await pome(["validate", file, "--oracle"]);
    expect(code).toBe(1);
    expect(stderr).toContain("Config declares no reference and no naive agent");
    expect(stderr).not.toContain("creating a sandbox");
  });

  it("a reference that cannot start is a broken pair (exit 1), not a crash of pome", async () => {
    const file = taskWithPair(["reference: ./no-such-agent", "naive: ./no-such-agent"]);
    const { code, json } = await pomeJson<Validation>(["validate", file, "--oracle"]);
    expect(code).toBe(1);
    expect(json.oracle?.map((r) => [r.role, r.verdict, r.ok])).toEqual([
      ["reference", "errored", false],
      ["naive", "errored", false],
    ]);
  });

  it("is a usage error together with --offline", async () => {
    const { code, stderr } = await pome(["validate", example(TASK), "--oracle", "--offline"]);
    expect(code).toBe(2);
    expect(stderr).toContain("cannot be --offline");
  });
});
