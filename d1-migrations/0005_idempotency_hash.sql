-- What an idempotent create was asked for: a repeat of the key with a different body is refused
-- (422) instead of silently answering with the first sandbox.
ALTER TABLE sandboxes ADD COLUMN idempotency_hash TEXT;
