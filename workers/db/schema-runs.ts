// drizzle schema for d1-migrations/0002_runs.sql (the SQL file is the source of truth).
import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { twinList } from "./twin-list";

export const runs = sqliteTable("runs", {
  id: text("id").primaryKey(),
  teamId: text("team_id").notNull(),
  sessionId: text("session_id").notNull(),
  taskName: text("task_name"),
  taskHash: text("task_hash"),
  satisfactionScore: integer("satisfaction_score"),
  allSkipped: integer("all_skipped", { mode: "boolean" }).notNull(),
  groupId: text("group_id"),
  baselineGroupId: text("baseline_group_id"),
  environment: text("environment").notNull(),
  twins: twinList("twins").notNull(),
  agentModel: text("agent_model").notNull(),
  agentSdk: text("agent_sdk"),
  agentVersion: text("agent_version"),
  judgeModel: text("judge_model"),
  stopReason: text("stop_reason").notNull(),
  exitCode: integer("exit_code").notNull(),
  durationMs: integer("duration_ms").notNull(),
  provenance: text("provenance").notNull(),
  source: text("source").notNull(),
  tapeLength: integer("tape_length").notNull(),
  criteriaResults: text("criteria_results").notNull(),
  criteriaBreakdown: text("criteria_breakdown").notNull(),
  steps: text("steps").notNull(),
  lanes: text("lanes").notNull(),
  summary: text("summary"),
  fixPrompt: text("fix_prompt"),
  scenarioPrompt: text("scenario_prompt"),
  expectedBehavior: text("expected_behavior"),
  traceS3Key: text("trace_s3_key"),
  stateS3Key: text("state_s3_key"),
  stateKeys: text("state_keys").notNull(),
  stateInitialKeys: text("state_initial_keys").notNull(),
  createdAt: text("created_at").notNull(),
  finishedAt: text("finished_at").notNull(),
  // d1-migrations/0006_run_verdicts.sql
  verdict: text("verdict"),
  verdictReason: text("verdict_reason"),
  exitSignal: text("exit_signal"),
  stderrTail: text("stderr_tail"),
  regradedFrom: text("regraded_from"),
  flipped: text("flipped"),
});

export type RunRow = typeof runs.$inferSelect;
export type NewRunRow = typeof runs.$inferInsert;

export const evaluations = sqliteTable("evaluations", {
  id: text("id").primaryKey(),
  teamId: text("team_id").notNull(),
  sessionId: text("session_id").notNull(),
  status: text("status").notNull(),
  runId: text("run_id"),
  error: text("error"),
  createdAt: text("created_at").notNull(),
  updatedAt: text("updated_at").notNull(),
});

export type EvaluationRow = typeof evaluations.$inferSelect;
