// The kit's set-wise insert: what comes back out of the table is what went in, value for value
// and type for type, whichever columns a slice happens to share.
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { Db } from "../../../durable-objects/sql";
import { type Cell, insertRows, loadWithIndexesRebuilt } from "../../../durable-objects/twins/kit/sql";

function withDb<T>(fn: (db: Db) => T): Promise<T> {
  return runInDurableObject(env.SANDBOX.get(env.SANDBOX.newUniqueId()), (_instance, state) => {
    const db = new Db(state.storage.sql);
    db.run("CREATE TABLE t_rows (seq INTEGER PRIMARY KEY, n INTEGER, x REAL, s TEXT, note TEXT, UNIQUE (n, s))");
    return fn(db);
  });
}

type Row = { seq: number; n: number | null; x: number | null; s: string | null; note: string | null };
const read = (db: Db) =>
  db.all<Row & { tn: string; tx: string; ts: string }>(
    "SELECT seq, n, x, s, note, typeof(n) AS tn, typeof(x) AS tx, typeof(s) AS ts FROM t_rows ORDER BY seq",
  );
const COLUMNS = ["seq", "n", "x", "s", "note"];

describe("insertRows", () => {
  it("stores shared and varying columns alike, across slices that share different columns", async () => {
    // 2,500 rows, three slices: `s` is shared in the first only, `note` in the first two, `n` in the last.
    const rows: Cell[][] = Array.from({ length: 2500 }, (_, i) => [
      i + 1,
      i < 2000 ? i : 7,
      i % 3 === 0 ? 1.5 : 2.25,
      i < 1000 ? `shared'"\\` : `s'${i}"\\`,
      i < 2000 ? null : `note ${i}`,
    ]);
    const stored = await withDb((db) => {
      insertRows(db, "t_rows", COLUMNS, rows);
      return read(db);
    });
    expect(stored).toHaveLength(2500);
    expect(stored.map((r) => [r.seq, r.n, r.x, r.s, r.note])).toEqual(rows);
    expect(new Set(stored.map((r) => `${r.tn} ${r.tx} ${r.ts}`))).toEqual(new Set(["integer real text"]));
  });

  it("writes a one-row slice, where every column is shared, and nulls and negative integers", async () => {
    const rows: Cell[][] = [[1, -3, null, "only", null]];
    const stored = await withDb((db) => {
      insertRows(db, "t_rows", COLUMNS, rows);
      return read(db);
    });
    expect(stored).toEqual([{ seq: 1, n: -3, x: null, s: "only", note: null, tn: "integer", tx: "null", ts: "text" }]);
  });

  it("skips conflicting rows with orIgnore and refuses them without it", async () => {
    await withDb((db) => {
      insertRows(db, "t_rows", COLUMNS, [[1, 1, 1.5, "a", null]]);
      insertRows(
        db,
        "t_rows",
        COLUMNS,
        [
          [2, 1, 1.5, "a", null],
          [3, 2, 1.5, "a", null],
        ],
        { orIgnore: true },
      );
      expect(read(db).map((r) => r.seq)).toEqual([1, 3]);
      expect(() => insertRows(db, "t_rows", COLUMNS, [[4, 2, 1.5, "a", null]])).toThrow(/UNIQUE/);
    });
  });

  it("inserts nothing for no rows", async () => {
    const stored = await withDb((db) => {
      insertRows(db, "t_rows", COLUMNS, []);
      return read(db);
    });
    expect(stored).toEqual([]);
  });
});

describe("loadWithIndexesRebuilt", () => {
  const indexes = (db: Db) =>
    db.all<{ name: string; sql: string | null }>(
      "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 't_rows' ORDER BY name",
    );

  it("leaves every index as it was defined, and the load's rows reachable through them", async () => {
    await withDb((db) => {
      db.run("CREATE INDEX t_rows_x ON t_rows (x, seq) WHERE x IS NOT NULL");
      const before = indexes(db);
      const rows: Cell[][] = Array.from({ length: 1500 }, (_, i) => [i + 1, i, (i * 37) % 11, `s${i}`, null]);
      loadWithIndexesRebuilt(db, "t_rows", rows.length, () => insertRows(db, "t_rows", COLUMNS, rows));
      expect(indexes(db)).toEqual(before);
      expect(db.all("EXPLAIN QUERY PLAN SELECT seq FROM t_rows WHERE x = 3 ORDER BY seq")).toEqual(
        expect.arrayContaining([expect.objectContaining({ detail: expect.stringContaining("t_rows_x") })]),
      );
      expect(db.one<{ n: number }>("SELECT count(*) AS n FROM t_rows WHERE x = 3")?.n).toBe(rows.filter((r) => r[2] === 3).length);
    });
  });

  it("still refuses a row that breaks a UNIQUE constraint during the load", async () => {
    await withDb((db) => {
      const rows: Cell[][] = Array.from({ length: 1200 }, (_, i) => [i + 1, i % 600, 1.5, "same", null]);
      expect(() => loadWithIndexesRebuilt(db, "t_rows", rows.length, () => insertRows(db, "t_rows", COLUMNS, rows))).toThrow(/UNIQUE/);
    });
  });
});
