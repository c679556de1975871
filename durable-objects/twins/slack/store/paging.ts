// Slack's cursor pagination: `limit` (capped), an opaque `cursor`, and
// `response_metadata.next_cursor` empty on the last page.
import { decodeCursor, encodeCursor } from "../../kit/cursor";
import type { Call } from "../context";
import { fail } from "../errors";

export interface Page {
  limit: number;
  /** The key the previous page ended at, if this is not the first page. */
  after: string | undefined;
}

export function pageOf(call: Call, list: string, fallback = 100, max = 1000): Page {
  const requested = call.args.int("limit");
  const limit = requested === undefined || requested <= 0 ? fallback : Math.min(requested, max);
  const cursor = call.args.str("cursor");
  if (cursor === undefined) return { limit, after: undefined };
  const after = decodeCursor(list, cursor);
  return after === undefined ? fail("invalid_cursor") : { limit, after };
}

/** Cuts the `limit + 1` rows a query fetched to one page and says where the next one starts. */
export function cut<T>(rows: T[], page: Page, list: string, keyOf: (row: T) => string): { rows: T[]; next: string } {
  if (rows.length <= page.limit) return { rows, next: "" };
  const shown = rows.slice(0, page.limit);
  const last = shown.at(-1);
  return { rows: shown, next: last === undefined ? "" : encodeCursor(list, keyOf(last)) };
}

export const metadata = (next: string) => ({ response_metadata: { next_cursor: next } });
