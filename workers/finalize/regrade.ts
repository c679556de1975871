// Grade again without running again (issue 38, point 4): a stored run's evidence (its tape and
// twin states, kept in R2 under its sandbox's keys) graded once more, with the same code finalize
// uses, after a task or a check was fixed. The answer is a new run linked to the old one
// (`regraded_from`) with the criteria whose status flipped; the old run is left as it was.
import { z } from "zod";
import { isTwinId } from "../../durable-objects/twins/registry";
import type { TwinId } from "../../durable-objects/twins/registry";
import type { RunRow } from "../db/schema-runs";
import { ApiError } from "../errors";
import { newId, sha256Hex } from "../ids";
import { criteriaForFinalize, parseTask } from "../tasks";
import { CRITERIA_LIMIT, CRITERION_TEXT_LIMIT } from "../tasks/markdown";
import { fromArchive } from "../grading/evidence";
import { gradeRun } from "../grading/grade-run";
import { taskPassScore } from "./finalize";
import type { Judge } from "../grading/judge/types";
import { insertRun } from "../grading/runs-store";
import type { Criterion, CriterionResult } from "../grading/types";

const criterion = z.strictObject({
  id: z.string().min(1).max(200),
  text: z.string().min(1).max(CRITERION_TEXT_LIMIT),
  kind: z.enum(["code", "model"]),
  twin: z.string().optional(),
  always_scored: z.boolean().optional(),
});

/** POST /v1/runs/:id/regrade: the fixed criteria, or the fixed task file; neither re-grades the run's own. */
export const RegradeBody = z.strictObject({
  criteria: z.array(criterion).min(1).max(CRITERIA_LIMIT).optional(),
  /** The fixed task file, as text. Its criteria replace the run's. */
  task_markdown: z.string().min(1).max(5_000_000).optional(),
});
export type RegradeInput = z.infer<typeof RegradeBody>;

export interface Flip {
  id: string;
  text: string;
  before: string;
  after: string;
}

/** Each new criterion's status against the old run's criterion with the same id (or text). */
export function flipsBetween(before: readonly CriterionResult[], after: readonly CriterionResult[]): Flip[] {
  return after.map((r) => {
    const was = before.find((b) => b.id === r.id) ?? before.find((b) => b.text === r.text);
    return { id: r.id, text: r.text, before: was?.status ?? "absent", after: r.status };
  });
}

function criteriaFor(run: RunRow, body: RegradeInput): { criteria: Criterion[]; markdown: string | null } {
  if (body.criteria) {
    const bad = body.criteria.find((c) => c.twin !== undefined && (!isTwinId(c.twin) || !run.twins.includes(c.twin)));
    if (bad) throw new ApiError("validation_failed", `criteria: "${bad.twin}" is not a twin of this run (${run.twins.join(", ")})`);
    return { criteria: body.criteria.map((c) => ({ ...c, twin: c.twin as TwinId | undefined })), markdown: null };
  }
  if (body.task_markdown !== undefined) {
    const parsed = parseTask(body.task_markdown);
    if (!parsed.ok) throw new ApiError("validation_failed", `task_markdown: ${parsed.errors[0]?.message ?? "does not parse"}`);
    const criteria = criteriaForFinalize(parsed.task).map((c) => ({ ...c, twin: c.twin as TwinId | undefined }));
    if (!criteria.length) throw new ApiError("validation_failed", "task_markdown: the task has no criteria to grade");
    return { criteria, markdown: body.task_markdown };
  }
  // The run's own criteria: a fixed check re-grades them as they were written.
  const own = JSON.parse(run.criteriaResults) as CriterionResult[];
  return {
    criteria: own.map((r) => ({
      id: r.id,
      text: r.text,
      kind: r.kind,
      ...(r.twin ? { twin: r.twin } : {}),
      ...(r.always_scored ? { always_scored: true } : {}),
    })),
    markdown: null,
  };
}

/** Re-grades a stored run from its evidence; the new run is written and returned with its flips. */
export async function regradeRun(env: Env, run: RunRow, body: RegradeInput, judge: Judge | undefined, taskMarkdown: string | null) {
  const twins = run.twins;
  const { criteria, markdown } = criteriaFor(run, body);
  const collected = await fromArchive({ bucket: env.EVIDENCE, teamId: run.teamId, sessionId: run.sessionId, twins }, "archive");
  if (!collected)
    throw new ApiError("conflict", "This run's stored evidence is not retrievable, so it cannot be re-graded", {
      reason: "evidence_absent",
    });
  const task = { name: run.taskName, prompt: run.scenarioPrompt, expectedBehavior: run.expectedBehavior };
  const { results, columns } = await gradeRun({
    twins,
    collected,
    criteria,
    task,
    judge,
    passScore: taskPassScore(markdown ?? taskMarkdown),
    examinee: { stop_reason: run.stopReason, exit_code: run.exitCode, exit_signal: run.exitSignal },
    story: { taskName: run.taskName, stopReason: run.stopReason, exitCode: run.exitCode, durationMs: run.durationMs },
  });
  const id = newId("run");
  const flipped = flipsBetween(JSON.parse(run.criteriaResults) as CriterionResult[], results);
  const stored = await insertRun(env, {
    ...run,
    id,
    // One run per sandbox is finalize's rule; a regrade is a second reading of the same sandbox,
    // so it carries its own key, named for both.
    sessionId: `${run.sessionId}~${id}`,
    // Out of the group: a second reading of one trial is not a second trial.
    groupId: null,
    baselineGroupId: null,
    taskHash: markdown ? await sha256Hex(markdown) : run.taskHash,
    judgeModel: judge?.model ?? null,
    ...columns,
    regradedFrom: run.id,
    flipped: JSON.stringify(flipped),
    finishedAt: new Date().toISOString(),
  });
  return stored;
}
