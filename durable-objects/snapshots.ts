// The world each twin booted with, kept in the Sandbox's own storage beside the tape. It is the
// normalized seed itself (export(boot(seed)) equals it), so keeping it costs no re-export, and
// writing it in the boot transaction keeps sandbox creation off R2; finalize and archive copy it
// to R2 as `state_initial.<twin>.json`.
import type { Db } from "./sql";
import { textPages } from "./text-pages";
import type { TwinId } from "./twins/registry";

export const SNAPSHOTS_MIGRATION = {
  name: "0003_snapshots",
  sql: "CREATE TABLE _snapshots (twin TEXT NOT NULL, part INTEGER NOT NULL, data TEXT NOT NULL, PRIMARY KEY (twin, part))",
};

/** Durable Object SQLite values are capped at 2 MB; large worlds are stored in parts. */
const PART_CHARS = 512 * 1024;

/** Stores a state as JSON text (the seed's own text when nothing in it was redacted). */
export function saveSnapshotText(db: Db, twin: TwinId, text: string): void {
  db.run("DELETE FROM _snapshots WHERE twin = ?", twin);
  // Parts never end inside a surrogate pair: SQLite would store each half as U+FFFD.
  textPages(text, PART_CHARS).forEach((data, part) => {
    db.run("INSERT INTO _snapshots (twin, part, data) VALUES (?, ?, ?)", twin, part, data);
  });
}

export function readSnapshots(db: Db, twins: readonly TwinId[]): Partial<Record<TwinId, unknown>> {
  const out: Partial<Record<TwinId, unknown>> = {};
  for (const twin of twins) {
    const parts = db.all<{ data: string }>("SELECT data FROM _snapshots WHERE twin = ? ORDER BY part", twin);
    if (parts.length) out[twin] = JSON.parse(parts.map((p) => p.data).join("")) as unknown;
  }
  return out;
}
