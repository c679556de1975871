// The result table, as aligned text for stdout and as markdown (results.json `markdown`, the README table).
import { formatRatio, formatTarget, formatValue, mark } from "./figures.mjs";

const HEAD = ["Figure", "Value", "Floor or baseline", "Ratio", "Target", "", "Peer (issue 5)"];

function rows(figures) {
  return figures.map((f) => [
    f.name,
    f.error ? "failed" : formatValue(f.value, f.unit),
    f.error
      ? `✗ ${f.error.length > 70 ? `${f.error.slice(0, 67)}...` : f.error}`
      : f.baseline === null
        ? (f.baseline_label ?? "—")
        : `${formatValue(f.baseline, f.unit)} ${f.baseline_label ?? ""}`.trim(),
    formatRatio(f.ratio),
    formatTarget(f.target),
    mark(f),
    f.peer ?? "",
  ]);
}

export function textTable(figures) {
  const body = rows(figures);
  const widths = HEAD.map((h, i) => Math.max(h.length, ...body.map((r) => r[i].length)));
  const line = (cells) =>
    cells
      .map((c, i) => c.padEnd(widths[i]))
      .join("  ")
      .trimEnd();
  const out = [line(HEAD), widths.map((w) => "-".repeat(w)).join("  ")];
  let section = "";
  figures.forEach((f, i) => {
    if (f.section !== section) {
      section = f.section;
      out.push(`${section}`);
    }
    out.push(line(body[i]));
  });
  return out.join("\n");
}

export function markdownTable(figures) {
  const escapeCell = (s) => s.replaceAll("|", "\\|");
  const out = [`| ${HEAD.map((h) => h || "Met").join(" | ")} |`, `|${HEAD.map(() => " --- ").join("|")}|`];
  let section = "";
  const body = rows(figures);
  figures.forEach((f, i) => {
    if (f.section !== section) {
      section = f.section;
      out.push(
        `| **${escapeCell(section)}** |${HEAD.slice(1)
          .map(() => " ")
          .join("|")}|`,
      );
    }
    out.push(`| ${body[i].map(escapeCell).join(" | ")} |`);
  });
  return out.join("\n");
}

export function summary(figures) {
  const judged = figures.filter((f) => f.met !== null);
  const met = judged.filter((f) => f.met).length;
  return `${met} of ${judged.length} targets met`;
}

/** Full error texts and notes, for the lines under the table. */
export function notes(figures) {
  return figures
    .filter((f) => f.error || f.note)
    .map((f) => `${f.id}: ${[f.error, f.note].filter(Boolean).join("; ")}`)
    .join("\n");
}
