// The Slack twin's tables, all prefixed `sl_`. What a call looks up by is indexed (ids, names,
// emails, (channel, ts), threads, a user's memberships), so point reads and writes do not grow
// with the workspace and a page of a list costs the page. Slack's nested objects that are only
// ever read whole (a message's blocks, a channel's topic) are JSON in a `data` column.

export const SLACK_MIGRATIONS: readonly string[] = [
  `CREATE TABLE sl_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
   CREATE TABLE sl_users (id TEXT PRIMARY KEY, name TEXT NOT NULL UNIQUE, email TEXT, data TEXT NOT NULL);
   CREATE INDEX sl_users_email ON sl_users (email COLLATE NOCASE);
   CREATE TABLE sl_channels (
     id TEXT PRIMARY KEY, name TEXT UNIQUE, is_im INTEGER NOT NULL, im_user TEXT, is_private INTEGER NOT NULL,
     is_archived INTEGER NOT NULL, created INTEGER NOT NULL, data TEXT NOT NULL);
   CREATE INDEX sl_channels_im ON sl_channels (im_user);
   CREATE TABLE sl_members (channel TEXT NOT NULL, user TEXT NOT NULL, PRIMARY KEY (channel, user));
   CREATE INDEX sl_members_user ON sl_members (user, channel);
   CREATE TABLE sl_messages (
     channel TEXT NOT NULL, ts TEXT NOT NULL, thread_ts TEXT, user TEXT NOT NULL, in_history INTEGER NOT NULL,
     text TEXT NOT NULL, data TEXT NOT NULL, reply_count INTEGER NOT NULL DEFAULT 0, reply_users TEXT NOT NULL DEFAULT '[]',
     latest_reply TEXT, PRIMARY KEY (channel, ts));
   CREATE INDEX sl_messages_history ON sl_messages (channel, in_history, ts);
   CREATE INDEX sl_messages_thread ON sl_messages (channel, thread_ts, ts);
   CREATE TABLE sl_reactions (channel TEXT NOT NULL, ts TEXT NOT NULL, name TEXT NOT NULL, user TEXT NOT NULL, seq INTEGER NOT NULL,
     PRIMARY KEY (channel, ts, name, user));
   CREATE INDEX sl_reactions_user ON sl_reactions (user, seq);
   CREATE TABLE sl_pins (channel TEXT NOT NULL, ts TEXT NOT NULL, created INTEGER NOT NULL, created_by TEXT NOT NULL, seq INTEGER NOT NULL,
     PRIMARY KEY (channel, ts));
   CREATE TABLE sl_bookmarks (id TEXT PRIMARY KEY, channel TEXT NOT NULL, seq INTEGER NOT NULL, data TEXT NOT NULL);
   CREATE INDEX sl_bookmarks_channel ON sl_bookmarks (channel, seq);
   CREATE TABLE sl_files (
     id TEXT PRIMARY KEY, complete INTEGER NOT NULL, user TEXT NOT NULL, created INTEGER NOT NULL, size INTEGER NOT NULL,
     content TEXT, data TEXT NOT NULL);
   CREATE INDEX sl_files_created ON sl_files (complete, created, id);
   CREATE TABLE sl_file_shares (file TEXT NOT NULL, channel TEXT NOT NULL, ts TEXT NOT NULL, PRIMARY KEY (file, channel, ts));
   CREATE TABLE sl_scheduled (id TEXT PRIMARY KEY, channel TEXT NOT NULL, post_at INTEGER NOT NULL, created INTEGER NOT NULL, data TEXT NOT NULL);
   CREATE INDEX sl_scheduled_post ON sl_scheduled (post_at, id);
   CREATE TABLE sl_usergroups (id TEXT PRIMARY KEY, data TEXT NOT NULL);
   CREATE TABLE sl_scripted (id INTEGER PRIMARY KEY, channel TEXT NOT NULL, triggered INTEGER NOT NULL, data TEXT NOT NULL);
   CREATE INDEX sl_scripted_channel ON sl_scripted (channel, triggered);`,
  // Round 3: deleted files' tombstones (files.info answers file_deleted), reminders, group DMs, and
  // what calls change about a user (status, presence, do-not-disturb), apart from sl_users, whose
  // rows are boot constants (store/users.ts keeps them per sandbox).
  `CREATE TABLE sl_deleted_files (id TEXT PRIMARY KEY, deleted INTEGER NOT NULL);
   CREATE TABLE sl_user_state (user TEXT PRIMARY KEY, data TEXT NOT NULL);
   CREATE TABLE sl_reminders (id TEXT PRIMARY KEY, user TEXT NOT NULL, data TEXT NOT NULL);
   CREATE INDEX sl_reminders_user ON sl_reminders (user, id);
   ALTER TABLE sl_channels ADD COLUMN is_mpim INTEGER NOT NULL DEFAULT 0;`,
  // Round 4: trigger ids and the views opened with them or published (views.*), and the calls the
  // opt-in rate limits count (ratelimit.ts; a few rows per method, never exported).
  `CREATE TABLE sl_triggers (id TEXT PRIMARY KEY, user TEXT NOT NULL, expires_at INTEGER, exchanged INTEGER NOT NULL);
   CREATE TABLE sl_views (id TEXT PRIMARY KEY, user TEXT NOT NULL, kind TEXT NOT NULL, external_id TEXT UNIQUE, data TEXT NOT NULL);
   CREATE INDEX sl_views_home ON sl_views (kind, user);
   CREATE TABLE sl_rate_calls (key TEXT NOT NULL, at INTEGER NOT NULL);
   CREATE INDEX sl_rate_calls_key ON sl_rate_calls (key, at);`,
  // The link_shared events the app was sent, whose unfurl ids chat.unfurl takes.
  `CREATE TABLE sl_link_shares (unfurl_id TEXT PRIMARY KEY, channel TEXT, message_ts TEXT, data TEXT NOT NULL);
   CREATE INDEX sl_link_shares_message ON sl_link_shares (channel, message_ts);`,
  // People's saved items (stars.*), one per person and item (`starKey`).
  `CREATE TABLE sl_stars (user TEXT NOT NULL, item TEXT NOT NULL, data TEXT NOT NULL, PRIMARY KEY (user, item));`,
];
