// Linear's filter inputs compiled to SQL: comparator objects (`eq`, `in`, `containsIgnoreCase`,
// `gt`, `null`…) on columns, nested filters on to-one relations (`state: {type: {eq: "started"}}`),
// collection filters (`labels: {some: …, every: …, name: …}`), composed with `and`/`or`. A filter
// field Linear has but the twin does not evaluate refuses the call (501), never silently matches.
import type { SqlValue } from "../types";
import { Unsupported, invalidInput } from "./errors";

type Kind = "string" | "number" | "date" | "tdate" | "id" | "bool";
type FieldSpec =
  | { kind: Kind; col: string }
  | { kind: "rel"; entity: EntityName; col: string }
  | { kind: "many"; entity: EntityName; join: (outer: string, inner: string) => string }
  | { kind: "sql"; build: (alias: string, value: unknown, b: Builder) => string };

export type EntityName =
  | "issue"
  | "user"
  | "team"
  | "state"
  | "label"
  | "project"
  | "cycle"
  | "comment"
  | "attachment"
  | "notification"
  | "reaction"
  | "document"
  | "projectMilestone"
  | "projectUpdate"
  | "favorite"
  | "initiative"
  | "initiativeToProject"
  | "customView"
  | "template";
interface EntitySpec {
  table: string;
  typeName: string;
  fields: Record<string, FieldSpec>;
}

const s = (col: string): FieldSpec => ({ kind: "string", col });
const n = (col: string): FieldSpec => ({ kind: "number", col });
const d = (col: string): FieldSpec => ({ kind: "date", col });
const id = (col = "id"): FieldSpec => ({ kind: "id", col });
const rel = (entity: EntityName, col: string): FieldSpec => ({ kind: "rel", entity, col });

/**
 * Where a cycle stands against now (each `?`), as Linear's Cycle fields say:
 * active while startsAt <= now < endsAt, past once ended, future before it starts; next is the
 * team's earliest future cycle and previous its latest past one. Each is 0 or 1, never NULL.
 */
export const CYCLE_WHEN = {
  active: (a: string) => `(julianday(${a}.starts_at) <= julianday(?) AND julianday(${a}.ends_at) > julianday(?))`,
  past: (a: string) => `(julianday(${a}.ends_at) <= julianday(?))`,
  future: (a: string) => `(julianday(${a}.starts_at) > julianday(?))`,
  next: (a: string) =>
    `coalesce(${a}.id = (SELECT n.id FROM lin_cycles n WHERE n.team_id = ${a}.team_id AND n.archived_at IS NULL AND julianday(n.starts_at) > julianday(?) ORDER BY julianday(n.starts_at), n.number LIMIT 1), 0)`,
  previous: (a: string) =>
    `coalesce(${a}.id = (SELECT p.id FROM lin_cycles p WHERE p.team_id = ${a}.team_id AND p.archived_at IS NULL AND julianday(p.ends_at) <= julianday(?) ORDER BY julianday(p.ends_at) DESC, p.number DESC LIMIT 1), 0)`,
} as const;

/**
 * RelationExistsComparator (`eq`/`neq` a boolean): whether the issue has a relation of a kind.
 * `where` is the relation's condition over `r` (lin_relations) for the issue at the alias.
 */
function hasRelation(where: (alias: string) => string): FieldSpec {
  return {
    kind: "sql",
    build: (a, v, b) => b.comparator(`EXISTS (SELECT 1 FROM lin_relations r WHERE ${where(a)})`, v, "bool"),
  };
}

/** A cycle's place in time as a boolean filter field; every `?` in the expression is now. */
function cycleWhen(expr: (alias: string) => string): FieldSpec {
  return {
    kind: "sql",
    build: (a, v, b) => {
      // Now is written into the text, not bound: a comparator may repeat its left side (`neq`
      // reads it twice), and an ISO time the twin formats itself is safe as a literal.
      const now = `'${new Date(b.nowMs).toISOString()}'`;
      return b.comparator(expr(a).replace(/\?/g, now), v, "bool");
    },
  };
}

