// Relay-style connections as Linear serves them: `nodes`, `edges { node cursor }` and `pageInfo`,
// keyset-paged (an opaque cursor holds the sort values and rowid of a node), `first`/`last` ≤ 250.
// Forward (`first`/`after`) and backward (`last`/`before`) pages follow the Relay algorithm: the
// cursors cut the list, then `first` keeps the head of what is left and `last` its tail.
import type { SqlValue } from "../types";
import { decodeCursor, encodeCursor } from "../kit/cursor";
import type { Gql, Row } from "./context";
import { LinearFault, Unsupported, invalidInput } from "./errors";
import { sortKeysOf, type SortKey, type SortableEntity } from "./sort";

export const MAX_FIRST = 250;
export const DEFAULT_FIRST = 50;

export interface PageArgs {
  first?: number | null;
  after?: string | null;
  last?: number | null;
  before?: string | null;
  orderBy?: string | null;
  includeArchived?: boolean | null;
  sort?: unknown;
}

export interface Connection {
  nodes: Row[];
  edges: { node: Row; cursor: string }[];
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
}

export interface ListQuery {
  table: string;
  alias: string;
  where: string[];
  params: SqlValue[];
  /** The column the page is ordered by; Linear orders by createdAt unless told updatedAt. */
  order?: { column: string; direction: "ASC" | "DESC" };
  /** Whether the entity has archived_at (archived rows are left out unless includeArchived). */
  archivable?: boolean;
  /** The entity whose `sort` argument this list takes, when Linear's schema gives it one. */
  sortable?: SortableEntity;
  /**
   * The list is small by nature (an issue's labels): its rows are read whole, without ORDER BY
   * and LIMIT, and ordered and cut here. SQLite orders even two rows in a temporary b-tree, which
   * in the twin's profile cost several times the read itself.
   */
  small?: boolean;
}

type PageRow = Row & { _rowid: number };

/** SQLite's order of two values (NULL, then numbers, then text by code point, then blobs by byte). */
function compareSql(a: SqlValue | undefined, b: SqlValue | undefined): number {
  const rank = (v: SqlValue | undefined) => (v == null ? 0 : typeof v === "number" ? 1 : typeof v === "string" ? 2 : 3);
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra - rb;
  if (typeof a === "number" && typeof b === "number") return a - b;
  if (typeof a === "string" && typeof b === "string") return compareText(a, b);
  if (a instanceof ArrayBuffer && b instanceof ArrayBuffer) {
    const x = new Uint8Array(a);
    const y = new Uint8Array(b);
    for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return (x[i] ?? 0) - (y[i] ?? 0);
    return x.length - y.length;
  }
  return 0;
}

/** Text under SQLite's BINARY collation (UTF-8 bytes): UTF-16 order, except that a surrogate stands for a code point above U+FFFF. */
function compareText(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    const sx = x >= 0xd800 && x <= 0xdfff;
    const sy = y >= 0xd800 && y <= 0xdfff;
    return sx === sy ? x - y : sx ? 1 : -1;
  }
  return a.length - b.length;
}

/** The rows in the order ORDER BY would give them: the keys (none with a nulls rule), then rowid. */
function ordered(rows: PageRow[], keys: readonly SortKey[], rowDir: "ASC" | "DESC"): PageRow[] {
  return rows.sort((a, b) => {
    for (let i = 0; i < keys.length; i++) {
      const c = compareSql(a[`_k${i}`], b[`_k${i}`]);
      if (c !== 0) return keys[i]?.dir === "DESC" ? -c : c;
    }
    return rowDir === "DESC" ? b._rowid - a._rowid : a._rowid - b._rowid;
  });
}

const flip = (k: SortKey): SortKey => ({
  ...k,
  dir: k.dir === "ASC" ? "DESC" : "ASC",
  nulls: k.nulls === null ? null : k.nulls === "last" ? "first" : "last",
});

/** A cursor names its list and ordering, and holds a node's sort values and rowid. */
const listName = (table: string, keys: readonly SortKey[]) => [table, ...keys.map((k) => k.name)].join("/");

