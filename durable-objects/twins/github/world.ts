// Boot and export: the seed goes into the gh_ tables, and the tables come back out in the seed's
// own shape, in insertion order, so export(boot(seed)) equals the normalized seed. Which column
// keeps which field is declared once, per table, in world-tables.ts.
import type { Db } from "../types";
import { bool, bulkInsert, groupBy, insertRows, loadWithIndexesRebuilt } from "../kit/sql";
import { type StoredRow, insertObjects, insertPlaced, objectOf, readRows } from "../kit/world-table";
import type { Clock } from "../types";
import type { GithubComment, GithubIssue, GithubPull, GithubRepository, GithubSeed } from "./seed";
import { putBlob, writeCommit } from "./store/git";
import { BARE_PROTECTION, findProtection, protectionFromSeed, protectionToSeed, saveProtection } from "./store/protection";
import * as T from "./world-tables";
import { ciIds } from "./seed-ci";
import { bootCi, exportCi } from "./world-ci";
import { bootOrgs, exportOrgs, orgIds } from "./world-orgs";
import { bootNotifications } from "./store/notifications";
import { bootLinks, movesByIssue, requestedTeamsByPull } from "./world-links";

/** The comments of each issue or pull request, placed by its repository and number. */
function commentsOn(repoId: number, items: readonly (GithubIssue | GithubPull)[]) {
  return items.flatMap((it) => it.comments.map((value) => ({ value, place: { repoId, number: it.number } })));
}

/**
 * Labels and assignees of issues and pull requests, set-wise. Each item goes in once as
 * [id, [label ids…]]; a second jsonb_each unnests the list, its key being the label's position.
 * One row per label flattened in JS cost an array and three reads each. Rows arrive in issue
 * order, the primary key's; the index by label is rebuilt once afterwards.
 */
function insertLabelsAndAssignees(
  db: Db,
  repoId: number,
  items: readonly (GithubIssue | GithubPull)[],
  labelIds: Map<string, number>,
): void {
  const labelled = items.filter((it) => it.labels.length);
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
    items.flatMap((it) => it.assignees.map((login, i) => [it.id, repoId, login, i])),
    { orIgnore: true },
  );
}

/** Each seeded branch is one root commit holding its files: seeds describe trees, not history. Returns each branch's head. */
function insertBranches(db: Db, r: GithubRepository): Map<string, string> {
  const heads = new Map<string, string>();
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
      bool(b.protected || b.protection !== undefined),
      commit.sha,
      i,
    );
    if (b.protection) saveProtection(db, r.id, b.name, protectionFromSeed(b.protection));
    heads.set(b.name, commit.sha);
  });
  return heads;
}

function insertRepository(db: Db, r: GithubRepository) {
  let maxNumber = 0;
  for (const item of [...r.issues, ...r.pulls]) maxNumber = Math.max(maxNumber, item.number);
  insertPlaced(db, T.repositories, [{ value: r, place: { nextNumber: maxNumber + 1 } }], undefined);
  const inRepo = <V>(rows: readonly V[]) => rows.map((value, position) => ({ value, place: { repo: r, position } }));
  insertPlaced(db, T.labels, inRepo(r.labels), undefined);
  insertPlaced(db, T.milestones, inRepo(r.milestones), undefined);
  const heads = insertBranches(db, r);
  // Issues are the bulk of a large world: they go in set-wise, a few statements per thousand, the
  // columns every issue shares bound once rather than read from each row.
  const inThisRepo = <V>(rows: readonly V[]) => rows.map((value) => ({ value, place: r.id }));
  insertPlaced(db, T.issues, inThisRepo(r.issues), undefined);
  insertPlaced(db, T.pulls, inThisRepo(r.pulls), undefined);
  insertLabelsAndAssignees(db, r.id, [...r.issues, ...r.pulls], new Map(r.labels.map((l) => [l.name.toLowerCase(), l.id])));
  insertPlaced(db, T.comments, commentsOn(r.id, [...r.issues, ...r.pulls]), undefined);
  insertPlaced(
    db,
    T.reviews,
    r.pulls.flatMap((p) => p.reviews.map((value) => ({ value, place: { repoId: r.id, number: p.number } }))),
    undefined,
  );
  insertPlaced(
    db,
    T.reviewComments,
    r.pulls.flatMap((p) => p.review_comments.map((value) => ({ value, place: { repoId: r.id, number: p.number } }))),
    undefined,
  );
  db.run(
    "UPDATE gh_repos SET open_issues = (SELECT count(*) FROM gh_issues WHERE repo_id = ? AND state = 'open') WHERE id = ?",
    r.id,
    r.id,
  );
  insertPlaced(
    db,
    T.statuses,
    r.statuses.map((value) => ({ value, place: { repoId: r.id, sha: heads.get(value.ref) ?? value.ref } })),
    undefined,
  );
  bootCi(db, r, heads);
}

/** Past every id the seed holds: where ids the twin hands out start. */
function nextId(seed: GithubSeed): number {
  let maxId = 0;
  const track = (id: number) => (maxId = Math.max(maxId, id));
  seed.users.forEach((u) => track(u.id));
  for (const r of seed.repositories) {
    track(r.id);
    r.labels.forEach((l) => track(l.id));
    r.statuses.forEach((s) => track(s.id));
    for (const item of [...r.issues, ...r.pulls]) {
      track(item.id);
      item.comments.forEach((c) => track(c.id));
    }
    r.pulls.forEach((p) => p.reviews.forEach((v) => track(v.id)));
    r.pulls.forEach((p) => p.review_comments.forEach((c) => track(c.id)));
    ciIds(r).forEach(track);
  }
  orgIds(seed.organizations).forEach(track);
  return maxId + 1;
}

