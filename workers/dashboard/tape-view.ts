// The slice of a run's tape one page of the timeline shows. A tape can hold many thousands of
// rows and tens of megabytes, so the first view of a run builds a small index of it (each page's
// byte range and seqs, and every mutating call, which the criteria link to); later views read the
// index and one page's byte range and parse only those lines. Plain functions over bytes.
import type { TapeRow } from "../../durable-objects/twins/types";

export const TIMELINE_PAGE_SIZE = 100;

/** Where a tape's timeline index is kept: beside the tape, versioned with the index format. */
export const timelineIndexKey = (traceKey: string) => `${traceKey}.timeline-index.v1.json`;

export interface CallRef {
  seq: number;
  twin: string;
  method: string;
  path: string;
  /** The tape's operation column (a GraphQL call's operation); absent in indexes stored before it was kept. */
  operation?: string;
  page: number;
}

export interface TimelineIndex {
  version: 1;
  pageSize: number;
  total: number;
  /** Byte range and seq range of each page of lines in events.jsonl. */
  pages: { offset: number; length: number; first_seq: number; last_seq: number }[];
  mutating: CallRef[];
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

// A stored row is JSON.stringify of a TapeRow: seq … path first, then the headers and bodies with
// status between them, and mutated, fidelity, operation close the line. Reading the two ends of
// the line avoids parsing bodies of many kilobytes.
const HEAD = /^\{"seq":(\d+),"at":"[^"]*","twin":"([a-z]+)","transport":"[a-z]+","method":"([A-Z]+)","path":"((?:[^"\\]|\\.)*)"/;
const TAIL = /,"mutated":(true|false),"fidelity":"(?:supported|unsupported)","operation":"((?:[^"\\]|\\.)*)"\}$/;

/** Whether a line has the stored layout the fast path reads (the tests hold real tapes to it). */
export const hasStoredLayout = (line: string) => HEAD.test(line) && TAIL.test(line.slice(-400));

interface LineFacts {
  seq: number;
  ref: Omit<CallRef, "page"> | null;
}

function factsOf(line: string): LineFacts {
  const head = HEAD.exec(line);
  const tail = head ? TAIL.exec(line.slice(-400)) : null;
  if (head && tail) {
    const seq = Number(head[1]);
    const ref = {
      seq,
      twin: head[2],
      method: head[3],
      path: JSON.parse(`"${head[4]}"`) as string,
      operation: JSON.parse(`"${tail[2]}"`) as string,
    };
    return { seq, ref: tail[1] === "true" ? ref : null };
  }
  // Not the stored layout (an older or hand-made tape): read the row in full.
  const row = JSON.parse(line) as TapeRow;
  const ref = { seq: row.seq, twin: row.twin, method: row.method, path: row.path, operation: row.operation };
  return { seq: row.seq, ref: row.mutated === true ? ref : null };
}

const NEWLINE = 10;
const decoder = new TextDecoder();

/** One pass over the tape's bytes: where each page's lines start and end, and what mutated. */
export function buildTimelineIndex(bytes: Uint8Array, pageSize = TIMELINE_PAGE_SIZE): TimelineIndex {
  const pages: TimelineIndex["pages"] = [];
  const mutating: CallRef[] = [];
  let total = 0;
  let start = 0;
  let pageStart = 0;
  let firstSeq = 0;
  let lastSeq = 0;
  while (start < bytes.length) {
    let end = bytes.indexOf(NEWLINE, start);
    if (end === -1) end = bytes.length;
    if (end > start) {
      // JSON escapes newlines inside strings, so a newline byte always ends a row.
      const facts = factsOf(decoder.decode(bytes.subarray(start, end)));
      if (total % pageSize === 0) {
        pageStart = start;
        firstSeq = facts.seq;
      }
      lastSeq = facts.seq;
      if (facts.ref) mutating.push({ ...facts.ref, page: pages.length + 1 });
      total++;
      if (total % pageSize === 0) pages.push({ offset: pageStart, length: end - pageStart, first_seq: firstSeq, last_seq: lastSeq });
    }
    start = end + 1;
  }
  if (total % pageSize !== 0) pages.push({ offset: pageStart, length: bytes.length - pageStart, first_seq: firstSeq, last_seq: lastSeq });
  return { version: 1, pageSize, total, pages, mutating };
}

/** The page number to show: clamped to the tape, 1 for anything unreadable. */
export const clampPage = (index: TimelineIndex, requested: number) =>
  Math.min(Math.max(1, Math.floor(requested) || 1), Math.max(1, index.pages.length));

/** The view of one page, from the index and that page's lines (the bytes index.pages[page - 1] names). */
export function viewOf(index: TimelineIndex, page: number, pageText: string): TapeView {
  const rows = pageText
    .split("\n")
    .filter((l) => l.length > 0)
    .map((l) => JSON.parse(l) as TapeRow);
  const pageOf = (seq: number): number | null => {
    // Stored tapes are in seq order: binary search the pages, then look for the row on that page.
    let lo = 0;
    let hi = index.pages.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const p = index.pages[mid];
      if (seq < p.first_seq) hi = mid - 1;
      else if (seq > p.last_seq) lo = mid + 1;
      else return mid + 1;
    }
    return null;
  };
  return {
    total: index.total,
    page,
    pages: Math.max(1, index.pages.length),
    pageSize: index.pageSize,
    rows,
    mutating: index.mutating,
    pageOf,
  };
}

/** The whole path in memory: index the tape and view one page (tests, and a run viewed for the first time). */
export function tapeView(jsonl: string | Uint8Array, requestedPage: number, pageSize = TIMELINE_PAGE_SIZE): TapeView {
  const bytes = typeof jsonl === "string" ? new TextEncoder().encode(jsonl) : jsonl;
  const index = buildTimelineIndex(bytes, pageSize);
  const page = clampPage(index, requestedPage);
  const range = index.pages[page - 1];
  return viewOf(index, page, range ? decoder.decode(bytes.subarray(range.offset, range.offset + range.length)) : "");
}

/** The seqs a criterion's reason names ("… (seq 12)"), so its row can link to them. */
export const seqsInReason = (reason: string): number[] => [...reason.matchAll(/\bseq (\d+)\b/g)].map((m) => Number(m[1]));
