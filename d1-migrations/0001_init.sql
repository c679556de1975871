-- Teams, their members and API keys (stored hashed), and the index of sandboxes that listing
-- and quota read. The Sandbox Durable Object is the source of truth; it mirrors its state here.
CREATE TABLE teams (
  id TEXT PRIMARY KEY,
  slug TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  plan_tier TEXT NOT NULL,
  sessions_quota INTEGER NOT NULL,
  created_at TEXT NOT NULL
);

CREATE TABLE users (
  id TEXT PRIMARY KEY,
  team_id TEXT NOT NULL REFERENCES teams(id),
  email TEXT NOT NULL,
  created_at TEXT NOT NULL
);

CREATE TABLE api_keys (
  id TEXT PRIMARY KEY,
  key_hash TEXT NOT NULL UNIQUE,
  team_id TEXT NOT NULL REFERENCES teams(id),
  user_id TEXT NOT NULL REFERENCES users(id),
  name TEXT NOT NULL,
  created_at TEXT NOT NULL,
  revoked_at TEXT
);

CREATE TABLE sandboxes (
  id TEXT PRIMARY KEY,
  team_id TEXT NOT NULL REFERENCES teams(id),
  twins TEXT NOT NULL,
  state TEXT NOT NULL,
  task_name TEXT,
  task_markdown TEXT,
  task_id TEXT,
  group_id TEXT,
  agent_version TEXT,
  idempotency_key TEXT,
  created_at TEXT NOT NULL,
  ready_at TEXT,
  expires_at TEXT NOT NULL,
  closed_at TEXT
);
CREATE INDEX sandboxes_team_created ON sandboxes (team_id, created_at);
CREATE INDEX sandboxes_team_state ON sandboxes (team_id, state);
CREATE INDEX sandboxes_idempotency ON sandboxes (team_id, idempotency_key);
