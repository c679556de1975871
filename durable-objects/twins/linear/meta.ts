// The world's constants in lin_meta: the workspace, the viewer and the seeded faults. Every call
// needs them (the platform asks for the faults, /graphql for the viewer, issue urls for the
// workspace's urlKey) and only boot writes them, so they are read in one statement the first time
// a Db is asked and kept for that Db. Boot forgets them before and after it writes, so a sandbox
// booted again, or a boot that failed and rolled back, is read afresh. The counters that also live
// in lin_meta (last_sync_id, next_id) change with every mutation and are never kept here.
import type { Db } from "../../sql";
import type { LinearSeed } from "./seed";

export interface Organization {
  id: string;
  name: string;
  urlKey: string;
}

export interface WorldConstants {
  organization: Organization;
  /** The seeded viewer's id; "" when the seed names none. */
  viewerId: string;
  faults: LinearSeed["faults"];
}

/** The keys of lin_meta that only boot writes. */
export const CONSTANT_KEYS = ["organization", "viewer_id", "faults"] as const;

const kept = new WeakMap<Db, WorldConstants>();

export function worldConstants(db: Db): WorldConstants {
  let hit = kept.get(db);
  if (!hit) {
    const rows = db.all<{ key: string; value: string }>(
      "SELECT key, value FROM lin_meta WHERE key IN ('organization', 'viewer_id', 'faults')",
    );
    const value = (key: (typeof CONSTANT_KEYS)[number]) => rows.find((r) => r.key === key)?.value;
    const organization = value("organization");
    const faults = value("faults");
    hit = {
      organization: organization ? (JSON.parse(organization) as Organization) : { id: "", name: "", urlKey: "" },
      viewerId: value("viewer_id") ?? "",
      faults: faults ? (JSON.parse(faults) as LinearSeed["faults"]) : [],
    };
    kept.set(db, hit);
  }
  return hit;
}

/** Drops what was kept for a Db: called by whatever writes one of CONSTANT_KEYS. */
export function forgetWorldConstants(db: Db): void {
  kept.delete(db);
}
