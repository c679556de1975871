// The coach's tools on the control MCP. Each is a thin front over /v1 (see control-api.ts); the
// descriptions carry the run loop's rules, because they are all a coach model reads.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { DEFAULT_TWIN, TWIN_IDS } from "../../durable-objects/twins/registry";
import { guarded as guard, jsonResult, queryString } from "./control-api";
import { finalizeRun } from "./finalize";
import { listRuns } from "./list-runs";
import { runTask, runTrials, type RunContext } from "./runs";
import { textResult } from "./serve";

const twin = z.enum(TWIN_IDS);
const groupId = z.string().regex(/^[A-Za-z0-9_-]{6,64}$/, "6–64 of [A-Za-z0-9_-]");

const runArgs = {
  task_id: z.string().min(1).describe("The stored task to run (from save_task)"),
  allow_unbound: z
    .boolean()
    .optional()
    .describe(
      "Start even though some [code] criteria bind no check (the vocabulary changed since the task was saved); such runs are graded `incomplete`, never passed. Default false: refused with `unbound_criteria`, naming the nearest checks.",
    ),
  agent_id: z
    .string()
    .min(1)
    .optional()
    .describe("The registered agent (from register_agent); its twin allowlist must cover the task's twins"),
  agent_version: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe(
      "The examinee's version label, stamped on the run. Send it on every run; change it only when the examinee changes, never automatically",
    ),
  group_id: groupId
    .optional()
    .describe(
      "Trial group shared by every trial of one attempt at one task. Omit it to have a grp_ id minted; reuse the returned one for retries of the same examinee",
    ),
  baseline_group_id: groupId
    .optional()
    .describe(
      "For a rerun after a fix: the group id of the failing baseline. The rerun gets a new group_id; pass this again to finalize_run",
    ),
  transport: z
    .enum(["rest", "mcp"])
    .optional()
    .describe('How the examinee reaches the twins: "rest" (default) or "mcp" (a Claude managed agent)'),
};

const codePick = z.strictObject({
  kind: z.literal("code"),
  twin: twin.optional(),
  check: z.string().min(1).describe(`A check id from list_checks: <twin>.<check>, e.g. ${DEFAULT_TWIN}.no-unsupported-endpoint`),
  args: z.record(z.string(), z.string()).describe("The check's parameters, all as strings"),
  always_scored: z.boolean().optional(),
});
const modelPick = z.strictObject({ kind: z.literal("model"), text: z.string().min(1).max(2000).describe("A criterion for the LLM judge") });

const criterion = z.strictObject({
  id: z.string().min(1).max(200),
  kind: z.enum(["code", "model"]),
  text: z.string().min(1).max(4000),
  twin: twin.optional(),
  always_scored: z.boolean().optional(),
});

const READ = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
const WRITE = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };

