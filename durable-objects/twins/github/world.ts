// Boot and export: the seed goes into the gh_ tables, and the tables come back out in the seed's
// own shape, in insertion order, so export(boot(seed)) equals the normalized seed.
import type { Db } from "../../sql";
import { bool, bulkInsert, insertRows, loadWithIndexesRebuilt } from "../kit/sql";
import type { Clock } from "../types";
import type { RepoRow } from "./repos";
import type { GithubComment, GithubIssue, GithubPull, GithubRepository, GithubSeed } from "./seed";
import type { IssueRow } from "./store/rows";
import { putBlob, writeCommit } from "./store/git";

const json = (value: unknown) => JSON.stringify(value);

const ISSUE_COLUMNS = [
  "repo_id",
  "id",
  "number",
  "is_pull",
  "title",
  "body",
  "state",
  "state_reason",
  "user",
  "milestone",
  "locked",
  "active_lock_reason",
  "created_at",
  "updated_at",
  "closed_at",
  "comment_count",
] as const;

function insertComments(db: Db, repoId: number, number: number, comments: GithubComment[]) {
  for (const c of comments) {
    db.run(
      "INSERT INTO gh_comments (id, repo_id, issue_number, user, body, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
      c.id,
      repoId,
      number,
      c.user,
      c.body,
      c.created_at,
      c.updated_at,
    );
  }
}

/**
 * Inserts seeded issues with their labels and assignees set-wise (insertRows): one statement per
 * thousand rows binds them as a JSON array that SQLite unpacks with jsonb_each, instead of one call
 * per row; the columns every issue shares are bound once rather than read from each row.
 */
function insertIssues(db: Db, repoId: number, issues: GithubIssue[], labelIds: Map<string, number>): void {
  insertRows(
    db,
    "gh_issues",
    ISSUE_COLUMNS,
    issues.map((it) => [
      repoId,
      it.id,
      it.number,
      0,
      it.title,
      it.body,
      it.state,
      it.state_reason,
      it.user,
      it.milestone,
      bool(it.locked),
      it.active_lock_reason,
      it.created_at,
      it.updated_at,
      it.closed_at,
      it.comments.length,
    ]),
  );
  // Each issue goes in once as [id, [label ids…]]; a second jsonb_each unnests the list, its key
  // being the label's position. One row per label flattened in JS cost an array and three reads each.
  // Rows arrive in issue order, the primary key's; the index by label is rebuilt once afterwards.
  const labelled = issues.filter((it) => it.labels.length);
  const labelRows = labelled.reduce((n, it) => n + it.labels.length, 0);
  loadWithIndexesRebuilt(db, "gh_issue_labels", labelRows, () =>
    bulkInsert(
      db,
      `INSERT INTO gh_issue_labels (issue_id, label_id, position)
       SELECT issue.value->>0, label.value, label.key FROM jsonb_each(?) issue, jsonb_each(issue.value, '$[1]') label`,
      labelled.map((it) => [it.id, it.labels.map((name) => labelIds.get(name.toLowerCase()) ?? 0)]),
    ),
  );
  insertRows(
    db,
    "gh_issue_assignees",
    ["issue_id", "repo_id", "login", "position"],
    issues.flatMap((it) => it.assignees.map((login, i) => [it.id, repoId, login, i])),
    { orIgnore: true },
  );
  for (const it of issues) insertComments(db, repoId, it.number, it.comments);
}