const ENTITIES: Record<EntityName, EntitySpec> = {
  issue: {
    table: "lin_issues",
    typeName: "IssueFilter",
    fields: {
      id: {
        kind: "sql",
        // Issue ids compare by UUID or by identifier, as Linear's IssueIDComparator does.
        build: (a, v, b) => b.comparator(`${a}.id`, v, "id", `${a}.identifier`),
      },
      number: n("number"),
      title: s("title"),
      description: s("description"),
      priority: n("priority"),
      estimate: n("estimate"),
      createdAt: d("created_at"),
      updatedAt: d("updated_at"),
      startedAt: d("started_at"),
      completedAt: d("completed_at"),
      canceledAt: d("canceled_at"),
      archivedAt: d("archived_at"),
      dueDate: { kind: "tdate", col: "due_date" },
      assignee: rel("user", "assignee_id"),
      creator: rel("user", "creator_id"),
      state: rel("state", "state_id"),
      team: rel("team", "team_id"),
      project: rel("project", "project_id"),
      cycle: rel("cycle", "cycle_id"),
      parent: rel("issue", "parent_id"),
      labels: {
        kind: "many",
        entity: "label",
        join: (o, i) => `${i}.id IN (SELECT label_id FROM lin_issue_labels WHERE issue_id = ${o}.id)`,
      },
      children: { kind: "many", entity: "issue", join: (o, i) => `${i}.parent_id = ${o}.id` },
      comments: { kind: "many", entity: "comment", join: (o, i) => `${i}.issue_id = ${o}.id` },
      attachments: { kind: "many", entity: "attachment", join: (o, i) => `${i}.issue_id = ${o}.id` },
      subscribers: {
        kind: "many",
        entity: "user",
        join: (o, i) => `${i}.id IN (SELECT user_id FROM lin_subscribers WHERE issue_id = ${o}.id)`,
      },
      snoozedUntilAt: d("snoozed_until_at"),
      snoozedBy: rel("user", "snoozed_by_id"),
      delegate: rel("user", "delegate_id"),
      projectMilestone: rel("projectMilestone", "project_milestone_id"),
      lastAppliedTemplate: rel("template", "last_applied_template_id"),
      // The twin never archives or closes an issue on its own, so these are NULL on every issue.
      autoArchivedAt: { kind: "sql", build: (_a, v, b) => b.comparator("NULL", v, "date") },
      autoClosedAt: { kind: "sql", build: (_a, v, b) => b.comparator("NULL", v, "date") },
      hasBlockedByRelations: hasRelation((a) => `r.related_issue_id = ${a}.id AND r.type = 'blocks'`),
      hasBlockingRelations: hasRelation((a) => `r.issue_id = ${a}.id AND r.type = 'blocks'`),
      hasDuplicateRelations: hasRelation((a) => `(r.issue_id = ${a}.id OR r.related_issue_id = ${a}.id) AND r.type = 'duplicate'`),
      hasRelatedRelations: hasRelation((a) => `(r.issue_id = ${a}.id OR r.related_issue_id = ${a}.id) AND r.type = 'related'`),
      reactions: { kind: "many", entity: "reaction", join: (o, i) => `${i}.issue_id = ${o}.id` },
      searchableContent: {
        kind: "sql",
        build: (a, v, b) => {
          // ContentComparator: `contains` and `notContains`, each a plain substring test of title
          // and description, case aside: the user's text is never a LIKE pattern.
          const parts: string[] = [];
          for (const [op, text] of Object.entries(b.record(v, "ContentComparator"))) {
            if (text === undefined) continue;
            if (typeof text !== "string" || (op !== "contains" && op !== "notContains"))
              throw invalidInput(`Invalid ContentComparator.${op}`);
            const hit = `(instr(lower(${a}.title), lower(${b.param(text)})) > 0 OR instr(lower(coalesce(${a}.description, '')), lower(${b.param(text)})) > 0)`;
            parts.push(op === "contains" ? hit : `NOT ${hit}`);
          }
          return parts.length ? `(${parts.join(" AND ")})` : "1";
        },
      },
    },
  },
  user: {
    table: "lin_users",
    typeName: "UserFilter",
    fields: {
      id: id(),
      email: s("email"),
      name: s("name"),
      displayName: s("display_name"),
      createdAt: d("created_at"),
      active: { kind: "bool", col: "active" },
      admin: { kind: "bool", col: "admin" },
      isMe: { kind: "sql", build: (a, v, b) => b.comparator(`(${a}.id = ${b.param(b.viewerId)})`, v, "bool") },
      assignedIssues: { kind: "many", entity: "issue", join: (o, i) => `${i}.assignee_id = ${o}.id` },
    },
  },
  team: {
    table: "lin_teams",
    typeName: "TeamFilter",
    fields: {
      id: id(),
      key: s("key"),
      name: s("name"),
      description: s("description"),
      createdAt: d("created_at"),
      members: {
        kind: "many",
        entity: "user",
        join: (o, i) => `${i}.id IN (SELECT user_id FROM lin_team_members WHERE team_id = ${o}.id)`,
      },
      issues: { kind: "many", entity: "issue", join: (o, i) => `${i}.team_id = ${o}.id` },
    },
  },
  state: {
    table: "lin_states",
    typeName: "WorkflowStateFilter",
    fields: {
      id: id(),
      name: s("name"),
      type: s("type"),
      position: n("position"),
      description: s("description"),
      createdAt: d("created_at"),
      team: rel("team", "team_id"),
      issues: { kind: "many", entity: "issue", join: (o, i) => `${i}.state_id = ${o}.id` },
    },
  },
  label: {
    table: "lin_labels",
    typeName: "IssueLabelFilter",
    fields: {
      id: id(),
      name: s("name"),
      createdAt: d("created_at"),
      updatedAt: d("updated_at"),
      team: rel("team", "team_id"),
      creator: rel("user", "creator_id"),
    },
  },
  project: {
    table: "lin_projects",
    typeName: "ProjectFilter",
    fields: {
      id: id(),
      name: s("name"),
      state: s("state"),
      createdAt: d("created_at"),
      updatedAt: d("updated_at"),
      lead: rel("user", "lead_id"),
      issues: { kind: "many", entity: "issue", join: (o, i) => `${i}.project_id = ${o}.id` },
      accessibleTeams: {
        kind: "many",
        entity: "team",
        join: (o, i) => `${i}.id IN (SELECT team_id FROM lin_project_teams WHERE project_id = ${o}.id)`,
      },
      initiatives: {
        kind: "many",
        entity: "initiative",
        join: (o, i) => `${i}.id IN (SELECT initiative_id FROM lin_initiative_projects WHERE project_id = ${o}.id)`,
      },
    },
  },
  cycle: {
    table: "lin_cycles",
    typeName: "CycleFilter",
    fields: {
      id: id(),
      number: n("number"),
      name: s("name"),
      startsAt: d("starts_at"),
      endsAt: d("ends_at"),
      createdAt: d("created_at"),
      updatedAt: { kind: "sql", build: (a, v, b) => b.comparator(`coalesce(${a}.updated_at, ${a}.created_at)`, v, "date") },
      completedAt: d("completed_at"),
      team: rel("team", "team_id"),
      issues: { kind: "many", entity: "issue", join: (o, i) => `${i}.cycle_id = ${o}.id` },
      isActive: cycleWhen(CYCLE_WHEN.active),
      isFuture: cycleWhen(CYCLE_WHEN.future),
      isPast: cycleWhen(CYCLE_WHEN.past),
      isNext: cycleWhen(CYCLE_WHEN.next),
      isPrevious: cycleWhen(CYCLE_WHEN.previous),
      // The twin's teams have no cooldown between cycles, so no cycle is ever in one.
      isInCooldown: { kind: "sql", build: (_a, v, b) => b.comparator("0", v, "bool") },
    },
  },
  comment: {
    table: "lin_comments",
    typeName: "CommentFilter",
    fields: {
      id: id(),
      body: s("body"),
      createdAt: d("created_at"),
      updatedAt: d("updated_at"),
      user: rel("user", "user_id"),
      issue: rel("issue", "issue_id"),
      parent: rel("comment", "parent_id"),
    },
  },
  attachment: {
    table: "lin_attachments",
    typeName: "AttachmentFilter",
    fields: {
      id: id(),
      title: s("title"),
      subtitle: s("subtitle"),
      url: s("url"),
      createdAt: d("created_at"),
      updatedAt: d("updated_at"),
      creator: rel("user", "creator_id"),
    },
  },
  reaction: {
    table: "lin_reactions",
    typeName: "ReactionFilter",
    fields: {
      id: id(),
      emoji: s("emoji"),
      createdAt: d("created_at"),
      // Reactions are never edited: updatedAt is createdAt.
      updatedAt: d("created_at"),
      // The twin has no custom emoji: no reaction has one.
      customEmojiId: { kind: "sql", build: (_a, v, b) => b.comparator("NULL", v, "id") },
    },
  },
  document: {
    table: "lin_documents",
    typeName: "DocumentFilter",
    fields: {
      id: id(),
      title: s("title"),
      // Document.slugId is the last 12 characters of its id (resolvers/documents.ts).
      slugId: { kind: "sql", build: (a, v, b) => b.comparator(`substr(${a}.id, -12)`, v, "string") },
      createdAt: d("created_at"),
      updatedAt: d("updated_at"),
      creator: rel("user", "creator_id"),
      project: rel("project", "project_id"),
    },
  },
  projectMilestone: {
    table: "lin_project_milestones",
    typeName: "ProjectMilestoneFilter",
    fields: {
      id: id(),
      name: s("name"),
      targetDate: { kind: "tdate", col: "target_date" },
      createdAt: d("created_at"),
      updatedAt: d("updated_at"),
      project: rel("project", "project_id"),
    },
  },
  initiative: {
    table: "lin_initiatives",
    typeName: "InitiativeFilter",
    fields: {
      id: id(),
      name: s("name"),
      // Initiative.slugId is the last 12 characters of its id (resolvers/initiatives.ts).
      slugId: { kind: "sql", build: (a, v, b) => b.comparator(`substr(${a}.id, -12)`, v, "string") },
      status: s("status"),
      createdAt: d("created_at"),
      updatedAt: d("updated_at"),
      startedAt: d("started_at"),
      completedAt: d("completed_at"),
      targetDate: { kind: "tdate", col: "target_date" },
      owner: rel("user", "owner_id"),
      creator: rel("user", "creator_id"),
    },
  },
  // Linear's `initiativeToProjects` takes no filter; the entry names the list's table for paging.
  initiativeToProject: { table: "lin_initiative_projects", typeName: "InitiativeToProjectFilter", fields: { id: id() } },
  template: {
    table: "lin_templates",
    typeName: "NullableTemplateFilter",
    fields: {
      id: id(),
      name: s("name"),
      type: s("type"),
      createdAt: d("created_at"),
      updatedAt: d("updated_at"),
      // The twin's templates are all originals: none is inherited from a parent team's.
      inheritedFromId: { kind: "sql", build: (_a, v, b) => b.comparator("NULL", v, "id") },
    },
  },
  customView: {
    table: "lin_custom_views",
    typeName: "CustomViewFilter",
    fields: {
      id: id(),
      name: s("name"),
      createdAt: d("created_at"),
      updatedAt: d("updated_at"),
      shared: { kind: "bool", col: "shared" },
      // Every view the twin keeps is an issue view (filterData).
      modelName: { kind: "sql", build: (_a, v, b) => b.comparator("'issue'", v, "string") },
      creator: rel("user", "creator_id"),
      team: rel("team", "team_id"),
    },
  },
  // Linear's `favorites` takes no filter; the entry names the list's table for paging.
  favorite: { table: "lin_favorites", typeName: "FavoriteFilter", fields: { id: id() } },
  projectUpdate: {
    table: "lin_project_updates",
    typeName: "ProjectUpdateFilter",
    fields: {
      id: id(),
      createdAt: d("created_at"),
      updatedAt: d("updated_at"),
      project: rel("project", "project_id"),
      user: rel("user", "user_id"),
    },
  },
  notification: {
    table: "lin_notifications",
    typeName: "NotificationFilter",
    fields: {
      id: id(),
      type: s("type"),
      createdAt: d("created_at"),
      updatedAt: d("updated_at"),
      archivedAt: d("archived_at"),
    },
  },
};

