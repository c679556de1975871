// stdout carries the answer (text, or one JSON document with --json); stderr carries progress
// and errors, so `pome … --json | jq` always sees clean JSON.

export function createOutput({ json = false, quiet = false } = {}) {
  return {
    json,
    /** A progress line on stderr (also with --json, whose document is on stdout); --quiet silences it. */
    progress(message) {
      if (!quiet) process.stderr.write(`${message}\n`);
    },
    /** A warning on stderr; --quiet silences it. */
    warn(message) {
      if (!quiet) process.stderr.write(`warning: ${message}\n`);
    },
    /** The command's answer: `text` for people, `data` for --json. */
    result(text, data) {
      if (json) process.stdout.write(`${JSON.stringify(data, null, 2)}\n`);
      else if (text) process.stdout.write(text.endsWith("\n") ? text : `${text}\n`);
    },
  };
}

/** Lays out rows as aligned columns. */
export function table(headers, rows) {
  const cells = [headers, ...rows].map((row) => row.map((cell) => (cell === null || cell === undefined ? "-" : String(cell))));
  const widths = headers.map((_, i) => Math.max(...cells.map((row) => row[i].length)));
  return cells.map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]))).join("  ")).join("\n");
}

export const percent = (n) => `${Math.round(n * 100) / 100}%`;
