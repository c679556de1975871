// The result table, as aligned text for stdout and as markdown (results.json `markdown`, and the
// tables bench/report.mjs writes into bench/README.md).
import { formatP99, formatRatio, formatTarget, formatValue, mark } from "./figures.mjs";

const HEAD = ["Figure", "Value", "Baseline", "Ratio", "Target", "", "p99, × baseline p99", "Peer"];

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
    f.error ? "" : formatP99(f.p99, f.unit),
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

/** The figures of each section, in the order they come, as [section, figures] pairs. */
function bySection(figures) {
  const sections = [];
  for (const f of figures) {
    const last = sections.at(-1);
    if (last && last[0] === f.section) last[1].push(f);
    else sections.push([f.section, [f]]);
  }
  return sections;
}

/** One markdown table with no section rows (the section is its heading). */
function plainTable(figures) {
  const escapeCell = (s) => s.replaceAll("|", "\\|");
  const head = HEAD.map((h) => h || "Met");
  const body = rows(figures).map((r) => `| ${r.map(escapeCell).join(" | ")} |`);
  return [`| ${head.join(" | ")} |`, `|${head.map(() => " --- ").join("|")}|`, ...body].join("\n");
}

const pad = (n) => String(n).padStart(2, "0");
/** "6 Dec 2026, 09:57 UTC" from an ISO time. */
function runTime(iso) {
  const d = new Date(iso);
  const month = d.toLocaleString("en-GB", { month: "short", timeZone: "UTC" });
  return `${d.getUTCDate()} ${month} ${d.getUTCFullYear()}, ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())} UTC`;
}

/**
 * The results block of bench/README.md, from a results.json: the run (when, where, how loaded),
 * the count of targets met, and one table per section. bench/report.mjs writes it between the
 * README's markers; a test checks the two agree.
 * @param {{ mode: string, generated_at: string, duration_s: number, state_folder?: string, machine: any, summary: string, figures: any[] }} results
 */
export function resultsBlock(results) {
  const m = results.machine ?? {};
  const load = (l) => (Array.isArray(l) ? l[0].toFixed(1) : "?");
  const lines = [
    `The ${results.mode === "quick" ? "smoke (`--quick`)" : "full"} run of ${runTime(results.generated_at)}, ` +
      `${results.duration_s} s: ${m.cpus ?? "?"} × ${m.cpu_model ?? "unknown CPU"}, Node ${m.node ?? "?"}, ` +
      `one-minute load average ${load(m.load_average_at_start)} at the start and ${load(m.load_average_at_end)} at the end; ` +
      `the server's state folder ${results.state_folder ?? "unknown"}. **${results.summary}.**`,
  ];
  const extra = notes(results.figures);
  for (const [section, figures] of bySection(results.figures)) lines.push("", `### ${section}`, "", plainTable(figures));
  if (extra) lines.push("", "Notes on failed or annotated figures:", "", ...extra.split("\n").map((n) => `- ${n}`));
  return lines.join("\n");
}

export const BLOCK_START = "<!-- results: written by `npm run bench:report` from bench/results.json; do not edit by hand -->";
export const BLOCK_END = "<!-- end of results -->";

/** `readme` with its results block replaced by `block`; throws when the markers are missing. */
export function withResultsBlock(readme, block) {
  const start = readme.indexOf(BLOCK_START);
  const end = readme.indexOf(BLOCK_END);
  if (start < 0 || end < start) throw new Error(`bench/README.md has no results markers (${BLOCK_START} … ${BLOCK_END})`);
  return `${readme.slice(0, start + BLOCK_START.length)}\n\n${block}\n\n${readme.slice(end)}`;
}