const DURATION = /^(-)?P(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$/;

/** An ISO date-time, or an ISO 8601 duration relative to now (`-P2W` is two weeks ago), as Linear accepts. */
export function resolveDate(value: unknown, nowMs: number): string {
  if (typeof value !== "string") throw invalidInput("Invalid date comparator value");
  const m = DURATION.exec(value);
  if (m && value.length > 1) {
    const [, neg, y, mo, w, dd, h, mi, se] = m;
    const num = (x: string | undefined) => Number(x ?? 0);
    const ms = (((num(y) * 365 + num(mo) * 30 + num(w) * 7 + num(dd)) * 24 + num(h)) * 60 + num(mi)) * 60_000 + num(se) * 1000;
    return new Date(nowMs + (neg ? -ms : ms)).toISOString();
  }
  if (Number.isNaN(Date.parse(value))) throw invalidInput(`Invalid date: ${value}`);
  return value;
}

/**
 * Accented letters SQLite's lower() leaves alone, and what they fold to: the Latin-1 ones in both
 * cases. Each is one nested replace(), and SQLite refuses an expression tree deeper than 100, so
 * the list stays short; a letter outside it (ő, ł, ş…) compares as itself.
 */
const ACCENTS: readonly [string, string][] = (
  [
    ["àáâãäå", "a"],
    ["ç", "c"],
    ["èéêë", "e"],
    ["ìíîï", "i"],
    ["ñ", "n"],
    ["òóôõöø", "o"],
    ["ùúûü", "u"],
    ["ýÿ", "y"],
  ] as const
).flatMap(([letters, base]) => [...letters, ...letters.toUpperCase()].map((c): [string, string] => [c, base]));

/** A column folded for `containsIgnoreCaseAndAccent`: lower case, the letters above unaccented (fixed text, no user input). */
const foldAccents = (col: string): string =>
  ACCENTS.reduce((expr, [from, to]) => `replace(${expr}, '${from}', '${to}')`, `lower(coalesce(${col}, ''))`);

/** The user's text folded the same way (Unicode decomposition, marks dropped, lower case). */
const stripAccents = (text: string): string =>
  text
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[øØ]/g, "o")
    .toLowerCase();

