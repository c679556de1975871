-- Verdicts with owners (issue 38): a run is passed, failed, incomplete or errored, and says why.
-- NULL in rows written before this migration: the API recomputes them from criteria_results.
ALTER TABLE runs ADD COLUMN verdict TEXT;
ALTER TABLE runs ADD COLUMN verdict_reason TEXT;
-- How the examinee ended beyond its exit code: the signal that killed it, the tail of its stderr.
ALTER TABLE runs ADD COLUMN exit_signal TEXT;
ALTER TABLE runs ADD COLUMN stderr_tail TEXT;
-- A regrade is a new run graded from an older run's stored evidence: which run, and what flipped.
ALTER TABLE runs ADD COLUMN regraded_from TEXT;
ALTER TABLE runs ADD COLUMN flipped TEXT;
CREATE INDEX runs_team_regraded ON runs (team_id, regraded_from);
