// Line diffs the way git prints them: Myers' algorithm, hunks with three lines of context, and
// the `\ No newline at end of file` marker. Pull-request files, commit files and `.diff` use it.

type Op = { kind: " " | "-" | "+"; text: string };

/** Lines with their terminators, so a missing final newline is a difference, as in git. */
export function splitLines(content: string): string[] {
  const lines = content.match(/[^\n]*\n|[^\n]+$/g);
  return lines ?? [];
}

/** Past this many lines a file is shown as wholly replaced: the twin stays fast on huge blobs. */
const MAX_LINES = 20_000;

function myers(a: string[], b: string[]): Op[] {
  const n = a.length;
  const m = b.length;
  const max = n + m;
  if (max === 0) return [];
  if (max > MAX_LINES) return [...a.map((text) => ({ kind: "-" as const, text })), ...b.map((text) => ({ kind: "+" as const, text }))];
  const offset = max + 1;
  let v: Int32Array = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  let found = false;
  for (let d = 0; d <= max && !found; d++) {
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1] < v[offset + k + 1]) ? v[offset + k + 1] : v[offset + k - 1] + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) {
        found = true;
        break;
      }
    }
  }
  // Walk the trace backwards from the end to recover the edit script.
  const ops: Op[] = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d >= 0; d--) {
    v = trace[d];
    const k = x - y;
    const prevK = k === -d || (k !== d && v[offset + k - 1] < v[offset + k + 1]) ? k + 1 : k - 1;
    const prevX = v[offset + prevK];
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      ops.push({ kind: " ", text: a[x - 1] });
      x--;
      y--;
    }
    if (d > 0) {
      if (x === prevX) ops.push({ kind: "+", text: b[prevY] });
      else ops.push({ kind: "-", text: a[prevX] });
    }
    x = prevX;
    y = prevY;
  }
  return ops.reverse();
}

export interface LineDiff {
  additions: number;
  deletions: number;
  /** The hunks, as GitHub's `patch` field carries them (no file headers, no trailing newline). */
  patch: string;
}

const CONTEXT = 3;

const range = (start: number, length: number) => (length === 1 ? `${start}` : `${start},${length}`);

function printLine(op: Op): string {
  const body = op.text.endsWith("\n") ? op.text.slice(0, -1) : `${op.text}\n\\ No newline at end of file`;
  return `${op.kind}${body}`;
}

export function diffLines(before: string, after: string): LineDiff {
  const ops = myers(splitLines(before), splitLines(after));
  let additions = 0;
  let deletions = 0;
  const changed: number[] = [];
  ops.forEach((op, i) => {
    if (op.kind === "+") additions++;
    if (op.kind === "-") deletions++;
    if (op.kind !== " ") changed.push(i);
  });
  if (!changed.length) return { additions, deletions, patch: "" };
  // Group changes whose context windows touch into one hunk.
  const groups: [number, number][] = [];
  for (const i of changed) {
    const start = Math.max(0, i - CONTEXT);
    const end = Math.min(ops.length - 1, i + CONTEXT);
    const last = groups[groups.length - 1];
    if (last && start <= last[1] + 1) last[1] = end;
    else groups.push([start, end]);
  }
  // Line numbers of each op on both sides, to write the hunk headers.
  const aBefore: number[] = [];
  const bBefore: number[] = [];
  let aLine = 0;
  let bLine = 0;
  for (const op of ops) {
    aBefore.push(aLine);
    bBefore.push(bLine);
    if (op.kind !== "+") aLine++;
    if (op.kind !== "-") bLine++;
  }
  const hunks = groups.map(([start, end]) => {
    const slice = ops.slice(start, end + 1);
    const aLen = slice.filter((op) => op.kind !== "+").length;
    const bLen = slice.filter((op) => op.kind !== "-").length;
    const aStart = aLen ? aBefore[start] + 1 : aBefore[start];
    const bStart = bLen ? bBefore[start] + 1 : bBefore[start];
    return [`@@ -${range(aStart, aLen)} +${range(bStart, bLen)} @@`, ...slice.map(printLine)].join("\n");
  });
  return { additions, deletions, patch: hunks.join("\n") };
}
