import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LOCAL_KEY } from "../server";
import { connect, jsonOf, pomeUrl, tapeOf, textOf, type Sandbox } from "./helpers";

const TASK = `# Triage the timeout report

## Config
twins: [github]
runs: 2
passThreshold: 100%

## Prompt
Comment "triaged" on issue #1 in acme/api.

## Success Criteria
- [code] A comment containing "triaged" exists on issue #1 in \`acme/api\`
`;

interface Run {
  session_id: string;
  expires_at: string;
  agent_token: string;
  group_id: string;
  baseline_group_id: string | null;
  agent_version: string | null;
  examinee_task: { prompt: string; twins: string[] };
  examinee_launch: { transport: string; rest_urls: Record<string, string>; mcp_servers: { url: string }[]; env: Record<string, string> };
}
interface Finalized {
  run_id: string;
  score: number | null;
  criteria_results: { id: string; status: string; reason: string }[];
  dashboard_url: string;
}

let coach: Client;
let taskId: string;

const call = (name: string, args: Record<string, unknown>) => coach.callTool({ name, arguments: args });
/** The examinee's view of a run: its REST and MCP URLs and credential, as run_task hands them over. */
const examineeSandbox = (run: Run): Sandbox => ({
  session_id: run.session_id,
  agent_token: run.agent_token,
  per_twin: { github: { api_url: run.examinee_launch.rest_urls.github, mcp_url: run.examinee_launch.mcp_servers[0].url } },
  provider_credentials: {},
});

beforeAll(async () => {
  coach = await connect(`${pomeUrl()}/mcp`, LOCAL_KEY);
  taskId = jsonOf<{ task_id: string }>(await call("save_task", { markdown: TASK })).task_id;
});
afterAll(async () => {
  await coach?.close();
});

describe("the control MCP takes the team API key", () => {
  it("lists the coach's tools", async () => {
    const names = (await coach.listTools()).tools.map((t) => t.name).sort();
    expect(names).toEqual([
      "finalize_run",
      "get_report",
      "list_checks",
      "list_runs",
      "register_agent",
      "run_task",
      "run_trials",
      "save_task",
    ]);
  });

  it("refuses a missing or unknown key", async () => {
    await expect(connect(`${pomeUrl()}/mcp`, undefined)).rejects.toMatchObject({ code: 401 });
    await expect(connect(`${pomeUrl()}/mcp`, "pme_not_a_key")).rejects.toMatchObject({ code: 401 });
  });
});

describe("authoring: checks and stored tasks", () => {
  it("lists a twin's check vocabulary", async () => {
    const vocabulary = jsonOf<{ twin: string; checks: { id: string; template: string }[] }>(await call("list_checks", { twin: "github" }));
    expect(vocabulary.twin).toBe("github");
    expect(vocabulary.checks.map((c) => c.id)).toContain("github.issue-comment-contains");
  });

  it("returns the same task for the same markdown", async () => {
    expect(jsonOf<{ task_id: string }>(await call("save_task", { markdown: TASK })).task_id).toBe(taskId);
  });

  it("refuses a [code] criterion that binds no check, as the REST route does", async () => {
    const result = await call("save_task", { markdown: TASK.replace("A comment containing", "Someone wrote") });
    expect(result.isError).toBe(true);
    expect(JSON.parse(textOf(result))).toMatchObject({ error: { type: "validation_failed" } });
  });
});

