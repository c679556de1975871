// What a new user trips over: which server pome talks to, error lines that read once, and
// criteria that will not count because the seed already satisfies them.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, inject, it } from "vitest";
import { DEAD_URL, agent, example, pome, pomeJson, tempDir } from "./helpers";

const serverPort = () => new URL(inject("pomeUrl")).port;

describe("pome finds the server npm start runs", () => {
  it("follows PORT when POME_API_URL is unset, and names the API on its first progress line", async () => {
    const port = serverPort();
    const { code, stderr } = await pome(["run", example("triage-bug-report"), "--", process.execPath, agent("triage-bug-report")], {
      apiUrl: null,
      env: { PORT: port },
    });
    expect(stderr.split("\n")[0]).toBe(`Pome API: http://127.0.0.1:${port} (from PORT)`);
    expect(code, stderr).toBe(0);
  });

  it("names the server it could not reach, so a wrong PORT is plain to see", async () => {
    const dead = new URL(DEAD_URL).port;
    const { code, stderr } = await pome(["run", example("triage-bug-report"), "--", process.execPath, agent("triage-bug-report")], {
      apiUrl: null,
      env: { PORT: dead },
    });
    expect(code).toBe(3);
    expect(stderr.split("\n")[0]).toBe(`Pome API: http://127.0.0.1:${dead} (from PORT)`);
    expect(stderr).toContain(`Cannot reach the Pome API at http://127.0.0.1:${dead}`);
  });

  it("lets POME_API_URL win over PORT", async () => {
    const { stderr } = await pome(["rerun", "grp_nosuchgroup", "--", "true"], { env: { PORT: "1" } });
    expect(stderr.split("\n")[0]).toBe(`Pome API: ${inject("pomeUrl")} (from POME_API_URL)`);
  });
});

describe("usage errors", () => {
  it("print their message once, not after a repeated command name", async () => {
    const report = await pome(["report"]);
    expect(report.code).toBe(2);
    expect(report.stderr).toBe("pome report takes one run id: pome report <run_id>\n");
    const unknown = await pome(["reprot"]);
    expect(unknown.stderr).toBe(
      'pome: Unknown command "reprot". Commands: init, tasks, checks, validate, sandbox, run, rerun, runs, report, regrade, grade, trace, doctor (pome --help)\n',
    );
  });
});

describe("criteria the seed already satisfies", () => {
  // No Seed State: the default world, where issue #3 already has the `bug` label.
  const task = (always: boolean) =>
    [
      "# Label the bug",
      "",
      "## Config",
      "twins: [github]",
      "",
      "## Prompt",
      "Label issue #1 in acme/api as a bug.",
      "",
      "## Success Criteria",
      "- [code] Issue #1 in `acme/api` has the `bug` label applied",
      `- [code${always ? " always_scored" : ""}] Issue #3 in \`acme/api\` has the \`bug\` label applied`,
      "",
    ].join("\n");
  const write = (always: boolean) => {
    const file = path.join(tempDir(), "task.md");
    writeFileSync(file, task(always));
    return file;
  };

  it("pome checks always states the rule, and with --task names the criterion and how to keep it scored", async () => {
    const plain = await pome(["checks", "github"]);
    expect(plain.stdout).toContain("excluded from the score unless marked always_scored");

    const file = write(false);
    const { code, stderr, json } = await pomeJson<{ warnings: { criterion_id: string; message: string }[] }>([
      "checks",
      "github",
      "--task",
      file,
    ]);
    expect(code).toBe(0);
    expect(json.warnings.map((w) => w.criterion_id)).toEqual(["c2"]);
    expect(stderr).toContain('warning: criterion c2: "Issue #3 in `acme/api` has the `bug` label applied" is already true in the seed');
    expect(stderr).toContain("- [code always_scored] Issue #3 in `acme/api` has the `bug` label applied");

    const kept = await pomeJson<{ warnings: unknown[] }>(["checks", "github", "--task", write(true)]);
    expect(kept.json.warnings).toEqual([]);
  });

  it("pome validate warns too, and the task stays valid", async () => {
    const { code, stderr } = await pome(["validate", write(false)]);
    expect(code).toBe(0);
    expect(stderr).toContain("warning: criterion c2:");
    expect(stderr).not.toContain("criterion c1:");
  });
});
