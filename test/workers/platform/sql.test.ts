// The statement text `Db` hands SQLite: parameters the planner would look at are written `+?`, so
// workerd's SQLite compiles the statement once instead of on every call (durable-objects/sql.ts).
// The rewrite must change nothing a query answers: each case runs through `Db` and, as written,
// straight through the storage API, and both must agree row for row and type for type.
import { env, runInDurableObject } from "cloudflare:test";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Db, planStableSql, type SqlValue } from "../../../durable-objects/sql";

describe("planStableSql", () => {
  it("writes each parameter after =, IS, LIMIT and OFFSET as +?, and no other", () => {
    expect(planStableSql("SELECT * FROM t WHERE a = ? AND b=? AND c == ?1 AND d IS ? ORDER BY e LIMIT ? OFFSET ?")).toBe(
      "SELECT * FROM t WHERE a = +? AND b=+? AND c == +?1 AND d IS +? ORDER BY e LIMIT +? OFFSET +?",
    );
    expect(planStableSql("UPDATE t SET a = ?, b = ? WHERE id != ? AND n <= ?")).toBe(
      "UPDATE t SET a = +?, b = +? WHERE id != +? AND n <= +?",
    );
    const untouched = [
      "INSERT INTO t (a, b) VALUES (?, ?)",
      "SELECT * FROM t WHERE a IN (?, ?) AND b > ? AND c LIKE ? AND d BETWEEN ? AND ?",
      "SELECT * FROM t WHERE name = 'a?' AND this_is > ?",
    ];
    for (const sql of untouched) expect(planStableSql(sql)).toBe(sql);
  });
});

const SCHEMA = [
  "CREATE TABLE t_plan (id INTEGER PRIMARY KEY, n INTEGER, x REAL, s TEXT, ci TEXT COLLATE NOCASE, b BLOB, any_value)",
  "CREATE INDEX t_plan_n ON t_plan (n, id)",
  "CREATE INDEX t_plan_s ON t_plan (s, id)",
  "CREATE INDEX t_plan_ci ON t_plan (ci)",
];

const ROWS: SqlValue[][] = [
  [1, 5, 5, "5", "Alpha", new Uint8Array([1, 2]).buffer, 5],
  [2, 5, 5.5, "05", "alpha", new Uint8Array([1, 2]).buffer, "5"],
  [3, null, null, null, null, null, null],
  [4, -1, 0, "", "BETA", new Uint8Array([]).buffer, 5.0],
  [5, 12, 1e20, "twelve", "beta", new Uint8Array([255]).buffer, new Uint8Array([5]).buffer],
  [6, 5, 5, "x", "gamma", null, "five"],
];

/** Every row each statement answers, through `Db` and through the storage API as written. */
function bothWays(cases: { sql: string; params: SqlValue[] }[]) {
  return runInDurableObject(env.SANDBOX.get(env.SANDBOX.newUniqueId()), (_instance, state) => {
    const db = new Db(state.storage.sql);
    for (const statement of SCHEMA) db.run(statement);
    for (const row of ROWS) db.run("INSERT INTO t_plan VALUES (?, ?, ?, ?, ?, ?, ?)", ...row);
    const typed = (rows: Record<string, unknown>[]) =>
      rows.map((row) => Object.entries(row).map(([k, v]) => [k, v instanceof ArrayBuffer ? [...new Uint8Array(v)] : v, typeof v]));
    return cases.map(({ sql, params }) => ({
      sql,
      viaDb: typed(db.all(sql, ...params)),
      asWritten: typed(state.storage.sql.exec(sql, ...params).toArray()),
    }));
  });
}

const QUERIES = [
  "SELECT id FROM t_plan WHERE n = ? ORDER BY id",
  "SELECT id FROM t_plan WHERE x = ? ORDER BY id DESC",
  "SELECT id FROM t_plan WHERE s = ? ORDER BY id",
  "SELECT id FROM t_plan WHERE ci = ? ORDER BY id",
  "SELECT id FROM t_plan WHERE b = ? ORDER BY id",
  "SELECT id FROM t_plan WHERE any_value = ? ORDER BY id",
  "SELECT id FROM t_plan WHERE n IS ? ORDER BY id",
  "SELECT id FROM t_plan WHERE s IS ? ORDER BY id",
  "SELECT count(*) AS c, max(id) AS m FROM t_plan WHERE n = ?",
  "SELECT n, count(*) AS c FROM t_plan WHERE s != ? GROUP BY n ORDER BY n",
  "SELECT id, ? = n AS same FROM t_plan ORDER BY id",
];

