// Relay-style connections as Linear serves them: `nodes`, `edges { node cursor }` and `pageInfo`,
// keyset-paged (an opaque cursor holds the sort value and rowid of the last node), `first` ≤ 250.
import type { SqlValue } from "../../sql";
import { decodeCursor, encodeCursor } from "../kit/cursor";
import type { Gql, Row } from "./context";
import { Unsupported, invalidInput } from "./errors";

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
}

/** A cursor names its list (the table) and holds the sort value and rowid of a page's last node. */
const cursorOf = (table: string, value: SqlValue, rowid: number) => encodeCursor(table, JSON.stringify([value, rowid]));

function readCursor(table: string, cursor: string): [SqlValue, number] | undefined {
  const key = decodeCursor(table, cursor);
  if (key === undefined) return undefined;
  try {
    const c: unknown = JSON.parse(key);
    return Array.isArray(c) &&
      c.length === 2 &&
      typeof c[1] === "number" &&
      (typeof c[0] === "string" || typeof c[0] === "number" || c[0] === null)
      ? [c[0], c[1]]
      : undefined;
  } catch {
    return undefined;
  }
}

/** Runs one page of a list: the filter's WHERE, the cursor's keyset condition, `first + 1` rows. */
export function page(gql: Gql, q: ListQuery, args: PageArgs): Connection {
  if (args.last != null || args.before != null) throw new Unsupported("backward pagination (`last`/`before`)");
  if (args.sort != null) throw new Unsupported("the `sort` argument (use `orderBy`)");
  const first = args.first ?? DEFAULT_FIRST;
  if (!Number.isInteger(first) || first < 0 || first > MAX_FIRST) throw invalidInput(`first must be between 0 and ${MAX_FIRST}`);
  const column = q.order?.column ?? (args.orderBy === "updatedAt" ? "updated_at" : "created_at");
  const dir = q.order?.direction ?? "DESC";
  const where = [...q.where];
  const params = [...q.params];
  if (q.archivable && !args.includeArchived) where.push(`${q.alias}.archived_at IS NULL`);
  if (args.after) {
    const c = readCursor(q.table, args.after);
    if (!c) throw invalidInput("Invalid cursor", "The pagination cursor is not valid.");
    where.push(dir === "DESC" ? `(${q.alias}.${column}, ${q.alias}.rowid) < (?, ?)` : `(${q.alias}.${column}, ${q.alias}.rowid) > (?, ?)`);
    params.push(c[0], c[1]);
  }
  const rows = gql.db.all<Row & { _rowid: number }>(
    `SELECT ${q.alias}.*, ${q.alias}.rowid AS _rowid FROM ${q.table} ${q.alias} ${where.length ? `WHERE ${where.join(" AND ")}` : ""}
     ORDER BY ${q.alias}.${column} ${dir}, ${q.alias}.rowid ${dir} LIMIT ?`,
    ...params,
    first + 1,
  );
  const hasNextPage = rows.length > first;
  const nodes = rows.slice(0, first);
  const edges = nodes.map((node) => ({ node, cursor: cursorOf(q.table, node[column], node._rowid) }));
  return {
    nodes,
    edges,
    pageInfo: {
      hasNextPage,
      hasPreviousPage: Boolean(args.after),
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
    },
  };
}
