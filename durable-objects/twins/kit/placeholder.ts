// A twin whose own issue has not landed: it boots whatever it is given (its state export is that
// seed, untouched) and answers every call 501 in the vendor's own error shape, taped
// `unsupported`. It never fakes success. The vendor's folder supplies what only it knows.
import type { CredentialFormat, TwinDefinition, TwinId, TwinRequest, TwinResponse } from "../types";

export interface PlaceholderSpec {
  id: TwinId;
  displayName: string;
  credential: CredentialFormat;
  /** The provider's own root paths, for the credential-routed form. */
  rootPrefixes: readonly string[];
  tapeHeaders?: readonly string[];
  secretPatterns: readonly RegExp[];
  transportFor?(path: string): TwinDefinition["transportFor"] extends ((p: string) => infer T) | undefined ? T : never;
  /** The retry rule of the vendor's official client (see TwinDefinition.clientRetries). */
  clientRetries(res: TwinResponse): boolean;
  /** The vendor's error shape; `status` is what the platform means (401, 410, 500, 501). */
  error(status: number, message: string, req?: TwinRequest): TwinResponse;
}

export function placeholderTwin(spec: PlaceholderSpec): TwinDefinition<unknown> {
  const table = `${spec.id}_placeholder_state`;
  return {
    id: spec.id,
    displayName: spec.displayName,
    implemented: false,
    parseSeed: (raw) => ({ ok: true, seed: raw ?? {} }),
    defaultSeed: () => ({}),
    migrations: [`CREATE TABLE IF NOT EXISTS ${table} (id INTEGER PRIMARY KEY CHECK (id = 1), seed TEXT NOT NULL)`],
    boot(db, seed) {
      db.run(`INSERT OR REPLACE INTO ${table} (id, seed) VALUES (1, ?)`, JSON.stringify(seed ?? {}));
    },
    exportState(db) {
      const row = db.one<{ seed: string }>(`SELECT seed FROM ${table} WHERE id = 1`);
      return row ? (JSON.parse(row.seed) as unknown) : {};
    },
    routes: [],
    errors: {
      notImplemented: (req) => spec.error(501, `The ${spec.displayName} twin does not implement ${req.method} ${req.path} yet`, req),
      unauthorized: (message) => spec.error(401, message),
      gone: (message) => spec.error(410, message),
      internal: (message) => spec.error(500, message),
    },
    transportFor: spec.transportFor,
    tapeHeaders: spec.tapeHeaders ?? [],
    credential: spec.credential,
    secretPatterns: spec.secretPatterns,
    claimsRootPath: (path) => spec.rootPrefixes.some((p) => path === p || path.startsWith(p)),
    tools: [],
    checks: [],
    clientRetries: spec.clientRetries,
  };
}
