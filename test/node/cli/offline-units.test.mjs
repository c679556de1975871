// The pure parts of issue 38's CLI pieces, without a server: the oracle pair read from a task's
// Config, its commands split into words, and the offline grader's bundle rebuilt when stale.
import { utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { buildGrader, bundleIsStale } from "../../../cli/lib/grader.mjs";
import { missingRoles, oracleCommand, oraclePair } from "../../../cli/lib/oracle.mjs";
import { parseTask, renderConfigBody } from "../../../workers/tasks/markdown.ts";
import { tempDir } from "./helpers.ts";

const task = (config) => `# T\n\n## Config\ntwins: [github]\n${config}\n## Prompt\nDo it.\n\n## Success Criteria\n- [model] It is done\n`;

describe("a task's Config declares its oracle pair", () => {
  it("reads reference and naive, and renders them back", () => {
    const parsed = parseTask(task("reference: node ../agents/a.mjs\nnaive: node ../agents/a-naive.mjs\n"), ["github"]);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.task.config).toMatchObject({ reference: "node ../agents/a.mjs", naive: "node ../agents/a-naive.mjs" });
    expect(renderConfigBody(parsed.task.config)).toBe(
      "twins: [github]\nreference: node ../agents/a.mjs\nnaive: node ../agents/a-naive.mjs",
    );
    expect(missingRoles(parsed.task)).toEqual([]);
  });

  it("refuses an empty command, and names the roles a task leaves out", () => {
    const empty = parseTask(task("reference:\n"), ["github"]);
    expect(empty.ok).toBe(false);
    if (!empty.ok) expect(empty.errors[0]?.message).toContain("reference must be the command of an agent");
    const half = parseTask(task("reference: node a.mjs\n"), ["github"]);
    expect(half.ok && missingRoles(half.task)).toEqual(["naive"]);
  });

  it("runs each command from the task file's folder, a leading node being pome's own", () => {
    const parsed = parseTask(task("reference: node ../agents/a.mjs --flag\nnaive: ./naive \"with space\" 'quoted arg'\n"), ["github"]);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    const [reference, naive] = oraclePair(parsed.task, "/repo/examples/tasks/t.md");
    expect(reference).toMatchObject({ role: "reference", cwd: "/repo/examples/tasks", expected: "passed" });
    expect(reference?.command).toEqual([process.execPath, "../agents/a.mjs", "--flag"]);
    expect(naive?.command).toEqual(["./naive", "with space", "quoted arg"]);
    expect(oracleCommand("python3 agent.py")).toEqual(["python3", "agent.py"]);
  });
});

describe("the offline grader is bundled once and rebuilt when a source is newer", () => {
  it("builds into the cache folder, is fresh, and turns stale when a source it read changes", async () => {
    const cacheDir = tempDir("pome-grader-cache-");
    const bundle = await buildGrader({ cacheDir });
    expect(bundle).toBe(path.join(cacheDir, "grader.mjs"));
    expect(bundleIsStale(bundle)).toBe(false);
    const grader = await import(bundle);
    expect(typeof grader.gradeOffline).toBe("function");
    // A source of the bundle touched after it was built: stale. A fake one stands in for it.
    const inputs = `${bundle}.inputs.json`;
    const source = path.join(cacheDir, "source.ts");
    writeFileSync(source, "export {};\n");
    writeFileSync(inputs, JSON.stringify([source]));
    const later = new Date(Date.now() + 60_000);
    utimesSync(source, later, later);
    expect(bundleIsStale(bundle)).toBe(true);
    const rebuilt = await buildGrader({ cacheDir });
    expect(bundleIsStale(rebuilt)).toBe(false);
  }, 60_000);
});
