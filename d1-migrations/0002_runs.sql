-- Runs (one per finalized sandbox) and evaluations (asynchronous finalize jobs).
-- JSON columns hold what the API returns as is: criteria results, breakdown, steps, lanes, keys.
CREATE TABLE runs (
  id TEXT PRIMARY KEY,
  team_id TEXT NOT NULL REFERENCES teams(id),
  -- One run per sandbox: a second finalize returns this row instead of grading twice.
  session_id TEXT NOT NULL UNIQUE,
  task_name TEXT,
  task_hash TEXT,
  -- 0-100, or NULL when no criterion was evaluated (all_skipped = 1).
  satisfaction_score INTEGER,
  all_skipped INTEGER NOT NULL DEFAULT 0,
  group_id TEXT,
  baseline_group_id TEXT,
  environment TEXT NOT NULL,
  twins TEXT NOT NULL,
  agent_model TEXT NOT NULL,
  agent_sdk TEXT,
  agent_version TEXT,
  judge_model TEXT,
  stop_reason TEXT NOT NULL,
  exit_code INTEGER NOT NULL,
  duration_ms INTEGER NOT NULL,
  provenance TEXT NOT NULL DEFAULT 'hosted',
  source TEXT NOT NULL,
  tape_length INTEGER NOT NULL DEFAULT 0,
  criteria_results TEXT NOT NULL,
  criteria_breakdown TEXT NOT NULL,
  steps TEXT NOT NULL,
  lanes TEXT NOT NULL,
  summary TEXT,
  fix_prompt TEXT,
  scenario_prompt TEXT,
  expected_behavior TEXT,
  trace_s3_key TEXT,
  state_s3_key TEXT,
  state_keys TEXT NOT NULL DEFAULT '{}',
  state_initial_keys TEXT NOT NULL DEFAULT '{}',
  created_at TEXT NOT NULL,
  finished_at TEXT NOT NULL
);
CREATE INDEX runs_team_created ON runs (team_id, created_at);
CREATE INDEX runs_team_group ON runs (team_id, group_id, created_at);
CREATE INDEX runs_team_task ON runs (team_id, task_name, created_at);

CREATE TABLE evaluations (
  id TEXT PRIMARY KEY,
  team_id TEXT NOT NULL REFERENCES teams(id),
  session_id TEXT NOT NULL UNIQUE,
  status TEXT NOT NULL,
  run_id TEXT,
  error TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
