// A filter's criteria as one search query, checked when the filter is stored (filters.create, a
// seed) so that running it later, inside a delivery, can never fail: a query that cannot be read is
// refused up front, and one that still cannot be read at delivery simply does not match.
import { isBody } from "../../kit/input";
import { compileQuery, type Query } from "./search";

export interface FilterCriteria {
  from?: string;
  to?: string;
  subject?: string;
  query?: string;
  negatedQuery?: string;
  hasAttachment?: boolean;
}

const text = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);

/** The search a filter runs: its fields as operators, its query, its negated query, ANDed. */
export function criteriaQuery(criteria: FilterCriteria): string {
  const from = text(criteria.from);
  const to = text(criteria.to);
  const subject = text(criteria.subject);
  const query = text(criteria.query);
  const negated = text(criteria.negatedQuery);
  return [
    from && `from:(${from})`,
    to && `to:(${to})`,
    subject && `subject:(${subject})`,
    query,
    negated && `-(${negated})`,
    criteria.hasAttachment === true ? "has:attachment" : undefined,
  ]
    .filter((t): t is string => t !== undefined)
    .join(" ");
}

/** The criteria fields that hold search text, each checked on its own so a refusal names its field. */
const QUERY_FIELDS = ["from", "to", "subject", "query", "negatedQuery"] as const;

/**
 * Why criteria cannot be stored, naming the field (`query`), or the whole (`criteria`) when only
 * their combination is past a bound; undefined when they can.
 */
export function criteriaProblem(criteria: FilterCriteria): { field: string; reason: string } | undefined {
  for (const field of QUERY_FIELDS) {
    const value = text(criteria[field]);
    if (value === undefined) continue;
    const compiled = compileQuery(field === "query" || field === "negatedQuery" ? value : `${field}:(${value})`, 0);
    if (!compiled.ok) return { field, reason: compiled.reason };
  }
  const whole = compileQuery(criteriaQuery(criteria), 0);
  return whole.ok ? undefined : { field: "criteria", reason: whole.reason };
}

/** Criteria read back from storage; anything that is not an object asks nothing. */
export function storedCriteria(json: string): FilterCriteria | undefined {
  try {
    const value: unknown = JSON.parse(json);
    return isBody(value) ? (value as FilterCriteria) : undefined;
  } catch {
    return undefined;
  }
}

/** The filter's query ready to run, or undefined when it asks nothing or cannot be read. */
export function filterMatcher(criteria: FilterCriteria, now: number): Query | undefined {
  const q = criteriaQuery(criteria);
  if (q === "") return undefined;
  const compiled = compileQuery(q, now);
  return compiled.ok ? compiled.query : undefined;
}
