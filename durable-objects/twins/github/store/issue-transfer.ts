// Moving an issue to another repository of the same owner (GraphQL transferIssue; REST has none).
// GitHub keeps comments and assignees, keeps labels the target repository has by name (creating
// the missing ones only with createLabelsIfMissing), drops the milestone, and gives the issue the
// target's next number (docs.github.com "Transferring an issue to another repository";
// @octokit/graphql-schema TransferIssueInput). The old number is remembered: REST answers it 301
// Moved Permanently to the issue where it is now (issues/get: "The API returns a 301 Moved
// Permanently status if the issue was transferred to another repository").
import { fail, ghError } from "../errors";
import type { RepoRow } from "../repos";
import { nextId, type Store } from "./base";
import { adjustOpenCount, allocateNumber, findIssue } from "./issues";
import type { IssueRow } from "./rows";

export function transferIssue(s: Store, from: RepoRow, issue: IssueRow, to: RepoRow, createLabelsIfMissing: boolean): IssueRow {
  const db = s.db;
  if (issue.is_pull) fail(ghError(422, "Pull requests cannot be transferred"));
  if (from.owner.toLowerCase() !== to.owner.toLowerCase())
    fail(ghError(422, "Issues can only be transferred between repositories of the same owner"));
  if (from.id === to.id) return issue;
  const labels = db.all<{ name: string; color: string; description: string | null }>(
    "SELECT l.name, l.color, l.description FROM gh_issue_labels il JOIN gh_labels l ON l.id = il.label_id WHERE il.issue_id = ? ORDER BY il.position",
    issue.id,
  );
  db.run("DELETE FROM gh_issue_labels WHERE issue_id = ?", issue.id);
  labels.forEach((l, position) => {
    let target = db.one<{ id: number }>("SELECT id FROM gh_labels WHERE repo_id = ? AND name = ? COLLATE NOCASE", to.id, l.name);
    if (!target && createLabelsIfMissing) {
      db.run(
        "INSERT INTO gh_labels (id, repo_id, name, color, description, position) VALUES (?, ?, ?, ?, ?, (SELECT coalesce(max(position), 0) + 1 FROM gh_labels WHERE repo_id = ?))",
        nextId(db),
        to.id,
        l.name,
        l.color,
        l.description,
        to.id,
      );
      target = db.one<{ id: number }>("SELECT id FROM gh_labels WHERE repo_id = ? AND name = ? COLLATE NOCASE", to.id, l.name);
    }
    if (target) db.run("INSERT INTO gh_issue_labels (issue_id, label_id, position) VALUES (?, ?, ?)", issue.id, target.id, position);
  });
  const number = allocateNumber(db, to.id);
  db.run(
    "UPDATE gh_comments SET repo_id = ?, issue_number = ? WHERE repo_id = ? AND issue_number = ?",
    to.id,
    number,
    from.id,
    issue.number,
  );
  for (const table of ["gh_issue_assignees", "gh_issue_events", "gh_notifications"]) {
    db.run(`UPDATE ${table} SET repo_id = ? WHERE issue_id = ?`, to.id, issue.id);
  }
  db.run("UPDATE gh_sub_issues SET repo_id = ? WHERE child_id = ?", to.id, issue.id);
  db.run("UPDATE gh_issues SET repo_id = ?, number = ?, milestone = NULL, updated_at = ? WHERE id = ?", to.id, number, s.now, issue.id);
  db.run("INSERT OR REPLACE INTO gh_issue_moves (repo_id, number, issue_id) VALUES (?, ?, ?)", from.id, issue.number, issue.id);
  if (issue.state === "open") {
    adjustOpenCount(db, from.id, -1);
    adjustOpenCount(db, to.id, 1);
  }
  return findIssue(db, to.id, number) as IssueRow;
}
