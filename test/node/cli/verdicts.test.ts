// Grading you can trust (issue 38) through the CLI against the running platform: a typo in a
// [code] criterion is refused before anything runs (or, let through, makes the run incomplete,
// never passed), `validate --offline` catches it with the grader's own binding code, a crash is
// failed and named with the examinee's stderr, and the exit codes tell the verdicts apart.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { agent, example, pome, pomeJson, tempDir } from "./helpers";

interface Trial {
  run_id: string;
  score: number | null;
  outcome: string;
  verdict_reason: string | null;
  criteria_results: { id: string; status: string; owner: string | null }[];
}
interface Outcome {
  verdict: string;
  runs: Trial[];
}

const node = process.execPath;
const DEAD_URL = "http://127.0.0.1:9";

/** The triage example with "classification" misspelled in its first [code] criterion. */
function typoTask(): string {
  const file = path.join(tempDir("pome-typo-"), "typo.md");
  const text = readFileSync(example("triage-bug-report"), "utf8");
  const typo = text.replace("one classification label", "one clasification label");
  expect(typo).not.toBe(text);
  writeFileSync(file, typo);
  return file;
}

describe("a task whose [code] criteria do not all bind is refused before running", () => {
  it("pome run exits 2 naming the nearest check, and starts no sandbox", async () => {
    const { code, stderr } = await pome(["run", typoTask(), "--", node, agent("triage-bug-report")]);
    expect(code).toBe(2);
    expect(stderr).toContain("binds no github check");
    expect(stderr).toContain("nearest: github.issue-exactly-one-label");
    expect(stderr).toContain("--allow-unbound");
    expect(stderr).not.toContain("creating a sandbox");
  });

  it("with --allow-unbound the run is incomplete, never passed, and exits 5, the task owning the criterion", async () => {
    const { code, json, stderr } = await pomeJson<Outcome>(["run", typoTask(), "--allow-unbound", "--", node, agent("triage-bug-report")]);
    expect(code, stderr).toBe(5);
    expect(json.verdict).toBe("incomplete");
    const [trial] = json.runs;
    // Everything that bound passed: the old grader printed "score 100 → passed" here.
    expect(trial.score).toBe(100);
    expect(trial.outcome).toBe("incomplete");
    expect(trial.verdict_reason).toContain("`c1` bound no check");
    expect(trial.criteria_results[0]).toMatchObject({ status: "unmatched", owner: "task" });
    const report = await pome(["report", trial.run_id]);
    expect(report.stdout).toContain("**Verdict: ⚠️ incomplete**");
    expect(report.stdout).toMatch(/\| ❔ \| .*clasification.* \| code \| unmatched \| task \|/);

    // The typo fixed, the stored evidence is graded again: nothing runs, the criterion flips.
    const regraded = await pome(["regrade", trial.run_id, "--task", example("triage-bug-report")]);
    expect(regraded.code, regraded.stderr).toBe(0);
    expect(regraded.stdout).toContain(`re-graded ${trial.run_id}: passed`);
    expect(regraded.stdout).toMatch(/c1\s+unmatched\s+passed/);
  });

  it("pome validate --offline binds with the grader's code, without a server, and names the nearest check", async () => {
    const { code, stderr } = await pome(["validate", typoTask(), "--offline"], { apiUrl: DEAD_URL });
    expect(code).toBe(1);
    expect(stderr).toContain("binds no github check");
    expect(stderr).toContain("nearest: github.issue-exactly-one-label");
  });
});

describe("pome validate warns about a subject the seed lacks", () => {
  it("names it and the nearest one the seed has, offline too", async () => {
    const file = path.join(tempDir("pome-dnaa-"), "dnaa.md");
    writeFileSync(file, readFileSync(example("triage-bug-report"), "utf8").replace("is assigned to `dana`", "is assigned to `dnaa`"));
    const { code, stderr } = await pome(["validate", file, "--offline"], { apiUrl: DEAD_URL });
    expect(code).toBe(0);
    expect(stderr).toContain("criterion 2: `dnaa` is not a user in the seed; did you mean `dana`?");
  });
});

describe("a crash is failed, and named", () => {
  it("keeps the exit code and the tail of stderr on the run, shows them in the report, and exits 1", async () => {
    const crash = `console.error("TypeError: cannot read properties of undefined (reading 'labels')"); process.exit(3)`;
    const { code, json } = await pomeJson<Outcome>(["run", example("triage-bug-report"), "--", node, "-e", crash]);
    expect(code).toBe(1);
    expect(json.runs[0].outcome).toBe("failed");
    expect(json.runs[0].verdict_reason).toContain("the examinee crashed: exit code 3");
    const report = await pome(["report", json.runs[0].run_id]);
    expect(report.stdout).toContain("## How the examinee ended");
    expect(report.stdout).toContain("TypeError: cannot read properties of undefined (reading 'labels')");
  });
});

describe("a clean pass, and pome runs shows the verdict", () => {
  it("the reference agent passes with exit 0; the [model] criterion is excluded by configuration and the verdict says so", async () => {
    const { code, json, stderr } = await pomeJson<Outcome>(["run", example("triage-bug-report"), "--", node, agent("triage-bug-report")]);
    expect(code, stderr).toBe(0);
    expect(json.verdict).toBe("passed");
    expect(json.runs[0].verdict_reason).toContain("excluded by configuration (no judge configured)");
    const { stdout } = await pome(["runs", "--limit", "5"]);
    expect(stdout.split("\n")[0]).toMatch(/run\s+created\s+verdict\s+score/);
    expect(stdout).toContain(json.runs[0].run_id);
  });
});
