// The grading entry `pome grade` runs offline: the server's own grading code (evaluate, score,
// verdict, narrate, report), bundled by cli/lib/grader.mjs with esbuild into one ES module for
// Node. Bundled, not imported: the grading modules reach the twin registry through extension-less
// TypeScript imports, which Node's type stripping cannot resolve. Nothing here grades differently
// from finalize (workers/finalize/finalize.ts): both grade through gradeRun (grade-run.ts).
import type { TwinId } from "../../durable-objects/twins/registry";
import type { TapeRow } from "../../durable-objects/twins/types";
import { isTwinId } from "../../durable-objects/twins/registry";
import { parseTapeJsonl } from "../../workers/grading/evidence";
import { gradeRun } from "../../workers/grading/grade-run";
import { renderReport } from "../../workers/grading/report";
import type { RunView } from "../../workers/grading/run-view";
import type { Criterion } from "../../workers/grading/types";
import { missingForRun, namesTwins, parseTask } from "../../workers/tasks/markdown";
import { criteriaForFinalize } from "../../workers/tasks/wire";

/** How the examinee ended, when the evidence folder says (run.json); a clean exit otherwise. */
export interface OfflineRun {
  id?: string;
  session_id?: string;
  twins?: string[];
  stop_reason?: string;
  exit_code?: number;
  exit_signal?: string | null;
  stderr_tail?: string | null;
  duration_ms?: number;
  agent_model?: string;
  agent_version?: string | null;
  group_id?: string | null;
}

export interface OfflineInput {
  markdown: string;
  /** events.jsonl as downloaded. */
  tapeText: string;
  initial: Partial<Record<string, unknown>>;
  final: Partial<Record<string, unknown>>;
  run: OfflineRun;
  /** Where the evidence was read from, for the report. */
  folder: string;
}

export type OfflineResult = { ok: true; view: RunView; report: string } | { ok: false; problems: string[] };

/** Said in the verdict: offline there is no judge, by construction rather than by configuration. */
export const OFFLINE_NOTE = "graded offline by pome grade: [model] criteria are excluded (no judge offline)";

/** The twins to grade: the task's, else the run's, else those the folder holds a state for. */
function twinsOf(input: OfflineInput, taskTwins: readonly string[]): TwinId[] {
  const named = taskTwins.length ? taskTwins : (input.run.twins ?? []);
  const found = named.length ? named : [...Object.keys(input.final), ...Object.keys(input.initial)];
  return [...new Set(found)].filter(isTwinId);
}

export async function gradeOffline(input: OfflineInput): Promise<OfflineResult> {
  const taskTwins = namesTwins(input.markdown) ? [] : (input.run.twins ?? []);
  const parsed = parseTask(input.markdown, taskTwins);
  if (!parsed.ok) return { ok: false, problems: parsed.errors.map((e) => `${e.line !== undefined ? `line ${e.line}: ` : ""}${e.message}`) };
  const task = parsed.task;
  const missing = missingForRun(task).filter((e) => /criteri/i.test(e.message));
  if (missing.length) return { ok: false, problems: missing.map((e) => e.message) };
  const twins = twinsOf(input, task.config.twins);
  if (!twins.length) return { ok: false, problems: ["the task names no twin and the evidence folder holds no twin state"] };
  let tape: TapeRow[];
  try {
    tape = parseTapeJsonl(input.tapeText, "events.jsonl");
  } catch (err) {
    return { ok: false, problems: [err instanceof Error ? err.message : String(err)] };
  }
  const criteria: Criterion[] = criteriaForFinalize(task).map((c) => ({ ...c, twin: c.twin as TwinId | undefined }));
  const end = {
    stop_reason: input.run.stop_reason ?? "exited",
    exit_code: input.run.exit_code ?? 0,
    exit_signal: input.run.exit_signal ?? null,
  };
  // Only [model] criteria read the task's context, and offline there is no judge to read it.
  const { results, score, verdict, steps, lanes, columns } = await gradeRun({
    twins,
    collected: { tape, initial: input.initial, final: input.final },
    criteria,
    task: { name: task.name ?? null, prompt: task.prompt, expectedBehavior: null },
    judge: undefined,
    passScore: task.config.passScore,
    examinee: end,
    story: { taskName: task.name ?? null, stopReason: end.stop_reason, exitCode: end.exit_code, durationMs: input.run.duration_ms ?? 0 },
  });
  const now = new Date().toISOString();
  const hasModel = criteria.some((c) => c.kind === "model");
  const view: RunView = {
    id: input.run.id ? `${input.run.id} (graded offline)` : "offline",
    session_id: input.run.session_id ?? input.folder,
    task_name: task.name ?? null,
    task_hash: null,
    satisfaction_score: score.score,
    score: score.score,
    all_skipped: score.all_skipped,
    verdict: verdict.verdict,
    verdict_reason: hasModel ? `${verdict.reason} (${OFFLINE_NOTE})` : verdict.reason,
    criteria_results: results,
    criteria_breakdown: score.breakdown,
    group_id: null,
    baseline_group_id: null,
    environment: "offline",
    twins,
    agent_model: input.run.agent_model ?? "unknown",
    agent_sdk: null,
    agent_version: input.run.agent_version ?? null,
    judge_model: null,
    stop_reason: end.stop_reason,
    exit_code: end.exit_code,
    exit_signal: end.exit_signal,
    stderr_tail: input.run.stderr_tail ?? null,
    regraded_from: null,
    flipped: null,
    duration_ms: input.run.duration_ms ?? 0,
    provenance: "hosted",
    source: "blob",
    tape_length: tape.length,
    steps,
    lanes,
    summary: columns.summary,
    fix_prompt: columns.fixPrompt,
    scenario_prompt: task.prompt,
    expected_behavior: null,
    trace_s3_key: null,
    state_s3_key: null,
    events_jsonl_url: null,
    state_keys: {},
    state_initial_keys: {},
    dashboard_url: `file://${input.folder}`,
    created_at: now,
    finished_at: now,
  };
  return { ok: true, view, report: renderReport(view) };
}
