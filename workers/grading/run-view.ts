// A run as the API returns it (GET /v1/runs/:id) and as the report renders it.
import type { TwinId } from "../../durable-objects/twins/registry";
import type { Lane, Step } from "./correlate";
import type { CriteriaBreakdown, CriterionResult } from "./types";
import type { RunVerdict } from "./verdict";

export interface RunView {
  id: string;
  session_id: string;
  task_name: string | null;
  task_hash: string | null;
  /** 0–100, or null when no criterion was evaluated (see Score). */
  satisfaction_score: number | null;
  score: number | null;
  all_skipped: boolean;
  /** passed | failed | incomplete | errored (verdict.ts): what the score alone cannot say. */
  verdict: RunVerdict;
  /** Why: the criteria, the crash or the configuration behind the verdict. */
  verdict_reason: string;
  criteria_results: CriterionResult[];
  criteria_breakdown: CriteriaBreakdown;
  group_id: string | null;
  baseline_group_id: string | null;
  environment: string;
  twins: TwinId[];
  agent_model: string;
  agent_sdk: string | null;
  agent_version: string | null;
  judge_model: string | null;
  stop_reason: string;
  exit_code: number;
  /** The signal that ended the examinee, when one did. */
  exit_signal: string | null;
  /** The last of what the examinee wrote to stderr (redacted), when the runner sent it. */
  stderr_tail: string | null;
  /** The run this one re-graded from its stored evidence; null for a run of its own. */
  regraded_from: string | null;
  /** For a regrade: the criteria whose status changed from the run it re-graded. */
  flipped: { id: string; text: string; before: string; after: string }[] | null;
  duration_ms: number;
  provenance: "hosted";
  /** Where the evidence came from: the live sandbox, its R2 archive, or uploaded blobs. */
  source: "twin-pull" | "archive" | "blob";
  tape_length: number;
  steps: Step[];
  lanes: Lane[];
  summary: string | null;
  fix_prompt: string | null;
  scenario_prompt: string | null;
  expected_behavior: string | null;
  /** Storage keys, not URLs: /trace and /state exchange them for signed downloads. */
  trace_s3_key: string | null;
  state_s3_key: string | null;
  events_jsonl_url: string | null;
  state_keys: Partial<Record<TwinId, string>>;
  state_initial_keys: Partial<Record<TwinId, string>>;
  dashboard_url: string;
  created_at: string;
  finished_at: string;
}
