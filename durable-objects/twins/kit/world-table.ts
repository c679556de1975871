// A table's column map: for one kind of seed object, which column keeps which field and how (as
// is, JSON-encoded, a boolean as 0/1, left out when null, a reference by id). Boot writes objects
// through the map set-wise and export reads them back through the same map, so a field is declared
// once and export(boot(seed)) gives it back by construction.
import type { Db } from "../types";
import { type Cell, insertRows } from "./sql";

/** A stored row as export reads it: every column by name. */
export type StoredRow = Readonly<Record<string, Cell>>;

/** One object on its way into a table, with where it sits (its parent, its position). */
export interface Placed<T, Place> {
  readonly value: T;
  readonly place: Place;
}

/**
 * How one field is kept in one column. `write` sees the whole item being booted, for a reference
 * that a sibling field qualifies (a state named within the team); `read` sees the whole
 * stored row. `Refs` is what resolves references both ways (see `Refs` below).
 */
export interface Column<V, Ctx = unknown, Item = unknown> {
  readonly column: string;
  readonly write: (value: V, ctx: Ctx, item: Item) => Cell;
  readonly read: (cell: Cell, ctx: Ctx, row: StoredRow) => V;
}

/** A field the map names, in its place in the object, that export assembles from other tables. */
export interface Assembled {
  readonly assembled: true;
}
export const assembled: Assembled = { assembled: true };

/** The fields of T, in the order export writes them: each a column or assembled. */
export type Fields<T, Ctx, Item> = { readonly [K in keyof T]?: Column<T[K], Ctx, Item> | Assembled };

export interface TableMap<T, Ctx, Place, M extends Fields<T, Ctx, Placed<T, Place>>> {
  readonly table: string;
  readonly fields: M;
  /**
   * Columns boot fills from where the object sits or from its other fields and export does not
   * read back into it: the parent's id, a position, an `updated_at` that starts as `created_at`.
   */
  readonly derived?: Readonly<Record<string, (item: Placed<T, Place>, ctx: Ctx) => Cell>>;
  /** `INSERT OR IGNORE`: a list that may name one thing twice keeps the first. */
  readonly orIgnore?: boolean;
}

/**
 * Declares the map of table T (seed objects of type T, references resolved through Ctx, each
 * object placed by a Place). Curried so T, Ctx and Place are written out and the fields inferred.
 */
export function tableMap<T, Ctx = unknown, Place = undefined>() {
  return <M extends Fields<T, Ctx, Placed<T, Place>>>(map: TableMap<T, Ctx, Place, M>): TableMap<T, Ctx, Place, M> => map;
}

type AssembledKeys<M> = { [K in keyof M]: M[K] extends Assembled ? K : never }[keyof M];
/** What export gives back for a map: the fields it names, with T's own types. */
export type Mapped<T, M> = Pick<T, keyof M & keyof T>;
/** The fields a caller assembles for `objectOf`. */
export type AssembledParts<T, M> = Pick<T, AssembledKeys<M> & keyof T>;

function isColumn<V, Ctx, Item>(field: Column<V, Ctx, Item> | Assembled): field is Column<V, Ctx, Item> {
  return !("assembled" in field);
}

/** A map's fields in declaration order, each with its key: read once per map, not once per row. */
type Entry = readonly [key: string, field: Column<unknown, unknown, unknown> | Assembled];
const entriesByMap = new WeakMap<object, readonly Entry[]>();

function entriesOf<T, Ctx, Place, M extends Fields<T, Ctx, Placed<T, Place>>>(map: TableMap<T, Ctx, Place, M>): readonly Entry[] {
  let entries = entriesByMap.get(map);
  if (!entries) {
    // A map's fields are columns over T's fields or `assembled`; the entries are used only with
    // that map's own objects, rows and context, so widening the column's types loses nothing.
    const fields: Readonly<Record<string, Column<unknown, unknown, unknown> | Assembled | undefined>> = map.fields as Readonly<
      Record<string, Column<unknown, unknown, unknown> | Assembled | undefined>
    >;
    entries = Object.keys(fields).flatMap((key): Entry[] => {
      const field = fields[key];
      return field ? [[key, field]] : [];
    });
    entriesByMap.set(map, entries);
  }
  return entries;
}

