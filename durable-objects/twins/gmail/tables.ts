// The Gmail twin's tables, all prefixed `gm_`. A message's labels live in their own table indexed
// by (label, date) so a labelled list page walks an index; the message row keeps its content in
// the structured form (or its raw text) and the derived fields Gmail serves.
export const GMAIL_MIGRATIONS: readonly string[] = [
  `CREATE TABLE gm_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
   CREATE TABLE gm_labels (
     id TEXT PRIMARY KEY, name TEXT NOT NULL, list_visibility TEXT NOT NULL, message_visibility TEXT NOT NULL,
     color TEXT, position INTEGER NOT NULL);
   CREATE UNIQUE INDEX gm_labels_name ON gm_labels (name COLLATE NOCASE);
   CREATE TABLE gm_messages (
     id TEXT PRIMARY KEY, thread_id TEXT NOT NULL, internal_date INTEGER NOT NULL, history_id INTEGER NOT NULL,
     label_ids TEXT NOT NULL, form TEXT NOT NULL, headers TEXT NOT NULL, content TEXT NOT NULL, raw TEXT,
     snippet TEXT NOT NULL, size_estimate INTEGER NOT NULL, is_draft INTEGER NOT NULL, hidden INTEGER NOT NULL,
     seq INTEGER NOT NULL, rfc822_id TEXT);
   CREATE INDEX gm_messages_rfc822 ON gm_messages (rfc822_id);
   CREATE INDEX gm_messages_thread ON gm_messages (thread_id, internal_date);
   CREATE INDEX gm_messages_date ON gm_messages (internal_date, id);
   CREATE INDEX gm_messages_seq ON gm_messages (seq);
   CREATE TABLE gm_message_labels (
     label_id TEXT NOT NULL, internal_date INTEGER NOT NULL, message_id TEXT NOT NULL,
     PRIMARY KEY (label_id, internal_date, message_id)) WITHOUT ROWID;
   CREATE TABLE gm_drafts (id TEXT PRIMARY KEY, message_id TEXT NOT NULL UNIQUE, seq INTEGER NOT NULL);
   CREATE TABLE gm_filters (id TEXT PRIMARY KEY, criteria TEXT NOT NULL, action TEXT NOT NULL, seq INTEGER NOT NULL);
   CREATE TABLE gm_history (
     seq INTEGER PRIMARY KEY AUTOINCREMENT, id INTEGER NOT NULL, message_id TEXT NOT NULL, thread_id TEXT NOT NULL,
     kind TEXT NOT NULL, label_ids TEXT NOT NULL, message_labels TEXT NOT NULL);
   CREATE INDEX gm_history_id ON gm_history (id);`,
  // What trash took away (INBOX, SPAM), so untrash can put it back as Gmail does.
  "ALTER TABLE gm_messages ADD COLUMN trashed_from TEXT",
  // Resumable upload sessions (store/uploads.ts): not part of the mailbox, never exported.
  `CREATE TABLE gm_uploads (
     id TEXT PRIMARY KEY, method TEXT NOT NULL, path TEXT NOT NULL, query TEXT NOT NULL, metadata TEXT NOT NULL,
     total INTEGER, received TEXT NOT NULL, received_bytes INTEGER NOT NULL, created_at INTEGER NOT NULL)`,
  // Upload sessions keep their bytes base64url-encoded in `received` (they kept text before): a
  // session opened before is dropped, and its client hears 404 and starts over, as after expiry.
  "DELETE FROM gm_uploads",
  // Mail kept as sent keeps its bytes (`raw_bytes`); `raw` holds only mail stored before, as UTF-8 text.
  "ALTER TABLE gm_messages ADD COLUMN raw_bytes BLOB",
];