describe("register_agent merges the twin allowlist and never removes", () => {
  it("adds twins on each registration and keeps the old ones", async () => {
    const first = jsonOf<{ agent_id: string; twins: string[] }>(await call("register_agent", { name: "merge-bot", twins: ["stripe"] }));
    const second = jsonOf<{ agent_id: string; twins: string[] }>(
      await call("register_agent", { name: "merge-bot", twins: ["github"], version: "v1" }),
    );
    const third = jsonOf<{ twins: string[]; version: string }>(await call("register_agent", { name: "merge-bot", twins: ["stripe"] }));
    expect(second.agent_id).toBe(first.agent_id);
    expect(second.twins.sort()).toEqual(["github", "stripe"]);
    expect(third.twins.sort()).toEqual(["github", "stripe"]);
    expect(third.version).toBe("v1");
  });

  it("refuses a run needing a twin the agent lacks, until it is registered", async () => {
    const agent = jsonOf<{ agent_id: string }>(await call("register_agent", { name: "stripe-only", twins: ["stripe"] }));
    const refused = await call("run_task", { task_id: taskId, agent_id: agent.agent_id, agent_version: "v1" });
    expect(refused.isError).toBe(true);
    expect(JSON.parse(textOf(refused))).toMatchObject({
      error: { type: "bad_request", details: { error: "twins_not_enabled", missing_twins: ["github"] } },
    });
    await call("register_agent", { name: "stripe-only", twins: ["github"] });
    const run = await call("run_task", { task_id: taskId, agent_id: agent.agent_id, agent_version: "v1" });
    expect(run.isError).toBeFalsy();
    await call("finalize_run", { session_id: jsonOf<Run>(run).session_id });
  });
});

describe("the run loop: run_task, finalize_run, get_report, list_runs", () => {
  it("hands the examinee its task and launch spec, never the criteria", async () => {
    const run = jsonOf<Run>(await call("run_task", { task_id: taskId, agent_version: "v1" }));
    expect(run.session_id).toMatch(/^ses_/);
    expect(run.group_id).toMatch(/^grp_[A-Za-z0-9]{12}$/);
    expect(run.agent_token.split(".")).toHaveLength(3);
    expect(run.examinee_task).toEqual({
      name: "Triage the timeout report",
      prompt: expect.stringContaining('Comment "triaged"'),
      twins: ["github"],
    });
    expect(JSON.stringify(run.examinee_task)).not.toContain("A comment containing");
    expect(run.examinee_launch).toMatchObject({
      transport: "rest",
      rest_urls: { github: expect.stringContaining(`/github/s/${run.session_id}`) },
    });
    expect(run.examinee_launch.env).toMatchObject({
      POME_AUTH_TOKEN: run.agent_token,
      POME_GITHUB_REST_URL: run.examinee_launch.rest_urls.github,
      POME_GITHUB_MCP_URL: `${run.examinee_launch.rest_urls.github}/mcp`,
      POME_GITHUB_TOKEN: expect.stringMatching(/^github_pat_/),
      POME_GROUP_ID: run.group_id,
    });
    const rest = await fetch(`${run.examinee_launch.rest_urls.github}/repos/acme/api`, {
      headers: { authorization: `Bearer ${run.agent_token}` },
    });
    expect(rest.status).toBe(200);
    await call("finalize_run", { session_id: run.session_id });
  });

  it("grades an idle examinee as failed, with the version stamped and a report", async () => {
    const run = jsonOf<Run>(await call("run_task", { task_id: taskId, agent_version: "v1" }));
    const graded = jsonOf<Finalized>(await call("finalize_run", { session_id: run.session_id, agent_model: "none" }));
    expect(graded.run_id).toMatch(/^run_/);
    expect(graded.score).toBe(0);
    expect(graded.criteria_results).toMatchObject([{ id: "c1", status: "failed" }]);
    expect(jsonOf<Finalized>(await call("finalize_run", { session_id: run.session_id })).run_id).toBe(graded.run_id);

    const report = textOf(await call("get_report", { run_id: graded.run_id }));
    expect(report).toContain("Score");
    expect(report).toContain("agent version: v1");
    expect(report).toContain("## Rerun after fixing");

    const listed = jsonOf<{
      runs: { id: string; group_id: string }[];
      reliability: { trials: number; passed: number; verdict: string };
      summary: string[];
    }>(await call("list_runs", { group_id: run.group_id }));
    expect(listed.runs.map((r) => r.id)).toEqual([graded.run_id]);
    expect(listed.reliability).toMatchObject({ trials: 1, passed: 0, verdict: "failed" });
    expect(listed.summary[0]).toBe("Pass rate 0% (0 of 1 graded trials), 95% Wilson interval 0%–79.3%; threshold 100%: FAILED");
  });

  it("reruns a fix as a new group linked to its baseline, and the examinee passes through the twin MCP", async () => {
    const baseline = jsonOf<Run>(await call("run_task", { task_id: taskId, agent_version: "v1" }));
    await call("finalize_run", { session_id: baseline.session_id });

    const rerun = jsonOf<Run>(await call("run_task", { task_id: taskId, agent_version: "v2", baseline_group_id: baseline.group_id }));
    expect(rerun.group_id).not.toBe(baseline.group_id);
    expect(rerun.baseline_group_id).toBe(baseline.group_id);
    const examinee = await connect(rerun.examinee_launch.mcp_servers[0].url, rerun.agent_token);
    const comment = await examinee.callTool({
      name: "create_comment",
      arguments: { owner: "acme", repo: "api", issue_number: 1, body: "triaged" },
    });
    expect(comment.isError).toBeFalsy();
    await examinee.close();
    expect((await tapeOf(examineeSandbox(rerun))).map((r) => r.transport)).toEqual(["mcp"]);

    const graded = jsonOf<Finalized>(await call("finalize_run", { session_id: rerun.session_id, baseline_group_id: baseline.group_id }));
    expect(graded.score).toBe(100);
    const report = textOf(await call("get_report", { run_id: graded.run_id }));
    expect(report).toContain(`baseline group \`${baseline.group_id}\``);
    expect(report).toContain("agent version: v2");

    // The rerun group's view carries the comparison with its baseline.
    const listed = jsonOf<{
      comparison: { baseline_group_id: string; fixed: number; pass_rate_change: number; test: { method: string; p_value: number } };
      summary: string[];
    }>(await call("list_runs", { group_id: rerun.group_id }));
    expect(listed.comparison).toMatchObject({
      baseline_group_id: baseline.group_id,
      fixed: 1,
      pass_rate_change: 1,
      test: { method: "fisher_exact_two_sided", p_value: 1 },
    });
    expect(listed.summary).toContain("Fisher's exact test (two-sided): p = 1.000; within the noise of 1 against 1 trials");
  });

  it("answers an unknown run with the control plane's 404 envelope", async () => {
    const result = await call("get_report", { run_id: "run_doesnotexist" });
    expect(result.isError).toBe(true);
    expect(JSON.parse(textOf(result))).toMatchObject({ error: { type: "not_found" } });
  });
});