/** The columns a map writes, in insert order: its fields' columns, then its derived ones. */
export function columnsOf<T, Ctx, Place, M extends Fields<T, Ctx, Placed<T, Place>>>(map: TableMap<T, Ctx, Place, M>): string[] {
  const columns: string[] = [];
  for (const [, field] of entriesOf(map)) if (isColumn(field)) columns.push(field.column);
  return [...columns, ...Object.keys(map.derived ?? {})];
}

/** One item's cells, in `columnsOf` order. */
export function cellsOf<T, Ctx, Place, M extends Fields<T, Ctx, Placed<T, Place>>>(
  map: TableMap<T, Ctx, Place, M>,
  item: Placed<T, Place>,
  ctx: Ctx,
): Cell[] {
  const cells: Cell[] = [];
  const value: Readonly<Record<string, unknown>> = item.value as Readonly<Record<string, unknown>>;
  for (const [key, field] of entriesOf(map)) if (isColumn(field)) cells.push(field.write(value[key], ctx, item));
  for (const derive of Object.values(map.derived ?? {})) cells.push(derive(item, ctx));
  return cells;
}

/** Boot: writes placed objects into the map's table, set-wise. */
export function insertPlaced<T, Ctx, Place, M extends Fields<T, Ctx, Placed<T, Place>>>(
  db: Db,
  map: TableMap<T, Ctx, Place, M>,
  items: readonly Placed<T, Place>[],
  ctx: Ctx,
): void {
  if (items.length === 0) return;
  const rows = items.map((item) => cellsOf(map, item, ctx));
  insertRows(db, map.table, columnsOf(map), rows, { orIgnore: map.orIgnore });
}

/** Boot: writes objects that need no place (top-level ones) into the map's table, set-wise. */
export function insertObjects<T, Ctx, M extends Fields<T, Ctx, Placed<T, undefined>>>(
  db: Db,
  map: TableMap<T, Ctx, undefined, M>,
  values: readonly T[],
  ctx: Ctx,
): void {
  insertPlaced(
    db,
    map,
    values.map((value) => ({ value, place: undefined })),
    ctx,
  );
}

/** Export: a table's rows, in the order `tail` gives (insertion order unless told), `tail`'s `?` bound to `params`. */
export function readRows(db: Db, table: string, tail = "ORDER BY rowid", ...params: (string | number)[]): StoredRow[] {
  return db.all<StoredRow>(`SELECT * FROM ${table} ${tail}`, ...params);
}

/**
 * Export: the object a stored row holds, its fields in the map's order; a field read as
 * `undefined` (an optional one whose column is null) is left out, as the seed leaves it out.
 */
export function objectOf<T, Ctx, Place, M extends Fields<T, Ctx, Placed<T, Place>>>(
  map: TableMap<T, Ctx, Place, M>,
  row: StoredRow,
  ctx: Ctx,
  parts?: AssembledParts<T, M>,
): Mapped<T, M> {
  const out: Record<string, unknown> = {};
  const assembledFrom: Readonly<Record<string, unknown>> = parts ?? {};
  for (const [key, field] of entriesOf(map)) {
    const value = isColumn(field) ? field.read(row[field.column] ?? null, ctx, row) : assembledFrom[key];
    if (value !== undefined) out[key] = value;
  }
  // Every field M names was read through its column (typed T[K]) or given in `parts` (typed by T).
  return out as Mapped<T, M>;
}

/** Column kinds. Text and number columns hold what boot or the twin's own writes put there. */
export const col = {
  text: <V extends string = string>(column: string): Column<V> => ({ column, write: (v) => v, read: (cell) => String(cell) as V }),
  nullableText: <V extends string = string>(column: string): Column<V | null> => ({
    column,
    write: (v) => v,
    read: (cell) => (cell === null ? null : (String(cell) as V)),
  }),
  number: (column: string): Column<number> => ({ column, write: (v) => v, read: (cell) => Number(cell) }),
  nullableNumber: (column: string): Column<number | null> => ({
    column,
    write: (v) => v,
    read: (cell) => (cell === null ? null : Number(cell)),
  }),
  /** SQLite keeps a boolean as 0 or 1. */
  flag: (column: string): Column<boolean> => ({ column, write: (v) => (v ? 1 : 0), read: (cell) => cell === 1 }),
  /** A structured value, JSON-encoded in a TEXT column. */
  json: <V>(column: string): Column<V> => ({
    column,
    write: (v) => JSON.stringify(v),
    read: (cell) => JSON.parse(String(cell)) as V,
  }),
  /** A field present only when set: absent is stored as null and a null cell leaves it out. */
  optional: <V, Ctx, Item>(inner: Column<V, Ctx, Item>): Column<V | undefined, Ctx, Item> => ({
    column: inner.column,
    write: (v, ctx, item) => (v === undefined ? null : inner.write(v, ctx, item)),
    read: (cell, ctx, row) => (cell === null ? undefined : inner.read(cell, ctx, row)),
  }),
  /** Any other mapping, written out: a reference resolved through the context, say. */
  custom: <V, Ctx = unknown, Item = unknown>(
    column: string,
    write: (value: V, ctx: Ctx, item: Item) => Cell,
    read: (cell: Cell, ctx: Ctx, row: StoredRow) => V,
  ): Column<V, Ctx, Item> => ({ column, write, read }),
};