/**
 * How one comparator's operators write their SQL: `col` the column (`altCol` a second column
 * either of which may match), `lhs` the column as compared (a date as a julian day), `v` a bound
 * value, `list` a bound list, `either` an expression on either column, `param` a raw bound value.
 */
interface ComparatorSql {
  col: string;
  altCol: string | undefined;
  lhs: string;
  v: (x: unknown) => string;
  list: (x: unknown) => string;
  either: (expr: (c: string) => string) => string;
  param: (x: SqlValue) => string;
}

/** Equality, membership, order and null operators; undefined for any other operator. */
function orderComparison(op: string, x: unknown, { col, altCol, lhs, v, list, either }: ComparatorSql): string | undefined {
  switch (op) {
    case "eq":
      return either((c) => `${c} = ${v(x)}`);
    case "neq":
      return altCol ? `NOT (${col} = ${v(x)} OR ${altCol} = ${v(x)})` : `(${lhs} IS NULL OR ${lhs} <> ${v(x)})`;
    case "in":
      return either((c) => `${c} IN (${list(x)})`);
    case "nin":
      return `(${lhs} IS NULL OR ${lhs} NOT IN (${list(x)}))`;
    case "gt":
      return `${lhs} > ${v(x)}`;
    case "gte":
      return `${lhs} >= ${v(x)}`;
    case "lt":
      return `${lhs} < ${v(x)}`;
    case "lte":
      return `${lhs} <= ${v(x)}`;
    case "null":
      return x === true ? `${col} IS NULL` : `${col} IS NOT NULL`;
    default:
      return undefined;
  }
}

