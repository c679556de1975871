// A run as the API returns it (GET /v1/runs/:id) and as the report renders it.
import type { TwinId } from "../../durable-objects/twins/types";
import type { Lane, Step } from "./correlate";
import type { CriteriaBreakdown, CriterionResult } from "./types";

export interface RunView {
  id: string;
  session_id: string;
  task_name: string | null;
  task_hash: string | null;
  /** 0–100, or null when no criterion was evaluated (see Score). */
  satisfaction_score: number | null;
  score: number | null;
  all_skipped: boolean;
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
