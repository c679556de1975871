import type { RunView } from "./run-view";
import type { Score } from "./types";

/** The Score a stored run carries, rebuilt from its columns. */
export const scoreFromRun = (run: Pick<RunView, "satisfaction_score" | "all_skipped" | "criteria_breakdown">): Score => ({
  score: run.satisfaction_score,
  all_skipped: run.all_skipped,
  breakdown: run.criteria_breakdown,
});