describe("run_trials provisions N trials under one group", () => {
  it("starts every trial up front and list_runs reads them back together", async () => {
    const batch = jsonOf<{ group_id: string; n: number; pass_threshold: number; trials: Run[] }>(
      await call("run_trials", { n: 2, task_id: taskId, agent_version: "v1", group_id: "grp_trials01" }),
    );
    expect(batch).toMatchObject({ group_id: "grp_trials01", n: 2, pass_threshold: 100 });
    expect(new Set(batch.trials.map((t) => t.session_id)).size).toBe(2);
    for (const trial of batch.trials) await call("finalize_run", { session_id: trial.session_id });
    const listed = jsonOf<{
      runs: { session_id: string }[];
      reliability: { trials: number; pass_hat_k: { k: number; estimate: number }[] };
    }>(await call("list_runs", { group_id: "grp_trials01" }));
    expect(listed.runs.map((r) => r.session_id).sort()).toEqual(batch.trials.map((t) => t.session_id).sort());
    expect(listed.reliability.trials).toBe(2);
    expect(listed.reliability.pass_hat_k).toEqual([
      { k: 1, estimate: 0 },
      { k: 2, estimate: 0 },
    ]);
  });

  it("mints one group id for the whole batch when none is given", async () => {
    const batch = jsonOf<{ group_id: string; trials: Run[] }>(await call("run_trials", { n: 2, task_id: taskId }));
    expect(batch.group_id).toMatch(/^grp_/);
    for (const trial of batch.trials) await call("finalize_run", { session_id: trial.session_id });
  });
});
