// Stripe's search query language over the common fields: `field:'value'` (exact, case-insensitive),
// `field~'sub'` (substring), `field>n` `<` `>=` `<=` on numbers, `metadata['key']:'value'`,
// `-` for negation, `null` for an absent value, clauses joined by AND or by OR (not both).
// Search reads a write at once; Stripe's index lags up to a minute (the twin's notes say so).
import { fail, invalidRequest } from "./errors";
import { rec, type Rec } from "./store";

interface Clause {
  negate: boolean;
  field: string;
  metaKey?: string;
  op: ":" | "~" | ">" | "<" | ">=" | "<=";
  value: string | number | null;
}

const CLAUSE =
  /^(-?)([a-z_.]+)(?:\[['"]([^'"]+)['"]\])?\s*(:|~|>=|<=|>|<)\s*(?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"|(-?\d+(?:\.\d+)?)|(null))$/;

const OPS = [":", "~", ">=", "<=", ">", "<"] as const;

export interface Query {
  clauses: Clause[];
  joiner: "and" | "or";
}

const badQuery = (message: string) => fail(invalidRequest(message, { param: "query" }));

/** ` AND ` or ` OR ` starting exactly at `lastIndex` (sticky: no scan ahead). */
const JOINER = /\s+(AND|OR)\s+/iy;

/**
 * Splits on AND/OR outside quotes. A joiner is looked for only where a run of spaces starts, so
 * each run is read once: a long run of spaces costs its length, not its length squared.
 */
function tokens(query: string): string[] {
  const out: string[] = [];
  let cur = "";
  let quote: string | null = null;
  for (let i = 0; i < query.length; i++) {
    const ch = query[i];
    if (quote) {
      cur += ch;
      if (ch === quote && query[i - 1] !== "\\") quote = null;
      continue;
    }
    if (ch === "'" || ch === '"') quote = ch;
    JOINER.lastIndex = i;
    const runStart = i === 0 || !/\s/.test(query[i - 1]);
    const m = runStart && /\s/.test(ch) ? JOINER.exec(query) : null;
    if (m) {
      out.push(cur.trim(), m[1].toLowerCase());
      cur = "";
      i += m[0].length - 1;
      continue;
    }
    cur += ch;
  }
  out.push(cur.trim());
  return out;
}

export function parseQuery(query: string, fields: readonly string[]): Query {
  const parts = tokens(query.trim());
  const clauses: Clause[] = [];
  const joiners = new Set<string>();
  parts.forEach((part, i) => {
    if (i % 2 === 1) {
      joiners.add(part);
      return;
    }
    const m = CLAUSE.exec(part);
    if (!m) return badQuery(`Invalid query: could not parse the clause \`${part}\`. Clauses look like field:'value'.`);
    const field = m[2];
    if (!fields.includes(field))
      return badQuery(`Field \`${field}\` is an unsupported search field for this resource. Supported fields: ${fields.join(", ")}.`);
    const value = m[8] ? null : m[7] !== undefined ? Number(m[7]) : (m[5] ?? m[6] ?? "").replace(/\\(.)/g, "$1");
    const op = OPS.find((o) => o === m[4]) ?? badQuery(`Invalid query: unknown operator in \`${part}\`.`);
    clauses.push({ negate: m[1] === "-", field, metaKey: m[3], op, value });
  });
  if (joiners.size > 1) return badQuery("Invalid query: a query cannot mix AND and OR.");
  if (clauses.length > 10) return badQuery("Invalid query: at most 10 clauses are allowed.");
  return { clauses, joiner: joiners.has("or") ? "or" : "and" };
}

function fieldValue(o: Rec, c: Clause): unknown {
  if (c.field === "metadata") return c.metaKey ? rec(o.metadata)[c.metaKey] : undefined;
  let v: unknown = o;
  for (const seg of c.field.split(".")) v = rec(v)[seg];
  return v;
}

function test(o: Rec, c: Clause): boolean {
  const v = fieldValue(o, c);
  let hit: boolean;
  if (c.value === null) hit = v === null || v === undefined;
  else if (c.op === ":")
    hit =
      typeof v === "number"
        ? v === Number(c.value)
        : typeof v === "boolean"
          ? String(v) === String(c.value)
          : typeof v === "string" && v.toLowerCase() === String(c.value).toLowerCase();
  else if (c.op === "~") hit = typeof v === "string" && v.toLowerCase().includes(String(c.value).toLowerCase());
  else {
    const n = typeof v === "number" ? v : Number.NaN;
    const x = Number(c.value);
    hit = c.op === ">" ? n > x : c.op === "<" ? n < x : c.op === ">=" ? n >= x : n <= x;
  }
  return c.negate ? !hit : hit;
}

export function matches(o: Rec, q: Query): boolean {
  if (!q.clauses.length) return true;
  return q.joiner === "and" ? q.clauses.every((c) => test(o, c)) : q.clauses.some((c) => test(o, c));
}