const textOperand = (x: unknown): string => {
  if (typeof x !== "string") throw invalidInput("Expected a string");
  return x;
};

/**
 * Text operators; undefined for any other operator. They compare substrings (instr, substr): `%`
 * and `_` in the user's text are literal characters, and a value of any length works (a LIKE
 * pattern has a length limit).
 */
function textComparison(op: string, x: unknown, { col, v, param }: ComparatorSql): string | undefined {
  const text = textOperand;
  const prefix = (c: string) => `substr(${c}, 1, length(${v(text(x))})) = ${v(text(x))}`;
  // The tail of as many characters as the value has (all of it for ""; a value longer than the
  // column starts at or before its first character, and what substr gives is then shorter).
  const suffix = (c: string) => `substr(${c}, length(${c}) - length(${v(text(x))}) + 1) = ${v(text(x))}`;
  switch (op) {
    case "eqIgnoreCase":
      return `lower(${col}) = lower(${v(x)})`;
    case "neqIgnoreCase":
      return `lower(${col}) <> lower(${v(x)})`;
    case "contains":
      return `instr(${col}, ${v(text(x))}) > 0`;
    case "notContains":
      return `instr(coalesce(${col}, ''), ${v(text(x))}) = 0`;
    case "containsIgnoreCase":
      return `instr(lower(${col}), lower(${v(text(x))})) > 0`;
    case "containsIgnoreCaseAndAccent":
      return `instr(${foldAccents(col)}, ${param(stripAccents(text(x)))}) > 0`;
    case "notContainsIgnoreCase":
      return `instr(lower(coalesce(${col}, '')), lower(${v(text(x))})) = 0`;
    case "startsWith":
      return prefix(col);
    case "startsWithIgnoreCase":
      return `substr(lower(${col}), 1, length(${v(text(x))})) = lower(${v(text(x))})`;
    case "notStartsWith":
      return `NOT ${prefix(col)}`;
    case "endsWith":
      return suffix(col);
    case "notEndsWith":
      return `NOT ${suffix(col)}`;
    default:
      return undefined;
  }
}

