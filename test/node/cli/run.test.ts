// pome run and rerun against the running platform: the report and exit code, trials sharing a
// group, the examinee's environment, and reruns reporting flips (examples.test.ts runs every example).
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { agent, example, pome, pomeJson, tempDir } from "./helpers";

interface Trial {
  run_id: string;
  session_id: string;
  score: number | null;
  passed: boolean;
  stop_reason: string;
  exit_code: number;
  criteria_results: { text: string; status: string }[];
}
interface Outcome {
  group_id: string;
  baseline_group_id: string | null;
  passed: boolean;
  pass_rate: number;
  runs: Trial[];
  flips?: { text: string; before: string; after: string; changed: boolean }[];
}

const node = process.execPath;

describe("pome run prints the report and exits by the verdict", () => {
  it("prints the run's markdown report on stdout and progress on stderr", async () => {
    const { code, stdout, stderr } = await pome(["run", example("triage-bug-report"), "--", node, agent("triage-bug-report")]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^# Evaluation report — Triage a new bug report/);
    expect(stdout).toContain("**Score: 100/100**");
    expect(stderr).toContain("agent: labelled, assigned and commented");
    expect(stderr).toMatch(/Pass rate 100% .* PASSED/);
  });

  it("runs N trials under one group id and compares the pass rate with the threshold", async () => {
    const { code, json } = await pomeJson<Outcome>(["run", example("triage-bug-report"), "--runs", "2", "--", node, agent("do-nothing")]);
    expect(code).toBe(1);
    expect(json.group_id).toMatch(/^grp_/);
    expect(json.runs).toHaveLength(2);
    const listed = await pomeJson<{ runs: { id: string; group_id: string }[] }>(["runs", "--group-id", json.group_id]);
    expect(listed.json.runs.map((r) => r.id).sort()).toEqual(json.runs.map((r) => r.run_id).sort());
  });

  it("stamps the agent's version and model on the run", async () => {
    const { json } = await pomeJson<Outcome>(
      ["run", example("triage-bug-report"), "--agent-version", "v7", "--", node, agent("do-nothing")],
      {
        env: { POME_AGENT_MODEL: "model-under-test" },
      },
    );
    const run = await pomeJson<{ agent_version: string; agent_model: string; group_id: string }>(["report", json.runs[0].run_id]);
    expect(run.json).toMatchObject({ agent_version: "v7", agent_model: "model-under-test", group_id: json.group_id });
  });
});

describe("the examinee is launched with the sandbox in its environment", () => {
  it("gets the twin's URLs, credentials and prompt, and not the team key", async () => {
    const file = path.join(tempDir(), "env.json");
    const dump = `require("fs").writeFileSync(${JSON.stringify(file)}, JSON.stringify(process.env))`;
    await pome(["run", example("triage-bug-report"), "--", node, "-e", dump], { env: { POME_API_KEY: "pme_local_dev" } });
    const env = JSON.parse(readFileSync(file, "utf8")) as Record<string, string>;
    expect(env.POME_GITHUB_REST_URL).toMatch(/\/github\/s\/ses_/);
    expect(env.POME_GITHUB_MCP_URL).toBe(`${env.POME_GITHUB_REST_URL}/mcp`);
    expect(env.POME_GITHUB_TOKEN).toMatch(/^github_pat_/);
    expect(env.POME_AUTH_TOKEN.split(".")).toHaveLength(3);
    expect(env.POME_SESSION_ID).toMatch(/^ses_/);
    expect(env.POME_TASK_PROMPT).toContain("Issue #12 was opened");
    expect(env.POME_API_KEY).toBeUndefined();
  });

  it("stops the examinee at --timeout and still grades what it did", async () => {
    const { json } = await pomeJson<Outcome>([
      "run",
      example("triage-bug-report"),
      "--timeout",
      "2",
      "--",
      node,
      "-e",
      "setTimeout(() => {}, 60000)",
    ]);
    expect(json.runs[0].stop_reason).toBe("timeout");
    expect(json.runs[0].run_id).toMatch(/^run_/);
  });

  it("on Ctrl-C stops the examinee, finalizes what it did, and exits 130", async () => {
    let sent = false;
    const { code, json } = await pomeJson<Outcome & { interrupted: boolean }>(
      ["run", example("triage-bug-report"), "--", node, "-e", 'console.error("examinee running"); setTimeout(() => {}, 60000)'],
      {
        // Ctrl-C once the examinee says it runs: an event, not a guess at how long start-up takes.
        onStderr: (text, signal) => {
          if (!sent && text.includes("examinee running")) {
            sent = true;
            signal("SIGINT");
          }
        },
      },
    );
    expect(code).toBe(130);
    expect(json.interrupted).toBe(true);
    expect(json.runs[0]).toMatchObject({ stop_reason: "interrupted", run_id: expect.stringMatching(/^run_/) });
  });

  it("exits 4 when the command cannot start, and discards its sandbox", async () => {
    const { code, stderr } = await pome(["run", example("triage-bug-report"), "--", "./no-such-agent"]);
    expect(code).toBe(4);
    expect(stderr).toMatch(/Could not start the examinee `\.\/no-such-agent`/);
    const session = /sandbox (ses_\w+) is ready/.exec(stderr)?.[1];
    const { json } = await pomeJson<{ state: string }>(["sandbox", "get", session ?? "none"]);
    expect(json.state).toBe("expired");
  });

  it("refuses a run without a command after --", async () => {
    const { code, stderr } = await pome(["run", example("triage-bug-report")]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/after `--`/);
  });
});

describe("pome rerun opens a new group linked to its baseline", () => {
  it("reruns the baseline's task and prints the criteria that flipped", async () => {
    const baseline = await pomeJson<Outcome>(["run", example("triage-bug-report"), "--", node, agent("do-nothing")]);
    const { code, json, stdout } = await pomeJson<Outcome>([
      "rerun",
      baseline.json.group_id,
      "--agent-version",
      "v2",
      "--",
      node,
      agent("triage-bug-report"),
    ]);
    expect(code).toBe(0);
    expect(json.group_id).not.toBe(baseline.json.group_id);
    expect(json.baseline_group_id).toBe(baseline.json.group_id);
    const flipped = (json.flips ?? []).filter((f) => f.changed);
    expect(flipped.map((f) => `${f.before} → ${f.after}`)).toEqual(["failed → passed", "failed → passed", "failed → passed"]);
    expect(stdout).toContain("is assigned to `dana`");
    const run = await pomeJson<{ baseline_group_id: string }>(["report", json.runs[0].run_id]);
    expect(run.json.baseline_group_id).toBe(baseline.json.group_id);
  });

  it("exits 2 for a group with no runs", async () => {
    const { code, stderr } = await pome(["rerun", "grp_nothing_here", "--", node, agent("do-nothing")]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/grp_nothing_here has no runs/);
  });
});

describe("runs, report and trace read a run back", () => {
  it("lists the run, prints its report and downloads its tape", async () => {
    const { json } = await pomeJson<Outcome>(["run", example("duplicate-detection"), "--", node, agent("duplicate-detection")]);
    const runId = json.runs[0].run_id;
    expect((await pome(["runs", "--limit", "5"])).stdout).toContain(runId);
    expect((await pome(["report", runId])).stdout).toContain("Duplicate of #41");

    const dir = tempDir();
    const trace = await pomeJson<{ rows: number; file: string }>(["trace", runId], { cwd: dir });
    const rows = readFileSync(path.join(dir, trace.json.file), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { seq: number; operation: string });
    expect(rows.map((r) => r.seq)).toEqual(rows.map((_, i) => i + 1));
    expect(rows.some((r) => r.operation === "issues.createComment")).toBe(true);

    const state = await pome(["trace", runId, "--state", "--out", "-"]);
    expect(JSON.parse(state.stdout)).toHaveProperty("repositories");
  });

  it("answers an unknown run with exit 3 and the server's message", async () => {
    const { code, stderr } = await pome(["report", "run_nope"]);
    expect(code).toBe(3);
    expect(stderr).toMatch(/404 not_found/);
  });
});