/**
 * References between seeded objects, both ways: a seed names another object by its natural key
 * (an email, a team key) and the table keeps its id. Boot registers the seed's objects and asks
 * for ids; export registers the stored rows and asks for keys. `lookup` is how a key is asked
 * for when that differs from the key itself (an email matched case-insensitively, a state named
 * within its team).
 */
export class Refs<Keys extends Record<string, string | number>> {
  private readonly ids = new Map<keyof Keys, Map<string, string>>();
  private readonly keys = new Map<keyof Keys, Map<string, Keys[keyof Keys]>>();

  add<K extends keyof Keys>(kind: K, id: string, key: Keys[K], lookup: string = String(key)): void {
    this.table(this.ids, kind).set(lookup, id);
    this.table(this.keys, kind).set(id, key);
  }

  /** The id of the object `lookup` names; null when it names none. */
  id(kind: keyof Keys, lookup: string | null): string | null {
    return lookup === null ? null : (this.ids.get(kind)?.get(lookup) ?? null);
  }

  /** The natural key of the object with `id`; undefined when no such object was registered. */
  key<K extends keyof Keys>(kind: K, id: Cell): Keys[K] | undefined {
    if (id === null) return undefined;
    // Only add() writes this table, with keys of kind K.
    return this.keys.get(kind)?.get(String(id)) as Keys[K] | undefined;
  }

  private table<V>(tables: Map<keyof Keys, Map<string, V>>, kind: keyof Keys): Map<string, V> {
    let table = tables.get(kind);
    if (!table) {
      table = new Map();
      tables.set(kind, table);
    }
    return table;
  }
}

/**
 * A list an object holds of other objects, kept as a join table `(owner, item, position)`: a
 * team's members, an issue's labels. Boot writes every owner's list; export gives each owner's
 * list back in its order. The item column's `write` sees the owner, for a reference the owner
 * qualifies (a label named within the team).
 */
export interface ListTable<Item, Ctx, Owner = unknown> {
  readonly table: string;
  readonly owner: string;
  readonly item: Column<Item, Ctx, Owner>;
  readonly position?: string;
  readonly orIgnore?: boolean;
}

export function insertLists<Item, Ctx, Owner>(
  db: Db,
  list: ListTable<Item, Ctx, Owner>,
  owners: readonly Owner[],
  of: (owner: Owner) => { readonly id: string; readonly items: readonly Item[] },
  ctx: Ctx,
): void {
  const rows: Cell[][] = [];
  for (const owner of owners) {
    const { id, items } = of(owner);
    items.forEach((item, i) => {
      const cells: Cell[] = [id, list.item.write(item, ctx, owner)];
      if (list.position) cells.push(i);
      rows.push(cells);
    });
  }
  if (rows.length === 0) return;
  const columns = [list.owner, list.item.column, ...(list.position ? [list.position] : [])];
  insertRows(db, list.table, columns, rows, { orIgnore: list.orIgnore });
}

/** Export: each owner's list by owner id, in position order (insertion order without one). */
export function readLists<Item, Ctx, Owner>(db: Db, list: ListTable<Item, Ctx, Owner>, ctx: Ctx): Map<string, Item[]> {
  const order = list.position ? `ORDER BY ${list.owner}, ${list.position}` : "ORDER BY rowid";
  const lists = new Map<string, Item[]>();
  for (const row of readRows(db, list.table, order)) {
    const owner = String(row[list.owner]);
    const item = list.item.read(row[list.item.column] ?? null, ctx, row);
    const items = lists.get(owner);
    if (items) items.push(item);
    else lists.set(owner, [item]);
  }
  return lists;
}
