// Repository labels (names unique case-insensitively) and the labels applied to an issue.
// Applying a label the repository does not define creates it with GitHub's default color, as
// GitHub does for anyone with push access (the reference's twin refuses; the real service wins).
import type { Db } from "../../types";
import { fail, ghError, ghNotFound, ghValidationFailed } from "../errors";
import { nextId, type Store } from "./base";
import { recordEvent } from "./events";
import type { LabelRow } from "./rows";

export const DEFAULT_LABEL_COLOR = "ededed";

export const findLabel = (db: Db, repoId: number, name: string) =>
  db.one<LabelRow>("SELECT * FROM gh_labels WHERE repo_id = ? AND name = ? COLLATE NOCASE", repoId, name);

export const requireLabel = (db: Db, repoId: number, name: string) => findLabel(db, repoId, name) ?? fail(ghNotFound());

export function listRepoLabels(db: Db, repoId: number, limit: number, offset: number) {
  return {
    rows: db.all<LabelRow>("SELECT * FROM gh_labels WHERE repo_id = ? ORDER BY position, id LIMIT ? OFFSET ?", repoId, limit, offset),
    total: db.one<{ n: number }>("SELECT count(*) AS n FROM gh_labels WHERE repo_id = ?", repoId)?.n ?? 0,
  };
}

function checkColor(color: string): string {
  const value = color.replace(/^#/, "");
  if (!/^[0-9a-fA-F]{6}$/.test(value)) fail(ghValidationFailed([{ resource: "Label", code: "invalid", field: "color" }]));
  return value.toLowerCase();
}

export function createLabel(s: Store, repoId: number, input: { name: string; color?: string; description?: string | null }): LabelRow {
  if (findLabel(s.db, repoId, input.name)) fail(ghValidationFailed([{ resource: "Label", code: "already_exists", field: "name" }]));
  const id = nextId(s.db);
  // The id is larger than every seeded label's position, so new labels list after the seeded ones.
  s.db.run(
    "INSERT INTO gh_labels (id, repo_id, name, color, description, position) VALUES (?, ?, ?, ?, ?, ?)",
    id,
    repoId,
    input.name,
    input.color === undefined ? DEFAULT_LABEL_COLOR : checkColor(input.color),
    input.description ?? null,
    id,
  );
  return findLabel(s.db, repoId, input.name) as LabelRow;
}

export function updateLabel(
  s: Store,
  label: LabelRow,
  patch: { new_name?: string; color?: string; description?: string | null },
): LabelRow {
  const name = patch.new_name ?? label.name;
  if (patch.new_name !== undefined) {
    const clash = findLabel(s.db, label.repo_id, patch.new_name);
    if (clash && clash.id !== label.id) fail(ghValidationFailed([{ resource: "Label", code: "already_exists", field: "name" }]));
  }
  const color = patch.color === undefined ? label.color : checkColor(patch.color);
  const description = patch.description === undefined ? label.description : patch.description;
  s.db.run("UPDATE gh_labels SET name = ?, color = ?, description = ? WHERE id = ?", name, color, description, label.id);
  return { ...label, name, color, description };
}

/** Deleting a label takes it off every issue that had it, as on GitHub. */
export function deleteLabel(s: Store, label: LabelRow): void {
  s.db.run("DELETE FROM gh_issue_labels WHERE label_id = ?", label.id);
  s.db.run("DELETE FROM gh_labels WHERE id = ?", label.id);
}

/** The repository's label of that name, created with the default color when missing. */
export function ensureLabel(s: Store, repoId: number, name: string): LabelRow {
  return findLabel(s.db, repoId, name) ?? createLabel(s, repoId, { name });
}

export const issueLabels = (db: Db, issueId: number) =>
  db.all<LabelRow>(
    "SELECT l.* FROM gh_issue_labels il JOIN gh_labels l ON l.id = il.label_id WHERE il.issue_id = ? ORDER BY il.position, l.id",
    issueId,
  );

/** Adds labels (creating undefined ones); `replace` first removes the issue's current labels. */
export function applyLabels(s: Store, repoId: number, issueId: number, names: readonly string[], replace: boolean): void {
  const issue = { id: issueId, repo_id: repoId };
  const before = replace ? issueLabels(s.db, issueId) : [];
  const kept = new Set<number>();
  if (replace) s.db.run("DELETE FROM gh_issue_labels WHERE issue_id = ?", issueId);
  let position =
    (s.db.one<{ p: number | null }>("SELECT max(position) AS p FROM gh_issue_labels WHERE issue_id = ?", issueId)?.p ?? -1) + 1;
  for (const name of names) {
    const label = ensureLabel(s, repoId, name);
    const added = s.db.run(
      "INSERT OR IGNORE INTO gh_issue_labels (issue_id, label_id, position) VALUES (?, ?, ?)",
      issueId,
      label.id,
      position,
    );
    if (added) position++;
    kept.add(label.id);
    if (added && !before.some((b) => b.id === label.id))
      recordEvent(s, issue, "labeled", { label: { name: label.name, color: label.color } });
  }
  for (const b of before) if (!kept.has(b.id)) recordEvent(s, issue, "unlabeled", { label: { name: b.name, color: b.color } });
}

export function removeIssueLabel(s: Store, repoId: number, issueId: number, name: string): void {
  const label = findLabel(s.db, repoId, name);
  const removed = label ? s.db.run("DELETE FROM gh_issue_labels WHERE issue_id = ? AND label_id = ?", issueId, label.id) : 0;
  if (!removed) fail(ghError(404, "Label does not exist", {}, "https://docs.github.com/rest/issues/labels#remove-a-label-from-an-issue"));
  if (label) recordEvent(s, { id: issueId, repo_id: repoId }, "unlabeled", { label: { name: label.name, color: label.color } });
}
