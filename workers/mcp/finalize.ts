// finalize_run: grade a sandbox through POST /v1/sandboxes/:id/finalize. The coach passes little
// more than the session id, so the REST body's required fields get honest defaults here, and the
// criteria come from the task the sandbox was started with, read by the same task parser.
import { criteriaForFinalize, type FinalizeCriterion } from "../tasks/wire";
import { parseTask } from "../tasks/markdown";
import { ApiError } from "../errors";
import type { V1 } from "./control-api";

export interface FinalizeRequest {
  session_id: string;
  stop_reason?: string;
  exit_code?: number;
  duration_ms?: number;
  agent_model?: string;
  agent_sdk?: string;
  agent_version?: string;
  baseline_group_id?: string;
  criteria?: FinalizeCriterion[];
}

interface SandboxView {
  created_at: string;
  task_markdown: string | null;
}

function criteriaOfTask(markdown: string | null): FinalizeCriterion[] {
  if (!markdown) return [];
  const parsed = parseTask(markdown);
  return parsed.ok ? criteriaForFinalize(parsed.task) : [];
}

export async function finalizeRun(v1: V1, req: FinalizeRequest): Promise<unknown> {
  const path = `/v1/sandboxes/${encodeURIComponent(req.session_id)}`;
  const sandbox = await v1.json<SandboxView>("GET", path);
  const criteria = req.criteria ?? criteriaOfTask(sandbox.task_markdown);
  if (!criteria.length)
    throw new ApiError("validation_failed", "criteria: the sandbox's task has no Success Criteria; pass `criteria` to grade it", {
      error: "empty_criteria",
      issues: [{ path: "criteria", message: "At least one criterion is required" }],
    });
  return v1.json("POST", `${path}/finalize`, {
    criteria,
    // The examinee stopped on its own when the coach finalizes without saying otherwise.
    stop_reason: req.stop_reason ?? "idle",
    exit_code: req.exit_code ?? 0,
    duration_ms: req.duration_ms ?? Math.max(0, Date.now() - Date.parse(sandbox.created_at)),
    // Informational and never verified; "unknown" says plainly that nobody declared it.
    agent_model: req.agent_model ?? "unknown",
    ...(req.agent_sdk !== undefined ? { agent_sdk: req.agent_sdk } : {}),
    ...(req.agent_version !== undefined ? { agent_version: req.agent_version } : {}),
    ...(req.baseline_group_id !== undefined ? { baseline_group_id: req.baseline_group_id } : {}),
  });
}
