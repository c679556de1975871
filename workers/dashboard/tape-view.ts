// The slice of a run's tape one page of the timeline shows. A tape can hold many thousands of
// rows, so only the page's lines are parsed in full; mutating rows (which the criteria link to) are
// found by a substring test and parsed alone. Plain functions over the stored events.jsonl text.
import type { TapeRow } from "../../durable-objects/twins/types";

export const TIMELINE_PAGE_SIZE = 100;

export interface CallRef {
  seq: number;
  twin: string;
  method: string;
  path: string;
  status: number;
  page: number;
}

export interface TapeView {
  total: number;
  page: number;
  pages: number;
  pageSize: number;
  rows: TapeRow[];
  /** Every mutating call, in seq order. */
  mutating: CallRef[];
  /** The timeline page that holds a seq, or null when the tape has no such row. */
  pageOf(seq: number): number | null;
}

/** The row's seq from its line without parsing the whole line (stored rows start with it). */
function seqOfLine(line: string): number {
  const m = /^\{"seq":(\d+)[,}]/.exec(line);
  if (m) return Number(m[1]);
  const row = JSON.parse(line) as { seq?: unknown };
  return typeof row.seq === "number" ? row.seq : Number.NaN;
}

export function tapeView(jsonl: string, requestedPage: number, pageSize = TIMELINE_PAGE_SIZE): TapeView {
  const lines = jsonl.split("\n").filter((l) => l.length > 0);
  const total = lines.length;
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const page = Math.min(Math.max(1, Math.floor(requestedPage) || 1), pages);
  const rows = lines.slice((page - 1) * pageSize, page * pageSize).map((l) => JSON.parse(l) as TapeRow);
  const pageOfIndex = (i: number) => Math.floor(i / pageSize) + 1;
  const mutating: CallRef[] = [];
  lines.forEach((line, i) => {
    // A quoted "mutated":true inside a body is escaped (\"mutated\"), so only the row's own flag matches.
    if (!line.includes('"mutated":true')) return;
    const row = JSON.parse(line) as TapeRow;
    if (row.mutated === true) mutating.push({ seq: row.seq, twin: row.twin, method: row.method, path: row.path, status: row.status, page: pageOfIndex(i) });
  });
  const pageOf = (seq: number): number | null => {
    // Stored tapes are in seq order: binary search on each line's leading seq.
    let lo = 0;
    let hi = total - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const at = seqOfLine(lines[mid]);
      if (at === seq) return pageOfIndex(mid);
      if (at < seq) lo = mid + 1;
      else hi = mid - 1;
    }
    return null;
  };
  return { total, page, pages, pageSize, rows, mutating, pageOf };
}

/** The seqs a criterion's reason names ("… (seq 12)"), so its row can link to them. */
export const seqsInReason = (reason: string): number[] => [...reason.matchAll(/\bseq (\d+)\b/g)].map((m) => Number(m[1]));