class Builder {
  readonly params: SqlValue[] = [];
  private aliases = 0;
  constructor(
    readonly viewerId: string,
    readonly nowMs: number,
  ) {}
  param(v: SqlValue): string {
    this.params.push(v);
    return "?";
  }
  alias(): string {
    return `f${++this.aliases}`;
  }
  record(v: unknown, typeName: string): Record<string, unknown> {
    if (typeof v !== "object" || v === null || Array.isArray(v)) throw invalidInput(`Invalid ${typeName}`);
    return v as Record<string, unknown>;
  }

  /** One comparator object on one column; every operator present must hold. */
  comparator(col: string, value: unknown, kind: Kind, altCol?: string): string {
    const cmp = this.record(value, "comparator");
    const parts: string[] = [];
    const sql = this.comparatorSql(col, kind, altCol);
    for (const [op, x] of Object.entries(cmp)) {
      if (x === undefined) continue;
      if (op === "and" || op === "or") {
        if (!Array.isArray(x)) throw invalidInput(`Expected a list for ${op}`);
        const subs = x.map((sub) => this.comparator(col, sub, kind, altCol));
        if (subs.length) parts.push(`(${subs.join(op === "and" ? " AND " : " OR ")})`);
        continue;
      }
      const part = orderComparison(op, x, sql) ?? textComparison(op, x, sql);
      if (part === undefined) throw new Unsupported(`the comparator \`${op}\``);
      parts.push(part);
    }
    return parts.length ? `(${parts.join(" AND ")})` : "1";
  }

