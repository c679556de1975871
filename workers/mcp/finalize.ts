// finalize_run: grade a sandbox through POST /v1/sandboxes/:id/finalize. The coach passes little
// more than the session id, so the REST body's required fields get honest defaults here; without
// `criteria` the route grades the criteria of the task the sandbox was started with.
import type { FinalizeCriterion } from "../tasks/wire";
import type { V1 } from "./control-api";

export interface FinalizeRequest {
  session_id: string;
  stop_reason?: string;
  exit_code?: number;
  exit_signal?: string;
  stderr_tail?: string;
  duration_ms?: number;
  agent_model?: string;
  agent_sdk?: string;
  agent_version?: string;
  baseline_group_id?: string;
  criteria?: FinalizeCriterion[];
}

interface SandboxView {
  created_at: string;
}

export async function finalizeRun(v1: V1, req: FinalizeRequest): Promise<unknown> {
  const path = `/v1/sandboxes/${encodeURIComponent(req.session_id)}`;
  const sandbox = await v1.json<SandboxView>("GET", path);
  return v1.json("POST", `${path}/finalize`, {
    ...(req.criteria !== undefined ? { criteria: req.criteria } : {}),
    // The examinee stopped on its own when the coach finalizes without saying otherwise.
    stop_reason: req.stop_reason ?? "idle",
    exit_code: req.exit_code ?? 0,
    // How a crash ended, kept on the run so its verdict names it (issue 38).
    ...(req.exit_signal !== undefined ? { exit_signal: req.exit_signal } : {}),
    ...(req.stderr_tail !== undefined ? { stderr_tail: req.stderr_tail } : {}),
    duration_ms: req.duration_ms ?? Math.max(0, Date.now() - Date.parse(sandbox.created_at)),
    // Informational and never verified; "unknown" says plainly that nobody declared it.
    agent_model: req.agent_model ?? "unknown",
    ...(req.agent_sdk !== undefined ? { agent_sdk: req.agent_sdk } : {}),
    ...(req.agent_version !== undefined ? { agent_version: req.agent_version } : {}),
    ...(req.baseline_group_id !== undefined ? { baseline_group_id: req.baseline_group_id } : {}),
  });
}