export function bootGithub(db: Db, seed: GithubSeed, _clock: Clock): void {
  db.run("INSERT INTO gh_meta (key, value) VALUES ('authenticated_user', ?)", seed.authenticated_user);
  insertObjects(db, T.users, seed.users, undefined);
  for (const r of seed.repositories) insertRepository(db, r);
  bootOrgs(db, seed.organizations);
  bootLinks(db, seed);
  bootNotifications(db, seed);
  db.run("INSERT INTO gh_meta (key, value) VALUES ('next_id', ?)", String(nextId(seed)));
}

/** Each item's values of one column of a list table, by item id, in position order. */
function listsByItem<V>(rows: readonly { issue_id: number; value: V }[]): Map<number, V[]> {
  const lists = new Map<number, V[]>();
  for (const row of rows) {
    const list = lists.get(row.issue_id);
    if (list) list.push(row.value);
    else lists.set(row.issue_id, [row.value]);
  }
  return lists;
}

/** The issues and pull requests of a repository, with their labels, assignees, comments and reviews. */
function exportItems(db: Db, repoId: number): { issues: GithubIssue[]; pulls: GithubPull[] } {
  const assignees = listsByItem(
    db.all<{ issue_id: number; value: string }>(
      "SELECT issue_id, login AS value FROM gh_issue_assignees WHERE repo_id = ? ORDER BY issue_id, position",
      repoId,
    ),
  );
  const labelNames = listsByItem(
    db.all<{ issue_id: number; value: string }>(
      `SELECT il.issue_id, l.name AS value FROM gh_issue_labels il JOIN gh_labels l ON l.id = il.label_id
       WHERE l.repo_id = ? ORDER BY il.issue_id, il.position`,
      repoId,
    ),
  );
  const byNumber = (table: string, column: string) =>
    groupBy(readRows(db, table, "WHERE repo_id = ? ORDER BY id", repoId), (r) => r[column]);
  const comments = byNumber(T.comments.table, "issue_number");
  const reviews = byNumber(T.reviews.table, "pull_number");
  const reviewComments = byNumber(T.reviewComments.table, "pull_number");
  const teams = requestedTeamsByPull(db, repoId);
  const moves = movesByIssue(db, repoId);
  const issues: GithubIssue[] = [];
  const pulls: GithubPull[] = [];
  for (const row of readRows(db, T.issues.table, "WHERE repo_id = ? ORDER BY rowid", repoId)) {
    const id = Number(row.id);
    const common = {
      labels: labelNames.get(id) ?? [],
      assignees: assignees.get(id) ?? [],
      comments: (comments.get(row.number) ?? []).map((c): GithubComment => objectOf(T.comments, c, undefined)),
    };
    if (row.is_pull) {
      const parts = {
        ...common,
        requested_teams: teams.get(id) ?? [],
        reviews: (reviews.get(row.number) ?? []).map((v) => objectOf(T.reviews, v, undefined)),
        review_comments: (reviewComments.get(row.number) ?? []).map((c) => objectOf(T.reviewComments, c, undefined)),
      };
      pulls.push(objectOf(T.pulls, row, undefined, parts));
    } else issues.push(objectOf(T.issues, row, undefined, { ...common, moved_from: moves.get(id) ?? [] }));
  }
  return { issues, pulls };
}

function exportRepository(db: Db, r: StoredRow): GithubRepository {
  const repoId = Number(r.id);
  const inRepo = (table: string, order: string) => readRows(db, table, `WHERE repo_id = ? ORDER BY ${order}`, repoId);
  // A branch's files are the tree of its head commit.
  const filesAt = (sha: string) =>
    db.all<{ path: string; content: string }>(
      "SELECT t.path, b.content FROM gh_tree_entries t JOIN gh_blobs b ON b.sha = t.blob_sha WHERE t.commit_sha = ? ORDER BY t.position, t.path",
      sha,
    );
  const { issues, pulls } = exportItems(db, repoId);
  return objectOf(T.repositories, r, undefined, {
    labels: inRepo(T.labels.table, "position, id").map((l) => objectOf(T.labels, l, undefined)),
    milestones: inRepo(T.milestones.table, "rowid").map((m) => objectOf(T.milestones, m, undefined)),
    branches: db
      .all<{ name: string; protected: number; head_sha: string }>(
        "SELECT name, protected, head_sha FROM gh_branches WHERE repo_id = ? ORDER BY position, rowid",
        repoId,
      )
      .map((b) => {
        const p = b.protected === 1 ? findProtection(db, repoId, b.name) : undefined;
        const protection = p && p !== BARE_PROTECTION ? { protection: protectionToSeed(p) } : {};
        return { name: b.name, protected: b.protected === 1, ...protection, files: filesAt(b.head_sha) };
      }),
    issues,
    pulls,
    statuses: inRepo(T.statuses.table, "id").map((s) => objectOf(T.statuses, s, undefined)),
    ...exportCi(db, repoId),
  });
}

export function exportGithub(db: Db): GithubSeed {
  const actor = db.one<{ value: string }>("SELECT value FROM gh_meta WHERE key = 'authenticated_user'")?.value ?? "";
  return {
    authenticated_user: actor,
    users: readRows(db, T.users.table).map((u) => objectOf(T.users, u, undefined)),
    repositories: readRows(db, T.repositories.table).map((r) => exportRepository(db, r)),
    organizations: exportOrgs(db),
  };
}