  /** The SQL pieces the operators of one comparator are made of, binding their values as they go. */
  private comparatorSql(col: string, kind: Kind, altCol: string | undefined): ComparatorSql {
    const date = kind === "date" || kind === "tdate";
    const lhs = date ? `julianday(${col})` : col;
    const v = (x: unknown): string => {
      if (date) return `julianday(${this.param(kind === "tdate" ? resolveDate(x, this.nowMs).slice(0, 10) : resolveDate(x, this.nowMs))})`;
      if (kind === "bool") return this.param(x === true ? 1 : 0);
      if (typeof x !== "string" && typeof x !== "number") throw invalidInput("Invalid comparator value");
      return this.param(x);
    };
    // A list is one bound value, a JSON array read with json_each: SQLite in workerd binds at most
    // 100 values per statement, and a list of ids can be longer than that.
    const list = (x: unknown) => {
      if (!Array.isArray(x)) throw invalidInput("Expected a list");
      const items = x.map((item): SqlValue => {
        if (date) return kind === "tdate" ? resolveDate(item, this.nowMs).slice(0, 10) : resolveDate(item, this.nowMs);
        if (kind === "bool") return item === true ? 1 : 0;
        if (typeof item !== "string" && typeof item !== "number") throw invalidInput("Invalid comparator value");
        return item;
      });
      return `SELECT ${date ? "julianday(value)" : "value"} FROM json_each(${this.param(JSON.stringify(items))})`;
    };
    const either = (expr: (c: string) => string) => (altCol ? `(${expr(col)} OR ${expr(altCol)})` : expr(lhs));
    return { col, altCol, lhs, v, list, either, param: (x) => this.param(x) };
  }

  /** A filter object on one entity, at `alias`. */
  filter(entity: EntityName, value: unknown, alias: string): string {
    const spec = ENTITIES[entity];
    const f = this.record(value, spec.typeName);
    const parts: string[] = [];
    for (const [name, x] of Object.entries(f)) {
      if (x === undefined) continue;
      if (name === "and" || name === "or") {
        if (!Array.isArray(x)) throw invalidInput(`Expected a list for ${name}`);
        const subs = x.map((sub) => this.filter(entity, sub, alias));
        if (subs.length) parts.push(`(${subs.join(name === "and" ? " AND " : " OR ")})`);
        continue;
      }
      if (name === "null") {
        // Only meaningful on a nullable relation; handled by `relation`.
        continue;
      }
      const field = spec.fields[name];
      if (!field) throw new Unsupported(`the filter field \`${spec.typeName}.${name}\``);
      parts.push(this.field(field, x, alias));
    }
    return parts.length ? `(${parts.join(" AND ")})` : "1";
  }

  private field(field: FieldSpec, x: unknown, alias: string): string {
    switch (field.kind) {
      case "sql":
        return field.build(alias, x, this);
      case "rel":
        return this.relation(field.entity, field.col, x, alias);
      case "many":
        return this.collection(field.entity, field.join, x, alias);
      default:
        return this.comparator(`${alias}.${field.col}`, x, field.kind);
    }
  }

  private relation(entity: EntityName, col: string, x: unknown, alias: string): string {
    const f = this.record(x, ENTITIES[entity].typeName);
    const parts: string[] = [];
    if (f.null === true) parts.push(`${alias}.${col} IS NULL`);
    if (f.null === false) parts.push(`${alias}.${col} IS NOT NULL`);
    const rest = Object.fromEntries(Object.entries(f).filter(([k]) => k !== "null"));
    if (Object.keys(rest).length) {
      const inner = this.alias();
      parts.push(
        `${alias}.${col} IN (SELECT ${inner}.id FROM ${ENTITIES[entity].table} ${inner} WHERE ${this.filter(entity, rest, inner)})`,
      );
    }
    return parts.length ? `(${parts.join(" AND ")})` : "1";
  }

