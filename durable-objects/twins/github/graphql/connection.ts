// Relay connections as GitHub serves them: `first/after/last/before` over a list whose length is
// known, `edges { cursor node }`, `nodes`, `pageInfo` and `totalCount`. A cursor is an opaque
// base64 position (GitHub's are opaque too: `Y3Vyc29yOnYyOpHOAAGn5A==`). A page reads only its rows.
import { GithubGraphqlError } from "./errors";

export interface PageArgs {
  first?: number | null;
  after?: string | null;
  last?: number | null;
  before?: string | null;
}

export interface Connection<T> {
  edges: { cursor: string; node: T }[];
  nodes: T[];
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
  totalCount: number;
}

const CURSOR_PREFIX = "cursor:v2:";

export const cursorAt = (index: number) => btoa(`${CURSOR_PREFIX}${index}`);

/** The position a cursor names; GitHub refuses a cursor it did not hand out. */
export function positionOf(cursor: string): number {
  let text = "";
  try {
    text = atob(cursor);
  } catch {
    // refused below
  }
  const index = text.startsWith(CURSOR_PREFIX) ? Number(text.slice(CURSOR_PREFIX.length)) : Number.NaN;
  if (!Number.isSafeInteger(index) || index < 0)
    throw new GithubGraphqlError("INVALID_CURSOR_ARGUMENTS", `\`${cursor.slice(0, 100)}\` does not appear to be a valid cursor.`);
  return index;
}

/** The half-open range [start, end) of `total` items a page's arguments select. */
export function windowOf(args: PageArgs, total: number): { start: number; end: number } {
  let start = args.after ? positionOf(args.after) + 1 : 0;
  let end = args.before ? Math.min(positionOf(args.before), total) : total;
  start = Math.min(start, total);
  if (end < start) end = start;
  if (typeof args.first === "number") end = Math.min(end, start + Math.max(0, args.first));
  if (typeof args.last === "number") start = Math.max(start, end - Math.max(0, args.last));
  return { start, end };
}

/** A connection over `total` items, reading only the page (`read(limit, offset)`). */
export function connectionOf<T>(args: PageArgs, total: number, read: (limit: number, offset: number) => readonly T[]): Connection<T> {
  const { start, end } = windowOf(args, total);
  const nodes = end > start ? [...read(end - start, start)] : [];
  const edges = nodes.map((node, i) => ({ cursor: cursorAt(start + i), node }));
  return {
    edges,
    nodes,
    pageInfo: {
      hasNextPage: start + nodes.length < total,
      hasPreviousPage: start > 0,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
    },
    totalCount: total,
  };
}

/** A connection over a list already in memory (an issue's labels, a commit's parents). */
export const connectionOfList = <T>(args: PageArgs, items: readonly T[]): Connection<T> =>
  connectionOf(args, items.length, (limit, offset) => items.slice(offset, offset + limit));
