// Writing tasks from the terminal: pome init, tasks, checks and validate.
import { existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, inject, it } from "vitest";
import { LOCAL_KEY } from "../server";
import { DEAD_URL, example, pome, pomeJson, tempDir } from "./helpers";

const serverTwins = async () =>
  (await (await fetch(`${inject("pomeUrl")}/v1/twins`, { headers: { authorization: `Bearer ${LOCAL_KEY}` } })).json()) as {
    default: string;
    twins: { id: string }[];
  };

describe("pome init scaffolds a task that validates", () => {
  it("writes task.md, which passes validate against the server", async () => {
    const dir = tempDir();
    const init = await pome(["init", "--name", "Label the timeout issue"], { cwd: dir });
    expect(init.code).toBe(0);
    const text = readFileSync(path.join(dir, "task.md"), "utf8");
    expect(text.startsWith("# Label the timeout issue\n")).toBe(true);
    const validate = await pome(["validate", "task.md"], { cwd: dir });
    expect(validate.stdout).toContain("task.md is valid.");
    expect(validate.code).toBe(0);
  });

  it("starts from the server's default twin, and from any twin's template or first example with --twin", async () => {
    const listed = await serverTwins();
    const TWIN_IDS = [listed.default, ...listed.twins.map((t) => t.id).filter((id) => id !== listed.default)];
    expect(TWIN_IDS.length).toBeGreaterThanOrEqual(5);
    const dir = tempDir();
    const plain = await pomeJson<{ file: string; twin: string }>(["init", "a.md"], { cwd: dir });
    expect(plain.code).toBe(0);
    expect(plain.json.twin).toBe(TWIN_IDS[0]);
    for (const twin of TWIN_IDS) {
      const file = `${twin}.md`;
      const init = await pome(["init", file, "--twin", twin], { cwd: dir });
      expect(init.code).toBe(0);
      expect(readFileSync(path.join(dir, file), "utf8")).toMatch(new RegExp(`^twins: \\[${twin}\\]$`, "m"));
      const validate = await pome(["validate", file], { cwd: dir });
      expect(validate.stdout).toContain(`${file} is valid.`);
    }
    const unknown = await pome(["init", "x.md", "--twin", "nosuch"], { cwd: dir });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/--twin: "nosuch" is not a twin/);
  });

  it("gives a task that names no twins the server's default twin", async () => {
    const dir = tempDir();
    writeFileSync(
      path.join(dir, "bare.md"),
      "# Bare\n\n## Prompt\nLook around.\n\n## Success Criteria\n- [model] The agent says what it saw\n",
    );
    const listed = await serverTwins();
    const validate = await pome(["validate", "bare.md"], { cwd: dir });
    expect(validate.code).toBe(0);
    expect(validate.stderr + validate.stdout).toContain(`twins ${listed.default}`);
  });

  it("keeps an existing file unless --force", async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, "mine.md"), "keep me");
    const again = await pome(["init", "mine.md"], { cwd: dir });
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/mine\.md already exists/);
    expect(readFileSync(path.join(dir, "mine.md"), "utf8")).toBe("keep me");
    expect((await pome(["init", "mine.md", "--force"], { cwd: dir })).code).toBe(0);
  });
});

describe("pome tasks lists and copies the examples", () => {
  it("lists every example with its title", async () => {
    const { json, code } = await pomeJson<{ file: string; title: string }[]>(["tasks"]);
    expect(code).toBe(0);
    expect(json.map((e) => e.file)).toContain("refuse-unreviewed-merge.md");
    expect(json.length).toBeGreaterThanOrEqual(6);
  });

  it("copies them into the current directory, keeping files already there", async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, "triage-bug-report.md"), "mine");
    const { json } = await pomeJson<{ copied: string[]; kept: string[] }>(["tasks", "--copy"], { cwd: dir });
    expect(json.kept).toEqual(["triage-bug-report.md"]);
    expect(readdirSync(dir).filter((f) => f.endsWith(".md")).length).toBe(json.copied.length + 1);
    expect(readFileSync(path.join(dir, "triage-bug-report.md"), "utf8")).toBe("mine");
  });
});