export function registerControlTools(server: McpServer, ctx: RunContext & { requestId: string }): void {
  const { v1 } = ctx;
  const guarded = (body: () => Promise<CallToolResult>) => guard(ctx.requestId, body);

  server.registerTool(
    "list_checks",
    {
      description:
        "List a twin's [code] check vocabulary: each check's id, its exact English template, parameters with examples, and what it reads. A [code] criterion must be one of these templates filled in, or it is graded `unmatched`.",
      inputSchema: { twin: twin.describe(`The twin: one of ${TWIN_IDS.join(", ")}`) },
      annotations: READ,
    },
    (a) => guarded(async () => jsonResult(await v1.json("GET", `/v1/checks${queryString({ twin: a.twin })}`))),
  );

  server.registerTool(
    "save_task",
    {
      description:
        "Store a task (its markdown: # Title, ## Config, ## Prompt, ## Seed State, ## Success Criteria) and get its task_id. Instead of writing `## Success Criteria` you may pass `criteria` picks, rendered from the check vocabulary. Saving the same markdown twice returns the same task. Every [code] criterion must bind to a check, or the task is refused with the nearest templates.",
      inputSchema: {
        markdown: z.string().min(1).describe("The task file's markdown"),
        criteria: z
          .array(z.discriminatedUnion("kind", [codePick, modelPick]))
          .min(1)
          .max(200)
          .optional()
          .describe("Structured criteria, only when the markdown has no Success Criteria section"),
      },
      annotations: WRITE,
    },
    (a) =>
      guarded(async () =>
        jsonResult(await v1.json("POST", "/v1/tasks", { source: a.markdown, ...(a.criteria ? { criteria: a.criteria } : {}) })),
      ),
  );

  server.registerTool(
    "register_agent",
    {
      description:
        "Register the examinee agent, or add twins to its allowlist. Registering again with the same name merges the twins you pass into the allowlist and never removes one, so it heals a `twins not enabled` refusal from run_task.",
      inputSchema: {
        name: z.string().min(1).max(100).describe("The agent's name, unique in the team"),
        twins: z.array(twin).min(1).describe("Twins the agent may use (added to any it already has)"),
        version: z.string().min(1).max(200).optional().describe("The agent's current version label"),
      },
      annotations: { ...WRITE, idempotentHint: true },
    },
    (a) => guarded(async () => jsonResult(await v1.json("POST", "/v1/agents", a))),
  );

  server.registerTool(
    "run_task",
    {
      description:
        "Start one run of a stored task: seeds live twin sandboxes and returns session_id, expires_at, agent_token, examinee_task (the prompt and twins the examinee sees, no criteria) and examinee_launch (URLs, MCP servers and environment to launch the examinee with). The agent_token is a live credential: hand it to the examinee and nowhere else. Call finalize_run the moment the examinee goes idle. Refused with `twins not enabled` when the agent's allowlist lacks a twin the task needs.",
      inputSchema: runArgs,
      annotations: WRITE,
    },
    (a) => guarded(async () => jsonResult(await runTask(ctx, a))),
  );

  server.registerTool(
    "run_trials",
    {
      description:
        "Start N trials of one stored task under one shared group_id (minted when omitted), for a task whose Config sets `runs: N`. Returns trials[], each with its own session_id, agent_token and launch spec; launch the examinees side by side and finalize_run each the moment it idles. All trials share the team's sandbox quota. Without `concurrency` all N start at once, or none is kept when the quota cannot hold them. With `concurrency: C` at most C start now (fewer when the quota has fewer free slots); the rest come back as `pending_trials` with `next`: after finalizing, call run_trials again with next's first_trial and group_id. Afterwards list_runs(group_id) gives the pass rate to compare with pass_threshold.",
      inputSchema: {
        n: z.number().int().min(1).max(50).describe("How many trials in all"),
        concurrency: z
          .number()
          .int()
          .min(1)
          .max(50)
          .optional()
          .describe("How many trials to run at once: start at most this many now, within the team's free sandbox slots"),
        first_trial: z
          .number()
          .int()
          .min(1)
          .max(50)
          .optional()
          .describe("For a later batch: the trial to start from (next.first_trial); needs the batch's group_id"),
        ...runArgs,
      },
      annotations: WRITE,
    },
    (a) => guarded(async () => jsonResult(await runTrials(ctx, a))),
  );

  server.registerTool(
    "finalize_run",
    {
      description:
        "Grade a run and close its sandbox, from the live tape and twin state. Call it the instant the examinee idles. Returns run_id, verdict (passed | failed | incomplete | errored) with verdict_reason, score (/100), criteria_results with a reason and an owner (agent | task | grader | platform) each, judge_model and dashboard_url. A non-zero exit_code or an exit_signal makes the run failed, naming the crash. Criteria default to the task's own. Finalizing again returns the same run.",
      inputSchema: {
        session_id: z.string().min(1).describe("The ses_ id from run_task"),
        stop_reason: z.string().max(2000).optional().describe('Why the examinee stopped (default "idle")'),
        exit_code: z.number().int().optional().describe("The examinee's exit code (default 0); non-zero makes the run failed as a crash"),
        exit_signal: z
          .string()
          .regex(/^SIG[A-Z0-9]{1,12}$/)
          .optional()
          .describe("The signal that ended the examinee (SIGKILL, SIGSEGV…), when one did"),
        stderr_tail: z.string().max(4096).optional().describe("The last of what the examinee wrote to stderr, kept on the run (redacted)"),
        duration_ms: z.number().int().nonnegative().optional().describe("How long it ran (default: since the sandbox started)"),
        agent_model: z.string().min(1).max(200).optional().describe("The examinee's model, informational"),
        agent_sdk: z.string().max(200).optional(),
        agent_version: z.string().min(1).max(200).optional().describe("Overrides the version given to run_task"),
        baseline_group_id: groupId.optional().describe("For a post-fix rerun: the baseline group id given to run_task"),
        criteria: z.array(criterion).min(1).max(200).optional().describe("Criteria to grade instead of the task's own"),
      },
      annotations: { ...WRITE, destructiveHint: true, idempotentHint: true },
    },
    (a) => guarded(async () => jsonResult(await finalizeRun(v1, a))),
  );

  server.registerTool(
    "get_report",
    {
      description:
        "The run's report in markdown: score with its denominator, the criteria table (kind, status, reason), provenance, the dashboard link, a Handoff (fix prompt) section naming what failed, and a Rerun after fixing section pre-filling a new group id and baseline_group_id.",
      inputSchema: { run_id: z.string().min(1).describe("The run_ id from finalize_run") },
      annotations: READ,
    },
    (a) => guarded(async () => textResult(await v1.text("GET", `/v1/runs/${encodeURIComponent(a.run_id)}/report.md`))),
  );

  server.registerTool(
    "list_runs",
    {
      description:
        "List runs, newest first, as compact rows (id, session_id, task_name, satisfaction_score, group_id, agent_model, times) under `runs`. With group_id it is one trial group's view and adds `reliability` (trials, passed, errored trials shown but left out of the fraction, pass_rate with its 95% Wilson interval, pass^k for k = 1…n, the verdict against the task's passThreshold, per-criterion pass rates with `flaky`), `summary` (the same in sentences), and, when the group is a rerun naming a baseline_group_id, `comparison`: per-criterion flips (failed→passed, passed→failed) and Fisher's exact test of whether the pass rate moved more than the noise.",
      inputSchema: {
        group_id: groupId.optional().describe("Only this trial group"),
        task_name: z.string().min(1).optional().describe("Only runs of this task"),
        limit: z.number().int().min(1).max(200).optional().describe("How many rows, 1–200 (default 50)"),
      },
      annotations: READ,
    },
    (a) => guarded(async () => jsonResult(await listRuns(v1, a))),
  );
}
