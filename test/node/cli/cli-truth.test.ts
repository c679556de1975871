// The CLI says what is true: a discarded sandbox is "discarded", a sandbox can be finalized by
// hand, the commands it suggests work from a fresh clone, errors blame what the user actually
// set, a seed's JSON error names the file's line, and every listing shows what it claims to.
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { agent, CLI, example, pome, pomeJson, tempDir } from "./helpers";

const node = process.execPath;

interface Sandbox {
  session_id: string;
  id: string;
  state: string;
  close_reason: string | null;
  task_name: string | null;
}

/** The `export NAME='value'` lines of `pome sandbox create --env`, as an environment. */
function exportsToEnv(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [, name, value] of text.matchAll(/^export (\w+)='((?:[^']|'\\'')*)'$/gm)) env[name] = value.replace(/'\\''/g, "'");
  return env;
}

function runAgent(file: string, env: Record<string, string>): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(node, [file], { env: { ...process.env, ...env }, stdio: "ignore" });
    child.on("error", reject);
    child.on("exit", resolve);
  });
}

describe("pome sandbox says discarded, and finalizes by hand", () => {
  it("lists a discarded sandbox as discarded with when it closed, and a sandbox without a task as having none", async () => {
    const created = await pomeJson<Sandbox>(["sandbox", "create"]);
    expect(created.code).toBe(0);
    const id = created.json.session_id;
    expect(created.json.task_name).toBeNull();
    const deleted = await pome(["sandbox", "delete", id, "--discard"]);
    expect(deleted.stdout).toContain(`Sandbox ${id} is closed (discarded).`);

    const row = (await pome(["sandbox", "list", "--limit", "20"])).stdout.split("\n").find((l) => l.startsWith(id)) ?? "";
    expect(row).toMatch(new RegExp(`^${id}\\s+discarded\\s+github\\s`));
    expect(row).not.toContain("expired");
    expect(row).toContain("(no task)");
    const [, closedAt] = /(\S+)\s+\(no task\)$/.exec(row) ?? [];
    expect(Date.parse(closedAt)).toBeLessThanOrEqual(Date.now());

    const got = await pome(["sandbox", "get", id]);
    expect(got.stdout.split("\n")[0]).toMatch(new RegExp(`^${id}  discarded  closed \\S+  \\(no task\\)$`));
  });

  it("names pome sandbox finalize when a delete is refused, and finalize grades the sandbox's task", async () => {
    const created = await pome(["sandbox", "create", "--task", example("triage-bug-report"), "--env"]);
    const env = exportsToEnv(created.stdout);
    const id = env.POME_SESSION_ID;
    expect(id).toMatch(/^ses_/);

    const refused = await pome(["sandbox", "delete", id]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`pome sandbox finalize ${id}`);

    expect(await runAgent(agent("triage-bug-report"), env)).toBe(0);
    const graded = await pome(["sandbox", "finalize", id, "--agent-version", "by-hand"]);
    expect(graded.code, graded.stderr).toBe(0);
    expect(graded.stdout).toMatch(/^# Evaluation report — Triage a new bug report/);
    expect(graded.stdout).toContain("**Score: 100/100**");
    const after = await pomeJson<Sandbox>(["sandbox", "get", id]);
    expect(after.json).toMatchObject({ state: "done", close_reason: "finalized" });
  });

  it("finalizes a sandbox started without a task only with --task, and says so", async () => {
    const id = (await pomeJson<Sandbox>(["sandbox", "create"])).json.session_id;
    const refused = await pome(["sandbox", "finalize", id]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/started without a task.*--task/);
    const graded = await pomeJson<{ run_id: string; verdict: string; verdict_reason: string }>([
      "sandbox",
      "finalize",
      id,
      "--task",
      example("triage-bug-report"),
    ]);
    // Graded against the task's criteria, in the default world the sandbox booted: the task's
    // repository is not there, so the run is incomplete (exit 5), and says why.
    expect(graded.code).toBe(5);
    expect(graded.json.verdict).toBe("incomplete");
    expect(graded.json.verdict_reason).toMatch(/name a subject the seed does not have/);
  });
});

describe("pome init suggests commands that work from a fresh clone", () => {
  it("suggests npx pome inside the repository", async () => {
    const file = path.join(tempDir(), "task.md");
    const { code, stdout } = await pome(["init", file, "--twin", "github"]);
    expect(code).toBe(0);
    expect(stdout).toContain(`\`npx pome validate ${file}\``);
    expect(stdout).not.toMatch(/`pome validate/);
  });

  it("suggests node with the CLI's path outside it, and that command validates the file", async () => {
    const dir = tempDir();
    const { json } = await pomeJson<{ next: string[] }>(["init", "--twin", "github"], { cwd: dir });
    const [command, cli, ...rest] = json.next[0].split(" ");
    expect([command, ...rest]).toEqual(["node", "validate", "task.md"]);
    expect(path.resolve(dir, cli)).toBe(CLI);
    // The suggested command, run where it was suggested.
    const validated = await pome(["validate", "task.md"], { cwd: dir });
    expect(validated.code, validated.stderr).toBe(0);
  });
});

describe("errors blame what the user set", () => {
  it("blames --api-key, not POME_API_KEY, for a key given on the command line", async () => {
    const { code, stderr } = await pome(["runs", "--api-key", "pme_nope"]);
    expect(code).toBe(3);
    expect(stderr).toContain("Check the key given with --api-key");
    expect(stderr).not.toContain("POME_API_KEY");
  });

  it("pome doctor blames --api-key too", async () => {
    const { json } = await pomeJson<{ steps: { name: string; ok: boolean; detail: string }[] }>(["doctor", "--api-key", "pme_nope"]);
    expect(json.steps.at(-1)?.detail).toContain("the key from --api-key is refused");
    expect(json.steps.at(-1)?.detail).not.toContain("POME_API_KEY");
  });

  it("pome doctor marks a warning with !, never ✓, and a twin that refused the probe is a warning", async () => {
    // The local key does not look like a team key: the config step passes with a warning.
    const shaped = await pome(["doctor"], { env: { POME_API_KEY: "local-dev-key" } });
    expect(shaped.stderr).toMatch(/^! config .*warning: the key does not start with pme_/m);
    expect(shaped.stderr).not.toMatch(/^✓ config/m);

    // A twin whose parameterless GET routes all answer 4xx reached routing, with a warning.
    const { code, stderr, json } = await pomeJson<{ steps: { name: string; warning?: string; detail: string }[] }>([
      "doctor",
      "--twin",
      "linear",
    ]);
    expect(code).toBe(0);
    const routing = json.steps.find((s) => s.name === "routing");
    expect(routing?.detail).toMatch(/reached the twin \(4\d\d\)/);
    expect(routing?.warning).toMatch(/refused this probe with 4\d\d/);
    expect(stderr).toMatch(/^! routing /m);
    expect(stderr).not.toMatch(/^✓ routing .*\(4\d\d\)/m);
  });
});

describe("a seed's JSON error names the task file's line", () => {
  it("points at the line of the missing comma, not the line inside the JSON block", async () => {
    const dir = tempDir();
    const lines = [
      "# Bad comma",
      "",
      "## Config",
      "twins: [github]",
      "",
      "## Prompt",
      "Do it.",
      "",
      "## Seed State",
      "```json",
      "{",
      '  "github": {',
      '    "authenticated_user": "bot"',
      '    "users": []',
      "  }",
      "}",
      "```",
      "",
      "## Success Criteria",
      "- [model] It is done.",
    ];
    writeFileSync(path.join(dir, "task.md"), `${lines.join("\n")}\n`);
    const { code, stderr } = await pome(["validate", "task.md"], { cwd: dir });
    expect(code).toBe(1);
    // Line 14 is `"users": []`, where the parser met the second property without a comma.
    expect(stderr).toMatch(/task\.md:14: Seed State is not valid JSON: Expected ',' or '}' after property value at column 5/);
    expect(stderr).not.toMatch(/position \d+/);
  });
});

describe("pome rerun says each thing once", () => {
  it("prints each changed criterion once and one pass-rate line", async () => {
    const baseline = await pomeJson<{ group_id: string }>(["run", example("triage-bug-report"), "--", node, agent("do-nothing")]);
    const { code, stdout } = await pome(["rerun", baseline.json.group_id, "--agent-version", "v2", "--", node, agent("triage-bug-report")]);
    expect(code).toBe(0);
    expect(stdout.match(/Pass rate/g)).toHaveLength(1);
    for (const criterion of ["is assigned to `dana`", 'A comment containing "Triage:"']) expect(stdout.split(criterion)).toHaveLength(2);
    expect(stdout).not.toMatch(/failed → passed/);
    expect(stdout).toMatch(new RegExp(`Against baseline ${baseline.json.group_id}: 0% → 100% \\(\\+100 points\\)`));
  });
});

describe("listings show what they claim", () => {
  it("pome checks with no twin lists the twins", async () => {
    const { code, stdout } = await pome(["checks"]);
    expect(code).toBe(0);
    for (const twin of ["github (default)", "stripe", "slack", "gmail", "linear"]) expect(stdout).toContain(twin);
  });

  it("a wrongly cased twin is a usage error naming the right one", async () => {
    const { code, stderr } = await pome(["checks", "GitHub"]);
    expect(code).toBe(2);
    expect(stderr).toContain("did you mean github?");
    expect((await pome(["checks", "jira"])).code).toBe(2);
  });

  it("pome tasks shows each task's twins", async () => {
    const { stdout } = await pome(["tasks"]);
    expect(stdout.split("\n")[0]).toMatch(/^file\s+twins\s+task$/);
    expect(stdout).toMatch(/^triage-bug-report\.md\s+github\s+Triage a new bug report$/m);
    expect(stdout).toMatch(/^ask-the-carrier\.md\s+gmail\s+/m);
  });

  it("pome runs shows each run's verdict and agent version", async () => {
    await pome(["run", example("triage-bug-report"), "--agent-version", "listing-v7", "--", node, agent("do-nothing")]);
    const { stdout } = await pome(["runs", "--limit", "1"]);
    const [header, row] = stdout.split("\n");
    expect(header).toMatch(/^run\s+created\s+verdict\s+score\s+group\s+version\s+model\s+task$/);
    expect(row).toMatch(/\sfailed\s+40\s+grp_\w+\s+listing-v7\s/);
  });
});

describe("pome doctor's probe sandbox is ad hoc", () => {
  it("starts its sandbox without a task and discards it", async () => {
    await pome(["doctor"]);
    const [newest] = (await pomeJson<Sandbox[]>(["sandbox", "list", "--limit", "1"])).json;
    expect(newest).toMatchObject({ task_name: null, close_reason: "discarded" });
  });
});
