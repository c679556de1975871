// The one way twins and the Sandbox touch SQLite: failing queries carry their SQL in the error,
// and every write is counted so a call's `mutated` flag on the tape is measured, not guessed.

export type SqlValue = string | number | null | ArrayBuffer;

export class SqlError extends Error {
  constructor(
    readonly query: string,
    cause: unknown,
  ) {
    super(`${cause instanceof Error ? cause.message : String(cause)} (in: ${query.trim().slice(0, 200)})`);
  }
}

export class Db {
  rowsWritten = 0;
  constructor(private readonly sql: SqlStorage) {}

  private exec(query: string, params: SqlValue[]): SqlStorageCursor<Record<string, SqlStorageValue>> {
    try {
      return this.sql.exec(query, ...params);
    } catch (err) {
      throw new SqlError(query, err);
    }
  }

  all<T>(query: string, ...params: SqlValue[]): T[] {
    const cursor = this.exec(query, params);
    const rows = cursor.toArray() as T[];
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

/** Applies each named migration once, in order, recording it in `_migrations`. */
export function applyMigrations(sql: SqlStorage, migrations: readonly { name: string; sql: string }[]): void {
  sql.exec("CREATE TABLE IF NOT EXISTS _migrations (name TEXT PRIMARY KEY, applied_at INTEGER NOT NULL)");
  const applied = new Set(sql.exec<{ name: string }>("SELECT name FROM _migrations").toArray().map((r) => r.name));
  for (const m of migrations) {
    if (applied.has(m.name)) continue;
    sql.exec(m.sql);
    sql.exec("INSERT INTO _migrations (name, applied_at) VALUES (?, ?)", m.name, Date.now());
  }
}
