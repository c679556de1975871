// The one way twins and the Sandbox touch SQLite: failing queries carry their SQL in the error,
// and every write is counted so a call's `mutated` flag on the tape is measured, not guessed.
import { remembered } from "./remembered";

export type SqlValue = string | number | null | ArrayBuffer;

export class SqlError extends Error {
  constructor(
    readonly query: string,
    cause: unknown,
  ) {
    super(`${cause instanceof Error ? cause.message : String(cause)} (in: ${query.trim().slice(0, 200)})`);
  }
}

const PLANNER_VISIBLE_PARAMETER = /(=|\bIS|\bLIMIT|\bOFFSET)(\s*)\?/gi;

/**
 * The text SQLite is given for `query`: each parameter that follows `=`, `IS`, `LIMIT` or
 * `OFFSET` written `+?`. The SQLite in workerd compiles a statement again every time it is bound
 * when its plan may depend on a bound value, which it assumes of an equality in a query that
 * sorts, groups or aggregates, and of any `LIMIT ?` or `OFFSET ?`: a twin's `WHERE channel = ?
 * ORDER BY seq` was parsed and planned on every call. Unary plus returns its operand unchanged
 * for every type (NULL and blobs included) and has no affinity, like a bare parameter, so
 * comparisons and the indexes chosen stay the same; it only hides the value from the planner, and
 * the statement is compiled once and then served from workerd's statement cache. The rewrite is
 * textual and does not skip string literals: no statement here has `= ?` inside quotes.
 */
export const planStableSql = remembered((query) => query.replace(PLANNER_VISIBLE_PARAMETER, "$1$2+?"));

/** Whether a statement only reads: a SELECT. (A WITH may end in a write, so it counts as one.) */
const onlyReads = remembered((query) => /^\s*select\b/i.test(query));

/** What a statement other than a read meets inside `Db.readingOnly`; it never reaches SQLite. */
export class WriteWhileReadingOnly extends Error {}

export class Db {
  rowsWritten = 0;
  /** Set inside `readingOnly`: statements other than reads are refused before they run. */
  private readsOnly = false;
  /** Whether `readingOnly`'s guard refused a statement, even one whose error a caller caught. */
  private refusedWrite = false;
  constructor(private readonly sql: SqlStorage) {}

  /**
   * Runs `read` with every statement but a SELECT refused before it reaches SQLite; undefined when
   * it tried one. Nothing is written either way, so a caller that did not know whether `read`
   * writes can run it again where writes are allowed (inside a transaction) and lose nothing.
   */
  readingOnly<T>(read: () => T): T | undefined {
    this.readsOnly = true;
    this.refusedWrite = false;
    try {
      const result = read();
      return this.refusedWrite ? undefined : result;
    } catch (err) {
      if (this.refusedWrite) return undefined;
      throw err;
    } finally {
      this.readsOnly = false;
    }
  }

  private exec(query: string, params: SqlValue[]): SqlStorageCursor<Record<string, SqlStorageValue>> {
    if (this.readsOnly && !onlyReads(query)) {
      this.refusedWrite = true;
      throw new WriteWhileReadingOnly(`a statement that may write, inside readingOnly: ${query.trim().slice(0, 80)}`);
    }
    try {
      return this.sql.exec(planStableSql(query), ...params);
    } catch (err) {
      throw new SqlError(query, err);
    }
  }

  /**
   * The rows as objects, built here from the cursor's raw values: objects workerd builds
   * (`toArray()`) were slower to make and to read, and a twin's page of 30 issues answered
   * 0.20–0.27 ms sooner this way (about a tenth) in two alternating runs against a server beside it.
   */
  all<T>(query: string, ...params: SqlValue[]): T[] {
    const cursor = this.exec(query, params);
    const values = [...cursor.raw()];
    const names = cursor.columnNames;
    const rows: T[] = new Array(values.length);
    for (let r = 0; r < values.length; r++) {
      const row: Record<string, SqlStorageValue> = {};
      for (let c = 0; c < names.length; c++) row[names[c]] = values[r][c];
      rows[r] = row as T;
    }
    this.rowsWritten += cursor.rowsWritten;
    return rows;
  }

