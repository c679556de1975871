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

// A stored row is JSON.stringify of a TapeRow: seq … path first, then the bodies, then status is
// buried between them, and mutated, fidelity, operation close the line. Reading the ends of the
// line avoids parsing bodies of many kilobytes for every mutating call.
const HEAD = /^\{"seq":(\d+),"at":"[^"]*","twin":"([a-z]+)","transport":"[a-z]+","method":"([A-Z]+)","path":"((?:[^"\\]|\\.)*)"/;
const TAIL = /,"mutated":(true|false),"fidelity":"(?:supported|unsupported)","operation":"(?:[^"\\]|\\.)*"\}$/;

/** Whether a line has the stored layout the fast path reads (the tests hold real tapes to it). */
export const hasStoredLayout = (line: string) => HEAD.test(line) && TAIL.test(line.slice(-400));

/** The call a mutating line records, or null when the row did not mutate. */
function callRefOf(line: string): Omit<CallRef, "page"> | null {
  const head = HEAD.exec(line);
  const tail = TAIL.exec(line.slice(-400));
  if (head && tail)
    return tail[1] === "true" ? { seq: Number(head[1]), twin: head[2], method: head[3], path: JSON.parse(`"${head[4]}"`) as string } : null;
  // Not the stored layout: read the row in full.
  const row = JSON.parse(line) as TapeRow;
  return row.mutated === true ? { seq: row.seq, twin: row.twin, method: row.method, path: row.path } : null;
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
    if (!line.includes('"mutated":true')) return;
    const ref = callRefOf(line);
    if (ref) mutating.push({ ...ref, page: pageOfIndex(i) });
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
