// The Linear twin's tables, all prefixed `lin_`. Objects are keyed by their UUID; the natural keys
// (email, team key, identifier) are indexed too, so point reads and writes do not grow with the
// world, and an issue list page reads the page through the (created_at) index.

export const LINEAR_MIGRATIONS: readonly string[] = [
  `CREATE TABLE lin_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
   CREATE TABLE lin_users (
     id TEXT PRIMARY KEY, email TEXT NOT NULL UNIQUE COLLATE NOCASE, name TEXT NOT NULL, display_name TEXT NOT NULL,
     admin INTEGER NOT NULL, active INTEGER NOT NULL, created_at TEXT NOT NULL);
   CREATE TABLE lin_teams (
     id TEXT PRIMARY KEY, key TEXT NOT NULL UNIQUE, name TEXT NOT NULL, description TEXT, estimation_type TEXT NOT NULL,
     default_state_id TEXT, next_number INTEGER NOT NULL, created_at TEXT NOT NULL);
   CREATE TABLE lin_team_members (team_id TEXT NOT NULL, user_id TEXT NOT NULL, position INTEGER NOT NULL, PRIMARY KEY (team_id, user_id));
   CREATE INDEX lin_team_members_user ON lin_team_members (user_id);
   CREATE TABLE lin_states (
     id TEXT PRIMARY KEY, team_id TEXT NOT NULL, name TEXT NOT NULL, type TEXT NOT NULL, color TEXT NOT NULL,
     position REAL NOT NULL, description TEXT, created_at TEXT NOT NULL, UNIQUE (team_id, name));
   CREATE TABLE lin_labels (
     id TEXT PRIMARY KEY, team_id TEXT, name TEXT NOT NULL, color TEXT NOT NULL, description TEXT,
     creator_id TEXT, created_at TEXT NOT NULL, updated_at TEXT NOT NULL);
   CREATE INDEX lin_labels_team ON lin_labels (team_id, name);
   CREATE TABLE lin_projects (
     id TEXT PRIMARY KEY, name TEXT NOT NULL, description TEXT NOT NULL, state TEXT NOT NULL, lead_id TEXT,
     created_at TEXT NOT NULL, updated_at TEXT NOT NULL);
   CREATE INDEX lin_projects_name ON lin_projects (name);
   CREATE TABLE lin_project_teams (project_id TEXT NOT NULL, team_id TEXT NOT NULL, position INTEGER NOT NULL, PRIMARY KEY (project_id, team_id));
   CREATE INDEX lin_project_teams_team ON lin_project_teams (team_id);
   CREATE TABLE lin_cycles (
     id TEXT PRIMARY KEY, team_id TEXT NOT NULL, number INTEGER NOT NULL, name TEXT, starts_at TEXT NOT NULL,
     ends_at TEXT NOT NULL, created_at TEXT NOT NULL, UNIQUE (team_id, number));
   CREATE TABLE lin_issues (
     id TEXT PRIMARY KEY, team_id TEXT NOT NULL, number INTEGER NOT NULL, identifier TEXT NOT NULL UNIQUE,
     title TEXT NOT NULL, description TEXT, state_id TEXT NOT NULL, priority INTEGER NOT NULL, estimate REAL,
     assignee_id TEXT, creator_id TEXT, project_id TEXT, cycle_id TEXT, parent_id TEXT, due_date TEXT,
     created_at TEXT NOT NULL, updated_at TEXT NOT NULL, started_at TEXT, completed_at TEXT, canceled_at TEXT,
     archived_at TEXT, trashed INTEGER NOT NULL DEFAULT 0, sort_order REAL NOT NULL DEFAULT 0);
   CREATE INDEX lin_issues_created ON lin_issues (created_at);
   CREATE INDEX lin_issues_updated ON lin_issues (updated_at);
   CREATE INDEX lin_issues_team ON lin_issues (team_id, created_at);
   CREATE INDEX lin_issues_state ON lin_issues (state_id, created_at);
   CREATE INDEX lin_issues_assignee ON lin_issues (assignee_id, created_at);
   CREATE INDEX lin_issues_creator ON lin_issues (creator_id, created_at);
   CREATE INDEX lin_issues_project ON lin_issues (project_id, created_at);
   CREATE INDEX lin_issues_cycle ON lin_issues (cycle_id, created_at);
   CREATE INDEX lin_issues_parent ON lin_issues (parent_id, created_at);
   CREATE TABLE lin_issue_labels (issue_id TEXT NOT NULL, label_id TEXT NOT NULL, position INTEGER NOT NULL, PRIMARY KEY (issue_id, label_id));
   CREATE INDEX lin_issue_labels_label ON lin_issue_labels (label_id);
   CREATE TABLE lin_subscribers (issue_id TEXT NOT NULL, user_id TEXT NOT NULL, position INTEGER NOT NULL, PRIMARY KEY (issue_id, user_id));
   CREATE TABLE lin_comments (
     id TEXT PRIMARY KEY, issue_id TEXT NOT NULL, parent_id TEXT, user_id TEXT, body TEXT NOT NULL,
     created_at TEXT NOT NULL, updated_at TEXT NOT NULL, edited_at TEXT);
   CREATE INDEX lin_comments_issue ON lin_comments (issue_id, created_at);
   CREATE INDEX lin_comments_parent ON lin_comments (parent_id, created_at);
   CREATE INDEX lin_comments_created ON lin_comments (created_at);
   CREATE TABLE lin_relations (
     id TEXT PRIMARY KEY, issue_id TEXT NOT NULL, related_issue_id TEXT NOT NULL, type TEXT NOT NULL,
     created_at TEXT NOT NULL, UNIQUE (issue_id, related_issue_id));
   CREATE INDEX lin_relations_related ON lin_relations (related_issue_id);
   CREATE TABLE lin_attachments (
     id TEXT PRIMARY KEY, issue_id TEXT NOT NULL, title TEXT NOT NULL, subtitle TEXT, url TEXT NOT NULL,
     creator_id TEXT, created_at TEXT NOT NULL, updated_at TEXT NOT NULL);
   CREATE INDEX lin_attachments_issue ON lin_attachments (issue_id);
   CREATE TABLE lin_reactions (
     id TEXT PRIMARY KEY, issue_id TEXT, comment_id TEXT, user_id TEXT NOT NULL, emoji TEXT NOT NULL, created_at TEXT NOT NULL);
   CREATE INDEX lin_reactions_comment ON lin_reactions (comment_id);
   CREATE INDEX lin_reactions_issue ON lin_reactions (issue_id);
   CREATE TABLE lin_webhooks (
     id TEXT PRIMARY KEY, url TEXT NOT NULL, resource_types TEXT NOT NULL, team_id TEXT, secret TEXT NOT NULL,
     enabled INTEGER NOT NULL, label TEXT);
   CREATE TABLE lin_oauth_apps (client_id TEXT PRIMARY KEY, client_secret TEXT NOT NULL, name TEXT NOT NULL, redirect_uris TEXT NOT NULL);
   CREATE TABLE lin_oauth_codes (
     code TEXT PRIMARY KEY, client_id TEXT NOT NULL, redirect_uri TEXT NOT NULL, challenge TEXT, challenge_method TEXT,
     scope TEXT NOT NULL, user_id TEXT NOT NULL, expires_at INTEGER NOT NULL);
   CREATE TABLE lin_oauth_tokens (
     token TEXT PRIMARY KEY, client_id TEXT NOT NULL, user_id TEXT NOT NULL, scope TEXT NOT NULL, created_at INTEGER NOT NULL,
     revoked INTEGER NOT NULL DEFAULT 0);`,
  // Webhooks registered through the API carry who made them and when.
  `ALTER TABLE lin_webhooks ADD COLUMN created_at TEXT NOT NULL DEFAULT '2026-01-01T00:00:00.000Z';
   ALTER TABLE lin_webhooks ADD COLUMN updated_at TEXT NOT NULL DEFAULT '2026-01-01T00:00:00.000Z';
   ALTER TABLE lin_webhooks ADD COLUMN creator_id TEXT;`,
  // The viewer's inbox, derived from the seed at boot (notifications.ts); not seed state.
  `CREATE TABLE lin_notifications (
     id TEXT PRIMARY KEY, type TEXT NOT NULL, user_id TEXT NOT NULL, actor_id TEXT, issue_id TEXT NOT NULL, comment_id TEXT,
     created_at TEXT NOT NULL, updated_at TEXT NOT NULL, read_at TEXT, archived_at TEXT);
   CREATE INDEX lin_notifications_user ON lin_notifications (user_id, created_at);
   CREATE INDEX lin_notifications_issue ON lin_notifications (issue_id);
   CREATE INDEX lin_notifications_comment ON lin_notifications (comment_id);`,
  // Cycles carry a description and can be completed and archived (cycleUpdate, cycleArchive).
  `ALTER TABLE lin_cycles ADD COLUMN description TEXT;
   ALTER TABLE lin_cycles ADD COLUMN completed_at TEXT;
   ALTER TABLE lin_cycles ADD COLUMN archived_at TEXT;
   ALTER TABLE lin_cycles ADD COLUMN updated_at TEXT;
   CREATE INDEX lin_cycles_team_starts ON lin_cycles (team_id, starts_at);`,
  // Snoozes and delegation on issues; identifiers an issue had before it moved team (they still
  // resolve); the issue history (IssueHistory) the twin records for each change.
  `ALTER TABLE lin_issues ADD COLUMN snoozed_until_at TEXT;
   ALTER TABLE lin_issues ADD COLUMN snoozed_by_id TEXT;
   ALTER TABLE lin_issues ADD COLUMN delegate_id TEXT;
   CREATE TABLE lin_former_identifiers (identifier TEXT PRIMARY KEY, issue_id TEXT NOT NULL);
   CREATE INDEX lin_former_identifiers_issue ON lin_former_identifiers (issue_id);
   CREATE TABLE lin_issue_history (
     id TEXT PRIMARY KEY, issue_id TEXT NOT NULL, actor_id TEXT, created_at TEXT NOT NULL, changes TEXT NOT NULL);
   CREATE INDEX lin_issue_history_issue ON lin_issue_history (issue_id, created_at);`,
  // Documents (markdown content, optionally in a project); project milestones and project updates;
  // an issue's milestone; comment threads resolved (commentResolve) by whom and with which reply;
  // a notification snoozed (notificationUpdate); a workflow state archived (workflowStateArchive).
  `CREATE TABLE lin_documents (
     id TEXT PRIMARY KEY, title TEXT NOT NULL, content TEXT, icon TEXT, color TEXT, project_id TEXT, creator_id TEXT,
     updated_by_id TEXT, sort_order REAL NOT NULL DEFAULT 0, created_at TEXT NOT NULL, updated_at TEXT NOT NULL,
     archived_at TEXT, trashed INTEGER NOT NULL DEFAULT 0);
   CREATE INDEX lin_documents_created ON lin_documents (created_at);
   CREATE INDEX lin_documents_project ON lin_documents (project_id, created_at);
   CREATE TABLE lin_project_milestones (
     id TEXT PRIMARY KEY, project_id TEXT NOT NULL, name TEXT NOT NULL, description TEXT, target_date TEXT,
     sort_order REAL NOT NULL DEFAULT 0, created_at TEXT NOT NULL, updated_at TEXT NOT NULL, archived_at TEXT);
   CREATE INDEX lin_project_milestones_project ON lin_project_milestones (project_id, sort_order);
   CREATE TABLE lin_project_updates (
     id TEXT PRIMARY KEY, project_id TEXT NOT NULL, body TEXT NOT NULL, health TEXT NOT NULL, user_id TEXT NOT NULL,
     created_at TEXT NOT NULL, updated_at TEXT NOT NULL, edited_at TEXT, archived_at TEXT);
   CREATE INDEX lin_project_updates_project ON lin_project_updates (project_id, created_at);
   ALTER TABLE lin_issues ADD COLUMN project_milestone_id TEXT;
   CREATE INDEX lin_issues_milestone ON lin_issues (project_milestone_id, created_at);
   ALTER TABLE lin_comments ADD COLUMN resolved_at TEXT;
   ALTER TABLE lin_comments ADD COLUMN resolving_user_id TEXT;
   ALTER TABLE lin_comments ADD COLUMN resolving_comment_id TEXT;
   ALTER TABLE lin_notifications ADD COLUMN snoozed_until_at TEXT;
   ALTER TABLE lin_states ADD COLUMN archived_at TEXT;`,
  // Favorites: each user's sidebar of issues, projects, cycles, labels, documents and folders.
  `CREATE TABLE lin_favorites (
     id TEXT PRIMARY KEY, owner_id TEXT NOT NULL, type TEXT NOT NULL, issue_id TEXT, project_id TEXT, cycle_id TEXT,
     label_id TEXT, document_id TEXT, custom_view_id TEXT, folder_name TEXT, parent_id TEXT,
     sort_order REAL NOT NULL DEFAULT 0, created_at TEXT NOT NULL, updated_at TEXT NOT NULL);
   CREATE INDEX lin_favorites_owner ON lin_favorites (owner_id, sort_order);`,
  // Initiatives and the projects in them; custom views (a saved IssueFilter); templates (an
  // entity's pre-filled fields, applied by issueCreate(templateId)).
  `CREATE TABLE lin_initiatives (
     id TEXT PRIMARY KEY, name TEXT NOT NULL, description TEXT, content TEXT, icon TEXT, color TEXT,
     status TEXT NOT NULL, owner_id TEXT, creator_id TEXT, target_date TEXT, sort_order REAL NOT NULL DEFAULT 0,
     created_at TEXT NOT NULL, updated_at TEXT NOT NULL, started_at TEXT, completed_at TEXT, archived_at TEXT,
     trashed INTEGER NOT NULL DEFAULT 0);
   CREATE INDEX lin_initiatives_created ON lin_initiatives (created_at);
   CREATE TABLE lin_initiative_projects (
     id TEXT PRIMARY KEY, initiative_id TEXT NOT NULL, project_id TEXT NOT NULL, sort_order REAL NOT NULL DEFAULT 0,
     created_at TEXT NOT NULL, UNIQUE (initiative_id, project_id));
   CREATE INDEX lin_initiative_projects_project ON lin_initiative_projects (project_id);
   CREATE TABLE lin_custom_views (
     id TEXT PRIMARY KEY, name TEXT NOT NULL, description TEXT, icon TEXT, color TEXT, filter_data TEXT NOT NULL,
     shared INTEGER NOT NULL DEFAULT 0, owner_id TEXT NOT NULL, creator_id TEXT NOT NULL, updated_by_id TEXT, team_id TEXT,
     created_at TEXT NOT NULL, updated_at TEXT NOT NULL, archived_at TEXT);
   CREATE INDEX lin_custom_views_created ON lin_custom_views (created_at);
   CREATE TABLE lin_templates (
     id TEXT PRIMARY KEY, name TEXT NOT NULL, description TEXT, type TEXT NOT NULL, template_data TEXT NOT NULL,
     team_id TEXT, icon TEXT, color TEXT, sort_order REAL NOT NULL DEFAULT 0, creator_id TEXT, last_updated_by_id TEXT,
     last_applied_at TEXT, created_at TEXT NOT NULL, updated_at TEXT NOT NULL);
   ALTER TABLE lin_issues ADD COLUMN last_applied_template_id TEXT;
   ALTER TABLE lin_favorites ADD COLUMN initiative_id TEXT;`,
];
