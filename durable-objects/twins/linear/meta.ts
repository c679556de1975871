// The world's constants in lin_meta: the workspace, the viewer and the seeded faults. Every call
// needs them (the platform asks for the faults, /graphql for the viewer, issue urls for the
// workspace's urlKey) and only boot writes them, so they are read in one statement per sandbox
// and kept (the kit's perStorage; its contract test holds these keys to boot). The counters that
// also live in lin_meta (last_sync_id, next_id) change with every mutation and are never kept.
import type { Db } from "../types";
import { perStorage } from "../kit/boot-constants";
import type { LinearSeed } from "./seed";

export interface Organization {
  id: string;
  name: string;
  urlKey: string;
}

export interface WorldConstants {
  readonly organization: Readonly<Organization>;
  /** The seeded viewer's id; "" when the seed names none. */
  readonly viewerId: string;
  readonly faults: Readonly<LinearSeed["faults"]>;
  /** Hourly limits the seed set in place of Linear's (ratelimit.ts); undefined when it set none. */
  readonly rateLimits: Readonly<{ requests: number; complexity: number }> | undefined;
}

/** The keys of lin_meta that only boot writes, and the one statement that reads them. */
const CONSTANT_KEYS = ["organization", "viewer_id", "faults", "rate_limits"] as const;
const READ_CONSTANTS = `SELECT key, value FROM lin_meta WHERE key IN (${CONSTANT_KEYS.map((k) => `'${k}'`).join(", ")})`;

const kept = perStorage<WorldConstants>();

export function worldConstants(db: Db): WorldConstants {
  return kept(db).get("", () => {
    const rows = db.all<{ key: string; value: string }>(READ_CONSTANTS);
    const value = (key: (typeof CONSTANT_KEYS)[number]) => rows.find((r) => r.key === key)?.value;
    const organization = value("organization");
    const faults = value("faults");
    const rateLimits = value("rate_limits");
    // Shared by every later call of the sandbox, so frozen: a resolver that changed one would
    // throw instead of changing the next call's answer.
    return Object.freeze({
      organization: Object.freeze(organization ? (JSON.parse(organization) as Organization) : { id: "", name: "", urlKey: "" }),
      viewerId: value("viewer_id") ?? "",
      faults: Object.freeze(faults ? (JSON.parse(faults) as LinearSeed["faults"]) : []),
      rateLimits: rateLimits ? Object.freeze(JSON.parse(rateLimits) as { requests: number; complexity: number }) : undefined,
    });
  });
}
