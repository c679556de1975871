// Trigger ids and views (views.*): a trigger id is exchanged once for a modal, before it expires
// on the sandbox clock; a view is kept as the seed declares it (store/../seed-surfaces.ts), the
// payload the app sent beside what Slack adds (id, hash, its stack), and answered in the shape of
// Slack's view object (views.open's example in Slack's OpenAPI description).
import type { Db } from "../../types";
import type { SlackTriggerId, SlackView } from "../seed-surfaces";

export interface ViewRow {
  id: string;
  user: string;
  kind: string;
  external_id: string | null;
  data: string;
}

export const viewOfRow = (row: ViewRow) => JSON.parse(row.data) as SlackView;

export const viewRow = (db: Db, id: string) => db.one<ViewRow>("SELECT * FROM sl_views WHERE id = ?", id);
export const viewByExternalId = (db: Db, externalId: string) => db.one<ViewRow>("SELECT * FROM sl_views WHERE external_id = ?", externalId);
/** A user's App Home, if one was published for them. */
export const homeOf = (db: Db, user: string) => db.one<ViewRow>("SELECT * FROM sl_views WHERE kind = 'home' AND user = ?", user);

export const externalIdOf = (v: SlackView) =>
  typeof v.view.external_id === "string" && v.view.external_id !== "" ? v.view.external_id : null;
export const kindOf = (v: SlackView) => (v.view.type === "home" ? "home" : "modal");

/** Writes a view (a new one or a new version of one), keyed by its id. */
export function saveView(db: Db, v: SlackView): void {
  // An upsert, not a replace: a view keeps its place (rowid) across versions.
  db.run(
    `INSERT INTO sl_views (id, user, kind, external_id, data) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET user = excluded.user, kind = excluded.kind, external_id = excluded.external_id, data = excluded.data`,
    v.id,
    v.user,
    kindOf(v),
    externalIdOf(v),
    JSON.stringify(v),
  );
}

export interface TriggerRow {
  id: string;
  user: string;
  expires_at: number | null;
  exchanged: number;
}

export const triggerRow = (db: Db, id: string) => db.one<TriggerRow>("SELECT * FROM sl_triggers WHERE id = ?", id);

export function saveTrigger(db: Db, t: SlackTriggerId): void {
  db.run(
    "INSERT OR REPLACE INTO sl_triggers (id, user, expires_at, exchanged) VALUES (?, ?, ?, ?)",
    t.id,
    t.user,
    t.expires_at ?? null,
    t.exchanged ? 1 : 0,
  );
}
