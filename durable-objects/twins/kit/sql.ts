// Seed and storage helpers every twin's world uses: set-wise inserts, id counters, SQLite's 0/1
// booleans, second-resolution times and grouping rows by a key for export.
import type { Db } from "../types";

/** Rows per set-wise insert: each statement binds one JSON array, kept well under SQLite's value cap. */
const BULK_ROWS = 1000;

/**
 * Inserts many rows with one statement per slice: `sql` ends in `json_each(?)` and reads each
 * row as `value->>0`, `value->>1`… The slice is bound as a JSON array after the `leading` values.
 */
export function bulkInsert(db: Db, sql: string, rows: readonly unknown[][], ...leading: (string | number)[]): void {
  for (let at = 0; at < rows.length; at += BULK_ROWS) db.run(sql, ...leading, JSON.stringify(rows.slice(at, at + BULK_ROWS)));
}

/** A value a seeded row holds in one column. */
export type Cell = string | number | null;

/**
 * Inserts rows into `table` set-wise, like bulkInsert, each row an array in `columns` order. A
 * column holding one value in every row of a slice (a world's null bodies, its one timestamp, its
 * `open` state) is bound once, or written as an integer literal, instead of being read out of every
 * row's JSON: each `value->>k` costs SQLite about as much as storing the value, and most columns of
 * a large seeded world are alike. Strings and nulls bind as they would in a one-row INSERT.
 */
export function insertRows(
  db: Db,
  table: string,
  columns: readonly string[],
  rows: readonly (readonly Cell[])[],
  opts: { orIgnore?: boolean } = {},
): void {
  for (let at = 0; at < rows.length; at += BULK_ROWS) {
    const slice = rows.slice(at, at + BULK_ROWS);
    const select: string[] = [];
    const bound: Cell[] = [];
    const varying: number[] = [];
    for (let c = 0; c < columns.length; c++) {
      const value = slice[0][c];
      const same = slice.every((row) => row[c] === value);
      if (same && (value === null || typeof value === "string")) {
        select.push("?");
        bound.push(value);
      } else if (same && Number.isSafeInteger(value)) {
        select.push(String(value));
      } else {
        select.push(`value->>${varying.length}`);
        varying.push(c);
      }
    }
    const json = JSON.stringify(varying.length === columns.length ? slice : slice.map((row) => varying.map((c) => row[c])));
    db.run(
      `INSERT${opts.orIgnore ? " OR IGNORE" : ""} INTO ${table} (${columns.join(", ")}) SELECT ${select.join(", ")} FROM jsonb_each(?)`,
      ...bound,
      json,
    );
  }
}

/** Rows from which a bulk load rebuilds a table's indexes instead of inserting into them row by row. */
const REBUILD_FROM_ROWS = 1000;

/**
 * Runs `load`, a bulk insert of `rows` rows into `table`, with the table's own indexes dropped for
 * the while and then re-created from their stored definitions (sqlite_master), for a large load:
 * SQLite builds an index from sorted keys much faster than it takes the same keys one insert at a
 * time in random order (a label index over 20,000 issue labels, keyed by label first). Indexes
 * SQLite made for UNIQUE or PRIMARY KEY constraints stay, so the load is still checked row by row;
 * an explicit UNIQUE index refuses a duplicate when it is re-created, still inside the caller's
 * transaction.
 */
export function loadWithIndexesRebuilt(db: Db, table: string, rows: number, load: () => void): void {
  if (rows < REBUILD_FROM_ROWS) {
    load();
    return;
  }
  const indexes = db.all<{ name: string; sql: string }>(
    "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL",
    table,
  );
  for (const index of indexes) db.run(`DROP INDEX "${index.name}"`);
  load();
  for (const index of indexes) db.run(index.sql);
}

export const bool = (value: boolean) => (value ? 1 : 0);

/** ISO 8601 at second resolution with `Z`, the form most APIs and seeds use. */
export const isoSeconds = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");

/** Unix seconds, for vendors that count time that way. */
export const unixSeconds = (ms: number) => Math.floor(ms / 1000);

/** Groups rows by a key, keeping each group in the rows' own order. */
export function groupBy<T, K>(rows: readonly T[], key: (row: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const row of rows) {
    const k = key(row);
    const list = groups.get(k);
    if (list) list.push(row);
    else groups.set(k, [row]);
  }
  return groups;
}

/**
 * A named counter in a twin's key/value table (`<prefix>_meta (key TEXT PRIMARY KEY, value TEXT)`):
 * returns the current value and stores the next one, `start` for a counter not yet written. One
 * statement when the counter exists (the value column keeps the number as text), two the first time.
 */
export function nextCounter(db: Db, table: string, key: string, start = 1): number {
  const row = db.one<{ taken: number }>(
    `UPDATE ${table} SET value = CAST(value AS INTEGER) + 1 WHERE key = ? RETURNING CAST(value AS INTEGER) - 1 AS taken`,
    key,
  );
  if (row) return row.taken;
  db.run(`INSERT INTO ${table} (key, value) VALUES (?, ?)`, key, String(start + 1));
  return start;
}
