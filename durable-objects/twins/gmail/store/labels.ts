// User labels: names unique case-insensitively, ids `Label_n`.
import type { Db } from "../../types";

export interface LabelRow {
  id: string;
  name: string;
  list_visibility: string;
  message_visibility: string;
  color: string | null;
}

export const userLabels = (db: Db) =>
  db.all<LabelRow>("SELECT id, name, list_visibility, message_visibility, color FROM gm_labels ORDER BY position, id");

export const userLabel = (db: Db, id: string) =>
  db.one<LabelRow>("SELECT id, name, list_visibility, message_visibility, color FROM gm_labels WHERE id = ?", id);

/** User label names (lower case) by id, for `label:` searches. */
export function labelNames(db: Db): Map<string, string> {
  return new Map(userLabels(db).map((l) => [l.id, l.name.toLowerCase()]));
}
