// The shapes grading reads and writes. A run's criteria_results are these rows, stored as JSON.
import type { TwinId } from "../../durable-objects/twins/registry";
import type { SkipReason, TapeRow } from "../../durable-objects/twins/types";

export type Owner = "agent" | "task" | "grader" | "platform";

export type CriterionKind = "code" | "model";

export interface Criterion {
  id: string;
  text: string;
  kind: CriterionKind;
  /** Which twin a [code] criterion is graded against; defaults to the sandbox's first twin. */
  twin?: TwinId;
  /** Grade it even when the seed already satisfies it (inverse tasks: "leave it alone"). */
  always_scored?: boolean;
}

export type CriterionStatus = "passed" | "failed" | "skipped" | "unmatched";

export interface CriterionResult {
  id: string;
  text: string;
  kind: CriterionKind;
  twin: TwinId | null;
  /** The check a [code] criterion bound to; null for [model] and unmatched criteria. */
  check_id: string | null;
  status: CriterionStatus;
  passed: boolean;
  skipped: boolean;
  /** Names the evidence. For skipped rows it starts with the skip reason code. */
  reason: string;
  skip_reason: SkipReason | null;
  always_scored: boolean;
  /** Who owns a criterion that did not pass (see verdict.ts ownerOf); null when it passed. */
  owner: Owner | null;
}

/** What one twin contributed to the run. */
export interface TwinEvidence {
  /** The state the sandbox booted with; undefined when it could not be recovered. */
  initial: unknown;
  /** The state at the end of the run; undefined when no export exists for this twin. */
  final: unknown;
  /** This twin's rows only. */
  tape: readonly TapeRow[];
}

export interface GradingEvidence {
  twins: readonly TwinId[];
  perTwin: Partial<Record<TwinId, TwinEvidence>>;
  /** Every twin's rows in seq order, for the judge and the correlator. */
  tape: readonly TapeRow[];
}

/** What the judge is told about the task besides the evidence. */
export interface TaskContext {
  name: string | null;
  prompt: string | null;
  expectedBehavior: string | null;
}

export interface CriteriaBreakdown {
  total: number;
  /** passed + failed: the score's denominator. */
  evaluated: number;
  passed: number;
  failed: number;
  skipped: number;
  unmatched: number;
  skip_reasons: Partial<Record<SkipReason, number>>;
  by_kind: Record<CriterionKind, { total: number; passed: number; failed: number; skipped: number; unmatched: number }>;
}

export interface Score {
  /**
   * round(100 * passed / (passed + failed)). Null when nothing was evaluated (every criterion
   * skipped or unmatched): a 0 would read as a failed run in averages and trends, and a 100 as a
   * pass nobody earned.
   */
  score: number | null;
  all_skipped: boolean;
  breakdown: CriteriaBreakdown;
}
