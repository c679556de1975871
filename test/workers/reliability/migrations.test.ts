// Storage migrations are append-only and verified: a list applied before must be a prefix of the
// list declared today, or the Durable Object refuses to start instead of silently skipping.
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { MigrationDriftError, applyMigrations, twinMigrationList } from "../../../durable-objects/sql";
import { TWINS } from "../../../durable-objects/twins/registry";

const A = { name: "0000_a", sql: "CREATE TABLE t_a (x INTEGER)" };
const B = { name: "0001_b", sql: "CREATE TABLE t_b (x INTEGER)" };
const C = { name: "0002_c", sql: "CREATE TABLE t_c (x INTEGER)" };

/** Runs fn against the SQL storage of a fresh Durable Object. */
function withStorage<T>(fn: (sql: SqlStorage) => T): Promise<T> {
  return runInDurableObject(env.SANDBOX.get(env.SANDBOX.newUniqueId()), (_instance, state) => fn(state.storage.sql));
}

const tables = (sql: SqlStorage) =>
  sql
    .exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 't_%' ORDER BY name")
    .toArray()
    .map((r) => r.name);

describe("storage migrations are append-only and verified", () => {
  it("applies a list once, then only what was appended", async () => {
    const after = await withStorage((sql) => {
      applyMigrations(sql, "test", [A]);
      applyMigrations(sql, "test", [A]);
      applyMigrations(sql, "test", [A, B]);
      return tables(sql);
    });
    expect(after).toEqual(["t_a", "t_b"]);
  });

  it("fails loudly on an edited migration", async () => {
    await withStorage((sql) => {
      applyMigrations(sql, "test", [A, B]);
      expect(() => applyMigrations(sql, "test", [A, { ...B, sql: "CREATE TABLE t_b (x INTEGER, y TEXT)" }])).toThrow(MigrationDriftError);
    });
  });

  it("fails loudly on a reordered list", async () => {
    await withStorage((sql) => {
      applyMigrations(sql, "test", [A, B]);
      expect(() => applyMigrations(sql, "test", [B, A])).toThrow(/append-only/);
    });
  });

  it("fails loudly when an entry was inserted, even one named by position", async () => {
    await withStorage((sql) => {
      const before = twinMigrationList({ id: "demo", migrations: [A.sql, C.sql] });
      applyMigrations(sql, before.list, before.migrations);
      // Inserting B shifts C to position 2: demo_0001 now names different SQL.
      const after = twinMigrationList({ id: "demo", migrations: [A.sql, B.sql, C.sql] });
      expect(() => applyMigrations(sql, after.list, after.migrations)).toThrow(MigrationDriftError);
      expect(tables(sql)).toEqual(["t_a", "t_c"]);
    });
  });

  it("fails loudly when an applied migration was removed", async () => {
    await withStorage((sql) => {
      applyMigrations(sql, "test", [A, B]);
      expect(() => applyMigrations(sql, "test", [A])).toThrow(/no longer declares/);
    });
  });

  it("keeps lists apart: the platform's and each twin's", async () => {
    await withStorage((sql) => {
      applyMigrations(sql, "one", [A]);
      applyMigrations(sql, "two", [B]);
      applyMigrations(sql, "one", [A, C]);
      expect(tables(sql)).toEqual(["t_a", "t_b", "t_c"]);
    });
  });

  it("adopts storage migrated before migrations were verified", async () => {
    await withStorage((sql) => {
      sql.exec("DROP TABLE _migrations");
      sql.exec("CREATE TABLE _migrations (name TEXT PRIMARY KEY, applied_at INTEGER NOT NULL)");
      sql.exec(A.sql);
      sql.exec("INSERT INTO _migrations (name, applied_at) VALUES (?, 0)", A.name);
      applyMigrations(sql, "test", [A, B]);
      expect(tables(sql)).toEqual(["t_a", "t_b"]);
      expect(() => applyMigrations(sql, "test", [A, { ...B, sql: `${B.sql} ` }])).toThrow(MigrationDriftError);
    });
  });

  it("boots every registered twin's list into a sandbox's storage", async () => {
    await withStorage((sql) => {
      for (const twin of Object.values(TWINS)) {
        const { list, migrations } = twinMigrationList(twin);
        applyMigrations(sql, list, migrations);
        applyMigrations(sql, list, migrations);
      }
    });
  });
});