function insertRepository(db: Db, r: GithubRepository) {
  let maxNumber = 0;
  for (const item of [...r.issues, ...r.pulls]) maxNumber = Math.max(maxNumber, item.number);
  db.run(
    `INSERT INTO gh_repos (id, owner, name, description, private, default_branch, topics, archived, collaborators,
       created_at, updated_at, pushed_at, next_number) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    r.id,
    r.owner,
    r.name,
    r.description,
    bool(r.private),
    r.default_branch,
    json(r.topics),
    bool(r.archived),
    json(r.collaborators),
    r.created_at,
    r.updated_at,
    r.updated_at,
    maxNumber + 1,
  );
  const labelIds = new Map<string, number>();
  r.labels.forEach((l, i) => {
    labelIds.set(l.name.toLowerCase(), l.id);
    db.run(
      "INSERT INTO gh_labels (id, repo_id, name, color, description, position) VALUES (?, ?, ?, ?, ?, ?)",
      l.id,
      r.id,
      l.name,
      l.color,
      l.description,
      i,
    );
  });
  for (const m of r.milestones) {
    db.run(
      `INSERT INTO gh_milestones (repo_id, number, title, state, description, due_on, created_at, updated_at, closed_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      r.id,
      m.number,
      m.title,
      m.state,
      m.description,
      m.due_on,
      r.created_at,
      r.created_at,
      m.state === "closed" ? r.created_at : null,
    );
  }
  // Each seeded branch is one root commit holding its files: seeds describe trees, not history.
  r.branches.forEach((b, i) => {
    const tree = b.files.map((f) => ({ path: f.path, blob_sha: putBlob(db, f.content) }));
    const commit = writeCommit(db, {
      repoId: r.id,
      branch: b.name,
      parents: [],
      tree,
      message: "Initial commit",
      author: r.owner,
      at: r.created_at,
    });
    db.run(
      "INSERT INTO gh_branches (repo_id, name, protected, head_sha, position) VALUES (?, ?, ?, ?, ?)",
      r.id,
      b.name,
      bool(b.protected),
      commit.sha,
      i,
    );
  });
  const applyLabels = (issueId: number, names: string[]) =>
    names.forEach((name, i) =>
      db.run(
        "INSERT INTO gh_issue_labels (issue_id, label_id, position) VALUES (?, ?, ?)",
        issueId,
        labelIds.get(name.toLowerCase()) ?? 0,
        i,
      ),
    );
  const applyAssignees = (issueId: number, logins: string[]) =>
    logins.forEach((login, i) =>
      db.run("INSERT OR IGNORE INTO gh_issue_assignees (issue_id, repo_id, login, position) VALUES (?, ?, ?, ?)", issueId, r.id, login, i),
    );
  // Issues are the bulk of a large world: they go in set-wise, a few statements per thousand.
  insertIssues(db, r.id, r.issues, labelIds);
  const insertPull = (p: GithubPull) => {
    db.run(
      `INSERT INTO gh_issues (id, repo_id, number, is_pull, title, body, state, state_reason, user, milestone,
         locked, active_lock_reason, created_at, updated_at, closed_at, comment_count, head, base, draft, merged, merged_at,
         merged_by, requested_reviewers) VALUES (?, ?, ?, 1, ?, ?, ?, NULL, ?, NULL, 0, NULL, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      p.id,
      r.id,
      p.number,
      p.title,
      p.body,
      p.state,
      p.user,
      p.created_at,
      p.updated_at,
      p.closed_at,
      p.comments.length,
      p.head,
      p.base,
      bool(p.draft),
      bool(p.merged),
      p.merged_at,
      p.merged_by,
      json(p.requested_reviewers),
    );
    applyLabels(p.id, p.labels);
    applyAssignees(p.id, p.assignees);
    insertComments(db, r.id, p.number, p.comments);
    for (const v of p.reviews) {
      db.run(
        "INSERT INTO gh_reviews (id, repo_id, pull_number, user, state, body, submitted_at, commit_id) VALUES (?, ?, ?, ?, ?, ?, ?, NULL)",
        v.id,
        r.id,
        p.number,
        v.user,
        v.state,
        v.body,
        v.submitted_at,
      );
    }
  };
  r.pulls.forEach(insertPull);
  db.run(
    "UPDATE gh_repos SET open_issues = (SELECT count(*) FROM gh_issues WHERE repo_id = ? AND state = 'open') WHERE id = ?",
    r.id,
    r.id,
  );
  for (const s of r.statuses) {
    const branch = db.one<{ head_sha: string }>("SELECT head_sha FROM gh_branches WHERE repo_id = ? AND name = ?", r.id, s.ref);
    db.run(
      `INSERT INTO gh_statuses (id, repo_id, ref, sha, context, state, description, target_url, creator, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      s.id,
      r.id,
      s.ref,
      branch?.head_sha ?? s.ref,
      s.context,
      s.state,
      s.description,
      s.target_url,
      s.creator,
      s.created_at,
    );
  }
}

export function bootGithub(db: Db, seed: GithubSeed, _clock: Clock): void {
  db.run("INSERT INTO gh_meta (key, value) VALUES ('authenticated_user', ?)", seed.authenticated_user);
  let maxId = 0;
  const track = (id: number) => (maxId = Math.max(maxId, id));
  for (const u of seed.users) {
    track(u.id);
    db.run("INSERT INTO gh_users (id, login, type, name, email) VALUES (?, ?, ?, ?, ?)", u.id, u.login, u.type, u.name, u.email);
  }
  for (const r of seed.repositories) {
    track(r.id);
    r.labels.forEach((l) => track(l.id));
    r.statuses.forEach((s) => track(s.id));
    for (const item of [...r.issues, ...r.pulls]) {
      track(item.id);
      item.comments.forEach((c) => track(c.id));
    }
    r.pulls.forEach((p) => p.reviews.forEach((v) => track(v.id)));
    insertRepository(db, r);
  }
  db.run("INSERT INTO gh_meta (key, value) VALUES ('next_id', ?)", String(maxId + 1));
}

function exportRepository(db: Db, r: RepoRow): GithubRepository {
  const assignees = new Map<number, string[]>();
  for (const row of db.all<{ issue_id: number; login: string }>(
    "SELECT issue_id, login FROM gh_issue_assignees WHERE repo_id = ? ORDER BY issue_id, position",
    r.id,
  )) {
    const list = assignees.get(row.issue_id) ?? [];
    list.push(row.login);
    assignees.set(row.issue_id, list);
  }
  const labelNames = new Map<number, string[]>();
  for (const row of db.all<{ issue_id: number; name: string }>(
    `SELECT il.issue_id, l.name FROM gh_issue_labels il JOIN gh_labels l ON l.id = il.label_id
     WHERE l.repo_id = ? ORDER BY il.issue_id, il.position`,
    r.id,
  )) {
    const list = labelNames.get(row.issue_id) ?? [];
    list.push(row.name);
    labelNames.set(row.issue_id, list);
  }
  const comments = new Map<number, GithubComment[]>();
  for (const c of db.all<GithubComment & { issue_number: number }>(
    "SELECT id, issue_number, user, body, created_at, updated_at FROM gh_comments WHERE repo_id = ? ORDER BY id",
    r.id,
  )) {
    const list = comments.get(c.issue_number) ?? [];
    list.push({ id: c.id, user: c.user, body: c.body, created_at: c.created_at, updated_at: c.updated_at });
    comments.set(c.issue_number, list);
  }
  const reviews = new Map<number, GithubPull["reviews"]>();
  for (const v of db.all<GithubPull["reviews"][number] & { pull_number: number }>(
    "SELECT id, pull_number, user, state, body, submitted_at FROM gh_reviews WHERE repo_id = ? ORDER BY id",
    r.id,
  )) {
    const list = reviews.get(v.pull_number) ?? [];
    list.push({ id: v.id, user: v.user, state: v.state, body: v.body, submitted_at: v.submitted_at });
    reviews.set(v.pull_number, list);
  }
  const issues: GithubIssue[] = [];
  const pulls: GithubPull[] = [];
  for (const row of db.all<IssueRow>("SELECT * FROM gh_issues WHERE repo_id = ? ORDER BY rowid", r.id)) {
    const common = {
      number: row.number,
      id: row.id,
      title: row.title,
      body: row.body,
      state: row.state,
      user: row.user,
      labels: labelNames.get(row.id) ?? [],
      assignees: assignees.get(row.id) ?? [],
      comments: comments.get(row.number) ?? [],
      created_at: row.created_at,
      updated_at: row.updated_at,
      closed_at: row.closed_at,
    };
    if (row.is_pull) {
      pulls.push({
        ...common,
        head: row.head ?? "",
        base: row.base ?? "",
        draft: row.draft === 1,
        merged: row.merged === 1,
        merged_at: row.merged_at,
        merged_by: row.merged_by,
        requested_reviewers: JSON.parse(row.requested_reviewers ?? "[]") as string[],
        reviews: reviews.get(row.number) ?? [],
      });
    } else {
      issues.push({
        ...common,
        state_reason: row.state_reason,
        milestone: row.milestone,
        locked: row.locked === 1,
        active_lock_reason: row.active_lock_reason,
      });
    }
  }
  // A branch's files are the tree of its head commit.
  const filesAt = (sha: string) =>
    db.all<{ path: string; content: string }>(
      "SELECT t.path, b.content FROM gh_tree_entries t JOIN gh_blobs b ON b.sha = t.blob_sha WHERE t.commit_sha = ? ORDER BY t.position, t.path",
      sha,
    );
  return {
    owner: r.owner,
    name: r.name,
    id: r.id,
    description: r.description,
    private: r.private === 1,
    default_branch: r.default_branch,
    topics: JSON.parse(r.topics) as string[],
    archived: r.archived === 1,
    collaborators: JSON.parse(r.collaborators) as string[],
    labels: db.all<GithubRepository["labels"][number]>(
      "SELECT name, id, color, description FROM gh_labels WHERE repo_id = ? ORDER BY position, id",
      r.id,
    ),
    milestones: db.all<GithubRepository["milestones"][number]>(
      "SELECT number, title, state, description, due_on FROM gh_milestones WHERE repo_id = ? ORDER BY rowid",
      r.id,
    ),
    branches: db
      .all<{ name: string; protected: number; head_sha: string }>(
        "SELECT name, protected, head_sha FROM gh_branches WHERE repo_id = ? ORDER BY position, rowid",
        r.id,
      )
      .map((b) => ({ name: b.name, protected: b.protected === 1, files: filesAt(b.head_sha) })),
    issues,
    pulls,
    statuses: db.all<GithubRepository["statuses"][number]>(
      "SELECT id, ref, context, state, description, target_url, creator, created_at FROM gh_statuses WHERE repo_id = ? ORDER BY id",
      r.id,
    ),
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

export function exportGithub(db: Db): GithubSeed {
  const actor = db.one<{ value: string }>("SELECT value FROM gh_meta WHERE key = 'authenticated_user'")?.value ?? "";
  return {
    authenticated_user: actor,
    users: db.all<GithubSeed["users"][number]>("SELECT login, id, type, name, email FROM gh_users ORDER BY rowid"),
    repositories: db.all<RepoRow>("SELECT * FROM gh_repos ORDER BY rowid").map((r) => exportRepository(db, r)),
  };
}