function readCursor(list: string, cursor: string, width: number): SqlValue[] {
  const key = decodeCursor(list, cursor);
  let c: unknown;
  try {
    c = key === undefined ? undefined : JSON.parse(key);
  } catch {
    c = undefined;
  }
  const scalar = (v: unknown): v is SqlValue => typeof v === "string" || typeof v === "number" || v === null;
  if (!Array.isArray(c) || c.length !== width + 1 || typeof c[width] !== "number" || !c.every(scalar))
    throw invalidInput("Invalid cursor", "The pagination cursor is not valid.");
  return c;
}

/** "Comes after the cursor in this order" over the keys and the rowid tiebreak, with its parameters in `?` order. */
function keysetCondition(alias: string, keys: readonly SortKey[], rowDir: "ASC" | "DESC", values: readonly SqlValue[]) {
  const params: SqlValue[] = [];
  // Non-null keys running one way compare as a row value, which SQLite serves from the index.
  if (keys.every((k) => k.nulls === null && k.dir === rowDir)) {
    const cols = [...keys.map((k) => k.expr(alias)), `${alias}.rowid`].join(", ");
    return { sql: `(${cols}) ${rowDir === "DESC" ? "<" : ">"} (${values.map(() => "?").join(", ")})`, params: [...values] };
  }
  const parts: string[] = [];
  const eq: { sql: string; params: SqlValue[] }[] = [];
  keys.forEach((k, i) => {
    const e = k.expr(alias);
    const v = values[i] ?? null;
    const op = k.dir === "DESC" ? "<" : ">";
    const later =
      v === null
        ? k.nulls === "first"
          ? { sql: `${e} IS NOT NULL`, params: [] }
          : undefined
        : { sql: k.nulls === "last" ? `(${e} IS NULL OR ${e} ${op} ?)` : `${e} ${op} ?`, params: [v] };
    if (later) {
      parts.push(`(${[...eq.map((x) => x.sql), later.sql].join(" AND ")})`);
      params.push(...eq.flatMap((x) => x.params), ...later.params);
    }
    eq.push(v === null ? { sql: `${e} IS NULL`, params: [] } : { sql: `${e} = ?`, params: [v] });
  });
  parts.push(`(${[...eq.map((x) => x.sql), `${alias}.rowid ${rowDir === "DESC" ? "<" : ">"} ?`].join(" AND ")})`);
  params.push(...eq.flatMap((x) => x.params), values[keys.length] ?? 0);
  return { sql: `(${parts.join(" OR ")})`, params };
}

const orderClause = (alias: string, keys: readonly SortKey[], rowDir: "ASC" | "DESC") =>
  [
    ...keys.flatMap((k) => {
      const e = k.expr(alias);
      return k.nulls === null ? [`${e} ${k.dir}`] : [`(${e} IS NULL) ${k.nulls === "last" ? "ASC" : "DESC"}`, `${e} ${k.dir}`];
    }),
    `${alias}.rowid ${rowDir}`,
  ].join(", ");

const count = (v: number | null | undefined, name: string): number | undefined => {
  if (v == null) return undefined;
  if (!Number.isInteger(v) || v < 0 || v > MAX_FIRST) throw invalidInput(`${name} must be between 0 and ${MAX_FIRST}`);
  return v;
};

/**
 * The page's read. Filters and sorts are bounded before they become SQL (FILTER_LIMITS, MAX_SORT_KEYS),
 * so SQLite should never refuse one; if it still does, the cause is logged and the caller gets
 * Linear's invalid-input error, never the statement or SQLite's text.
 */
function readRows(read: () => PageRow[]): PageRow[] {
  try {
    return read();
  } catch (err) {
    if (err instanceof LinearFault) throw err;
    console.warn("linear: a list's SQL failed", err);
    throw invalidInput("The list could not be read with these arguments", "The filter or sort could not be applied.");
  }
}