  private collection(entity: EntityName, join: (outer: string, inner: string) => string, x: unknown, alias: string): string {
    const f = this.record(x, "collection filter");
    const parts: string[] = [];
    const table = ENTITIES[entity].table;
    const direct: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(f)) {
      if (v === undefined) continue;
      const inner = this.alias();
      if (k === "some")
        parts.push(`EXISTS (SELECT 1 FROM ${table} ${inner} WHERE ${join(alias, inner)} AND ${this.filter(entity, v, inner)})`);
      else if (k === "every")
        parts.push(`NOT EXISTS (SELECT 1 FROM ${table} ${inner} WHERE ${join(alias, inner)} AND NOT ${this.filter(entity, v, inner)})`);
      else if (k === "length")
        parts.push(this.comparator(`(SELECT count(*) FROM ${table} ${inner} WHERE ${join(alias, inner)})`, v, "number"));
      else if (k === "null") parts.push(`${v === true ? "NOT " : ""}EXISTS (SELECT 1 FROM ${table} ${inner} WHERE ${join(alias, inner)})`);
      else if (k === "and" || k === "or") {
        if (!Array.isArray(v)) throw invalidInput(`Expected a list for ${k}`);
        const subs = v.map((sub) => this.collection(entity, join, sub, alias));
        if (subs.length) parts.push(`(${subs.join(k === "and" ? " AND " : " OR ")})`);
      } else direct[k] = v;
    }
    // Fields set directly on a collection filter hold for some member.
    if (Object.keys(direct).length) {
      const inner = this.alias();
      parts.push(`EXISTS (SELECT 1 FROM ${table} ${inner} WHERE ${join(alias, inner)} AND ${this.filter(entity, direct, inner)})`);
    }
    return parts.length ? `(${parts.join(" AND ")})` : "1";
  }
}

/**
 * How large a filter may be, so compiling it and running its SQL cost a bounded amount: object
 * nesting (each relation, collection, `and`/`or` element and comparator is one level; real filters
 * use four to six), objects in all, values in all (list elements included), and the values the
 * compiled SQL binds (a list binds one): SQLite in workerd binds at most 100 values per statement,
 * and a page's cursors and parent take some of them. Linear publishes no such figures; these are
 * the twin's, generous for any filter a person or an agent writes.
 */
export const FILTER_LIMITS = { depth: 12, objects: 256, values: 1_000, params: 32 } as const;

const tooComplex = (why: string) => invalidInput(`Filter too complex: ${why}`, "The filter is too complex. Simplify it and try again.");

/** Refuses a filter past FILTER_LIMITS before anything is compiled. */
export function checkFilterSize(filter: unknown): void {
  let objects = 0;
  let values = 0;
  // `depth` counts objects; `nesting` counts lists too, so lists of lists are bounded as well.
  const visit = (v: unknown, depth: number, nesting = 0): void => {
    if (nesting > 2 * FILTER_LIMITS.depth) throw tooComplex(`nested deeper than ${FILTER_LIMITS.depth} levels`);
    if (Array.isArray(v)) {
      for (const x of v) visit(x, depth, nesting + 1);
      return;
    }
    if (typeof v === "object" && v !== null) {
      if (depth >= FILTER_LIMITS.depth) throw tooComplex(`nested deeper than ${FILTER_LIMITS.depth} levels`);
      if (++objects > FILTER_LIMITS.objects) throw tooComplex(`more than ${FILTER_LIMITS.objects} objects`);
      for (const x of Object.values(v)) visit(x, depth + 1, nesting + 1);
      return;
    }
    if (++values > FILTER_LIMITS.values) throw tooComplex(`more than ${FILTER_LIMITS.values} values`);
  };
  visit(filter, 0);
}

/** Compiles `filter` on `entity` at `alias` into a WHERE fragment and its parameters. */
export function compileFilter(
  entity: EntityName,
  filter: unknown,
  alias: string,
  viewerId: string,
  nowMs: number,
): { sql: string; params: SqlValue[] } {
  const b = new Builder(viewerId, nowMs);
  if (filter === undefined || filter === null) return { sql: "1", params: [] };
  checkFilterSize(filter);
  const sql = b.filter(entity, filter, alias);
  if (b.params.length > FILTER_LIMITS.params) throw tooComplex(`more than ${FILTER_LIMITS.params} compared values (use \`in\` for a list)`);
  return { sql, params: b.params };
}
