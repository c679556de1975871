// Miniflare, configured once for both local servers: offline, nothing recorded beyond the state
// folder, and the D1 migrations applied the way wrangler records them.
import path from "node:path";
import { Log, LogLevel, Miniflare, convertV4MiniflareOptions } from "miniflare";
import { unstable_splitSqlQuery } from "wrangler";
import { migrationFiles } from "./local.mjs";

/** Miniflare options no matter which worker runs: offline, nothing recorded beyond the state. */
export function sharedOptions(stateDir) {
  return {
    resourcePersistencePath: path.join(stateDir, "v3"),
    enableDevRegistry: false,
    unsafeLocalExplorer: false,
    unsafeObservability: false,
    telemetry: { enabled: false },
    cf: false,
    logRequests: false,
    log: new Log(LogLevel.WARN),
  };
}

// Options in the (documented) Miniflare 4 shape, which wrangler itself converts the same way.
export const miniflare = (options) => new Miniflare(convertV4MiniflareOptions(options));

/** Applies the migrations wrangler has not recorded yet; says how many there are and how many were new. */
export async function applyD1Migrations(stateDir, d1Databases) {
  const mf = miniflare({
    ...sharedOptions(stateDir),
    host: "127.0.0.1",
    port: 0,
    workers: [{ name: "pome-migrate", modules: true, script: "export default { fetch: () => new Response(null, { status: 404 }) }", d1Databases }],
  });
  try {
    const db = await mf.getD1Database("DB");
    await db.exec("CREATE TABLE IF NOT EXISTS d1_migrations (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT UNIQUE, applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL)");
    const applied = new Set((await db.prepare("SELECT name FROM d1_migrations").all()).results.map((r) => r.name));
    const files = migrationFiles();
    let fresh = 0;
    for (const file of files) {
      if (applied.has(file.name)) continue;
      const statements = unstable_splitSqlQuery(file.sql).map((sql) => db.prepare(sql));
      // One batch is one transaction: a migration is recorded only when all of it applied.
      await db.batch([...statements, db.prepare("INSERT INTO d1_migrations (name) VALUES (?)").bind(file.name)]);
      fresh++;
    }
    return `${files.length} of ${files.length} applied${fresh ? `, ${fresh} of them just now` : ""}`;
  } finally {
    await mf.dispose();
  }
}

