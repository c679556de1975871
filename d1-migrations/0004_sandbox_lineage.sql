-- A sandbox remembers the agent it was started for and, for a rerun after a fix, the group of
-- the failing baseline, so the run finalize writes carries them without the caller repeating them.
ALTER TABLE sandboxes ADD COLUMN agent_id TEXT;
ALTER TABLE sandboxes ADD COLUMN baseline_group_id TEXT;
