#!/usr/bin/env node
// What a local server needs before it starts, worked out in a process of its own so the server's
// long-lived process never loads wrangler (~140 MiB resident): the Worker's Miniflare options as
// wrangler derives them from `wrangler.toml`, and the D1 migrations applied to the local
// database, recorded in the `d1_migrations` table as `wrangler d1 migrations apply` records them.
// Run as a script, it prints {"workerOptions", "migrations"} as JSON on stdout.
import path from "node:path";
import { pathToFileURL } from "node:url";
import { unstable_getMiniflareWorkerOptions, unstable_splitSqlQuery } from "wrangler";
import { localSettings, migrationFiles, root } from "./local.mjs";
import { miniflare, sharedOptions } from "./local-miniflare.mjs";

export async function prepare(stateDir = localSettings().stateDir) {
  const { workerOptions } = unstable_getMiniflareWorkerOptions(path.join(root, "wrangler.toml"));
  const migrations = await applyD1Migrations(stateDir, workerOptions.d1Databases);
  return { workerOptions, migrations };
}

/** Applies the migrations wrangler has not recorded yet; says how many there are and how many were new. */
async function applyD1Migrations(stateDir, d1Databases) {
  const mf = miniflare({
    ...sharedOptions(stateDir),
    host: "127.0.0.1",
    port: 0,
    workers: [
      { name: "pome-migrate", modules: true, script: "export default { fetch: () => new Response(null, { status: 404 }) }", d1Databases },
    ],
  });
  try {
    const db = await mf.getD1Database("DB");
    await db.exec(
      "CREATE TABLE IF NOT EXISTS d1_migrations (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT UNIQUE, applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL)",
    );
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

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  prepare()
    .then((prepared) => process.stdout.write(`${JSON.stringify(prepared)}\n`))
    .catch((err) => {
      console.error(err?.message ?? err);
      process.exit(1);
    });
}