/** Runs one page of a list: the filter's WHERE, the cursors' keyset conditions, one row more than asked. */
export function page(gql: Gql, q: ListQuery, args: PageArgs): Connection {
  let first = count(args.first, "first");
  let last = count(args.last, "last");
  if (first === undefined && last === undefined) {
    if (args.before && !args.after) last = DEFAULT_FIRST;
    else first = DEFAULT_FIRST;
  }
  const column = q.order?.column ?? (args.orderBy === "updatedAt" ? "updated_at" : "created_at");
  const dir = q.order?.direction ?? "DESC";
  let keys: SortKey[];
  let rowDir: "ASC" | "DESC";
  if (args.sort != null) {
    if (!q.sortable) throw new Unsupported("the `sort` argument on this list");
    keys = sortKeysOf(q.sortable, args.sort);
    rowDir = "ASC";
  } else {
    keys = [{ name: `${column} ${dir}`, expr: (a) => `${a}.${column}`, dir, nulls: null }];
    rowDir = dir;
  }
  // The list's own default order keeps the plain name; `orderBy: updatedAt` and `sort` name theirs.
  const plain = q.order ? `${q.order.column} ${q.order.direction}` : "created_at DESC";
  const list = keys.length === 1 && keys[0]?.name === plain ? q.table : listName(q.table, keys);
  const where = [...q.where];
  const params = [...q.params];
  if (q.archivable && !args.includeArchived) where.push(`${q.alias}.archived_at IS NULL`);
  if (args.after) {
    const c = keysetCondition(q.alias, keys, rowDir, readCursor(list, args.after, keys.length));
    where.push(c.sql);
    params.push(...c.params);
  }
  if (args.before) {
    const c = keysetCondition(q.alias, keys.map(flip), rowDir === "ASC" ? "DESC" : "ASC", readCursor(list, args.before, keys.length));
    where.push(c.sql);
    params.push(...c.params);
  }
  // A page from the tail (only `last`) reads the list backwards and turns the rows around.
  const backwards = first === undefined;
  const readKeys = backwards ? keys.map(flip) : keys;
  const readDir = backwards ? (rowDir === "ASC" ? "DESC" : "ASC") : rowDir;
  // A checked integer (0..250), written into the statement text: in the twin's profile a read
  // with `LIMIT 51` took about a third of the time of the same read with `LIMIT ?` bound to 51,
  // and there are at most a few hundred such texts for the statement cache to hold.
  const limit = (backwards ? last : first) ?? DEFAULT_FIRST;
  const select = `SELECT ${q.alias}.*, ${q.alias}.rowid AS _rowid${keys.map((k, i) => `, ${k.expr(q.alias)} AS _k${i}`).join("")}
     FROM ${q.table} ${q.alias} ${where.length ? `WHERE ${where.join(" AND ")}` : ""}`;
  const rows = readRows(() =>
    q.small && readKeys.every((k) => k.nulls === null)
      ? ordered(gql.db.all<PageRow>(select, ...params), readKeys, readDir).slice(0, limit + 1)
      : gql.db.all<PageRow>(`${select} ORDER BY ${orderClause(q.alias, readKeys, readDir)} LIMIT ${limit + 1}`, ...params),
  );
  const more = rows.length > limit;
  let nodes = rows.slice(0, limit);
  if (backwards) nodes.reverse();
  let hasNextPage = backwards ? Boolean(args.before) : more;
  let hasPreviousPage = backwards ? more : Boolean(args.after);
  // `first` and `last` together: the tail of the head, as Relay defines it.
  if (!backwards && last !== undefined && nodes.length > last) {
    nodes = nodes.slice(nodes.length - last);
    hasPreviousPage = true;
  }
  if (!backwards && last !== undefined) hasNextPage = hasNextPage || Boolean(args.before);
  const cursorOf = (node: PageRow) => encodeCursor(list, JSON.stringify([...keys.map((_k, i) => node[`_k${i}`] ?? null), node._rowid]));
  // Cursors are made only when the query selects them: most selections ask for the nodes alone.
  let edges: Connection["edges"] | undefined;
  return {
    nodes,
    get edges() {
      edges ??= nodes.map((node) => ({ node, cursor: cursorOf(node) }));
      return edges;
    },
    pageInfo: {
      hasNextPage,
      hasPreviousPage,
      get startCursor() {
        const head = nodes[0];
        return head ? cursorOf(head) : null;
      },
      get endCursor() {
        const tail = nodes.at(-1);
        return tail ? cursorOf(tail) : null;
      },
    },
  };
}
