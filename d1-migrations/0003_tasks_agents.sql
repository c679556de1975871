-- Stored tasks (POST /v1/tasks) and registered agents (register_agent). A task row keeps the
-- markdown as the source of truth; name, twins and criteria_count are copies for listing.
CREATE TABLE tasks (
  id TEXT PRIMARY KEY,
  team_id TEXT NOT NULL REFERENCES teams(id),
  name TEXT,
  markdown TEXT NOT NULL,
  twins TEXT NOT NULL,
  criteria_count INTEGER NOT NULL,
  -- sha256 of the markdown: saving the same task twice returns the first row.
  content_hash TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX tasks_team_created ON tasks (team_id, created_at);
CREATE UNIQUE INDEX tasks_team_content ON tasks (team_id, content_hash);

-- An agent's twin allowlist only grows: registering again merges, never removes.
CREATE TABLE agents (
  id TEXT PRIMARY KEY,
  team_id TEXT NOT NULL REFERENCES teams(id),
  name TEXT NOT NULL,
  twins TEXT NOT NULL,
  version TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE UNIQUE INDEX agents_team_name ON agents (team_id, name);
