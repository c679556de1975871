// An issue read with the rows it points at most often (its state, team, assignee and creator),
// in one statement: each statement costs a call far more than the few index lookups a join adds,
// and nearly every read of an issue (the SDK's Issue fragment, an agent's `issue(id)`) then asks
// for some of them. The joined rows come back as plain columns (`_j0_name`), so their values keep
// SQLite's own types exactly as `SELECT *` gives them, and go into the call's cache.
import type { Db, SqlValue } from "../../sql";
import type { Entity, Gql, Row } from "./context";
import { TABLES } from "./context";

/** What an issue row points at, read along with it: the entity and the issue's column naming it. */
const LINKS: readonly { entity: Entity; column: string }[] = [
  { entity: "WorkflowState", column: "state_id" },
  { entity: "Team", column: "team_id" },
  { entity: "User", column: "assignee_id" },
  { entity: "User", column: "creator_id" },
];

interface IssueRead {
  /** The issue's own columns, in table order. */
  own: string[];
  /** Per link, its table's columns and their aliases in the result. */
  links: { entity: Entity; columns: string[]; aliases: string[] }[];
  byIdOrIdentifier: string;
  byIdentifier: string;
}

const columnsOf = (db: Db, table: string) => db.all<{ name: string }>(`PRAGMA table_info(${table})`).map((c) => c.name);

/** The statements, built once per Db from the tables' columns as migrated (a migration may add one). */
const reads = new WeakMap<Db, IssueRead>();

function issueRead(db: Db): IssueRead {
  let r = reads.get(db);
  if (!r) {
    const own = columnsOf(db, TABLES.Issue);
    const links = LINKS.map((l, i) => {
      const columns = columnsOf(db, TABLES[l.entity]);
      return { entity: l.entity, columns, aliases: columns.map((c) => `_j${i}_${c}`) };
    });
    const select = ["i.*", ...links.flatMap((l, i) => l.columns.map((c, k) => `j${i}.${c} AS ${l.aliases[k]}`))].join(", ");
    const joins = LINKS.map((l, i) => `LEFT JOIN ${TABLES[l.entity]} j${i} ON j${i}.id = i.${l.column}`).join(" ");
    const from = `SELECT ${select} FROM ${TABLES.Issue} i ${joins}`;
    r = {
      own,
      links,
      // Each side of the OR is served by its own unique index.
      byIdOrIdentifier: `${from} WHERE i.id = ? OR i.identifier = ?`,
      byIdentifier: `${from} WHERE i.identifier = ?`,
    };
    reads.set(db, r);
  }
  return r;
}

/** Splits a joined result row: the issue's own row, and the linked rows put into the call's cache. */
function split(gql: Gql, r: IssueRead, wide: Record<string, SqlValue>): Row {
  const own: Record<string, SqlValue> = {};
  for (const c of r.own) own[c] = wide[c] ?? null;
  for (const l of r.links) {
    if (wide[l.aliases[0] ?? ""] == null) continue; // no such row: byId reads (and remembers) that itself
    const linked: Record<string, SqlValue> = {};
    l.columns.forEach((c, k) => {
      linked[c] = wide[l.aliases[k] ?? ""] ?? null;
    });
    if (isRow(linked)) gql.prime(l.entity, [linked]);
  }
  if (!isRow(own)) throw new Error("lin_issues row without a text id");
  return own;
}

const isRow = (r: Record<string, SqlValue>): r is Row => typeof r.id === "string";

/**
 * The issues matching a UUID or an identifier (`ENG-12`), with their state, team, assignee and
 * creator cached for the call; `identifierOnly` when the UUID is known not to exist.
 */
export function readIssues(gql: Gql, ref: string, identifierOnly: boolean): Row[] {
  const r = issueRead(gql.db);
  const wide = identifierOnly
    ? gql.db.all<Record<string, SqlValue>>(r.byIdentifier, ref.toUpperCase())
    : gql.db.all<Record<string, SqlValue>>(r.byIdOrIdentifier, ref, ref.toUpperCase());
  return wide.map((w) => split(gql, r, w));
}
