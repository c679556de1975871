-- Why a sandbox closed (finalized, lifetime, idle, discarded), copied from its Durable Object, so
-- a listing can say "discarded" instead of "expired" for a sandbox thrown away before its time.
ALTER TABLE sandboxes ADD COLUMN close_reason TEXT;
-- Sandboxes started without a task once carried a placeholder task named "..": they have no task.
UPDATE sandboxes SET task_name = NULL, task_markdown = NULL WHERE task_name = '..' AND trim(task_markdown) = '# ..';
UPDATE runs SET task_name = NULL WHERE task_name = '..';
