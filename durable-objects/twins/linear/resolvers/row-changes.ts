// An update mutation's changes: each column its input sets, collected while the input is read
// (each value checked as it is read), then written in one UPDATE with the row's "who and when"
// columns. Column and table names are the resolvers' own constants, never the caller's text.
import type { Db } from "../../types";

type Value = string | number | null;

export class RowChanges {
  readonly #columns: string[] = [];
  readonly #values: Value[] = [];

  set(column: string, value: Value): void {
    this.#columns.push(`${column} = ?`);
    this.#values.push(value);
  }

  /** Writes the changes and `stamp` to `table`'s row `id`; whether there were any (none: nothing is written). */
  write(db: Db, table: string, id: string, stamp: Readonly<Record<string, Value>>): boolean {
    if (!this.#columns.length) return false;
    for (const [column, value] of Object.entries(stamp)) this.set(column, value);
    db.run(`UPDATE ${table} SET ${this.#columns.join(", ")} WHERE id = ?`, ...this.#values, id);
    return true;
  }
}