describe("Db with plan-stable statements", () => {
  it("answers what SQLite answers for the statement as written, for values of every type and affinity", async () => {
    const value = fc.oneof(
      fc.constantFrom<SqlValue>(5, 5.0, 5.5, "5", "05", " 5", "5.0", "alpha", "ALPHA", "", "x", "five", null, 1e20, -1, 0, 12, "12"),
      fc.integer({ min: -3, max: 13 }),
      fc.double({ noNaN: true }),
      fc.string({ maxLength: 3 }),
      fc.uint8Array({ maxLength: 2 }).map((a): SqlValue => a.slice().buffer),
    );
    const cases = fc.sample(fc.record({ sql: fc.constantFrom(...QUERIES), params: fc.tuple(value).map((p) => [...p]) }), {
      numRuns: 400,
      seed: 20261202,
    });
    const results = await bothWays(cases);
    for (const r of results) expect(r.viaDb, `${r.sql} ${JSON.stringify(r)}`).toEqual(r.asWritten);
    // The sample reached rows, not only empty answers.
    expect(results.filter((r) => r.viaDb.length > 0 && r.sql.includes("WHERE")).length).toBeGreaterThan(40);
  });

  it("pages with LIMIT and OFFSET as written, text numbers included", async () => {
    const sql = "SELECT id FROM t_plan WHERE id > ? ORDER BY id LIMIT ? OFFSET ?";
    const pages: SqlValue[][] = [
      [0, 2, 0],
      [0, 2, 2],
      [1, "3", "1"],
      [0, -1, 4],
      [0, 0, 0],
    ];
    const results = await bothWays(pages.map((params) => ({ sql, params })));
    for (const r of results) expect(r.viaDb).toEqual(r.asWritten);
    expect(results.map((r) => r.viaDb.map((row) => row[0]?.[1]))).toEqual([[1, 2], [3, 4], [3, 4, 5], [5, 6], []]);
  });
});

describe("Db.readingOnly", () => {
  /** Runs `body` on a Db over a fresh Durable Object's storage holding one table of two rows. */
  const withTable = <T>(body: (db: Db) => T) =>
    runInDurableObject(env.SANDBOX.get(env.SANDBOX.newUniqueId()), (_instance, state) => {
      const db = new Db(state.storage.sql);
      db.run("CREATE TABLE t_read (id INTEGER PRIMARY KEY, n INTEGER)");
      db.run("INSERT INTO t_read VALUES (1, 10), (2, 20)");
      return body(db);
    });
  const ids = (db: Db) => db.all<{ id: number; n: number }>("SELECT id, n FROM t_read ORDER BY id");

  it("answers what a read answers, and counts no write", async () => {
    const out = await withTable((db) => {
      const before = db.rowsWritten;
      const answer = db.readingOnly(() => ({ rows: ids(db), one: db.one<{ n: number }>("  select n FROM t_read WHERE id = ?", 2) }));
      return { answer, wrote: db.rowsWritten - before };
    });
    expect(out.answer).toEqual({
      rows: [
        { id: 1, n: 10 },
        { id: 2, n: 20 },
      ],
      one: { n: 20 },
    });
    expect(out.wrote).toBe(0);
  });

  it("refuses every statement but a SELECT before it runs, and answers undefined", async () => {
    const statements = [
      "INSERT INTO t_read VALUES (3, 30)",
      "UPDATE t_read SET n = n + 1",
      "DELETE FROM t_read",
      "INSERT OR REPLACE INTO t_read VALUES (1, 99)",
      // A WITH may end in a write, so it is refused too.
      "WITH x AS (SELECT 1) UPDATE t_read SET n = 0",
    ];
    const out = await withTable((db) =>
      statements.map((sql) => {
        let readFirst: unknown;
        const answer = db.readingOnly(() => {
          readFirst = ids(db).length;
          db.run(sql);
          return "served";
        });
        return { sql, answer, readFirst, rows: ids(db) };
      }),
    );
    for (const r of out) {
      expect(r.answer, r.sql).toBeUndefined();
      expect(r.readFirst, r.sql).toBe(2);
      expect(r.rows, r.sql).toEqual([
        { id: 1, n: 10 },
        { id: 2, n: 20 },
      ]);
    }
  });

  it("answers undefined when the code it runs catches the refusal and goes on", async () => {
    const out = await withTable((db) => {
      const answer = db.readingOnly(() => {
        try {
          db.run("UPDATE t_read SET n = 0");
        } catch {
          // a handler that swallows a failed write and answers anyway
        }
        return "answered regardless";
      });
      return { answer, rows: ids(db) };
    });
    expect(out.answer).toBeUndefined();
    expect(out.rows).toEqual([
      { id: 1, n: 10 },
      { id: 2, n: 20 },
    ]);
  });

  it("passes on an error of the code's own, and allows writes again afterwards", async () => {
    const out = await withTable((db) => {
      let thrown: unknown;
      try {
        db.readingOnly(() => {
          throw new RangeError("the handler's own");
        });
      } catch (err) {
        thrown = err;
      }
      db.run("UPDATE t_read SET n = 0 WHERE id = 1");
      return { thrown: thrown instanceof RangeError, rows: ids(db), again: db.readingOnly(() => ids(db).length) };
    });
    expect(out.thrown).toBe(true);
    expect(out.rows).toEqual([
      { id: 1, n: 0 },
      { id: 2, n: 20 },
    ]);
    expect(out.again).toBe(2);
  });
});
