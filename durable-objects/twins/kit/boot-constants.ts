// Facts a twin's boot fixes for the whole life of a sandbox (who the credentials act as, the rows
// of a table nothing but boot writes), read from SQLite once per storage instead of once per call.
// Only for data no call can change: a value kept here is never invalidated, so no write, and no
// rolled-back write, can make it stale.
import type { Db } from "../types";

/** Entries per storage and name before a group starts over (misses are remembered too). */
const MAX_ENTRIES = 4096;

/** One named group of fixed facts of one storage, by key (a login, say). */
export class BootConstants<T> {
  private readonly values = new Map<string, T>();

  has(key: string): boolean {
    return this.values.has(key);
  }

  /** The fact for `key`, read by `read()` the first time it is asked for. */
  get(key: string, read: () => T): T {
    if (this.values.has(key)) return this.values.get(key) as T;
    const value = read();
    this.set(key, value);
    return value;
  }

  set(key: string, value: T): void {
    if (this.values.size >= MAX_ENTRIES && !this.values.has(key)) this.values.clear();
    this.values.set(key, value);
  }
}

/**
 * A kind of fixed fact, kept per storage: declare it once at module level, then ask it for the
 * group of a call's storage, `const users = perStorage<UserRow | null>(); users(db).get(login, read)`.
 */
export function perStorage<T>(): (db: Db) => BootConstants<T> {
  const byStorage = new WeakMap<Db, BootConstants<T>>();
  return (db) => {
    let group = byStorage.get(db);
    if (!group) {
      group = new BootConstants<T>();
      byStorage.set(db, group);
    }
    return group;
  };
}
