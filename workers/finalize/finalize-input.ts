// The body of POST /v1/sandboxes/:id/finalize, validated before anything is read or closed.
import { z } from "zod";
import type { TwinId } from "../../durable-objects/twins/registry";
import { TWIN_IDS } from "../../durable-objects/twins/registry";
import { ApiError } from "../errors";
import { parseWith } from "../body";
import { criteriaForFinalize, parseTask } from "../tasks";
import { CRITERIA_LIMIT, CRITERION_TEXT_LIMIT } from "../tasks/markdown";

/** The reference's limit: blobs never travel in this body. */
export const FINALIZE_BODY_LIMIT = 256 * 1024;

const key = z.string().min(1).max(1024);

/** How much of the examinee's stderr a run keeps: its last 4 KB, enough for a stack trace. */
export const STDERR_TAIL_LIMIT = 4096;

const criterion = z.strictObject({
  id: z.string().min(1).max(200),
  text: z.string().min(1).max(CRITERION_TEXT_LIMIT),
  kind: z.enum(["code", "model"]),
  twin: z.enum(TWIN_IDS, { message: `must be one of ${TWIN_IDS.join(", ")}` }).optional(),
  always_scored: z.boolean().optional(),
});

export const FinalizeBody = z.strictObject({
  criteria: z.array(criterion).min(1).max(CRITERIA_LIMIT),
  stop_reason: z.string().max(2000),
  exit_code: z.number().int(),
  /** The signal that ended the examinee (SIGKILL, SIGSEGV…), when one did. */
  exit_signal: z
    .string()
    .regex(/^SIG[A-Z0-9]{1,12}$/, "must be a signal name such as SIGKILL")
    .nullable()
    .optional(),
  /** The last lines the examinee wrote to stderr: kept on the run so a crash is named. Redacted. */
  stderr_tail: z.string().max(STDERR_TAIL_LIMIT).optional(),
  /** False when the examinee never started: the run is errored, whatever the twins hold. */
  examinee_started: z.boolean().optional(),
  duration_ms: z.number().int().nonnegative(),
  agent_model: z.string().min(1).max(200),
  agent_sdk: z.string().max(200).optional(),
  agent_version: z.string().min(1).max(200).optional(),
  scenario_name: z.string().max(200).optional(),
  scenario_prompt: z.string().max(20_000).optional(),
  expected_behavior: z.string().max(20_000).optional(),
  trace_storage_key: key.optional(),
  state_initial_storage_key: key.optional(),
  state_final_storage_key: key.optional(),
  // Ours reads the live sandbox, which the reference could not; "blob" reads uploaded blobs.
  source: z.enum(["twin-pull", "blob"]).default("twin-pull"),
  /** The group this run is a post-fix rerun of (the report's "Rerun after fixing" pre-fills it). */
  baseline_group_id: z
    .string()
    .regex(/^[A-Za-z0-9_-]{6,64}$/, "must be 6–64 of [A-Za-z0-9_-]")
    .optional(),
});

export type FinalizeInput = z.infer<typeof FinalizeBody>;

/**
 * A body that leaves `criteria` out is graded against the criteria of the task the sandbox was
 * started from (stored or inline); a task without criteria leaves the body as it was, to be refused.
 */
export function withTaskCriteria(raw: unknown, taskMarkdown: string | null): unknown {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw) || "criteria" in raw || !taskMarkdown) return raw;
  const parsed = parseTask(taskMarkdown);
  if (!parsed.ok || parsed.task.criteria.length === 0) return raw;
  return { ...raw, criteria: criteriaForFinalize(parsed.task) };
}

/** Parses the body and checks what the schema cannot: ids unique, twins in this sandbox. */
export function parseFinalizeBody(raw: unknown, twins: readonly TwinId[]): FinalizeInput {
  const given = typeof raw === "object" && raw !== null ? (raw as { criteria?: unknown }).criteria : null;
  if (given === undefined || (Array.isArray(given) && given.length === 0)) {
    const why = given === undefined ? "none were sent and the sandbox's task has none" : `send 1–${CRITERIA_LIMIT} criteria`;
    throw new ApiError("validation_failed", `criteria: a run with nothing to check is never graded; ${why}`, {
      error: "empty_criteria",
      issues: [{ path: "criteria", message: "At least one criterion is required" }],
    });
  }
  const body = parseWith(FinalizeBody, raw);
  const issues: { path: string; message: string }[] = [];
  const seen = new Set<string>();
  body.criteria.forEach((c, i) => {
    if (seen.has(c.id)) issues.push({ path: `criteria[${i}].id`, message: `Duplicate criterion id "${c.id}"` });
    seen.add(c.id);
    if (c.twin !== undefined && !twins.includes(c.twin))
      issues.push({ path: `criteria[${i}].twin`, message: `"${c.twin}" is not a twin of this sandbox (${twins.join(", ")})` });
  });
  if (body.source === "blob" && body.trace_storage_key === undefined)
    issues.push({ path: "trace_storage_key", message: 'source "blob" grades an uploaded tape; upload it and pass its key' });
  if (issues.length) throw new ApiError("validation_failed", `${issues[0].path}: ${issues[0].message}`, { issues });
  return body;
}
