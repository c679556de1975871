// The GitHub twin's tables. Every table carries the `gh_` prefix; indexes make point reads and
// writes independent of the world's size, and list pages cost the page they return.

export const GITHUB_MIGRATIONS: readonly string[] = [
  `CREATE TABLE gh_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
   CREATE TABLE gh_users (
     id INTEGER PRIMARY KEY, login TEXT NOT NULL UNIQUE COLLATE NOCASE, type TEXT NOT NULL,
     name TEXT, email TEXT);
   CREATE TABLE gh_repos (
     id INTEGER PRIMARY KEY, owner TEXT NOT NULL, name TEXT NOT NULL, description TEXT,
     private INTEGER NOT NULL, default_branch TEXT NOT NULL, topics TEXT NOT NULL, archived INTEGER NOT NULL,
     collaborators TEXT NOT NULL, created_at TEXT NOT NULL, updated_at TEXT NOT NULL, pushed_at TEXT NOT NULL,
     next_number INTEGER NOT NULL, UNIQUE (owner, name) ON CONFLICT ABORT);
   CREATE UNIQUE INDEX gh_repos_full ON gh_repos (owner COLLATE NOCASE, name COLLATE NOCASE);
   CREATE TABLE gh_labels (
     id INTEGER PRIMARY KEY, repo_id INTEGER NOT NULL, name TEXT NOT NULL, color TEXT NOT NULL,
     description TEXT, position INTEGER NOT NULL);
   CREATE UNIQUE INDEX gh_labels_name ON gh_labels (repo_id, name COLLATE NOCASE);
   CREATE TABLE gh_milestones (
     id INTEGER PRIMARY KEY, repo_id INTEGER NOT NULL, number INTEGER NOT NULL, title TEXT NOT NULL,
     state TEXT NOT NULL, description TEXT, due_on TEXT, created_at TEXT NOT NULL, updated_at TEXT NOT NULL,
     closed_at TEXT, UNIQUE (repo_id, number));
   CREATE TABLE gh_issues (
     id INTEGER PRIMARY KEY, repo_id INTEGER NOT NULL, number INTEGER NOT NULL, is_pull INTEGER NOT NULL,
     title TEXT NOT NULL, body TEXT, state TEXT NOT NULL, state_reason TEXT, user TEXT NOT NULL,
     assignees TEXT NOT NULL, milestone INTEGER, locked INTEGER NOT NULL, active_lock_reason TEXT,
     created_at TEXT NOT NULL, updated_at TEXT NOT NULL, closed_at TEXT, closed_by TEXT,
     comment_count INTEGER NOT NULL DEFAULT 0,
     head TEXT, base TEXT, draft INTEGER, merged INTEGER, merged_at TEXT, merged_by TEXT,
     merge_commit_sha TEXT, requested_reviewers TEXT,
     UNIQUE (repo_id, number));
   CREATE INDEX gh_issues_state ON gh_issues (repo_id, state, number);
   CREATE INDEX gh_issues_updated ON gh_issues (repo_id, updated_at);
   CREATE TABLE gh_issue_labels (
     issue_id INTEGER NOT NULL, label_id INTEGER NOT NULL, position INTEGER NOT NULL,
     PRIMARY KEY (issue_id, label_id));
   CREATE INDEX gh_issue_labels_label ON gh_issue_labels (label_id, issue_id);
   CREATE TABLE gh_comments (
     id INTEGER PRIMARY KEY, repo_id INTEGER NOT NULL, issue_number INTEGER NOT NULL, user TEXT NOT NULL,
     body TEXT NOT NULL, created_at TEXT NOT NULL, updated_at TEXT NOT NULL);
   CREATE INDEX gh_comments_issue ON gh_comments (repo_id, issue_number, id);
   CREATE TABLE gh_reviews (
     id INTEGER PRIMARY KEY, repo_id INTEGER NOT NULL, pull_number INTEGER NOT NULL, user TEXT NOT NULL,
     state TEXT NOT NULL, body TEXT NOT NULL, submitted_at TEXT, commit_id TEXT);
   CREATE INDEX gh_reviews_pull ON gh_reviews (repo_id, pull_number, id);
   CREATE TABLE gh_branches (
     repo_id INTEGER NOT NULL, name TEXT NOT NULL, protected INTEGER NOT NULL, head_sha TEXT NOT NULL,
     position INTEGER NOT NULL, PRIMARY KEY (repo_id, name));
   CREATE TABLE gh_files (
     repo_id INTEGER NOT NULL, branch TEXT NOT NULL, path TEXT NOT NULL, content TEXT NOT NULL,
     sha TEXT NOT NULL, position INTEGER NOT NULL, PRIMARY KEY (repo_id, branch, path));
   CREATE TABLE gh_commits (
     sha TEXT NOT NULL, repo_id INTEGER NOT NULL, branch TEXT NOT NULL, message TEXT NOT NULL,
     author TEXT NOT NULL, parent_sha TEXT, created_at TEXT NOT NULL, seq INTEGER PRIMARY KEY AUTOINCREMENT);
   CREATE INDEX gh_commits_sha ON gh_commits (repo_id, sha);
   CREATE INDEX gh_commits_branch ON gh_commits (repo_id, branch, seq);
   CREATE TABLE gh_statuses (
     id INTEGER PRIMARY KEY, repo_id INTEGER NOT NULL, ref TEXT NOT NULL, sha TEXT NOT NULL,
     context TEXT NOT NULL, state TEXT NOT NULL, description TEXT, target_url TEXT, creator TEXT NOT NULL,
     created_at TEXT NOT NULL);
   CREATE INDEX gh_statuses_sha ON gh_statuses (repo_id, sha, id);`,
  // 0001: git history as git keeps it (blobs by sha, one full tree per commit) so contents,
  // commits, refs and pull-request merges can address any commit; assignees in their own table so
  // the `assignee` filter walks an index; counters and indexes that keep point reads constant.
  `CREATE TABLE gh_blobs (sha TEXT PRIMARY KEY, content TEXT NOT NULL) WITHOUT ROWID;
   CREATE TABLE gh_tree_entries (
     commit_sha TEXT NOT NULL, path TEXT NOT NULL, blob_sha TEXT NOT NULL, position INTEGER NOT NULL,
     PRIMARY KEY (commit_sha, path)) WITHOUT ROWID;
   CREATE TABLE gh_commit_files (
     commit_sha TEXT NOT NULL, path TEXT NOT NULL, status TEXT NOT NULL, blob_sha TEXT, previous_blob_sha TEXT,
     PRIMARY KEY (commit_sha, path)) WITHOUT ROWID;
   ALTER TABLE gh_commits ADD COLUMN parent2_sha TEXT;
   ALTER TABLE gh_commits ADD COLUMN tree_sha TEXT NOT NULL DEFAULT '';
   ALTER TABLE gh_commits ADD COLUMN depth INTEGER NOT NULL DEFAULT 0;
   DROP TABLE gh_files;
   CREATE TABLE gh_issue_assignees (
     issue_id INTEGER NOT NULL, repo_id INTEGER NOT NULL, login TEXT NOT NULL COLLATE NOCASE, position INTEGER NOT NULL,
     PRIMARY KEY (issue_id, login));
   CREATE INDEX gh_issue_assignees_login ON gh_issue_assignees (repo_id, login, issue_id);
   ALTER TABLE gh_issues DROP COLUMN assignees;
   ALTER TABLE gh_issues ADD COLUMN head_sha TEXT;
   ALTER TABLE gh_repos ADD COLUMN open_issues INTEGER NOT NULL DEFAULT 0;
   ALTER TABLE gh_milestones ADD COLUMN creator TEXT;
   CREATE INDEX gh_issues_created ON gh_issues (repo_id, created_at);
   CREATE INDEX gh_issues_state_created ON gh_issues (repo_id, state, created_at);
   CREATE INDEX gh_issues_state_updated ON gh_issues (repo_id, state, updated_at);
   CREATE INDEX gh_issues_user ON gh_issues (repo_id, user COLLATE NOCASE);
   CREATE INDEX gh_issues_milestone ON gh_issues (repo_id, milestone, state);
   CREATE INDEX gh_issues_pulls ON gh_issues (repo_id, is_pull, state, created_at);
   CREATE INDEX gh_issues_head ON gh_issues (repo_id, head);
   CREATE INDEX gh_comments_repo ON gh_comments (repo_id, id);
   CREATE INDEX gh_statuses_context ON gh_statuses (repo_id, sha, context, id);
   CREATE INDEX gh_repos_owner_created ON gh_repos (owner COLLATE NOCASE, created_at);`,
  // 0002: list pages sort by time, then number. With the number in the index, a page of 30 walks
  // 30 index entries; without it, SQLite sorted every matching issue (all of them share a
  // timestamp in a seeded world) to break the ties: 4.6 ms against 0.04 ms at 10,000 issues.
  // The wider indexes replace the narrower ones, so writes maintain no more indexes than before.
  `DROP INDEX gh_issues_created;
   DROP INDEX gh_issues_state_created;
   DROP INDEX gh_issues_state_updated;
   CREATE INDEX gh_issues_created ON gh_issues (repo_id, created_at, number);
   CREATE INDEX gh_issues_state_created ON gh_issues (repo_id, state, created_at, number);
   CREATE INDEX gh_issues_state_updated ON gh_issues (repo_id, state, updated_at, number);`,
  // 0003: every index is a b-tree each seeded issue is written into, and a 10,000-issue world's
  // creation was mostly those writes. gh_issues_state went unused once the wider state indexes
  // came (they cover a count by state as well); the head index only ever answers `head = ?`, so
  // it holds pull requests alone; the join tables are keyed by their primary key, without a rowid
  // table beside it, so a label or an assignee on an issue is one b-tree entry instead of two.
  // They are rebuilt through a copy rather than renamed into place: every new sandbox runs this,
  // and a RENAME re-reads the whole schema (a quarter of a millisecond each).
  `DROP INDEX gh_issues_state;
   DROP INDEX gh_issues_head;
   CREATE INDEX gh_issues_head ON gh_issues (repo_id, head) WHERE head IS NOT NULL;
   CREATE TABLE gh_issue_labels_copy AS SELECT issue_id, label_id, position FROM gh_issue_labels;
   DROP TABLE gh_issue_labels;
   CREATE TABLE gh_issue_labels (
     issue_id INTEGER NOT NULL, label_id INTEGER NOT NULL, position INTEGER NOT NULL,
     PRIMARY KEY (issue_id, label_id)) WITHOUT ROWID;
   INSERT INTO gh_issue_labels (issue_id, label_id, position) SELECT issue_id, label_id, position FROM gh_issue_labels_copy;
   DROP TABLE gh_issue_labels_copy;
   CREATE INDEX gh_issue_labels_label ON gh_issue_labels (label_id, issue_id);
   CREATE TABLE gh_issue_assignees_copy AS SELECT issue_id, repo_id, login, position FROM gh_issue_assignees;
   DROP TABLE gh_issue_assignees;
   CREATE TABLE gh_issue_assignees (
     issue_id INTEGER NOT NULL, repo_id INTEGER NOT NULL, login TEXT NOT NULL COLLATE NOCASE, position INTEGER NOT NULL,
     PRIMARY KEY (issue_id, login)) WITHOUT ROWID;
   INSERT INTO gh_issue_assignees (issue_id, repo_id, login, position)
     SELECT issue_id, repo_id, login, position FROM gh_issue_assignees_copy;
   DROP TABLE gh_issue_assignees_copy;
   CREATE INDEX gh_issue_assignees_login ON gh_issue_assignees (repo_id, login, issue_id);`,
  // 0004: the pulls index serves the pull-request list (is_pull = 1) and nothing else, so it holds
  // pull requests only, sorted as that list pages (time, then number): an issue no longer costs an
  // entry in it. Queries name is_pull as a literal, which a partial index needs.
  `DROP INDEX gh_issues_pulls;
   CREATE INDEX gh_issues_pulls ON gh_issues (repo_id, state, created_at, number) WHERE is_pull = 1;`,
  // 0005: the git database. A tree entry keeps its file mode; every tree a commit holds (its root
  // and each directory) or an agent creates is addressable by its sha through gh_trees, which
  // names where its entries live (`source`: a commit, or the created tree itself) and under which
  // directory; a commit may record the author and committer a caller named; tags (lightweight
  // refs and annotated tag objects) live beside the branches.
  `ALTER TABLE gh_tree_entries ADD COLUMN mode TEXT NOT NULL DEFAULT '100644';
   CREATE TABLE gh_trees (
     repo_id INTEGER NOT NULL, sha TEXT NOT NULL, source TEXT NOT NULL, dir TEXT NOT NULL,
     PRIMARY KEY (repo_id, sha)) WITHOUT ROWID;
   ALTER TABLE gh_commits ADD COLUMN identity TEXT;
   CREATE TABLE gh_tag_refs (
     repo_id INTEGER NOT NULL, name TEXT NOT NULL, sha TEXT NOT NULL, PRIMARY KEY (repo_id, name)) WITHOUT ROWID;
   CREATE TABLE gh_tag_objects (
     seq INTEGER PRIMARY KEY AUTOINCREMENT, sha TEXT NOT NULL, repo_id INTEGER NOT NULL, tag TEXT NOT NULL,
     message TEXT NOT NULL, object_sha TEXT NOT NULL, object_type TEXT NOT NULL, tagger TEXT NOT NULL);
   CREATE UNIQUE INDEX gh_tag_objects_sha ON gh_tag_objects (repo_id, sha);`,
  // 0006: issue and pull-request activity. Events as the twin records them (what the issue events
  // and timeline APIs list); reactions on issues, comments and review comments; inline review
  // comments on a pull request's diff, threaded by `in_reply_to_id`.
  `CREATE TABLE gh_issue_events (
     id INTEGER PRIMARY KEY, repo_id INTEGER NOT NULL, issue_id INTEGER NOT NULL, event TEXT NOT NULL,
     actor TEXT NOT NULL, created_at TEXT NOT NULL, commit_id TEXT, detail TEXT NOT NULL DEFAULT '{}');
   CREATE INDEX gh_issue_events_issue ON gh_issue_events (issue_id, id);
   CREATE INDEX gh_issue_events_repo ON gh_issue_events (repo_id, id);
   CREATE TABLE gh_reactions (
     id INTEGER PRIMARY KEY, repo_id INTEGER NOT NULL, subject TEXT NOT NULL, subject_id INTEGER NOT NULL,
     user TEXT NOT NULL COLLATE NOCASE, content TEXT NOT NULL, created_at TEXT NOT NULL);
   CREATE UNIQUE INDEX gh_reactions_one ON gh_reactions (subject, subject_id, user, content);
   CREATE TABLE gh_review_comments (
     id INTEGER PRIMARY KEY, repo_id INTEGER NOT NULL, pull_number INTEGER NOT NULL, review_id INTEGER,
     user TEXT NOT NULL, body TEXT NOT NULL, path TEXT NOT NULL, line INTEGER, side TEXT, start_line INTEGER,
     start_side TEXT, position INTEGER, subject_type TEXT NOT NULL, commit_id TEXT NOT NULL, diff_hunk TEXT NOT NULL,
     in_reply_to_id INTEGER, created_at TEXT NOT NULL, updated_at TEXT NOT NULL);
   CREATE INDEX gh_review_comments_pull ON gh_review_comments (repo_id, pull_number, id);
   CREATE INDEX gh_review_comments_review ON gh_review_comments (review_id, id);`,
  // 0007: releases, each naming its tag (created on publication when missing).
  `CREATE TABLE gh_releases (
     id INTEGER PRIMARY KEY, repo_id INTEGER NOT NULL, tag_name TEXT NOT NULL, target_commitish TEXT NOT NULL,
     name TEXT, body TEXT, draft INTEGER NOT NULL, prerelease INTEGER NOT NULL, latest INTEGER NOT NULL DEFAULT 0,
     author TEXT NOT NULL, created_at TEXT NOT NULL, published_at TEXT, updated_at TEXT NOT NULL);
   CREATE INDEX gh_releases_repo ON gh_releases (repo_id, id);`,
  // 0008: CI surfaces and repository webhooks. Workflows, their runs (one row per run, its current
  // attempt and the outcome a seed scripts for a re-run), each attempt's jobs with steps and log
  // text, artifacts; check suites and check runs on a commit; hooks and the deliveries the twin
  // recorded for each (what GitHub's delivery log lists and redelivers).
  `CREATE TABLE gh_workflows (
     id INTEGER PRIMARY KEY, repo_id INTEGER NOT NULL, name TEXT NOT NULL, path TEXT NOT NULL, state TEXT NOT NULL,
     created_at TEXT NOT NULL, updated_at TEXT NOT NULL);
   CREATE UNIQUE INDEX gh_workflows_path ON gh_workflows (repo_id, path);
   CREATE TABLE gh_workflow_runs (
     id INTEGER PRIMARY KEY, repo_id INTEGER NOT NULL, workflow_id INTEGER NOT NULL, run_number INTEGER NOT NULL,
     display_title TEXT NOT NULL, head_branch TEXT NOT NULL, given_sha TEXT, head_sha TEXT NOT NULL, event TEXT NOT NULL,
     status TEXT NOT NULL, conclusion TEXT, run_attempt INTEGER NOT NULL, rerun_conclusion TEXT, actor TEXT NOT NULL,
     created_at TEXT NOT NULL, updated_at TEXT NOT NULL, run_started_at TEXT NOT NULL, check_suite_id INTEGER NOT NULL);
   CREATE INDEX gh_workflow_runs_repo ON gh_workflow_runs (repo_id, id);
   CREATE INDEX gh_workflow_runs_workflow ON gh_workflow_runs (workflow_id, id);
   CREATE INDEX gh_workflow_runs_sha ON gh_workflow_runs (repo_id, head_sha, id);
   CREATE INDEX gh_workflow_runs_branch ON gh_workflow_runs (repo_id, head_branch, id);
   CREATE TABLE gh_jobs (
     id INTEGER PRIMARY KEY, repo_id INTEGER NOT NULL, run_id INTEGER NOT NULL, run_attempt INTEGER NOT NULL,
     name TEXT NOT NULL, status TEXT NOT NULL, conclusion TEXT, steps TEXT NOT NULL, log TEXT NOT NULL,
     started_at TEXT NOT NULL, completed_at TEXT);
   CREATE INDEX gh_jobs_run ON gh_jobs (run_id, run_attempt, id);
   CREATE TABLE gh_artifacts (
     id INTEGER PRIMARY KEY, repo_id INTEGER NOT NULL, run_id INTEGER NOT NULL, name TEXT NOT NULL,
     size_in_bytes INTEGER NOT NULL, created_at TEXT NOT NULL);
   CREATE INDEX gh_artifacts_repo ON gh_artifacts (repo_id, id);
   CREATE INDEX gh_artifacts_run ON gh_artifacts (run_id, id);
   CREATE TABLE gh_check_suites (
     id INTEGER PRIMARY KEY, repo_id INTEGER NOT NULL, head_sha TEXT NOT NULL, head_branch TEXT, app TEXT NOT NULL,
     created_at TEXT NOT NULL, updated_at TEXT NOT NULL, rerequested INTEGER NOT NULL DEFAULT 0);
   CREATE INDEX gh_check_suites_sha ON gh_check_suites (repo_id, head_sha, id);
   CREATE TABLE gh_check_runs (
     id INTEGER PRIMARY KEY, repo_id INTEGER NOT NULL, suite_id INTEGER NOT NULL, ref TEXT NOT NULL, head_sha TEXT NOT NULL,
     name TEXT NOT NULL, status TEXT NOT NULL, conclusion TEXT, external_id TEXT, details_url TEXT,
     started_at TEXT, completed_at TEXT, output TEXT NOT NULL, annotations TEXT NOT NULL);
   CREATE INDEX gh_check_runs_sha ON gh_check_runs (repo_id, head_sha, id);
   CREATE INDEX gh_check_runs_suite ON gh_check_runs (suite_id, id);
   CREATE TABLE gh_hooks (
     id INTEGER PRIMARY KEY, repo_id INTEGER NOT NULL, url TEXT NOT NULL, content_type TEXT NOT NULL, secret TEXT,
     insecure_ssl TEXT NOT NULL, events TEXT NOT NULL, active INTEGER NOT NULL, created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL, last_response TEXT);
   CREATE INDEX gh_hooks_repo ON gh_hooks (repo_id, id);
   CREATE TABLE gh_hook_deliveries (
     id INTEGER PRIMARY KEY, hook_id INTEGER NOT NULL, repo_id INTEGER NOT NULL, guid TEXT NOT NULL, event TEXT NOT NULL,
     action TEXT, delivered_at TEXT NOT NULL, redelivery INTEGER NOT NULL, url TEXT NOT NULL, headers TEXT NOT NULL,
     payload TEXT NOT NULL, status TEXT NOT NULL, status_code INTEGER NOT NULL);
   CREATE INDEX gh_hook_deliveries_hook ON gh_hook_deliveries (hook_id, id);`,
  // 0009: repository administration, stars, sub-issues and collaborators. A repository keeps its
  // homepage, its feature and merge settings (one JSON object) and, when it is a fork, the
  // repository it was forked from; star and fork counts are counters so reading a repository stays
  // O(1). A star is one row per user and repository; a sub-issue names its parent and its place in
  // the parent's list; a collaborator's role is kept when it is not the default (write), and an
  // invitation waits for its invitee.
  `ALTER TABLE gh_repos ADD COLUMN homepage TEXT;
   ALTER TABLE gh_repos ADD COLUMN settings TEXT NOT NULL DEFAULT '{}';
   ALTER TABLE gh_repos ADD COLUMN fork_of INTEGER;
   ALTER TABLE gh_repos ADD COLUMN stargazers INTEGER NOT NULL DEFAULT 0;
   ALTER TABLE gh_repos ADD COLUMN forks INTEGER NOT NULL DEFAULT 0;
   CREATE INDEX gh_repos_fork_of ON gh_repos (fork_of, created_at) WHERE fork_of IS NOT NULL;
   CREATE TABLE gh_stars (
     login TEXT NOT NULL COLLATE NOCASE, repo_id INTEGER NOT NULL, starred_at TEXT NOT NULL,
     PRIMARY KEY (login, repo_id)) WITHOUT ROWID;
   CREATE INDEX gh_stars_repo ON gh_stars (repo_id, starred_at);
   CREATE INDEX gh_stars_user ON gh_stars (login, starred_at);
   CREATE TABLE gh_sub_issues (
     child_id INTEGER PRIMARY KEY, parent_id INTEGER NOT NULL, repo_id INTEGER NOT NULL, position REAL NOT NULL);
   CREATE INDEX gh_sub_issues_parent ON gh_sub_issues (parent_id, position);
   CREATE TABLE gh_collaborator_roles (
     repo_id INTEGER NOT NULL, login TEXT NOT NULL COLLATE NOCASE, role TEXT NOT NULL,
     PRIMARY KEY (repo_id, login)) WITHOUT ROWID;
   CREATE TABLE gh_repo_invitations (
     id INTEGER PRIMARY KEY, repo_id INTEGER NOT NULL, invitee TEXT NOT NULL COLLATE NOCASE, inviter TEXT NOT NULL,
     role TEXT NOT NULL, created_at TEXT NOT NULL);
   CREATE UNIQUE INDEX gh_repo_invitations_one ON gh_repo_invitations (repo_id, invitee);`,
  // 0010: organizations, teams and the authenticated user's notifications. Declared organization
  // members and owners (the sandbox's user and repository collaborators are members without a
  // row: store/orgs.ts); teams by organization and slug, with their members and the repositories
  // they grant; one notification thread per issue or pull request, with why the user gets it,
  // whether it is unread, and the subscription the user set on it.
  `CREATE TABLE gh_org_members (
     org TEXT NOT NULL COLLATE NOCASE, login TEXT NOT NULL COLLATE NOCASE, role TEXT NOT NULL, position INTEGER NOT NULL,
     PRIMARY KEY (org, login)) WITHOUT ROWID;
   CREATE INDEX gh_org_members_login ON gh_org_members (login, org);
   CREATE TABLE gh_org_profiles (org TEXT PRIMARY KEY COLLATE NOCASE, description TEXT);
   CREATE TABLE gh_teams (
     id INTEGER PRIMARY KEY, org TEXT NOT NULL COLLATE NOCASE, slug TEXT NOT NULL, name TEXT NOT NULL, description TEXT,
     privacy TEXT NOT NULL, parent_slug TEXT, created_at TEXT NOT NULL, updated_at TEXT NOT NULL);
   CREATE UNIQUE INDEX gh_teams_slug ON gh_teams (org, slug);
   CREATE TABLE gh_team_members (
     team_id INTEGER NOT NULL, login TEXT NOT NULL COLLATE NOCASE, role TEXT NOT NULL, position INTEGER NOT NULL,
     PRIMARY KEY (team_id, login)) WITHOUT ROWID;
   CREATE INDEX gh_team_members_login ON gh_team_members (login, team_id);
   CREATE TABLE gh_team_repos (
     team_id INTEGER NOT NULL, repo_id INTEGER NOT NULL, permission TEXT NOT NULL, position INTEGER NOT NULL,
     PRIMARY KEY (team_id, repo_id)) WITHOUT ROWID;
   CREATE INDEX gh_team_repos_repo ON gh_team_repos (repo_id, team_id);
   CREATE TABLE gh_notifications (
     id INTEGER PRIMARY KEY, repo_id INTEGER NOT NULL, issue_id INTEGER NOT NULL, reason TEXT NOT NULL,
     unread INTEGER NOT NULL, updated_at TEXT NOT NULL, last_read_at TEXT,
     subscribed INTEGER, ignored INTEGER NOT NULL DEFAULT 0, subscribed_at TEXT);
   CREATE UNIQUE INDEX gh_notifications_issue ON gh_notifications (issue_id);
   CREATE INDEX gh_notifications_updated ON gh_notifications (updated_at, id);
   CREATE INDEX gh_notifications_repo ON gh_notifications (repo_id, updated_at, id);`,
  // 0011: branch protection: a protected branch's settings as one JSON object (store/protection.ts);
  // gh_branches.protected stays the flag every branch read shows.
  `CREATE TABLE gh_branch_protection (
     repo_id INTEGER NOT NULL, branch TEXT NOT NULL, settings TEXT NOT NULL,
     PRIMARY KEY (repo_id, branch)) WITHOUT ROWID;`,
  // 0012: the numbers issues had before they were transferred (store/issue-transfer.ts): an old
  // number answers 301 to wherever its issue is now. The teams asked to review a pull request
  // (store/team-reviews.ts). The files an artifact's zip holds, as JSON [{ path, content }]. How a
  // webhook delivery's last attempt went: its duration and the receiver's answer headers.
  `CREATE TABLE gh_issue_moves (
     repo_id INTEGER NOT NULL, number INTEGER NOT NULL, issue_id INTEGER NOT NULL,
     PRIMARY KEY (repo_id, number)) WITHOUT ROWID;
   CREATE TABLE gh_team_review_requests (
     issue_id INTEGER NOT NULL, team_id INTEGER NOT NULL, repo_id INTEGER NOT NULL, position INTEGER NOT NULL,
     PRIMARY KEY (issue_id, team_id)) WITHOUT ROWID;
   CREATE INDEX gh_team_review_requests_team ON gh_team_review_requests (team_id);
   ALTER TABLE gh_artifacts ADD COLUMN files TEXT NOT NULL DEFAULT '[]';
   ALTER TABLE gh_hook_deliveries ADD COLUMN duration REAL NOT NULL DEFAULT 0;
   ALTER TABLE gh_hook_deliveries ADD COLUMN response_headers TEXT NOT NULL DEFAULT '{}';`,
  // 0013: review threads. A thread is its first comment and the replies to it (`in_reply_to_id`);
  // whether it is resolved, and by whom, sits on that first comment (store/review-threads.ts).
  `ALTER TABLE gh_review_comments ADD COLUMN resolved_by TEXT;
   CREATE INDEX gh_review_comments_thread ON gh_review_comments (in_reply_to_id, id);`,
];