  one<T>(query: string, ...params: SqlValue[]): T | undefined {
    return this.all<T>(query, ...params)[0];
  }

  /** Runs a statement; returns how many rows it wrote. */
  run(query: string, ...params: SqlValue[]): number {
    const cursor = this.exec(query, params);
    for (const _ of cursor) {
      // drain: rowsWritten is final only once the cursor is consumed
    }
    this.rowsWritten += cursor.rowsWritten;
    return cursor.rowsWritten;
  }
}

export interface Migration {
  name: string;
  sql: string;
}

/** Thrown at start-up when storage was migrated by a list that is not a prefix of today's. */
export class MigrationDriftError extends Error {}

/** FNV-1a over the text, twice with different offsets: a stable fingerprint of a migration's SQL. */
export function migrationHash(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995) ^ (b >>> 15);
  }
  return (a >>> 0).toString(16).padStart(8, "0") + (b >>> 0).toString(16).padStart(8, "0");
}

function ensureLedger(sql: SqlStorage): void {
  sql.exec("CREATE TABLE IF NOT EXISTS _migrations (name TEXT PRIMARY KEY, applied_at INTEGER NOT NULL)");
  const columns = new Set(
    sql
      .exec<{ name: string }>("PRAGMA table_info(_migrations)")
      .toArray()
      .map((c) => c.name),
  );
  // Storage migrated before migrations were verified: the ledger gains the list and the hash.
  if (!columns.has("hash")) sql.exec("ALTER TABLE _migrations ADD COLUMN hash TEXT");
  if (!columns.has("list")) sql.exec("ALTER TABLE _migrations ADD COLUMN list TEXT");
}

/**
 * Applies a named, append-only list of migrations. What was applied before must be exactly a
 * prefix of the list as declared today (same names, same SQL, same order); a list that was
 * edited, reordered or had an entry inserted fails loudly here, at start-up, instead of being
 * silently skipped. Then the entries past that prefix are applied, in order.
 */
export function applyMigrations(sql: SqlStorage, list: string, migrations: readonly Migration[]): void {
  ensureLedger(sql);
  const declared = migrations.map((m) => ({ ...m, hash: migrationHash(m.sql) }));
  // Rows recorded before the ledger knew lists and hashes are trusted once, by name.
  for (const m of declared) sql.exec("UPDATE _migrations SET list = ?, hash = ? WHERE name = ? AND list IS NULL", list, m.hash, m.name);
  const applied = sql
    .exec<{ name: string; hash: string }>("SELECT name, hash FROM _migrations WHERE list = ? ORDER BY rowid", list)
    .toArray();
  applied.forEach((row, i) => {
    const expected = declared[i];
    if (!expected)
      throw new MigrationDriftError(`Storage migrations "${list}": ${row.name} was applied but the list no longer declares it`);
    if (expected.name !== row.name || expected.hash !== row.hash) {
      throw new MigrationDriftError(
        `Storage migrations "${list}" are append-only: entry ${i} was applied as ${row.name} (${row.hash}) but is now declared as ${expected.name} (${expected.hash}); an edited, reordered or inserted migration is never applied silently`,
      );
    }
  });
  for (const m of declared.slice(applied.length)) {
    sql.exec(m.sql);
    sql.exec("INSERT INTO _migrations (name, applied_at, hash, list) VALUES (?, ?, ?, ?)", m.name, Date.now(), m.hash, list);
  }
}

/** A twin's migrations: its list is its own, its entries named by position. */
export function twinMigrationList(twin: { id: string; migrations: readonly string[] }): { list: string; migrations: Migration[] } {
  return {
    list: `twin:${twin.id}`,
    migrations: twin.migrations.map((sql, i) => ({ name: `${twin.id}_${String(i).padStart(4, "0")}`, sql })),
  };
}
