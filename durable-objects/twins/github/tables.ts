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
];