describe("pome checks shows a twin's vocabulary", () => {
  it("prints the twelve GitHub sentences", async () => {
    const { stdout, code } = await pome(["checks", "github"]);
    expect(code).toBe(0);
    expect(stdout).toContain("github.issue-has-label");
    expect(stdout).toContain("Issue #{issue} in `{repo}` has the `{label}` label applied");
  });

  it("refuses an unknown twin as a usage error naming the twins there are", async () => {
    const { code, stderr } = await pome(["checks", "githib"]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/"githib" is not a twin; the twins are github, /);
  });
});

describe("pome validate checks a task file", () => {
  it("passes every example task", async () => {
    for (const name of [
      "triage-bug-report",
      "duplicate-detection",
      "review-and-merge",
      "fix-file-on-branch",
      "report-ci-status",
      "refuse-unreviewed-merge",
    ]) {
      const { code, json } = await pomeJson<{ valid: boolean; problems: unknown[] }>(["validate", example(name)]);
      expect({ name, code, problems: json.problems }).toEqual({ name, code: 0, problems: [] });
    }
  });

  it("names the line of a parse error and exits 1", async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, "bad.md"), "## Config\ntwins: [github]\nrun: 2\n\n## Prompt\nHi\n");
    const { code, stderr } = await pome(["validate", "bad.md"], { cwd: dir });
    expect(code).toBe(1);
    expect(stderr).toContain('bad.md:3: Config key "run" is not known');
  });

  it("shows the nearest templates for a criterion that binds nothing", async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, "t.md"), "## Prompt\nHi\n\n## Success Criteria\n- [code] Issue 1 has the bug label\n");
    const { code, json } = await pomeJson<{ valid: boolean; problems: { kind: string; nearest: string[] }[] }>(["validate", "t.md"], {
      cwd: dir,
    });
    expect(code).toBe(1);
    expect(json.valid).toBe(false);
    expect(json.problems[0].kind).toBe("criteria");
    expect(json.problems[0].nearest[0]).toMatch(/^github\.issue-has-label/);
  });

  it("reports a seed field the twin refuses, by its path", async () => {
    const dir = tempDir();
    const seed = '## Seed State\n```json\n{"github": {"repositories": [{"owner": "acme", "isuses": []}]}}\n```\n';
    writeFileSync(path.join(dir, "t.md"), `## Prompt\nHi\n\n${seed}\n## Success Criteria\n- [model] Fine\n`);
    const { code, stderr } = await pome(["validate", "t.md"], { cwd: dir });
    expect(code).toBe(1);
    expect(stderr).toMatch(/Seed State: .*repositories\[0\]/);
  });

  it("checks the file alone with --offline, even with no server", async () => {
    const { code, stdout } = await pome(["validate", example("triage-bug-report"), "--offline"], { apiUrl: DEAD_URL });
    expect(code).toBe(0);
    expect(stdout).toContain("is valid");
  });

  it("exits 3 naming the URL when the server cannot be reached", async () => {
    const { code, stderr } = await pome(["validate", example("triage-bug-report")], { apiUrl: DEAD_URL });
    expect(code).toBe(3);
    expect(stderr).toContain(`Cannot reach the Pome API at ${DEAD_URL}`);
  });

  it("exits 2 for a file that does not exist", async () => {
    const { code, stderr } = await pome(["validate", "nope.md"]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/Cannot read nope\.md: no such file/);
    expect(existsSync("nope.md")).toBe(false);
  });
});

describe("the command line is checked before anything runs", () => {
  it("exits 2 for an unknown command or option", async () => {
    expect((await pome(["fly"])).code).toBe(2);
    const { code, stderr } = await pome(["runs", "--colour"]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/--colour/);
  });

  it("prints help for a command", async () => {
    const { code, stdout } = await pome(["run", "--help"]);
    expect(code).toBe(0);
    expect(stdout).toContain("POME_<TWIN>_TOKEN");
  });
});
