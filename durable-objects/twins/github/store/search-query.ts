// What every GitHub search shares: the query's words (qualifiers and free text), GitHub's range
// syntax for counts and dates, the repositories a `repo:`/`user:`/`org:` scope names, and a
// builder of SQL conditions that never puts user text anywhere but in a bound parameter.
// Syntax: docs.github.com › Search on GitHub › Understanding the search syntax.
import type { Db, SqlValue } from "../../types";
import { findRepoByName } from "../repos";

/** One `key:value` of a query (`-key:value` negated). */
export interface Qualifier {
  key: string;
  value: string;
  negated: boolean;
  /** The qualifier as written, for a search that reads an unknown one as text, as GitHub does. */
  whole: string;
}

/** A query's words in the order written: free text as strings, qualifiers as objects. */
export type QueryWord = string | Qualifier;

// A fixed expression (user text is matched by it, never compiled into one): a qualifier with a
// quoted or bare value, a quoted phrase, or a bare word.
const TOKEN = /(-?)([A-Za-z][A-Za-z-]*):(?:"([^"]*)"|(\S+))|"([^"]*)"|(\S+)/g;

export function wordsOf(q: string): QueryWord[] {
  const out: QueryWord[] = [];
  for (const m of q.matchAll(TOKEN)) {
    const [whole, neg, key, quoted, bare, phrase, word] = m;
    if (key === undefined) out.push(phrase ?? word ?? whole);
    else out.push({ key: key.toLowerCase(), value: quoted ?? bare ?? "", negated: neg === "-", whole });
  }
  return out;
}

/**
 * Reads each qualifier with `read`; free text, and every qualifier `read` does not know, become
 * terms (GitHub searches an unknown qualifier as text), in the order written.
 */
export function readWords(q: string, read: (q: Qualifier) => boolean): string[] {
  const terms: string[] = [];
  for (const word of wordsOf(q)) {
    if (typeof word === "string") terms.push(word);
    else if (!read(word)) terms.push(word.whole);
  }
  return terms;
}

/** One end of a range: the value and whether it is itself in the range. */
export interface Bound {
  value: number;
  inclusive: boolean;
}

export interface Range {
  min?: Bound;
  max?: Bound;
}

/** A value as an interval: a count is one point; a day is its 24 hours; a time is its second. */
interface Span {
  lo: number;
  hi: number;
  hiInclusive: boolean;
}

const countSpan = (text: string): Span | undefined =>
  /^\d{1,15}$/.test(text) ? { lo: Number(text), hi: Number(text), hiInclusive: true } : undefined;

/** A date or time as GitHub reads one (ISO 8601), in seconds since the epoch. */
function dateSpan(text: string): Span | undefined {
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (day) {
    const start = Date.UTC(Number(day[1]), Number(day[2]) - 1, Number(day[3])) / 1000;
    return Number.isFinite(start) ? { lo: start, hi: start + 86_400, hiInclusive: false } : undefined;
  }
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/.test(text)) return undefined;
  const ms = Date.parse(/(Z|[+-]\d{2}:?\d{2})$/.test(text) ? text : `${text}Z`);
  if (!Number.isFinite(ms)) return undefined;
  const at = Math.floor(ms / 1000);
  return { lo: at, hi: at + 1, hiInclusive: false };
}

/**
 * GitHub's range syntax over one kind of value: `n`, `>n`, `>=n`, `<n`, `<=n`, `a..b`, `a..*`,
 * `*..b`. Undefined when the text is not one (the search then reads it as text).
 */
function rangeOf(text: string, spanOf: (t: string) => Span | undefined): Range | undefined {
  const between = /^(.+?)\.\.(.+)$/.exec(text);
  if (between) {
    const from = between[1] === "*" ? undefined : spanOf(between[1]);
    const to = between[2] === "*" ? undefined : spanOf(between[2]);
    if ((between[1] !== "*" && !from) || (between[2] !== "*" && !to)) return undefined;
    return { min: from && { value: from.lo, inclusive: true }, max: to && { value: to.hi, inclusive: to.hiInclusive } };
  }
  const compared = /^(>=|<=|>|<)?(.+)$/.exec(text);
  const span = compared ? spanOf(compared[2]) : undefined;
  if (!compared || !span) return undefined;
  switch (compared[1]) {
    case ">":
      return { min: { value: span.hi, inclusive: !span.hiInclusive } };
    case ">=":
      return { min: { value: span.lo, inclusive: true } };
    case "<":
      return { max: { value: span.lo, inclusive: false } };
    case "<=":
      return { max: { value: span.hi, inclusive: span.hiInclusive } };
    default:
      return { min: { value: span.lo, inclusive: true }, max: { value: span.hi, inclusive: span.hiInclusive } };
  }
}

export const countRange = (text: string) => rangeOf(text, countSpan);
export const dateRange = (text: string) => rangeOf(text, dateSpan);

/** Appends `value` to the list under `key`, starting the list when there is none. */
export function pushTo<K extends string, V>(lists: Partial<Record<K, V[]>>, key: K, value: V): void {
  const list = lists[key];
  if (list) list.push(value);
  else lists[key] = [value];
}

/** A boolean qualifier's value (`archived:true`), undefined when it is neither. */
export function flag(value: string): boolean | undefined {
  const lower = value.toLowerCase();
  return lower === "true" ? true : lower === "false" ? false : undefined;
}

/**
 * SQL conditions joined by AND, with their parameters. Each list of values is one condition over
 * one JSON parameter however long it is: SQLite in workerd takes at most 100 parameters and
 * expressions at most 100 levels deep, and a query of many qualifiers must reach neither.
 */
export class Conditions {
  readonly where: string[] = [];
  readonly params: SqlValue[] = [];

  add(sql: string, ...params: SqlValue[]): void {
    this.where.push(sql);
    this.params.push(...params);
  }

  /** Every value holds (`want.value` names it in `holds`); a NULL (`NULL IN (…)`) does not hold. */
  every(values: readonly string[], holds: string): void {
    if (!values.length) return;
    this.add(`NOT EXISTS (SELECT 1 FROM json_each(?) want WHERE NOT coalesce(${holds}, 0))`, JSON.stringify([...new Set(values)]));
  }

  /** No value holds (`want.value` names it in `holds`). */
  none(values: readonly string[], holds: string): void {
    if (!values.length) return;
    this.add(`NOT EXISTS (SELECT 1 FROM json_each(?) want WHERE ${holds})`, JSON.stringify([...new Set(values)]));
  }

  /** Every range holds for `expr` (a count, or seconds since the epoch for a date). */
  ranges(expr: string, ranges: readonly Range[]): void {
    for (const r of ranges) {
      if (r.min) this.add(`${expr} ${r.min.inclusive ? ">=" : ">"} ?`, r.min.value);
      if (r.max) this.add(`${expr} ${r.max.inclusive ? "<=" : "<"} ?`, r.max.value);
    }
  }

  sql(): string {
    return this.where.length ? ` WHERE ${this.where.join(" AND ")}` : "";
  }
}

/** Seconds since the epoch of a stored ISO 8601 time, for date ranges (SQLite reads its offset). */
export const epochOf = (column: string) => `unixepoch(${column})`;

/** The repositories and accounts a query scopes itself to, as written. */
export interface Scope {
  repos: string[];
  owners: string[];
  visibility?: "public" | "private";
}

/** Reads a scope qualifier into `scope`; false when `q` is not one. */
export function readScope(scope: Scope, q: Qualifier): boolean {
  const lower = q.value.toLowerCase();
  if (q.key === "repo") scope.repos.push(q.value);
  else if (q.key === "user" || q.key === "org") scope.owners.push(q.value);
  else if (q.key === "is" && (lower === "public" || lower === "private")) scope.visibility = lower;
  else return false;
  return true;
}

export type ScopeResult = { ok: true } | { ok: false; missing: string[] };

/**
 * Adds the scope's conditions over the repository id `repoIdExpr`. A repository or account that
 * does not exist makes the whole search a 422, as GitHub answers ("The listed users and
 * repositories cannot be searched…").
 */
export function scopeConditions(db: Db, scope: Scope, c: Conditions, repoIdExpr: string): ScopeResult {
  const missing: string[] = [];
  const ids: number[] = [];
  for (const full of scope.repos) {
    const [owner, name, extra] = full.split("/");
    const repo = owner && name && extra === undefined ? findRepoByName(db, owner, name) : undefined;
    if (repo) ids.push(repo.id);
    else missing.push(full);
  }
  for (const owner of scope.owners) if (!db.one("SELECT 1 AS x FROM gh_users WHERE login = ? COLLATE NOCASE", owner)) missing.push(owner);
  if (missing.length) return { ok: false, missing };
  if (scope.repos.length) c.add(`${repoIdExpr} IN (SELECT value FROM json_each(?))`, JSON.stringify(ids));
  // Several `user:`/`org:` qualifiers widen the search to any of them, as GitHub reads them.
  if (scope.owners.length)
    c.add(
      `${repoIdExpr} IN (SELECT id FROM gh_repos WHERE owner COLLATE NOCASE IN (SELECT value FROM json_each(?)))`,
      JSON.stringify([...new Set(scope.owners)]),
    );
  if (scope.visibility) c.add(`${repoIdExpr} IN (SELECT id FROM gh_repos WHERE private = ?)`, scope.visibility === "private" ? 1 : 0);
  return { ok: true };
}

/** A literal, case-insensitive (ASCII, as LIKE was) containment test: no character is a wildcard. */
export const contains = (haystack: string, needle: string) => `instr(lower(coalesce(${haystack}, '')), lower(${needle})) > 0`;

/** `@me` stands for the authenticated user in any qualifier that names a user. */
export const meOr = (login: string, actor: string) => (login.toLowerCase() === "@me" ? actor : login);
