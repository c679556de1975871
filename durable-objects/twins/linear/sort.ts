// Linear's `sort` argument (`[IssueSortInput!]`, `[UserSortInput!]`, `[ProjectSortInput!]`, `[DocumentSortInput!]`) as
// ORDER BY keys. Each element names one or more keys, in order, each with `order` (Ascending or
// Descending) and `nulls` (first or last). A key or option the twin cannot order by honestly is a
// 501, never ignored; so is a key without `order`, whose default Linear does not document.
import { Unsupported, invalidInput } from "./errors";

export interface SortKey {
  /** Names the ordering inside cursors, so a cursor of one ordering is refused by another. */
  name: string;
  expr: (alias: string) => string;
  dir: "ASC" | "DESC";
  /** Where NULLs go; null for a key that is never NULL. */
  nulls: "first" | "last" | null;
}

export type SortableEntity = "issue" | "user" | "project" | "document";

interface KeySpec {
  expr: (alias: string, options: Record<string, unknown>) => string;
  nullable: boolean;
  /** Options beyond `order` and `nulls` the key honours, with the value each needs to be a no-op or how it is read. */
  options?: Record<string, (value: unknown) => boolean>;
}

const col = (column: string, nullable = false): KeySpec => ({ expr: (a) => `${a}.${column}`, nullable });

/** Priority ranks Urgent (1) … Low (4), then No priority (0) last, or first with `noPriorityFirst`. */
const priority: KeySpec = {
  expr: (a, o) => `(CASE ${a}.priority WHEN 0 THEN ${o.noPriorityFirst === true ? 0 : 5} ELSE ${a}.priority END)`,
  nullable: false,
  options: {
    noPriorityFirst: (v) => typeof v === "boolean",
    // The twin's prioritySortOrder is the priority itself, so tiebreaking by it changes nothing.
    usePrioritySortOrderTiebreaker: (v) => typeof v === "boolean",
  },
};

/** An option the schema defaults to false, which the twin honours only at that default. */
const onlyFalse = (v: unknown) => v === false;

/**
 * Workflow state: by the state's type in Linear's board order (triage, backlog, unstarted,
 * started, completed, canceled), then its position within the team's states. Linear's own
 * ordering of states of several teams in one list is not documented; this is the board's.
 */
const workflowState: KeySpec = {
  expr: (a) =>
    `(SELECT (CASE s.type WHEN 'triage' THEN 0 WHEN 'backlog' THEN 1 WHEN 'unstarted' THEN 2 WHEN 'started' THEN 3 WHEN 'completed' THEN 4 ELSE 5 END) * 1000000 + s.position FROM lin_states s WHERE s.id = ${a}.state_id)`,
  nullable: false,
  options: { closedIssuesOrderedByRecency: onlyFalse },
};

/** A related row's name (assignee, team, project), NULL when the issue has none. */
const nameOf = (table: string, column: string, fk: string, nullable: boolean): KeySpec => ({
  expr: (a) => `(SELECT r.${column} FROM ${table} r WHERE r.id = ${a}.${fk})`,
  nullable,
});

const SORTS: Record<SortableEntity, { input: string; keys: Record<string, KeySpec> }> = {
  issue: {
    input: "IssueSortInput",
    keys: {
      createdAt: col("created_at"),
      updatedAt: col("updated_at"),
      completedAt: col("completed_at", true),
      dueDate: col("due_date", true),
      estimate: col("estimate", true),
      title: col("title"),
      manual: col("sort_order"),
      priority,
      workflowState,
      // By the assignee's name; unassigned issues are the NULLs.
      assignee: nameOf("lin_users", "name", "assignee_id", true),
      team: nameOf("lin_teams", "key", "team_id", false),
      project: nameOf("lin_projects", "name", "project_id", true),
      // By the cycle's start; `currentCycleFirst` only at its default.
      cycle: {
        expr: (a) => `(SELECT julianday(c.starts_at) FROM lin_cycles c WHERE c.id = ${a}.cycle_id)`,
        nullable: true,
        options: { currentCycleFirst: onlyFalse },
      },
    },
  },
  user: { input: "UserSortInput", keys: { name: col("name"), displayName: col("display_name") } },
  project: { input: "ProjectSortInput", keys: { createdAt: col("created_at"), updatedAt: col("updated_at"), name: col("name") } },
  document: {
    input: "DocumentSortInput",
    keys: {
      createdAt: col("created_at"),
      updatedAt: col("updated_at"),
      title: col("title"),
      // By the author's name and the parent project's name; a document outside a project is a NULL.
      creator: nameOf("lin_users", "name", "creator_id", true),
      project: nameOf("lin_projects", "name", "project_id", true),
    },
  },
};

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * At most this many keys in one `sort`: each key adds to the ORDER BY and, squared, to the values
 * a cursor's keyset condition binds (six keys bind 28 per cursor; SQLite in workerd binds at most
 * 100 per statement). Orderings people use have one to three keys.
 */
export const MAX_SORT_KEYS = 6;

export function sortKeysOf(entity: SortableEntity, sort: unknown): SortKey[] {
  const spec = SORTS[entity];
  const keys: SortKey[] = [];
  const elements = Array.isArray(sort) ? sort : [sort];
  if (elements.length > MAX_SORT_KEYS) throw invalidInput(`sort takes at most ${MAX_SORT_KEYS} keys`, "Sort by fewer keys.");
  for (const element of elements) {
    if (!isRecord(element)) throw invalidInput(`sort must be a list of ${spec.input}`);
    for (const [key, value] of Object.entries(element)) {
      if (value == null) continue;
      const k = spec.keys[key];
      if (!k) throw new Unsupported(`sorting by \`${spec.input}.${key}\``);
      if (!isRecord(value)) throw invalidInput(`sort.${key} must be an object`);
      const { order, nulls, ...options } = value;
      if (order == null) throw new Unsupported(`\`sort.${key}\` without \`order\``);
      if (order !== "Ascending" && order !== "Descending") throw invalidInput(`sort.${key}.order must be Ascending or Descending`);
      for (const [name, v] of Object.entries(options)) {
        if (v == null) continue;
        if (!k.options?.[name]?.(v)) throw new Unsupported(`\`sort.${key}.${name}\``);
      }
      const placement = nulls === "first" ? "first" : "last";
      if (keys.length >= MAX_SORT_KEYS) throw invalidInput(`sort takes at most ${MAX_SORT_KEYS} keys`, "Sort by fewer keys.");
      keys.push({
        name: `${key}:${order}:${k.nullable ? placement : "-"}:${options.noPriorityFirst === true ? "npf" : ""}`,
        expr: (a) => k.expr(a, options),
        dir: order === "Ascending" ? "ASC" : "DESC",
        nulls: k.nullable ? placement : null,
      });
    }
  }
  if (!keys.length) throw invalidInput("sort names no key", "Choose something to sort by.");
  return keys;
}
